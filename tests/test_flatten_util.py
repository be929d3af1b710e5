"""funcgrad.flatten_util.ravel_pytree against jax.flatten_util.ravel_pytree: values,
dtypes, the rebuilt tree, and gradients through both directions."""
import collections

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from jax.flatten_util import ravel_pytree as jax_ravel_pytree

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.flatten_util import ravel_pytree
from funcgrad.test_util import check_grads
from funcgrad.tree_util import tree_flatten, tree_map

jax.config.update("jax_enable_x64", True)

Point = collections.namedtuple("Point", ["x", "y"])
rng = np.random.default_rng(0)


def _leaf(shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) > 0.5
    if dtype.kind in "iu":
        return rng.integers(0, 5, shape).astype(dtype)
    values = rng.standard_normal(shape)
    if dtype.kind == "c":
        values = values + 1j * rng.standard_normal(shape)
    return values.astype(dtype)


# Trees whose dtypes promote the same way in JAX (x64) and NumPy.
TREES = {
    "one float64 leaf": lambda: _leaf((3,), np.float64),
    "float32 only": lambda: [_leaf((2, 2), np.float32), _leaf((), np.float32)],
    "nested containers": lambda: {"w": [_leaf((2, 3), np.float64), None,
                                        (_leaf((1,), np.float64),)],
                                  "b": Point(_leaf((3,), np.float64), 2.5)},
    "float32 and float64": lambda: (_leaf((2,), np.float32), _leaf((3,), np.float64)),
    "float64 and int64": lambda: {"a": _leaf((2,), np.float64), "n": _leaf((2, 1), np.int64)},
    "float32 and bool": lambda: [_leaf((2,), np.float32), _leaf((3,), bool)],
    "complex and float": lambda: (_leaf((2,), np.float64), _leaf((2,), np.complex128)),
    "zero-size leaf": lambda: (_leaf((0, 3), np.float64), _leaf((2,), np.float64)),
}


def _assert_same_leaves(ours, theirs):
    ours_flat, ours_tree = tree_flatten(ours)
    theirs_flat = jax.tree_util.tree_leaves(theirs)
    assert len(ours_flat) == len(theirs_flat)
    for a, b in zip(ours_flat, theirs_flat):
        b = np.asarray(b)
        assert np.shape(a) == b.shape and np.asarray(a).dtype == b.dtype
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("name", sorted(TREES))
def test_flat_vector_and_rebuilt_tree_match_jax(name):
    tree = TREES[name]()
    flat, unravel = ravel_pytree(tree)
    jax_flat, jax_unravel = jax_ravel_pytree(tree)
    assert flat.dtype == jax_flat.dtype and flat.shape == jax_flat.shape
    np.testing.assert_array_equal(flat, jax_flat)
    assert type(flat) is np.ndarray
    # Rebuild from a changed vector, so the casts back to each leaf's dtype matter.
    changed = np.asarray(jax_flat) * 1.5 + (1j if flat.dtype.kind == "c" else 0)
    changed = changed.astype(flat.dtype)
    _assert_same_leaves(unravel(changed), jax_unravel(changed))
    assert tree_flatten(unravel(changed))[1] == tree_flatten(tree)[1]


@given(st.lists(st.tuples(st.lists(st.integers(0, 3), max_size=3),
                          st.sampled_from([np.float32, np.float64])), max_size=4))
def test_random_trees_match_jax(leaf_specs):
    tree = [_leaf(tuple(shape), dtype) for shape, dtype in leaf_specs]
    if not tree:
        return  # the empty tree is the one documented difference, tested below
    flat, unravel = ravel_pytree(tree)
    jax_flat, jax_unravel = jax_ravel_pytree(tree)
    assert flat.dtype == jax_flat.dtype
    np.testing.assert_array_equal(flat, jax_flat)
    _assert_same_leaves(unravel(flat * 2), jax_unravel(jnp.asarray(flat * 2)))


def test_promotion_follows_numpy_where_jax_differs():
    # JAX joins int64 and float32 at float32; NumPy (and funcgrad everywhere) at float64.
    tree = (_leaf((2,), np.float32), _leaf((2,), np.int64))
    flat, unravel = ravel_pytree(tree)
    assert jax_ravel_pytree(tree)[0].dtype == np.float32
    assert flat.dtype == np.result_type(np.float32, np.int64) == np.float64
    back = unravel(flat)
    assert [x.dtype for x in back] == [np.float32, np.int64]
    np.testing.assert_array_equal(back[1], tree[1])


def test_empty_tree_gives_an_empty_vector_of_the_default_float():
    flat, unravel = ravel_pytree({"a": (), "b": None})
    jax_flat, jax_unravel = jax_ravel_pytree({"a": (), "b": None})
    assert flat.shape == jax_flat.shape == (0,)
    assert flat.dtype == np.float64  # JAX: float32, its default float
    assert unravel(flat) == jax_unravel(jax_flat) == {"a": (), "b": None}


def test_single_dtype_unravel_keeps_the_vectors_dtype_like_jax():
    tree = {"w": _leaf((2,), np.float64), "b": _leaf((), np.float64)}
    flat32 = np.arange(3, dtype=np.float32)
    _assert_same_leaves(ravel_pytree(tree)[1](flat32), jax_ravel_pytree(tree)[1](flat32))


def _loss(np_, flat):
    return np_.sum(np_.sin(flat) * np_.arange(1.0, flat.shape[0] + 1.0))


@pytest.mark.parametrize("name", ["nested containers", "float32 and float64",
                                  "float32 only", "zero-size leaf"])
def test_gradient_through_ravel_matches_jax(name):
    tree = TREES[name]()
    ours = fg.grad(lambda t: _loss(fnp, ravel_pytree(t)[0]))(tree)
    theirs = jax.grad(lambda t: _loss(jnp, jax_ravel_pytree(t)[0]))(tree)
    ours_flat, theirs_flat = tree_flatten(ours)[0], jax.tree_util.tree_leaves(theirs)
    for a, b in zip(ours_flat, theirs_flat):
        assert np.asarray(a).dtype == np.asarray(b).dtype
        np.testing.assert_allclose(a, b, rtol=1e-6)


@pytest.mark.parametrize("name", ["nested containers", "float32 and float64", "float32 only"])
def test_gradient_through_unravel_matches_jax(name):
    tree = TREES[name]()
    flat, unravel = ravel_pytree(tree)
    jax_unravel = jax_ravel_pytree(tree)[1]

    def model(np_, leaves):
        return sum(np_.sum(np_.cos(x) * (i + 1)) for i, x in enumerate(leaves))

    ours = fg.grad(lambda v: model(fnp, tree_flatten(unravel(v))[0]))(flat)
    theirs = jax.grad(lambda v: model(jnp, jax.tree_util.tree_leaves(jax_unravel(v))))(
        jnp.asarray(flat))
    assert ours.dtype == theirs.dtype
    np.testing.assert_allclose(ours, theirs, rtol=1e-6)


def test_second_order_through_both_directions():
    tree = {"w": _leaf((2, 2), np.float64), "b": (_leaf((3,), np.float64), 0.5)}
    flat, unravel = ravel_pytree(tree)
    check_grads(lambda t: fnp.tanh(ravel_pytree(t)[0]) ** 2, (tree,), order=2)
    check_grads(lambda v: tree_map(fnp.exp, unravel(v)), (flat,), order=2)
    check_grads(lambda v: ravel_pytree(unravel(v) | {"c": v[:2]})[0], (flat,), order=2)


def test_jvp_through_ravel_matches_jax():
    tree = [_leaf((2,), np.float64), _leaf((2, 2), np.float64)]
    tangent = [_leaf((2,), np.float64), _leaf((2, 2), np.float64)]
    ours = fg.jvp(lambda t: fnp.sin(ravel_pytree(t)[0]), (tree,), (tangent,))
    theirs = jax.jvp(lambda t: jnp.sin(jax_ravel_pytree(t)[0]), (tree,), (tangent,))
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_wrong_vector_shape_is_a_value_error_naming_the_expected_shape():
    unravel = ravel_pytree((np.ones(2), np.ones(3)))[1]
    with pytest.raises(ValueError, match=r"shape \(5,\).*got shape \(4,\)"):
        unravel(np.ones(4))
    with pytest.raises(ValueError, match=r"got shape \(1, 5\)"):
        unravel(np.ones((1, 5)))


def test_wrong_dtype_for_mixed_dtypes_is_a_type_error_as_in_jax():
    tree = (np.ones(2), np.ones(1, np.float32))
    unravel = ravel_pytree(tree)[1]
    with pytest.raises(TypeError):
        jax_ravel_pytree(tree)[1](np.ones(3, np.float32))
    with pytest.raises(TypeError, match="dtype float64.*got dtype float32"):
        unravel(np.ones(3, np.float32))


def test_a_leaf_that_is_not_an_array_is_named():
    with pytest.raises(TypeError, match=r"pytree\['b'\]\[1\] is a str"):
        ravel_pytree({"a": np.ones(2), "b": [1.0, "x"]})
