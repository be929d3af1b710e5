"""Forward mode: jvp, the transposition fallback, nesting with reverse mode, linearize."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.core import ArgVJP, JVPTrace, LeakedValueError, Primitive, defjvp, defvjp

jax.config.update("jax_enable_x64", True)

RNG = np.random.default_rng(0)
X = RNG.standard_normal((2, 3))
T = RNG.standard_normal((2, 3))


def assert_tree_close(ours, theirs, rtol=1e-10, atol=1e-12):
    ours_leaves, ours_tree = jax.tree_util.tree_flatten(ours)
    theirs_leaves, theirs_tree = jax.tree_util.tree_flatten(theirs)
    assert ours_tree == theirs_tree
    for a, b in zip(ours_leaves, theirs_leaves):
        assert np.shape(a) == np.shape(b)
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=atol)


# ---- jvp -----------------------------------------------------------------------------


def test_jvp_matches_jax_on_pytrees_with_aux():
    def f(np_, params, x):
        h = np_.tanh(x @ params["w"]) * params["b"]
        return {"sum": np_.sum(h ** 2), "h": h}, {"aux": x}

    params = {"w": RNG.standard_normal((3, 2)), "b": RNG.standard_normal(2)}
    dparams = {"w": RNG.standard_normal((3, 2)), "b": RNG.standard_normal(2)}
    out, tangent, aux = fg.jvp(lambda p, x: f(fnp, p, x), (params, X), (dparams, T),
                               has_aux=True)
    expected = jax.jit(lambda p, x, dp, dx: jax.jvp(lambda p, x: f(jnp, p, x), (p, x), (dp, dx),
                                                    has_aux=True))(params, X, dparams, T)
    assert_tree_close((out, tangent, aux), expected)


def test_python_scalars_and_lists():
    out, tangent = fg.jvp(lambda x, y: fnp.sin(x) * y, [0.0, 3.0], [2.0, 0.0])
    assert (float(out), float(tangent)) == (0.0, 6.0)


def test_integer_inputs_and_outputs_are_constants():
    out, tangent = fg.jvp(lambda x, n: (x * n, n + 1), (X, 3), (T, np.zeros((), fg.float0)))
    np.testing.assert_allclose(tangent[0], 3 * T)
    assert tangent[1].dtype == fg.float0 and tangent[1].shape == ()


def test_untraced_output_has_zero_tangent():
    _, tangent = fg.jvp(lambda x: (x, np.ones(2)), (X,), (T,))
    np.testing.assert_array_equal(tangent[1], np.zeros(2))


def test_tangent_must_match_primal():
    with pytest.raises(TypeError, match="tangent for primals\\[0\\] has shape \\(3,\\)"):
        fg.jvp(fnp.sin, (np.ones(2),), (np.ones(3),))
    with pytest.raises(TypeError, match="dtype float32"):
        fg.jvp(fnp.sin, (np.ones(2),), (np.ones(2, np.float32),))
    with pytest.raises(TypeError, match="float0"):
        fg.jvp(lambda n: n * 1.0, (3,), (1.0,))
    with pytest.raises(TypeError, match="structure"):
        fg.jvp(lambda x, y: x * y, (1.0, 2.0), (1.0,))
    with pytest.raises(TypeError, match="tuples or lists"):
        fg.jvp(fnp.sin, 1.0, 1.0)


def test_leaked_box_is_an_error():
    leaked = []
    fg.jvp(lambda x: leaked.append(x) or x, (1.0,), (1.0,))
    with pytest.raises(LeakedValueError, match="forward-mode"):
        fnp.sin(leaked[0])


def test_complex_follows_jax():
    z, dz = np.array([1.0 + 2j, -0.5 + 1j]), np.array([0.3 - 1j, 1.0 + 0.5j])

    def f(np_, z):
        return np_.conj(z) * np_.exp(z) + np_.abs(z) + np_.real(z) * 1j

    assert_tree_close(fg.jvp(lambda z: f(fnp, z), (z,), (dz,)),
                      jax.jvp(lambda z: f(jnp, z), (z,), (dz,)))
    x, dx = np.array([0.5, 2.0]), np.array([1.0, -1.0])  # real to complex
    assert_tree_close(fg.jvp(lambda x: fnp.exp(x * 1j), (x,), (dx,)),
                      jax.jvp(lambda x: jnp.exp(x * 1j), (x,), (dx,)))


# ---- JVP rules, and the transposition fallback -----------------------------------------


def _toy(name, jvp_rule=None):
    """sin(x) * y as a primitive with a VJP rule, and optionally a JVP rule for x."""
    prim = Primitive(name, lambda x, y: np.sin(x) * y, register=False)
    defvjp(prim, ArgVJP(lambda ans, x, y: (x, y), lambda g, x, y: g * fnp.cos(x) * y),
           ArgVJP(lambda ans, x, y: (x,), lambda g, x: g * fnp.sin(x)))
    if jvp_rule is not None:
        defjvp(prim, jvp_rule)
    return prim


def test_fallback_transposes_the_vjp_rule_to_every_order():
    with_rule = _toy("with_rule", lambda t, ans, x, y: t * fnp.cos(x) * y)
    without = _toy("without_rule")
    f = lambda p: lambda x, y: fnp.sum(p(x * y, y) ** 2)  # noqa: E731
    args = (X, RNG.standard_normal((2, 3)))
    for transform in (fg.jacfwd, fg.hessian):
        assert_tree_close(transform(f(without), (0, 1))(*args),
                          transform(f(with_rule), (0, 1))(*args))
    expected = jax.jit(jax.hessian(lambda x, y: jnp.sum((jnp.sin(x * y) * y) ** 2), (0, 1)))(
        *args)
    assert_tree_close(fg.hessian(f(without), (0, 1))(*args), expected, rtol=1e-9)


def test_fallback_for_multiple_results():
    prim = Primitive("sin_and_cos", lambda x: (np.sin(x), np.cos(x)), multiple_results=True,
                     register=False)

    def pull(g, x):
        g_sin, g_cos = g
        total = 0.0
        if g_sin is not None:
            total = total + g_sin * fnp.cos(x)
        if g_cos is not None:
            total = total - g_cos * fnp.sin(x)
        return total

    defvjp(prim, ArgVJP(lambda ans, x: (x,), pull))
    out, tangent = fg.jvp(lambda x: prim(x)[0] * prim(x)[1], (X,), (T,))
    np.testing.assert_allclose(tangent, np.cos(2 * X) * T)


def test_wrong_jvp_rule_shape_is_reported():
    prim = _toy("bad_rule", lambda t, ans, x, y: fnp.sum(t))
    with pytest.raises(TypeError, match="JVP rule of 'bad_rule' for argument 0 returned a "
                                        "tangent of shape \\(\\)"):
        fg.jvp(lambda x: prim(x, x), (X,), (T,))


def test_custom_vjp_under_forward_mode_is_a_clear_error_but_hessian_works():
    @fg.custom_vjp
    def f(x):
        return fnp.sin(x)

    f.defvjp(lambda x: (fnp.sin(x), x), lambda x, g: (g * fnp.cos(x),))
    with pytest.raises((TypeError, NotImplementedError), match="custom_vjp"):
        fg.jvp(f, (1.0,), (1.0,))
    np.testing.assert_allclose(fg.hessian(f)(1.0), -np.sin(1.0))


# ---- nesting: levels keep perturbations apart -----------------------------------------


def _confusion(outer, inner):
    """d/dx [x * d/dy (x + y)] at x = y = 1: the inner derivative is 1, so the answer is 1
    (2 if the inner transform confused x's perturbation with y's)."""
    return outer(lambda x: x * inner(lambda y: x + y)(1.0))(1.0)


def _by_jvp(f):
    return lambda x: fg.jvp(f, (x,), (1.0,))[1]


@pytest.mark.parametrize("outer", [fg.grad, _by_jvp], ids=["grad", "jvp"])
@pytest.mark.parametrize("inner", [fg.grad, _by_jvp], ids=["grad", "jvp"])
def test_perturbation_confusion(outer, inner):
    assert float(_confusion(outer, inner)) == 1.0


def test_nested_levels_are_ordered_by_call():
    traces = []

    def inner(y):
        traces.append(y._trace)
        return fnp.sin(y)

    fg.grad(lambda x: fg.jvp(inner, (x,), (1.0,))[1])(1.0)
    assert isinstance(traces[0], JVPTrace) and traces[0].level > 0


def test_forward_over_reverse_and_reverse_over_forward_agree_with_jax():
    def f(np_, x):
        return np_.sum(np_.tanh(x) * np_.sin(x[::-1]) ** 2)

    ours = fg.jvp(fg.grad(lambda x: f(fnp, x)), (X,), (T,))
    assert_tree_close(ours, jax.jvp(jax.grad(lambda x: f(jnp, x)), (X,), (T,)))
    ours = fg.grad(lambda x: fg.jvp(lambda y: f(fnp, y), (x,), (T,))[1])(X)
    assert_tree_close(ours, jax.grad(lambda x: jax.jvp(lambda y: f(jnp, y), (x,), (T,))[1])(X))


# ---- grad options: holomorphic, allow_int ---------------------------------------------


def test_holomorphic_grad_and_value_and_grad():
    z = 1.0 + 2.0j
    assert fg.grad(lambda z: z ** 2, holomorphic=True)(z) == 2 * z
    value, g = fg.value_and_grad(lambda z: fnp.exp(z), holomorphic=True)(z)
    np.testing.assert_allclose([value, g], [np.exp(z)] * 2)
    with pytest.raises(TypeError, match="holomorphic=True needs complex inputs"):
        fg.grad(lambda z: z ** 2, holomorphic=True)(1.0)
    with pytest.raises(TypeError, match="holomorphic=True"):
        fg.grad(lambda z: z ** 2)(z)
    # Real-valued functions of complex inputs follow JAX without holomorphic.
    np.testing.assert_allclose(fg.grad(lambda z: fnp.abs(z) ** 2)(3.0 + 4.0j),
                               jax.grad(lambda z: jnp.abs(z) ** 2)(3.0 + 4.0j))


def test_allow_int_gives_float0_zeros():
    g_int, g_float = fg.grad(lambda n, x: fnp.sum(n * x), argnums=(0, 1),
                             allow_int=True)(np.array([1, 2]), np.ones(2))
    assert g_int.dtype == fg.float0 and g_int.shape == (2,)
    np.testing.assert_array_equal(g_float, [1.0, 2.0])
    with pytest.raises(TypeError, match="allow_int=True"):
        fg.grad(lambda n: n * 1.0)(1)


# ---- linearize, linear_transpose ------------------------------------------------------


def test_linearize_evaluates_once_and_matches_jvp():
    calls = []

    def f(x, y):
        calls.append(1)
        return {"a": fnp.sin(x) * y, "b": fnp.sum(x ** 3)}

    y = RNG.standard_normal(3)
    out, f_jvp = fg.linearize(f, X, y)
    dy = RNG.standard_normal(3)
    for tangents in ((T, dy), (2 * T, 0 * dy)):
        assert_tree_close(f_jvp(*tangents), fg.jvp(f, (X, y), tangents)[1])
    assert len(calls) == 1 + 2  # linearize once, then the two jvp calls above
    with pytest.raises(TypeError, match="tangent"):
        f_jvp(T, np.ones(2))


def test_linear_transpose():
    def f(x, y):
        return {"a": 2.0 * x[::-1], "b": fnp.sum(y) * np.ones(2)}

    f_t = fg.linear_transpose(f, np.zeros(3), np.zeros(2))
    ct = {"a": np.array([1.0, 2.0, 3.0]), "b": np.array([1.0, 1.0])}
    assert_tree_close(f_t(ct), (np.array([6.0, 4.0, 2.0]), np.array([2.0, 2.0])))
    with pytest.raises(ValueError, match="not linear"):
        fg.linear_transpose(lambda x: x + 1.0, 1.0)
