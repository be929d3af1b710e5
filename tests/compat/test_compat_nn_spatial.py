"""compat.nn's padding, transposed convolutions, image normalisation and the other layers of
PyTorch's image tutorials, against torch 2.13: the same outputs (with PyTorch's grad_fn
names), gradients, seeded parameters, printed reprs and error texts; and a DCGAN trained a
few steps."""
import warnings

import pytest

from compat_harness import assert_same_error, check, check_printed, run_both, seeded

TOLERANCES = {"float32": {"rtol": 1e-4, "atol": 1e-5}, "float64": {"rtol": 1e-10, "atol": 1e-12}}


def _backward_through(torch, out, dtype):
    """Backward from `out` weighted by a draw (so that each output element counts)."""
    (out * torch.randn(out.shape, dtype=dtype)).sum().backward()


# ---- F.pad and the padding layers --------------------------------------------------------

# (input shape, pad, mode, value): widths from the last dimension forward; negative ones crop.
PADS = [
    ((2, 3, 5), (1, 2), "constant", None),
    ((2, 3, 4, 5), (1, 0, 2, 3), "constant", 1.5),
    ((2, 3, 4, 5), (-1, 2, 0, -2), "constant", -2.0),
    ((2, 3, 4, 5), (1, 1, 1, 1, 1, 0), "constant", None),
    ((4, 5), (-2, -3), "constant", None),
    ((3, 4), (), "constant", None),
    ((2, 3, 5), (2, 4), "reflect", None),
    ((3, 5), (1, 3), "reflect", None),
    ((2, 3, 5), (-1, 2), "reflect", None),
    ((2, 3, 5), (3, -2), "reflect", None),
    ((2, 2, 4, 5), (1, 2, 3, 0), "reflect", None),
    ((2, 4, 5), (-2, 4, 2, -1), "reflect", None),
    ((1, 2, 3, 4, 5), (1, 2, 2, 1, 1, 2), "reflect", 0.0),
    ((2, 3, 5), (4, 7), "replicate", None),
    ((2, 3, 5), (-3, 2), "replicate", None),
    ((2, 2, 4, 5), (2, 0, 5, 1), "replicate", None),
    ((2, 4, 5), (0, -4, 1, 1), "replicate", None),
    ((2, 3, 4, 5), (1, 1, 2, 2, 3, 3), "replicate", None),
    ((2, 3, 5), (5, 3), "circular", None),
    ((3, 5), (-1, 2), "circular", None),
    ((2, 3, 5), (2, -1), "circular", None),
    ((2, 2, 4, 5), (1, 2, 4, 3), "circular", None),
    ((2, 4, 5), (-2, -1, 2, 0), "circular", None),
    ((1, 2, 3, 4, 5), (2, 1, 1, 2, 3, 0), "circular", None),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape, pad, mode, value", PADS)
def test_pad(shape, pad, mode, value, dtype):
    def case(torch):
        x = torch.randn(shape, dtype=getattr(torch, dtype), requires_grad=True)
        out = torch.nn.functional.pad(x, pad, mode, value)
        _backward_through(torch, out, getattr(torch, dtype))
        return out, x.grad
    check(seeded(case), **TOLERANCES[dtype])


@pytest.mark.parametrize("dtype", ["int64", "int8", "uint8", "bool", "float16"])
@pytest.mark.parametrize("mode, value", [("constant", None), ("constant", 2.7),
                                         ("constant", -1.5), ("reflect", None),
                                         ("replicate", None), ("circular", None)])
def test_pad_of_other_dtypes_converts_the_value_as_torch(mode, value, dtype):
    def case(torch):
        x = torch.randint(0, 5, (2, 3, 4)).to(getattr(torch, dtype))
        return torch.nn.functional.pad(x, (2, 1), mode, value)
    check(seeded(case), messages=True)


PAD_MISUSES = [
    "F.pad(x, (1,))",
    "F.pad(x, (1,) * 10)",
    "F.pad(x[0, 0, 0, 0], (1, 1))",
    "F.pad(x, (1, 1), mode='bad')",
    "F.pad(x, (1,), mode='wrap')",
    "F.pad(x, (1, 1), mode=None)",
    "F.pad(1.0, (1, 1))",
    "F.pad(x, 1)",
    "F.pad(x, (1.5, 1))",
    "F.pad(x, torch.tensor([1, 1]))",
    "F.pad(x, (-3, -3))",
    "F.pad(x, (-6, 2))",
    "F.pad(x, (1, 1), value=1e40)",
    "F.pad(x.half(), (1, 1), value=1e6)",
    "F.pad(x.long(), (1, 1), value=float('nan'))",
    "F.pad(x.byte(), (1, 1), value=-1)",
    "F.pad(x.byte(), (1, 1), value=-0.5)",
    "F.pad(x, (1, 1, 1, 1), mode='reflect', value=2.0)",
    "F.pad(x, (1, 1), mode='reflect')",
    "F.pad(x, (), mode='replicate')",
    "F.pad(x[0, 0], (1, 1, 1, 1), mode='circular')",
    "F.pad(x, (1,) * 8, mode='reflect')",
    "F.pad(x[0], (5, 5), mode='reflect')",
    "F.pad(x, (5, 0, 0, 0), mode='reflect')",
    "F.pad(x, (0, 0, 0, 4), mode='reflect')",
    "F.pad(x, (6, 6, 4, 4), mode='reflect')",
    "F.pad(torch.randn(1, 2, 3, 4, 5), (0, 0, 0, 0, 3, 0), mode='reflect')",
    "F.pad(x[0], (-5, 0), mode='reflect')",
    "F.pad(x[0], (-3, -3), mode='replicate')",
    "F.pad(x, (-5, 0, -4, 0), mode='reflect')",
    "F.pad(x, (-5, 0, -4, 0), mode='replicate')",
    "F.pad(x, (-3, -3, 6, 6), mode='replicate')",
    "F.pad(torch.randn(1, 2, 3, 4, 5), (-3, -2, -2, -2, -2, -1), mode='reflect')",
    "F.pad(x[:, :, :0], (1, 1, 1, 1), mode='reflect')",
    "F.pad(x[0, :0], (1, 1, 1, 1), mode='replicate')",
    "F.pad(x[0] > 0, (1, 1), mode='reflect')",
    "F.pad(x > 0, (1, 1, 1, 1), mode='replicate')",
    "F.pad(x, (6, 0, 0, 0), mode='circular')",
    "F.pad(x, (0, 0, 1, 5), mode='circular')",
    "F.pad(x, (6, 6, -3, -3), mode='circular')",
    "F.pad(x, (-3, -3, 6, 6), mode='circular')",
    "F.pad(x[:, :, :, :0], (1, 1), mode='circular')",
    "torch.nn.CircularPad2d(1)(x[0, 0])",
    "torch.nn.CircularPad1d(1)(x)",
    "torch.nn.ReflectionPad2d(1)(x[0, 0])",
    "torch.nn.ReplicationPad1d((1, 2, 3))(x[0])",
]


@pytest.mark.parametrize("misuse", PAD_MISUSES)
def test_pad_misuse_raises_torchs_error(misuse):
    assert_same_error(lambda torch: eval(misuse, {"torch": torch, "F": torch.nn.functional,
                                                  "x": torch.randn(2, 3, 4, 5)}))


@pytest.mark.parametrize("pad", [(2, -5), (-2, 4)])
def test_circular_pad_that_would_wrap_the_cropped_part_twice_is_refused(pad):
    # PyTorch wraps what is left after cropping: here that is too short, and its result is
    # memory it never wrote (2, -5) or an error about overlapping copies (-2, 4).
    ours, _ = run_both(lambda torch: torch.nn.functional.pad(torch.arange(5.0).view(1, 1, 5),
                                                             pad, mode="circular"))
    assert ours.type == "RuntimeError" and "crop and pad in two calls" in ours.message


PADDING_LAYERS = ["ZeroPad1d(2)", "ZeroPad2d((1, 0, 2, 3))", "ZeroPad3d(1)",
                  "ConstantPad1d((1, 3), 2.5)", "ConstantPad2d(1, -1)",
                  "ConstantPad3d([1, 0, 0, 1, 1, 0], 0.5)", "ReflectionPad1d((2, 1))",
                  "ReflectionPad2d(1)", "ReflectionPad3d((1, 0, 1, 2, 0, 1))",
                  "ReplicationPad1d(3)", "ReplicationPad2d((2, 0, 1, 4))",
                  "ReplicationPad3d(2)", "CircularPad1d(2)", "CircularPad2d((1, 2, 0, 3))",
                  "CircularPad3d(1)"]


@pytest.mark.parametrize("layer", PADDING_LAYERS)
def test_padding_layers(layer):
    def case(torch):
        module = eval(f"torch.nn.{layer}")
        dims = int(layer.split("d(")[0][-1])
        x = torch.randn((2, 3, 4, 5, 3)[-dims - 2:], requires_grad=True)
        out = module(x)
        _backward_through(torch, out, torch.float32)
        return repr(module), module.padding, out, x.grad, module(x[0])
    check(seeded(case))


def test_padding_layers_print_as_torchs():
    def case(torch):
        nn = torch.nn
        print(nn.Sequential(nn.ReflectionPad2d(3), nn.Conv2d(3, 4, 7), nn.ZeroPad2d((1, 0, 1, 0)),
                            nn.ConstantPad1d(2, 3.5), nn.ReplicationPad1d([1, 2]),
                            nn.CircularPad2d(1)))
    check_printed(seeded(case))


# ---- transposed convolution --------------------------------------------------------------

# (input shape, out_channels, kernel_size, options)
TRANSPOSED_2D = [
    ((2, 3, 5, 5), 4, 3, {}),
    ((1, 3, 4, 6), 2, (2, 4), {}),
    ((2, 2, 4, 4), 3, 4, {"stride": 2, "padding": 1}),  # DCGAN's upsampling
    ((2, 2, 5, 3), 3, (3, 2), {"stride": (3, 1), "output_padding": (2, 0)}),
    ((1, 3, 4, 4), 2, 3, {"stride": 2, "padding": 1, "output_padding": 1}),
    ((2, 2, 4, 5), 4, (3, 5), {"padding": (2, 0)}),
    ((1, 2, 5, 5), 3, 3, {"padding": 3}),  # the padding crops the output to 1 x 1
    ((1, 2, 4, 4), 3, 3, {"dilation": 2, "output_padding": 1}),
    ((1, 2, 5, 4), 3, (2, 3), {"dilation": (3, 2), "padding": (1, 2), "stride": (2, 3),
                               "output_padding": (1, 2)}),
    ((2, 4, 3, 3), 6, 3, {"groups": 2, "stride": 2}),
    ((2, 6, 3, 4), 3, 2, {"groups": 3, "stride": 2, "bias": False}),
    ((3, 4, 4), 2, 3, {"stride": 2, "padding": 1}),  # unbatched
    ((0, 3, 4, 4), 2, 3, {}),
]

TRANSPOSED_1D = [
    ((2, 3, 6), 4, 3, {}),
    ((1, 2, 5), 3, 4, {"stride": 3, "padding": 2, "output_padding": 1}),
    ((2, 4, 5), 2, 2, {"dilation": 3, "groups": 2}),
    ((3, 7), 2, 3, {"stride": 2}),  # unbatched
]


def _transposed_case(dims, shape, out_channels, kernel_size, options, dtype):
    def case(torch):
        layer = getattr(torch.nn, f"ConvTranspose{dims}d")(
            shape[-dims - 1], out_channels, kernel_size, dtype=getattr(torch, dtype), **options)
        x = torch.randn(shape, dtype=getattr(torch, dtype), requires_grad=True)
        out = layer(x)
        _backward_through(torch, out, getattr(torch, dtype))
        return out, x.grad, [(name, p, p.grad) for name, p in layer.named_parameters()], \
            repr(layer)
    return seeded(case)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape, out_channels, kernel_size, options", TRANSPOSED_2D)
def test_conv_transpose2d(shape, out_channels, kernel_size, options, dtype):
    check(_transposed_case(2, shape, out_channels, kernel_size, options, dtype),
          **TOLERANCES[dtype])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape, out_channels, kernel_size, options", TRANSPOSED_1D)
def test_conv_transpose1d(shape, out_channels, kernel_size, options, dtype):
    check(_transposed_case(1, shape, out_channels, kernel_size, options, dtype),
          **TOLERANCES[dtype])


@pytest.mark.parametrize("layer", ["ConvTranspose2d(100, 64, 4, 1, 0, bias=False)",
                                   "ConvTranspose2d(8, 6, (3, 2), groups=2)",
                                   "ConvTranspose1d(3, 5, 7, dtype=torch.float64)"])
def test_transposed_convolutions_have_torchs_weights_after_the_same_seed(layer):
    def case(torch):
        module = eval(f"torch.nn.{layer}")
        return list(module.named_parameters()), torch.rand(2)  # the stream goes on alike
    check(seeded(case, 7), rtol=0, atol=0)


def test_functional_transposed_convolutions_of_integers_and_without_grad():
    def case(torch):
        F = torch.nn.functional
        x, w = torch.randn(2, 4, 3, 3), torch.randn(4, 2, 3, 3)
        integers = torch.randint(-3, 4, (1, 2, 3, 3)), torch.randint(-3, 4, (2, 3, 2, 2))
        return (F.conv_transpose2d(x, w, torch.randn(4), 2, 1, 1, 2),
                F.conv_transpose2d(*integers, stride=2),
                F.conv_transpose1d(x[0], w[:, :, 0], stride=[2], output_padding=(1,)),
                F.conv_transpose2d(x.double(), w.double(), torch.randn(2)))
    check(seeded(case), **TOLERANCES["float32"])


@pytest.mark.parametrize("output_size", ["(11, 11)", "[12, 11]", "[2, 4, 12, 12]",
                                         "torch.Size([11, 12])"])
def test_conv_transpose_forward_with_an_output_size(output_size):
    def case(torch):
        layer = torch.nn.ConvTranspose2d(3, 4, 3, stride=2)
        x = torch.randn(2, 3, 5, 5, requires_grad=True)
        out = layer(x, output_size=eval(output_size))
        _backward_through(torch, out, torch.float32)
        return out, x.grad, layer(x[0], eval(output_size)[-2:]), \
            torch.nn.ConvTranspose1d(3, 2, 4, stride=3)(x[0, :, 0], [15])
    check(seeded(case), **TOLERANCES["float32"])


TRANSPOSED_MISUSES = [
    "F.conv_transpose2d(x, w, stride=2, output_padding=2)",
    "F.conv_transpose2d(x, w, output_padding=1)",
    "F.conv_transpose2d(x, w, output_padding=(0, 1), dilation=(2, 1))",
    "F.conv_transpose2d(x, w, output_padding=-1, stride=0)",
    "F.conv_transpose2d(x, w, stride=(1, 1, 1))",
    "F.conv_transpose2d(x, w, output_padding=(1, 1, 1), stride=2)",
    "F.conv_transpose2d(x, w, padding='same')",
    "F.conv_transpose2d(x, torch.randn(4, 3, 3, 3).double())",
    "F.conv_transpose2d(x, torch.randn(3, 3, 3).double())",
    "F.conv_transpose2d(x, w, torch.randn(3).double())",
    "F.conv_transpose2d(x, w, torch.randn(4, 1).double())",
    "F.conv_transpose2d(x, w, groups=2)",
    "F.conv_transpose2d(x, w, groups=0)",
    "F.conv_transpose2d(x, torch.randn(0, 4, 3, 3).double())",
    "F.conv_transpose2d(x, w, padding=-1)",
    "F.conv_transpose2d(x, w, stride=-1)",
    "F.conv_transpose2d(x, w, dilation=-1)",
    "F.conv_transpose2d(x, w, dilation=0)",
    "F.conv_transpose2d(x, w, padding=(3, 4))",
    "F.conv_transpose2d(x, w, stride=2, padding=6, output_padding=1)",
    "F.conv_transpose2d(x, torch.randn(3, 4, 0, 3).double())",
    "F.conv_transpose2d(x[:, :, :0], w)",
    "F.conv_transpose2d(x[0, 0], w)",
    "F.conv_transpose1d(x, w[:, :, 0])",
    "F.conv_transpose2d(1.0, w)",
    "F.conv_transpose2d(x, w.float())",
    "F.conv_transpose2d(x.float(), w)",
    "F.conv_transpose2d(x.float(), w.float(), torch.randn(4).long())",
    "F.conv_transpose2d(x.long(), w)",
    "F.conv_transpose2d(x > 0, w > 0)",
    "torch.nn.ConvTranspose2d(3, 4, 3, padding_mode='reflect')",
    "torch.nn.ConvTranspose1d(3, 4, 3, padding_mode='circular')",
    "torch.nn.ConvTranspose2d(3, 4, 3, groups=2)",
    "torch.nn.ConvTranspose2d(3, 4, 3, stride=2)(x.float(), output_size=(10, 12))",
    "torch.nn.ConvTranspose2d(3, 4, 3, stride=2)(x.float(), output_size=[4, 11, 12])",
    "torch.nn.ConvTranspose2d(3, 4, 3, stride=2)(x[0].float(), output_size=[2, 4, 11, 12])",
    "torch.nn.ConvTranspose1d(3, 4, 3, stride=2)(x[0, :, 0].float(), output_size=[14])",
]


@pytest.mark.parametrize("misuse", TRANSPOSED_MISUSES)
def test_transposed_convolution_misuse_raises_torchs_error(misuse):
    # In float64: PyTorch's float32 kernel (oneDNN) words some errors its own way (below).
    assert_same_error(lambda torch: eval(misuse, {"torch": torch, "F": torch.nn.functional,
                                                  "x": torch.randn(2, 3, 5, 5).double(),
                                                  "w": torch.randn(3, 4, 3, 3).double()}))


@pytest.mark.parametrize("misuse", ["F.conv_transpose2d(x, w, dilation=0)",
                                    "F.conv_transpose2d(x, w, padding=4)",
                                    "F.conv_transpose2d(x, torch.randn(3, 4, 0, 3))"])
def test_transposed_convolution_misuse_in_float32_raises_as_torch(misuse):
    check(lambda torch: eval(misuse, {"torch": torch, "F": torch.nn.functional,
                                      "x": torch.randn(2, 3, 5, 5),
                                      "w": torch.randn(3, 4, 3, 3)}))


def test_transposed_convolution_layers_print_as_torchs():
    def case(torch):
        nn = torch.nn
        print(nn.ConvTranspose2d(3, 4, 3), nn.ConvTranspose1d(2, 4, 5, bias=False))
        print(nn.ConvTranspose2d(3, 6, (3, 2), stride=2, padding=1, output_padding=1, groups=3,
                                 bias=False, dilation=2))
        layer = nn.ConvTranspose2d(100, 64, 4, 1, 0, bias=False)
        print(layer.transposed, layer.output_padding, layer.weight.shape)
    check_printed(seeded(case))


# ---- batch normalisation of images -------------------------------------------------------

BATCH_NORM_OPTIONS = ["", "momentum=None", "affine=False", "track_running_stats=False",
                      "bias=False", "eps=1e-3, momentum=0.5"]


@pytest.mark.parametrize("options", BATCH_NORM_OPTIONS)
@pytest.mark.parametrize("layer, shape", [("BatchNorm2d", (4, 3, 5, 6)),
                                          ("BatchNorm3d", (2, 3, 2, 3, 4))])
def test_batch_norm_of_images(layer, shape, options):
    def case(torch):
        module = eval(f"torch.nn.{layer}(3, {options})")
        x = torch.randn(*shape, requires_grad=True)
        outputs = [module(x * (step + 1) - step) for step in range(3)]
        _backward_through(torch, outputs[-1] ** 2, torch.float32)
        gradients = x.grad, [(name, p.grad) for name, p in module.named_parameters()]
        module.eval()
        return outputs, gradients, module(x), module.state_dict(), repr(module)
    check(seeded(case), **TOLERANCES["float32"])


def test_batch_norm2d_in_float64_tracks_torchs_running_statistics():
    def case(torch):
        module = torch.nn.BatchNorm2d(4, dtype=torch.float64, momentum=None)
        for step in range(4):
            module(torch.randn(3, 4, 2, 5, dtype=torch.float64) * step + step)
        return module.state_dict(), module.num_batches_tracked
    check(seeded(case), **TOLERANCES["float64"])


def test_functional_batch_norm_of_images():
    def case(torch):
        F = torch.nn.functional
        x = torch.randn(2, 3, 4, 5, requires_grad=True)
        weight, bias = torch.rand(3, requires_grad=True), torch.randn(3, requires_grad=True)
        mean, var = torch.randn(3), torch.rand(3) + 0.5
        trained = F.batch_norm(x, mean, var, weight, bias, training=True, momentum=0.3)
        evaluated = F.batch_norm(x, mean, var, weight, bias)
        _backward_through(torch, trained + evaluated, torch.float32)
        return trained, evaluated, mean, var, x.grad, weight.grad, bias.grad
    check(seeded(case), **TOLERANCES["float32"])


@pytest.mark.parametrize("misuse", [
    "torch.nn.BatchNorm2d(3)(torch.ones(2, 3, 4))",
    "torch.nn.BatchNorm2d(3)(torch.ones(2, 3, 4, 5, 6))",
    "torch.nn.BatchNorm3d(3)(torch.ones(2, 3, 4, 5))",
    "torch.nn.BatchNorm2d(3)(torch.ones(1, 3, 1, 1))",
    "torch.nn.BatchNorm2d(3)(torch.ones(2, 4, 3, 3))",
    "torch.nn.BatchNorm2d(3).eval()(torch.ones(2, 4, 3, 3))",
])
def test_batch_norm_of_images_misuse_raises_torchs_error(misuse):
    assert_same_error(lambda torch: eval(misuse, {"torch": torch}))


# ---- the DCGAN tutorial ------------------------------------------------------------------


def _dcgan(torch, nz=8, ngf=4, ndf=4, channels=3):
    """The generator and discriminator of PyTorch's DCGAN tutorial, for 16 x 16 images,
    initialised as the tutorial initialises them."""
    nn = torch.nn
    generator = nn.Sequential(
        nn.ConvTranspose2d(nz, ngf * 4, 4, 1, 0, bias=False),
        nn.BatchNorm2d(ngf * 4),
        nn.ReLU(True),
        nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False),
        nn.BatchNorm2d(ngf * 2),
        nn.ReLU(True),
        nn.ConvTranspose2d(ngf * 2, channels, 4, 2, 1, bias=False),
        nn.Tanh(),
    )
    discriminator = nn.Sequential(
        nn.Conv2d(channels, ndf, 4, 2, 1, bias=False),
        nn.LeakyReLU(0.2, inplace=True),
        nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False),
        nn.BatchNorm2d(ndf * 2),
        nn.LeakyReLU(0.2, inplace=True),
        nn.Conv2d(ndf * 2, 1, 4, 1, 0, bias=False),
        nn.Sigmoid(),
    )

    def weights_init(m):
        classname = m.__class__.__name__
        if classname.find("Conv") != -1:
            nn.init.normal_(m.weight.data, 0.0, 0.02)
        elif classname.find("BatchNorm") != -1:
            nn.init.normal_(m.weight.data, 1.0, 0.02)
            nn.init.constant_(m.bias.data, 0)
    generator.apply(weights_init)
    discriminator.apply(weights_init)
    return generator, discriminator


def test_the_dcgan_tutorial_trains_as_torchs():
    def case(torch):
        netG, netD = _dcgan(torch)
        print(netG, netD)
        criterion = torch.nn.BCELoss()
        optimizerD = torch.optim.Adam(netD.parameters(), lr=0.0002, betas=(0.5, 0.999))
        optimizerG = torch.optim.Adam(netG.parameters(), lr=0.0002, betas=(0.5, 0.999))
        fixed_noise = torch.randn(4, 8, 1, 1)
        for i in range(3):
            real = torch.rand(6, 3, 16, 16) * 2 - 1
            netD.zero_grad()
            label = torch.full((6,), 1.0, dtype=torch.float)
            output = netD(real).view(-1)
            errD_real = criterion(output, label)
            errD_real.backward()
            D_x = output.mean().item()
            fake = netG(torch.randn(6, 8, 1, 1))
            label.fill_(0.0)
            output = netD(fake.detach()).view(-1)
            errD_fake = criterion(output, label)
            errD_fake.backward()
            D_G_z1 = output.mean().item()
            errD = errD_real + errD_fake
            optimizerD.step()
            netG.zero_grad()
            label.fill_(1.0)
            output = netD(fake).view(-1)
            errG = criterion(output, label)
            errG.backward()
            D_G_z2 = output.mean().item()
            optimizerG.step()
            print("[%d/3] Loss_D: %.4f\tLoss_G: %.4f\tD(x): %.4f\tD(G(z)): %.4f / %.4f"
                  % (i, errD.item(), errG.item(), D_x, D_G_z1, D_G_z2))
        with torch.no_grad():
            print(netG(fixed_noise).detach().shape)
    check_printed(seeded(case), rtol=1e-3)


def test_the_dcgans_losses_and_parameters_after_adam_steps_are_torchs():
    def case(torch):
        netG, netD = _dcgan(torch)
        optimizer = torch.optim.Adam(list(netG.parameters()) + list(netD.parameters()),
                                     lr=0.0002, betas=(0.5, 0.999))
        losses = []
        for _ in range(3):
            optimizer.zero_grad()
            fake = netG(torch.randn(6, 8, 1, 1))
            loss = torch.nn.BCELoss()(netD(fake).view(-1), torch.ones(6))
            loss.backward()
            optimizer.step()
            losses.append(loss)
        return losses, list(netG.named_parameters()), list(netD.named_parameters()), \
            netG.state_dict(), netD.state_dict()
    check(seeded(case), **TOLERANCES["float32"])


# ---- 1-d pooling and adaptive max pooling ------------------------------------------------

POOLS_1D = [
    "MaxPool1d(2)", "MaxPool1d(3, stride=2, padding=1)", "MaxPool1d((3,), dilation=2)",
    "MaxPool1d(3, 2, 1, ceil_mode=True)", "AvgPool1d(2)", "AvgPool1d(3, stride=2, padding=1)",
    "AvgPool1d(3, 2, 1, ceil_mode=True, count_include_pad=False)", "AdaptiveAvgPool1d(1)",
    "AdaptiveAvgPool1d(3)", "AdaptiveAvgPool1d(4)", "AdaptiveMaxPool1d(1)",
    "AdaptiveMaxPool1d(3)", "AdaptiveMaxPool1d(5)",
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(2, 3, 9), (3, 8)])
@pytest.mark.parametrize("layer", POOLS_1D)
def test_pools_1d(layer, shape, dtype):
    def case(torch):
        pool = eval(f"torch.nn.{layer}")
        x = torch.randn(shape, dtype=getattr(torch, dtype), requires_grad=True)
        out = pool(x)
        _backward_through(torch, out, getattr(torch, dtype))
        return out, x.grad, repr(pool)
    check(seeded(case), **TOLERANCES[dtype])


@pytest.mark.parametrize("output_size", ["1", "(3, 4)", "(4, 3)", "(7, 9)", "(None, 2)"])
@pytest.mark.parametrize("shape", [(2, 3, 7, 9), (3, 8, 6)])
def test_adaptive_max_pool2d(output_size, shape):
    def case(torch):
        pool = eval(f"torch.nn.AdaptiveMaxPool2d({output_size}, return_indices=True)")
        x = torch.randn(shape, dtype=torch.float64, requires_grad=True)
        out, indices = pool(x)
        _backward_through(torch, out, torch.float64)
        return out, indices, x.grad, repr(pool)
    check(seeded(case), **TOLERANCES["float64"])


@pytest.mark.parametrize("function, output_size", [("adaptive_max_pool2d", (3, 4)),
                                                   ("adaptive_max_pool2d", (2, 2)),
                                                   ("max_pool1d", 3)])
def test_max_pools_give_ties_and_nan_torchs_gradient(function, output_size):
    # Small integers tie often: the gradient goes to the element PyTorch's kernel picks (the
    # first largest of a window, the last NaN).
    def case(torch):
        x = torch.randint(0, 3, (2, 3, 7, 9)).double()
        x[0, 0, :3, :3] = float("nan")
        x[1, 2, 2, 1:] = float("nan")
        x = x.view(6, 7, 9)[..., 0] if function == "max_pool1d" else x
        x.requires_grad_()
        out, indices = getattr(torch.nn.functional, function)(x, output_size,
                                                              return_indices=True)
        _backward_through(torch, out, torch.float64)
        return out, indices, x.grad
    check(seeded(case), **TOLERANCES["float64"])


POOL_1D_MISUSES = [
    "F.max_pool1d(x.view(2, 3, 2, 4), 2)",
    "F.max_pool1d(x[0, 0], 2)",
    "F.max_pool1d(x[:, :, :0], 2)",
    "F.max_pool1d(x, 0)",
    "F.max_pool1d(x, 2, stride=0)",
    "F.max_pool1d(x, 2, padding=-1)",
    "F.max_pool1d(x, 2, padding=2)",
    "F.max_pool1d(x, 2, dilation=0)",
    "F.max_pool1d(x, 9)",
    "F.max_pool1d(x, (2, 2))",
    "F.max_pool1d(x, 2, stride=(1, 1))",
    "F.max_pool1d(x > 0, 2)",
    "F.avg_pool1d(x.view(2, 3, 2, 4), 2)",
    "F.avg_pool1d(x[0, 0], 2)",
    "F.avg_pool1d(x, (2, 2))",
    "F.avg_pool1d(x, 2, stride=0)",
    "F.avg_pool1d(x, 2, padding=2)",
    "F.adaptive_avg_pool1d(x.view(2, 3, 2, 4), 2)",
    "F.adaptive_avg_pool1d(x, (2, 2))",
    "F.adaptive_max_pool1d(x[0, 0], 2)",
    "F.adaptive_max_pool2d(x, (2, 2, 2))",
    "F.adaptive_max_pool2d(x.view(2, 3, 2, 4), (2, 2, 2))",
    "F.adaptive_max_pool2d(x.view(2, 3, 2, 4)[:, :0], 2)",
    "F.adaptive_max_pool2d(x[0], (2, 2))",
    "F.adaptive_avg_pool2d(x[0], (2, 2))",
    "F.adaptive_max_pool2d(x[0, 0], 2)",
    "F.adaptive_max_pool2d(x.view(2, 3, 2, 4)[:, :, :0], 2)",
    "F.adaptive_max_pool2d(x.view(2, 3, 2, 4), -1)",
    "F.adaptive_max_pool2d(x.view(2, 3, 2, 4).long(), 2)",
]


@pytest.mark.parametrize("misuse", POOL_1D_MISUSES)
def test_pool_1d_and_adaptive_max_misuse_raises_torchs_error(misuse):
    assert_same_error(lambda torch: eval(misuse, {"torch": torch, "F": torch.nn.functional,
                                                  "x": torch.randn(2, 3, 8,
                                                                   requires_grad=True)}))


# ---- channel dropout ---------------------------------------------------------------------


@pytest.mark.parametrize("layer, shape", [
    ("Dropout2d()", (4, 6, 3, 5)), ("Dropout2d(0.2)", (4, 6, 7)), ("Dropout2d(0.3)", (3, 4)),
    ("Dropout1d(0.4)", (4, 6, 5)), ("Dropout1d()", (6, 5)), ("Dropout2d(1.0)", (2, 3, 4, 4)),
    ("Dropout2d(0.0)", (2, 3, 4, 4)), ("Dropout1d(0.5, inplace=True)", (3, 4, 5)),
    ("Dropout1d(0.5, inplace=True)", (4, 5)), ("Dropout2d(0.5, True)", (2, 3, 4, 4)),
    ("Dropout3d()", (4, 6, 3, 2, 3)), ("Dropout3d(0.2)", (6, 3, 4, 2)),
    ("Dropout3d(0.3)", (4, 5, 3)), ("Dropout3d(0.4)", (3, 4)), ("Dropout3d(0.5)", (7,)),
    ("Dropout3d(0.6)", (2, 3, 2, 2, 2, 2)), ("Dropout3d(1.0)", (2, 3, 2, 2, 2)),
    ("Dropout3d(0.0)", (2, 3, 2, 2, 2)), ("Dropout3d(0.5, inplace=True)", (3, 4, 2, 2, 2)),
    ("Dropout3d(0.5, True)", (5, 2, 3, 2)), ("Dropout3d(0.5, True)", (5, 2)),
])
def test_channel_dropout_draws_torchs_masks(layer, shape):
    def case(torch):
        module = eval(f"torch.nn.{layer}")
        x = torch.randn(shape, requires_grad=True)
        y = x * 1  # (an in-place dropout needs a tensor that is not a leaf)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = module(y)
            _backward_through(torch, out, torch.float32)
            module.eval()
            evaluated = module(x.detach())
        return out, x.grad, evaluated, repr(module), torch.rand(2), \
            [str(w.message) for w in caught]
    # An unbatched in-place Dropout1d's or Dropout3d's node is PyTorch's SqueezeBackward4
    # (of its squeeze_).
    in_place = "inplace=True" in layer or "True)" in layer
    batched = len(shape) == int(layer[len("Dropout")]) + 2
    check(seeded(case), grad_fn_names=not in_place or batched)


@pytest.mark.parametrize("misuse", [
    "torch.nn.Dropout2d(1.5)", "torch.nn.Dropout1d(-0.1)", "F.dropout2d(x, 2)",
    "F.dropout1d(x)", "F.dropout1d(x[0, 0, 0])", "F.dropout2d(x[0, 0, 0])",
])
def test_channel_dropout_misuse_raises_torchs_error(misuse):
    assert_same_error(lambda torch: eval(misuse, {"torch": torch, "F": torch.nn.functional,
                                                  "x": torch.randn(2, 3, 4, 4)}))


# ---- group normalisation and Unflatten ---------------------------------------------------


@pytest.mark.parametrize("layer, shape", [
    ("GroupNorm(2, 4)", (3, 4, 5)), ("GroupNorm(1, 6)", (2, 6, 3, 4)),
    ("GroupNorm(6, 6, eps=1e-3)", (2, 6, 3, 2)), ("GroupNorm(2, 4, affine=False)", (3, 4)),
    ("GroupNorm(3, 6, dtype=torch.float64)", (2, 6, 4)),
])
def test_group_norm(layer, shape):
    def case(torch):
        module = eval(f"torch.nn.{layer}")
        dtype = torch.float64 if "float64" in layer else torch.float32
        x = torch.randn(shape, dtype=dtype, requires_grad=True)
        if module.affine:  # (other than their initial ones and zeros)
            with torch.no_grad():
                module.weight.uniform_(0.5, 1.5)
                module.bias.normal_()
        out = module(x * 3 + 1)
        _backward_through(torch, out, dtype)
        return out, x.grad, [(name, p.grad) for name, p in module.named_parameters()], \
            repr(module)
    check(seeded(case), **TOLERANCES["float32"])


def test_unflatten():
    def case(torch):
        x = torch.randn(2, 12, requires_grad=True)
        layers = [torch.nn.Unflatten(1, (3, 4)), torch.nn.Unflatten(-1, [2, -1, 3])]
        outputs = [layer(x) for layer in layers]
        sum(out.sum() for out in outputs).backward()
        return outputs, x.grad, [repr(layer) for layer in layers]
    check(case)


@pytest.mark.parametrize("misuse", [
    "torch.nn.GroupNorm(3, 4)", "F.group_norm(torch.randn(2, 3, 4), 2)",
    "F.group_norm(torch.randn(2, 4, 4), 2, torch.ones(3))",
    "F.group_norm(torch.randn(2, 4, 4), 2, torch.ones(4), torch.ones(3))",
    "F.group_norm(torch.randn(2, 4, 4), 2, None, torch.ones(2, 2))",
    "F.group_norm(torch.randn(4), 2)", "torch.nn.Unflatten(1, 3)",
    "torch.nn.Unflatten(1, (2, 'a'))", "torch.nn.Unflatten(1, (2, 3))(torch.randn(2, 5))",
])
def test_group_norm_and_unflatten_misuse_raises_torchs_error(misuse):
    assert_same_error(lambda torch: eval(misuse, {"torch": torch, "F": torch.nn.functional}))


# ---- F.interpolate and Upsample --------------------------------------------------------

# (input shape, interpolate's keywords): sizes and factors that scale up and down, by whole
# and fractional ratios, the doubling that PyTorch's kernel special-cases, and factors whose
# float32 scale rounds near a position.
RESIZES = [
    ((2, 3, 6), {"size": 4}),
    ((2, 3, 6), {"size": 13}),
    ((2, 3, 5), {"scale_factor": 2}),
    ((2, 3, 6), {"scale_factor": 1.5}),
    ((2, 3, 7), {"scale_factor": 0.6}),
    ((2, 3, 7), {"scale_factor": 1.7, "recompute_scale_factor": True}),
    ((1, 2, 3, 4), {"size": (5, 7)}),
    ((1, 2, 3, 4), {"scale_factor": (1.7, 2.3)}),
    ((1, 2, 5, 4), {"scale_factor": 0.5}),
    ((1, 2, 3, 4), {"size": 6}),
    ((1, 2, 9, 10), {"scale_factor": 1 / 3}),
    ((1, 1, 2, 3, 4), {"scale_factor": (2, 1.5, 0.75)}),
    ((1, 1, 2, 3, 4), {"size": (3, 3, 5)}),
    # i * (26 / 22) floors apart in float32 and float64 (PyTorch's 2-d kernels take
    # float32's; its 1-d and 3-d ones round otherwise, docs/guide-compat.md)
    ((1, 2, 1, 26), {"size": (1, 22)}),
    ((1, 2, 3, 30), {"size": (2, 26)}),
]


@pytest.mark.parametrize("mode", ["nearest", "nearest-exact"])
@pytest.mark.parametrize("shape, keywords", RESIZES)
def test_interpolate_reads_torchs_positions(shape, keywords, mode):
    def case(torch):
        x = torch.randn(shape, dtype=torch.float64, requires_grad=True)
        out = torch.nn.functional.interpolate(x, mode=mode, **keywords)
        _backward_through(torch, out, torch.float64)
        return out, x.grad
    # (a position read wrongly is off by the difference of two draws: the gradient's sums
    # may differ in the order of their terms)
    check(seeded(case), **TOLERANCES["float64"])


def test_upsample_prints_and_resizes_as_torch():
    def case(torch):
        layers = [torch.nn.Upsample(scale_factor=2), torch.nn.Upsample(size=(3, 5)),
                  torch.nn.Upsample(scale_factor=(1.5, 2), mode="nearest-exact")]
        x = torch.randn(1, 2, 2, 3)
        return [repr(layer) for layer in layers], [layer(x) for layer in layers]
    check(seeded(case))


@pytest.mark.parametrize("call", [
    "F.interpolate(x)",
    "F.interpolate(x, size=2, scale_factor=2)",
    "F.interpolate(x, size=(2, 2))",
    "F.interpolate(x, scale_factor=(2, 2))",
    "F.interpolate(x, size=2, align_corners=True)",
    "F.interpolate(x, size=2, antialias=True)",
    "F.interpolate(x, scale_factor=-1.0)",
    "F.interpolate(x, size=0)",
    "F.interpolate(x.flatten(), size=2)",
    "F.interpolate(x[None, None, None], size=2)",
    "F.interpolate(x, size=2, mode='bogus')",
])
def test_interpolate_refuses_as_torch(call):
    assert_same_error(lambda torch: eval(call, {"F": torch.nn.functional,
                                                "x": torch.ones(1, 2, 6)}))


# (input shape, mode, interpolate's keywords)
LINEAR_RESIZES = [
    ((2, 3, 6), "linear", {"size": 4}),
    ((2, 3, 5), "linear", {"scale_factor": 1.7}),
    ((2, 3, 5), "linear", {"size": 9, "align_corners": True}),
    ((2, 3, 5), "linear", {"size": 1, "align_corners": True}),
    ((1, 2, 4, 4), "bilinear", {"size": (3, 5)}),
    ((1, 2, 4, 5), "bilinear", {"scale_factor": 2, "align_corners": True}),
    ((1, 2, 5, 5), "bilinear", {"scale_factor": 0.4}),
    ((1, 2, 3, 4), "bilinear", {"scale_factor": (1.5, 2.5), "recompute_scale_factor": True}),
    ((1, 1, 2, 3, 4), "trilinear", {"scale_factor": (2, 0.7, 1.5)}),
    ((1, 1, 2, 3, 4), "trilinear", {"size": (3, 3, 3), "align_corners": True}),
    ((2, 3, 7), "area", {"size": 3}),
    ((1, 2, 6, 6), "area", {"scale_factor": 0.5}),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape, mode, keywords", LINEAR_RESIZES)
def test_interpolating_resizes_match_torch(shape, mode, keywords, dtype):
    def case(torch):
        x = torch.randn(shape, dtype=getattr(torch, dtype), requires_grad=True)
        out = torch.nn.functional.interpolate(x, mode=mode, **keywords)
        _backward_through(torch, out, getattr(torch, dtype))
        return out, x.grad
    check(seeded(case), **TOLERANCES[dtype])


@pytest.mark.parametrize("call", [
    "F.interpolate(torch.ones(1, 1, 4), size=2, mode='bilinear')",
    "F.interpolate(torch.ones(1, 1, 4, 4), size=2, mode='linear')",
    "F.interpolate(torch.ones(1, 1, 4, 4), size=2, mode='trilinear')",
    "F.interpolate(torch.ones(1, 1, 4), size=2, mode='bicubic')",
])
def test_interpolating_modes_refuse_other_ranks_as_torch(call):
    assert_same_error(lambda torch: eval(call, {"F": torch.nn.functional, "torch": torch}))

