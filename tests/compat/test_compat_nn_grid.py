"""compat's F.affine_grid and F.grid_sample against torch 2.13: values, gradients with
respect to the image, the grid and the affine maps, grad_fn names, PyTorch's warnings and
error texts."""
import itertools
import warnings

import pytest

from compat_harness import assert_same_error, check, seeded

PADDINGS = ["zeros", "border", "reflection"]


def _sampled(input_shape, grid_shape, mode, padding_mode, align_corners, spread=1.5,
             dtype="float64"):
    """grid_sample of a fresh image at a fresh grid spread over [-spread, spread] (beyond
    the image where spread > 1), with the gradients of both."""
    def case(torch):
        kind = getattr(torch, dtype)
        x = torch.randn(*input_shape, dtype=kind, requires_grad=True)
        grid = ((torch.rand(*grid_shape, dtype=kind) * 2 - 1) * spread).requires_grad_()
        out = torch.nn.functional.grid_sample(x, grid, mode=mode, padding_mode=padding_mode,
                                              align_corners=align_corners)
        out.backward(torch.arange(out.numel(), dtype=kind).reshape(out.shape) / 10)
        return out, x.grad, grid.grad
    return seeded(case)


@pytest.mark.parametrize("mode, padding_mode, align_corners, spread", [
    (mode, padding, align, spread)
    for mode, padding, align, spread in itertools.product(
        ["bilinear", "nearest", "bicubic"], PADDINGS, [False, True], [1.5, 4.0])])
def test_grid_sample_2d(mode, padding_mode, align_corners, spread):
    check(_sampled((2, 3, 4, 5), (2, 6, 7, 2), mode, padding_mode, align_corners, spread),
          rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("mode, padding_mode, align_corners", list(itertools.product(
    ["bilinear", "nearest"], PADDINGS, [False, True])))
def test_grid_sample_3d(mode, padding_mode, align_corners):
    check(_sampled((2, 2, 3, 4, 5), (2, 3, 4, 2, 3), mode, padding_mode, align_corners, 2.5),
          rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("mode", ["bilinear", "nearest", "bicubic"])
def test_grid_sample_in_float32(mode):
    check(_sampled((1, 2, 5, 6), (1, 4, 3, 2), mode, "reflection", False, dtype="float32"),
          rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("size", [(1, 1, 5, 6), (1, 1, 1, 4)])
def test_grid_sample_at_the_images_own_pixels(size):
    """An identity grid with align_corners reads each pixel back, positions on the edges
    included (where border and reflection padding have no derivative)."""
    def case(torch):
        x = torch.randn(*size, dtype=torch.float64, requires_grad=True)
        theta = torch.tensor([[[1.0, 0, 0], [0, 1, 0]]], dtype=torch.float64,
                             requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a unit-size grid's warning, checked below
            grid = torch.nn.functional.affine_grid(theta, size, align_corners=True)
        outs = [torch.nn.functional.grid_sample(x, grid, padding_mode=padding,
                                                align_corners=True)
                for padding in PADDINGS]
        sum(outs).sum().backward()
        return outs, x.grad, theta.grad
    check(seeded(case), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("size", [(2, 3, 4, 5), (1, 1, 1, 3), (2, 1, 3, 4, 2),
                                  (1, 2, 1, 1, 1)])
@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_affine_grid(size, align_corners, dtype):
    def case(torch):
        dims = len(size) - 2
        theta = torch.randn(size[0], dims, dims + 1, dtype=getattr(torch, dtype),
                            requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the unit-size warning, checked below
            grid = torch.nn.functional.affine_grid(theta, size, align_corners=align_corners)
        grid.backward(torch.arange(grid.numel(), dtype=grid.dtype).reshape(grid.shape))
        return grid, theta.grad
    check(seeded(case), rtol=1e-6)


def test_a_spatial_transformer_rotates_and_trains():
    """affine_grid then grid_sample, as the spatial transformer tutorial composes them."""
    def case(torch):
        image = torch.randn(2, 1, 6, 6)
        angle = torch.tensor(0.3, requires_grad=True)
        rows = [torch.stack([angle.cos(), -angle.sin(), torch.tensor(0.1)]),
                torch.stack([angle.sin(), angle.cos(), torch.tensor(-0.2)])]
        theta = torch.stack(rows).expand(2, 2, 3)
        grid = torch.nn.functional.affine_grid(theta, image.size(), align_corners=False)
        out = torch.nn.functional.grid_sample(image, grid, align_corners=False)
        out.square().mean().backward()
        return out, angle.grad
    check(seeded(case), rtol=1e-5, atol=1e-6)


def _warnings(call):
    def case(torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call(torch)
        return [(w.category.__name__, str(w.message)) for w in caught]
    return case


@pytest.mark.parametrize("call", [
    lambda torch: torch.nn.functional.grid_sample(torch.randn(1, 1, 2, 2),
                                                  torch.zeros(1, 1, 1, 2)),
    lambda torch: torch.nn.functional.affine_grid(torch.randn(1, 2, 3), (1, 1, 2, 2)),
    lambda torch: torch.nn.functional.affine_grid(torch.randn(1, 2, 3), (1, 1, 1, 2),
                                                  align_corners=True),
])
def test_warnings(call):
    check(_warnings(call))


def _grid_sample(input_shape=(2, 3, 4, 5), grid_shape=(2, 6, 7, 2), input_dtype="float32",
                 grid_dtype="float32", **options):
    def case(torch):
        x = torch.randn(*input_shape).to(getattr(torch, input_dtype))
        grid = torch.rand(*grid_shape).to(getattr(torch, grid_dtype))
        return torch.nn.functional.grid_sample(x, grid, align_corners=False, **options)
    return case


def _affine_grid(theta_shape=(2, 2, 3), size=(2, 3, 4, 5), dtype="float32"):
    def case(torch):
        theta = torch.randn(*theta_shape).to(getattr(torch, dtype))
        return torch.nn.functional.affine_grid(theta, size, align_corners=False)
    return case


@pytest.mark.parametrize("case", [
    _grid_sample(mode="area"), _grid_sample(padding_mode="wrap"),
    _grid_sample(input_shape=(1, 3, 4, 5)), _grid_sample(grid_shape=(2, 6, 7, 3)),
    _grid_sample(grid_shape=(2, 6, 7, 1, 2)), _grid_sample(input_shape=(2, 3, 0, 5)),
    _grid_sample(input_shape=(3, 4, 5), grid_shape=(6, 7, 2)),
    _grid_sample(input_shape=(3, 4, 5), grid_shape=(3, 5, 1)),
    _grid_sample(input_shape=(2, 3, 4, 5, 6, 7), grid_shape=(2, 1, 1, 1, 1, 4)),
    _grid_sample(input_shape=(2, 3, 4, 5, 3), grid_shape=(2, 6, 7, 2, 3), mode="bicubic"),
    _grid_sample(input_dtype="float64"), _grid_sample(grid_dtype="float64"),
    _grid_sample(input_dtype="int64", grid_dtype="int64"),
    _grid_sample(input_dtype="int64"),
    _grid_sample(input_shape=(2, 3, 4, 5, 3), grid_shape=(2, 6, 7, 2, 3),
                 input_dtype="int64", grid_dtype="int64"),
    _affine_grid(dtype="int64"), _affine_grid(size=(2, 3, 4, 5, 6)),
    _affine_grid(theta_shape=(2, 3, 4)), _affine_grid(theta_shape=(2, 3, 4), size=[2, 3, 4]),
    _affine_grid(size=(2, 3, 0, 5)), _affine_grid(size=(3, 3, 4, 5)),
    lambda torch: torch.nn.functional.affine_grid(
        torch.randn(2, 2, 3), torch.Size([2, 3, 4, 5, 6]), align_corners=False),
])
def test_errors(case):
    assert_same_error(case)


def test_half_precision():
    def case(torch):
        kind = torch.float16
        x, grid = torch.randn(1, 2, 4, 4).to(kind), (torch.rand(1, 3, 3, 2) * 2 - 1).to(kind)
        return torch.nn.functional.grid_sample(x, grid, align_corners=False)
    check(seeded(case), rtol=1e-2, atol=1e-2)
