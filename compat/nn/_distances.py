"""Distances and similarities of nn.functional: between corresponding rows of two tensors,
composed as PyTorch composes them (so their grad_fn names follow), and between every pair
of rows of one (pdist)."""
import numpy as np

import funcgrad.numpy as fnp
from funcgrad.core import unbox_all

from .. import _dtypes
from .._grad_mode import no_grad
from .._quiet import quiet
from .._record import engine, result_type, wrap
from .._tensor import require_tensor


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """The cosine of the angle between x1 and x2 along `dim` (each norm at least eps)."""
    dtype = result_type(x1, x2)
    if not dtype.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is "
                           f"{dtype.scalar_name}")
    shape = np.broadcast_shapes(x1.shape, x2.shape)
    x1, x2 = (x if x.shape == shape else x.expand(shape) for x in (x1.to(dtype), x2.to(dtype)))
    norm1 = x1.norm(2, dim, True).clone()
    norm2 = x2.norm(2, dim, True).clone()
    with no_grad():  # the bound is not differentiated through
        norm1.clamp_min_(eps)
        norm2.clamp_min_(eps)
    return ((x1 / norm1) * (x2 / norm2)).sum(dim)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """The p-norm of x1 - x2 + eps over the last dimension."""
    require_tensor(x2, "pairwise_distance", "x2", 2)
    difference = x1 - x2 + eps
    axis = max(x1.dim(), x2.dim()) - 1
    out = quiet().run(lambda d: fnp.linalg.vector_norm(d, ord=p, axis=axis, keepdims=keepdim),
                      engine(difference))
    return wrap(out, "NormBackward1", (difference,))


def pdist(input, p=2):
    """The p-norm distances between the rows of `input` (N, M), each pair i < j once, in
    row-major order: N * (N - 1) / 2 of them."""
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    if not input.dtype.is_floating_point:
        raise RuntimeError("pdist only supports floating-point dtypes")
    if input.dtype is _dtypes.float16:
        raise _dtypes.not_implemented_for("pdist", input.dtype)
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    first, second = np.triu_indices(input.shape[0], k=1)

    def compute(x):
        differences = fnp.subtract(fnp.take(x, first, axis=0), fnp.take(x, second, axis=0))
        # Equal rows are at distance 0 with gradient 0, as in PyTorch (a norm's derivative
        # at 0 is undefined): their differences are replaced before the norm, their
        # distances after it.
        equal = ~np.any(unbox_all(differences) != 0, axis=1)
        safe = fnp.where(equal[:, None], 1.0, differences)
        if p == 0:  # the count of differing coordinates: gradient 0, but recorded
            counts = np.count_nonzero(unbox_all(differences), axis=1).astype(safe.dtype)
            return fnp.where(True, counts, fnp.sum(safe, axis=1))
        return fnp.where(equal, 0.0, fnp.linalg.vector_norm(safe, ord=p, axis=1))
    return wrap(quiet().run(compute, engine(input)), "PdistBackward0", (input,))
