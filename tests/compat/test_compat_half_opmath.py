"""float16 tensors with Python numbers against PyTorch: PyTorch computes +, -, *, / of a
float16 tensor and a number (and an `alpha`) in float32, its "opmath" type, and rounds the
result to float16 once, so ``float16 * 70000`` is finite where the product is. Values,
dtypes, gradients and graphs must be exactly PyTorch's."""
import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from compat_harness import check, graph

# Both libraries' arithmetic overflows to inf and divides by 0 here by design (compat's
# NumPy says so; PyTorch is silent).
pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning",
                                        "ignore:invalid value encountered:RuntimeWarning",
                                        "ignore:divide by zero encountered:RuntimeWarning")

# Numbers outside float16's range (65504), between two float16 values (1 + 2**-11 rounds
# to 1 in float16), below its smallest subnormal, and integers float16 cannot hold.
_EDGE_NUMBERS = [70000, 70000.0, 65504.0, 65520.0, 1 + 2 ** -11, 1.0001, 3.0000001, 1e-8,
                 -1e-5, 1e5, 2049, -4097, 1e30, 0.1]
NUMBERS = st.one_of(st.sampled_from(_EDGE_NUMBERS),
                    st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False),
                    st.integers(-2 ** 24, 2 ** 24))
# Alphas are rounded to float16 by PyTorch (and must fit it).
ALPHAS = st.one_of(st.sampled_from([0.1, 1.0001, 3, -2.5, 1e-5]),
                   st.floats(-60000, 60000, allow_nan=False, allow_infinity=False))
HALVES = hnp.arrays(np.float16, (2, 3), elements=st.floats(-1000, 1000, width=16))

EXPRESSIONS = [
    "x * n", "n * x", "x / n", "x + n", "n + x", "x - n", "n - x",
    "torch.mul(x, n)", "torch.div(x, n)", "torch.add(x, n)", "torch.sub(x, n)",
    "x.mul(n)", "x.div(n)", "x.add(n)", "x.sub(n)", "torch.rsub(x, n)",
    "torch.multiply(x, n)", "torch.true_divide(x, n)", "torch.subtract(x, n)",
]
ALPHA_EXPRESSIONS = [
    "torch.add(x, y, alpha=a)", "torch.sub(x, y, alpha=a)", "x.add(n, alpha=a)",
    "x.sub(n, alpha=a)", "torch.rsub(x, y, alpha=a)", "torch.rsub(x, n, alpha=a)",
]
INPLACE_STATEMENTS = ["z.mul_(n)", "z.div_(n)", "z.add_(n)", "z.sub_(n)", "z *= n", "z /= n",
                      "z += n", "z -= n", "z.add_(y, alpha=a)", "z.sub_(n, alpha=a)"]


def _case(code, values, other, number, alpha, statement=False):
    """Run `code` on float16 tensors x and y (`values`, `other`) that require grad; return
    the result, its graph and the gradients for the upstream gradient `other`."""
    def case(torch):
        x = torch.tensor(values, requires_grad=True)
        y = torch.tensor(other, requires_grad=True)
        names = {"torch": torch, "x": x, "y": y, "n": number, "a": alpha}
        if statement:
            names["z"] = x * 1
            exec(code, names)
            out = names["z"]
        else:
            out = eval(code, names)
        grads = torch.autograd.grad(out, (x, y), torch.tensor(other), allow_unused=True)
        return out, out.dtype, graph(out), grads
    return case


@pytest.mark.parametrize("expression", EXPRESSIONS)
@given(values=HALVES, number=NUMBERS)
@example(values=np.array([[0.25, 1.5, 3, -2, 0.1, 0]], np.float16), number=70000)
def test_half_tensor_and_number_match_torch(expression, values, number):
    check(_case(expression, values, -values, number, 1), rtol=0, atol=0)


@given(values=HALVES, number=NUMBERS)
def test_number_over_half_tensor_matches_torch(values, number):
    """``n / x`` (reciprocal, then a product by n), its value and graph. Its gradient
    differs in the last float16 bit now and then (values 103, n = 1.00048828125): compat's
    ReciprocalBackward0 rounds its steps in another order than PyTorch's
    ``-grad * (result * result)``; an open difference."""
    def case(torch):
        x = torch.tensor(values, requires_grad=True)
        out = number / x
        return out, graph(out), out.grad_fn.next_functions[0][0]
    check(case, rtol=0, atol=0)


@pytest.mark.parametrize("expression", ALPHA_EXPRESSIONS)
@given(values=HALVES, other=HALVES, number=NUMBERS, alpha=ALPHAS)
@example(values=np.ones((2, 3), np.float16), other=np.full((2, 3), 0.1, np.float16),
         number=0.1, alpha=1.0001)
def test_half_tensor_with_alpha_matches_torch(expression, values, other, number, alpha):
    check(_case(expression, values, other, number, alpha), rtol=0, atol=0)


@pytest.mark.parametrize("statement", INPLACE_STATEMENTS)
@given(values=HALVES, other=HALVES, number=NUMBERS, alpha=ALPHAS)
def test_half_inplace_with_number_matches_torch(statement, values, other, number, alpha):
    check(_case(statement, values, other, number, alpha, statement=True), rtol=0, atol=0)


@pytest.mark.parametrize("statement", ["z.mul_(n)", "z.div_(n)", "z.add_(n)", "z.sub_(n)"])
@given(values=HALVES, number=NUMBERS)
def test_half_inplace_without_grad_matches_torch(statement, values, number):
    """The unrecorded in-place shortcut (`_inplace._computed_in_place`)."""
    def case(torch):
        z = torch.tensor(values)
        exec(statement, {"z": z, "n": float(number)})
        return z
    check(case, rtol=0, atol=0)


# PyTorch converts these numbers to float16: beyond its range is an error, within it they
# round (65519 to 65504).
SCALAR_EXPRESSIONS = ["torch.add(x, x, alpha=n)", "torch.sub(x, 1.0, alpha=n)",
                      "torch.clamp(x, min=n)", "torch.clamp(x, max=n)", "x.clamp_min(n)",
                      "x.clamp_max(n)", "x ** n", "torch.pow(x, n)"]


@pytest.mark.parametrize("expression", SCALAR_EXPRESSIONS)
@pytest.mark.parametrize("number", [70000, -1e5, 65520.0, 65519.0, -2.5, 0.1001])
def test_scalars_converted_to_half_match_torch(expression, number):
    def case(torch):
        x = torch.tensor([0.5, -1.0, 1.25], dtype=torch.float16)
        return eval(expression, {"torch": torch, "x": x, "n": number})
    check(case, rtol=0, atol=0, messages=True)
