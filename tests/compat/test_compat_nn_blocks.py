"""compat.nn's PixelShuffle, PixelUnshuffle, Unfold, Fold and Bilinear (and their
functions) against torch.nn 2.13: values (with PyTorch's grad_fn names), gradients, seeded
parameters, reprs and error texts."""
import warnings

import pytest

from compat_harness import assert_same_error, check, check_printed, gradients, seeded


def _applied(function, shape, *arguments, **options):
    """function(x, ...) on a fresh input of `shape`, and the input's gradient for a
    cotangent that weighs every output element differently."""
    def case(torch):
        x = torch.randn(*shape, requires_grad=True)
        out = getattr(torch.nn.functional, function)(x, *arguments, **options)
        out.backward(torch.arange(out.numel(), dtype=out.dtype).reshape(out.shape))
        return out, x.grad
    return seeded(case)


@pytest.mark.parametrize("shape, factor", [((1, 4, 2, 3), 2), ((2, 18, 2, 2), 3),
                                           ((8, 2, 3), 2), ((2, 3, 4, 2, 1), 1)])
def test_pixel_shuffle(shape, factor):
    check(_applied("pixel_shuffle", shape, factor))


@pytest.mark.parametrize("shape, factor", [((1, 1, 4, 6), 2), ((2, 2, 6, 3), 3),
                                           ((3, 4, 4), 2), ((2, 3, 2, 2, 2), 1)])
def test_pixel_unshuffle(shape, factor):
    check(_applied("pixel_unshuffle", shape, factor))


def test_pixel_shuffle_modules_undo_each_other_as_torchs():
    def case(torch):
        x = torch.randn(2, 8, 3, 4)
        shuffle, unshuffle = torch.nn.PixelShuffle(2), torch.nn.PixelUnshuffle(2)
        return repr(shuffle), repr(unshuffle), shuffle(x), unshuffle(shuffle(x))
    check(seeded(case))


def test_pixel_shuffle_keeps_integers():
    check(lambda torch: torch.nn.functional.pixel_shuffle(
        torch.arange(16).reshape(1, 4, 2, 2), 2))


BLOCKS = [
    ((1, 2, 4, 4), {"kernel_size": 2}),
    ((2, 3, 5, 6), {"kernel_size": (2, 3), "stride": 2}),
    ((1, 2, 5, 5), {"kernel_size": 2, "dilation": 2, "padding": 1}),
    ((1, 3, 4, 5), {"kernel_size": (2, 3), "dilation": (1, 2), "padding": (1, 0),
                    "stride": (2, 1)}),
    ((3, 4, 5), {"kernel_size": 3, "padding": 1}),
]


@pytest.mark.parametrize("shape, options", BLOCKS)
def test_unfold(shape, options):
    check(_applied("unfold", shape, **options))


@pytest.mark.parametrize("shape, options", BLOCKS)
def test_fold_adds_overlapping_blocks_back(shape, options):
    """fold of the columns unfold makes of an image of `shape` (overlaps summed)."""
    def case(torch):
        image = torch.randn(*shape)
        columns = torch.nn.functional.unfold(image, **options).detach().requires_grad_()
        out = torch.nn.functional.fold(columns, shape[-2:], **options)
        out.backward(torch.arange(out.numel(), dtype=out.dtype).reshape(out.shape))
        return out, columns.grad
    check(seeded(case))


def test_fold_and_unfold_modules():
    def case(torch):
        unfold = torch.nn.Unfold((2, 3), padding=1)
        fold = torch.nn.Fold((4, 5), (2, 3), padding=1)
        x = torch.randn(2, 3, 4, 5, requires_grad=True)
        out = fold(unfold(x))
        out.sum().backward()
        return repr(unfold), repr(fold), out, x.grad
    check(seeded(case))


@pytest.mark.parametrize("shapes", [[(4, 3), (4, 2)], [(2, 4, 3), (2, 4, 2)], [(3,), (2,)]])
@pytest.mark.parametrize("bias", [True, False])
def test_bilinear(shapes, bias):
    def case(torch):
        layer = torch.nn.Bilinear(3, 2, 5, bias=bias)
        x1, x2 = (torch.randn(*shape, requires_grad=True) for shape in shapes)
        out = layer(x1, x2)
        out.backward(torch.randn(out.shape))
        return out, x1.grad, x2.grad, gradients(layer)
    check(seeded(case))


def test_bilinear_in_float64_and_its_repr():
    def case(torch):
        layer = torch.nn.Bilinear(2, 3, 4, dtype=torch.float64)
        print(layer, torch.nn.Bilinear(1, 1, 1, bias=False))
        print(layer.weight, layer.bias)
    check_printed(case)


MISUSES = {
    "shuffle rank": lambda t: t.nn.functional.pixel_shuffle(t.randn(4, 2), 2),
    "shuffle channels": lambda t: t.nn.functional.pixel_shuffle(t.randn(1, 5, 2, 2), 2),
    "shuffle factor": lambda t: t.nn.functional.pixel_shuffle(t.randn(1, 4, 2, 2), 0),
    "unshuffle height": lambda t: t.nn.functional.pixel_unshuffle(t.randn(1, 1, 5, 4), 2),
    "unshuffle width": lambda t: t.nn.functional.pixel_unshuffle(t.randn(1, 1, 4, 5), 2),
    "unshuffle rank": lambda t: t.nn.functional.pixel_unshuffle(t.randn(4, 4), 2),
    "unshuffle factor": lambda t: t.nn.functional.pixel_unshuffle(t.randn(1, 1, 4, 4), -1),
    "unfold rank": lambda t: t.nn.functional.unfold(t.randn(1, 3, 4, 5, 2), 2),
    "unfold kernel": lambda t: t.nn.functional.unfold(t.randn(1, 3, 4, 5), 0),
    "unfold too large": lambda t: t.nn.functional.unfold(t.randn(1, 3, 4, 5), 6),
    "unfold stride": lambda t: t.nn.functional.unfold(t.randn(1, 3, 4, 5), 2, stride=0),
    "unfold dilation": lambda t: t.nn.functional.unfold(t.randn(1, 3, 4, 5), 2, dilation=0),
    "unfold padding": lambda t: t.nn.functional.unfold(t.randn(1, 3, 4, 5), 2, padding=-1),
    "unfold integers": lambda t: t.nn.functional.unfold(t.tensor([[[[1, 2], [3, 4]]]]), 1),
    "fold blocks": lambda t: t.nn.functional.fold(t.randn(1, 12, 7), (3, 4), 2),
    "fold channels": lambda t: t.nn.functional.fold(t.randn(1, 13, 6), (3, 4), 2),
    "fold rank": lambda t: t.nn.functional.fold(t.randn(1, 12, 6, 1), (3, 4), 2),
    "fold padding": lambda t: t.nn.functional.fold(t.randn(1, 12, 6), (3, 4), 2, padding=-1),
    "bilinear ranks": lambda t: t.nn.functional.bilinear(t.randn(2, 4, 3), t.randn(4, 2),
                                                         t.randn(5, 3, 2)),
    "bilinear batches": lambda t: t.nn.functional.bilinear(t.randn(4, 3), t.randn(3, 2),
                                                           t.randn(5, 3, 2)),
    "bilinear input1": lambda t: t.nn.functional.bilinear(t.randn(4, 4), t.randn(4, 2),
                                                          t.randn(5, 3, 2)),
    "bilinear input2": lambda t: t.nn.functional.bilinear(t.randn(4, 3), t.randn(4, 2),
                                                          t.randn(5, 3, 3)),
    "bilinear bias": lambda t: t.nn.functional.bilinear(t.randn(4, 3), t.randn(4, 2),
                                                        t.randn(5, 3, 2), t.randn(4)),
    "bilinear dtypes": lambda t: t.nn.functional.bilinear(t.randn(4, 3).double(),
                                                          t.randn(4, 2), t.randn(5, 3, 2)),
    "bilinear bias dtype": lambda t: t.nn.functional.bilinear(
        t.randn(4, 3), t.randn(4, 2), t.randn(5, 3, 2), t.randn(5).double()),
    "bilinear no features": lambda t: t.nn.Bilinear(0, 2, 3),
    "shuffle groups": lambda t: t.nn.functional.channel_shuffle(t.randn(1, 2, 4, 4), 3),
    "shuffle no groups": lambda t: t.nn.functional.channel_shuffle(t.randn(1, 2, 4, 4), 0),
    "channel shuffle rank": lambda t: t.nn.functional.channel_shuffle(t.randn(4, 2), 1),
}


@pytest.mark.parametrize("misuse", list(MISUSES))
def test_misuse_raises_torchs_error(misuse):
    assert_same_error(MISUSES[misuse])


# ---- power-average pools, the channel shuffle, the upsampling layers --------------------------


@pytest.mark.parametrize("function, shape, arguments, options", [
    ("lp_pool1d", (2, 3, 7), (2, 3), {}), ("lp_pool1d", (3, 8), (1.5, 2, 2), {}),
    ("lp_pool2d", (1, 2, 6, 6), (2, 2), {}), ("lp_pool2d", (1, 2, 7, 5), (3, (2, 3)),
                                             {"ceil_mode": True}),
    ("lp_pool2d", (2, 6, 6), (float("inf"), 2), {}),
    ("lp_pool2d", (1, 2, 6, 6), (-float("inf"), 3, 2), {}),
    ("lp_pool3d", (1, 2, 4, 4, 4), (2, 2), {}), ("lp_pool3d", (2, 4, 5, 4), (1, (2, 3, 2)),
                                                 {"stride": 1}),
])
def test_lp_pools(function, shape, arguments, options):
    def case(torch):
        x = (torch.rand(*shape) + 0.1).requires_grad_()  # (positive: p-th powers of any p)
        out = getattr(torch.nn.functional, function)(x, *arguments, **options)
        out.backward(torch.arange(out.numel(), dtype=out.dtype).reshape(out.shape))
        return out, x.grad
    check(seeded(case))


@pytest.mark.parametrize("shape, groups", [((2, 6, 3), 2), ((1, 6, 2, 2), 3), ((3, 4, 2, 1, 2), 4),
                                           ((2, 5, 3), 1)])
def test_channel_shuffle(shape, groups):
    check(_applied("channel_shuffle", shape, groups))


def test_pool_and_shuffle_modules():
    def case(torch):
        nn = torch.nn
        x = torch.rand(2, 4, 6, 6, requires_grad=True)
        layers = [nn.LPPool2d(2, 3), nn.LPPool1d(1.5, 2, stride=1), nn.LPPool3d(2, 2),
                  nn.ChannelShuffle(2)]
        outs = [layers[0](x), layers[1](x[0]), layers[2](x[None]), layers[3](x)]
        sum(out.sum() for out in outs).backward()
        return [repr(layer) for layer in layers], outs, x.grad
    check(seeded(case))


@pytest.mark.parametrize("layer", ["UpsamplingNearest2d(scale_factor=2)",
                                   "UpsamplingNearest2d(size=(5, 3))",
                                   "UpsamplingBilinear2d(scale_factor=1.5)",
                                   "UpsamplingBilinear2d(size=4)"])
def test_upsampling_layers(layer):
    def case(torch):
        module = eval(f"torch.nn.{layer}")
        x = torch.randn(1, 2, 3, 4, requires_grad=True)
        out = module(x)
        out.backward(torch.randn(out.shape))
        return repr(module), out, x.grad
    check(seeded(case))


@pytest.mark.parametrize("call", ["upsample(x, scale_factor=2, mode='bilinear')",
                                  "upsample_nearest(x, size=5)",
                                  "upsample_bilinear(x, scale_factor=2)"])
def test_deprecated_upsampling_functions_warn_and_interpolate(call):
    def case(torch):
        names = {"torch": torch, "x": torch.randn(1, 2, 3, 4)}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = eval(f"torch.nn.functional.{call}", names)
        return out, [str(w.message) for w in caught]
    check(seeded(case))


# ---- max unpooling -------------------------------------------------------------------------


# Windows that do not overlap: where they do, an index can repeat, and PyTorch's backward
# gives each repeat the gradient where compat gives it to the value written last.
@pytest.mark.parametrize("dims, shape, pool, unpool", [
    (1, (2, 3, 8), {"kernel_size": 2}, {}), (1, (3, 7), {"kernel_size": 3, "stride": 3}, {}),
    (2, (1, 2, 6, 6), {"kernel_size": 2}, {}),
    (2, (2, 5, 7), {"kernel_size": 3, "stride": 3, "padding": 1}, {}),
    (2, (1, 2, 7, 7), {"kernel_size": 2}, {"output_size": (7, 7)}),
    (2, (1, 2, 7, 7), {"kernel_size": 2}, {"output_size": (1, 2, 7, 8)}),
    (3, (1, 2, 4, 4, 4), {"kernel_size": 2}, {}),
    (3, (2, 4, 6, 4), {"kernel_size": (2, 3, 2), "stride": 2}, {}),
])
def test_max_unpool_puts_the_pooled_values_back(dims, shape, pool, unpool):
    def case(torch):
        F = torch.nn.functional
        x = torch.randn(*shape)
        pooled, indices = getattr(F, f"max_pool{dims}d")(x, return_indices=True, **pool)
        pooled.requires_grad_()
        settings = {key: value for key, value in pool.items() if key != "dilation"}
        out = getattr(F, f"max_unpool{dims}d")(pooled, indices, **settings, **unpool)
        out.backward(torch.arange(out.numel(), dtype=out.dtype).reshape(out.shape))
        module = getattr(torch.nn, f"MaxUnpool{dims}d")(**settings)
        return out, pooled.grad, repr(module), module(pooled, indices, **unpool)
    check(seeded(case))


# (One index out of range: where there are several, PyTorch's threads race to name one.)
UNPOOL_MISUSES = {
    "index dtype": "F.max_unpool2d(o, i.float(), 2)",
    "index shape": "F.max_unpool2d(o, i[..., :1], 2)",
    "index range": "F.max_unpool2d(o, i.index_fill(3, torch.tensor([1]), 99), 2)",
    "negative index": "F.max_unpool2d(o, i.index_fill(3, torch.tensor([1]), -1), 2)",
    "output size range": "F.max_unpool2d(o, i, 2, output_size=(9, 9))",
    "output size length": "F.max_unpool2d(o, i, 2, output_size=(5,))",
    "rank": "F.max_unpool2d(o[0, 0], i[0, 0], 2)",
    "3-d rank": "F.max_unpool3d(o[0], i[0], 2)",
    "1-d index range": "F.max_unpool1d(o[0, 0], torch.tensor([[0, 1], [2, 9]]), 2)",
    "integers": "F.max_unpool2d(o.long(), i, 2)",
}


@pytest.mark.parametrize("misuse", list(UNPOOL_MISUSES))
def test_max_unpool_misuse_raises_torchs_error(misuse):
    def case(torch):
        o, i = torch.nn.functional.max_pool2d(torch.randn(1, 2, 4, 4), 2, return_indices=True)
        return eval(UNPOOL_MISUSES[misuse], {"F": torch.nn.functional, "torch": torch, "o": o,
                                             "i": i})
    assert_same_error(seeded(case))
