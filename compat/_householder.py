"""LAPACK's Householder form of QR: torch.geqrf (the reflectors and their scales), and the
products of the reflectors, torch.linalg.householder_product (orgqr) and torch.ormqr,
composed of funcgrad operations (differentiable as PyTorch's are; geqrf is not, in either).

geqrf(A) = (a, tau): below a's diagonal, column i holds reflector v_i (its leading 1
implied), and ``Q = H_0 H_1 ... H_(k-1)`` with ``H_i = I - tau_i v_i v_i^H``.
"""
import numpy as np

import funcgrad.numpy as fnp
from funcgrad.core import unbox_all

from . import _layout
from ._dim_args import no_dimensions
from ._not_implemented import without_derivative
from ._return_types import return_type
from ._tensor import Tensor, make

_GEQRF = return_type("geqrf", ("a", "tau"))


def _reflectors(A, count):
    """The first `count` reflectors v_i as the columns of an m x count matrix."""
    m = fnp.shape(A)[-2]
    return fnp.tril(A, -1)[..., :count] + np.eye(m, count, dtype=unbox_all(A).dtype)


def _product(A, tau, columns):
    """The first `columns` columns of H_0 ... H_(k-1), k = tau's length."""
    m, k = fnp.shape(A)[-2], fnp.shape(tau)[-1]
    V = _reflectors(A, k)
    batch = np.broadcast_shapes(fnp.shape(A)[:-2], fnp.shape(tau)[:-1])
    Q = np.broadcast_to(np.eye(m, columns, dtype=unbox_all(A).dtype), batch + (m, columns))
    for i in reversed(range(k)):   # H_i applied to the product of the later ones
        v = V[..., :, i:i + 1]
        scale = fnp.expand_dims(fnp.expand_dims(tau[..., i], -1), -1)
        Q = Q - scale * (v @ (fnp.conj(fnp.swapaxes(v, -1, -2)) @ Q))
    return Q


def check_shapes(A, tau, name):
    """PyTorch's refusals of reflectors `A` and scales `tau` of mismatched shapes (its
    row's check)."""
    if len(fnp.shape(A)) < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    m, n = fnp.shape(A)[-2:]
    if m < n:
        raise RuntimeError(f"{name}: input.shape[-2] must be greater than or equal to "
                           f"input.shape[-1]")
    if not fnp.shape(tau):
        raise no_dimensions(-1)
    if len(fnp.shape(tau)) != len(fnp.shape(A)) - 1:
        raise RuntimeError(f"{name}: Expected tau to have one dimension less than input, but "
                           f"got tau.ndim equal to {len(fnp.shape(tau))} and input.ndim is "
                           f"equal to {len(fnp.shape(A))}")
    if n < fnp.shape(tau)[-1]:
        raise RuntimeError(f"{name}: input.shape[-1] must be greater than or equal to "
                           f"tau.shape[-1]")


def householder_product(input, tau):
    """The m x n matrix of the first n columns of Q."""
    return _product(input, tau, fnp.shape(input)[-1])


def ormqr(input, input2, input3, left=True, transpose=False):
    """op(Q) C (or C op(Q) if not `left`), Q the full m x m product of the reflectors in
    `input` with scales `input2`, C = `input3`, op the conjugate transpose if `transpose`."""
    Q = _product(input, input2, fnp.shape(input)[-2])
    if transpose:
        Q = fnp.conj(fnp.swapaxes(Q, -1, -2))
    return Q @ input3 if left else input3 @ Q


_GEQRF_NODE = without_derivative("geqrf", "GeqrfBackward0")


def geqrf(input, *, out=None):
    """(a, tau), LAPACK's geqrf of each matrix."""
    if out is not None:
        raise TypeError("compat.geqrf(): out= is not supported; assign the result instead")
    if not isinstance(input, Tensor):
        raise TypeError(f"geqrf(): argument 'input' must be Tensor, not "
                        f"{type(input).__name__}")
    if input.dim() < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    values = input.detach().numpy()
    if values.dtype.kind not in "fc" or values.dtype == np.float16:
        raise NotImplementedError(f"\"geqrf_cpu\" not implemented for "
                                  f"'{input.dtype.scalar_name}'")
    transposed, tau = np.linalg.qr(values, "raw")  # (NumPy returns a's transpose)
    # (each matrix column-major, LAPACK's layout and PyTorch's)
    a = _layout.matrices_column_major(np.swapaxes(transposed, -1, -2).astype(values.dtype))
    return _GEQRF(*_GEQRF_NODE.apply(input, make(a), make(tau.astype(values.dtype))))
