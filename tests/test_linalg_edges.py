"""Edges of linalg, against JAX (float64): det and slogdet at singular matrices, empty
batches, and the LU factors of matrices without rows or columns.

The derivative of det is the transposed adjugate, defined at every matrix: at rank n - 1 it
has rank 1, at rank n - 2 or less it is 0. log|det| has no finite derivative there: its
gradient is adj(A)^T / det(A), infinite where a cofactor is not 0 and NaN where it is. JAX
computes it through A's LU factors, whose zero pivot turns some of those infinities into
NaN (in a row after it, or all of them at rank n - 2): the two agree where the factors do
not mix infinities, and are non-finite together everywhere.

vmap over a batch of size 0 returns what jax.vmap returns (shapes and dtypes) for every
function of funcgrad.numpy.linalg and funcgrad.scipy.linalg that JAX has, alone and under
grad.
"""
import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl
import numpy as np
import pytest
import scipy.linalg

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.linalg as fsl
from funcgrad.tree_util import tree_flatten

jax.config.update("jax_enable_x64", True)

SINGULAR = {
    "rank_1_of_2": [[1.0, 2.0], [2.0, 4.0]],
    "nilpotent": [[0.0, 1.0], [0.0, 0.0]],
    "rank_2_of_3": [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]],
    "zero_row_first": [[0.0, 0.0, 0.0], [1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
    "rank_1_of_3": [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [3.0, 6.0, 9.0]],
    "zero": np.zeros((3, 3)),
    "complex_rank_1": [[1 + 1j, 2.0], [2 + 2j, 4.0]],
}
# Where JAX's LU factors leave the gradient of log|det| as adj(A)^T / det(A).
LOGDET_AS_ADJUGATE = ["rank_1_of_2", "nilpotent", "zero"]


def _matrix(name):
    return np.asarray(SINGULAR[name])


def _close(ours, theirs):
    np.testing.assert_allclose(ours, np.asarray(theirs), rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("name", sorted(SINGULAR))
def test_det_derivatives_are_the_adjugate(name):
    a = _matrix(name)
    tangent = np.arange(a.size, dtype=a.dtype).reshape(a.shape) - 2.5
    cotangent = 1.5 - 0.5j if np.iscomplexobj(a) else 1.5
    _close(fg.vjp(fnp.linalg.det, a)[1](cotangent)[0],
           jax.vjp(jnp.linalg.det, a)[1](jnp.asarray(cotangent, a.dtype))[0])
    _close(fg.jvp(fnp.linalg.det, (a,), (tangent,))[1],
           jax.jvp(jnp.linalg.det, (a,), (tangent,))[1])
    if not np.iscomplexobj(a):
        _close(fg.jit(fg.grad(fnp.linalg.det))(a), jax.grad(jnp.linalg.det)(a))


@pytest.mark.parametrize("name", ["rank_1_of_2", "rank_2_of_3"])
def test_det_hessian_where_the_singular_values_are_distinct(name):
    # The adjugate is differentiated through the SVD, whose derivative is undefined at
    # repeated singular values (as the zero matrix's).
    a = _matrix(name)
    _close(fg.hessian(fnp.linalg.det)(a), jax.hessian(jnp.linalg.det)(a))


def test_det_gradient_of_a_batch_mixing_singular_and_invertible_matrices():
    batch = np.stack([_matrix("rank_2_of_3"), 2.0 * np.eye(3), _matrix("rank_1_of_3"),
                      _matrix("zero_row_first") + np.eye(3)])
    expected = jax.vmap(jax.grad(jnp.linalg.det))(batch)
    _close(fg.vmap(fg.grad(fnp.linalg.det))(batch), expected)
    _close(fg.jit(fg.vmap(fg.grad(fnp.linalg.det)))(batch), expected)
    _close(fg.grad(lambda a: fnp.sum(fnp.linalg.det(a)))(batch), expected)
    ones = np.ones_like(batch)
    _close(fg.vmap(lambda a, t: fg.jvp(fnp.linalg.det, (a,), (t,))[1])(batch, ones),
           jax.vmap(lambda a, t: jax.jvp(jnp.linalg.det, (a,), (t,))[1])(batch, ones))


def test_jit_replays_an_invertible_trace_at_a_singular_matrix():
    gradient = fg.jit(fg.grad(fnp.linalg.det))
    for a in (2.0 * np.eye(3), _matrix("rank_2_of_3"), 3.0 * np.eye(3)):
        _close(gradient(a), jax.grad(jnp.linalg.det)(a))


def _logabsdet_gradients(a):
    return (fg.grad(lambda a: fnp.linalg.slogdet(a)[1])(a),
            np.asarray(jax.grad(lambda a: jnp.linalg.slogdet(a)[1])(a)))


@pytest.mark.parametrize("name", LOGDET_AS_ADJUGATE)
def test_logabsdet_gradient_matches_jax(name):
    a = _matrix(name)
    sign, logabsdet = fnp.linalg.slogdet(a)
    assert (sign, logabsdet) == tuple(jnp.linalg.slogdet(a))
    ours, theirs = _logabsdet_gradients(a)
    np.testing.assert_array_equal(ours, theirs)
    np.testing.assert_array_equal(fg.jit(fg.grad(lambda a: fnp.linalg.slogdet(a)[1]))(a), theirs)


@pytest.mark.parametrize("name", sorted(set(SINGULAR) - {"complex_rank_1"}))
def test_logabsdet_gradient_is_nowhere_finite_as_in_jax(name):
    ours, theirs = _logabsdet_gradients(_matrix(name))
    assert not np.isfinite(theirs).any()
    assert not np.isfinite(ours).any()


def test_logabsdet_gradient_of_a_batch_stays_finite_where_invertible():
    batch = np.stack([_matrix("rank_1_of_2"), [[2.0, 1.0], [1.0, 3.0]]])
    ours = fg.vmap(fg.grad(lambda a: fnp.linalg.slogdet(a)[1]))(batch)
    theirs = jax.vmap(jax.grad(lambda a: jnp.linalg.slogdet(a)[1]))(batch)
    np.testing.assert_array_equal(ours[0], theirs[0])
    _close(ours[1], theirs[1])


# name: (the function, made from a linalg namespace: NumPy's, or SciPy's for names starting
# "scipy."; the shapes of one batch element's arguments). Not here: sqrtm (JAX's is always
# complex, funcgrad's real for a real matrix as SciPy's), solve_banded and eigh of a
# generalized problem (JAX has neither).
_SQUARE, _RHS, _WIDE = (3, 3), (3, 2), (2, 3)
EMPTY_BATCH_CASES = {
    "inv": (lambda la: la.inv, [_SQUARE]),
    "solve": (lambda la: la.solve, [_SQUARE, _RHS]),
    "det": (lambda la: la.det, [_SQUARE]),
    "slogdet": (lambda la: lambda a: tuple(la.slogdet(a)), [_SQUARE]),
    "cholesky": (lambda la: la.cholesky, [_SQUARE]),
    "eigh": (lambda la: lambda a: tuple(la.eigh(a)), [_SQUARE]),
    "eigvalsh": (lambda la: la.eigvalsh, [_SQUARE]),
    "svd": (lambda la: lambda a: tuple(la.svd(a, full_matrices=False)), [_RHS]),
    "svdvals": (lambda la: lambda a: la.svd(a, compute_uv=False), [_RHS]),
    "qr": (lambda la: lambda a: tuple(la.qr(a, mode="complete")), [_RHS]),
    "pinv": (lambda la: la.pinv, [_RHS]),
    "eig": (lambda la: lambda a: tuple(la.eig(a)), [_SQUARE]),
    "eigvals": (lambda la: la.eigvals, [_SQUARE]),
    "matrix_power": (lambda la: lambda a: la.matrix_power(a, -2), [_SQUARE]),
    "norms": (lambda la: lambda a: (la.norm(a, 2), la.norm(a, "nuc")), [_RHS]),
    "cond": (lambda la: lambda a: (la.cond(a), la.cond(a, 1)), [_SQUARE]),
    "matrix_rank": (lambda la: la.matrix_rank, [_SQUARE]),
    "tensorsolve": (lambda la: la.tensorsolve, [_SQUARE, (3,)]),
    "scipy.solve_triangular": (lambda sl: sl.solve_triangular, [_SQUARE, _RHS]),
    "scipy.solve_triangular_vector": (lambda sl: sl.solve_triangular, [_SQUARE, (3,)]),
    "scipy.solve_sylvester": (lambda sl: sl.solve_sylvester, [_SQUARE, (2, 2), _RHS]),
    "scipy.expm": (lambda sl: sl.expm, [_SQUARE]),
    "scipy.lu": (lambda sl: sl.lu, [_SQUARE]),
    "scipy.lu_wide": (lambda sl: sl.lu, [_WIDE]),
    "scipy.lu_permute_l": (lambda sl: lambda a: sl.lu(a, permute_l=True), [_SQUARE]),
    "scipy.lu_factor": (lambda sl: sl.lu_factor, [_SQUARE]),
    "scipy.lu_solve": (lambda sl: lambda a, b: (sl.lu_solve(sl.lu_factor(a), b),
                                                sl.lu_solve(sl.lu_factor(a), b, trans=1)),
                       [_SQUARE, _RHS]),
    "scipy.cholesky": (lambda sl: lambda a: (sl.cholesky(a), sl.cholesky(a, lower=True)),
                       [_SQUARE]),
    "scipy.cho_factor": (lambda sl: lambda a: (sl.cho_factor(a)[0],
                                               sl.cho_factor(a, lower=True)[0]), [_SQUARE]),
    "scipy.cho_solve": (lambda sl: lambda a, b: (sl.cho_solve((a, False), b),
                                                 sl.cho_solve((a, True), b)), [_SQUARE, _RHS]),
    "scipy.eigh": (lambda sl: sl.eigh, [_SQUARE]),
    "scipy.schur": (lambda sl: sl.schur, [_SQUARE]),
}


def _empty_batch_functions(name):
    make, shapes = EMPTY_BATCH_CASES[name]
    scipy_ = name.startswith("scipy.")
    ours, theirs = make(fsl if scipy_ else fnp.linalg), make(jsl if scipy_ else jnp.linalg)
    return ours, theirs, [np.zeros((0,) + shape) for shape in shapes]


def _shapes_and_dtypes(tree):
    return [(np.shape(x), np.asarray(x).dtype) for x in tree_flatten(tuple(tree))[0]]


def _as_tuple(result):
    return tuple(result) if isinstance(result, (tuple, list)) else (result,)


@pytest.mark.parametrize("name", sorted(EMPTY_BATCH_CASES))
def test_vmap_over_an_empty_batch_matches_jax(name):
    ours, theirs, args = _empty_batch_functions(name)
    expected = _shapes_and_dtypes(_as_tuple(jax.vmap(theirs)(*args)))
    assert _shapes_and_dtypes(_as_tuple(fg.vmap(ours)(*args))) == expected
    assert _shapes_and_dtypes(_as_tuple(fg.jit(fg.vmap(ours))(*args))) == expected


# (JAX cannot differentiate solve_sylvester: it has no derivative of schur.)
@pytest.mark.parametrize("name", ["det", "solve", "cholesky", "scipy.solve_triangular",
                                  "scipy.lu_permute_l", "scipy.cho_solve"])
def test_vmap_of_grad_over_an_empty_batch_matches_jax(name):
    ours, theirs, args = _empty_batch_functions(name)

    def total(np_, function):
        return lambda *args: sum(np_.sum(x) for x in _as_tuple(function(*args)))

    argnums = tuple(range(len(args)))
    expected = jax.vmap(jax.grad(total(jnp, theirs), argnums))(*args)
    assert (_shapes_and_dtypes(fg.vmap(fg.grad(total(fnp, ours), argnums))(*args))
            == _shapes_and_dtypes(expected))


# SciPy's P of an m x 0 matrix is 0 x 0 (JAX's is the m x m identity): funcgrad keeps
# SciPy's factors, and its derivatives and P @ L pass the (empty) rows through unpermuted.
@pytest.mark.parametrize("shape", [(3, 0), (2, 3, 0), (0, 3), (0, 0)])
def test_lu_of_a_matrix_without_columns_or_rows(shape):
    a = np.zeros(shape)
    def loss(sl, a):
        return sum(jnp.sum(t * t) if sl is jsl else fnp.sum(t * t) for t in sl.lu(a)[1:])
    assert fg.grad(lambda a: loss(fsl, a))(a).shape == shape
    jacobian = fg.jacfwd(lambda a: fsl.lu(a)[1])(a)
    if len(shape) == 2:  # (JAX's lu takes matrices only)
        assert jax.grad(lambda a: loss(jsl, a))(jnp.asarray(a)).shape == shape
        assert jacobian.shape == jax.jacfwd(lambda a: jsl.lu(a)[1])(jnp.asarray(a)).shape
    for ours, theirs in zip(fsl.lu(a, permute_l=True), scipy.linalg.lu(a, permute_l=True)):
        assert ours.shape == theirs.shape
