"""Fractional max pooling (Graham, "Fractional Max-Pooling"): max pools whose windows start
at pseudo-random, increasing positions, one sequence per plane and spatial axis drawn from
a sample in [0, 1) (`_random_samples`, else drawn as PyTorch draws it), so that the output
may be any size between the input's and the input's less the window."""
import numpy as np

import funcgrad.numpy as fnp

from .. import _dtypes
from .._factories import empty
from .._quiet import quiet
from .._record import engine, wrap
from .._tensor import make
from ._spatial import _bound

_AXES = {2: ("height", "width"), 3: ("time", "height", "width")}


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):
    return _fractional_max_pool(2, input, kernel_size, output_size, output_ratio,
                                return_indices, _random_samples)


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):
    return _fractional_max_pool(3, input, kernel_size, output_size, output_ratio,
                                return_indices, _random_samples)


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None,
                                       output_ratio=None, return_indices=False,
                                       _random_samples=None):
    return _fractional_max_pool(2, input, kernel_size, output_size, output_ratio, True,
                                _random_samples)


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None,
                                       output_ratio=None, return_indices=False,
                                       _random_samples=None):
    return _fractional_max_pool(3, input, kernel_size, output_size, output_ratio, True,
                                _random_samples)


def _fractional_max_pool(dims, input, kernel_size, output_size, output_ratio,
                         return_indices, samples):
    name = f"fractional_max_pool{dims}d"
    if output_size is None:
        if output_ratio is None:
            raise ValueError(f"{name} requires specifying either an output_size or an "
                             f"output_ratio")
        if len(output_ratio) > dims:
            raise ValueError(f"{name} requires output_ratio to either be a single Int or "
                             f"tuple of Ints.")
        output_size = [int(input.size(d - dims) * ratio)
                       for d, ratio in enumerate(output_ratio)]
    if samples is None:
        batch = 1 if input.dim() == dims + 1 else input.size(0)
        samples = empty(batch, input.size(-dims - 1), dims, dtype=input.dtype).uniform_()
    kernel, size = _bound(kernel_size, dims), _bound(output_size, dims)
    for what, given in (("kernel_size", kernel), ("output_size", size)):
        if len(given) != dims:
            raise RuntimeError(f"{name}: {what} must either be a single Int or tuple of Ints")
    _check(name, dims, input, kernel, size, samples)
    lead = tuple(input.shape[:-dims])
    spatial = tuple(input.shape[-dims:])
    batch = lead[0] if len(lead) == 2 else 1
    windows = _window_positions(samples._data[:batch].reshape(-1, dims), spatial, size,
                                kernel, name)
    values = input._data.reshape(-1, int(np.prod(spatial)))
    chosen = _chosen(np.take_along_axis(values[:, None, :], windows, axis=2)
                     if values.size else np.zeros(windows.shape, values.dtype), windows)

    def compute(x):
        flat = fnp.reshape(x, (-1, int(np.prod(spatial))))
        return fnp.reshape(fnp.take_along_axis(flat, chosen, axis=1), lead + tuple(size))
    out = wrap(quiet().run(compute, engine(input)), f"FractionalMaxPool{dims}DBackward0",
               (input,))
    if not return_indices:
        return out
    return out, make(chosen.reshape(lead + tuple(size)))


def _check(name, dims, input, kernel, size, samples):
    """PyTorch's checks of the pooling's arguments (its 3-d kernel names itself ..._out and
    wants each window to end before the input does)."""
    kernel_name = f"{name}_out_frame"
    if dims == 3:
        name += "_out"
    if input.dim() not in (dims + 1, dims + 2):
        raise RuntimeError(f"{name}(): Expected {dims + 1}D or {dims + 2}D tensor, but got: "
                           f"{list(input.shape)}")
    for d in range(input.dim() - dims, input.dim()):
        if input.shape[d] <= 0:
            raise RuntimeError(f"{name}(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but got{list(input.shape)} with dimension {d} "
                               f"being empty.")
    if not input.dtype.is_floating_point:
        raise _dtypes.not_implemented_for(kernel_name, input.dtype)
    if samples.dtype is not input.dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    if samples.dim() != 3:
        raise RuntimeError(f"Expect _random_samples to have 3 dimensions, got {samples.dim()}")
    if samples.shape[2] != dims:
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {dims}; got "
                           f"{samples.shape[2]}.")
    batch = input.shape[0] if input.dim() == dims + 2 else 1
    if samples.shape[0] < batch:
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    # (PyTorch's kernel reads past a smaller second dimension; compat refuses it.)
    if samples.shape[1] != input.shape[-dims - 1]:
        raise RuntimeError(f"{name}(): expected _random_samples.size(1) to be the number of "
                           f"channels, {input.shape[-dims - 1]}, but got {samples.shape[1]}")
    if min(kernel) <= 0:  # (PyTorch's kernel pools empty windows; compat refuses them)
        raise RuntimeError(f"{name}(): kernel_size must be greater than zero, but got "
                           f"{list(kernel)}")
    for axis, pool, out, extent in zip(_AXES[dims], kernel, size, input.shape[-dims:]):
        if out + pool - 1 > extent - (dims == 3):
            raise RuntimeError(f"{name}(): pool {axis} {pool} too large relative to input "
                               f"{axis} {extent}")


def _starts(samples, extent, out, pool):
    """Each window's first position along one axis, for each plane's sample: increments of
    about (extent - pool) / (out - 1), the last window ending at the axis's end."""
    dtype = samples.dtype.type
    starts = np.full(samples.shape + (out,), extent - pool, np.int64)
    if out > 1:
        alpha = dtype(extent - pool) / dtype(out - 1)
        steps = np.arange(out - 1, dtype=samples.dtype)
        starts[..., :-1] = (np.trunc((steps + samples[..., None]) * alpha)
                            - np.trunc(samples[..., None] * alpha))
    return starts


def _window_positions(samples, spatial, size, kernel, name):
    """The flat positions (planes, outputs, window) of each output's window: samples (planes,
    dims) hold each plane's sample of each axis, the last axis's first (as in PyTorch's
    kernel for 2-d pools, its first axis's first for 3-d ones)."""
    dims = len(spatial)
    order = range(dims - 1, -1, -1) if dims == 2 else range(dims)
    flat = np.zeros((len(samples),) + (1,) * (2 * dims), np.int64)
    for axis, column in zip(range(dims), order):
        starts = _starts(samples[:, column], spatial[axis], size[axis], kernel[axis])
        if starts.size and (starts.min() < 0 or starts.max() > spatial[axis] - kernel[axis]):
            raise RuntimeError(f"{name}(): _random_samples must lie in [0, 1)")
        positions = starts[..., None] + np.arange(kernel[axis])
        shape = [len(samples)] + [1] * (2 * dims)
        shape[1 + axis], shape[1 + dims + axis] = size[axis], kernel[axis]
        flat = flat * spatial[axis] + positions.reshape(shape)
    return flat.reshape(len(samples), int(np.prod(size)), int(np.prod(kernel)))


def _chosen(windows_values, windows):
    """The position each window's maximum is read from, as PyTorch's kernel picks it: the
    first largest value, or the last NaN."""
    nans = np.isnan(windows_values)
    last_nan = nans.shape[-1] - 1 - np.argmax(nans[..., ::-1], axis=-1)
    largest = np.argmax(np.where(nans, -np.inf, windows_values), axis=-1)
    picked = np.where(nans.any(-1), last_nan, largest)
    return np.take_along_axis(windows, picked[..., None], axis=-1)[..., 0]
