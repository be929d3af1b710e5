"""The Schur decomposition A = Z T Z^H (``scipy.linalg.schur``) and its derivative.

With Omega = Z^H dZ (skew-Hermitian) and C = Z^H dA Z, differentiating A = Z T Z^H gives
dT = C - (Omega T - T Omega). dT is upper triangular, so the strictly lower part of
Omega T - T Omega must equal C's; those equations involve only Omega's strictly lower
entries (T is upper triangular) and form a triangular Sylvester system, solvable where the
eigenvalues (T's diagonal) are distinct. Omega's diagonal is the gauge: 0 here, which is
the function's own derivative for real Schur vectors (defined up to sign) and, for complex
ones (defined up to phase), the derivative of any function that does not depend on the
phases. A real Schur form with 2 by 2 blocks (complex eigenvalues) is not triangular: its
derivative is not implemented.
"""
import numpy as np
import scipy.linalg

from ..core import dtype_of, every_value, shape_of
from ..numpy import linalg as _np_linalg
from ..numpy._base import unbroadcast
from ..numpy._batching import leading as batch_leading
from ..numpy._rules import ArgVJP, aval, defbatch, defjvp, defvjp, primitive
from ..numpy.elementwise import conjugate
from ..numpy.indexing import getitem
from ..numpy.products import einsum, matmul
from ..numpy.shape_ops import reshape, triu
from ..numpy.linalg import _H, _conj, _mT
from ._stacks import answering_empty_stacks

_SORTS = (None, "lhp", "rhp", "iuc", "ouc")


def _schur_impl(a, output, sort):
    """SciPy's schur of each matrix of a stack (vmap stacks them)."""
    if a.ndim > 2:
        pairs = [_schur_impl(m, output, sort) for m in a.reshape((-1,) + a.shape[-2:])]
        return tuple(np.stack([pair[k] for pair in pairs]).reshape(a.shape[:-2] + pairs[0][k].shape)
                     for k in range(2))
    t, z, *_ = scipy.linalg.schur(a, output=output, sort=sort)
    return t, z


schur_p = primitive(answering_empty_stacks(_schur_impl), "scipy.linalg.schur",
                    multiple_results=True)


def _lower_indices(n):
    """The flat (row-major) indices of the strictly lower triangle of an n by n matrix."""
    rows, columns = np.tril_indices(n, -1)
    return rows * n + columns


def _sylvester_matrix(t):
    """The matrix of L -> strictly lower part of (L T - T L) on strictly lower L: row and
    column (i, j) of (I x T^T - T x I), restricted to i > j."""
    n, batch = shape_of(t)[-1], shape_of(t)[:-2]
    eye = np.eye(n, dtype=dtype_of(t))
    full = einsum("ik,...lj->...ijkl", eye, t) - einsum("...ik,jl->...ijkl", t, eye)
    lower = _lower_indices(n)
    full = reshape(full, batch + (n * n, n * n))
    return getitem(getitem(full, (Ellipsis, lower, slice(None))), (Ellipsis, lower))


def _check_triangular(t, output):
    values = np.asarray(every_value(t))
    if output == "real" and np.any(np.tril(values, -1) != 0):
        raise NotImplementedError(
            "funcgrad.scipy.linalg.schur: the derivative of the real Schur form of a matrix "
            "with complex eigenvalues (2 by 2 diagonal blocks) is not implemented; use "
            "output='complex'")


def _strictly_lower(x):
    """The strictly lower entries of (each matrix of) ``x``, as a column (..., m, 1)."""
    n = shape_of(x)[-1]
    flat = reshape(x, shape_of(x)[:-2] + (n * n, 1))
    return getitem(flat, (Ellipsis, _lower_indices(n), slice(None)))


def _scatter_lower(column, n):
    """The n by n matrices with ``column`` (..., m, 1) in their strictly lower triangle."""
    lower = _lower_indices(n)
    selection = np.zeros((n * n, len(lower)), np.finfo(dtype_of(column)).dtype)
    selection[lower, np.arange(len(lower))] = 1.0
    return reshape(matmul(selection, column), shape_of(column)[:-2] + (n, n))


def _rotation(c, t):
    """Omega: its strictly lower part L solved from C's, Omega = L - L^H."""
    lower = _scatter_lower(_np_linalg.solve(_sylvester_matrix(t), _strictly_lower(c)),
                           shape_of(t)[-1])
    return lower - _H(lower)


def _schur_jvp(tangent, ans, a, output, sort):
    t, z = ans
    _check_triangular(t, output)
    c = matmul(_H(z), matmul(tangent, z))
    omega = _rotation(c, t)
    return triu(c - (matmul(omega, t) - matmul(t, omega))), matmul(z, omega)


def _schur_pull(cts, t, z, output, shape, dtype):
    """The transpose (JAX's convention: cotangents pair with tangents without conjugation)
    of the JVP above, step by step backwards."""
    _check_triangular(t, output)
    g_t, g_z = cts
    g_c = 0.0
    g_omega = 0.0
    if g_z is not None:
        g_omega = matmul(_mT(z), g_z)
    if g_t is not None:
        g_t = triu(g_t)
        g_c = g_t
        g_omega = g_omega - matmul(g_t, _mT(t)) + matmul(_mT(t), g_t)
    # Omega = L - L^H: L's cotangent is g_Omega - conj(g_Omega)^T, on the strictly lower part.
    g_lower = _strictly_lower(g_omega - _conj(_mT(g_omega)))
    g_solution = _np_linalg.solve(_mT(_sylvester_matrix(t)), g_lower)
    g_c = g_c + _scatter_lower(g_solution, shape[-1])
    # C = Z^H dA Z.
    ct = matmul(conjugate(z) if dtype_of(z).kind == "c" else z, matmul(g_c, _mT(z)))
    return unbroadcast(ct, shape, dtype)


defvjp(schur_p, ArgVJP(lambda ans, a, output, sort: (*ans, output, *aval(a)), _schur_pull))
defjvp(schur_p, _schur_jvp)
defbatch(schur_p, batch_leading)


def check_sort(sort):
    if sort not in _SORTS:
        raise ValueError(f"funcgrad.scipy.linalg.schur: sort must be None, 'lhp', 'rhp', "
                         f"'iuc' or 'ouc' (a callable is not supported), got {sort!r}")
