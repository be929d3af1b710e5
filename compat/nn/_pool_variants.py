"""Pooling built from the other pools and shuffles: the power-average pools (lp_pool1d/2d/3d,
composed of average or max pooling as PyTorch composes them), the channel shuffle, and max
unpooling (a max pool's values put back at its indices)."""
import math

import numpy as np

import funcgrad.numpy as fnp
from funcgrad.core import unbox_all

from .. import _dtypes
from .._quiet import quiet
from .._record import engine, wrap
from ._spatial import (_bound, avg_pool1d, avg_pool2d, avg_pool3d, max_pool1d, max_pool2d,
                       max_pool3d)

_POOLS = {1: (avg_pool1d, max_pool1d), 2: (avg_pool2d, max_pool2d),
          3: (avg_pool3d, max_pool3d)}


def _lp_pool(dims, input, norm_type, kernel_size, stride, ceil_mode):
    """The norm_type-norm of each window: (sum of x ** p) ** (1 / p), the largest |x| for
    p = inf (the smallest for -inf)."""
    average, largest = _POOLS[dims]
    if norm_type == math.inf:
        return largest(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if norm_type == -math.inf:
        return -largest(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is None:
        means = average(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    else:
        means = average(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    kernel = _bound(kernel_size, dims)
    # The mean times the window's size: the sum, made non-negative as PyTorch makes it.
    sums = (means.sign() * means.abs().relu()).mul(math.prod(kernel))
    return sums.pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    return _lp_pool(1, input, norm_type, kernel_size, stride, ceil_mode)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    return _lp_pool(2, input, norm_type, kernel_size, stride, ceil_mode)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    return _lp_pool(3, input, norm_type, kernel_size, stride, ceil_mode)


def channel_shuffle(input, groups):
    """(N, g * k, *) to (N, k * g, *): the channels of g groups interleaved."""
    if input.dim() <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with "
                           f"sizes {list(input.shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value "
                           f"of groups:{groups}")
    channels = input.shape[1]
    if channels % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {channels} "
                           f"channels and {groups} groups.")
    batch, rest = input.shape[0], tuple(input.shape[2:])

    def compute(x):
        x = fnp.reshape(x, (batch, groups, channels // groups) + rest)
        return fnp.reshape(fnp.swapaxes(x, 1, 2), (batch, channels) + rest)
    return wrap(quiet().run(compute, engine(input)), "ChannelShuffleBackward0", (input,))


# ---- max unpooling -------------------------------------------------------------------------


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """max_unpool2d of the input with a trailing dimension of 1 (as PyTorch computes it)."""
    size = _unpool_output_size(input, indices, 1, kernel_size, stride, padding, output_size)
    unpooled = _max_unpooled(input.unsqueeze(-1), indices.unsqueeze(-1), tuple(size) + (1,), 2)
    return unpooled.squeeze(-1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Each value of `input` put at its index (a max pool's, flat in the output's spatial
    positions) of a zero image of output_size."""
    size = _unpool_output_size(input, indices, 2, kernel_size, stride, padding, output_size)
    return _max_unpooled(input, indices, size, 2)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    size = _unpool_output_size(input, indices, 3, kernel_size, stride, padding, output_size)
    return _max_unpooled(input, indices, size, 3)


def _unpool_output_size(input, indices, dims, kernel_size, stride, padding, output_size):
    """The output's spatial size: output_size (checked against the default), or the size of
    the max pool's input that the windows imply."""
    kernel = _bound(kernel_size, dims)
    stride = kernel if stride is None else _bound(stride, dims)
    padding = _bound(padding, dims)
    default = [(input.size(d - dims) - 1) * step + k - 2 * pad
               for d, (k, step, pad) in enumerate(zip(kernel, stride, padding))]
    if output_size is None:
        return default
    output_size = list(output_size)
    if len(output_size) == dims + 2:
        output_size = output_size[2:]
    if len(output_size) != dims:
        raise ValueError(f"output_size should be a sequence containing {dims} or {dims + 2} "
                         f"elements, but it has a length of '{len(output_size)}'")
    for d, (size, step) in enumerate(zip(output_size, stride)):
        low, high = default[d] - step, default[d] + step
        if not low < size < high:
            raise ValueError(f'invalid output_size "{tuple(output_size)}" (dim {d} must be '
                             f'between {low} and {high})')
    return output_size


def _max_unpooled(input, indices, size, dims):
    name = f"max_unpooling{dims}d"
    if input.dim() not in (dims + 1, dims + 2):
        raise RuntimeError(f"Input to {name} should be a {dims + 1}d or {dims + 2}d Tensor, but "
                           f"got a tensor with {input.dim()} dimensions.")
    if indices.dtype is not _dtypes.int64:
        raise RuntimeError(f"elements in indices should be type int64 but got: "
                           f"{indices.dtype.scalar_name}")
    if indices.shape != input.shape:
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor "
                           f"({list(input.shape)}) but got indices tensor with shape: "
                           f"{list(indices.shape)}")
    if not input.dtype.is_floating_point:
        raise _dtypes.not_implemented_for(f"max_unpool{dims}d", input.dtype)
    lead = tuple(input.shape[:-dims])
    positions = math.prod(size)
    flat = indices._data.reshape(lead + (-1,))
    outside = (flat < 0) | (flat >= positions)
    if outside.any():  # (PyTorch's kernel names the last one it meets)
        raise RuntimeError(f"Found an invalid max index: {flat[outside][-1]} (output volumes "
                           f"are of size {'x'.join(map(str, size))})")
    # Each value's place: its leading (batch, channel) position and its flat index.
    place = tuple(np.indices(flat.shape)[:-1]) + (flat,)

    def compute(x):
        zeros = np.zeros(lead + (positions,), unbox_all(x).dtype)
        out = fnp.at(zeros)[place].set(fnp.reshape(x, flat.shape))
        return fnp.reshape(out, lead + tuple(size))
    return wrap(quiet().run(compute, engine(input)), f"MaxUnpool{dims}DBackward0", (input,),
                others=(indices,))
