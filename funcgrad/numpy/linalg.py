"""funcgrad.numpy.linalg: ``numpy.linalg``, differentiable.

Functions take stacks of matrices (leading batch axes) wherever NumPy does. Derivative
conventions follow JAX: complex cotangents are transposes, not conjugate transposes, of
the linear map; ``cholesky``, ``eigh``, ``eigvalsh`` and the ``hermitian=True`` forms of
``svd`` and ``pinv`` read one triangle of their input, as NumPy does, and differentiate
that function (JAX symmetrises instead), so only that triangle gets a cotangent; and where a
decomposition is not unique (signs and phases of eigen- and singular vectors) the
derivative is the one of the gauge LAPACK returns. Derivatives of ``eigh``, ``svd`` and
``eig`` are undefined at repeated eigen- or singular values.
"""
import collections
import operator

import numpy as np
from numpy.linalg import LinAlgError

from ..core import (Box, constant_like, dtype_of, every_value, shape_of, unbox_all,
                    zeros_in_library_of)
from . import reductions
from ._axes import normalize_axis, normalize_one_axis
from ._batching import holds_anywhere, read_stacked, read_values
from ._batching import leading as batch_leading
from ._rules import ArgVJP, aval, defbatch, defvjp, primitive, reject_out
from ._base import astype, unbroadcast
from .creation import asarray
from .elementwise import (absolute, add, conjugate, imag, multiply, negative, power, real,
                          sqrt, subtract, true_divide)
from .indexing import getitem
from .products import _matmul, dot, einsum, matmul, tensordot
from .products import cross as _cross
from .products import outer as _outer
from .shape_ops import concatenate, expand_dims, reshape, transpose

EigResult = collections.namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
EighResult = collections.namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
QRResult = collections.namedtuple("QRResult", ["Q", "R"])
SlogdetResult = collections.namedtuple("SlogdetResult", ["sign", "logabsdet"])
SVDResult = collections.namedtuple("SVDResult", ["U", "S", "Vh"])

# ---- helpers -------------------------------------------------------------------------


def _is_complex(x):
    return dtype_of(x).kind == "c"


def _real_dtype(x):
    return np.finfo(np.result_type(dtype_of(x), np.float16)).dtype


def _mT(x):
    """Swap the last two axes: the transpose of each matrix in a stack."""
    axes = list(range(len(shape_of(x))))
    axes[-1], axes[-2] = axes[-2], axes[-1]
    return transpose(x, axes)


def _conj(x):
    return conjugate(x) if _is_complex(x) else x


def _H(x):
    """The conjugate transpose of each matrix in a stack."""
    return _conj(_mT(x))


def _eye(n, like):
    return constant_like(np.eye(n, dtype=_real_dtype(like)), like)


def _diag_embed(v):
    """A stack of diagonal matrices with ``v`` on their diagonals."""
    return multiply(expand_dims(v, -1), _eye(shape_of(v)[-1], v))


def _diagonal(x):
    return einsum("...ii->...i", x)


def _triangle_matrix(a):
    """The Hermitian matrix NumPy reads from the lower triangle of ``a``."""
    n = shape_of(a)[-1]
    strict = multiply(a, constant_like(np.tril(np.ones((n, n), _real_dtype(a)), -1), a))
    return add(add(strict, _H(strict)), _diag_embed(real(_diagonal(a))))


def _triangle_cotangent(c, uplo):
    """The cotangent of ``a`` where a function reads only the ``uplo`` ('L' or 'U')
    triangle of ``a`` as a Hermitian matrix ``M`` (NumPy's eigh, cholesky and the
    ``hermitian=`` options), from ``c``, the cotangent of ``M``: each off-diagonal entry of
    the triangle stands for two of ``M``'s, the diagonal's imaginary part is ignored."""
    n = shape_of(c)[-1]
    ones = np.ones((n, n), _real_dtype(c))
    strict = np.tril(ones, -1) if uplo == "L" else np.triu(ones, 1)
    return add(multiply(add(c, _H(c)), constant_like(strict, c)),
               _diag_embed(real(_diagonal(c))))


def _reciprocal_gaps(w):
    """``F[..., i, j] = 1 / (w[j] - w[i])`` off the diagonal, 0 on it."""
    eye = _eye(shape_of(w)[-1], w)
    gaps = subtract(expand_dims(w, -2), expand_dims(w, -1))
    return subtract(true_divide(1.0, add(gaps, eye)), eye)


def _sum_terms(terms):
    total = terms[0]
    for term in terms[1:]:
        total = add(total, term)
    return total


def _check_matrices(a, name, square=True):
    shape = shape_of(a)
    if len(shape) < 2:
        raise LinAlgError(f"funcgrad.numpy.linalg.{name}: expected a matrix or a stack of "
                          f"matrices (at least 2 dimensions), got shape {shape}")
    if square and shape[-1] != shape[-2]:
        raise LinAlgError(f"funcgrad.numpy.linalg.{name}: the matrices must be square, got "
                          f"shape {shape}")


def _as_inexact(a):
    """``a`` as an array, integers and booleans converted to float64 as NumPy does."""
    a = asarray(a)
    return a if dtype_of(a).kind in "fc" else astype(a, np.float64)


def _reporting(name, function):
    """``function`` with NumPy's LinAlgError naming the funcgrad function."""
    def impl(*args, **params):
        try:
            return function(*args, **params)
        except LinAlgError as error:
            raise LinAlgError(f"funcgrad.numpy.linalg.{name}: {error}") from None
    return impl


def _right_solve(x, r):
    """``x @ inv(r)``."""
    return _mT(_solve(_mT(r), _mT(x)))


# ---- inv, solve, det, slogdet --------------------------------------------------------

_inv = primitive(_reporting("inv", np.linalg.inv), "linalg.inv")


def _inv_pull(g, ans):
    # d inv(A) = -inv(A) dA inv(A), transposed.
    return negative(_matmul(_matmul(_mT(ans), g), _mT(ans)))


defvjp(_inv, ArgVJP(lambda ans, a: (ans,), _inv_pull))


def inv(a):
    """``numpy.linalg.inv``: the inverse of each matrix; LinAlgError if one is singular."""
    a = _as_inexact(a)
    _check_matrices(a, "inv")
    return _inv(a)


def _solve_matrices(a, b):
    """``np.linalg.solve`` of a stack of matrices ``b`` (`solve` turns a vector into a
    column), the leading axes broadcast here: CuPy's solve does not broadcast them."""
    batch_a, batch_b = a.shape[:-2], b.shape[:-2]
    if batch_a != batch_b:
        batch = np.broadcast_shapes(batch_a, batch_b)
        a = np.broadcast_to(a, batch + a.shape[-2:])
        b = np.broadcast_to(b, batch + b.shape[-2:])
    return np.linalg.solve(a, b)


_solve = primitive(_reporting("solve", _solve_matrices), "linalg.solve")


def _solve_a_pull(g, a, ans, shape, dtype):
    return unbroadcast(negative(_matmul(_solve(_mT(a), g), _mT(ans))), shape, dtype)


def _solve_b_pull(g, a, shape, dtype):
    return unbroadcast(_solve(_mT(a), g), shape, dtype)


defvjp(_solve, ArgVJP(lambda ans, a, b: (a, ans, *aval(a)), _solve_a_pull),
       ArgVJP(lambda ans, a, b: (a, *aval(b)), _solve_b_pull))


def solve(a, b):
    """``numpy.linalg.solve``: ``x`` with ``a @ x == b``. As in NumPy 2, ``b`` is a vector
    only when it is 1-D; otherwise it is a (stack of) matrices of right-hand sides."""
    a, b = _as_inexact(a), _as_inexact(b)
    _check_matrices(a, "solve")
    n, b_shape = shape_of(a)[-1], shape_of(b)
    if not b_shape or (b_shape[-1] if len(b_shape) == 1 else b_shape[-2]) != n:
        raise ValueError(f"funcgrad.numpy.linalg.solve: b of shape {b_shape} does not match "
                         f"the {n}x{n} matrices of a (b must be ({n},) or (..., {n}, K))")
    if len(b_shape) == 1:
        x = _solve(a, reshape(b, (n, 1)))
        return reshape(x, shape_of(x)[:-1])
    return _solve(a, b)


_det = primitive(np.linalg.det, "linalg.det")


def _adjugate(a):
    """adj(A), which is det(A) inv(A) where A is invertible and stays defined where it is
    not: from A = U diag(s) V^H, adj(A) = det(U) det(V^H) V diag(c) U^H, where c_i is the
    product of the singular values other than s_i (so adj(A) is 0 at rank n - 2 or less)."""
    u, s, vh = _svd(a, full_matrices=False, hermitian=False)
    others = reductions._product_of_others(s, (len(shape_of(s)) - 1,))
    phase = expand_dims(multiply(_det(u), _det(vh)), (-2, -1))
    return multiply(phase, _matmul(multiply(_H(vh), expand_dims(others, -2)), _H(u)))


def _det_pull(g, ans, a):
    # d det(A) = tr(adj(A) dA). det(A) inv(A) is the cheap adjugate, and accurate near
    # singular matrices too (the pivot that makes det small is the one inv divides by);
    # NumPy's inv refuses an exactly singular matrix, where det is 0.
    if holds_anywhere(ans == 0):
        return multiply(expand_dims(g, (-2, -1)), _mT(_adjugate(a)))
    scale = expand_dims(multiply(g, ans), (-2, -1))
    return multiply(scale, _mT(_inv(a)))


defvjp(_det, ArgVJP(lambda ans, a: (ans, a), _det_pull))


def det(a):
    """``numpy.linalg.det``: the determinant of each matrix."""
    a = _as_inexact(a)
    _check_matrices(a, "det")
    return _det(a)


_slogdet = primitive(lambda a: tuple(np.linalg.slogdet(a)), "linalg.slogdet",
                     multiple_results=True)


def _slogdet_pull(cts, sign, a, shape, dtype):
    # d log|det A| = Re tr(inv(A) dA); for complex A, d sign = i sign Im tr(inv(A) dA).
    g_sign, g_logdet = cts
    if g_logdet is None:
        g_logdet = np.zeros(shape[:-2], _real_dtype(a))
    weight = g_logdet
    if dtype.kind == "c" and g_sign is not None:
        weight = add(weight, multiply(imag(multiply(g_sign, sign)), 1j))
    inverse = _inverse_or_infinite(a, sign)
    return unbroadcast(multiply(expand_dims(weight, (-2, -1)), _mT(inverse)), shape, dtype)


def _inverse_or_infinite(a, sign):
    """inv(A), or adj(A) / det(A) where A is singular (sign 0): infinite where a cofactor
    is not 0, NaN where it is, as the derivative of log|det| is there (JAX's too, up to
    the NaNs its LU factors make of some infinities)."""
    if holds_anywhere(sign == 0):
        return true_divide(_adjugate(a), expand_dims(_det(a), (-2, -1)))
    return _inv(a)


defvjp(_slogdet, ArgVJP(lambda ans, a: (ans[0], a, *aval(a)), _slogdet_pull))


def slogdet(a):
    """``numpy.linalg.slogdet``: ``(sign, logabsdet)`` with ``det = sign * exp(logabsdet)``."""
    a = _as_inexact(a)
    _check_matrices(a, "slogdet")
    return SlogdetResult(*_slogdet(a))


# ---- cholesky, eigh ------------------------------------------------------------------


def _lower_cholesky(a):
    # Dask answers np.linalg.cholesky with its own da.linalg.cholesky, whose default is the
    # upper factor: a silently wrong result, so refused by name.
    if type(a).__module__.startswith("dask."):
        raise TypeError(
            "funcgrad.numpy.linalg.cholesky: Dask answers np.linalg.cholesky with the upper "
            "factor (dask.array.linalg.cholesky's lower=False), not NumPy's lower one, so "
            "funcgrad refuses Dask arrays here; compute the matrix first (a.compute()): "
            "a Cholesky factor's matrix fits in memory.")
    return np.linalg.cholesky(a)


_cholesky = primitive(_reporting("cholesky", _lower_cholesky), "linalg.cholesky")


def _cholesky_pull(g, ans, shape, dtype):
    # dL = L phi(inv(L) dA inv(L)^H), phi keeping the lower triangle with the diagonal
    # halved; transposed onto the lower triangle of A, the one NumPy reads.
    n = shape[-1]
    real_dtype = _real_dtype(g)
    mask = constant_like(np.tril(np.ones((n, n), real_dtype)) - 0.5 * np.eye(n, dtype=real_dtype),
                         g)
    inv_l = _inv(ans)
    ct = _matmul(_matmul(_mT(inv_l), multiply(_matmul(_mT(ans), g), mask)), _conj(inv_l))
    return unbroadcast(_triangle_cotangent(ct, "L"), shape, dtype)


defvjp(_cholesky, ArgVJP(lambda ans, a: (ans, *aval(a)), _cholesky_pull))


def cholesky(a, /, *, upper=False):
    """``numpy.linalg.cholesky``: lower-triangular ``L`` with ``a = L @ L^H`` (or the
    upper factor ``L^H`` when ``upper``); LinAlgError if ``a`` is not positive definite."""
    a = _as_inexact(a)
    _check_matrices(a, "cholesky")
    lower = _cholesky(a)
    return _H(lower) if upper else lower


_eigh = primitive(lambda a, UPLO: tuple(np.linalg.eigh(a, UPLO)), "linalg.eigh",
                  multiple_results=True)


def _eigh_pull(cts, w, v, UPLO, shape, dtype):
    # dw = diag(V^H dA V), dV = V (F * (V^H dA V)) with F the reciprocal eigenvalue gaps.
    g_w, g_v = cts
    if 0 in shape:  # no eigenvectors to pick a largest component of
        return zeros_in_library_of(v, shape, dtype)
    terms = []
    if g_w is not None:
        terms.append(_diag_embed(g_w))
    if g_v is not None:
        terms.append(multiply(_reciprocal_gaps(w), _matmul(_mT(v), g_v)))
    ct = _matmul(_matmul(_conj(v), _sum_terms(terms)), _mT(v))
    return unbroadcast(_triangle_cotangent(ct, UPLO), shape, dtype)


defvjp(_eigh, ArgVJP(lambda ans, a, UPLO: (*ans, UPLO, *aval(a)), _eigh_pull))


def _check_uplo(UPLO, name):
    if UPLO not in ("L", "U"):
        raise ValueError(f"funcgrad.numpy.linalg.{name}: UPLO must be 'L' or 'U', got "
                         f"{UPLO!r}")


def eigh(a, UPLO="L"):
    """``numpy.linalg.eigh``: ascending eigenvalues and orthonormal eigenvectors (columns)
    of each Hermitian matrix, read from its ``UPLO`` triangle."""
    a = _as_inexact(a)
    _check_matrices(a, "eigh")
    _check_uplo(UPLO, "eigh")
    return EighResult(*_eigh(a, UPLO=UPLO))


# The values-only decompositions are primitives of their own, so that a traced call (jit)
# gets NumPy's values bit for bit: LAPACK computes them differently when it also computes
# vectors. Their derivatives need the vectors, so they decompose again.
_eigvalsh = primitive(np.linalg.eigvalsh, "linalg.eigvalsh")


def _eigvalsh_pull(g, a, UPLO, shape, dtype):
    return _eigh_pull((g, None), *_eigh(a, UPLO=UPLO), UPLO, shape, dtype)


defvjp(_eigvalsh, ArgVJP(lambda ans, a, UPLO: (a, UPLO, *aval(a)), _eigvalsh_pull))


def eigvalsh(a, UPLO="L"):
    """``numpy.linalg.eigvalsh``: the ascending eigenvalues of each Hermitian matrix."""
    a = _as_inexact(a)
    _check_matrices(a, "eigvalsh")
    _check_uplo(UPLO, "eigvalsh")
    return _eigvalsh(a, UPLO=UPLO)


# ---- svd -----------------------------------------------------------------------------

_svd = primitive(lambda a, full_matrices, hermitian: tuple(np.linalg.svd(
    a, full_matrices=full_matrices, **_hermitian(hermitian))), "linalg.svd",
    multiple_results=True)


def _hermitian(hermitian):
    # Passed on only when set: CuPy's svd and matrix_rank take no hermitian=.
    return {"hermitian": True} if hermitian else {}


def _svd_pull(cts, u, s, vh, full_matrices, hermitian, shape, dtype):
    # Transposes the derivative of A = U diag(s) V^H (with JAX's choice of phases); the
    # algebra is done with conjugated cotangents (the usual adjoint) and conjugated back.
    # With `hermitian`, NumPy decomposes the Hermitian matrix of A's lower triangle.
    m, n = shape[-2:]
    k = min(m, n)
    g_u, g_s, g_vh = cts
    uk, vhk = u, vh
    if full_matrices and m != n:
        if g_u is not None or g_vh is not None:
            raise NotImplementedError(
                "funcgrad.numpy.linalg.svd: the extra singular vectors of "
                "full_matrices=True are not unique, so they cannot be differentiated "
                "(as in JAX); pass full_matrices=False")
        uk, vhk = u[..., :, :k], vh[..., :k, :]
    s_columns, s_rows = expand_dims(s, -2), expand_dims(s, -1)
    gaps = _reciprocal_gaps(multiply(s, s))
    terms = []
    if g_s is not None:
        terms.append(_diag_embed(g_s))
    if g_u is not None:
        u_bar = _conj(g_u)
        x = _matmul(_H(uk), u_bar)
        z = multiply(gaps, x)
        terms.append(multiply(add(z, _H(z)), s_columns))
        if dtype.kind == "c":
            phase = multiply(subtract(x, _H(x)), 0.5 * _eye(k, s))
            terms.append(true_divide(phase, s_columns))
    if g_vh is not None:
        v_bar = _mT(g_vh)
        z = multiply(gaps, _matmul(vhk, v_bar))
        terms.append(multiply(s_rows, add(z, _H(z))))
    a_bar = _matmul(_matmul(uk, _sum_terms(terms)), vhk) if terms else None
    if g_u is not None and m > k:
        outside = subtract(u_bar, _matmul(uk, _matmul(_H(uk), u_bar)))
        a_bar = _add_optional(a_bar, _matmul(true_divide(outside, s_columns), vhk))
    if g_vh is not None and n > k:
        v_bar_h = _H(v_bar)
        outside = subtract(v_bar_h, _matmul(_matmul(v_bar_h, _H(vhk)), vhk))
        a_bar = _add_optional(a_bar, _matmul(true_divide(uk, s_columns), outside))
    a_bar = _conj(a_bar)
    return unbroadcast(_triangle_cotangent(a_bar, "L") if hermitian else a_bar, shape, dtype)


def _add_optional(total, term):
    return term if total is None else add(total, term)


defvjp(_svd, ArgVJP(lambda ans, a, full_matrices, hermitian: (*ans, full_matrices, hermitian,
                                                             *aval(a)), _svd_pull))


def _svdvals_impl(a, hermitian):
    try:
        return np.linalg.svd(a, compute_uv=False, **_hermitian(hermitian))
    except TypeError:  # an array library whose svd has no compute_uv (Dask's)
        return np.linalg.svd(a, **_hermitian(hermitian))[1]


_svdvals = primitive(_svdvals_impl, "linalg.svdvals")


def _svdvals_pull(g, a, hermitian, shape, dtype):
    u, s, vh = _svd(a, full_matrices=False, hermitian=hermitian)
    return _svd_pull((None, g, None), u, s, vh, False, hermitian, shape, dtype)


defvjp(_svdvals, ArgVJP(lambda ans, a, hermitian: (a, hermitian, *aval(a)), _svdvals_pull))


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """``numpy.linalg.svd``: ``(U, S, Vh)`` with ``a = U @ diag(S) @ Vh``, singular values
    descending; only ``S`` when not ``compute_uv``. With ``full_matrices=True`` and a
    non-square matrix, only ``S`` can be differentiated (reverse mode), as in JAX."""
    a = _as_inexact(a)
    _check_matrices(a, "svd", square=False)
    if not compute_uv:
        return _svdvals(a, hermitian=bool(hermitian))
    return SVDResult(*_svd(a, full_matrices=bool(full_matrices), hermitian=bool(hermitian)))


def svdvals(x, /):
    """``numpy.linalg.svdvals``: the singular values of each matrix, descending."""
    return svd(x, compute_uv=False)


# ---- qr ------------------------------------------------------------------------------

_qr = primitive(lambda a, mode: tuple(np.linalg.qr(a, mode)), "linalg.qr",
                multiple_results=True)


def _thin_qr_cotangent(q, r, g_q, g_r):
    """The cotangent of A = QR for square R (Q with orthonormal columns): with
    M = Q^H dA R^-1, dR = (M - W) R and dQ = Q W + (I - Q Q^H) dA R^-1, where W is
    the skew-Hermitian matrix whose strict lower triangle is M's."""
    n = shape_of(r)[-1]
    lower = constant_like(np.tril(np.ones((n, n), _real_dtype(r)), -1), r)
    k = negative(_matmul(_mT(q), g_q))
    if g_r is not None:
        k = add(k, _matmul(g_r, _mT(r)))
    k_bar = subtract(k, multiply(subtract(k, _H(k)), lower))
    if _is_complex(k):
        k_bar = subtract(k_bar, multiply(imag(k), 1j * _eye(n, r)))
    return _right_solve(add(_matmul(_conj(q), k_bar), g_q), _mT(r))


def _qr_pull(cts, a, q, r, mode, shape, dtype):
    m, n = shape[-2:]
    g_q, g_r = cts
    if g_q is None:
        g_q = zeros_in_library_of(q, shape_of(q), dtype_of(q))
    if m < n:
        ct = _wide_qr_cotangent(a, q, r, g_q, g_r, m)
    elif mode == "complete" and m > n:
        ct = _complete_qr_cotangent(q, r, g_q, g_r, n)
    else:
        ct = _thin_qr_cotangent(q, r, g_q, g_r)
    return unbroadcast(ct, shape, dtype)


def _qr_save(ans, a, mode):
    # Wide matrices need A's columns past the square block; the others only Q and R.
    shape = shape_of(a)
    return (a if shape[-2] < shape[-1] else None, *ans, mode, *aval(a))


def _wide_qr_cotangent(a, q, r, g_q, g_r, m):
    # A = [A1 A2] with A1 square: (Q, R1) is the QR of A1 and R2 = Q^H A2.
    if g_r is None:
        return concatenate([_thin_qr_cotangent(q, r[..., :m], g_q, None),
                            zeros_in_library_of(q, shape_of(a)[:-1] + (shape_of(a)[-1] - m,),
                                                dtype_of(q))],
                           axis=-1)
    g_r1, g_r2 = g_r[..., :, :m], g_r[..., :, m:]
    g_q = add(g_q, _matmul(_conj(a[..., :, m:]), _H(g_r2)))
    return concatenate([_thin_qr_cotangent(q, r[..., :, :m], g_q, g_r1),
                        _matmul(_conj(q), g_r2)], axis=-1)


def _complete_qr_cotangent(q, r, g_q, g_r, n):
    # JAX's derivative of the columns completing Q (arXiv:2409.13374, eqs. 32-33):
    # dQ_extra = dQ1 Z^H - (Q1 + Q_extra Z)(dQ1_bottom - Z dQ1_top)^H, with
    # Z = Q1_bottom (Q1_top - I)^-1; transposed here onto dQ1.
    q1, q_extra = q[..., :, :n], q[..., :, n:]
    g_q1, g_extra = g_q[..., :, :n], g_q[..., :, n:]
    g_r1 = None if g_r is None else g_r[..., :n, :]
    top, bottom = q1[..., :n, :], q1[..., n:, :]
    try:
        z = _right_solve(bottom, subtract(top, _eye(n, q)))
    except LinAlgError:
        raise LinAlgError(
            "funcgrad.numpy.linalg.qr: the columns completing Q (mode='complete') have no "
            "derivative at this matrix (the top block of Q has an eigenvalue 1, as when the "
            "matrix is already upper triangular); use mode='reduced'") from None
    w = add(q1, _matmul(q_extra, z))
    y = negative(_matmul(_H(g_extra), _conj(w)))            # cotangent of E dQ1, E = [-Z, I]
    g_q1 = add(g_q1, _matmul(g_extra, _conj(z)))
    g_q1 = add(g_q1, concatenate([negative(_matmul(_mT(z), y)), y], axis=-2))
    return _thin_qr_cotangent(q1, r[..., :n, :], g_q1, g_r1)


defvjp(_qr, ArgVJP(_qr_save, _qr_pull))


def qr(a, mode="reduced"):
    """``numpy.linalg.qr``: ``(Q, R)`` with orthonormal columns in ``Q`` and upper-triangular
    ``R``. Modes 'reduced', 'complete' and 'r' (only R); 'raw' only for constants."""
    if mode not in ("reduced", "complete", "r", "raw"):
        raise ValueError(f"funcgrad.numpy.linalg.qr: unrecognized mode {mode!r}; use "
                         f"'reduced', 'complete' or 'r'")
    a = _as_inexact(a)
    _check_matrices(a, "qr", square=False)
    if mode == "raw":
        if isinstance(a, Box):
            raise NotImplementedError("funcgrad.numpy.linalg.qr: mode='raw' (Householder "
                                      "reflectors) cannot be differentiated")
        return np.linalg.qr(a, "raw")
    if mode == "r":
        return _qr(a, mode="reduced")[1]
    return QRResult(*_qr(a, mode=mode))


# ---- pinv, lstsq, matrix_power, multi_dot --------------------------------------------

_pinv = primitive(lambda a, options: np.linalg.pinv(a, **dict(options)), "linalg.pinv")


def _pinv_pull(g, p, a, hermitian, shape, dtype):
    # For a constant rank, dP = -P dA P + P P^H dA^H (I - A P) + (I - P A) dA^H P^H P.
    # With `hermitian`, NumPy inverts the Hermitian matrix of A's lower triangle.
    p_bar = _conj(g)
    p_h = _H(p)
    a_bar = negative(_matmul(_matmul(p_h, p_bar), p_h))
    left = _matmul(_H(p_bar), _matmul(p, p_h))               # P_bar^H P P^H
    a_bar = add(a_bar, subtract(left, _matmul(a, _matmul(p, left))))
    right = _matmul(_matmul(p_h, p), _H(p_bar))              # P^H P P_bar^H
    a_bar = add(a_bar, subtract(right, _matmul(_matmul(right, p), a)))
    a_bar = _conj(a_bar)
    return unbroadcast(_triangle_cotangent(a_bar, "L") if hermitian else a_bar, shape, dtype)


def _pinv_save(ans, a, options):
    # With `hermitian`, A's lower triangle stands for the matrix NumPy inverts.
    hermitian = dict(options)["hermitian"]
    return (ans, _triangle_matrix(a) if hermitian else a, hermitian, *aval(a))


defvjp(_pinv, ArgVJP(_pinv_save, _pinv_pull))

_NOT_GIVEN = object()


def pinv(a, rcond=None, hermitian=False, *, rtol=_NOT_GIVEN):
    """``numpy.linalg.pinv``: the Moore-Penrose pseudo-inverse, singular values at most
    ``rcond`` (or ``rtol``) times the largest treated as zero. Differentiable where the
    rank is locally constant."""
    a = _as_inexact(a)
    _check_matrices(a, "pinv", square=False)
    options = [("hermitian", bool(hermitian))]
    if rcond is not None:
        options.append(("rcond", float(unbox_all(rcond))))
    if rtol is not _NOT_GIVEN:
        options.append(("rtol", None if rtol is None else float(unbox_all(rtol))))
    return _pinv(a, options=tuple(options))


def _rank(s, cutoff):
    """The numerical rank of matrices of singular values `s` (descending, stacked on the
    last axis): how many exceed `cutoff` times the largest."""
    return np.count_nonzero(s > cutoff * s[..., :1], axis=-1).astype(np.int32)


def lstsq(a, b, rcond=None):
    """``numpy.linalg.lstsq``: ``(x, residuals, rank, s)`` for the least-squares solution of
    ``a @ x = b``; ``x`` is differentiable where the rank of ``a`` is locally constant.

    As NumPy's, the residuals are empty unless ``a`` is tall and of full rank. Under vmap
    that is read per element of the batch: a batch whose elements disagree has no one shape
    of residuals, and raises."""
    a, b = _as_inexact(a), _as_inexact(b)
    # NumPy solves in the common type (double for a float32 a beside a float64 b), its
    # default rcond that type's epsilon times the size
    common = np.result_type(dtype_of(a), dtype_of(b))
    a, b = [v if dtype_of(v) == common else astype(v, common) for v in (a, b)]
    if len(shape_of(a)) != 2 or len(shape_of(b)) not in (1, 2):
        raise LinAlgError(f"funcgrad.numpy.linalg.lstsq: a must be a matrix and b a vector or "
                          f"matrix, got shapes {shape_of(a)} and {shape_of(b)}")
    m, n = shape_of(a)
    if shape_of(b)[0] != m:
        raise LinAlgError(f"funcgrad.numpy.linalg.lstsq: a has {m} rows but b has "
                          f"{shape_of(b)[0]}")
    if rcond is None:
        rcond = np.finfo(_real_dtype(a)).eps * max(m, n)
    s = svd(a, compute_uv=False)
    rank = read_stacked(_rank, s, rcond)
    x = matmul(pinv(a, rcond=rcond), b)
    full_rank = every_value(rank) == n
    if m > n and np.all(full_rank):
        residual = subtract(b, matmul(a, x))
        residuals = reductions.sum(real(multiply(residual, _conj(residual))), axis=0)
        residuals = reshape(residuals, (1,)) if len(shape_of(b)) == 1 else residuals
    elif m > n and np.any(full_rank):
        raise ValueError(
            "funcgrad.vmap: linalg.lstsq's residuals are empty where a is rank deficient "
            "(as NumPy's), and this batch holds matrices of both kinds, so they have no one "
            "shape. Compute them from the solution instead: sum(abs(b - a @ x)**2, axis=0).")
    else:
        residuals = np.empty((0,), _real_dtype(x))
    return x, residuals, rank, s


def matrix_power(a, n):
    """``numpy.linalg.matrix_power``: ``a`` multiplied by itself ``n`` times (an integer;
    negative powers invert first, and ``n == 0`` gives identity matrices)."""
    a = asarray(a)
    _check_matrices(a, "matrix_power")
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"funcgrad.numpy.linalg.matrix_power: the exponent must be an "
                        f"integer, got {n!r}") from None
    if n == 0:
        return np.broadcast_to(np.eye(shape_of(a)[-1], dtype=dtype_of(a)), shape_of(a)).copy()
    if n < 0:
        a, n = inv(a), -n
    # Binary powering: square for every bit, multiply in the bits that are set.
    result, square = None, a
    while True:
        if n & 1:
            result = square if result is None else _matmul(result, square)
        n >>= 1
        if not n:
            return result
        square = _matmul(square, square)


def _chain_order(dims):
    """Where to split each sub-chain of matrices ``i..j`` (dims[i] x dims[i+1], ...) so
    that the product costs the fewest scalar multiplications (dynamic programming)."""
    count = len(dims) - 1
    cost = [[0] * count for _ in range(count)]
    split = [[0] * count for _ in range(count)]
    for length in range(1, count):
        for i in range(count - length):
            j = i + length
            cost[i][j] = np.inf
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def multi_dot(arrays, *, out=None):
    """``numpy.linalg.multi_dot``: the product of a chain of matrices (the first may be a
    row vector, the last a column vector), multiplied in the cheapest order."""
    reject_out(out, "linalg.multi_dot")
    arrays = [asarray(a) for a in arrays]
    if len(arrays) < 2:
        raise ValueError("funcgrad.numpy.linalg.multi_dot: expecting at least two arrays")
    if len(arrays) == 2:
        return dot(arrays[0], arrays[1])
    first_vector, last_vector = len(shape_of(arrays[0])) == 1, len(shape_of(arrays[-1])) == 1
    if first_vector:
        arrays[0] = reshape(arrays[0], (1, -1))
    if last_vector:
        arrays[-1] = reshape(arrays[-1], (-1, 1))
    for a in arrays:
        if len(shape_of(a)) != 2:
            raise LinAlgError(f"funcgrad.numpy.linalg.multi_dot: expected matrices (only the "
                              f"first and last may be vectors), got shape {shape_of(a)}")
    split = _chain_order([shape_of(arrays[0])[0]] + [shape_of(a)[1] for a in arrays])

    def product(i, j):
        if i == j:
            return arrays[i]
        return matmul(product(i, split[i][j]), product(split[i][j] + 1, j))

    result = product(0, len(arrays) - 1)
    if first_vector and last_vector:
        return result[0, 0]
    if first_vector or last_vector:
        return reshape(result, (-1,))
    return result


# ---- eig -----------------------------------------------------------------------------


def _eig_impl(a):
    w, v = np.linalg.eig(a)
    complex_dtype = np.result_type(a.dtype, np.complex64)
    return w.astype(complex_dtype), v.astype(complex_dtype)


_eig = primitive(_eig_impl, "linalg.eig", multiple_results=True)


def _eigenvector_residual(a, w, v):
    """max |A V - V diag(w)| relative to max|A| max|V| (one per element of a batch under
    vmap: NumPy's functions dispatch to ours), and the most a backward-stable eig leaves
    there (1000 n eps; random matrices, rows scaled by up to e^10, stay < 25 n eps)."""
    a, w, v = unbox_all(a), unbox_all(w), unbox_all(v)
    if a.size == 0:  # empty matrices (or an empty batch): nothing to be inaccurate
        return np.zeros(()), 0.0
    scale = np.abs(a).max() * np.abs(v).max()
    with np.errstate(divide="ignore", invalid="ignore"):
        residual = np.abs(a @ v - v * w[..., None, :]).max() / scale
    return np.where(scale != 0, residual, 0.0), 1e3 * a.shape[-1] * np.finfo(a.dtype).eps


def _eig_save(ans, a):
    # The derivatives are built on V. LAPACK's balancing can return eigenvectors far from
    # A's when its entries span dozens of orders of magnitude (the companion matrix of a
    # polynomial with a root at 1e-45 and others at +-2): the gradient would then be wrong.
    w, v = ans
    return (w, v, *_eigenvector_residual(a, w, v), *aval(a))


def _eig_pull(cts, w, v, residual, allowed, shape, dtype):
    # dw = diag(P) and dV = V (F * P) + V diag(c) with P = inv(V) dA V, where c keeps each
    # eigenvector at unit norm with its largest component real (LAPACK's, and JAX's, gauge).
    n = shape[-1]
    if holds_anywhere(residual > allowed):
        raise FloatingPointError(
            f"funcgrad.numpy.linalg.eig: NumPy's eigenvectors of this matrix are "
            f"inaccurate (|A V - V diag(w)| is {np.max(every_value(residual)):.2g} of |A| "
            f"|V|; a correct "
            f"decomposition leaves < {allowed:.2g}), so its derivatives cannot be computed "
            f"from them. This happens when the matrix's entries span many orders of "
            f"magnitude (for roots: coefficients like 1 and 1e-45); rescale it, e.g. "
            f"substitute x = s * y in the polynomial.")
    g_w, g_v = cts
    if 0 in shape:  # no eigenvectors to pick a largest component of
        return zeros_in_library_of(v, shape, dtype)
    terms = []
    if g_w is not None:
        terms.append(_diag_embed(g_w))
    if g_v is not None:
        v_value = unbox_all(v)
        largest = np.argmax(np.abs(v_value), axis=-2)[..., None, :]
        rows = constant_like(np.arange(n)[:, None], largest)
        at_largest = (rows == largest).astype(_real_dtype(v))
        d = reductions.sum(multiply(g_v, v), axis=-2, keepdims=True)
        pivot = real(reductions.sum(multiply(at_largest, v), axis=-2, keepdims=True))
        g_u = subtract(g_v, multiply(_conj(v), real(d)))
        g_u = subtract(g_u, multiply(at_largest, multiply(true_divide(imag(d), pivot), 1j)))
        terms.append(multiply(_reciprocal_gaps(w), _matmul(_mT(v), g_u)))
    ct = _matmul(_solve(_mT(v), _sum_terms(terms)), _mT(v))
    return unbroadcast(ct, shape, dtype)


defvjp(_eig, ArgVJP(_eig_save, _eig_pull))


def eig(a):
    """``numpy.linalg.eig``: eigenvalues and unit eigenvectors (columns) of each matrix.
    Unlike NumPy, and like JAX, both are always complex, so the result type does not
    depend on the values."""
    a = _as_inexact(a)
    _check_matrices(a, "eig")
    return EigResult(*_eig(a))


def _eigvals_impl(a):
    return np.linalg.eigvals(a).astype(np.result_type(a.dtype, np.complex64))


_eigvals = primitive(_eigvals_impl, "linalg.eigvals")


def _eigvals_pull(g, a):
    return _eig_pull((g, None), *_eig_save(_eig(a), a))


defvjp(_eigvals, ArgVJP(lambda ans, a: (a,), _eigvals_pull))


def eigvals(a):
    """``numpy.linalg.eigvals``: the (always complex) eigenvalues of each matrix."""
    a = _as_inexact(a)
    _check_matrices(a, "eigvals")
    return _eigvals(a)


# ---- norms, condition number, rank ---------------------------------------------------


def _squared_magnitude(x):
    return real(multiply(x, conjugate(x))) if _is_complex(x) else multiply(x, x)


def _vector_norm(x, ord, axis, keepdims):
    def reduce(reducer, values):
        return reducer(values, axis=axis, keepdims=keepdims)

    if ord is None or ord == 2:
        return sqrt(reduce(reductions.sum, _squared_magnitude(x)))
    if isinstance(ord, str):
        raise ValueError(f"funcgrad.numpy.linalg.norm: invalid norm order {ord!r} for vectors")
    if ord == np.inf:
        return reduce(reductions.max, absolute(x))
    if ord == -np.inf:
        return reduce(reductions.min, absolute(x))
    if ord == 0:
        nonzero = (unbox_all(x) != 0).astype(_real_dtype(x))
        return nonzero.sum(axis=axis, keepdims=keepdims)
    if ord == 1:
        return reduce(reductions.sum, absolute(x))
    total = reduce(reductions.sum, power(absolute(x), ord))
    return power(total, np.reciprocal(np.asarray(ord, _real_dtype(x))))


def _moved_to_end(x, row_axis, col_axis):
    order = [i for i in range(len(shape_of(x))) if i not in (row_axis, col_axis)]
    return transpose(x, order + [row_axis, col_axis])


def _matrix_norm(x, ord, row_axis, col_axis, keepdims):
    if row_axis == col_axis:
        raise ValueError("funcgrad.numpy.linalg.norm: the two axes must differ")
    if ord in (2, -2, "nuc"):
        s = svd(_moved_to_end(x, row_axis, col_axis), compute_uv=False)
        reducer = {2: reductions.max, -2: reductions.min, "nuc": reductions.sum}[ord]
        result = reducer(s, axis=-1)
    elif ord in (1, -1):
        sums = reductions.sum(absolute(x), axis=row_axis)
        reducer = reductions.max if ord == 1 else reductions.min
        result = reducer(sums, axis=col_axis - (col_axis > row_axis))
    elif ord in (np.inf, -np.inf):
        sums = reductions.sum(absolute(x), axis=col_axis)
        reducer = reductions.max if ord == np.inf else reductions.min
        result = reducer(sums, axis=row_axis - (row_axis > col_axis))
    elif ord in (None, "fro", "f"):
        result = sqrt(reductions.sum(_squared_magnitude(x), axis=(row_axis, col_axis)))
    else:
        raise ValueError(f"funcgrad.numpy.linalg.norm: invalid norm order {ord!r} for "
                         f"matrices")
    if keepdims:
        result = reshape(result, tuple(1 if i in (row_axis, col_axis) else size
                                       for i, size in enumerate(shape_of(x))))
    return result


def norm(x, ord=None, axis=None, keepdims=False):
    """``numpy.linalg.norm``: vector norms (``ord`` None, inf, -inf, 0, any number) over
    one axis and matrix norms (None, 'fro', 'nuc', inf, -inf, 1, -1, 2, -2) over two;
    with ``axis=None``, the 2-norm of the flattened array when ``ord`` is None."""
    x = _as_inexact(x)
    ndim = len(shape_of(x))
    if axis is None:
        if ord is None or (ord in ("f", "fro") and ndim == 2) or (ord == 2 and ndim == 1):
            result = sqrt(reductions.sum(_squared_magnitude(x)))
            return reshape(result, (1,) * ndim) if keepdims else result
        if ndim not in (1, 2):
            raise ValueError(f"funcgrad.numpy.linalg.norm: with ord={ord!r} and axis=None the "
                             f"array must be 1-D or 2-D, got shape {shape_of(x)}")
        axis = tuple(range(ndim))
    elif not isinstance(axis, tuple):
        try:
            axis = (operator.index(axis),)
        except TypeError:
            raise TypeError("funcgrad.numpy.linalg.norm: axis must be None, an integer or "
                            "a tuple of integers") from None
    axes = tuple(normalize_one_axis(a, ndim, "linalg.norm") for a in axis)
    if len(axes) == 1:
        return _vector_norm(x, ord, axes, keepdims)
    if len(axes) == 2:
        return _matrix_norm(x, ord, axes[0], axes[1], keepdims)
    raise ValueError(f"funcgrad.numpy.linalg.norm: axis must name one or two axes, got "
                     f"{axis!r}")


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """``numpy.linalg.vector_norm``: a vector norm over ``axis`` (all axes when None)."""
    x = _as_inexact(x)
    ndim = len(shape_of(x))
    axes = normalize_axis(axis, ndim, "linalg.vector_norm")
    if axis is None or len(axes) > 1:
        # Norm of the flattened axes: move them last and merge them.
        kept = [i for i in range(ndim) if i not in axes]
        flat = reshape(transpose(x, kept + list(axes)), tuple(shape_of(x)[i] for i in kept)
                       + (-1,))
        result = _vector_norm(flat, ord, (len(kept),), False)
        if keepdims:
            result = reshape(result, tuple(1 if i in axes else n
                                           for i, n in enumerate(shape_of(x))))
        return result
    return _vector_norm(x, ord, axes, keepdims)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """``numpy.linalg.matrix_norm``: a matrix norm of each matrix in a stack."""
    x = _as_inexact(x)
    _check_matrices(x, "matrix_norm", square=False)
    ndim = len(shape_of(x))
    return _matrix_norm(x, ord, ndim - 2, ndim - 1, keepdims)


def cond(x, p=None):
    """``numpy.linalg.cond``: the condition number of each matrix in the norm ``p``."""
    x = _as_inexact(x)
    _check_matrices(x, "cond", square=p not in (None, 2, -2))
    if 0 in shape_of(x)[-2:]:
        raise LinAlgError(f"funcgrad.numpy.linalg.cond: cond is not defined on empty "
                          f"matrices, got shape {shape_of(x)}")
    if p in (None, 2, -2):
        s = svd(x, compute_uv=False)
        largest, smallest = s[..., 0], s[..., -1]
        return true_divide(smallest, largest) if p == -2 else true_divide(largest, smallest)
    return multiply(norm(x, p, axis=(-2, -1)), norm(inv(x), p, axis=(-2, -1)))


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """``numpy.linalg.matrix_rank``: the number of singular values above a tolerance (an
    integer, so a constant for every transform)."""
    options = {name: value for name, value in (("tol", tol), ("rtol", rtol)) if value is not None}
    # A stack's ranks in one call, unless a tolerance is traced: under vmap, NumPy would
    # broadcast a batch of them against the batch of matrices.
    stacked = len(shape_of(A)) >= 2 and not any(isinstance(v, Box) for v in options.values())
    read = read_stacked if stacked else read_values
    return read(np.linalg.matrix_rank, A, **options, **_hermitian(hermitian))


# ---- NumPy's array-API additions -----------------------------------------------------


def matrix_transpose(x, /):
    """``numpy.linalg.matrix_transpose``: transpose each matrix of a stack."""
    _check_matrices(x, "matrix_transpose", square=False)
    return _mT(x)


def diagonal(x, /, *, offset=0):
    """``numpy.linalg.diagonal``: the ``offset`` diagonal of each matrix of a stack."""
    _check_matrices(x, "diagonal", square=False)
    rows, columns = shape_of(x)[-2:]
    start_row, start_column = max(-offset, 0), max(offset, 0)
    length = max(min(rows - start_row, columns - start_column), 0)
    square = getitem(x, (Ellipsis, slice(start_row, start_row + length),
                         slice(start_column, start_column + length)))
    return _diagonal(square)


def trace(x, /, *, offset=0, dtype=None):
    """``numpy.linalg.trace``: the sum of the ``offset`` diagonal of each matrix."""
    return reductions.sum(diagonal(x, offset=offset), axis=-1, dtype=dtype)


def vecdot(x1, x2, /, *, axis=-1):
    """``numpy.linalg.vecdot``: ``sum(conj(x1) * x2)`` over ``axis``, broadcasting."""
    return reductions.sum(multiply(_conj(asarray(x1)), x2), axis=axis)


def cross(x1, x2, /, *, axis=-1):
    """``numpy.linalg.cross``: cross products of 3-vectors along ``axis``."""
    for x in (x1, x2):
        if shape_of(x)[axis] != 3:
            raise ValueError(f"funcgrad.numpy.linalg.cross: the vectors must have 3 "
                             f"components, got shape {shape_of(x)} along axis {axis}")
    return _cross(x1, x2, axis=axis)


def outer(x1, x2, /):
    """``numpy.linalg.outer``: the outer product of two vectors."""
    if len(shape_of(x1)) != 1 or len(shape_of(x2)) != 1:
        raise ValueError(f"funcgrad.numpy.linalg.outer: the arguments must be vectors, got "
                         f"shapes {shape_of(x1)} and {shape_of(x2)}")
    return _outer(x1, x2)


# ---- tensor inverse and solve --------------------------------------------------------


def tensorinv(a, ind=2):
    """``numpy.linalg.tensorinv``: the inverse of ``a`` seen as a linear map from its last
    axes to its first ``ind`` axes, shaped ``a.shape[ind:] + a.shape[:ind]``."""
    a = _as_inexact(a)
    shape = shape_of(a)
    ind = operator.index(ind)
    if ind <= 0:
        raise ValueError(f"funcgrad.numpy.linalg.tensorinv: ind must be positive, got {ind}")
    rows, columns = int(np.prod(shape[:ind])), int(np.prod(shape[ind:]))
    if rows != columns:
        raise LinAlgError(f"funcgrad.numpy.linalg.tensorinv: a of shape {shape} must be "
                          f"'square': the product of its first {ind} axes ({rows}) must "
                          f"equal that of the others ({columns})")
    return reshape(inv(reshape(a, (rows, columns))), shape[ind:] + shape[:ind])


def tensorsolve(a, b, axes=None):
    """``numpy.linalg.tensorsolve``: ``x`` with ``tensordot(a, x, axes=x.ndim) == b``;
    ``axes`` are axes of ``a`` moved to the end first."""
    a, b = _as_inexact(a), _as_inexact(b)
    ndim = len(shape_of(a))
    if axes is not None:
        order = list(range(ndim))
        for axis in axes:
            order.remove(operator.index(axis) % ndim)
            order.append(operator.index(axis) % ndim)
        a = transpose(a, order)
    shape, b_ndim = shape_of(a), len(shape_of(b))
    x_shape = shape[b_ndim:]
    size = int(np.prod(x_shape))
    if int(np.prod(shape[:b_ndim])) != size or int(np.prod(shape_of(b))) != size:
        raise LinAlgError(f"funcgrad.numpy.linalg.tensorsolve: a of shape {shape} (after "
                          f"moving axes) and b of shape {shape_of(b)} do not match: the "
                          f"products of a's first b.ndim axes, of its other axes and of b's "
                          f"axes must be equal")
    x = solve(reshape(a, (size, size)), reshape(b, (size,)))
    return reshape(x, x_shape)


# NumPy's linalg maps over leading axes: the batch goes in front.
for _primitive in (_inv, _solve, _det, _slogdet, _cholesky, _eigh, _eigvalsh, _svd, _svdvals,
                   _qr, _pinv, _eig, _eigvals):
    defbatch(_primitive, batch_leading)

__all__ = ["LinAlgError", "inv", "solve", "det", "slogdet", "cholesky", "eigh", "eigvalsh",
           "svd", "svdvals", "qr", "pinv", "lstsq", "matrix_power", "multi_dot", "eig",
           "eigvals", "norm", "vector_norm", "matrix_norm", "cond", "matrix_rank",
           "matrix_transpose", "diagonal", "trace", "vecdot", "cross", "outer", "matmul",
           "tensordot", "tensorinv", "tensorsolve"]
