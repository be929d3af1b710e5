"""Pooling built from the other pools and shuffles: the power-average pools (lp_pool1d/2d/3d,
composed of average or max pooling as PyTorch composes them) and the channel shuffle."""
import math
import numbers

import funcgrad.numpy as fnp

from .._quiet import quiet
from .._record import engine, wrap
from ._spatial import avg_pool1d, avg_pool2d, avg_pool3d, max_pool1d, max_pool2d, max_pool3d

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
    kernel = (kernel_size,) * dims if isinstance(kernel_size, numbers.Integral) else kernel_size
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
