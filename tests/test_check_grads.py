"""funcgrad.test_util.check_grads: it passes on correct rules, names the culprit on wrong
ones, and every primitive (one oracle case each) passes it to order 2."""
import importlib
import pkgutil

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import funcgrad as fg
import funcgrad.numpy as fnp
import oracle_cases
from funcgrad.core import ArgVJP, Primitive, defjvp, defvjp, unbox_all
from funcgrad.test_util import check_grads
from oracle import EXPECTED_WARNINGS

pytestmark = EXPECTED_WARNINGS  # for the test that runs every oracle case


def test_passes_on_correct_functions_of_every_kind():
    params = {"w": np.array([[0.3, -1.2], [0.5, 0.8]]), "b": np.array([0.1, -0.2])}
    check_grads(lambda p, x: {"y": fnp.tanh(x @ p["w"] + p["b"]), "n": fnp.sum(x > 0)},
                (params, np.array([1.0, 2.0])), order=3)
    check_grads(lambda z: fnp.exp(z * 1j) * fnp.conj(z), (np.array([0.3 + 1j, -1.0j]),),
                order=2)
    check_grads(lambda x, n: fnp.sin(x) ** n, (np.float32(0.7), 3), order=2)


def _sin_times(name, vjp_scale=1.0, jvp_scale=None, raw_second_order=False):
    """sin(x) * y as a primitive with (possibly wrong) rules."""
    prim = Primitive(name, lambda x, y: np.sin(x) * y, register=False)

    def pull_x(g, x, y):
        if raw_second_order:  # right value, but cos(x) is a constant to outer transforms
            return g * np.cos(unbox_all(x)) * y
        return g * fnp.cos(x) * y * vjp_scale

    defvjp(prim, ArgVJP(lambda ans, x, y: (x, y), pull_x),
           ArgVJP(lambda ans, x, y: (x,), lambda g, x: g * fnp.sin(x)))
    if jvp_scale is not None:
        defjvp(prim, lambda t, ans, x, y: t * fnp.cos(x) * y * jvp_scale)
    return prim


ARGS = (np.array([0.3, 1.0]), np.array([2.0, -1.0]))


def test_names_the_mode_order_and_argument():
    wrong_jvp = _sin_times("wrong_jvp", jvp_scale=1.01)
    check_grads(wrong_jvp, ARGS, order=1, modes=("rev",))
    with pytest.raises(AssertionError, match=r"forward-mode check of order 1 \(jvp of f\) "
                                             r"disagrees .* argument args\[0\], output leaf 0: "
                                             r"max abs error"):
        check_grads(wrong_jvp, ARGS, order=1)

    wrong_vjp = _sin_times("wrong_vjp", vjp_scale=1.01)
    with pytest.raises(AssertionError, match=r"reverse-mode check of order 1 \(vjp of f\) "
                                             r"disagrees .* argument args\[0\]: <vjp"):
        check_grads(wrong_vjp, ARGS, order=1, modes=("rev",))

    wrong_second = _sin_times("wrong_second", raw_second_order=True)
    check_grads(wrong_second, ARGS, order=1)
    with pytest.raises(AssertionError, match=r"order 2 \(\w+ of vjp of f\).*args\[0\]"):
        check_grads(wrong_second, ARGS, order=2, modes=("rev",))


def test_second_order_checks_a_vjp_in_its_cotangent():
    """A VJP computed by another primitive whose own VJP is 0.1% off (its value is right):
    in reverse mode only the derivative of the VJP in its cotangent reads that rule
    (autograd's check_grads and JAX's check it; ours did not while the order-2 cotangent
    was a constant)."""
    inner = Primitive("scaled_copy", lambda g: g, register=False)
    defvjp(inner, ArgVJP(lambda ans, g: (), lambda h: h * 1.001))
    double = Primitive("double", lambda x: 2.0 * x, register=False)
    defvjp(double, ArgVJP(lambda ans, x: (), lambda g: inner(g) * 2.0))
    check_grads(double, (np.array([0.3, -1.2]),), order=1, modes=("rev",))
    with pytest.raises(AssertionError, match=r"order 2 \(vjp of vjp of f\)"):
        check_grads(double, (np.array([0.3, -1.2]),), order=2, modes=("rev",))


def test_rejects_bad_arguments():
    with pytest.raises(ValueError, match="modes"):
        check_grads(fnp.sin, (1.0,), order=1, modes=("backward",))
    with pytest.raises(ValueError, match="order"):
        check_grads(fnp.sin, (1.0,), order=0)
    with pytest.raises(TypeError, match="tuple"):
        check_grads(fnp.sin, 1.0, order=1)


# ---- every primitive, through one oracle case each -----------------------------------


def _cases():
    cases = []
    for module in pkgutil.iter_modules(oracle_cases.__path__):
        cases.extend(importlib.import_module(f"oracle_cases.{module.name}").CASES)
    return [case for case in cases if case.differentiable and case.name not in _NOWHERE_FINITE]


# Cases whose function is infinite or NaN at every point their strategy draws (they check
# that derivatives there match JAX's); finite differences have nothing to measure.
_NOWHERE_FINITE = {"var_ddof_too_large"}


def _away_from_kinks(args, diff, fun, rng):
    """The arguments in ``diff`` moved off ties, zeros and integers, where finite differences
    straddle a kink (abs, maximum, sort, floor...), in double precision; None if ``fun`` is
    not finite at either point tried (then Hypothesis draws other arguments).

    Every element gets its own random factor 1 -+ (0.5% to 2%), all distinct (so ties
    split by much more than a finite-difference step); values shrink towards zero, or grow
    if shrinking leaves ``fun``'s domain. Zeros become distinct small positive values.
    """
    sizes = [np.size(args[i]) for i in diff]
    count = sum(sizes)
    offsets = 0.005 + 0.015 * (rng.permutation(count) + rng.uniform(0.2, 0.8, count)) / count
    for sign in (-1.0, 1.0):
        moved, start = list(args), 0
        for i, size in zip(diff, sizes):
            x = np.asarray(args[i])
            x = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
            offset = offsets[start:start + size].reshape(x.shape)
            moved[i] = np.where(x == 0, 20 * offset, x * (1 + sign * offset))
            start += size
        values = fg.tree_util.tree_leaves(fun(*moved))
        if all(np.all(np.isfinite(v)) for v in values if np.result_type(v).kind in "fc"):
            return moved
    return None


@pytest.mark.parametrize("case", _cases(), ids=lambda case: case.name)
@settings(max_examples=1, database=None)
@given(data=st.data())
def test_every_oracle_case_to_second_order(case, data):
    args, static = data.draw(case.args, label="args")
    diff = case.diff if case.diff is not None else tuple(
        i for i, a in enumerate(args) if np.result_type(a).kind in "fc")
    if not diff:
        return
    args = _away_from_kinks(args, diff, lambda *a: case.fun(fnp, *a, **static),
                            np.random.default_rng(0))
    assume(args is not None)

    def partial(*diff_args):
        full = list(args)
        for i, a in zip(diff, diff_args):
            full[i] = a
        return case.fun(fnp, *full, **static)

    check_grads(partial, tuple(args[i] for i in diff), order=1 if case.name in FIRST_ORDER else 2,
                **SETTINGS.get(case.name, dict(eps=1e-6, atol=1e-5, rtol=1e-5)))


# Cases differentiable once only: their second derivative in a shape parameter raises a
# NotImplementedError that names it (the regularized incomplete gamma function's, in `a`).
FIRST_ORDER = {"special.gammainc", "special.gammaincc", "stats.gamma.cdf", "stats.gamma.sf",
               "stats.gamma.logcdf", "stats.gamma.logsf", "stats.chi2.cdf", "stats.chi2.sf",
               "stats.chi2.logcdf", "stats.chi2.logsf"}


# Cases that round through float32 inside need steps well above float32's resolution
# (but below the 0.5% that values were moved off masks' edges).
_FLOAT32_INSIDE = dict(eps=2e-4, atol=1e-3, rtol=1e-3)
SETTINGS = {"astype": _FLOAT32_INSIDE, "dtype_where_initial": _FLOAT32_INSIDE}
