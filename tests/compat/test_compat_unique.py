"""torch.unique and torch.unique_consecutive against PyTorch 2.13: values, inverse and
counts over every dim (and none), with repeated values and NaNs, and their one recorded
node (Unique2Backward0, UniqueDimBackward0, UniqueConsecutiveBackward0) whose backward
raises PyTorch's error."""
import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from compat_harness import assert_same_error, check

# Few distinct values, so that runs and repeated slices are common.
_VALUES = st.sampled_from([-1.5, 0.0, 2.0, 3.0, float("nan")])


@st.composite
def _calls(draw):
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4))
    values = draw(hnp.arrays(np.float64, shape, elements=_VALUES))
    dims = [None] + [d for n in range(len(shape)) for d in (n, n - len(shape))]
    return (values, draw(st.sampled_from(["unique", "unique_consecutive"])),
            draw(st.sampled_from(dims)), draw(st.booleans()), draw(st.booleans()),
            draw(st.booleans()))


@given(_calls())
def test_values_inverse_and_counts_as_torch(call):
    values, name, dim, return_inverse, return_counts, requires_grad = call
    if name == "unique" and np.isnan(values).any():
        # Where NaNs stand in torch's sorted result is its sort's doing (along a dim, its
        # comparisons with NaN leave equal slices apart); compat's is NumPy's.
        values = np.nan_to_num(values, nan=5.0)

    def case(torch):
        x = torch.tensor(values, requires_grad=requires_grad)
        return getattr(torch, name)(x, return_inverse=return_inverse,
                                     return_counts=return_counts, dim=dim)
    check(case, rtol=0, atol=0)


@pytest.mark.parametrize("expression", [
    "torch.unique(x)", "torch.unique(x, return_counts=True)[0]", "x.unique(dim=1)",
    "torch.unique(x, dim=0, return_inverse=True)[0]", "torch.unique_consecutive(x)",
    "x.unique_consecutive(dim=-1, return_counts=True)[0]",
])
def test_a_backward_through_unique_raises_as_in_torch(expression):
    def case(torch):
        x = torch.tensor([[1.0, 1.0, 2.0], [3.0, 3.0, 2.0]], requires_grad=True)
        eval(expression, {"torch": torch, "x": x}).sum().backward()
    assert_same_error(case)


@pytest.mark.parametrize("expression", [
    "torch.unique(torch.tensor(3.0), dim=0)", "torch.unique(torch.ones(2, 3), dim=2)",
    "torch.unique(torch.zeros(2, 0), dim=0)", "torch.unique(torch.zeros(2, 0), dim=1)",
    "torch.unique(torch.zeros(0, 0, 2), dim=1)", "torch.unique(torch.zeros(0, 0, 2), dim=2)",
])
def test_bad_dims_as_in_torch(expression):
    check(lambda torch: eval(expression, {"torch": torch}), messages=True)
