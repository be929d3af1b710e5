"""JAX's functional updates ``x.at[idx]`` and the errors around indexing traced arrays.

The oracle cases (oracle_cases/indexing.py) draw indices with Hypothesis; these tests pin
down the semantics that matter most where an index repeats (which update wins, how ties
share a derivative), what JAX cannot differentiate, and the messages users see.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

jax.config.update("jax_enable_x64", True)

X = np.array([1.0, 2.0, 3.0, 4.0])
REPEATED = np.array([0, 2, 0, 0])
WEIGHTS = np.arange(1.0, 5.0)


def _ours(method, x, index, values):
    return fg.grad(lambda x, v: fnp.sum(getattr(x.at[index], method)(v) * WEIGHTS),
                   argnums=(0, 1))(x, values)


def _jax(method, x, index, values):
    return jax.grad(lambda x, v: jnp.sum(getattr(x.at[index], method)(v) * WEIGHTS),
                    argnums=(0, 1))(x, values)


def _assert_like_jax(method, x, index, values):
    value = getattr(fnp.at(x)[index], method)(values)
    np.testing.assert_allclose(value, getattr(jnp.asarray(x).at[index], method)(values))
    for ours, theirs in zip(_ours(method, x, index, values), _jax(method, x, index, values)):
        np.testing.assert_allclose(ours, theirs)


@pytest.mark.parametrize("method", ["set", "add", "subtract", "min", "max"])
def test_repeated_indices_match_jax(method):
    _assert_like_jax(method, X, REPEATED, np.array([10.0, 20.0, 30.0, 40.0]))


@pytest.mark.parametrize("method", ["min", "max"])
def test_ties_share_the_derivative_as_in_jax(method):
    # x[0], and the updates 0 and 3 all equal 1 at position 0: each gets a third.
    _assert_like_jax(method, X, REPEATED, np.array([1.0, 1.0, 5.0, 1.0]))
    _assert_like_jax(method, X, REPEATED, np.array([1.0, 3.0, 1.0, 1.0]))


def test_set_last_update_wins_for_multidimensional_indices():
    x = np.arange(12.0).reshape(3, 4)
    rows, cols = np.array([[0, 2], [0, 2]]), np.array([[1, 1], [1, 3]])
    values = np.arange(4.0).reshape(2, 2) + 10
    _assert_like_jax("set", x, (rows, cols), values)
    _assert_like_jax("set", x, (slice(None), np.array([3, 0, 3])), np.array([7.0, 8.0, 9.0]))


def test_set_with_a_broadcast_scalar_and_repeats():
    ours = fg.grad(lambda v: fnp.sum(fnp.at(X)[REPEATED].set(v) * WEIGHTS))(2.0)
    theirs = jax.grad(lambda v: jnp.sum(jnp.asarray(X).at[REPEATED].set(v) * WEIGHTS))(2.0)
    np.testing.assert_allclose(ours, theirs)


def test_multiply_divide_power_with_repeats_apply_in_turn():
    # JAX computes these values but refuses to differentiate them with repeated indices.
    values = np.array([2.0, 3.0, 0.5, 4.0])
    for method in ("multiply", "divide", "power"):
        np.testing.assert_allclose(getattr(fnp.at(X)[REPEATED], method)(values),
                                   getattr(jnp.asarray(X).at[REPEATED], method)(values))
    # x0 * v0 * v2 * v3 and x2 * v1: derivatives by hand.
    dx, dv = _ours("multiply", X, REPEATED, values)
    np.testing.assert_allclose(dx, [2.0 * 0.5 * 4.0, 2.0, 3.0 * 3.0, 4.0])
    np.testing.assert_allclose(dv, [1.0 * 0.5 * 4.0, 3.0 * 3.0, 1.0 * 2.0 * 4.0,
                                    1.0 * 2.0 * 0.5])
    # ((x0 ** v0) ** v2) ** v3 = x0 ** (v0 v2 v3), so d/dx0 = v0 v2 v3 x0 ** (v0 v2 v3 - 1).
    x = np.array([1.5, 2.0, 3.0, 4.0])
    dx, _ = _ours("power", x, REPEATED, values)
    np.testing.assert_allclose(dx[0], 4.0 * 1.5 ** 3.0)


def test_apply_runs_once_per_occurrence_as_in_jax():
    x = np.array([2.0, 3.0, 4.0])
    index = np.array([0, 0, 2])
    np.testing.assert_allclose(fnp.at(x)[index].apply(fnp.sin),
                               jnp.asarray(x).at[index].apply(jnp.sin))
    grad = fg.grad(lambda x: fnp.sum(x.at[index].apply(fnp.sin)))(x)
    np.testing.assert_allclose(grad, [np.cos(np.sin(2.0)) * np.cos(2.0), 1.0, np.cos(4.0)])


def test_forward_mode_matches_jax():
    values = np.array([10.0, 1.0, 5.0, 1.0])
    tangents = (np.array([0.5, -1.0, 2.0, 1.0]), np.array([1.0, 2.0, 3.0, 4.0]))
    for method in ("set", "add", "max"):
        def ours(x, v):
            return getattr(fnp.at(x)[REPEATED], method)(v)

        def theirs(x, v):
            return getattr(x.at[REPEATED], method)(v)

        _, tangent = fg.jvp(ours, (X, values), tangents)
        _, expected = jax.jvp(theirs, (X, values), tangents)
        np.testing.assert_allclose(tangent, expected)


def test_at_on_plain_arrays_returns_a_new_array():
    x = np.zeros(3)
    y = fnp.at(x)[1].set(5.0)
    assert type(y) is np.ndarray and y.tolist() == [0.0, 5.0, 0.0]
    assert x.tolist() == [0.0, 0.0, 0.0]
    assert fnp.at([1, 2, 3])[0].add(1).tolist() == [2, 2, 3]


def test_values_are_cast_to_the_arrays_dtype():
    assert fnp.at(np.arange(3))[0].set(2.7).tolist() == [2, 1, 2]
    y = fnp.at(np.zeros(2, np.float32))[0].set(np.float64(1.0))
    assert y.dtype == np.float32
    grad = fg.grad(lambda v: fnp.sum(fnp.at(np.zeros(2, np.float32))[0].set(v)))(
        np.float64(1.0))
    assert grad.dtype == np.float64 and grad == 1.0


def test_traced_arrays_cannot_be_assigned_into():
    def f(x):
        x[0] = 1.0
        return x

    with pytest.raises(TypeError, match=r"x = x\.at\[idx\]\.set\(v\)"):
        fg.grad(lambda x: fnp.sum(f(x)))(X)


@pytest.mark.parametrize("index, error, message", [
    (1.0, IndexError, "not an integer"),
    (np.array([0.5]), IndexError, "integers or booleans"),
    ("a", IndexError, "cannot be used as an index"),
    (slice(0.5, None), TypeError, "slice bounds"),
])
def test_bad_indices_are_clear_errors(index, error, message):
    with pytest.raises(error, match=message):
        fg.grad(lambda x: fnp.sum(x[index]))(X)


def test_a_traced_float_index_is_refused():
    with pytest.raises(TypeError, match="cannot carry derivatives"):
        fg.grad(lambda x: fnp.sum(x[x[0]]))(X)


def test_a_computed_integer_index_works():
    grad = fg.grad(lambda x: x[fnp.argmax(x)] * 2.0)(X)
    np.testing.assert_allclose(grad, [0.0, 0.0, 0.0, 2.0])


MATRIX = np.arange(12.0).reshape(3, 4)
OUT_OF_BOUNDS = [np.array([0, 5, -1, -9]), (slice(None), np.array([1, 4, -5])),
                 (1, np.array([7, 2, 2])), (Ellipsis, 9), (np.array([[3], [0]]), 1)]


@pytest.mark.parametrize("index", OUT_OF_BOUNDS)
@pytest.mark.parametrize("mode", ["clip", "drop", "fill"])
@pytest.mark.parametrize("method", ["get", "set", "add"])
def test_out_of_bounds_modes_match_jax(index, mode, method):
    options = {"mode": mode, **({"fill_value": -1.0} if method == "get" else {})}
    ours_at, theirs_at = fnp.at(MATRIX)[index], jnp.asarray(MATRIX).at[index]
    shape = theirs_at.get(mode="clip").shape
    args = () if method == "get" else (np.arange(float(np.prod(shape))).reshape(shape),)
    np.testing.assert_allclose(getattr(ours_at, method)(*args, **options),
                               getattr(theirs_at, method)(*args, **options))

    def loss(namespace):
        return lambda x, *v: namespace.sum(getattr(x.at[index], method)(*v, **options) ** 2)

    argnums = tuple(range(1 + len(args)))
    ours = fg.grad(loss(fnp), argnums=argnums)(MATRIX, *args)
    theirs = jax.grad(loss(jnp), argnums=argnums)(MATRIX, *args)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b)


def test_get_fills_with_jax_defaults():
    assert np.isnan(fnp.at(X)[np.array([9])].get(mode="fill")).all()
    assert fnp.at(np.arange(3))[5].get(mode="fill") == np.iinfo(np.int64).min


def test_update_errors():
    with pytest.raises(ValueError, match="cannot be broadcast to the indexed shape"):
        fnp.at(X)[:2].set(np.ones(3))
    with pytest.raises(ValueError, match="mode must be one of"):
        fnp.at(X)[5].set(1.0, mode="wrap")
    with pytest.raises(IndexError):
        fnp.at(X)[np.array([7])].add(1.0)


def test_iteration_keeps_derivatives():
    x = np.arange(6.0).reshape(2, 3)
    grad = fg.grad(lambda x: sum(fnp.sum(row ** 2) for row in x) + x[1][2] * 3.0)(x)
    np.testing.assert_allclose(grad, 2 * x + np.array([[0, 0, 0], [0, 0, 3.0]]))


@pytest.mark.parametrize("call, error, message", [
    (lambda: fnp.reshape(X, (3, -1)), ValueError, "reshape: cannot reshape"),
    (lambda: fnp.concatenate([X, X[None]]), ValueError, "must match except along axis"),
    (lambda: fnp.moveaxis(X, 1, 0), np.exceptions.AxisError, "moveaxis: axis 1 is out of"),
    (lambda: fnp.split(X, 3), ValueError, "equal sections; use array_split"),
    (lambda: fnp.pad(X, 1, mode="empty"), NotImplementedError, "mode='empty'"),
    (lambda: fnp.pad(X, 1, mode="average"), ValueError, "mode='average' is not supported"),
    (lambda: fnp.pad(X, 1, mode="mean", stat_length=0), ValueError, "stat_length of 0"),
    (lambda: fnp.pad(X, 1, mode="reflect", reflect_type="even_odd"), ValueError,
     "reflect_type must be 'even' or 'odd'"),
    (lambda: fnp.broadcast_to(X, (3,)), ValueError, r"broadcast_to: cannot broadcast"),
    (lambda: fnp.take(X, [4]), IndexError, "out of bounds"),
    (lambda: fnp.take(X, [0.0]), IndexError, "indices must be integers"),
    (lambda: fnp.diagonal(X), ValueError, "at least 2-D"),
    (lambda: fnp.sort(X, order="a"), NotImplementedError, "order="),
])
def test_shape_errors_name_the_function(call, error, message):
    with pytest.raises(error, match=message):
        call()
