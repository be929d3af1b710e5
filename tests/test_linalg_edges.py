"""Edges of linalg, against JAX (float64): det and slogdet at singular matrices.

The derivative of det is the transposed adjugate, defined at every matrix: at rank n - 1 it
has rank 1, at rank n - 2 or less it is 0. log|det| has no finite derivative there: its
gradient is adj(A)^T / det(A), infinite where a cofactor is not 0 and NaN where it is. JAX
computes it through A's LU factors, whose zero pivot turns some of those infinities into
NaN (in a row after it, or all of them at rank n - 2): the two agree where the factors do
not mix infinities, and are non-finite together everywhere.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

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

