"""Spatial transformers: affine_grid (the sampling grid of a batch of affine maps) and
grid_sample (an image read at a grid of normalised positions: bilinear, nearest or bicubic,
with zeros, border or reflection padding), composed of funcgrad.numpy operations so that
both are differentiated with respect to the image and the grid (or the affine maps)."""
import itertools
import warnings

import numpy as np

import funcgrad.numpy as fnp
from funcgrad.core import unbox_all

from .. import _dtypes
from .._factories import linspace
from .._quiet import quiet
from .._record import engine, wrap

_ALIGN_CORNERS = ("Default grid_sample and affine_grid behavior has changed to "
                  "align_corners=False since 1.3.0. Please specify align_corners=True if the "
                  "old behavior is desired. See the documentation of grid_sample for details.")


def _aligned(align_corners):
    """align_corners, False (with PyTorch's warning, at the caller's caller) if not given."""
    if align_corners is None:
        warnings.warn(_ALIGN_CORNERS, UserWarning, stacklevel=3)
        return False
    return align_corners


# ---- affine_grid ---------------------------------------------------------------------------


def affine_grid(theta, size, align_corners=None):
    """The positions (N, *spatial, dims) that the affine maps theta (N, dims, dims + 1) send
    an output of `size` (N, C, *spatial) to: each map applied to the output's own positions,
    spread over [-1, 1] in each dimension (x first)."""
    align_corners = _aligned(align_corners)
    if not theta.dtype.is_floating_point:
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    if len(size) not in (4, 5):
        raise NotImplementedError(f"affine_grid only supports 4D and 5D sizes, for 2D and 3D "
                                  f"affine transforms, respectively. Got size {size}.")
    dims = len(size) - 2
    if theta.dim() != 3 or tuple(theta.shape[-2:]) != (dims, dims + 1):
        raise ValueError(f"Expected a batch of {dims}D affine matrices of shape "
                         f"Nx{dims}x{dims + 1} for size {size}. Got {theta.shape}.")
    spatial = tuple(size[2:])
    if align_corners and min(spatial) == 1:
        warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size "
                      "grids when align_corners=True. This is not an intended use case of "
                      "affine_grid. See the documentation of affine_grid for details.",
                      UserWarning, stacklevel=2)
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    batch = size[0]
    if theta.shape[0] != batch:  # (PyTorch's batched product's error)
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{batch}, {dims + 1}] but got: [{theta.shape[0]}, {dims + 1}].")
    dtype = theta.dtype.numpy
    # The output's positions (x, y[, z], 1) in homogeneous coordinates, x the last axis's.
    axes = [_positions(steps, align_corners, theta.dtype) for steps in reversed(spatial)]
    columns = [np.broadcast_to(axis.reshape([-1 if d == dims - 1 - k else 1
                                             for d in range(dims)]), spatial)
               for k, axis in enumerate(axes)]
    base = np.stack(columns + [np.ones(spatial, dtype)], -1).reshape(1, -1, dims + 1)

    def compute(maps):
        points = fnp.matmul(np.broadcast_to(base, (batch,) + base.shape[1:]),
                            fnp.swapaxes(maps, 1, 2))
        return fnp.reshape(points, (batch,) + spatial + (dims,))
    return wrap(quiet().run(compute, engine(theta)), "AffineGridGeneratorBackward0", (theta,))


def _positions(steps, align_corners, dtype):
    """`steps` positions from -1 to 1 (the pixels' corners), or pulled in to the pixels'
    centres; 0 for a single step."""
    if steps <= 1:
        return np.zeros(1, dtype.numpy)
    spread = linspace(-1, 1, steps, dtype=dtype)._data
    if align_corners:
        return spread
    return spread * np.asarray(steps - 1, dtype.numpy) / np.asarray(steps, dtype.numpy)


# ---- grid_sample ---------------------------------------------------------------------------

_MODES = ("bilinear", "nearest", "bicubic")
_PADDINGS = ("zeros", "border", "reflection")
# The cubic convolution's parameter, as in bicubic resizing.
_CUBIC_A = -0.75


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """`input` (N, C, *spatial) read at the positions `grid` (N, *out, dims), normalised to
    [-1, 1] over each spatial dimension (x the last); (N, C, *out)."""
    if mode not in _MODES:
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', "
                         f"'nearest' or 'bicubic', but got: '{mode}'")
    if padding_mode not in _PADDINGS:
        raise ValueError(f"nn.functional.grid_sample(): expected padding_mode to be 'zeros', "
                         f"'border', or 'reflection', but got: '{padding_mode}'")
    align_corners = _aligned(align_corners)
    _check_sampler(input, grid, mode)
    dims = input.dim() - 2
    sizes = tuple(input.shape[2:])
    dtype = input.dtype.numpy
    # Half precision is computed in float32 and rounded once, as PyTorch's kernel does.
    working = np.float32 if dtype.itemsize < 4 else dtype

    def compute(x, g):
        x, g = fnp.astype(x, working), fnp.astype(g, working)
        # Each input axis's coordinate, in pixels (x, the grid's first, is the last axis's).
        coordinates = [_unnormalized(g[..., dims - 1 - axis], size, align_corners)
                       for axis, size in enumerate(sizes)]
        if mode == "bicubic":
            out = _bicubic(x, coordinates, sizes, padding_mode, align_corners)
        else:
            coordinates = [_padded(c, size, padding_mode, align_corners)
                           for c, size in zip(coordinates, sizes)]
            sample = _nearest if mode == "nearest" else _linear
            out = sample(x, coordinates, sizes)
        return fnp.astype(out, dtype)
    out = quiet().run(compute, engine(input), engine(grid))
    return wrap(out, f"GridSampler{dims}DBackward0", (input, grid), saves_inputs=True)


def _check_sampler(input, grid, mode):
    """PyTorch's checks of the input and grid, in its order."""
    def sizes():
        return f"input with sizes {list(input.shape)} and grid with sizes {list(grid.shape)}"
    if input.dim() == 0 or grid.dim() == 0 or input.shape[0] != grid.shape[0]:
        raise RuntimeError(f"grid_sampler(): expected grid and input to have same batch size, "
                           f"but got {sizes()}")
    if grid.shape[-1] != input.dim() - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {input.dim() - 2} in "
                           f"last dimension, but got grid with sizes {list(grid.shape)}")
    for d in range(2, input.dim()):
        if input.shape[d] <= 0:
            raise RuntimeError(f"grid_sampler(): expected input to have non-empty spatial "
                               f"dimensions, but input has sizes {list(input.shape)} with "
                               f"dimension {d} being empty")
    dims = 2 if input.dim() == 4 else 3
    if input.dim() != dims + 2 or grid.dim() != dims + 2:
        raise RuntimeError(f"grid_sampler(): expected {dims + 2}D input and grid with same "
                           f"number of dimensions, but got {sizes()}")
    if dims == 3 and mode == "bicubic":
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    if not input.dtype.is_floating_point:
        kernel = "grid_sampler_2d_cpu_kernel_impl" if dims == 2 else "grid_sampler3d_cpu"
        raise _dtypes.not_implemented_for(kernel, input.dtype)
    if grid.dtype is not input.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype.scalar_name} but found "
                           f"{grid.dtype.scalar_name}")


def _unnormalized(coordinate, size, align_corners):
    """A normalised coordinate in pixels: -1 and 1 the first and last pixels' centres, or
    (not align_corners) their outer edges."""
    if align_corners:
        return fnp.multiply(fnp.true_divide(fnp.add(coordinate, 1.0), 2.0), size - 1.0)
    return fnp.true_divide(fnp.subtract(fnp.multiply(fnp.add(coordinate, 1.0), float(size)),
                                        1.0), 2.0)


def _padded(coordinate, size, padding_mode, align_corners):
    """The coordinate moved into the image as the padding says (zeros: left outside)."""
    if padding_mode == "border":
        return _clipped(coordinate, size)
    if padding_mode == "reflection":
        if align_corners:
            reflected = _reflected(coordinate, 0, 2 * (size - 1))
        else:
            reflected = _reflected(coordinate, -1, 2 * size - 1)
        return _clipped(reflected, size)
    return coordinate


def _clipped(coordinate, size):
    """The coordinate clamped to [0, size - 1]; its derivative is 0 at either bound, as in
    PyTorch's kernel."""
    raw = unbox_all(coordinate)
    low = np.zeros((), raw.dtype)
    return fnp.where(raw <= 0, low, fnp.where(raw >= size - 1, low + (size - 1), coordinate))


def _reflected(coordinate, twice_low, twice_high):
    """The coordinate reflected off low and high until it lies between them."""
    raw = unbox_all(coordinate)
    if twice_low == twice_high:
        return np.zeros_like(raw)
    low, span = twice_low / 2, (twice_high - twice_low) / 2
    shifted = fnp.subtract(coordinate, low)
    sign = np.where(unbox_all(shifted) < 0, -1, 1).astype(raw.dtype)  # (+1 at 0, as PyTorch's)
    distance = fnp.multiply(shifted, sign)
    extra = fnp.fmod(distance, span)
    flips = np.floor(unbox_all(distance) / span)
    return fnp.where(flips % 2 == 0, fnp.add(extra, low),
                     fnp.add(fnp.subtract(span, extra), low))


def _taps(x, indices, sizes, bounded):
    """x (N, C, *sizes) at the integer positions `indices` (one (N, *out) array per axis),
    as (N, C, *out); 0 where a position is outside the image and `bounded` is False."""
    batch, channels = fnp.shape(x)[:2]
    out_shape = indices[0].shape
    inside = np.ones(out_shape, bool)
    flat = np.zeros(out_shape, np.int64)
    for index, size in zip(indices, sizes):
        inside &= (index >= 0) & (index < size)
        flat = flat * size + np.clip(index, 0, size - 1)
    flat = np.broadcast_to(flat.reshape(batch, 1, -1), (batch, channels, flat[0].size))
    values = fnp.take_along_axis(fnp.reshape(x, (batch, channels, -1)), flat, axis=2)
    values = fnp.reshape(values, (batch, channels) + out_shape[1:])
    if bounded:
        return values
    return fnp.where(inside[:, None], values, np.zeros((), unbox_all(values).dtype))


def _nearest(x, coordinates, sizes):
    """The pixel nearest each position (halves rounded to even)."""
    indices = [np.rint(unbox_all(c)).astype(np.int64) for c in coordinates]
    values = _taps(x, indices, sizes, False)
    # The grid joins the result as a branch never taken: its gradient is zeros, not none,
    # as in PyTorch.
    unused = fnp.expand_dims(fnp.floor(coordinates[0]), 1)
    return fnp.where(np.ones((), bool), values, unused)


def _linear(x, coordinates, sizes):
    """Bi- or trilinear interpolation of the 2 ** dims pixels around each position."""
    lows = [np.floor(unbox_all(c)) for c in coordinates]
    # Each axis's weights of its lower and upper pixel.
    weights = [(fnp.subtract(low + 1, c), fnp.subtract(c, low))
               for c, low in zip(coordinates, lows)]
    out = None
    for corner in itertools.product((0, 1), repeat=len(sizes)):
        indices = [low.astype(np.int64) + side for low, side in zip(lows, corner)]
        # The weight, a product over the axes, x's first as in PyTorch's kernel.
        factors = [pair[side] for pair, side in zip(weights, corner)][::-1]
        weight = factors[0]
        for factor in factors[1:]:
            weight = fnp.multiply(weight, factor)
        term = fnp.multiply(_taps(x, indices, sizes, False), fnp.expand_dims(weight, 1))
        out = term if out is None else fnp.add(out, term)
    return out


def _cubic_weights(t):
    """The cubic convolution's weights of the four pixels around a position t past the
    second of them."""
    def near(s):  # |s| <= 1
        return fnp.add(fnp.multiply(fnp.multiply(fnp.subtract(
            fnp.multiply(_CUBIC_A + 2, s), _CUBIC_A + 3), s), s), 1.0)

    def far(s):  # 1 < |s| < 2
        inner = fnp.add(fnp.multiply(fnp.subtract(fnp.multiply(_CUBIC_A, s), 5 * _CUBIC_A),
                                     s), 8 * _CUBIC_A)
        return fnp.subtract(fnp.multiply(inner, s), 4 * _CUBIC_A)
    rest = fnp.subtract(1.0, t)
    return [far(fnp.add(t, 1.0)), near(t), near(rest), far(fnp.add(rest, 1.0))]


def _bicubic(x, coordinates, sizes, padding_mode, align_corners):
    """Bicubic interpolation of the 4 x 4 pixels around each position (rows first, then
    the column of their results), each pixel's position padded on its own."""
    lows = [np.floor(unbox_all(c)) for c in coordinates]
    rows_weights, columns_weights = [_cubic_weights(fnp.subtract(c, low))
                                     for c, low in zip(coordinates, lows)]
    bounded = padding_mode != "zeros"

    def tap(offset, low, size):
        position = _padded(low + offset, size, padding_mode, align_corners)
        return np.asarray(position).astype(np.int64)  # (truncated, as PyTorch casts)
    out = None
    for i, row_weight in enumerate(rows_weights):
        row = tap(i - 1, lows[0], sizes[0])
        interpolated = None
        for j, column_weight in enumerate(columns_weights):
            value = _taps(x, [row, tap(j - 1, lows[1], sizes[1])], sizes, bounded)
            term = fnp.multiply(value, fnp.expand_dims(column_weight, 1))
            interpolated = term if interpolated is None else fnp.add(interpolated, term)
        term = fnp.multiply(interpolated, fnp.expand_dims(row_weight, 1))
        out = term if out is None else fnp.add(out, term)
    return out
