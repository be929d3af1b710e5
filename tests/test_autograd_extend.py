"""funcgrad.autograd.extend against autograd.extend: primitives defined the autograd way,
with defvjp/defjvp and their argnum forms, give autograd's derivatives (and forward mode
and second order on funcgrad even where autograd needs extra rules)."""
import autograd
import autograd.extend as aextend
import autograd.numpy as anp
import numpy as np
import pytest

import funcgrad
import funcgrad.autograd as fa
import funcgrad.autograd.extend as fextend
import funcgrad.autograd.numpy as fnp
from funcgrad.autograd.test_util import check_grads

rng = np.random.default_rng(1)
x3 = rng.standard_normal(3)


def define_logsumexp(extend, n):
    @extend.primitive
    def logsumexp(x, axis=None):
        top = np.max(x)
        return top + np.log(np.sum(np.exp(x - top), axis=axis))

    def logsumexp_vjp(ans, x, axis=None):
        return lambda g: n.full(x.shape, g) * n.exp(x - n.full(x.shape, ans))

    extend.defvjp(logsumexp, logsumexp_vjp)
    return logsumexp


def in_both(make):
    return make(fa, fextend, fnp), make(autograd, aextend, anp)


def test_a_primitive_with_a_vjp_matches_autograd_to_second_order():
    ours, theirs = in_both(lambda L, E, n: define_logsumexp(E, n))
    f = lambda L, lse, n: lambda x: lse(x ** 2) * n.sum(x)
    np.testing.assert_allclose(fa.grad(f(fa, ours, fnp))(x3),
                               autograd.grad(f(autograd, theirs, anp))(x3), rtol=1e-13)
    np.testing.assert_allclose(fa.hessian(f(fa, ours, fnp))(x3),
                               autograd.hessian(f(autograd, theirs, anp))(x3), rtol=1e-12)
    check_grads(f(fa, ours, fnp), modes=["fwd", "rev"], order=2)(x3)
    assert ours(x3) == theirs(x3) and ours.__name__ == "logsumexp"


def test_forward_mode_of_a_vjp_only_primitive_transposes_the_vjp():
    lse = define_logsumexp(fextend, fnp)
    ours = fa.deriv(lambda t: lse(x3 * t))(0.7)
    expected = autograd.grad(lambda t: define_logsumexp(aextend, anp)(x3 * t))(0.7)
    np.testing.assert_allclose(ours, expected, rtol=1e-12)
    with pytest.raises(NotImplementedError):  # autograd needs a JVP rule for forward mode
        autograd.deriv(lambda t: define_logsumexp(aextend, anp)(x3 * t))(0.7)


def define_scaled(extend, n, style):
    @extend.primitive
    def scaled(x, y, label):
        assert label == "fixed"
        return x * np.sin(y)

    if style == "positional":
        extend.defvjp(scaled, lambda ans, x, y, label: lambda g: g * n.sin(y),
                      lambda ans, x, y, label: lambda g: n.sum(g * x * n.cos(y)))
        extend.defjvp(scaled, "same", lambda g, ans, x, y, label: x * n.cos(y) * g)
    elif style == "argnums":
        extend.defvjp(scaled, lambda ans, x, y, label: lambda g: n.sum(g * x * n.cos(y)),
                      argnums=(1,))
        extend.defvjp(scaled, None, lambda ans, x, y, label: lambda g: n.sum(g * x * n.cos(y)))
    elif style == "argnum":
        def vjp(argnum, ans, args, kwargs):
            x, y, _ = args
            return (lambda g: g * n.sin(y)) if argnum == 0 else (
                lambda g: n.sum(g * x * n.cos(y)))

        def jvp(argnum, g, ans, args, kwargs):
            x, y, _ = args
            return g * n.sin(y) if argnum == 0 else x * n.cos(y) * g

        extend.defvjp_argnum(scaled, vjp)
        extend.defjvp_argnum(scaled, jvp)
    return scaled


@pytest.mark.parametrize("style", ["positional", "argnums", "argnum"])
def test_rule_styles_match_autograd(style):
    ours, theirs = in_both(lambda L, E, n: define_scaled(E, n, style))
    f = lambda n, s: lambda x, y: n.sum(s(x, y, "fixed") ** 2)
    for argnum in (0, 1, (0, 1)):
        got = fa.grad(f(fnp, ours), argnum)(x3, 0.4)
        want = autograd.grad(f(anp, theirs), argnum)(x3, 0.4)
        for a, b in zip(np.atleast_1d(got) if argnum != (0, 1) else got,
                        np.atleast_1d(want) if argnum != (0, 1) else want):
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15)
    if style != "argnums":
        for argnum in (0, 1):
            np.testing.assert_allclose(fa.deriv(f(fnp, ours), argnum)(x3, 0.4),
                                       autograd.deriv(f(anp, theirs), argnum)(x3, 0.4),
                                       rtol=1e-12)


def test_a_missing_rule_is_not_implemented_in_both():
    for extend, L, n in ((fextend, fa, fnp), (aextend, autograd, anp)):
        scaled = define_scaled(extend, n, "argnums")
        # A later definition replaces the earlier ones: argument 0 has no rule now.
        extend.defvjp(scaled, lambda ans, x, y, label: lambda g: n.sum(g), argnums=(1,))
        L.grad(lambda y: n.sum(scaled(x3, y, "fixed")))(0.3)
        with pytest.raises(NotImplementedError):
            L.grad(lambda x: n.sum(scaled(x, 0.3, "fixed")))(x3)


def test_def_linear_and_notrace_primitive():
    for extend, L, n in ((fextend, fa, fnp), (aextend, autograd, anp)):
        @extend.primitive
        def double(x):
            return 2 * x
        extend.defvjp(double, lambda ans, x: lambda g: 2 * g)
        extend.def_linear(double)
        assert L.deriv(lambda x: double(x) ** 2)(1.5) == 12.0

        shape_of = extend.notrace_primitive(lambda x: np.shape(x))
        assert L.grad(lambda x: n.sum(x) * shape_of(x)[0])(x3).tolist() == [3.0] * 3


def test_vspace_matches_autograds_for_arrays():
    for value in (x3, 2.5, np.ones((2, 2), complex)):
        ours, theirs = fextend.vspace(value), aextend.vspace(value)
        assert (ours.shape, ours.size, ours.ndim, ours.iscomplex) == (
            theirs.shape, theirs.size, theirs.ndim, theirs.iscomplex)
        np.testing.assert_array_equal(ours.zeros(), theirs.zeros())
        np.testing.assert_array_equal(ours.ones(), theirs.ones())
        np.testing.assert_array_equal(list(ours.standard_basis()),
                                      list(theirs.standard_basis()))
    assert fextend.vspace(x3) == fextend.vspace(2 * x3)
    assert fextend.vspace(x3) != fextend.vspace(x3.astype(np.float32))


def test_defining_a_rule_for_a_plain_function_says_to_decorate_it():
    with pytest.raises(TypeError, match="not a primitive; decorate"):
        fextend.defvjp(np.sin, lambda ans, x: lambda g: g)


def test_user_primitives_stay_out_of_funcgrads_registry():
    before = set(funcgrad.core.registry)
    define_logsumexp(fextend, fnp)
    assert set(funcgrad.core.registry) == before


def test_a_primitive_returning_a_container_is_refused_clearly():
    @fextend.primitive
    def pair(x):
        return x, 2 * x
    fextend.defvjp(pair, lambda ans, x: lambda g: g[0] + 2 * g[1])
    assert pair(1.0) == (1.0, 2.0)
    with pytest.raises(TypeError, match="primitive .*pair returned a tuple.*custom_vjp"):
        fa.grad(lambda x: pair(x)[0])(1.0)
