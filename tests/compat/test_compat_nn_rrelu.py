"""compat.nn's RReLU and F.rrelu / F.rrelu_ against torch 2.13: the slopes drawn in
training bit for bit after the same seed (and the draws after them), the mean slope
otherwise, gradients, grad_fn names, the module's repr and the error texts."""
import pytest

from compat_harness import assert_same_error, check, seeded


def _cotangent(torch, out):
    return torch.arange(out.numel(), dtype=out.dtype).reshape(out.shape)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("bounds", [(), (0.2, 0.9), (0.3, 0.3), (-1.0, 2.5)])
@pytest.mark.parametrize("training", [True, False])
def test_rrelu(dtype, bounds, training):
    def case(torch):
        x = torch.randn(6, 50, dtype=getattr(torch, dtype), requires_grad=True)
        out = torch.nn.functional.rrelu(x, *bounds, training=training)
        out.backward(_cotangent(torch, out))
        return out, x.grad, torch.rand(3)  # (the draws that follow the slopes' too)
    check(seeded(case), rtol=0, atol=0)


def test_special_values():
    """NaN and positive elements draw no slope; zero draws one."""
    def case(torch):
        x = torch.tensor([0.0, -0.0, float("nan"), float("inf"), -float("inf"), -1.0, 2.0],
                         requires_grad=True)
        out = torch.nn.functional.rrelu(x, training=True)
        out.backward(torch.ones(7))
        return out, x.grad, torch.rand(2)
    check(seeded(case), rtol=0, atol=0)


@pytest.mark.parametrize("training", [True, False])
def test_in_place(training):
    def case(torch):
        x = torch.randn(4, 5, requires_grad=True)
        y = x * 1
        out = torch.nn.functional.rrelu(y, training=training, inplace=True)
        out.backward(_cotangent(torch, out))
        z = torch.randn(3, 3)
        return out is y, out, x.grad, torch.nn.functional.rrelu_(z, 0.1, 0.2, training), z
    check(seeded(case), rtol=0, atol=0)


def test_module_draws_in_training_only():
    def case(torch):
        layers = [torch.nn.RReLU(), torch.nn.RReLU(0.1, 0.3, inplace=True)]
        x = torch.randn(3, 4)
        trained = [layer(x.clone()) for layer in layers]
        evaluated = [layer.eval()(x.clone()) for layer in layers]
        return [repr(layer) for layer in layers], trained, evaluated, torch.rand(2)
    check(seeded(case), rtol=0, atol=0)


@pytest.mark.parametrize("case", [
    lambda torch: torch.nn.functional.rrelu(torch.randn(3), 0.5, 0.1, training=True),
    lambda torch: torch.nn.functional.rrelu(torch.randn(3), 0.5, 0.1),
    lambda torch: torch.nn.functional.rrelu(torch.randn(3), float("inf"), float("inf")),
    lambda torch: torch.nn.functional.rrelu(torch.randn(3), 0.1, float("nan")),
    lambda torch: torch.nn.functional.rrelu(torch.randn(3), -float("inf"), 0.3),
    lambda torch: torch.nn.functional.rrelu(torch.arange(3), training=True),
    lambda torch: torch.nn.functional.rrelu(torch.arange(3)),
    lambda torch: torch.nn.functional.rrelu(torch.randn(3).half(), training=True),
    lambda torch: torch.nn.functional.rrelu(torch.randn(3, requires_grad=True), inplace=True),
])
def test_errors(case):
    assert_same_error(case)
