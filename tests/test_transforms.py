"""grad, value_and_grad and vjp: semantics, composition to any depth, and JAX agreement."""
import collections
import functools

import jax
import jax.numpy as jnp
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import funcgrad as fg
import funcgrad.numpy as fnp
from oracle import array, shapes

jax.config.update("jax_enable_x64", True)


def tanh_layer(np_, w, x):
    return np_.sum(np_.tanh(x @ w) ** 2)


def test_grad_matches_jax_on_a_layer():
    rng = np.random.default_rng(0)
    w, x = rng.normal(size=(3, 2)), rng.normal(size=(4, 3))
    ours = fg.grad(lambda w, x: tanh_layer(fnp, w, x), argnums=(0, 1))(w, x)
    theirs = jax.grad(lambda w, x: tanh_layer(jnp, w, x), argnums=(0, 1))(w, x)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def _scalar_function(np_, x):
    return np_.sin(x) * np_.exp(x) + x ** 4 / (1 + x ** 2) + np_.tanh(x) * np_.log(1 + x * x)


_jax_third_derivative = jax.jit(jax.grad(jax.grad(jax.grad(
    functools.partial(_scalar_function, jnp)))))


@given(x=st.floats(-2, 2))
def test_third_order_derivatives_match_jax(x):
    ours = fg.grad(fg.grad(fg.grad(functools.partial(_scalar_function, fnp))))(x)
    np.testing.assert_allclose(ours, _jax_third_derivative(x), rtol=1e-9, atol=1e-12)


def _third_order(grad, np_, x):
    def f(x):
        return np_.sum(np_.cos(x) * np_.sum(x ** 3)) + np_.prod(np_.sin(x))

    g1 = lambda x: np_.sum(grad(f)(x) ** 2)  # noqa: E731
    g2 = lambda x: np_.sum(grad(g1)(x) * x)  # noqa: E731
    return grad(g2)(x)


# Jitted once, compiled once per shape: JAX's op-by-op third derivative took ~1.3 s a shape.
_jax_third_order = jax.jit(functools.partial(_third_order, jax.grad, jnp))


@given(data=st.data())
def test_third_order_of_array_function_matches_jax(data):
    x = data.draw(array(data.draw(shapes(1, 2)), np.float64, -1.0, 1.0))
    np.testing.assert_allclose(_third_order(fg.grad, fnp, x), _jax_third_order(x), rtol=1e-8,
                               atol=1e-10)


def test_perturbation_confusion():
    # d/dx [x * d/dy (x + y)] = d/dx [x * 1] = 1; mixing the two perturbations gives 2.
    assert fg.grad(lambda x: x * fg.grad(lambda y: x + y)(1.0))(1.0) == 1.0


def test_perturbation_confusion_closing_over_each_other():
    # The inner function closes over the outer variable and the outer one uses the
    # inner gradient evaluated at the outer variable.
    def outer(np_, grad, x):
        inner = grad(lambda y: np_.sin(x * y) * y)
        return inner(x) * x + grad(lambda y: x * y ** 2)(np_.cos(x))

    for x in (0.3, 1.7):
        ours = fg.grad(lambda x: outer(fnp, fg.grad, x))(x)
        theirs = jax.grad(lambda x: outer(jnp, jax.grad, x))(x)
        np.testing.assert_allclose(ours, theirs, rtol=1e-12)


def test_value_and_grad_and_argnums():
    f = lambda x, y, z: fnp.sum(x * y) + z  # noqa: E731
    x, y = np.arange(3.0), np.ones(3)
    value, (gx, gz) = fg.value_and_grad(f, argnums=(0, -1))(x, y, 2.0)
    assert value == 5.0
    np.testing.assert_array_equal(gx, y)
    assert gz == 1.0
    np.testing.assert_array_equal(fg.grad(f, 1)(x, y, 2.0), x)


def test_kwargs_are_passed_and_not_differentiated():
    f = lambda x, scale=1.0: fnp.sum(x) * scale  # noqa: E731
    np.testing.assert_array_equal(fg.grad(f)(np.ones(2), scale=3.0), [3.0, 3.0])


def test_has_aux_returns_aux_without_boxes():
    def f(x):
        y = fnp.sin(x)
        return fnp.sum(y), {"y": y, "note": "kept"}

    g, aux = fg.grad(f, has_aux=True)(np.ones(2))
    np.testing.assert_allclose(g, np.cos(np.ones(2)))
    assert type(aux["y"]) is np.ndarray and aux["note"] == "kept"
    (value, aux2), g2 = fg.value_and_grad(f, has_aux=True)(np.ones(2))
    np.testing.assert_allclose(value, 2 * np.sin(1.0))
    out, pullback, aux3 = fg.vjp(f, np.ones(2), has_aux=True)
    np.testing.assert_allclose(pullback(1.0)[0], g)


def test_vjp_is_reusable_and_returns_a_tuple():
    out, pullback = fg.vjp(lambda x: x * 2.0, np.arange(3.0))
    first = pullback(np.ones(3))
    second = pullback(np.full(3, 2.0))
    assert isinstance(first, tuple) and len(first) == 1
    np.testing.assert_array_equal(first[0], [2, 2, 2])
    np.testing.assert_array_equal(second[0], [4, 4, 4])


def test_output_independent_of_input_gives_zeros():
    g = fg.grad(lambda x, y: fnp.sum(y ** 2))(np.ones(3, np.float32), np.ones(2))
    assert g.dtype == np.float32 and g.shape == (3,) and not g.any()


def test_identity_function():
    np.testing.assert_array_equal(fg.vjp(lambda x: x, np.ones(2))[1](np.arange(2.0))[0],
                                  [0.0, 1.0])


def test_gradient_dtype_follows_the_input():
    g = fg.grad(lambda x: fnp.sum(x * np.float64(2.0)))(np.ones(3, np.float32))
    assert g.dtype == np.float32


def test_integer_results_are_constants():
    def f(x):
        k = fnp.argmax(x) if hasattr(fnp, "argmax") else int(np.argmax(fg.stop_gradient(x)))
        return x[k] * fnp.sum(x > 0)
    np.testing.assert_array_equal(fg.grad(f)(np.array([1.0, 3.0, -2.0])), [0, 2, 0])


def test_stop_gradient():
    f = lambda x: fnp.sum(x * fg.stop_gradient(x))  # noqa: E731
    np.testing.assert_array_equal(fg.grad(f)(np.arange(3.0)), np.arange(3.0))
    assert fg.grad(lambda x: fg.grad(lambda y: fg.stop_gradient(x) * y)(x) * x)(2.0) == 2.0


def test_numpy_operators_and_ufuncs_on_traced_values_are_traced():
    # ndarray on the left defers to the traced value; numpy.sin dispatches to ours.
    f = lambda x: np.sum(np.ones(2) * np.sin(x))  # noqa: E731
    np.testing.assert_allclose(fg.grad(f)(np.array([0.0, 1.0])), np.cos([0.0, 1.0]))


# ---- pytrees ---------------------------------------------------------------------------

Point = collections.namedtuple("Point", "x y")


class Pair:
    def __init__(self, a, b):
        self.a, self.b = a, b


fg.tree_util.register_pytree_node(Pair, lambda p: ((p.a, p.b), None),
                                  lambda _, children: Pair(*children))


def test_pytrees_of_every_kind_through_grad():
    params = {"w": [np.ones(2), (np.full(2, 2.0), None)], "p": Point(1.0, np.ones(1)),
              "c": Pair(np.ones(2), 3.0)}

    def loss(params):
        w0, (w1, _) = params["w"]
        p, c = params["p"], params["c"]
        return fnp.sum(w0 * w1) + p.x * fnp.sum(p.y) + fnp.sum(c.a) * c.b

    g = fg.grad(loss)(params)
    np.testing.assert_array_equal(g["w"][0], [2, 2])
    np.testing.assert_array_equal(g["w"][1][0], [1, 1])
    assert g["w"][1][1] is None
    assert isinstance(g["p"], Point) and g["p"].x == 1.0
    assert isinstance(g["c"], Pair) and g["c"].b == 2.0
    np.testing.assert_array_equal(g["c"].a, [3, 3])


def test_pytree_outputs_and_cotangents_through_vjp():
    def f(x):
        return {"double": [x * 2.0], "point": Point(fnp.sum(x), None), "pair": Pair(x, x ** 2)}

    x = np.arange(3.0)
    out, pullback = fg.vjp(f, x)
    assert isinstance(out["point"], Point) and isinstance(out["pair"], Pair)
    ct = {"double": [np.ones(3)], "point": Point(np.float64(1.0), None),
          "pair": Pair(np.zeros(3), np.ones(3))}
    (g,) = pullback(ct)
    np.testing.assert_array_equal(g, 2.0 + 1.0 + 2 * x)


def test_has_aux_pytree_payload():
    g, aux = fg.grad(lambda p: (p.x * p.y, Point(p.x, [p.y])), has_aux=True)(Point(2.0, 3.0))
    assert isinstance(g, Point) and g == (3.0, 2.0)
    assert aux == Point(2.0, [3.0])
