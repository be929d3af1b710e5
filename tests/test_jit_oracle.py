"""jit against eager funcgrad and JAX, on a sample of every primitive family.

For each sampled oracle case (tests/oracle_cases), with Hypothesis drawing arguments:
``jit(f)``, ``jit(grad(f))`` and ``grad(jit(f))`` of the cotangent-weighted sum equal eager
funcgrad bit for bit (the traced call, an interpreted replay and a compiled one), and JAX within the oracle's
tolerances. The default run samples three cases per family; `-m slow` checks every case.
"""
import collections
import functools
import importlib
import pkgutil
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import funcgrad as fg
import funcgrad.numpy as fnp
import oracle_cases
from funcgrad.transforms.jit import JitRecompileWarning
from funcgrad.tree_util import tree_flatten
from jit_tiers import TIERS, tier
from oracle import (_draw_cotangent, _float0_for_missing, _jax_oracle, _least_precise,
                    assert_close, bind)


def _families():
    return {module.name: importlib.import_module(f"oracle_cases.{module.name}").CASES
            for module in pkgutil.iter_modules(oracle_cases.__path__)}


def _sample(cases, count=3):
    """`count` cases spread over a family's list."""
    step = max(1, len(cases) // count)
    return cases[::step][:count]


FAMILIES = _families()
SAMPLE = [case for cases in FAMILIES.values() for case in _sample(cases)]
EVERY_CASE = [case for cases in FAMILIES.values() for case in cases]


def _assert_same_bits(ours, expected, what):
    ours, expected = tree_flatten(ours)[0], tree_flatten(expected)[0]
    assert len(ours) == len(expected), what
    for a, b in zip(ours, expected):
        a, b = np.asarray(a), np.asarray(b)
        assert (a.dtype, a.shape) == (b.dtype, b.shape), what
        # Bit for bit, except that a NaN's sign and payload may differ (NumPy's depend on
        # the order of a binary operation's operands).
        a_nan, b_nan = _nan_mask(a), _nan_mask(b)
        assert np.array_equal(a_nan, b_nan), f"{what}: NaN where eager has none, or back"
        assert np.where(a_nan, 0, a).tobytes() == np.where(b_nan, 0, b).tobytes(), (
            f"{what}: jit's result differs from eager's")


def _nan_mask(a):
    return np.isnan(a) if a.dtype.kind in "fc" else np.zeros(a.shape, bool)


def _hashable(value):
    try:
        hash(value)
    except TypeError:
        return False
    return True


Call = collections.namedtuple("Call", "tier result")


def _calls(call):
    """`call`'s results: traced, then replayed by each of jit's tiers."""
    yield Call("traced", call())
    for name in TIERS:
        with tier(name):
            yield Call(name, call())


def check_jit_case(case, data):
    args, static = data.draw(case.args, label="args")
    # Hashable options are static arguments; others (index tuples holding arrays) are
    # closed over, as constants of the program.
    closed = {name: value for name, value in static.items() if not _hashable(value)}
    static = {name: value for name, value in static.items() if name not in closed}
    fun = functools.partial(case.funcgrad_fun(), **closed)
    names = tuple(static)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        # A case whose values keep changing a guard (a sort's permutation) may reach the
        # cache limit: it then runs eagerly, which is what is being checked. The cases'
        # edge values (empty slices, zeros) warn as they do in test_oracle.py.
        warnings.simplefilter("ignore", JitRecompileWarning)
        warnings.simplefilter("ignore", RuntimeWarning)
        jitted = fg.jit(fun, static_argnames=names)
        value = fun(*args, **static)
        for attempt in _calls(lambda: jitted(*args, **static)):
            jit_value = attempt.result
            _assert_same_bits(jit_value, value, f"{case.name}: jit, {attempt.tier}")
        if not case.differentiable:
            return
        diff = case.diff if case.diff is not None else tuple(
            i for i, a in enumerate(args) if np.result_type(a).kind in "fc")
        ct = _draw_cotangent(data, value)
        ct_leaves = tree_flatten(ct, is_leaf=lambda x: x is None)[0]
        if not diff or all(c is None for c in ct_leaves):
            return

        def weighted(*diff_args, fun=fun):
            total = 0.0
            for leaf, c in zip(tree_flatten(bind(fun, args, static, diff)(*diff_args))[0],
                               ct_leaves):
                if c is not None:
                    total = total + fnp.sum(fnp.real(leaf * c))
            return total

        diff_args = tuple(args[i] for i in diff)
        argnums = tuple(range(len(diff)))
        expected = fg.grad(weighted, argnums=argnums)(*diff_args)
        jit_grad = fg.jit(fg.grad(weighted, argnums=argnums))
        for attempt in _calls(lambda: jit_grad(*diff_args)):
            jit_cts = attempt.result
            _assert_same_bits(jit_cts, expected, f"{case.name}: jit(grad), {attempt.tier}")
        grad_jit = fg.grad(fg.jit(weighted), argnums=argnums)
        _assert_same_bits(grad_jit(*diff_args), expected, f"{case.name}: grad(jit)")
    jax_value, jax_cts, _, _ = _jax_oracle(case, {**static, **closed}, diff, 1)(
        args, _float0_for_missing(ct, value), tuple(diff_args), None)
    precision = _least_precise(args)
    assert_close(case, jit_value, jax_value, "jit value", precision)
    assert_close(case, jit_cts, jax_cts, "jit(grad)", precision)


@pytest.mark.parametrize("case", SAMPLE, ids=lambda case: case.name)
@settings(max_examples=4)
@given(data=st.data())
def test_jit_matches_eager_and_jax(case, data):
    check_jit_case(case, data)


@pytest.mark.slow
@pytest.mark.parametrize("case", EVERY_CASE, ids=lambda case: case.name)
@given(data=st.data())
def test_jit_matches_eager_and_jax_every_case(case, data):
    check_jit_case(case, data)
