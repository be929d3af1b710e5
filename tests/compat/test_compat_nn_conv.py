"""compat.nn's convolution and pooling against torch 2.13: after the same seed, the same
weights; on the same inputs, the same outputs (with PyTorch's grad_fn names), gradients,
printed reprs and error texts, over a grid of shapes, strides, paddings, dilations and
groups; and the network of PyTorch's "Training a Classifier" (CIFAR-10) tutorial."""
import warnings

import pytest

from compat_harness import (assert_same_error, check, check_printed, gradients, graph, run_both,
                            seeded)

# float32 sums over up to a hundred products differ from PyTorch's in the last bits.
TOLERANCES = {"float32": {"rtol": 1e-4, "atol": 1e-5}, "float64": {"rtol": 1e-10, "atol": 1e-12}}


def _backward_through(torch, out, dtype):
    """Backward from `out` weighted by a draw (so that each output element counts)."""
    (out * torch.randn(out.shape, dtype=dtype)).sum().backward()


# ---- convolution -------------------------------------------------------------------------

# (input shape, out_channels, kernel_size, options)
CONVOLUTIONS_2D = [
    ((2, 3, 8, 8), 4, 3, {}),
    ((1, 3, 7, 9), 2, (2, 4), {}),
    ((2, 2, 9, 9), 3, 3, {"stride": 2}),
    ((2, 2, 10, 7), 3, (3, 2), {"stride": (3, 1)}),
    ((1, 3, 6, 6), 2, 3, {"padding": 1}),
    ((2, 2, 5, 7), 4, (3, 5), {"padding": (2, 0)}),
    ((1, 2, 11, 11), 3, 3, {"dilation": 2}),
    ((1, 2, 11, 9), 3, (2, 3), {"dilation": (3, 2), "padding": (1, 2), "stride": (2, 1)}),
    ((2, 4, 6, 6), 6, 3, {"groups": 2}),
    ((2, 4, 6, 6), 4, 3, {"groups": 4, "padding": 1}),
    ((1, 6, 7, 7), 3, 2, {"groups": 3, "stride": 2, "bias": False}),
    ((2, 3, 6, 5), 2, 3, {"padding": "same"}),
    ((2, 3, 6, 5), 2, (3, 5), {"padding": "same", "dilation": 2}),
    ((2, 3, 6, 5), 2, 3, {"padding": "valid"}),
    ((3, 8, 8), 2, 3, {"padding": 1}),  # unbatched
    ((2, 3, 5, 5), 2, 1, {}),
    ((2, 3, 4, 4), 2, 4, {"bias": False}),
    ((0, 3, 5, 5), 2, 3, {}),
    ((2, 3, 6, 5), 4, 3, {"padding": 1, "padding_mode": "reflect"}),
    ((2, 2, 6, 7), 2, (3, 2), {"padding": (2, 1), "padding_mode": "replicate", "stride": 2}),
    ((1, 4, 5, 6), 4, 3, {"padding": (1, 3), "padding_mode": "circular", "groups": 2}),
    ((2, 3, 6, 5), 2, (2, 4), {"padding": "same", "padding_mode": "reflect", "dilation": 1}),
    ((2, 3, 7, 6), 2, 3, {"padding": "same", "padding_mode": "circular", "dilation": 2}),
    ((2, 3, 6, 5), 2, 3, {"padding": "valid", "padding_mode": "replicate"}),
    ((3, 6, 5), 2, 3, {"padding": 2, "padding_mode": "replicate"}),  # unbatched
]

CONVOLUTIONS_1D = [
    ((2, 3, 10), 4, 3, {}),
    ((1, 2, 12), 3, 4, {"stride": 3, "padding": 2}),
    ((2, 4, 9), 2, 2, {"dilation": 3, "groups": 2}),
    ((2, 3, 7), 2, 4, {"padding": "same"}),
    ((3, 10), 2, 3, {"stride": 2}),  # unbatched
    ((2, 3, 10), 4, 3, {"padding": 2, "padding_mode": "reflect"}),
    ((2, 3, 10), 4, 4, {"padding": "same", "padding_mode": "replicate", "dilation": 3}),
    ((3, 10), 2, 3, {"padding": 3, "padding_mode": "circular", "stride": 2}),
]


def _convolution_case(dims, shape, out_channels, kernel_size, options, dtype):
    def case(torch):
        layer = getattr(torch.nn, f"Conv{dims}d")(shape[-dims - 1], out_channels, kernel_size,
                                                   dtype=getattr(torch, dtype), **options)
        x = torch.randn(shape, dtype=getattr(torch, dtype), requires_grad=True)
        out = layer(x)
        _backward_through(torch, out, getattr(torch, dtype))
        return out, graph(out), x.grad, gradients(layer)
    return seeded(case)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape, out_channels, kernel_size, options", CONVOLUTIONS_2D)
def test_conv2d(shape, out_channels, kernel_size, options, dtype):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # padding='same' with an even kernel warns, once
        check(_convolution_case(2, shape, out_channels, kernel_size, options, dtype),
              **TOLERANCES[dtype])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape, out_channels, kernel_size, options", CONVOLUTIONS_1D)
def test_conv1d(shape, out_channels, kernel_size, options, dtype):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(_convolution_case(1, shape, out_channels, kernel_size, options, dtype),
              **TOLERANCES[dtype])


@pytest.mark.parametrize("layer", ["Conv2d(3, 6, 5)", "Conv2d(4, 8, (3, 2), groups=2)",
                                   "Conv1d(2, 5, 7, bias=False)",
                                   "Conv2d(6, 16, 5, dtype=torch.float64)", "Conv3d(3, 6, 3)",
                                   "Conv3d(4, 8, (3, 2, 1), groups=2)",
                                   "Conv3d(2, 5, 2, bias=False, dtype=torch.float64)",
                                   "ConvTranspose3d(4, 6, 3)",
                                   "ConvTranspose3d(6, 4, (2, 3, 2), groups=2, bias=False)",
                                   "ConvTranspose3d(3, 2, 4, dtype=torch.float64)"])
def test_conv_layers_have_torchs_weights_after_the_same_seed(layer):
    def case(torch):
        module = eval(f"torch.nn.{layer}")
        return list(module.named_parameters()), torch.rand(2)  # the stream goes on alike
    check(seeded(case, 7), rtol=0, atol=0)


def test_functional_convolutions_with_tensors_that_need_no_grad_and_integers():
    def case(torch):
        F = torch.nn.functional
        x, w = torch.randn(2, 4, 6, 6), torch.randn(4, 2, 3, 3)
        integers = torch.randint(-3, 4, (1, 2, 5, 5)), torch.randint(-3, 4, (3, 2, 2, 2))
        return (F.conv2d(x, w, torch.randn(4), 2, 1, 1, 2), F.conv2d(*integers),
                F.conv1d(x[0], w[:, :, 0], stride=[2]), F.conv2d(x, w, groups=2, padding=(1,)))
    check(seeded(case), **TOLERANCES["float32"])


def test_same_padding_with_an_even_kernel_pads_and_warns_as_torch():
    def case(torch):
        x = torch.randn(1, 2, 5, 6, requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = torch.nn.functional.conv2d(x, torch.randn(3, 2, 2, 4), padding="same")
        out.sum().backward()
        pad = out.grad_fn.next_functions[0][0]
        return out, graph(out), [type(f).__name__ for f, _ in pad.next_functions], x.grad, \
            [str(w.message).split(" (Triggered internally")[0] for w in caught]
    # The warning is PyTorch's TORCH_WARN_ONCE: each library gives it on its first such call
    # (PyTorch's goes on with where its C++ code warned).
    ours, theirs = run_both(seeded(case))
    assert ours[-1] in ([], theirs[-1]) and theirs[-1] in ([], ours[-1])
    check(lambda torch: seeded(case)(torch)[:-1], **TOLERANCES["float32"])


CONVOLUTION_MISUSES = [
    "torch.nn.Conv2d(4, 6, 3)(torch.randn(2, 3, 8, 8))",
    "torch.nn.Conv2d(3, 6, 3)(torch.randn(2, 3, 8))",
    "torch.nn.Conv2d(3, 6, 3)(torch.randn(1, 2, 3, 8, 8))",
    "torch.nn.Conv2d(3, 6, 9)(torch.randn(2, 3, 8, 8))",
    "torch.nn.Conv2d(3, 6, 3, dilation=(4, 1))(torch.randn(2, 3, 8, 8))",
    "torch.nn.Conv2d(3, 6, 3)(torch.randn(2, 3, 8, 8).double())",
    "torch.nn.Conv1d(3, 6, 3)(torch.randn(8))",
    "torch.nn.Conv2d(3, 6, 3, groups=2)",
    "torch.nn.Conv2d(4, 6, 3, groups=4)",
    "torch.nn.Conv2d(3, 6, 3, groups=0)",
    "torch.nn.Conv2d(3, 6, 3, padding='same', stride=2)",
    "F.conv2d(x, torch.randn(6, 3, 3, 3), stride=0)",
    "F.conv2d(x, torch.randn(6, 3, 3, 3), padding=-1)",
    "F.conv2d(x, torch.randn(6, 3, 3, 3), dilation=0)",
    "F.conv2d(x, torch.randn(6, 3, 3, 3), dilation=-1)",
    "F.conv2d(x.double(), torch.randn(6, 3, 3, 3).double(), dilation=0)",
    "F.conv2d(x > 0, torch.randn(6, 3, 3, 3) > 0, dilation=(1, 0))",
    "F.conv2d(x > 0, torch.randn(6, 3, 3, 3) > 0, dilation=2)",
    "F.conv2d(x, torch.randn(6, 3, 3, 3), groups=0)",
    "F.conv2d(x, torch.randn(6, 3, 3, 3), groups=2)",
    "F.conv2d(x, torch.randn(5, 1, 3, 3), groups=3)",
    "F.conv2d(x, torch.randn(0, 3, 3, 3))",
    "F.conv2d(x, torch.randn(6, 3, 3))",
    "F.conv2d(x, torch.randn(6, 3, 3, 3, 3))",
    "F.conv2d(x, torch.randn(6, 3, 3, 3), torch.randn(5))",
    "F.conv2d(x, torch.randn(6, 3, 3, 3), torch.randn(6, 1))",
    "F.conv2d(x, torch.randn(6, 3, 3, 3).double())",
    "F.conv2d(x.double(), torch.randn(6, 3, 3, 3))",
    "F.conv2d(x, torch.randn(6, 3, 3, 3), torch.randn(6).double())",
    "F.conv2d(x.double(), torch.randn(6, 3, 3, 3).double(), torch.randn(6))",
    "F.conv2d(x, torch.randn(6, 3, 3, 3), dilation=0, bias=torch.randn(6).double())",
    "F.conv2d(x, torch.randn(6, 3, 3, 3), stride=0, padding=-1, dilation=0)",
    "F.conv2d(x, torch.randn(6, 3, 3, 3), padding='same', stride=2)",
    "F.conv2d(x, torch.randn(6, 3, 3, 3), padding='bad')",
    "F.conv2d(x, torch.randn(6, 3, 3, 3), stride=(1, 1, 1))",
    "F.conv2d(x, torch.randn(6, 3, 3, 3), padding=(1, 1, 1))",
    "F.conv2d(torch.randn(2, 3, 0, 8), torch.randn(6, 3, 3, 3))",
    "F.conv2d(x > 0, torch.randn(6, 3, 3, 3) > 0)",
    "torch.nn.Conv2d(3, 6, 3, padding=8, padding_mode='reflect')(x)",
    "torch.nn.Conv2d(3, 6, 3, padding=9, padding_mode='circular')(x)",
    "torch.nn.Conv1d(3, 6, 3, padding=1, padding_mode='reflect')(x)",
    "torch.nn.Conv2d(3, 6, 3, padding=1, padding_mode='replicate')(x > 0)",
]


@pytest.mark.parametrize("misuse", CONVOLUTION_MISUSES)
def test_convolution_misuse_raises_torchs_error(misuse):
    assert_same_error(lambda torch: eval(misuse, {"torch": torch, "F": torch.nn.functional,
                                                  "x": torch.randn(2, 3, 8, 8)}))


def test_convolution_layers_print_as_torchs():
    def case(torch):
        nn = torch.nn
        print(nn.Conv2d(3, 6, 5), nn.Conv1d(3, 6, 3), nn.Conv2d(3, 6, 3, padding="same"))
        print(nn.Conv2d(3, 6, (3, 5), stride=2, padding=1, dilation=2, groups=3, bias=False))
        print(nn.Conv2d(3, 6, 3, padding=(0, 0)), nn.Conv2d(3, 6, 3, dilation=(1, 1)))
        print(nn.Conv2d(3, 6, 3, padding=(1, 0)), nn.Conv2d(3, 6, 3, padding="valid"))
        print(nn.Conv2d(3, 6, 3, padding=1, padding_mode="reflect"),
              nn.Conv1d(3, 6, 3, padding="same", padding_mode="circular"))
    check_printed(seeded(case))


# ---- pooling -----------------------------------------------------------------------------

MAX_POOLS = [
    ("2", {}),
    ("(2, 3)", {}),
    ("3", {"stride": 2}),
    ("3", {"stride": 1, "padding": 1}),
    ("(3, 2)", {"stride": (2, 1), "padding": (1, 0)}),
    ("2", {"dilation": 2}),
    ("(3, 2)", {"dilation": (2, 3), "padding": 1, "stride": 2}),
    ("3", {"stride": 2, "ceil_mode": True}),
    ("2", {"stride": 3, "padding": 1, "ceil_mode": True}),
    ("3", {"stride": 2, "padding": 1, "ceil_mode": True, "dilation": 2}),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(2, 3, 9, 8), (3, 7, 7)])
@pytest.mark.parametrize("kernel_size, options", MAX_POOLS)
def test_max_pool2d(kernel_size, options, shape, dtype):
    def case(torch):
        pool = eval(f"torch.nn.MaxPool2d({kernel_size}, return_indices=True, **options)")
        x = torch.randn(shape, dtype=getattr(torch, dtype), requires_grad=True)
        out, indices = pool(x)
        _backward_through(torch, out, getattr(torch, dtype))
        return out, indices, x.grad, repr(pool)
    check(seeded(case), **TOLERANCES[dtype])


@pytest.mark.parametrize("kernel_size, options", MAX_POOLS[:6])
def test_max_pool2d_gives_ties_nan_and_minus_infinity_torchs_gradient(kernel_size, options):
    # Small integers tie often: the gradient goes to the element PyTorch's kernel picks (the
    # first largest of a window, the last NaN, the first inside the input when all are -inf).
    def case(torch):
        x = torch.randint(0, 3, (2, 2, 7, 8)).double()
        x[0, 0, :3, :3] = float("nan")
        x[0, 1, 2, 1:] = float("nan")
        x[1, 0] = float("-inf")
        x[1, 1, :, :4] = float("-inf")
        x.requires_grad_()
        out, indices = torch.nn.functional.max_pool2d(x, eval(kernel_size), **options,
                                                      return_indices=True)
        _backward_through(torch, out, torch.float64)
        return out, indices, x.grad
    check(seeded(case), **TOLERANCES["float64"])  # (overlapping windows: sums' last bits)


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "float16"])
def test_max_pool2d_of_other_dtypes(dtype):
    def case(torch):
        x = torch.randint(0, 50, (2, 3, 6, 6)).to(getattr(torch, dtype))
        return torch.nn.functional.max_pool2d(x, 3, stride=2, padding=1, return_indices=True)
    check(seeded(case))


AVG_POOLS = [
    ("2", {}),
    ("(2, 3)", {}),
    ("3", {"stride": 2}),
    ("3", {"stride": 1, "padding": 1}),
    ("3", {"stride": 1, "padding": 1, "count_include_pad": False}),
    ("(3, 2)", {"stride": (2, 1), "padding": (1, 1), "count_include_pad": False}),
    ("3", {"stride": 2, "ceil_mode": True}),
    ("3", {"stride": 2, "padding": 1, "ceil_mode": True}),
    ("3", {"stride": 2, "padding": 1, "ceil_mode": True, "count_include_pad": False}),
    ("2", {"divisor_override": 3}),
    ("3", {"stride": 2, "padding": 1, "ceil_mode": True, "divisor_override": 2}),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(2, 3, 9, 8), (3, 7, 7)])
@pytest.mark.parametrize("kernel_size, options", AVG_POOLS)
def test_avg_pool2d(kernel_size, options, shape, dtype):
    def case(torch):
        pool = eval(f"torch.nn.AvgPool2d({kernel_size}, **options)")
        x = torch.randn(shape, dtype=getattr(torch, dtype), requires_grad=True)
        out = pool(x)
        _backward_through(torch, out, getattr(torch, dtype))
        return out, x.grad, repr(pool)
    check(seeded(case), **TOLERANCES[dtype])


def test_avg_pool2d_of_long_integers_divides_toward_zero():
    def case(torch):
        x = torch.arange(-40, 41).view(1, 1, 9, 9) * 3
        return (torch.nn.functional.avg_pool2d(x, 3, padding=1, stride=1),
                torch.nn.functional.avg_pool2d(x, 2, ceil_mode=True, count_include_pad=False))
    check(case)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(2, 3, 8, 6), (3, 7, 5)])
@pytest.mark.parametrize("output_size", ["1", "(1, 1)", "2", "(4, 3)", "(3, 4)", "(None, 3)",
                                         "(8, 6)", "(5, 7)", "(1, 2)"])
def test_adaptive_avg_pool2d(output_size, shape, dtype):
    def case(torch):
        pool = eval(f"torch.nn.AdaptiveAvgPool2d({output_size})")
        x = torch.randn(shape, dtype=getattr(torch, dtype), requires_grad=True)
        out = pool(x)
        _backward_through(torch, out, getattr(torch, dtype))
        return out, graph(out), x.grad, repr(pool)
    check(seeded(case), **TOLERANCES[dtype])


POOLING_MISUSES = [
    "F.max_pool2d(x[0, 0], 2)",
    "F.max_pool2d(torch.randn(1, 2, 3, 8, 8), 2)",
    "F.max_pool2d(x, 3, padding=2)",
    "F.max_pool2d(x, (3, 2), padding=(1, 2))",
    "F.max_pool2d(x, 3, padding=(1, 2), dilation=(1, 2))",
    "F.max_pool2d(x, 0)",
    "F.max_pool2d(x, 0, stride=1)",
    "F.max_pool2d(x, -1, stride=1)",
    "F.max_pool2d(x, 2, stride=-1)",
    "F.max_pool2d(x, 2, padding=-1)",
    "F.max_pool2d(x, 2, dilation=0)",
    "F.max_pool2d(x, 9)",
    "F.max_pool2d(x, (2, 2, 2))",
    "F.max_pool2d(x, 2, stride=(1, 1, 1))",
    "F.max_pool2d(x, 2, padding=(1, 1, 1))",
    "F.max_pool2d(x, 2, dilation=(1, 1, 1))",
    "F.max_pool2d(torch.randn(2, 3, 0, 8), 2)",
    "F.max_pool2d(torch.randn(2, 0, 8, 8), 2)",
    "F.max_pool2d(x > 0, 2)",
    "F.max_pool2d(x > 0, 9)",
    "F.avg_pool2d(x[0, 0], 2)",
    "F.avg_pool2d(torch.randn(1, 2, 3, 8, 8), 2)",
    "F.avg_pool2d(x, 3, padding=2)",
    "F.avg_pool2d(x, 0, stride=1)",
    "F.avg_pool2d(x, 2, stride=0)",
    "F.avg_pool2d(x, 2, padding=-1)",
    "F.avg_pool2d(x, 9)",
    "F.avg_pool2d(x, 2, divisor_override=0)",
    "F.avg_pool2d(x, (2, 2, 2))",
    "F.avg_pool2d(x, 2, stride=(1, 1, 1))",
    "F.avg_pool2d(x.int(), 2)",
    "F.avg_pool2d(torch.randn(2, 3, 0, 8), 2)",
    "F.adaptive_avg_pool2d(x[0, 0], 2)",
    "F.adaptive_avg_pool2d(torch.randn(1, 2, 3, 8, 8), 2)",
    "F.adaptive_avg_pool2d(x, (2, 2, 2))",
    "F.adaptive_avg_pool2d(x, -1)",
    "F.adaptive_avg_pool2d(x, (2, -1))",
    "F.adaptive_avg_pool2d(torch.randn(2, 3, 0, 8), 2)",
    "F.adaptive_avg_pool2d(x.long(), 2)",
]


@pytest.mark.parametrize("misuse", POOLING_MISUSES)
def test_pooling_misuse_raises_torchs_error(misuse):
    assert_same_error(lambda torch: eval(misuse, {"torch": torch, "F": torch.nn.functional,
                                                  "x": torch.randn(2, 3, 8, 8)}))


def test_pooling_layers_print_as_torchs():
    def case(torch):
        nn = torch.nn
        print(nn.MaxPool2d(2, 2), nn.MaxPool2d(3), nn.MaxPool2d((2, 3), 1, 1, 2, True, True))
        print(nn.AvgPool2d(2), nn.AvgPool2d(3, 2, 1, True, False, 2))
        print(nn.AdaptiveAvgPool2d((5, 7)), nn.AdaptiveAvgPool2d(1),
              nn.AdaptiveAvgPool2d((None, 2)))
    check_printed(case)


# ---- the CIFAR-10 tutorial ---------------------------------------------------------------


def _tutorial_net(torch):
    """The network of PyTorch's "Training a Classifier" tutorial."""
    nn, F = torch.nn, torch.nn.functional

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 6, 5)
            self.pool = nn.MaxPool2d(2, 2)
            self.conv2 = nn.Conv2d(6, 16, 5)
            self.fc1 = nn.Linear(16 * 5 * 5, 120)
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, 10)

        def forward(self, x):
            x = self.pool(F.relu(self.conv1(x)))
            x = self.pool(F.relu(self.conv2(x)))
            x = torch.flatten(x, 1)  # (older versions of the tutorial: x.view(-1, 16 * 5 * 5))
            x = F.relu(self.fc1(x))
            x = F.relu(self.fc2(x))
            return self.fc3(x)
    return Net()


def test_the_cifar_tutorials_network_trains_as_torchs():
    def case(torch):
        net = _tutorial_net(torch)
        print(net)
        criterion = torch.nn.CrossEntropyLoss()
        optimizer = torch.optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
        for step in range(3):
            inputs, labels = torch.randn(4, 3, 32, 32), torch.randint(0, 10, (4,))
            optimizer.zero_grad()
            outputs = net(inputs)
            loss = criterion(outputs, labels)
            loss.backward()
            optimizer.step()
            _, predicted = torch.max(outputs, 1)
            print(f"[{step + 1}] loss: {loss.item():.3f}", predicted.shape)
        with torch.no_grad():
            outputs = net(torch.randn(4, 3, 32, 32))
        print(outputs.argmax(1).shape, net.pool(torch.ones(1, 1, 4, 4)).view(-1, 4).shape)
    check_printed(seeded(case))


def test_the_cifar_tutorials_gradients_are_torchs():
    def case(torch):
        net = _tutorial_net(torch)
        loss = torch.nn.CrossEntropyLoss()(net(torch.randn(4, 3, 32, 32)),
                                           torch.tensor([1, 0, 9, 3]))
        loss.backward()
        return loss, gradients(net)
    check(seeded(case), **TOLERANCES["float32"])
