"""torch.complex, torch.polar and torch.view_as_complex against PyTorch 2.13: values (with
infinite and NaN parts), dtypes, grad_fn names, gradients through the real and imaginary
parts, and PyTorch's errors."""
import pytest

import compat
from compat_harness import assert_same_error, check


@pytest.mark.parametrize("dtype", ("float32", "float64"))
def test_complex_and_polar(dtype):
    def case(L):
        L.manual_seed(0)
        a = L.randn(2, 3, dtype=getattr(L, dtype), requires_grad=True)
        b = L.randn(3, dtype=getattr(L, dtype), requires_grad=True)
        # (PyTorch's polar is defined, and its derivative right, for abs >= 0 only.)
        z, w = L.complex(a, b), L.polar(a.abs(), b)
        (z.real * 2 + z.imag * 3 + w.real * 5 - w.imag).sum().backward()
        return z, w, a.grad, b.grad
    check(case)


def test_infinite_and_nan_parts_stay_exact():
    def case(L):
        inf, nan = float("inf"), float("nan")
        real = L.tensor([inf, 1.0, -inf, nan, 2.0], requires_grad=True)
        imag = L.tensor([inf, nan, 1.0, 0.0, -inf])
        z = L.complex(real, imag)
        z.real.sum().backward()
        return L.view_as_real(z), real.grad
    check(case)


@pytest.mark.parametrize("dtype", ("float32", "float64"))
def test_view_as_complex(dtype):
    def case(L):
        L.manual_seed(0)
        x = L.randn(4, 3, 2, dtype=getattr(L, dtype), requires_grad=True)
        z = L.view_as_complex(x)
        strided = L.view_as_complex(x.detach()[::2])
        (z.real * 2 + z.imag * 3).sum().backward()
        return z, strided, x.grad
    check(case)


@pytest.mark.parametrize("case", [
    lambda L: L.complex(L.ones(2), L.ones(2, dtype=L.float64)),
    lambda L: L.complex(L.tensor([1]), L.tensor([2])),
    lambda L: L.complex(L.ones(2), L.ones(3)),
    lambda L: L.polar(L.tensor([1]), L.tensor([2])),
    lambda L: L.view_as_complex(L.ones(3, 3)),
    lambda L: L.view_as_complex(L.ones(3, 2, dtype=L.long)),
    lambda L: L.view_as_complex(L.ones(2, 3).t()),
    lambda L: L.view_as_complex(L.ones(3, 3)[:, :2]),
    lambda L: L.view_as_complex(L.tensor(1.0)),
], ids=range(9))
def test_errors(case):
    assert_same_error(case)


@pytest.mark.parametrize("pairs", [
    "L.zeros(2, 1).t()", "L.zeros(3, 1, 2).transpose(0, 1)", "L.zeros(5)[1:3]",
    "L.zeros(5)[1:3][None]", "L.zeros(4, 2)[1:]",
    "L.zeros(20).as_strided((2, 2), (3, 1), 1)", "L.zeros(20).as_strided((0, 2), (3, 1))",
    "L.zeros(20).as_strided((1, 1, 2), (3, 5, 1))"])
def test_view_as_complex_strides_of_length_one_dims_and_storage_offset(pairs):
    """Found by the random complex programs (view_as_complex of a transposed (2, 1)
    tensor): PyTorch checks the strides of the dims of more than one element (size 0 too)
    and requires an even storage offset; compat refused an odd stride of a dim of length 1
    and accepted an odd offset."""
    def case(L):
        x = eval(pairs, {"L": L}).requires_grad_()
        z = L.view_as_complex(x)
        (z.real * 2 + z.imag * 3).sum().backward()
        return z, x.grad
    check(case, messages=True)


@pytest.mark.parametrize("build", ["complex", "polar"])
@pytest.mark.parametrize("updated", ["first", "second", "result"])
def test_saved_tensors_of_complex_and_polar(build, updated):
    """Found by the random complex programs (``torch.complex(v0, v0)``, then
    ``v0.mul_(-1)``): PyTorch's ComplexBackward0 saves both parts, so a backward after
    an update of either in place raises; compat's saved neither."""
    def case(L):
        x = L.tensor([0.5, 1.25], dtype=L.float64, requires_grad=True)
        first, second = x * 2.0, x * 3.0
        result = getattr(L, build)(first, second)
        {"first": first, "second": second, "result": result}[updated].mul_(-1)
        result.abs().sum().backward()
        return x.grad
    check(case)


def test_half_precision_is_refused_for_want_of_complex32():
    with pytest.raises(TypeError, match="complex32"):
        compat.view_as_complex(compat.ones(3, 2, dtype=compat.float16))
