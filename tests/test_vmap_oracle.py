"""Every primitive under vmap, against jax.vmap: values and per-example gradients, with the
batch at every position of some of the arguments and out_axes 0 or -1."""
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from funcgrad.core import BatchingFallbackWarning
from oracle import check_case_against_loop, check_case_batched
from test_oracle import CASES

# Cases whose result's shape depends on the values (JAX cannot vmap them): funcgrad runs
# them once per element when every element's result has one shape, else raises an error
# naming vmap; checked against a loop over the batch.
VALUE_SHAPED = {"bincount_counts", "trim_zeros"}

# Cases whose per-example gradient differs from JAX's, and why.
GRADIENT_DIFFERS = {
    "piecewise": "with conditions that differ per element, every function is evaluated on "
                 "the whole input and the results chosen with where, so the gradient is NaN "
                 "where an unchosen function is undefined (JAX's piecewise is a switch, "
                 "which it can batch after differentiating); values agree",
}


def check(case, data):
    with warnings.catch_warnings():
        # Functions that read values without a rule of their own (digitize, nonzero, ...)
        # run once per element and say so; that is expected here.
        warnings.simplefilter("ignore", BatchingFallbackWarning)
        if case.name in VALUE_SHAPED:
            check_case_against_loop(case, data)
        else:
            check_case_batched(case, data, with_grad=case.name not in GRADIENT_DIFFERS)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
@settings(max_examples=3)
@given(data=st.data())
def test_vmap_matches_jax(case, data):
    check(case, data)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
@settings(max_examples=60)
@given(data=st.data())
def test_vmap_matches_jax_thoroughly(case, data):
    check(case, data)
