"""funcgrad.autograd.misc (flatten, optimizers, fixed_point) and test_util against
autograd 1.9.1."""
import autograd
import autograd.misc.fixed_points as afixed
from autograd.misc.flatten import flatten as aflatten, flatten_func as aflatten_func
import autograd.misc.optimizers as aoptimizers
import autograd.numpy as anp
import autograd.test_util as atest_util
import numpy as np
import pytest

import funcgrad.autograd as fa
import funcgrad.autograd.misc.fixed_points as ffixed
from funcgrad.autograd.misc.flatten import flatten as fflatten, flatten_func as fflatten_func
import funcgrad.autograd.misc.optimizers as foptimizers
import funcgrad.autograd.numpy as fnp
import funcgrad.autograd.test_util as ftest_util
from funcgrad.autograd.misc import flatten
from funcgrad.tree_util import tree_flatten

rng = np.random.default_rng(2)
PARAMS = {"w": [rng.standard_normal((2, 3)), rng.standard_normal(3)], "b": 0.5,
          "a": (rng.standard_normal(2), np.array(1.5))}


def assert_same(ours, theirs, rtol=1e-12):
    ours_leaves, ours_tree = tree_flatten(ours)
    theirs_leaves, theirs_tree = tree_flatten(theirs)
    assert ours_tree == theirs_tree
    for a, b in zip(ours_leaves, theirs_leaves):
        np.testing.assert_allclose(a, b, rtol=rtol, atol=1e-15)


# ---- flatten ----------------------------------------------------------------------------------


def test_flatten_orders_and_rebuilds_like_autograd():
    assert flatten is fflatten  # misc.flatten is the function, as in autograd
    ours, unflatten = fflatten(PARAMS)
    theirs, their_unflatten = aflatten(PARAMS)
    np.testing.assert_array_equal(ours, theirs)
    assert_same(unflatten(ours * 2), their_unflatten(theirs * 2))


def test_flatten_func_like_autograd():
    func = lambda n: lambda p, scale: {"s": n.sin(p["w"][0]) * scale, "t": p["b"] ** 2}
    ours = fflatten_func(func(fnp), PARAMS)
    theirs = aflatten_func(func(anp), PARAMS)
    np.testing.assert_array_equal(ours[2], theirs[2])
    np.testing.assert_allclose(ours[0](ours[2], 3.0), theirs[0](theirs[2], 3.0), rtol=1e-15)
    assert_same(ours[1](ours[2]), theirs[1](theirs[2]))


def test_gradient_through_flatten():
    f = lambda n, flat_fn: lambda p: n.sum(n.sin(flat_fn(p)[0]) ** 2)
    assert_same(fa.grad(f(fnp, fflatten))(PARAMS),
                autograd.grad(f(anp, aflatten))(PARAMS))


# ---- optimizers -------------------------------------------------------------------------------


def objective(n, p, i):
    w0, w1 = p["w"]
    return (n.sum(n.sin(w0) * w0 ** 2) + n.sum((w1 - 0.3 * i) ** 2) + p["b"] ** 4
            + n.sum(n.cos(p["a"][0])) + p["a"][1] ** 2)


@pytest.mark.parametrize("name, kwargs", [
    ("sgd", {}), ("sgd", {"num_iters": 30, "step_size": 0.05, "mass": 0.5}),
    ("rmsprop", {}), ("rmsprop", {"num_iters": 20, "gamma": 0.5, "eps": 1e-4}),
    ("adam", {}), ("adam", {"num_iters": 40, "step_size": 0.1, "b1": 0.5, "b2": 0.9}),
])
def test_optimizer_trajectories_and_callbacks_match_autograd(name, kwargs):
    logs = {"ours": [], "theirs": []}

    def run(L, n, optimizers, log):
        def callback(x, i, g):
            log.append((x, i, g))
        grad = L.grad(lambda p, i: objective(n, p, i))
        return getattr(optimizers, name)(grad, PARAMS, callback=callback, **kwargs)

    ours = run(fa, fnp, foptimizers, logs["ours"])
    theirs = run(autograd, anp, aoptimizers, logs["theirs"])
    assert_same(ours, theirs, rtol=1e-10)
    assert len(logs["ours"]) == len(logs["theirs"]) == kwargs.get(
        "num_iters", 200 if name == "sgd" else 100)
    for (x, i, g), (y, j, h) in zip(logs["ours"], logs["theirs"]):
        assert i == j
        assert_same(x, y, rtol=1e-10)
        assert_same(g, h, rtol=1e-10)


def test_optimizers_accept_a_bare_array_and_no_callback():
    x0 = rng.standard_normal(4)
    for name in ("sgd", "rmsprop", "adam"):
        grad = lambda n: lambda x, i: n.sin(x) + x
        ours = getattr(foptimizers, name)(grad(fnp), x0, num_iters=15)
        theirs = getattr(aoptimizers, name)(grad(anp), x0, num_iters=15)
        np.testing.assert_allclose(ours, theirs, rtol=1e-12)


def test_a_whole_optimization_run_can_be_differentiated():
    def final_loss(n, L, optimizers, step_size):
        grad = L.grad(lambda x, i: n.sum(n.sin(x) * x ** 2))
        x = optimizers.adam(grad, np.array([1.0, -0.5, 2.0]), num_iters=8, step_size=step_size)
        return n.sum(n.sin(x) * x ** 2)

    ours = fa.grad(lambda s: final_loss(fnp, fa, foptimizers, s))(0.05)
    theirs = autograd.grad(lambda s: final_loss(anp, autograd, aoptimizers, s))(0.05)
    np.testing.assert_allclose(ours, theirs, rtol=1e-9)


# ---- fixed_point ------------------------------------------------------------------------------


def newton_sqrt(a):
    return lambda x: 0.5 * (x + a / x)


def damped_sqrt(a):
    return lambda x: x - 0.05 * (x ** 2 - a)


@pytest.mark.parametrize("iteration", [newton_sqrt, damped_sqrt])
def test_fixed_point_values_and_derivatives_match_autograd(iteration):
    def sqrt(module, n):
        return lambda a: module.fixed_point(iteration, a, 10.0, lambda x, y: n.abs(x - y), 1e-6)

    ours, theirs = sqrt(ffixed, fnp), sqrt(afixed, anp)
    assert ours(2.0) == theirs(2.0)
    np.testing.assert_allclose(fa.grad(ours)(2.0), autograd.grad(theirs)(2.0), rtol=1e-13)
    np.testing.assert_allclose(fa.grad(fa.grad(ours))(2.0),
                               autograd.grad(autograd.grad(theirs))(2.0), rtol=1e-12)
    np.testing.assert_allclose(fa.grad(ours)(2.0), 0.5 / np.sqrt(2.0), rtol=1e-5)


def test_fixed_point_over_arrays_and_tuples():
    def solve(module, n):
        def step(params):
            A, b = params
            return lambda x: 0.5 * (n.dot(A, x) + b)
        dist = lambda x, y: n.sqrt(n.sum((x - y) ** 2))
        return lambda A, b: n.sum(module.fixed_point(step, (A, b), n.zeros(3), dist, 1e-10) ** 2)

    A = 0.3 * rng.standard_normal((3, 3))
    b = rng.standard_normal(3)
    for argnum in (0, 1):
        np.testing.assert_allclose(fa.grad(solve(ffixed, fnp), argnum)(A, b),
                                   autograd.grad(solve(afixed, anp), argnum)(A, b), rtol=1e-8)


# ---- test_util --------------------------------------------------------------------------------


def test_check_grads_passes_and_fails_where_autograds_does():
    good = lambda n: lambda x, y: n.sin(x) * y ** 2
    for check, n in ((ftest_util.check_grads, fnp), (atest_util.check_grads, anp)):
        check(good(n))(rng.standard_normal(3), 0.7)
        check(good(n), argnum=1, modes=["rev"], order=1)(rng.standard_normal(3), 0.7)
        check(good(n), (0, 1))(rng.standard_normal(3), 0.7)

    for extend, check, n in ((fa.extend, ftest_util.check_grads, fnp),
                             (autograd.extend, atest_util.check_grads, anp)):
        @extend.primitive
        def wrong_square(x):
            return x ** 2
        extend.defvjp(wrong_square, lambda ans, x: lambda g: g * 3 * x)
        with pytest.raises(AssertionError):
            check(wrong_square, modes=["rev"], order=1)(rng.standard_normal(3))


@pytest.mark.parametrize("name", ["check_vjp", "check_jvp"])
def test_one_mode_checks_pass_and_fail_where_autograds_do(name):
    for extend, test_util, n in ((fa.extend, ftest_util, fnp), (autograd.extend, atest_util, anp)):
        getattr(test_util, name)(lambda x: n.sin(x) * x ** 2, np.linspace(0.1, 0.9, 4))

        @extend.primitive
        def wrong_square(x):
            return x ** 2
        extend.defvjp(wrong_square, lambda ans, x: lambda g: g * 3 * x)
        extend.defjvp(wrong_square, lambda g, ans, x: g * 3 * x)
        with pytest.raises(AssertionError):
            getattr(test_util, name)(wrong_square, np.linspace(0.1, 0.9, 4))


X4 = np.random.default_rng(7).standard_normal(4)  # its own generator: rng draws as before


@pytest.mark.parametrize("x, y, equivalent", [
    (X4, X4 + 1e-9, True),                               # within the tolerance
    ((X4, {"a": 2.5}), (X4 * (1 + 1e-8), {"a": 2.5}), True),
    (1e7 * X4, 1e7 * X4 + 1e-3, True),                   # relatively close
    (X4, X4 + 1e-3, False),
    (X4, X4[::-1], False),
    (X4, X4[:3], False),                                  # shapes
    (X4, X4.astype(np.float32), False),                   # dtypes
    ((X4, X4), [X4, X4], False),                          # structures
    (X4 + 1j * X4, X4 + 1j * (X4 + 1e-2), False),         # complex
], ids=["close", "pytree", "relative", "far", "permuted", "shape", "dtype", "structure",
        "complex"])
def test_check_equivalent_passes_and_fails_where_autograds_does(x, y, equivalent):
    for check in (ftest_util.check_equivalent, atest_util.check_equivalent):
        if equivalent:
            check(x, y)
        else:
            with pytest.raises(AssertionError):
                check(x, y)


def test_check_equivalent_says_what_differs():
    with pytest.raises(AssertionError, match=r"leaf 1 of the values differs \(by up to 0.5\)"):
        ftest_util.check_equivalent((X4, 1.0), (X4, 1.5))
    with pytest.raises(AssertionError, match="different vector spaces"):
        ftest_util.check_equivalent(X4, X4[:3])


@pytest.mark.parametrize("gap", [2e-5, 1e-3])
def test_check_grads_steps_as_small_as_autograds(gap):
    """Values `gap` apart around a kink (sort's order, min's choice): autograd's steps of
    5e-7 stay on one side of it and its check passes; so must ours (JAX's step of 1e-4,
    funcgrad.test_util's default, crossed the 2e-5 gap of autograd's own test_sort)."""
    x = np.array([0.5, -0.2341, -0.2341 + gap, 1.5, 0.1])
    for check, n in ((ftest_util.check_grads, fnp), (atest_util.check_grads, anp)):
        check(n.sort)(x)
        check(n.min)(x)
        check(lambda v: n.partition(v, 2))(x)


def test_combo_check_runs_every_combination():
    seen = []

    def f(x, y, power=2):
        seen.append(power)
        return fnp.sin(x) * y ** power

    ftest_util.combo_check(f, (0, 1), modes=["rev"], order=1)(
        [rng.standard_normal(2)], [0.5, 1.5], power=[1, 3])
    assert set(seen) == {1, 3}
    with pytest.raises(AssertionError):
        ftest_util.combo_check(lambda x: fa.extend.notrace_primitive(fnp.sin)(x) + x,
                               modes=["rev"], order=1)([rng.standard_normal(2)])
