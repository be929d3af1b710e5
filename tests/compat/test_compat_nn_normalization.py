"""compat.nn's RMSNorm, InstanceNorm1d/2d/3d and LocalResponseNorm (and their functions)
against torch.nn 2.13: values (with PyTorch's grad_fn names), gradients of the input and
of the parameters, running statistics, reprs, warnings and error texts."""
import warnings

import pytest

from compat_harness import assert_same_error, check, check_printed, gradients, seeded


def _normalised(make_layer, shape, steps=1, train=True):
    """The layer's output and gradients after `steps` forward/backward passes (running
    statistics updated on the way), in training or eval mode."""
    def case(torch):
        layer = make_layer(torch)
        layer.train(train)
        outputs = []
        for _ in range(steps):
            x = (torch.randn(*shape) * 3 + 1).requires_grad_()
            out = layer(x)
            out.backward(torch.randn(out.shape))
            outputs.append((out, x.grad))
        return outputs, gradients(layer), [(n, b) for n, b in layer.named_buffers()]
    return seeded(case)


@pytest.mark.parametrize("shape, options", [
    ((2, 3, 5), {}), ((2, 3, 5), {"eps": 1e-3}), ((4, 6), {"elementwise_affine": False}),
    ((2, 3, 4, 5), {"normalized_shape": (4, 5)})])
def test_rms_norm(shape, options):
    options = {"normalized_shape": shape[-1:], **options}
    check(_normalised(lambda torch: torch.nn.RMSNorm(**options), shape))


def test_rms_norm_of_half_precision_and_with_a_weight_given():
    def case(torch):
        x = torch.randn(3, 4).half().requires_grad_()
        w = torch.rand(4, requires_grad=True)
        out = torch.nn.functional.rms_norm(x.float(), (4,), w) + torch.nn.functional.rms_norm(
            x, (4,)).float()
        out.sum().backward()
        return out, x.grad, w.grad
    check(seeded(case), rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("layer, shape", [
    ("InstanceNorm1d", (2, 3, 5)), ("InstanceNorm1d", (3, 5)), ("InstanceNorm2d", (2, 3, 4, 5)),
    ("InstanceNorm2d", (3, 4, 5)), ("InstanceNorm3d", (2, 3, 2, 3, 2))])
@pytest.mark.parametrize("options", [
    {}, {"affine": True}, {"track_running_stats": True}, {"affine": True, "momentum": None,
                                                          "track_running_stats": True}])
def test_instance_norm(layer, shape, options):
    check(_normalised(lambda torch: getattr(torch.nn, layer)(3, **options), shape, steps=2))


def test_instance_norm_in_eval_mode_uses_the_running_statistics():
    def make(torch):
        layer = torch.nn.InstanceNorm1d(3, affine=True, track_running_stats=True)
        layer(torch.randn(4, 3, 6) * 2)  # one training step fills the statistics
        return layer
    check(_normalised(make, (2, 3, 5), train=False))


def test_instance_norm_warns_of_unused_num_features():
    def case(torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = torch.nn.InstanceNorm1d(4)(torch.randn(2, 3, 5))
        return out, [str(w.message) for w in caught]
    check(seeded(case))


@pytest.mark.parametrize("shape, size", [((2, 5, 4), 2), ((2, 5, 4), 3), ((2, 6, 3, 4), 3),
                                         ((1, 4, 2, 3, 2), 5)])
def test_local_response_norm(shape, size):
    check(_normalised(lambda torch: torch.nn.LocalResponseNorm(size, alpha=0.1, beta=0.6,
                                                               k=2.0), shape))


def test_reprs():
    def case(torch):
        nn = torch.nn
        print(nn.RMSNorm(5), nn.RMSNorm([2, 3], eps=1e-4, elementwise_affine=False),
              nn.InstanceNorm1d(3), nn.InstanceNorm2d(3, affine=True),
              nn.InstanceNorm3d(2, track_running_stats=True), nn.LocalResponseNorm(2))
    check_printed(case)


MISUSES = {
    "rms shape": lambda t: t.nn.functional.rms_norm(t.randn(2, 3), (4,)),
    "rms weight shape": lambda t: t.nn.functional.rms_norm(t.randn(2, 3), (3,), t.ones(2)),
    "rms integers": lambda t: t.nn.functional.rms_norm(t.tensor([[1, 2]]), (2,)),
    "instance one element": lambda t: t.nn.functional.instance_norm(t.randn(2, 3, 1)),
    "instance 2-d": lambda t: t.nn.functional.instance_norm(t.randn(2, 3)),
    "instance affine features": lambda t: t.nn.InstanceNorm1d(3, affine=True)(
        t.randn(2, 4, 5)),
    "instance rank": lambda t: t.nn.InstanceNorm2d(3)(t.randn(3, 5)),
    "local response rank": lambda t: t.nn.functional.local_response_norm(t.randn(2, 3), 2),
}


@pytest.mark.parametrize("misuse", list(MISUSES))
def test_misuse_raises_torchs_error(misuse):
    assert_same_error(MISUSES[misuse])
