"""compat's scale-and-add operations (add, sub and rsub with alpha, addcmul, addcdiv, lerp)
and the backward formulas of rsqrt, reciprocal, hypot, tanh and sigmoid against PyTorch's
CPU kernels, bit for bit: values, every input's gradient, second derivatives, in-place
forms, broadcasting, and non-finite inputs."""
import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from compat_harness import check

SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, 3e38, 65504.0])
SCALES = st.one_of(st.sampled_from([1, -1, 0.5, 0.1, 0.9, 1e-3, 2, -3]),
                   st.floats(-10, 10, allow_nan=False, allow_infinity=False))
# Broadcast inputs' gradients are sums, which NumPy and PyTorch add in their own orders
# past a few terms: the broadcasting shapes sum at most 4.
SHAPES = [((5,), (5,), (5,)), ((40,), (40,), (40,)), ((3, 4), (4,), (3, 1)),
          ((1,), (2, 1), (2, 2)), ((), (4,), ())]


def _arrays(seed, shapes, dtype, special):
    """Standard-normal arrays of `shapes`, with some non-finite and extreme entries if
    `special`."""
    rng = np.random.default_rng(seed)
    arrays = []
    for shape in shapes:
        a = rng.standard_normal(shape)
        if special and a.size:
            picks = rng.random(shape) < 0.2
            a = np.where(picks, rng.choice(SPECIAL, shape), a)
        with np.errstate(over="ignore"):
            arrays.append(a.astype(dtype))
    return arrays


OPERATIONS = {
    "addcmul": lambda torch, x, a, b, s: torch.addcmul(x, a, b, value=s),
    "addcdiv": lambda torch, x, a, b, s: torch.addcdiv(x, a, b, value=s),
    "lerp": lambda torch, x, a, b, s: torch.lerp(x, a, s),
    "lerp_tensor": lambda torch, x, a, b, s: torch.lerp(x, a, b),
    "add": lambda torch, x, a, b, s: torch.add(x, a, alpha=s),
    "sub": lambda torch, x, a, b, s: torch.sub(x, a, alpha=s),
    "rsub": lambda torch, x, a, b, s: torch.rsub(x, a, alpha=s),
    "rsqrt": lambda torch, x, a, b, s: torch.rsqrt(x),
    "reciprocal": lambda torch, x, a, b, s: torch.reciprocal(x),
    "number_over": lambda torch, x, a, b, s: s / x,
    "hypot": lambda torch, x, a, b, s: torch.hypot(x, a),
}
# PyTorch's float16 add with alpha and rsqrt compute in float32 in its vectorized loop
# (whole blocks of 32 elements) but in float16 in its scalar tail, which compat follows.
_HALF_EXACT = {"addcmul", "addcdiv", "lerp", "lerp_tensor", "reciprocal", "number_over",
               "hypot"}


def _case(operation, arrays, scale):
    def case(torch):
        inputs = [torch.tensor(a, requires_grad=True) for a in arrays]
        out = OPERATIONS[operation](torch, *inputs, scale)
        weights = torch.linspace(-2, 3, out.numel(), dtype=out.dtype).reshape(out.shape)
        out.backward(weights)
        return out, [x.grad for x in inputs]
    return case


@given(operation=st.sampled_from(sorted(OPERATIONS)), seed=st.integers(0, 2**32 - 1),
       shapes=st.sampled_from(SHAPES), dtype=st.sampled_from(["float16", "float32",
                                                              "float64"]),
       scale=SCALES, special=st.booleans())
@example(operation="lerp", seed=0, shapes=SHAPES[1], dtype="float32", scale=0.9,
         special=False)
@example(operation="addcmul", seed=1, shapes=SHAPES[1], dtype="float16", scale=0.1,
         special=False)
def test_values_and_gradients_are_pytorchs_bit_for_bit(operation, seed, shapes, dtype,
                                                       scale, special):
    if dtype == "float16" and operation not in _HALF_EXACT:
        return
    if dtype == "float16" and len(set(shapes)) > 1:
        return  # NumPy sums a broadcast float16 gradient in float16, PyTorch in float32
    if operation == "hypot" and dtype == "float64":
        return  # NumPy's float64 hypot and the C library's (PyTorch's) round differently
    arrays = _arrays(seed, shapes, dtype, special)
    check(_case(operation, arrays, scale), rtol=0, atol=0)


@pytest.mark.parametrize("operation", ["addcmul", "addcdiv", "lerp", "lerp_tensor"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_second_derivatives_are_pytorchs(operation, dtype):
    arrays = _arrays(3, SHAPES[2], dtype, special=False)

    def case(torch):
        inputs = [torch.tensor(a, requires_grad=True) for a in arrays]
        out = OPERATIONS[operation](torch, *inputs, 0.3)
        grads = torch.autograd.grad((out * out).sum(), inputs, create_graph=True,
                                    allow_unused=True)
        total = sum((g * g).sum() for g in grads if g is not None)
        return grads, torch.autograd.grad(total, inputs, allow_unused=True)
    # A second derivative adds the contributions of several paths, in the order each
    # engine reaches them: equal to rounding (the cross terms of the rules are what is
    # checked: a rule that dropped one would be off by far more). grad_fn names: see
    # test_tanh_and_sigmoid_second_derivatives.
    check(case, rtol=1e-5, atol=1e-6, grad_fn_names=False)


@pytest.mark.parametrize("expression", [
    "x.clone().addcmul_(a, b, value=0.3)", "x.clone().addcdiv_(a, b, value=-2)",
    "x.clone().lerp_(a, 0.7)", "x.clone().lerp_(a, b)", "x.clone().add_(a, alpha=0.1)",
    "x.clone().sub_(a, alpha=3)", "torch.add(x, 2.5, alpha=0.1)",
    "torch.sub(x, a.double(), alpha=0.3)"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_in_place_and_mixed_forms(expression, dtype):
    x, a, b = _arrays(4, SHAPES[1], dtype, special=False)

    def case(torch):
        tensors = {"x": torch.tensor(x), "a": torch.tensor(a), "b": torch.tensor(b)}
        return eval(expression, {"torch": torch, **tensors})
    check(case, rtol=0, atol=0)


@pytest.mark.parametrize("expression", [
    "torch.addcmul(x, x, x, value=1e39)", "torch.add(x, x, alpha=1e39)",
    "torch.addcmul(x.half(), x.half(), x.half(), value=1e5)", "torch.lerp(x, x, 1e39)",
    "torch.lerp(x, x.double(), 0.5)", "torch.lerp(x.double(), x, 0.5)",
    "torch.lerp(x, x, x.double())", "torch.lerp(x.half(), x.half(), x)",
    "torch.lerp(x.long(), x.long(), 0.5)", "torch.lerp(x.long(), x.long(), x.long())",
    "torch.lerp(x.bool(), x.bool(), 0.5)", "torch.lerp(x.int(), x, 0.5)",
    "x.lerp_(x.double(), 0.5)", "torch.lerp(x.to(torch.complex64), x, 0.3)",
    "torch.add(x, x, alpha=1j)", "torch.add(x.long(), x.long(), alpha=True)",
    "torch.add(x.bool(), x.bool(), alpha=2)", "torch.add(x.bool(), x.bool(), alpha=0)",
    "torch.sub(x.long(), x.long(), alpha=0.5)", "torch.rsub(x.long(), 3, alpha=0.5)",
    "x.long().add_(x.long(), alpha=1.0)", "torch.add(x.long(), 2, alpha=3)",
    "torch.add(x, x.long(), alpha=3)", "torch.addcmul(x.long(), x.long(), x.long(), value=-1.7)",
    "torch.addcmul(x.char(), x.char(), x.char(), value=300)",
    "torch.addcmul(x.bool(), x.bool(), x.bool())",
    "torch.addcdiv(x.long(), x.long(), x.long())", "torch.addcdiv(x, x.bool(), x.long())",
    "torch.addcdiv(x.long(), x, x.long())", "x.clone().addcdiv_(x.long(), x.long())",
    # a 0-d tensor that does not require grad stands for its number (L-BFGS's step lengths)
    "torch.add(x, x, alpha=torch.tensor(0.25))", "x.clone().sub_(x, alpha=torch.tensor(3))",
    "x.clone().add_(x, alpha=torch.tensor(float('nan')))",
    "torch.rsub(x, x, alpha=torch.tensor(float('inf')))",
    "torch.add(x.long(), x.long(), alpha=torch.tensor(2))",
    "torch.add(x.long(), x.long(), alpha=torch.tensor(2.5))",
    "torch.add(x, x, alpha=torch.ones(1))", "x.clone().add_(x, alpha=torch.ones(2))",
    "x.clone().sub_(x, alpha=torch.tensor(2.0, requires_grad=True))",
    "torch.sub(x, x, alpha=torch.ones(1, 1))"])
def test_dtype_rules_and_errors_are_pytorchs(expression):
    def case(torch):
        return eval(expression, {"torch": torch, "x": torch.ones(3)})
    check(case, rtol=0, atol=0, messages=True)


@pytest.mark.parametrize("expression", [
    "torch.addcmul(x, a, b, value=0.3)", "torch.lerp(x, a, 0.7)", "torch.lerp(x, a, b)",
    "torch.add(x, a, alpha=0.1)", "torch.add(x, 0.25, alpha=3)"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_large_tensors_computed_block_by_block(expression, dtype):
    x, a, b = _arrays(5, [(300, 170)] * 3, dtype, special=True)

    def case(torch):
        tensors = {"x": torch.tensor(x), "a": torch.tensor(a), "b": torch.tensor(b)}
        return eval(expression, {"torch": torch, **tensors})
    check(case, rtol=0, atol=0)
