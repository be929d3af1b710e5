"""compat.testing.assert_close against torch.testing.assert_close: the same outcome, and the
same message word for word, for tensors, numbers, containers and bad arguments."""
import numpy as np
import pytest

from compat_harness import check

CASES = [
    "x, torch.tensor([1., 2., 3.])", "x, torch.tensor([1., 2., 3.1])",
    "x, x + 1e-6", "x, x + 1e-4", "x, torch.tensor([1., 2.])",
    "x, torch.tensor([1., 2., 3.], dtype=torch.float64)",
    "x, torch.tensor([1., 2., 3.], dtype=torch.float64), check_dtype=False",
    "x, torch.tensor([1, 2, 4]), check_dtype=False",
    "torch.tensor([[1, 2], [3, 4]]), torch.tensor([[1, 2], [3, 5]])",
    "torch.tensor([True, False]), torch.tensor([True, True])",
    "torch.tensor([1., float('nan')]), torch.tensor([1., float('nan')])",
    "torch.tensor([1., float('nan')]), torch.tensor([1., float('nan')]), equal_nan=True",
    "torch.tensor([1., 0.]), torch.tensor([1., 3.])",
    "torch.tensor([1., 3.]), torch.tensor([1., 0.])",
    "torch.tensor([1e-9, 2.]), torch.tensor([0., 2.])",
    "torch.tensor(1.), torch.tensor(2.)", "torch.tensor(1.), 1.0",
    "x, x * 1.2, rtol=0.3, atol=0", "x, x * 1.2, rtol=0.3", "x, x * 1.2, atol=0.1",
    "x, x * 1.2, rtol=0.1, atol=0.1", "x, [1., 2., 3.]", "x, 'x'",
    "torch.tensor([1., 2.], dtype=torch.float16), torch.tensor([1., 2.001], dtype=torch.float16)",
    "torch.tensor([1., 2.], dtype=torch.float16), torch.tensor([1., 2.01], dtype=torch.float16)",
    "torch.ones(2, requires_grad=True), torch.ones(2)", "x * 2, x + x",
    "x, torch.tensor([1., 3., 3.]), msg='custom'", "x, x, msg='custom'",
    "x, torch.tensor([1., 3., 3.]), msg=lambda m: 'prefix ' + m",
    "torch.ones(2, 3), torch.ones(3, 2).t(), check_stride=True",
    "torch.ones(2, 3), torch.ones(3, 2).t()",
    "1.0, 1.0 + 1e-9", "1.0, 1.1", "1, 1.0", "1, 2", "True, False", "3, 3",
    "[x, 1.0], [x, 1.5]", "[x], [x, x]", "(x,), (x * 2,)",
    "{'a': x, 'b': 1}, {'a': x, 'b': 1}", "{'a': x}, {'a': x + 1}", "{'a': 1}, {'b': 1}",
    "[{'w': x}], [{'w': x * 0}]",
    "np.ones(2), np.ones(2)", "np.ones(2), np.zeros(2)",
    "torch.ones(2, dtype=torch.float64), np.ones(2)",
]


@pytest.mark.parametrize("arguments", CASES)
def test_assert_close_matches_torch(arguments):
    def case(torch):
        x = torch.tensor([1.0, 2.0, 3.0])
        eval(f"torch.testing.assert_close({arguments})", {"torch": torch, "x": x, "np": np})
    check(case, messages=True)
