"""custom_jvp, and nondiff_argnums for custom_vjp and custom_jvp, against JAX."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

jax.config.update("jax_enable_x64", True)


def make_log1pexp(np_, custom_jvp):
    """log(1 + exp(x)) with a rule that stays finite for large x (the autodiff of the
    formula gives inf / inf there): the rule is used in every mode."""
    @custom_jvp
    def log1pexp(x):
        return np_.log(1.0 + np_.exp(x))

    @log1pexp.defjvp
    def log1pexp_jvp(primals, tangents):
        (x,), (dx,) = primals, tangents
        return log1pexp(x), dx * (1.0 - 1.0 / (1.0 + np_.exp(x)))

    return log1pexp


def make_product(np_, custom_jvp):
    """f(x, y) = sin(x) * y with pytree output and one rule per argument (defjvps)."""
    @custom_jvp
    def f(x, y):
        return {"p": np_.sin(x) * y, "s": np_.sum(y)}

    f.defjvps(lambda dx, ans, x, y: {"p": np_.cos(x) * dx * y, "s": np_.zeros(())},
              lambda dy, ans, x, y: {"p": np_.sin(x) * dy, "s": np_.sum(dy)})
    return f


X = np.array([0.3, -1.2, 2.0])
Y = np.array([1.5, 0.5, -2.0])


def assert_close(ours, theirs, rtol=1e-12):
    jax.tree_util.tree_map(lambda a, b: np.testing.assert_allclose(a, b, rtol=rtol, atol=1e-14),
                           ours, jax.tree_util.tree_map(np.asarray, theirs))


def test_custom_jvp_in_every_mode_matches_jax():
    ours, theirs = make_log1pexp(fnp, fg.custom_jvp), make_log1pexp(jnp, jax.custom_jvp)
    loss_ours = lambda x: fnp.sum(ours(x) ** 2)  # noqa: E731
    loss_theirs = lambda x: jnp.sum(theirs(x) ** 2)  # noqa: E731
    assert_close(ours(X), theirs(X))
    assert_close(fg.grad(loss_ours)(X), jax.grad(loss_theirs)(X))
    assert_close(fg.jvp(ours, (X,), (Y,)), jax.jvp(theirs, (X,), (Y,)))
    assert_close(fg.jacrev(ours)(X), jax.jacrev(theirs)(X))
    assert_close(fg.jacfwd(ours)(X), jax.jacfwd(theirs)(X))
    assert_close(fg.hessian(loss_ours)(X), jax.hessian(loss_theirs)(X), rtol=1e-10)
    assert_close(fg.grad(fg.grad(lambda x: ours(x)))(0.7),
                 jax.grad(jax.grad(lambda x: theirs(x)))(0.7), rtol=1e-10)


def test_the_rule_is_used_in_reverse_mode():
    # At x = 800, exp(x) overflows: autodiff of the formula gives nan; the rule gives 1.
    log1pexp = make_log1pexp(fnp, fg.custom_jvp)
    with np.errstate(over="ignore"):
        assert fg.grad(log1pexp)(800.0) == 1.0
        assert fg.jvp(log1pexp, (800.0,), (1.0,))[1] == 1.0


def test_defjvps_with_pytree_outputs_matches_jax():
    ours, theirs = make_product(fnp, fg.custom_jvp), make_product(jnp, jax.custom_jvp)
    assert_close(fg.jvp(ours, (X, Y), (Y, X)), jax.jvp(theirs, (X, Y), (Y, X)))
    loss = lambda np_, f: lambda x, y: np_.sum(f(x, y)["p"] ** 2) + f(x, y)["s"]  # noqa: E731
    assert_close(fg.grad(loss(fnp, ours), argnums=(0, 1))(X, Y),
                 jax.grad(loss(jnp, theirs), argnums=(0, 1))(X, Y))
    assert_close(fg.hessian(loss(fnp, ours), argnums=(0, 1))(X, Y),
                 jax.hessian(loss(jnp, theirs), argnums=(0, 1))(X, Y), rtol=1e-10)


def make_apply(np_, custom_vjp, custom_jvp):
    """Functions taking a function as their first, non-differentiated argument."""
    @functools.partial(custom_vjp, nondiff_argnums=(0,))
    def apply_vjp(f, x, scale):
        return f(x) * scale

    apply_vjp.defvjp(lambda f, x, scale: (apply_vjp(f, x, scale), (x, scale)),
                     lambda f, res, g: (g * 2.0 * res[1], np_.sum(g * f(res[0]))))

    @functools.partial(custom_jvp, nondiff_argnums=(0,))
    def apply_jvp(f, x, scale):
        return f(x) * scale

    @apply_jvp.defjvp
    def apply_jvp_rule(f, primals, tangents):
        (x, scale), (dx, dscale) = primals, tangents
        return apply_jvp(f, x, scale), dx * 2.0 * scale + f(x) * dscale

    return apply_vjp, apply_jvp


def test_nondiff_argnums_match_jax():
    # The rules claim f' = 2 (not f's true derivative), so using them is visible.
    ours = make_apply(fnp, fg.custom_vjp, fg.custom_jvp)
    theirs = make_apply(jnp, jax.custom_vjp, jax.custom_jvp)
    square = lambda x: x * x  # noqa: E731
    for our_f, their_f in zip(ours, theirs):
        loss_ours = lambda x, s: fnp.sum(our_f(square, x, s))  # noqa: E731,B023
        loss_theirs = lambda x, s: jnp.sum(their_f(square, x, s))  # noqa: E731,B023
        assert_close(fg.grad(loss_ours, argnums=(0, 1))(X, 3.0),
                     jax.grad(loss_theirs, argnums=(0, 1))(X, 3.0))
    assert_close(fg.jvp(lambda x: ours[1](square, x, 3.0), (X,), (Y,)),
                 jax.jvp(lambda x: theirs[1](square, x, 3.0), (X,), (Y,)))


def test_keyword_arguments_are_bound_to_their_positions():
    @fg.custom_jvp
    def f(x, y):
        return x * y

    f.defjvp(lambda p, t: (f(*p), t[0] * p[1] + p[0] * t[1]))
    assert fg.grad(lambda x: f(x, y=3.0))(2.0) == 3.0
    assert fg.grad(lambda y: f(y=y, x=2.0))(5.0) == 2.0


@pytest.mark.parametrize("rule, message", [
    (lambda p, t: p[0] * 2.0, r"must return a pair \(output, output tangent\), but it "
                              r"returned a float64"),
    (lambda p, t: (p[0], t[0], t[0]), "returned a tuple of 3"),
    (lambda p, t: (p[0], (t[0],)), "output of structure .* but a tangent of structure"),
    (lambda p, t: (p[0], np.ones(4)), r"tangent of shape \(4,\) .* output 0, which has shape"),
    (lambda p, t: (p[0] + t[0], t[0]), "depends on the tangents"),
])
def test_wrong_jvp_rules_are_reported(rule, message):
    @fg.custom_jvp
    def f(x):
        return x

    f.defjvp(rule)
    transforms = [lambda: fg.jvp(f, (np.float64(1.0),), (np.float64(1.0),)),
                  lambda: fg.grad(f)(np.float64(1.0))]
    if message == "depends on the tangents":
        transforms = transforms[1:]  # forward mode cannot tell
    for transform in transforms:
        with pytest.raises(TypeError, match=message):
            transform()


def test_fwd_that_does_not_return_a_pair_is_reported():
    @fg.custom_vjp
    def f(x):
        return x * 2.0

    f.defvjp(lambda x: x * 2.0, lambda res, g: (g * 2.0,))
    with pytest.raises(TypeError, match=r"fwd of f must return a pair \(output, residuals\), "
                                        r"but it returned a float"):
        fg.grad(f)(1.0)


def make_scale(np_, custom_jvp):
    @functools.partial(custom_jvp, nondiff_argnums=(1,))
    def f(x, n):
        return np_.sin(x) * n

    f.defjvp(lambda n, p, t: (f(p[0], n), 2.0 * t[0] * n))
    return f


def test_traced_values_in_custom_jvp_nondiff_argnums_are_constants_as_in_jax():
    ours, theirs = make_scale(fnp, fg.custom_jvp), make_scale(jnp, jax.custom_jvp)
    assert_close(fg.grad(ours, argnums=(0, 1))(2.0, 3.0),
                 jax.grad(theirs, argnums=(0, 1))(2.0, 3.0))
    assert_close(fg.jvp(ours, (2.0, 3.0), (1.0, 1.0)),
                 jax.jvp(theirs, (2.0, 3.0), (1.0, 1.0)))
    assert_close(fg.jit(ours)(X, Y), jax.jit(theirs)(X, Y))


def test_traced_values_in_custom_vjp_nondiff_argnums_are_refused_as_in_jax():
    @functools.partial(fg.custom_vjp, nondiff_argnums=(1,))
    def f(x, n):
        return x * n

    f.defvjp(lambda x, n: (f(x, n), None), lambda n, res, g: (g * n,))
    assert fg.grad(lambda x: f(x, 3.0))(2.0) == 3.0
    with pytest.raises(TypeError, match="argument 1 of f is in nondiff_argnums but holds a "
                                        "value traced"):
        fg.grad(lambda n: f(2.0, n))(3.0)
    theirs = functools.partial(jax.custom_vjp, nondiff_argnums=(1,))(lambda x, n: x * n)
    theirs.defvjp(lambda x, n: (theirs(x, n), None), lambda n, res, g: (g * n,))
    with pytest.raises(jax.errors.UnexpectedTracerError):
        jax.grad(lambda n: theirs(2.0, n))(3.0)


def test_custom_jvp_without_a_rule_says_so():
    @fg.custom_jvp
    def f(x):
        return x

    with pytest.raises(TypeError, match=r"has no rule yet; call f\.defjvp\(jvp\)"):
        f(1.0)
