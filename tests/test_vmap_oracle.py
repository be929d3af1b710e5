"""Every primitive under vmap, against jax.vmap: values and per-example gradients, with the
batch at every position of some of the arguments and out_axes 0 or -1."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import check_case_batched
from test_oracle import CASES


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
@settings(max_examples=3)
@given(data=st.data())
def test_vmap_matches_jax(case, data):
    check_case_batched(case, data)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
@settings(max_examples=60)
@given(data=st.data())
def test_vmap_matches_jax_thoroughly(case, data):
    check_case_batched(case, data)
