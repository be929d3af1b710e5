"""Overflow, division by zero and invalid operations give PyTorch's inf and NaN without a
warning: forward operations, in-place ones, reductions, backward and printing, checked
under ``warnings.simplefilter("error")`` against torch; the user's own NumPy still warns."""
import warnings

import numpy as np
import pytest
from hypothesis import example, given, strategies as st

import compat

from compat_harness import check, check_printed

SPECIAL = [1000.0, -1.0, 0.0, -0.0, float("inf"), float("-inf"), float("nan"), 3e38, -3e38,
           1e-45, 2.0]

FORWARD = [
    "t.exp(x)", "t.log(x)", "t.sqrt(x)", "t.rsqrt(x)", "t.reciprocal(x)", "t.log1p(x)",
    "t.expm1(x)", "t.log2(x)", "t.log10(x)", "t.sin(x)", "t.cos(x)", "t.tan(x)",
    "t.tanh(x)", "t.sinh(x)", "t.cosh(x)", "t.asin(x)", "t.acos(x)", "t.atanh(x)",
    "t.acosh(x)", "t.sigmoid(x)", "t.logit(x)", "t.erfinv(x)",
    "t.digamma(x)", "t.sinc(x)", "t.frac(x)",
    "x / 0", "x / x", "1 / x", "0 / x", "x / 0.0", "t.div(x, x, rounding_mode='floor')",
    "t.div(x, 0, rounding_mode='trunc')", "x * 1e38", "x * x", "x + 3e38", "x - 3e38",
    "x + x", "x - x", "x ** 2", "x ** -1", "x ** 0.5", "x ** x", "2 ** x", "0 ** x",
    "t.remainder(x, 0)", "x % x", "t.fmod(x, 0.0)", "t.atan2(x, x)", "t.hypot(x, x)",
    "t.xlogy(x, x)", "t.logaddexp(x, x)", "t.addcdiv(x, x, x, value=2.0)",
    "t.addcmul(x, x, x, value=1e38)", "t.lerp(x, x * 2, 1e38)",
    "x.sum()", "x.mean()", "x.prod()", "x.var()", "x.std()", "x.norm()", "t.nansum(x)",
    "x.cumsum(0)", "x.cumprod(0)", "t.logsumexp(x, 0)",
    "t.softmax(x, 0)", "t.log_softmax(x, 0)", "t.dist(x, -x)", "t.outer(x, x)",
    "x @ x", "t.mm(x.view(-1, 1), x.view(1, -1))", "t.trace(t.outer(x, x))",
    "t.cosine_similarity(x.view(1, -1), x.view(1, -1))", "t.nan_to_num(x * x)",
    "x.half()", "x.double() * 1e300 * 1e300", "(x.double() * 1e300).float()",
    "t.nn.functional.cross_entropy(x.view(1, -1), t.tensor([1]))",
    "t.nn.functional.mse_loss(x, x * 1e38)", "t.clamp(x * x, max=1.0)",
    "x.abs().log().exp()", "t.maximum(x, x * x)",
]

INPLACE = [
    "x.clone().exp_()", "x.clone().log_()", "x.clone().sqrt_()", "x.clone().div_(0)",
    "x.clone().div_(x)", "x.clone().mul_(1e38)", "x.clone().mul_(x)", "x.clone().pow_(-1)",
    "x.clone().reciprocal_()", "x.clone().add_(x, alpha=1e38)", "x.clone().sub_(3e38)",
    "x.clone().remainder_(0)", "x.clone().square_()", "x.clone().sigmoid_()",
    "x.clone().tanh_()",
]

BACKWARD = [
    "t.log(g)", "t.sqrt(g)", "t.rsqrt(g)", "t.reciprocal(g)", "g / g", "1 / g", "g ** -1",
    "t.exp(g)", "t.tanh(g)", "t.sigmoid(g)", "t.sin(g)", "g * 1e38",
    "g * g", "g.norm()", "g.std()", "g.var()", "t.softmax(g, 0)",
    "t.log_softmax(g, 0)", "t.logsumexp(g, 0)", "t.asin(g)", "t.atanh(g)", "t.log1p(g)",
    "t.atan2(g, g)", "t.xlogy(g, g)", "t.clamp(g, min=0.0)",
]


# Quiet, but with values that differ from PyTorch's at some of SPECIAL (docs/guide-compat.md):
# lgamma(-inf); logcumsumexp overflows (inf after 1000.0, PyTorch's 1000.0); the gradients of
# pow at -0.0 and 0 ** 0, of prod at a zero beside NaN or inf, and of abs at NaN.
QUIET_ONLY = ["t.lgamma(x)", "t.logcumsumexp(x, 0)"]
QUIET_ONLY_BACKWARD = ["g ** 0.5", "g ** g", "g.prod()", "t.abs(g)"]


def _quiet_case(code):
    def case(t):
        x = t.tensor(SPECIAL)
        g = x.clone().requires_grad_()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            return eval(code)
    return case


def _quiet_grad_case(code):
    def case(t):
        g = t.tensor(SPECIAL, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            out = eval(code)
            out.backward(t.ones_like(out))
            return out.detach(), g.grad
    return case


@pytest.mark.parametrize("code", FORWARD + INPLACE)
def test_operations_on_extreme_values_are_quiet_and_match_torch(code):
    check(_quiet_case(code), rtol=1e-4)


@pytest.mark.parametrize("code", BACKWARD)
def test_backward_through_extreme_values_is_quiet_and_matches_torch(code):
    check(_quiet_grad_case(code), rtol=1e-4)


@pytest.mark.parametrize("code", QUIET_ONLY)
def test_operations_with_known_differences_are_quiet(code):
    _quiet_case(code)(compat)


@pytest.mark.parametrize("code", QUIET_ONLY_BACKWARD)
def test_backward_with_known_differences_is_quiet(code):
    _quiet_grad_case(code)(compat)


@pytest.mark.parametrize("code", ["x", "x * 1e38", "x.double() * 1e300", "x.half()",
                                  "t.tensor([1e38, 1e-38, 2.0])", "x[x.isfinite()]"])
def test_printing_extreme_values_is_quiet_and_matches_torch(code):
    case = _quiet_case(code)
    check_printed(lambda t: print(case(t)))


@given(values=st.lists(st.sampled_from(SPECIAL) | st.floats(width=32), min_size=1,
                       max_size=6),
       code=st.sampled_from(["t.exp(x)", "t.log(x)", "x / y", "x * y", "x ** y",
                             "t.sqrt(x) + y", "x - y", "t.softmax(x * y, 0)"]))
@example(values=[1000.0], code="t.exp(x)")
@example(values=[1000.0, -1.0, float("inf")], code="t.softmax(x * y, 0)")  # NaN row
def test_random_extreme_values_are_quiet_and_match_torch(values, code):
    def case(t):
        x = t.tensor(values)
        y = x.flip(0)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            return eval(code)
    check(case, rtol=1e-4)


def test_users_own_numpy_still_warns_after_compat_operations():
    compat.exp(compat.tensor([1000.0]))
    compat.log(compat.tensor([0.0], requires_grad=True)).backward()
    with pytest.warns(RuntimeWarning, match="overflow encountered in exp"):
        np.exp(np.float64(1000.0))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(RuntimeWarning, match="divide by zero"):
            np.log(np.zeros(1))


def test_hooks_and_custom_backward_keep_the_users_numpy_warnings():
    """Backward runs quietly, but the user code it calls (a tensor hook, a custom
    Function's backward) runs in the user's own context."""
    seen = []

    def hook(grad):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            np.exp(np.float64(1000.0))
        seen.append([str(w.message) for w in caught])

    class Exp(compat.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.exp()

        @staticmethod
        def backward(ctx, grad):
            hook(grad)
            return grad * 0

    x = compat.tensor([1000.0, 0.0], requires_grad=True)
    y = compat.log(Exp.apply(x) - 1.0)
    y.register_hook(hook)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y.sum().backward()
    assert seen == [["overflow encountered in exp"]] * 2
