"""funcgrad.scipy.linalg: ``scipy.linalg``, differentiable.

Matrices may come in stacks (leading batch axes) wherever SciPy accepts them. As in
`funcgrad.numpy.linalg`, complex cotangents are transposes of the linear map (JAX's
convention), and functions that read one triangle of a matrix (``solve_triangular``,
``cholesky``, ``cho_factor``, ``eigh``) differentiate the function of that triangle.
Primitives: ``solve_triangular``, ``solve_banded``, ``expm``, ``solve_sylvester``,
``sqrtm``, ``lu`` and ``schur`` (in ``_schur``); the rest is composed from them and from
`funcgrad.numpy` (``_dense``, ``_special_matrices``), and SciPy's other functions run as
they are on constant arrays only (``_linalg_rest``).
"""
import numpy as np
import scipy.linalg
from numpy.linalg import LinAlgError

from ..core import defjvp, dtype_of, shape_of
from ..numpy import linalg as _np_linalg
from ..numpy.linalg import _H, _conj, _mT, _triangle_matrix
from ..numpy._base import astype, unbroadcast
from ..numpy._batching import leading as batch_leading
from ..numpy._batching import holds_anywhere, read_stacked, read_values
from ..numpy._rules import ArgVJP, aval, defbatch, defvjp, primitive
from ..numpy.creation import asarray
from ..numpy.elementwise import multiply, negative
from ..numpy.reductions import sum as total
from ..numpy.indexing import getitem
from ..numpy.products import matmul
from ..numpy.padding import pad
from ..numpy.shape_ops import (concatenate, diagonal, expand_dims, reshape, stack, tril,
                               triu)
from . import _schur
from ._dense import det, inv, qr, solve, svd  # noqa: F401 (scipy.linalg's names)
from ._special_matrices import (circulant, dft, hadamard, hankel, helmert,  # noqa: F401
                                hilbert, invhilbert, invpascal, pascal, toeplitz)
from . import _linalg_rest
from ._linalg_rest import *  # noqa: F401,F403 (scipy.linalg's remaining names)
from ._stacks import answering_empty_stacks

# ---- helpers -------------------------------------------------------------------------


def _inexact(a, name, argument, square=True):
    """``a`` as an inexact array of (stacked) matrices, checked; integers become float64."""
    a = asarray(a)
    if dtype_of(a).kind not in "fc":
        if dtype_of(a).kind not in "biu":
            raise TypeError(f"funcgrad.scipy.linalg.{name}: {argument} must hold numbers, "
                            f"got dtype {dtype_of(a)}")
        a = astype(a, np.float64)
    shape = shape_of(a)
    if len(shape) < 2 or (square and shape[-1] != shape[-2]):
        raise ValueError(f"funcgrad.scipy.linalg.{name}: {argument} must be a "
                         f"{'square ' if square else ''}matrix (or a stack of them), got "
                         f"shape {shape}")
    return a


def _reporting(name, function):
    """``function`` with SciPy's LinAlgError naming the funcgrad function."""
    def impl(*args, **params):
        try:
            return function(*args, **params)
        except LinAlgError as error:
            raise LinAlgError(f"funcgrad.scipy.linalg.{name}: {error}") from None
    return impl


def _triangle(x, lower, unit_diagonal=False):
    """The triangle of ``x`` that a triangular solve reads."""
    k = -1 if unit_diagonal else 0
    return tril(x, k) if lower else triu(x, -k)


# ---- solve_triangular ----------------------------------------------------------------

_TRANS = {0: 0, 1: 1, 2: 2, "N": 0, "T": 1, "C": 2}

_solve_triangular = primitive(answering_empty_stacks(
    _reporting("solve_triangular", lambda a, b, trans, lower, unit_diagonal:
               scipy.linalg.solve_triangular(a, b, trans=trans, lower=lower,
                                             unit_diagonal=unit_diagonal,
                                             check_finite=False)), right_hand_sides=(1,)),
    "scipy.linalg.solve_triangular")


def _transposed_solve(a, g, trans, lower, unit_diagonal):
    """``op(T)^-T g``: the cotangent of b in ``x = op(T)^-1 b``."""
    if trans == 2:    # (T^H)^-T = conj(T)^-1
        return _conj(_solve_triangular(a, _conj(g), trans=0, lower=lower,
                                       unit_diagonal=unit_diagonal))
    return _solve_triangular(a, g, trans=1 - trans, lower=lower, unit_diagonal=unit_diagonal)


def _solve_triangular_b_pull(g, a, trans, lower, unit_diagonal, shape, dtype):
    return unbroadcast(_transposed_solve(a, g, trans, lower, unit_diagonal), shape, dtype)


def _solve_triangular_a_pull(g, a, x, trans, lower, unit_diagonal, shape, dtype):
    # dx = -op(T)^-1 op(dT) x: the cotangent of op(T) is -ct_b x^T, mapped back to T.
    ct_op = negative(matmul(_transposed_solve(a, g, trans, lower, unit_diagonal), _mT(x)))
    ct = ct_op if trans == 0 else _mT(ct_op if trans == 1 else _conj(ct_op))
    return unbroadcast(_triangle(ct, lower, unit_diagonal), shape, dtype)


def _solve_triangular_a_jvp(t, x, a, b, trans, lower, unit_diagonal):
    t = _triangle(t, lower, unit_diagonal)
    op_t = t if trans == 0 else _mT(t if trans == 1 else _conj(t))
    return negative(_solve_triangular(a, matmul(op_t, x), trans=trans, lower=lower,
                                      unit_diagonal=unit_diagonal))


defvjp(_solve_triangular,
       ArgVJP(lambda x, a, b, trans, lower, unit_diagonal:
              (a, x, trans, lower, unit_diagonal, *aval(a)), _solve_triangular_a_pull),
       ArgVJP(lambda x, a, b, trans, lower, unit_diagonal:
              (a, trans, lower, unit_diagonal, *aval(b)), _solve_triangular_b_pull))
defjvp(_solve_triangular, _solve_triangular_a_jvp,
       lambda t, x, a, b, **params: _solve_triangular(a, t, **params))


def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False,
                     check_finite=True):
    """``scipy.linalg.solve_triangular``: ``x`` with ``op(T) x = b``, ``T`` the ``lower``
    (or upper) triangle of ``a`` (ones on its diagonal with ``unit_diagonal``), ``op`` the
    identity, the transpose or the conjugate transpose for ``trans`` 0 ('N'), 1 ('T') or
    2 ('C'). ``b`` is a vector when 1-D, else a (stack of) matrices of right-hand sides."""
    if trans not in _TRANS:
        raise ValueError(f"funcgrad.scipy.linalg.solve_triangular: trans must be 0, 1, 2, "
                         f"'N', 'T' or 'C', got {trans!r}")
    a = _inexact(a, "solve_triangular", "a")
    b = asarray(b)
    if dtype_of(b).kind not in "fc":
        b = astype(b, np.float64)
    n, b_shape = shape_of(a)[-1], shape_of(b)
    vector = len(b_shape) == 1
    if not b_shape or (b_shape[-1] if vector else b_shape[-2]) != n:
        raise ValueError(f"funcgrad.scipy.linalg.solve_triangular: b of shape {b_shape} "
                         f"does not match the {n}x{n} matrices of a (b must be ({n},) or "
                         f"(..., {n}, K))")
    params = dict(trans=_TRANS[trans], lower=bool(lower), unit_diagonal=bool(unit_diagonal))
    if vector:
        x = _solve_triangular(a, reshape(b, (n, 1)), **params)
        return reshape(x, shape_of(x)[:-1])
    return _solve_triangular(a, b, **params)


# ---- expm and its Frechet derivative -------------------------------------------------

_expm = primitive(lambda a: scipy.linalg.expm(a), "scipy.linalg.expm")


def _frechet(a, e):
    """The Frechet derivative of expm at ``a`` in the direction ``e``: the top right block
    of expm([[a, e], [0, a]]) (Higham), so that it is differentiable again."""
    n = shape_of(a)[-1]
    zeros = np.zeros(shape_of(a), np.result_type(dtype_of(a), dtype_of(e)))
    block = concatenate([concatenate([a, e], axis=-1), concatenate([zeros, a], axis=-1)],
                        axis=-2)
    return getitem(_expm(block), (Ellipsis, slice(0, n), slice(n, 2 * n)))


# The adjoint of E -> L(A, E) is G -> L(A^T, G).
defvjp(_expm, ArgVJP(lambda ans, a: (a, *aval(a)),
                     lambda g, a, shape, dtype: unbroadcast(_frechet(_mT(a), g), shape, dtype)))
defjvp(_expm, lambda t, ans, a: _frechet(a, t))


def expm(A):
    """``scipy.linalg.expm``: the matrix exponential of each matrix."""
    return _expm(_inexact(A, "expm", "A"))


def expm_frechet(A, E, method=None, compute_expm=True, check_finite=True):
    """``scipy.linalg.expm_frechet``: ``(expm(A), L)`` (only ``L`` unless
    ``compute_expm``), ``L`` the Frechet derivative of expm at ``A`` in the direction
    ``E``; differentiable in both. Like SciPy's, float64 or complex128 whatever the
    inputs' precision."""
    if method not in (None, "SPS", "blockEnlarge"):
        raise ValueError(f"funcgrad.scipy.linalg.expm_frechet: method must be None, 'SPS' "
                         f"or 'blockEnlarge', got {method!r}")
    A, E = _inexact(A, "expm_frechet", "A"), _inexact(E, "expm_frechet", "E")
    if shape_of(A) != shape_of(E):
        raise ValueError(f"funcgrad.scipy.linalg.expm_frechet: A and E must have the same "
                         f"shape, got {shape_of(A)} and {shape_of(E)}")
    dtype = np.result_type(dtype_of(A), dtype_of(E), np.float64)
    A, E = astype(A, dtype), astype(E, dtype)
    frechet = _frechet(A, E)
    return (_expm(A), frechet) if compute_expm else frechet


# ---- solve_sylvester, sqrtm ----------------------------------------------------------

_solve_sylvester = primitive(answering_empty_stacks(
    _reporting("solve_sylvester", lambda a, b, q: scipy.linalg.solve_sylvester(a, b, q)),
    right_hand_sides=(2,)), "scipy.linalg.solve_sylvester")


def _sylvester_rule(argnum):
    # dX = S^-1(dQ - dA X - X dB) with S(X) = A X + X B, whose transpose is
    # Y -> A^T Y + Y B^T: Y = S^-T(G) is Q's cotangent, -Y X^T A's, -X^T Y B's.
    def pull(g, a, b, x, shape, dtype):
        y = _solve_sylvester(_mT(a), _mT(b), g)
        ct = (negative(matmul(y, _mT(x))), negative(matmul(_mT(x), y)), y)[argnum]
        return unbroadcast(ct, shape, dtype)
    return ArgVJP(lambda x, a, b, q: (a, b, x, *aval((a, b, q)[argnum])), pull)


defvjp(_solve_sylvester, *(_sylvester_rule(k) for k in range(3)))
defjvp(_solve_sylvester,
       lambda t, x, a, b, q: _solve_sylvester(a, b, negative(matmul(t, x))),
       lambda t, x, a, b, q: _solve_sylvester(a, b, negative(matmul(x, t))),
       lambda t, x, a, b, q: _solve_sylvester(a, b, t))


def solve_sylvester(a, b, q):
    """``scipy.linalg.solve_sylvester``: ``x`` with ``a @ x + x @ b == q``."""
    a, b = _inexact(a, "solve_sylvester", "a"), _inexact(b, "solve_sylvester", "b")
    q = _inexact(q, "solve_sylvester", "q", square=False)
    m, n = shape_of(a)[-1], shape_of(b)[-1]
    if shape_of(q)[-2:] != (m, n):
        raise ValueError(f"funcgrad.scipy.linalg.solve_sylvester: q must be {m}x{n} (a is "
                         f"{m}x{m}, b {n}x{n}), got shape {shape_of(q)}")
    return _solve_sylvester(a, b, q)


_sqrtm = primitive(_reporting("sqrtm", lambda a: scipy.linalg.sqrtm(a)), "scipy.linalg.sqrtm")

# X X = A: dX X + X dX = dA, a Sylvester equation for dX.
defvjp(_sqrtm, ArgVJP(lambda x, a: (x, *aval(a)), lambda g, x, shape, dtype: unbroadcast(
    _solve_sylvester(_mT(x), _mT(x), g), shape, dtype)))
defjvp(_sqrtm, lambda t, x, a: _solve_sylvester(x, x, t))


def sqrtm(A, disp=True, blocksize=64):
    """``scipy.linalg.sqrtm``: the principal square root of each matrix (real for a real
    matrix without negative real eigenvalues, as SciPy, else complex). Differentiable
    where the square root's eigenvalues have no pair summing to zero."""
    return _sqrtm(_inexact(A, "sqrtm", "A"))


# ---- lu, lu_factor, lu_solve ---------------------------------------------------------

_lu = primitive(answering_empty_stacks(_reporting("lu", lambda a: tuple(scipy.linalg.lu(a)))),
                "scipy.linalg.lu", multiple_results=True)


def _rows(x, start, stop=None):
    return getitem(x, (Ellipsis, slice(start, stop), slice(None)))


def _columns(x, start, stop=None):
    return getitem(x, (Ellipsis, slice(None), slice(start, stop)))


def _check_differentiable(u1):
    """lu's derivative solves with U's leading square block: refuse one with a zero on its
    diagonal clearly (the solve's own error would name solve_triangular)."""
    if holds_anywhere(diagonal(u1, axis1=-2, axis2=-1) == 0):
        raise LinAlgError(
            "funcgrad.scipy.linalg.lu: cannot differentiate where U has a zero on its "
            "diagonal (the matrix's leading columns are linearly dependent): the "
            "derivative solves with U there (JAX's gives inf and NaN).")


def _lu_square_tangents(l1, u1, t1):
    """The square block: A1 = L1 U1 with F = L1^-1 dA1 U1^-1 gives dL1 = L1 tril(F, -1) and
    dU1 = triu(F) U1."""
    left = _solve_triangular(l1, t1, trans=0, lower=True, unit_diagonal=True)
    f = _mT(_solve_triangular(u1, _mT(left), trans=1, lower=False, unit_diagonal=False))
    return matmul(l1, tril(f, -1)), matmul(triu(f), u1)


def _lu_jvp(t, ans, a):
    # P^T A = L U with k = min(m, n): the leading k by k blocks factor as a square matrix;
    # a tall A's remaining rows give dL2 = (dA2 - L2 dU1) U1^-1, a wide one's remaining
    # columns dU2 = L1^-1 (dA2 - dL1 U2).
    p, l, u = ans
    m, n = shape_of(a)[-2:]
    k = min(m, n)
    t = _permuted(_mT(p), t)
    l1, u1 = _rows(l, 0, k), _columns(u, 0, k)
    _check_differentiable(u1)
    d_l1, d_u1 = _lu_square_tangents(l1, u1, _columns(_rows(t, 0, k), 0, k))
    if m > n:
        rest = _rows(t, k) - matmul(_rows(l, k), d_u1)
        d_l2 = _mT(_solve_triangular(u1, _mT(rest), trans=1, lower=False, unit_diagonal=False))
        return None, concatenate([d_l1, d_l2], axis=-2), d_u1
    if m < n:
        rest = _columns(t, k) - matmul(d_l1, _columns(u, k))
        d_u2 = _solve_triangular(l1, rest, trans=0, lower=True, unit_diagonal=True)
        return None, d_l1, concatenate([d_u1, d_u2], axis=-1)
    return None, d_l1, d_u1


def _lu_square_pull(l1, u1, g_l1, g_u1):
    """The transpose of `_lu_square_tangents`: F's cotangent is tril(L1^T gL1, -1) +
    triu(gU1 U1^T), and dA1's L1^-T (that) U1^-T."""
    terms = []
    if g_l1 is not None:
        terms.append(tril(matmul(_mT(l1), g_l1), -1))
    if g_u1 is not None:
        terms.append(triu(matmul(g_u1, _mT(u1))))
    ct_f = terms[0] if len(terms) == 1 else terms[0] + terms[1]
    left = _solve_triangular(l1, ct_f, trans=1, lower=True, unit_diagonal=True)
    return _mT(_solve_triangular(u1, _mT(left), trans=0, lower=False, unit_diagonal=False))


def _lu_pull(cts, p, l, u, shape, dtype):
    """The transpose of `_lu_jvp`, block by block backwards."""
    _, g_l, g_u = cts
    m, n = shape[-2:]
    k = min(m, n)
    l1, u1 = _rows(l, 0, k), _columns(u, 0, k)
    _check_differentiable(u1)
    if m > n and g_l is not None:
        # dL2 = (dA2 - L2 dU1) U1^-1: dA2's cotangent gL2 U1^-T, and -L2^T of it to dU1's.
        ct_rest = _solve_triangular(u1, _mT(_rows(g_l, k)), trans=0, lower=False,
                                    unit_diagonal=False)
        ct_rest = _mT(ct_rest)
        g_u1 = negative(matmul(_mT(_rows(l, k)), ct_rest))
        g_u1 = g_u1 if g_u is None else g_u + g_u1
        ct = concatenate([_lu_square_pull(l1, u1, _rows(g_l, 0, k), g_u1), ct_rest], axis=-2)
    elif m < n and g_u is not None:
        # dU2 = L1^-1 (dA2 - dL1 U2): dA2's cotangent L1^-T gU2, and -(that) U2^T to dL1's.
        ct_rest = _solve_triangular(l1, _columns(g_u, k), trans=1, lower=True,
                                    unit_diagonal=True)
        g_l1 = negative(matmul(ct_rest, _mT(_columns(u, k))))
        g_l1 = g_l1 if g_l is None else g_l + g_l1
        ct = concatenate([_lu_square_pull(l1, u1, g_l1, _columns(g_u, 0, k)), ct_rest],
                         axis=-1)
    else:
        ct = _lu_square_pull(l1, u1, None if g_l is None else _rows(g_l, 0, k),
                             None if g_u is None else _columns(g_u, 0, k))
        if m != n:  # the remaining block's cotangent is 0
            ct = pad(ct, [(0, 0)] * (len(shape) - 2) + [(0, m - k), (0, n - k)])
    return unbroadcast(_permuted(p, ct), shape, dtype)


def _permuted(p, x):
    """``p @ x``, x's rows permuted by P; x itself where P is SciPy's for an m x 0 matrix,
    0 x 0 (there is nothing to permute)."""
    return x if shape_of(p)[-1] != shape_of(x)[-2] else matmul(p, x)


defvjp(_lu, ArgVJP(lambda ans, a: (*ans, *aval(a)), _lu_pull))
defjvp(_lu, _lu_jvp)


def lu(a, permute_l=False, overwrite_a=False, check_finite=True, p_indices=False):
    """``scipy.linalg.lu``: ``(P, L, U)`` with ``a = P @ L @ U``; ``(P @ L, U)`` with
    ``permute_l``; ``P`` as row indices with ``p_indices``. Differentiable for square and
    rectangular matrices (``P`` is a constant)."""
    a = _inexact(a, "lu", "a", square=False)
    p, l, u = _lu(a)
    if permute_l:
        return _permuted(p, l), u
    if p_indices:
        # Row i of P @ L is row p[i] of L.
        p = read_stacked(lambda p: np.argmax(p, axis=-1).astype(np.int32), p)
    return p, l, u


_lu_pivots = answering_empty_stacks(lambda a: scipy.linalg.lu_factor(a, check_finite=False)[1])


def lu_factor(a, overwrite_a=False, check_finite=True):
    """``scipy.linalg.lu_factor``: ``(lu, piv)``, L's strict lower triangle (m x k) and U
    (k x n, k = min(m, n)) in one m x n matrix and LAPACK's k pivot indices (a constant);
    differentiable in ``lu``. Rectangular matrices as SciPy takes them (since 1.15)."""
    a = _inexact(a, "lu_factor", "a", square=False)
    _, l, u = _lu(a)
    m, n = shape_of(a)[-2:]
    k = min(m, n)
    batch = [(0, 0)] * (len(shape_of(a)) - 2)
    packed = (pad(tril(l, -1), batch + [(0, 0), (0, n - k)])
              + pad(u, batch + [(0, m - k), (0, 0)]))
    return packed, read_stacked(_lu_pivots, a)


def _row_order(piv):
    """The rows of ``P^T b`` for LAPACK's pivots (each vector along the last axis of
    ``piv``): row i was swapped with row piv[i]."""
    order = np.broadcast_to(np.arange(piv.shape[-1]), piv.shape).copy()
    for i in range(piv.shape[-1]):
        j = piv[..., i:i + 1]
        at_i, at_j = order[..., i:i + 1].copy(), np.take_along_axis(order, j, -1)
        np.put_along_axis(order, j, at_i, -1)
        order[..., i:i + 1] = at_j
    return order


def _row_order_inverse(piv):
    return np.argsort(_row_order(piv), axis=-1)


def lu_solve(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
    """``scipy.linalg.lu_solve``: ``x`` with ``op(a) x = b`` from ``lu_factor(a)``
    (``trans`` as in `solve_triangular`); differentiable in ``lu`` and ``b``."""
    lu_matrix, piv = lu_and_piv
    if trans not in _TRANS:
        raise ValueError(f"funcgrad.scipy.linalg.lu_solve: trans must be 0, 1, 2, 'N', 'T' "
                         f"or 'C', got {trans!r}")
    lu_matrix = _inexact(lu_matrix, "lu_solve", "lu")
    if len(shape_of(lu_matrix)) != 2 or shape_of(piv) != shape_of(lu_matrix)[-1:]:
        raise ValueError(f"funcgrad.scipy.linalg.lu_solve: expected one matrix and its "
                         f"pivots as lu_factor returns them, got shapes "
                         f"{shape_of(lu_matrix)} and {shape_of(piv)}")
    trans = _TRANS[trans]
    # The pivots may be traced (lu_factor under vmap): read as values.
    if trans == 0:
        rows = getitem(asarray(b), read_stacked(_row_order, piv))
        y = solve_triangular(lu_matrix, rows, lower=True, unit_diagonal=True)
        return solve_triangular(lu_matrix, y, lower=False)
    y = solve_triangular(lu_matrix, b, trans=trans, lower=False)
    z = solve_triangular(lu_matrix, y, trans=trans, lower=True, unit_diagonal=True)
    return getitem(z, read_stacked(_row_order_inverse, piv))


# ---- solve_banded -------------------------------------------------------------------


def _solve_banded_impl(ab, b, lower, upper):
    """SciPy's solve_banded for each matrix of a stack (leading axes, broadcast)."""
    batch = np.broadcast_shapes(ab.shape[:-2], b.shape[:-2])
    ab = np.broadcast_to(ab, batch + ab.shape[-2:])
    b = np.broadcast_to(b, batch + b.shape[-2:])
    out = np.empty(batch + b.shape[-2:], np.result_type(ab, b))
    for index in np.ndindex(*batch):
        out[index] = scipy.linalg.solve_banded((lower, upper), ab[index], b[index],
                                               check_finite=False)
    return out


_solve_banded = primitive(_reporting("solve_banded", _solve_banded_impl),
                          "scipy.linalg.solve_banded")


def _shifted(v, s):
    """``w[..., j] = v[..., j + s]`` along the last axis, zero past the ends."""
    n = shape_of(v)[-1]
    widths = [(0, 0)] * (len(shape_of(v)) - 1)
    if s >= 0:
        return pad(getitem(v, (Ellipsis, slice(min(s, n), None))), widths + [(0, min(s, n))])
    return pad(getitem(v, (Ellipsis, slice(0, max(n + s, 0)))), widths + [(min(-s, n), 0)])


def _shifted_rows(x, s):
    return _mT(_shifted(_mT(x), s))


def _band_row(ab, r):
    return getitem(ab, (Ellipsis, r, slice(None)))


def _band_transpose(ab, lower, upper):
    """The band storage of A^T (``upper`` subdiagonals, ``lower`` superdiagonals) from
    A's, ``ab[upper + i - j, j] = A[i, j]``: row r is row ``lower + upper - r`` of ``ab``
    moved ``r - lower`` places left."""
    return stack([_shifted(_band_row(ab, lower + upper - r), r - lower)
                  for r in range(lower + upper + 1)], axis=-2)


def _band_solve_transposed(ab, g, lower, upper):
    return _solve_banded(_band_transpose(ab, lower, upper), g, lower=upper, upper=lower)


def _solve_banded_ab_pull(g, ab, x, lower, upper, shape, dtype):
    # dx = -A^-1 dA x: A's cotangent is -y x^T with y = A^-T g, read on the band only
    # (ab's entry (r, j) is A's (j + r - upper, j)).
    y = _band_solve_transposed(ab, g, lower, upper)
    rows = [negative(total(multiply(_shifted_rows(y, r - upper), x), axis=-1))
            for r in range(lower + upper + 1)]
    return unbroadcast(stack(rows, axis=-2), shape, dtype)


def _solve_banded_ab_jvp(t, x, ab, b, lower, upper):
    # dA x from the band: row r of t times x lands on rows j + r - upper.
    product = None
    for r in range(lower + upper + 1):
        term = _shifted_rows(multiply(expand_dims(_band_row(t, r), -1), x), upper - r)
        product = term if product is None else product + term
    return negative(_solve_banded(ab, product, lower=lower, upper=upper))


defvjp(_solve_banded,
       ArgVJP(lambda x, ab, b, lower, upper: (ab, x, lower, upper, *aval(ab)),
              _solve_banded_ab_pull),
       ArgVJP(lambda x, ab, b, lower, upper: (ab, lower, upper, *aval(b)),
              lambda g, ab, lower, upper, shape, dtype: unbroadcast(
                  _band_solve_transposed(ab, g, lower, upper), shape, dtype)))
defjvp(_solve_banded, _solve_banded_ab_jvp,
       lambda t, x, ab, b, **params: _solve_banded(ab, t, **params))


def solve_banded(l_and_u, ab, b, overwrite_ab=False, overwrite_b=False, check_finite=True):
    """``scipy.linalg.solve_banded``: ``x`` with ``A x = b`` for the banded ``A`` with
    ``l`` subdiagonals and ``u`` superdiagonals stored as ``ab[u + i - j, j] = A[i, j]``
    (entries of ``ab`` outside the band are not read, and get no cotangent). ``b`` is a
    vector when 1-D, else a (stack of) matrices of right-hand sides."""
    try:
        lower, upper = (int(n) for n in l_and_u)
    except (TypeError, ValueError):
        raise TypeError(f"funcgrad.scipy.linalg.solve_banded: l_and_u must be a pair of "
                        f"integers (l, u), got {l_and_u!r}") from None
    ab = _inexact(ab, "solve_banded", "ab", square=False)
    b = asarray(b)
    if dtype_of(b).kind not in "fc":
        b = astype(b, np.float64)
    rows, n = shape_of(ab)[-2:]
    if lower < 0 or upper < 0 or rows != lower + upper + 1:
        raise ValueError(f"funcgrad.scipy.linalg.solve_banded: ab must have l + u + 1 = "
                         f"{lower + upper + 1} rows for (l, u) = ({lower}, {upper}), got "
                         f"shape {shape_of(ab)}")
    vector = len(shape_of(b)) == 1
    if not shape_of(b) or (shape_of(b)[-1] if vector else shape_of(b)[-2]) != n:
        raise ValueError(f"funcgrad.scipy.linalg.solve_banded: b of shape {shape_of(b)} "
                         f"does not match the {n} columns of ab")
    if vector:
        x = _solve_banded(ab, reshape(b, (n, 1)), lower=lower, upper=upper)
        return reshape(x, shape_of(x)[:-1])
    return _solve_banded(ab, b, lower=lower, upper=upper)


# ---- cholesky, cho_factor, cho_solve, eigh -------------------------------------------


def _upper_factor(a):
    """U with ``M = U^H U``, ``M`` the Hermitian matrix of ``a``'s upper triangle (the
    lower triangle of ``a^H``, which `funcgrad.numpy.linalg.cholesky` reads)."""
    return _np_linalg.cholesky(_conj(_mT(a)), upper=True)


def cholesky(a, lower=False, overwrite_a=False, check_finite=True):
    """``scipy.linalg.cholesky``: the upper factor ``U`` with ``a = U^H U`` read from
    ``a``'s upper triangle, or the lower factor read from its lower triangle."""
    a = _inexact(a, "cholesky", "a")
    return _np_linalg.cholesky(a) if lower else _upper_factor(a)


def cho_factor(a, lower=False, overwrite_a=False, check_finite=True):
    """``scipy.linalg.cho_factor``: ``(c, lower)``, the Cholesky factor in the ``lower``
    (or upper) triangle of ``c`` and, as SciPy leaves them, ``a``'s entries in the other."""
    a = _inexact(a, "cho_factor", "a")
    if lower:
        return tril(_np_linalg.cholesky(a)) + triu(a, 1), True
    return triu(_upper_factor(a)) + tril(a, -1), False


def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True):
    """``scipy.linalg.cho_solve``: ``x`` with ``a x = b`` from ``cho_factor(a)``."""
    c, lower = c_and_lower
    c = _inexact(c, "cho_solve", "c")
    if lower:     # a = L L^H
        return solve_triangular(c, solve_triangular(c, b, lower=True), trans=2, lower=True)
    return solve_triangular(c, solve_triangular(c, b, trans=2), lower=False)   # a = U^H U


def _hermitian(a, lower):
    """The Hermitian matrix read from ``a``'s lower (or upper) triangle, its diagonal's
    real part, as LAPACK reads it."""
    return _triangle_matrix(a if lower else _H(a))


def _generalized(name, a, b, lower, type):
    """Eigenvalues and eigenvectors of a v = w b v (type 1), a b v = w v (2) or b a v = w v
    (3), b positive definite: with b = L L^H, those of the Hermitian C = L^-1 a L^-H (type
    1) or L^H a L (2, 3), and v = L^-H y (1, 2) or L y (3), so that v^H b v = I (type 1, 2)
    as SciPy's (LAPACK's reduction)."""
    if type not in (1, 2, 3):
        raise ValueError(f"funcgrad.scipy.linalg.{name}: type must be 1, 2 or 3, got "
                         f"{type!r}")
    b = _inexact(b, name, "b")
    if shape_of(b)[-2:] != shape_of(a)[-2:]:
        raise ValueError(f"funcgrad.scipy.linalg.{name}: a and b must have the same shape, "
                         f"got {shape_of(a)} and {shape_of(b)}")
    factor = _np_linalg.cholesky(_hermitian(b, lower))
    a = _hermitian(a, lower)
    if type == 1:
        left = solve_triangular(factor, a, lower=True)
        reduced = _H(solve_triangular(factor, _H(left), lower=True))
    else:
        reduced = matmul(_H(factor), matmul(a, factor))
    w, y = _np_linalg.eigh(reduced)
    v = matmul(factor, y) if type == 3 else solve_triangular(factor, y, trans="C", lower=True)
    return w, v


def _subset(name, w, v, subset_by_index, subset_by_value):
    """SciPy's selections: eigenvalues lo..hi by index (inclusive), or those in (lo, hi];
    ``v`` may be None (eigenvalues only)."""
    if subset_by_index is not None and subset_by_value is not None:
        raise ValueError(f"funcgrad.scipy.linalg.{name}: give subset_by_index or "
                         f"subset_by_value, not both")
    n = shape_of(w)[-1]
    if subset_by_index is not None:
        low, high = (int(i) for i in subset_by_index)
        if not 0 <= low <= high < n:
            raise ValueError(f"funcgrad.scipy.linalg.{name}: subset_by_index must be "
                             f"[lo, hi] with 0 <= lo <= hi < {n}, got {subset_by_index!r}")
    elif subset_by_value is not None:
        low_value, high_value = subset_by_value
        inside = np.flatnonzero((read_values(np.asarray, w) > low_value)
                                & (read_values(np.asarray, w) <= high_value))
        low, high = (int(inside[0]), int(inside[-1])) if inside.size else (0, -1)
    else:
        return w, v
    selected = slice(low, high + 1)
    return getitem(w, selected), None if v is None else getitem(v, (Ellipsis, selected))


def eigh(a, b=None, *, lower=True, eigvals_only=False, overwrite_a=False,
         overwrite_b=False, type=1, check_finite=True, subset_by_index=None,
         subset_by_value=None, driver=None):
    """``scipy.linalg.eigh`` of one Hermitian matrix (read from its ``lower`` or upper
    triangle), or of the generalized problem with a positive definite ``b`` (of ``type`` 1,
    2 or 3, eigenvectors normalized as SciPy's): ascending eigenvalues ``w`` and, unless
    ``eigvals_only``, eigenvectors; ``subset_by_index``/``subset_by_value`` select as
    SciPy. Differentiable in ``a`` and ``b`` where the eigenvalues are distinct."""
    a = _inexact(a, "eigh", "a")
    if b is None:
        w, v = _np_linalg.eigh(a, UPLO="L" if lower else "U")
    else:
        w, v = _generalized("eigh", a, b, lower, type)
    w, v = _subset("eigh", w, v, subset_by_index, subset_by_value)
    return w if eigvals_only else (w, v)


def eigvalsh(a, b=None, *, lower=True, overwrite_a=False, overwrite_b=False, type=1,
             check_finite=True, subset_by_index=None, subset_by_value=None, driver=None):
    """``scipy.linalg.eigvalsh``: the ascending eigenvalues of a Hermitian matrix read from
    its ``lower`` or upper triangle, or of the generalized problem with ``b`` (as `eigh`)."""
    if b is not None:
        return eigh(a, b, lower=lower, eigvals_only=True, type=type,
                    subset_by_index=subset_by_index, subset_by_value=subset_by_value)
    w = _np_linalg.eigvalsh(_inexact(a, "eigvalsh", "a"), UPLO="L" if lower else "U")
    return _subset("eigvalsh", w, None, subset_by_index, subset_by_value)[0]


# ---- schur -----------------------------------------------------------------------------


def schur(a, output="real", lwork=None, overwrite_a=False, sort=None, check_finite=True):
    """``scipy.linalg.schur``: ``(T, Z)`` with ``a = Z T Z^H``, T upper triangular
    (``output='complex'``) or quasi-triangular with 2 by 2 blocks for complex eigenvalues
    (``'real'``); with ``sort`` ('lhp', 'rhp', 'iuc', 'ouc'), ``(T, Z, sdim)``.
    Differentiable where the eigenvalues are distinct, except a real form with 2 by 2
    blocks; complex Schur vectors carry SciPy's arbitrary phases, and the derivative is
    the one with Z^H dZ of zero diagonal (right for anything the phases do not change)."""
    if output not in ("real", "complex", "r", "c"):
        raise ValueError(f"funcgrad.scipy.linalg.schur: output must be 'real' or 'complex', "
                         f"got {output!r}")
    _schur.check_sort(sort)
    a = _inexact(a, "schur", "a")
    if len(shape_of(a)) != 2:
        raise ValueError(f"funcgrad.scipy.linalg.schur: a must be one square matrix, got "
                         f"shape {shape_of(a)}")
    output = {"r": "real", "c": "complex"}.get(output, output)
    t, z = _schur.schur_p(a, output=output, sort=sort)
    if sort is None:
        return t, z
    sdim = read_values(lambda a: scipy.linalg.schur(a, output=output, sort=sort)[2], a)
    return t, z, sdim


# ---- block_diag ----------------------------------------------------------------------


def block_diag(*arrs):
    """``scipy.linalg.block_diag``: the arrays (scalars and vectors as rows) along the
    diagonal of one matrix, zeros elsewhere."""
    if not arrs:
        return np.empty((1, 0))
    blocks = []
    for k, x in enumerate(arrs):
        x = asarray(x)
        if len(shape_of(x)) > 2:
            raise ValueError(f"funcgrad.scipy.linalg.block_diag: argument {k} has shape "
                             f"{shape_of(x)}; the blocks must have at most 2 dimensions")
        blocks.append(reshape(x, (1, -1)) if len(shape_of(x)) < 2 else x)
    dtype = np.result_type(*[dtype_of(x) for x in blocks])
    columns = sum(shape_of(x)[1] for x in blocks)
    rows, start = [], 0
    for x in blocks:
        width = shape_of(x)[1]
        x = x if dtype_of(x) == dtype else astype(x, dtype)
        rows.append(pad(x, ((0, 0), (start, columns - start - width))))
        start += width
    return concatenate(rows, axis=0)


# SciPy's linalg maps over leading axes, as NumPy's: the batch goes in front.
for _primitive in (_solve_triangular, _expm, _solve_sylvester, _sqrtm, _lu, _solve_banded):
    defbatch(_primitive, batch_leading)

__all__ = ["solve_triangular", "solve_banded", "expm", "expm_frechet", "solve_sylvester",
           "sqrtm", "lu", "lu_factor", "lu_solve", "cholesky", "cho_factor", "cho_solve", "eigh",
           "eigvalsh", "schur", "block_diag", "det", "inv", "solve", "svd", "qr", "toeplitz",
           "hankel", "circulant", "hilbert", "invhilbert", "pascal", "invpascal", "dft",
           "helmert", "hadamard", *_linalg_rest.__all__]
