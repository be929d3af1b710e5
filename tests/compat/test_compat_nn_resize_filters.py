"""F.interpolate's filtered resizes against PyTorch: 'bicubic', the antialiased 'bilinear',
'bicubic' and 'lanczos' (values and gradients), uint8 images' integer resizes (bit for
bit), and which dtypes each mode refuses, with PyTorch's texts."""
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from compat_harness import assert_same_error, check, seeded

TOLERANCES = {"float16": {"rtol": 2e-3, "atol": 2e-3}, "float32": {"rtol": 1e-4, "atol": 1e-5},
              "float64": {"rtol": 1e-10, "atol": 1e-12}}

# (input shape, interpolate's keywords): shrinking and growing, by sizes and by factors
# (kept, and recomputed), with and without align_corners, and a dimension kept as it is.
RESIZES = [
    ((1, 2, 5, 7), {"size": (3, 4)}),
    ((2, 1, 4, 5), {"size": (9, 11)}),
    ((1, 2, 6, 6), {"size": (6, 3)}),
    ((1, 1, 8, 9), {"scale_factor": (0.5, 1.3)}),
    ((1, 1, 7, 5), {"scale_factor": (0.3, 2.5), "recompute_scale_factor": True}),
    ((1, 2, 5, 7), {"size": (3, 4), "align_corners": True}),
    ((1, 1, 4, 6), {"scale_factor": 2.0, "align_corners": True}),
    ((1, 2, 1, 6), {"size": (3, 2)}),
    ((1, 1, 12, 3), {"size": (2, 3)}),
]
FILTERED = [("bicubic", False), ("bilinear", True), ("bicubic", True), ("lanczos", True)]


def _backward_through(torch, out, dtype):
    """Backward from `out` weighted by a draw (so that each output element counts)."""
    (out * torch.randn(out.shape, dtype=dtype)).sum().backward()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape, keywords, mode, antialias", [
    (shape, keywords, mode, antialias) for shape, keywords in RESIZES
    for mode, antialias in FILTERED
    if mode != "lanczos" or "align_corners" not in keywords])  # (its refusal: test_refusals)
def test_filtered_resizes_and_their_gradients_match_torch(shape, keywords, mode, antialias,
                                                          dtype):
    def case(torch):
        x = torch.randn(shape, dtype=getattr(torch, dtype), requires_grad=True)
        out = torch.nn.functional.interpolate(x, mode=mode, antialias=antialias, **keywords)
        _backward_through(torch, out, getattr(torch, dtype))
        return out, x.grad
    check(seeded(case), **TOLERANCES[dtype])


def test_bicubic_of_float16_computes_in_float32_as_torch():
    def case(torch):
        x = torch.randn(1, 2, 5, 6).half()
        return torch.nn.functional.interpolate(x, size=(7, 4), mode="bicubic")
    check(seeded(case), **TOLERANCES["float16"])


def _torch_errs(shape, size, antialias, dtype):
    """Where PyTorch 2.13 errs: its float antialiased kernels give every output row the
    first row's value when the output has one column and the height changes (compat does
    not copy that: `test_a_single_column_is_resized_as_torch_resizes_its_transpose`), and
    its uint8 kernel fails an internal assertion resizing 3-channel images to 1 x 1."""
    if dtype == "uint8":
        return shape[1] == 3 and size == (1, 1) and shape[2:] != (1, 1)
    return antialias and size[1] == 1 and size[0] != shape[2]


@settings(max_examples=60, deadline=None)
@given(height=st.integers(1, 9), width=st.integers(1, 9), size=st.tuples(
    st.integers(1, 12), st.integers(1, 12)), filtered=st.sampled_from(FILTERED),
    dtype=st.sampled_from(["uint8", "float32", "float64"]), align_corners=st.booleans())
def test_random_filtered_resizes_match_torch(height, width, size, filtered, dtype,
                                             align_corners):
    """uint8 images bit for bit (PyTorch's integer kernels), floats within rounding."""
    mode, antialias = filtered
    shape = (2, 3, height, width)
    assume(not _torch_errs(shape, size, antialias, dtype))
    corners = None if mode == "lanczos" else align_corners

    def case(torch):
        x = (torch.randint(0, 256, shape, dtype=torch.uint8) if dtype == "uint8"
             else torch.randn(shape, dtype=getattr(torch, dtype)) * 50)
        return torch.nn.functional.interpolate(x, size=size, mode=mode, antialias=antialias,
                                               align_corners=corners)
    check(seeded(case), **({"rtol": 0, "atol": 0} if dtype == "uint8" else TOLERANCES[dtype]))


@pytest.mark.parametrize("mode", ["bilinear", "bicubic", "lanczos"])
@pytest.mark.parametrize("shape, size", [((1, 2, 2, 8), (5, 1)), ((1, 1, 6, 1), (12, 1)),
                                         ((2, 1, 9, 4), (3, 1))])
def test_a_single_column_is_resized_as_torch_resizes_its_transpose(shape, size, mode):
    """Where PyTorch's float kernel errs (`_torch_errs`), compat's resize is PyTorch's of
    the transposed image, transposed back, and within a level of PyTorch's uint8 resize
    of the same image."""
    import compat
    import torch
    rng = np.random.default_rng(0)
    x = rng.integers(0, 256, shape).astype(np.float64)
    ours = compat.nn.functional.interpolate(compat.from_numpy(x), size=size, mode=mode,
                                            antialias=True).numpy()
    transposed = torch.nn.functional.interpolate(
        torch.from_numpy(x).transpose(2, 3), size=size[::-1], mode=mode, antialias=True)
    np.testing.assert_allclose(ours, transposed.transpose(2, 3).numpy(), rtol=1e-12)
    as_bytes = torch.nn.functional.interpolate(torch.from_numpy(x.astype(np.uint8)),
                                               size=size, mode=mode, antialias=True)
    np.testing.assert_allclose(ours, as_bytes.numpy(), atol=1)


@pytest.mark.parametrize("mode, antialias, label", [
    ("bicubic", False, "UpsampleBicubic2DBackward0"),
    ("bilinear", True, "UpsampleBilinear2DAaBackward0"),
    ("bicubic", True, "UpsampleBicubic2DAaBackward0"),
    ("lanczos", True, "UpsampleLanczos2DAaBackward0")])
def test_filtered_resizes_are_named_as_torchs_and_copy_an_unchanged_size(mode, antialias,
                                                                         label):
    def case(torch):
        x = torch.randn(1, 2, 3, 4, requires_grad=True)
        same = torch.nn.functional.interpolate(x, size=(3, 4), mode=mode, antialias=antialias)
        resized = torch.nn.functional.interpolate(x, size=(2, 5), mode=mode,
                                                  antialias=antialias)
        return same, resized, same.data_ptr() == x.data_ptr()
    check(seeded(case))
    import compat
    x = compat.ones(1, 1, 3, 3, requires_grad=True)
    out = compat.nn.functional.interpolate(x, size=(2, 2), mode=mode, antialias=antialias)
    assert type(out.grad_fn).__name__ == label


def test_channels_last_images_keep_their_layout_as_torch():
    def case(torch):
        x = torch.randn(1, 3, 5, 6).contiguous(memory_format=torch.channels_last)
        outs = [torch.nn.functional.interpolate(x, size=(4, 8), mode=mode, antialias=aa)
                for mode, aa in FILTERED]
        return outs, [o.stride() for o in outs]
    check(seeded(case), **TOLERANCES["float32"])


MODES_BY_RANK = {"nearest": (3, 4, 5), "nearest-exact": (3, 4, 5), "linear": (3,),
                 "bilinear": (4,), "bicubic": (4,), "trilinear": (5,), "area": (3, 4, 5),
                 "lanczos": (4,)}
DTYPES = ["uint8", "int8", "int16", "int32", "int64", "bool", "float16", "float32",
          "float64", "complex64", "complex128"]


@pytest.mark.parametrize("mode, rank, antialias", [
    (mode, rank, antialias) for mode, ranks in MODES_BY_RANK.items() for rank in ranks
    for antialias in (False, True)
    if not antialias or mode in ("bilinear", "bicubic", "lanczos")
    if antialias or mode != "lanczos"])
def test_each_mode_takes_the_dtypes_torch_takes(mode, rank, antialias):
    """Every dtype either resized as PyTorch resizes it or refused with its error."""
    shape = (1, 2, 3, 5, 6)[:rank]
    for dtype in DTYPES:
        def case(torch, dtype=dtype):
            x = (torch.randn(shape) * 40 + 100).to(getattr(torch, dtype))
            factor = (1.5,) * (rank - 2) if rank != 4 else (0.6, 1.5)
            return torch.nn.functional.interpolate(x, scale_factor=factor, mode=mode,
                                                   antialias=antialias)
        check(seeded(case), **TOLERANCES.get(dtype, {"rtol": 0, "atol": 0}), messages=True)


@pytest.mark.parametrize("call", [
    "F.interpolate(x, size=2, mode='lanczos')",
    "F.interpolate(x, size=2, mode='lanczos', antialias=True, align_corners=True)",
    "F.interpolate(x[0], size=2, mode='lanczos', antialias=True)",
    "F.interpolate(x[0], size=2, mode='bicubic')",
    "F.interpolate(x[None], size=2, mode='bicubic')",
    "F.interpolate(x, size=0, mode='bicubic')",
    "F.interpolate(x, size=0)",
    "F.interpolate(x[None], size=0)",
    "F.interpolate(x[None], size=0, mode='trilinear')",
    "F.interpolate(x[:, :, :0], size=3, mode='bilinear')",
    "F.interpolate(x.half(), size=2, mode='bilinear', antialias=True)",
    "F.interpolate(x, size=2, mode='nearest', antialias=True)",
])
def test_refusals(call):
    assert_same_error(lambda torch: eval(call, {"F": torch.nn.functional,
                                                "x": torch.ones(1, 2, 4, 4)}))


@pytest.mark.parametrize("align_corners", [False, True])
def test_upsample_layer_resizes_bicubically_as_torch(align_corners):
    def case(torch):
        layer = torch.nn.Upsample(scale_factor=1.5, mode="bicubic",
                                  align_corners=align_corners)
        x = torch.randn(1, 2, 4, 4, requires_grad=True)
        out = layer(x)
        _backward_through(torch, out, torch.float32)
        return repr(layer), out, x.grad
    check(seeded(case), **TOLERANCES["float32"])
