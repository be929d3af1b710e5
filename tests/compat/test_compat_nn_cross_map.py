"""compat.nn's CrossMapLRN2d against torch 2.13: PyTorch's legacy running sums in the
forward, its backward (written for the symmetric window), the node's name, the repr and the
error text."""
import pytest

from compat_harness import assert_same_error, check, seeded


@pytest.mark.parametrize("size", [2, 3, 4, 5, 9])
@pytest.mark.parametrize("channels", [1, 4, 7])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cross_map_lrn2d(size, channels, dtype):
    def case(torch):
        layer = torch.nn.CrossMapLRN2d(size, alpha=0.5, beta=0.6, k=1.5)
        x = torch.randn(2, channels, 3, 4, dtype=getattr(torch, dtype), requires_grad=True)
        out = layer(x)
        out.backward(torch.arange(out.numel(), dtype=out.dtype).reshape(out.shape) / 10)
        return repr(layer), out, x.grad
    check(seeded(case), rtol=1e-5 if dtype == "float32" else 1e-12)


def test_defaults_and_a_network():
    def case(torch):
        model = torch.nn.Sequential(torch.nn.Conv2d(2, 6, 3), torch.nn.CrossMapLRN2d(5))
        x = torch.randn(2, 2, 6, 6)
        out = model(x)
        out.square().sum().backward()
        return repr(model), out, [p.grad for p in model.parameters()]
    check(seeded(case))


def test_input_of_another_rank():
    assert_same_error(lambda torch: torch.nn.CrossMapLRN2d(3)(torch.randn(2, 3, 4)))
