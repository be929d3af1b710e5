"""Every primitive, checked against JAX (values, vjp, grad, value_and_grad, dtypes)."""
import contextlib
import importlib
import pkgutil

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import funcgrad as fg
import funcgrad.numpy  # noqa: F401 -- registers the primitives
from funcgrad.core import ReverseTrace, registry
from funcgrad.tree_util import tree_map
from oracle import EXPECTED_WARNINGS, bind, check_case
import oracle_cases

pytestmark = EXPECTED_WARNINGS


def _all_cases():
    cases = []
    for module in pkgutil.iter_modules(oracle_cases.__path__):
        cases.extend(importlib.import_module(f"oracle_cases.{module.name}").CASES)
    return cases


CASES = _all_cases()


def test_case_names_are_unique():
    names = [case.name for case in CASES]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)


@pytest.mark.parametrize("case", [case for case in CASES if not case.costly_oracle],
                         ids=lambda case: case.name)
@given(data=st.data())
def test_matches_jax(case, data):
    check_case(case, data)


# Each example of these costs JAX seconds of compilation (~7 s for expm's second
# derivatives); test_matches_jax_thoroughly draws the full count.
@pytest.mark.parametrize("case", [case for case in CASES if case.costly_oracle],
                         ids=lambda case: case.name)
@settings(max_examples=4)
@given(data=st.data())
def test_matches_jax_costly_oracle(case, data):
    check_case(case, data)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
@settings(max_examples=150)
@given(data=st.data())
def test_matches_jax_thoroughly(case, data):
    check_case(case, data)


def test_every_registered_primitive_has_an_oracle_case(monkeypatch):
    """A primitive that no case applies to a traced value fails the suite. Only funcgrad
    runs here (comparing with JAX is test_matches_jax's job): each case's vjp is traced by
    an outer vjp, so primitives used only inside VJP rules are applied to traced values."""
    seen = set()
    process = ReverseTrace.process_primitive

    def recording(self, primitive, args, params):
        seen.add(primitive.name)
        return process(self, primitive, args, params)

    monkeypatch.setattr(ReverseTrace, "process_primitive", recording)

    @settings(max_examples=3, database=None)
    @given(data=st.data())
    def run(case, data):
        args, static = data.draw(case.args)
        diff = case.diff if case.diff is not None else tuple(
            i for i, a in enumerate(args) if np.result_type(a).kind in "fc")
        if not diff:
            return
        fun = bind(case.funcgrad_fun(), args, static, diff)
        if not case.differentiable:
            # Applied to traced values (it has no VJP to trace); a primitive that refuses
            # them (nextafter) is seen as it raises.
            with contextlib.suppress(NotImplementedError):
                fg.vjp(fun, *(args[i] for i in diff))
            return

        def pulled_back(*diff_args):
            out, pullback = fg.vjp(fun, *diff_args)
            return pullback(tree_map(lambda o: np.ones(np.shape(o), np.result_type(o)), out))

        fg.vjp(pulled_back, *(args[i] for i in diff))

    for case in CASES:
        run(case)
    missing = sorted(set(registry) - seen)
    assert not missing, f"primitives with no oracle case: {missing}"
