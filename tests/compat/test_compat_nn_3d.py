"""compat.nn's 3-d convolution, pooling and channel dropout against torch 2.13: after the
same seed, the same weights and masks; on the same inputs, the same outputs (with PyTorch's
grad_fn names), indices, gradients, printed reprs and error texts, over grids of shapes,
strides, paddings, dilations and groups in float32 and float64; and a small 3-d CNN trained
a few SGD steps."""
import warnings

import pytest

from compat_harness import assert_same_error, check, check_printed, gradients, graph, seeded

# float32 sums over up to a few hundred products differ from PyTorch's in the last bits.
TOLERANCES = {"float32": {"rtol": 1e-4, "atol": 1e-5}, "float64": {"rtol": 1e-10, "atol": 1e-12}}


def _backward_through(torch, out, dtype):
    """Backward from `out` weighted by a draw (so that each output element counts)."""
    (out * torch.randn(out.shape, dtype=dtype)).sum().backward()


def _misuse(misuse, x, **names):
    """`misuse` raises the same error under both libraries, with x and `names` bound."""
    assert_same_error(lambda torch: eval(misuse, {"torch": torch, "F": torch.nn.functional,
                                                  "x": eval(x, {"torch": torch}),
                                                  **{name: eval(value, {"torch": torch})
                                                     for name, value in names.items()}}))


# ---- convolution -------------------------------------------------------------------------

# (input shape, out_channels, kernel_size, options)
CONVOLUTIONS = [
    ((2, 3, 5, 6, 4), 4, 3, {}),
    ((1, 2, 4, 5, 6), 3, (2, 3, 1), {}),
    ((2, 2, 7, 6, 5), 3, 3, {"stride": 2}),
    ((1, 2, 7, 5, 6), 2, (3, 2, 2), {"stride": (3, 1, 2)}),
    ((1, 3, 4, 4, 5), 2, 3, {"padding": 1}),
    ((2, 2, 4, 5, 3), 3, (3, 1, 2), {"padding": (1, 0, 2)}),
    ((1, 2, 7, 7, 6), 2, 3, {"dilation": 2}),
    ((1, 2, 8, 6, 7), 3, (2, 3, 2), {"dilation": (3, 1, 2), "padding": (1, 2, 0),
                                     "stride": (2, 1, 2)}),
    ((2, 4, 4, 4, 4), 6, 3, {"groups": 2}),
    ((1, 4, 4, 5, 4), 4, 3, {"groups": 4, "padding": 1}),
    ((1, 6, 5, 5, 5), 3, 2, {"groups": 3, "stride": 2, "bias": False}),
    ((2, 3, 4, 5, 3), 2, 3, {"padding": "same"}),
    ((1, 3, 5, 4, 6), 2, (2, 3, 4), {"padding": "same", "dilation": (1, 2, 3)}),
    ((2, 3, 4, 5, 3), 2, 3, {"padding": "valid"}),
    ((3, 5, 4, 6), 2, 3, {"padding": 1}),  # unbatched
    ((0, 3, 4, 4, 4), 2, 3, {}),
    ((2, 3, 4, 5, 3), 2, 1, {}),
    ((2, 3, 4, 5, 3), 4, 3, {"padding": 1, "padding_mode": "reflect"}),
    ((1, 2, 5, 4, 6), 2, (3, 2, 2), {"padding": (2, 1, 0), "padding_mode": "replicate",
                                     "stride": 2}),
    ((1, 4, 4, 5, 4), 4, 3, {"padding": (1, 3, 2), "padding_mode": "circular", "groups": 2}),
    ((2, 3, 4, 5, 5), 2, (2, 2, 4), {"padding": "same", "padding_mode": "reflect"}),
    ((1, 3, 5, 6, 5), 2, 3, {"padding": "same", "padding_mode": "circular", "dilation": 2}),
    ((3, 4, 5, 4), 2, 3, {"padding": 2, "padding_mode": "replicate"}),  # unbatched
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape, out_channels, kernel_size, options", CONVOLUTIONS)
def test_conv3d(shape, out_channels, kernel_size, options, dtype):
    def case(torch):
        layer = torch.nn.Conv3d(shape[-4], out_channels, kernel_size,
                                dtype=getattr(torch, dtype), **options)
        x = torch.randn(shape, dtype=getattr(torch, dtype), requires_grad=True)
        out = layer(x)
        _backward_through(torch, out, getattr(torch, dtype))
        return out, graph(out), x.grad, gradients(layer), repr(layer)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # padding='same' with an even kernel warns, once
        check(seeded(case), **TOLERANCES[dtype])


def test_functional_3d_convolutions_of_integers_and_without_grad():
    def case(torch):
        F = torch.nn.functional
        x, w = torch.randn(2, 4, 5, 5, 5), torch.randn(4, 2, 3, 3, 3)
        integers = torch.randint(-3, 4, (1, 2, 4, 4, 4)), torch.randint(-3, 4, (3, 2, 2, 2, 2))
        return (F.conv3d(x, w, torch.randn(4), 2, 1, 1, 2), F.conv3d(*integers),
                F.conv3d(x[0], w, stride=[2], groups=2), F.conv3d(x, w, groups=2, padding=(1,)),
                F.conv_transpose3d(x, w, torch.randn(2), 2, 1, 1),
                F.conv_transpose3d(integers[0], integers[1].transpose(0, 1), stride=2),
                F.conv_transpose3d(x.double(), w.double(), torch.randn(2).double()))
    check(seeded(case), **TOLERANCES["float32"])


CONVOLUTION_MISUSES = [
    "torch.nn.Conv3d(4, 6, 3)(x)",
    "torch.nn.Conv3d(3, 6, 3)(x[0, 0])",
    "torch.nn.Conv3d(3, 6, 3)(x[None])",
    "torch.nn.Conv3d(3, 6, 7)(x)",
    "torch.nn.Conv3d(3, 6, 3, dilation=(1, 3, 1))(x)",
    "torch.nn.Conv3d(3, 6, 3)(x.double())",
    "torch.nn.Conv3d(3, 6, 3, groups=2)",
    "torch.nn.Conv3d(3, 6, 3, padding='same', stride=2)",
    "torch.nn.Conv3d(3, 6, 3, padding=6, padding_mode='reflect')(x)",
    "torch.nn.Conv3d(3, 6, 3, padding=1, padding_mode='replicate')(x > 0)",
    "F.conv3d(x, w, stride=0)",
    "F.conv3d(x, w, padding=-1)",
    "F.conv3d(x, w, dilation=0)",
    "F.conv3d(x, w, dilation=(1, 0, 1))",
    "F.conv3d(x.double(), w.double(), dilation=(1, 0, 1))",
    "F.conv3d(x.long(), w.long(), dilation=0)",
    "F.conv3d(x > 0, w > 0, dilation=(1, 0, 1))",
    "F.conv3d(x, w, dilation=-1)",
    "F.conv3d(x, w, groups=0)",
    "F.conv3d(x, w, groups=2)",
    "F.conv3d(x, torch.randn(5, 1, 3, 3, 3), groups=3)",
    "F.conv3d(x, w[:, :, 0])",
    "F.conv3d(x, w[None])",
    "F.conv3d(x, w, torch.randn(5))",
    "F.conv3d(x, w, w[:, 0, 0, 0])",
    "F.conv3d(x, w.double())",
    "F.conv3d(x, w, torch.randn(6).double())",
    "F.conv3d(x.double(), w)",
    "F.conv3d(x, w, padding='same', stride=2)",
    "F.conv3d(x, w, padding='bad')",
    "F.conv3d(x, w, stride=(1, 1))",
    "F.conv3d(x, w, padding=(1, 1, 1, 1))",
    "F.conv3d(x[:, :, :0], w)",
    "F.conv3d(x > 0, w > 0)",
    "F.conv3d(x > 0, w > 0, stride=2)",
    "F.conv3d(x > 0, w > 0, dilation=2)",
    "F.conv3d(x.long(), w.long(), torch.randn(6).long(), dilation=0)",
]


@pytest.mark.parametrize("misuse", CONVOLUTION_MISUSES)
def test_conv3d_misuse_raises_torchs_error(misuse):
    _misuse(misuse, "torch.randn(2, 3, 6, 5, 6)", w="torch.randn(6, 3, 3, 3, 3)")


# ---- transposed convolution --------------------------------------------------------------

TRANSPOSED = [
    ((2, 3, 4, 3, 4), 4, 3, {}),
    ((1, 3, 3, 4, 2), 2, (2, 3, 1), {}),
    ((2, 2, 3, 3, 3), 3, 4, {"stride": 2, "padding": 1}),
    ((1, 2, 3, 2, 3), 3, (3, 2, 2), {"stride": (3, 1, 2), "output_padding": (2, 0, 1)}),
    ((1, 3, 3, 3, 3), 2, 3, {"stride": 2, "padding": 1, "output_padding": 1}),
    ((1, 2, 3, 4, 3), 4, (3, 5, 1), {"padding": (2, 0, 0)}),
    ((1, 2, 4, 4, 4), 3, 3, {"padding": 3}),  # the padding crops the output to 1 x 1 x 1
    ((1, 2, 3, 3, 3), 3, 3, {"dilation": 2, "output_padding": 1}),
    ((1, 2, 3, 4, 3), 3, (2, 3, 2), {"dilation": (3, 2, 1), "padding": (1, 2, 0),
                                     "stride": (2, 3, 2), "output_padding": (1, 2, 1)}),
    ((2, 4, 2, 3, 2), 6, 3, {"groups": 2, "stride": 2}),
    ((1, 6, 3, 2, 3), 3, 2, {"groups": 3, "stride": 2, "bias": False}),
    ((3, 3, 4, 3), 2, 3, {"stride": 2, "padding": 1}),  # unbatched
    ((0, 3, 3, 3, 3), 2, 3, {}),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape, out_channels, kernel_size, options", TRANSPOSED)
def test_conv_transpose3d(shape, out_channels, kernel_size, options, dtype):
    def case(torch):
        layer = torch.nn.ConvTranspose3d(shape[-4], out_channels, kernel_size,
                                         dtype=getattr(torch, dtype), **options)
        x = torch.randn(shape, dtype=getattr(torch, dtype), requires_grad=True)
        out = layer(x)
        _backward_through(torch, out, getattr(torch, dtype))
        return out, graph(out), x.grad, gradients(layer), repr(layer)
    check(seeded(case), **TOLERANCES[dtype])


@pytest.mark.parametrize("output_size", ["(9, 7, 8)", "[10, 8, 9]", "[2, 4, 9, 8, 8]",
                                         "torch.Size([10, 7, 9])"])
def test_conv_transpose3d_forward_with_an_output_size(output_size):
    def case(torch):
        layer = torch.nn.ConvTranspose3d(3, 4, 3, stride=2)
        x = torch.randn(2, 3, 4, 3, 3, requires_grad=True)
        out = layer(x, output_size=eval(output_size))
        _backward_through(torch, out, torch.float32)
        return out, x.grad, layer(x[0], eval(output_size)[-3:])
    check(seeded(case), **TOLERANCES["float32"])


TRANSPOSED_MISUSES = [
    "F.conv_transpose3d(x, w, stride=2, output_padding=2)",
    "F.conv_transpose3d(x, w, output_padding=1)",
    "F.conv_transpose3d(x, w, output_padding=(0, 0, 1), dilation=(1, 1, 2), padding=7)",
    "F.conv_transpose3d(x, w, stride=2, output_padding=(2, 0, 0))",
    "F.conv_transpose3d(x, w, output_padding=-1, stride=0)",
    "F.conv_transpose3d(x, w, stride=(1, 1))",
    "F.conv_transpose3d(x, w, padding='same')",
    "F.conv_transpose3d(x, w.float())",
    "F.conv_transpose3d(x, w[0])",
    "F.conv_transpose3d(x, w, torch.randn(3).double())",
    "F.conv_transpose3d(x, w, torch.randn(4))",
    "F.conv_transpose3d(x, w, groups=2)",
    "F.conv_transpose3d(x, w, groups=0)",
    "F.conv_transpose3d(x, w[:0])",
    "F.conv_transpose3d(x, w[:, :0])",
    "F.conv_transpose3d(x, w[:, :, :0])",
    "F.conv_transpose3d(x, w[:, :, :0], padding=4)",
    "F.conv_transpose3d(x, w[:, :, :0], dilation=0)",
    "F.conv_transpose3d(x, w, padding=-1)",
    "F.conv_transpose3d(x, w, stride=-1)",
    "F.conv_transpose3d(x, w, dilation=-1)",
    "F.conv_transpose3d(x, w, dilation=0)",
    "F.conv_transpose3d(x, w, dilation=(1, 0, 1), output_padding=(0, 0, 1))",
    "F.conv_transpose3d(x, w, padding=4)",
    "F.conv_transpose3d(x[:, :, :0], w)",
    "F.conv_transpose3d(x[0, 0], w)",
    "F.conv_transpose3d(x.float(), w)",
    "F.conv_transpose3d(x.float(), w.float(), torch.randn(4).long())",
    "F.conv_transpose3d(x.long(), w)",
    "F.conv_transpose3d(x > 0, w > 0)",
    "torch.nn.ConvTranspose3d(3, 4, 3, padding_mode='reflect')",
    "torch.nn.ConvTranspose3d(3, 4, 3, groups=2)",
    "torch.nn.ConvTranspose3d(3, 4, 3, stride=2)(x.float(), output_size=(8, 12, 12))",
    "torch.nn.ConvTranspose3d(3, 4, 3, stride=2)(x.float(), output_size=[4, 11, 11, 11])",
    "torch.nn.ConvTranspose3d(3, 4, 3, stride=2)(x[0].float(), output_size=[2, 4, 11, 11, 11])",
]


@pytest.mark.parametrize("misuse", TRANSPOSED_MISUSES)
def test_conv_transpose3d_misuse_raises_torchs_error(misuse):
    # In float64: PyTorch's float32 kernel (oneDNN) words some errors its own way.
    _misuse(misuse, "torch.randn(2, 3, 5, 5, 5).double()", w="torch.randn(3, 4, 3, 3, 3).double()")


def test_3d_convolution_layers_print_as_torchs():
    def case(torch):
        nn = torch.nn
        print(nn.Conv3d(3, 6, 5), nn.Conv3d(3, 6, (3, 1, 2), padding="same"))
        print(nn.Conv3d(3, 6, (3, 5, 1), stride=2, padding=1, dilation=2, groups=3, bias=False))
        print(nn.Conv3d(3, 6, 3, padding=(1, 0, 1), padding_mode="circular"),
              nn.Conv3d(3, 6, 3, padding="valid"))
        print(nn.ConvTranspose3d(3, 4, 3), nn.ConvTranspose3d(3, 6, (3, 2, 1), stride=2,
                                                              padding=1, output_padding=1,
                                                              groups=3, bias=False, dilation=2))
    check_printed(seeded(case))


# ---- max pooling -------------------------------------------------------------------------

MAX_POOLS = [
    ("2", {}),
    ("(2, 3, 1)", {}),
    ("3", {"stride": 2}),
    ("3", {"stride": 1, "padding": 1}),
    ("(3, 2, 3)", {"stride": (2, 1, 2), "padding": (1, 0, 1)}),
    ("2", {"dilation": 2}),
    ("(3, 2, 2)", {"dilation": (2, 1, 3), "padding": 1, "stride": 2}),
    ("3", {"stride": 2, "ceil_mode": True}),
    ("2", {"stride": 3, "padding": 1, "ceil_mode": True}),
    ("3", {"stride": 2, "padding": 1, "ceil_mode": True, "dilation": 2}),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(2, 3, 7, 6, 7), (3, 6, 7, 5)])
@pytest.mark.parametrize("kernel_size, options", MAX_POOLS)
def test_max_pool3d(kernel_size, options, shape, dtype):
    def case(torch):
        pool = eval(f"torch.nn.MaxPool3d({kernel_size}, return_indices=True, **options)")
        x = torch.randn(shape, dtype=getattr(torch, dtype), requires_grad=True)
        out, indices = pool(x)
        _backward_through(torch, out, getattr(torch, dtype))
        return out, graph(out), indices, x.grad, repr(pool)
    check(seeded(case), **TOLERANCES[dtype])


@pytest.mark.parametrize("kernel_size, options", MAX_POOLS)
def test_max_pool3d_gives_ties_nan_and_minus_infinity_torchs_gradient(kernel_size, options):
    # Small integers tie often: the gradient goes to the element PyTorch's kernel picks (the
    # first largest of a window, the last NaN, the first inside the input when all are -inf).
    def case(torch):
        x = torch.randint(0, 3, (2, 2, 6, 7, 6)).double()
        x[0, 0, :3, :3, :2] = float("nan")
        x[0, 1, 2, 1:, 3] = float("nan")
        x[1, 0] = float("-inf")
        x[1, 1, :, :4, 1:] = float("-inf")
        x.requires_grad_()
        out, indices = torch.nn.functional.max_pool3d(x, eval(kernel_size), **options,
                                                      return_indices=True)
        _backward_through(torch, out, torch.float64)
        return out, indices, x.grad
    check(seeded(case), **TOLERANCES["float64"])


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "float16"])
def test_max_pool3d_of_other_dtypes(dtype):
    def case(torch):
        x = torch.randint(0, 50, (2, 3, 5, 6, 5)).to(getattr(torch, dtype))
        return torch.nn.functional.max_pool3d(x, 3, stride=2, padding=1, return_indices=True)
    check(seeded(case))


# ---- average pooling ---------------------------------------------------------------------

AVG_POOLS = [
    ("2", {}),
    ("(2, 3, 1)", {}),
    ("3", {"stride": 2}),
    ("3", {"stride": 1, "padding": 1}),
    ("3", {"stride": 1, "padding": 1, "count_include_pad": False}),
    ("(3, 2, 3)", {"stride": (2, 1, 2), "padding": (1, 1, 0), "count_include_pad": False}),
    ("3", {"stride": 2, "ceil_mode": True}),
    ("3", {"stride": 2, "padding": 1, "ceil_mode": True}),
    ("3", {"stride": 2, "padding": 1, "ceil_mode": True, "count_include_pad": False}),
    ("2", {"divisor_override": 3}),
    ("3", {"stride": 2, "padding": 1, "ceil_mode": True, "divisor_override": 2}),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(2, 3, 7, 6, 7), (3, 6, 7, 5)])
@pytest.mark.parametrize("kernel_size, options", AVG_POOLS)
def test_avg_pool3d(kernel_size, options, shape, dtype):
    def case(torch):
        pool = eval(f"torch.nn.AvgPool3d({kernel_size}, **options)")
        x = torch.randn(shape, dtype=getattr(torch, dtype), requires_grad=True)
        out = pool(x)
        _backward_through(torch, out, getattr(torch, dtype))
        return out, graph(out), x.grad, repr(pool)
    check(seeded(case), **TOLERANCES[dtype])


def test_avg_pool3d_of_long_integers_divides_toward_zero():
    def case(torch):
        x = torch.arange(-62, 63).view(1, 1, 5, 5, 5) * 3
        return (torch.nn.functional.avg_pool3d(x, 3, padding=1, stride=1),
                torch.nn.functional.avg_pool3d(x, 2, ceil_mode=True, count_include_pad=False),
                torch.nn.functional.avg_pool3d(x[0], 2, divisor_override=-3))
    check(case)


# ---- adaptive pooling --------------------------------------------------------------------

ADAPTIVE_SIZES = ["1", "(1, 1, 1)", "2", "(4, 3, 2)", "(2, 5, 3)", "(None, 3, None)",
                  "(6, 5, 7)", "(5, 7, 8)", "(1, 2, 1)"]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(2, 3, 6, 5, 7), (3, 7, 4, 5)])
@pytest.mark.parametrize("output_size", ADAPTIVE_SIZES)
def test_adaptive_avg_pool3d(output_size, shape, dtype):
    def case(torch):
        pool = eval(f"torch.nn.AdaptiveAvgPool3d({output_size})")
        x = torch.randn(shape, dtype=getattr(torch, dtype), requires_grad=True)
        out = pool(x)
        _backward_through(torch, out, getattr(torch, dtype))
        return out, graph(out), x.grad, repr(pool)
    check(seeded(case), **TOLERANCES[dtype])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(2, 3, 6, 5, 7), (3, 7, 4, 5)])
@pytest.mark.parametrize("output_size", ADAPTIVE_SIZES)
def test_adaptive_max_pool3d(output_size, shape, dtype):
    def case(torch):
        pool = eval(f"torch.nn.AdaptiveMaxPool3d({output_size}, return_indices=True)")
        x = torch.randn(shape, dtype=getattr(torch, dtype), requires_grad=True)
        out, indices = pool(x)
        _backward_through(torch, out, getattr(torch, dtype))
        return out, graph(out), indices, x.grad, repr(pool)
    check(seeded(case), **TOLERANCES[dtype])


@pytest.mark.parametrize("output_size", [(3, 4, 2), (2, 2, 2), (1, 3, 5)])
def test_adaptive_max_pool3d_gives_ties_and_nan_torchs_gradient(output_size):
    def case(torch):
        x = torch.randint(0, 3, (2, 3, 5, 7, 6)).double()
        x[0, 0, :3, :3, :2] = float("nan")
        x[1, 2, 2, 1:, 3:] = float("nan")
        x[1, 1, 3:] = float("-inf")
        x.requires_grad_()
        out, indices = torch.nn.functional.adaptive_max_pool3d(x, output_size,
                                                               return_indices=True)
        _backward_through(torch, out, torch.float64)
        return out, indices, x.grad
    check(seeded(case), **TOLERANCES["float64"])


def test_adaptive_pools_to_an_empty_output():
    # (PyTorch's backward refuses an empty output: only the forward is compared.)
    def case(torch):
        F = torch.nn.functional
        x = torch.randn(2, 3, 5, 6, 4, requires_grad=True)
        return (F.adaptive_avg_pool3d(x, (0, 2, 2)), F.adaptive_max_pool3d(x, 0, True),
                F.adaptive_avg_pool2d(x[0], (2, 0)), F.adaptive_max_pool2d(x[0], (0, 3), True))
    check(seeded(case))


def test_adaptive_pools_of_half_precision():
    def case(torch):
        x = torch.randn(2, 3, 5, 6, 4).half()
        return (torch.nn.functional.adaptive_avg_pool3d(x, (2, 3, 3)),
                torch.nn.functional.adaptive_max_pool3d(x, 3, return_indices=True))
    check(seeded(case), rtol=1e-3, atol=1e-3)


POOLING_MISUSES = [
    "F.max_pool3d(x[0, 0], 2)",
    "F.max_pool3d(x[None], 2)",
    "F.max_pool3d(x, (2, 2))",
    "F.max_pool3d(x, 2, stride=(1, 1))",
    "F.max_pool3d(x, 2, padding=(1, 1))",
    "F.max_pool3d(x, 2, dilation=(1, 1))",
    "F.max_pool3d(x, 0)",
    "F.max_pool3d(x, 0, stride=1)",
    "F.max_pool3d(x, -1, stride=1)",
    "F.max_pool3d(x, 2, stride=-1)",
    "F.max_pool3d(x, 2, stride=-1, dilation=0)",
    "F.max_pool3d(x, 2, padding=-1)",
    "F.max_pool3d(x, 3, padding=2)",
    "F.max_pool3d(x, 3, padding=(1, 2, 1))",
    "F.max_pool3d(x, 3, padding=(1, 2, 1), dilation=2)",
    "F.max_pool3d(x, 2, dilation=0)",
    "F.max_pool3d(x, 1, padding=1)",
    "F.max_pool3d(x, 7)",
    "F.max_pool3d(x, (7, 1, 1))",
    "F.max_pool3d(torch.randn(2, 3, 0, 6, 6), 2)",
    "F.max_pool3d(torch.randn(2, 0, 6, 6, 6), 2)",
    "F.max_pool3d(torch.randn(0, 6, 6, 6), 2)",
    "F.max_pool3d(torch.randn(2, 3, 6, 0, 6), 0, stride=1)",
    "F.max_pool3d(x > 0, 2)",
    "F.max_pool3d(x > 0, 7)",
    "F.avg_pool3d(x[0, 0], 2)",
    "F.avg_pool3d(x[0, 0], 2, divisor_override=0)",
    "F.avg_pool3d(x, (2, 2))",
    "F.avg_pool3d(x, 2, stride=(1, 1))",
    "F.avg_pool3d(x, 2, padding=(1, 1), divisor_override=0)",
    "F.avg_pool3d(x, 0)",
    "F.avg_pool3d(x, 0, stride=1)",
    "F.avg_pool3d(x, 2, stride=0, padding=-1)",
    "F.avg_pool3d(x, 2, stride=-1)",
    "F.avg_pool3d(x, 2, padding=-1)",
    "F.avg_pool3d(x, 3, padding=(1, 1, 2))",
    "F.avg_pool3d(x, 7)",
    "F.avg_pool3d(x, 7, padding=1)",
    "F.avg_pool3d(x, 7, divisor_override=0)",
    "F.avg_pool3d(torch.randn(2, 3, 6, 0, 6), 7)",
    "F.avg_pool3d(torch.randn(0, 6, 6, 6), 2)",
    "F.avg_pool3d(x > 0, 2)",
    "F.avg_pool3d(x > 0, 7)",
    "F.avg_pool3d(x.int(), 2)",
    "F.avg_pool3d(x.half(), 2)",
    "F.adaptive_avg_pool3d(x[0, 0], 2)",
    "F.adaptive_avg_pool3d(x[0, 0], (2, 2, 2))",
    "F.adaptive_avg_pool3d(x[0, 0, 0], 1)",
    "F.adaptive_avg_pool3d(x[None], 2)",
    "F.adaptive_avg_pool3d(x, (2, 2))",
    "F.adaptive_avg_pool3d(x, -1)",
    "F.adaptive_avg_pool3d(x, (2, -1, 2))",
    "F.adaptive_avg_pool3d(x[0, 0], -1)",
    "F.adaptive_avg_pool3d(torch.randn(2, 3, 0, 6, 6), 2)",
    "F.adaptive_avg_pool3d(torch.randn(2, 0, 6, 6, 6), 2)",
    "F.adaptive_avg_pool3d(x.long(), 1)",
    "F.adaptive_avg_pool3d(x.long(), 2)",
    "F.adaptive_avg_pool3d(x > 0, 2)",
    "F.adaptive_max_pool3d(x[0, 0], 2)",
    "F.adaptive_max_pool3d(x[0, 0], (2, 2, 2))",
    "F.adaptive_max_pool3d(x[None], 2)",
    "F.adaptive_max_pool3d(x, (2, 2))",
    "F.adaptive_max_pool3d(x, (None, 2))",
    "F.adaptive_max_pool3d(x, -1)",
    "F.adaptive_max_pool3d(x, (2, -1, 2))",
    "F.adaptive_max_pool3d(torch.randn(2, 3, 0, 6, 6), -1)",
    "F.adaptive_max_pool3d(torch.randn(2, 0, 6, 6, 6), 2)",
    "F.adaptive_max_pool3d(x.long(), 2)",
    "F.adaptive_max_pool3d(x > 0, 2)",
]


@pytest.mark.parametrize("misuse", POOLING_MISUSES)
def test_3d_pooling_misuse_raises_torchs_error(misuse):
    _misuse(misuse, "torch.randn(2, 3, 6, 6, 6)")


def test_3d_pooling_layers_print_as_torchs():
    def case(torch):
        nn = torch.nn
        print(nn.MaxPool3d(2, 2), nn.MaxPool3d(3), nn.MaxPool3d((2, 3, 1), 1, 1, 2, True, True))
        print(nn.AvgPool3d(2), nn.AvgPool3d((3, 2, 1), 2, 1, True, False, 2))
        print(nn.AdaptiveAvgPool3d((5, 7, 2)), nn.AdaptiveAvgPool3d(1),
              nn.AdaptiveMaxPool3d((None, 2, 3)), nn.AdaptiveMaxPool3d(2, True))
    check_printed(case)


# ---- channel dropout ---------------------------------------------------------------------


@pytest.mark.parametrize("misuse", ["torch.nn.Dropout3d(1.5)", "torch.nn.Dropout3d(-0.1)",
                                    "F.dropout3d(x, 2)", "F.dropout3d(x[0, 0, 0, 0, 0])",
                                    "F.dropout3d(x[0, 0, 0, 0, 0] * 1, inplace=True)"])
def test_dropout3d_misuse_raises_torchs_error(misuse):
    _misuse(misuse, "torch.randn(2, 3, 2, 2, 2)")


# ---- a small 3-d CNN ---------------------------------------------------------------------


def _volume_net(torch):
    """A small classifier of (1, 8, 8, 8) volumes, with each 3-d layer."""
    nn = torch.nn
    return nn.Sequential(
        nn.Conv3d(1, 4, 3, padding=1), nn.BatchNorm3d(4), nn.ReLU(), nn.MaxPool3d(2),
        nn.Conv3d(4, 6, 3, padding=1, padding_mode="replicate", groups=2), nn.ReLU(),
        nn.Dropout3d(0.25), nn.AvgPool3d(2, ceil_mode=True),
        nn.ConvTranspose3d(6, 4, 2, stride=2), nn.ReLU(), nn.AdaptiveMaxPool3d((2, 2, 1)),
        nn.AdaptiveAvgPool3d(1), nn.Flatten(), nn.Linear(4, 3))


def test_a_small_3d_cnn_trains_as_torchs():
    def case(torch):
        net = _volume_net(torch)
        print(net)
        optimizer = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
        losses = []
        for _ in range(4):
            x, labels = torch.randn(4, 1, 8, 8, 8), torch.randint(0, 3, (4,))
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(net(x), labels)
            loss.backward()
            optimizer.step()
            losses.append(loss)
        net.eval()
        return losses, list(net.named_parameters()), net.state_dict(), \
            net(torch.randn(2, 1, 8, 8, 8))
    check(seeded(case), **TOLERANCES["float32"])
    check_printed(seeded(lambda torch: print(_volume_net(torch))))


def _history(t):
    """The grad_fn names from t back to a leaf, following each node's last input."""
    names, fn = [], t.grad_fn
    while fn is not None:
        names.append(type(fn).__name__)
        fn = next((f for f, _ in reversed(fn.next_functions) if f is not None), None)
    return names


@pytest.mark.parametrize("shape", [(2, 6, 3, 4, 5), (2, 5, 4, 3), (3, 7, 4)])
def test_local_response_norm_follows_torchs_composition(shape):
    # (a 3-d input's channels pooled in a 2-d image, any other's in a volume)
    def case(torch):
        x = torch.randn(shape, requires_grad=True)
        out = torch.nn.functional.local_response_norm(x * 1, 4, alpha=0.1, k=2.0)
        _backward_through(torch, out, torch.float32)
        return out, x.grad, _history(out)
    check(seeded(case), **TOLERANCES["float32"])
