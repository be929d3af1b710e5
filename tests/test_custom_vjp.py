"""custom_vjp: user-supplied derivatives, JAX-style, with checked backward outputs."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

jax.config.update("jax_enable_x64", True)


def make_clipped_log(np_, custom_vjp):
    """log1p(exp(x)) whose gradient is computed stably (sigmoid) by the custom rule."""
    @custom_vjp
    def softplus(x):
        return np_.log(1.0 + np_.exp(x))

    def fwd(x):
        return softplus(x), x

    def bwd(x, g):
        return (g / (1.0 + np_.exp(-x)),)

    softplus.defvjp(fwd, bwd)
    return softplus


def test_custom_rule_is_used_and_matches_jax_to_third_order():
    ours = make_clipped_log(fnp, fg.custom_vjp)
    theirs = make_clipped_log(jnp, jax.custom_vjp)
    for x in (-3.0, 0.5, 2.0):
        np.testing.assert_allclose(fg.grad(ours)(x), jax.grad(theirs)(x), rtol=1e-12)
        np.testing.assert_allclose(fg.grad(fg.grad(ours))(x), jax.grad(jax.grad(theirs))(x),
                                   rtol=1e-10)
        np.testing.assert_allclose(fg.grad(fg.grad(fg.grad(ours)))(x),
                                   jax.grad(jax.grad(jax.grad(theirs)))(x), rtol=1e-9)


def test_the_rule_overrides_the_traced_derivative():
    @fg.custom_vjp
    def straight_through(x):
        return fnp.sign(x)

    straight_through.defvjp(lambda x: (straight_through(x), None), lambda _, g: (g,))
    np.testing.assert_array_equal(
        fg.grad(lambda x: fnp.sum(straight_through(x) * 3.0))(np.array([-1.0, 2.0])), [3, 3])


def test_pytree_arguments_outputs_and_none_cotangents():
    @fg.custom_vjp
    def f(params, scale):
        return {"a": params["w"] * scale, "b": fnp.sum(params["w"])}

    def fwd(params, scale):
        return f(params, scale), (params["w"], scale)

    def bwd(res, g):
        w, scale = res
        return {"w": g["a"] * scale + g["b"]}, None

    f.defvjp(fwd, bwd)
    w = np.arange(3.0)
    g = fg.grad(lambda w: fnp.sum(f({"w": w}, 2.0)["a"]) + f({"w": w}, 2.0)["b"])(w)
    np.testing.assert_array_equal(g, [3.0, 3.0, 3.0])
    # Only one output used: the other output's cotangent reaches bwd as zeros.
    np.testing.assert_array_equal(fg.grad(lambda w: f({"w": w}, 2.0)["b"])(w), [1, 1, 1])


def _with_bwd(bwd):
    @fg.custom_vjp
    def f(x, y):
        return x * y

    f.defvjp(lambda x, y: (f(x, y), (x, y)), bwd)
    return f


@pytest.mark.parametrize("bwd, error, message", [
    (lambda res, g: g, TypeError, "must return a tuple"),
    (lambda res, g: (g,), TypeError, "returned 1 cotangents, but f takes 2"),
    (lambda res, g: (g, [g]), TypeError, "argument 1 with structure"),
    (lambda res, g: (g, np.ones(3)), ValueError, r"shape \(3,\).*argument 1.*shape \(2,\)"),
    (lambda res, g: (g.astype(np.float32), g), ValueError, "dtype float32 for argument 0"),
])
def test_wrong_backward_outputs_are_reported(bwd, error, message):
    f = _with_bwd(bwd)
    with pytest.raises(error, match=message):
        fg.grad(lambda x, y: fnp.sum(f(x, y)), argnums=(0, 1))(np.ones(2), np.ones(2))


def test_calling_before_defvjp():
    @fg.custom_vjp
    def f(x):
        return x

    with pytest.raises(TypeError, match="defvjp"):
        f(1.0)


def test_untraced_call_runs_the_function():
    f = _with_bwd(lambda res, g: (g, g))
    assert f(2.0, 3.0) == 6.0
