"""addmm, addmv, addr, baddbmm and addbmm with beta and alpha against PyTorch, float32 and
float64: where the product has one term per element (a contraction of length 1, so no
summation order differs), within the few roundings of beta * input + alpha * a * b, whose
order PyTorch's kernels choose by CPU (MKL takes other kernels on other CPUs), and bit for
bit for addr (one fused multiply-add per element on every CPU); within float tolerance for
longer contractions, values and gradients."""
import numpy as np
import pytest
from hypothesis import example, given, strategies as st

from compat_harness import assert_same, check, run_both

DTYPES = st.sampled_from(["float32", "float64"])
SIZES = st.integers(1, 24)
SCALES = st.one_of(st.sampled_from([0.0, 1.0, 0.7, 1.3, -2.5]), st.floats(-3, 3))


def _operands(seed, dtype, *shapes):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(shape).astype(dtype) for shape in shapes]


def _shapes(name, m, n, k, batches):
    """The shapes of (input, first, second) for torch.`name`."""
    return {"addmm": ((m, n), (m, k), (k, n)),
            "addmv": ((m,), (m, k), (k,)),
            "addr": ((m, n), (m,), (n,)),
            "baddbmm": ((batches, m, n), (batches, m, k), (batches, k, n)),
            "addbmm": ((m, n), (batches, m, k), (batches, k, n))}[name]


def _case(name, arrays, beta, alpha, grad):
    def case(t):
        tensors = [t.tensor(a, requires_grad=grad) for a in arrays]
        out = getattr(t, name)(*tensors, beta=beta, alpha=alpha)
        if not grad:
            return out
        return out, t.autograd.grad(out.sum(), tensors)
    return case


NAMES = st.sampled_from(["addmm", "addmv", "addr", "baddbmm", "addbmm"])


@given(name=NAMES, dtype=DTYPES, m=SIZES, n=SIZES, batches=st.integers(1, 3),
       beta=SCALES, alpha=SCALES, seed=st.integers(0, 2**32 - 1))
@example(name="addmm", dtype="float32", m=2, n=2, batches=1, beta=0.7, alpha=1.3, seed=0)
@example(name="addmm", dtype="float32", m=7, n=1, batches=1, beta=0.7, alpha=1.3, seed=1)
@example(name="baddbmm", dtype="float64", m=20, n=21, batches=2, beta=-2.5, alpha=1.3, seed=2)
def test_one_term_products_match_torch_to_rounding(name, dtype, m, n, batches, beta, alpha,
                                                    seed):
    if name == "addr":  # no contraction; PyTorch's scalar tail of a row rounds otherwise
        n = 32 * (1 + n // 32)
    arrays = _operands(seed, dtype, *_shapes(name, m, n, 1, batches))
    ours, theirs = run_both(_case(name, arrays, beta, alpha, grad=False))
    if name == "addr":
        assert_same(ours, theirs, rtol=0, atol=0)
        return
    assert_same(ours, theirs, rtol=1e-3, atol=1e-3)  # shapes, dtypes, grad state
    magnitude = _terms_magnitude(name, arrays, beta, alpha)
    roundings = 4 + (batches if name == "addbmm" else 0)
    bound = roundings * np.finfo(dtype).eps * magnitude
    difference = np.abs(ours.numpy().astype(np.float64) - theirs.numpy().astype(np.float64))
    assert np.all(difference <= bound), (
        f"{name}: compat and torch differ by more than {roundings} roundings of the terms:\n"
        f"compat: {ours.numpy()}\ntorch:  {theirs.numpy()}")


def _terms_magnitude(name, arrays, beta, alpha):
    """|beta * input| + |alpha| * the sum of |a * b| over the product's terms, elementwise,
    in float64: the scale of the rounding errors of any order of evaluation."""
    input, first, second = (np.abs(a.astype(np.float64)) for a in arrays)
    product = np.abs(alpha) * (first @ second)
    if name == "addbmm":
        product = product.sum(axis=0)
    return (0 if beta == 0 else np.abs(beta) * input) + product


@given(name=NAMES, dtype=DTYPES, m=SIZES, n=SIZES, k=SIZES, batches=st.integers(1, 3),
       beta=SCALES, alpha=SCALES, seed=st.integers(0, 2**32 - 1))
@example(name="addmm", dtype="float32", m=2, n=2, k=3, batches=1, beta=0.7, alpha=1.3,
         seed=0)
def test_scaled_products_and_gradients_match_torch(name, dtype, m, n, k, batches, beta,
                                                   alpha, seed):
    arrays = _operands(seed, dtype, *_shapes(name, m, n, k, batches))
    check(_case(name, arrays, beta, alpha, grad=True), rtol=1e-4 if dtype == "float32" else 1e-10,
          atol=1e-5 if dtype == "float32" else 1e-12)


@given(name=NAMES, beta=st.sampled_from([0.0, 0.5]))
def test_beta_zero_ignores_nan_input_as_torch(name, beta):
    arrays = _operands(3, "float32", *_shapes(name, 3, 4, 2, 2))
    arrays[0][...] = np.nan
    check(_case(name, arrays, beta, 1.5, grad=False), rtol=1e-5)


@pytest.mark.parametrize("call", [
    "torch.addmm(torch.ones(1), torch.ones(3, 2), torch.ones(2))",
    "torch.addmm(torch.ones(1), torch.ones(2), torch.ones(2, 2))",
    "torch.addmm(torch.ones(1), torch.ones(2, 2, 2), torch.ones(2, 2))",
    # F.linear with a vector for its weight: PyTorch's matmul, or its addmm's error
    "F.linear(torch.ones(1, 2), torch.ones(5))", "F.linear(torch.ones(2), torch.ones(2))",
    "F.linear(torch.arange(6.0).reshape(3, 2), torch.tensor([1.0, -2.0]))",
    "F.linear(torch.ones(3, 2), torch.ones(2), torch.ones(1))",
    "F.linear(torch.ones(4, 3, 2), torch.ones(2), torch.ones(1))",
    "F.linear(torch.ones(4, 3, 2).transpose(0, 1), torch.ones(2), torch.ones(1))",
    "F.linear(torch.ones(1, 2), torch.ones(2, 2, 2))",
    "F.linear(torch.ones(2), torch.ones(3))"])
def test_matrix_arguments_and_vector_weights_as_torch(call):
    def case(torch):
        return eval(call, {"torch": torch, "F": torch.nn.functional})
    check(case, messages=True)
