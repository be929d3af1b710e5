"""scipy.linalg's dense solvers and decompositions (det, inv, solve, svd, qr) with SciPy's
signatures, on funcgrad.numpy.linalg's primitives: their derivatives, batching and
errors are those primitives'.

The ``assume_a`` structures read only part of ``a``, as SciPy's LAPACK calls do ('sym',
'her' and 'pos' one triangle, chosen by ``lower``; 'diagonal' the diagonal; the
triangular and 'tridiagonal' ones their band), so the matrix solved is built from that
part first: its derivative then reaches only the entries read, as SciPy's values depend
only on them.
"""
import numpy as np

from ..core import constant_like, dtype_of, shape_of
from ..numpy import linalg as _linalg
from ..numpy.creation import asarray
from ..numpy.elementwise import add, multiply, real
from ..numpy.linalg import _H, _diag_embed, _diagonal, _mT, _real_dtype
from ..numpy.shape_ops import expand_dims, squeeze

# SciPy's names of the structures `solve` and `inv` accept, by the structure they name.
_STRUCTURES = {"gen": "general", "general": "general", "sym": "symmetric",
               "symmetric": "symmetric", "her": "hermitian", "hermitian": "hermitian",
               "pos": "positive definite", "positive definite": "positive definite",
               "diagonal": "diagonal", "tridiagonal": "tridiagonal", "banded": "general",
               "upper triangular": "upper triangular",
               "lower triangular": "lower triangular"}
_INV_STRUCTURES = ("general", "symmetric", "hermitian", "positive definite", "diagonal",
                   "upper triangular", "lower triangular")


def _square(a, name):
    a = asarray(a)
    shape = shape_of(a)
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ValueError(f"funcgrad.scipy.linalg.{name}: expected a square matrix (or a "
                         f"stack of them) for a, got shape {shape}")
    return a


def _structure(assume_a, name, accepted):
    structure = "general" if assume_a is None else _STRUCTURES.get(assume_a)
    if structure not in accepted:
        names = sorted(key for key, value in _STRUCTURES.items() if value in accepted)
        raise ValueError(f"funcgrad.scipy.linalg.{name}: assume_a={assume_a!r} is not a "
                         f"recognized matrix structure; use one of {names} or None")
    return structure


def _band_mask(n, below, above, like):
    """A constant 0/1 matrix selecting the band of `below` subdiagonals and `above`
    superdiagonals (None: all of them)."""
    ones = np.ones((n, n), _real_dtype(like))
    band = ones if below is None else np.triu(ones, -below)
    band = band if above is None else np.tril(band, above)
    return constant_like(band, like)


def _read(a, structure, lower):
    """The matrix that SciPy's solver for `structure` reads from `a`."""
    n = shape_of(a)[-1]
    if structure in ("symmetric", "hermitian", "positive definite"):
        strict = multiply(a, _band_mask(n, None, -1, a) if lower
                          else _band_mask(n, -1, None, a))
        other = _mT(strict) if structure == "symmetric" else _H(strict)
        diagonal = _diagonal(a)
        if structure != "symmetric" and np.dtype(dtype_of(a)).kind == "c":
            diagonal = real(diagonal)  # (LAPACK assumes a Hermitian diagonal real)
        return add(add(strict, other), _diag_embed(diagonal))
    bands = {"diagonal": (0, 0), "tridiagonal": (1, 1), "upper triangular": (0, None),
             "lower triangular": (None, 0)}
    if structure in bands:
        return multiply(a, _band_mask(n, *bands[structure], a))
    return a


def det(a, overwrite_a=False, check_finite=True):
    """``scipy.linalg.det``: the determinant of each matrix in a stack."""
    return _linalg.det(_square(a, "det"))


def inv(a, overwrite_a=False, check_finite=True, *, assume_a=None, lower=False):
    """``scipy.linalg.inv``: the inverse of each matrix, reading only the part of `a` that
    `assume_a` names (see the module docstring). (SciPy 1.17's 'diagonal' leaves the
    off-diagonal entries of its result unset; here they are the inverse's zeros.)"""
    a = _square(a, "inv")
    return _linalg.inv(_read(a, _structure(assume_a, "inv", _INV_STRUCTURES), lower))


def solve(a, b, lower=False, overwrite_a=False, overwrite_b=False, check_finite=True,
          assume_a=None, transposed=False):
    """``scipy.linalg.solve``: x with ``a @ x = b`` (``a.T @ x = b`` when `transposed`),
    reading only the part of `a` that `assume_a` names. `b` is a column of length N (a
    1-d `b`, for every matrix in a stack), or (..., N, K) right-hand sides."""
    a, b = _square(a, "solve"), asarray(b)
    n = shape_of(a)[-1]
    matrix = _read(a, _structure(assume_a, "solve", set(_STRUCTURES.values())), lower)
    if transposed:
        if np.dtype(dtype_of(a)).kind == "c":
            raise NotImplementedError("funcgrad.scipy.linalg.solve: transposed=True is not "
                                      "supported for complex a (as in SciPy)")
        matrix = _mT(matrix)
    b_shape = shape_of(b)
    if len(b_shape) == 1:
        if b_shape[0] != n:
            raise ValueError(f"funcgrad.scipy.linalg.solve: a of shape {shape_of(a)} and b "
                             f"of shape {b_shape}: b needs {n} rows")
        return squeeze(_linalg.solve(matrix, expand_dims(b, -1)), -1)
    if len(b_shape) < 2 or b_shape[-2] != n:
        raise ValueError(f"funcgrad.scipy.linalg.solve: a of shape {shape_of(a)} and b of "
                         f"shape {b_shape}: b must be (N,) or (..., N, K) with N = {n}")
    return _linalg.solve(matrix, b)


def svd(a, full_matrices=True, compute_uv=True, overwrite_a=False, check_finite=True,
        lapack_driver="gesdd"):
    """``scipy.linalg.svd``: ``(U, s, Vh)``, or ``s`` alone without `compute_uv`."""
    if lapack_driver not in ("gesdd", "gesvd"):
        raise ValueError(f"funcgrad.scipy.linalg.svd: lapack_driver must be 'gesdd' or "
                         f"'gesvd', got {lapack_driver!r}")
    return _linalg.svd(asarray(a), full_matrices=full_matrices, compute_uv=compute_uv)


# NumPy's mode giving each of SciPy's ('r' is the full mode's R, with M rows).
_QR_MODES = {"full": "complete", "economic": "reduced", "r": "complete"}


def qr(a, overwrite_a=False, lwork=None, mode="full", pivoting=False, check_finite=True):
    """``scipy.linalg.qr``: ``(Q, R)``; mode 'full' (Q square), 'economic' (Q with
    min(M, N) columns) or 'r' (``(R,)``, a tuple of one, as SciPy returns it)."""
    if pivoting:
        raise NotImplementedError("funcgrad.scipy.linalg.qr: pivoting=True is not "
                                  "supported (its permutation has no derivative); use "
                                  "scipy.linalg.qr on constants")
    if mode not in _QR_MODES:
        raise ValueError(f"funcgrad.scipy.linalg.qr: mode must be one of "
                         f"{sorted(_QR_MODES)}, got {mode!r} ('raw' is not supported)")
    q, r = _linalg.qr(asarray(a), _QR_MODES[mode])
    return (r,) if mode == "r" else (q, r)


__all__ = ["det", "inv", "solve", "svd", "qr"]
