"""compat.nn's padding, transposed convolutions, image normalisation and the other layers of
PyTorch's image tutorials, against torch 2.13: the same outputs (with PyTorch's grad_fn
names), gradients, seeded parameters, printed reprs and error texts; and a DCGAN trained a
few steps."""
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
