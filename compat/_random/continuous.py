"""Uniform, normal and exponential values, drawn and transformed as PyTorch's CPU kernels do.

Each sampler takes a Generator, a count and a NumPy float dtype and returns that many values
in the order PyTorch's kernel writes them (the caller places them in memory order).

* uniform: a float32 (or float16) value takes one 32-bit draw and keeps its low 24 bits; a
  float64 takes two draws (high word first) and keeps the low 53 bits of the 64-bit
  number; ``x * (to - from) + from`` is one fused multiply-add.
* normal: tensors of 16 or more contiguous elements are filled 16 at a time: 16 uniforms
  become 8 Box-Muller pairs, radius from the first 8 and angle from the last 8 (float32 with
  the AVX2 kernel's log and sincos, float64 with libm); a size that is not a multiple of 16
  draws 16 more uniforms and refills the last 16 elements. Smaller or non-contiguous tensors
  draw one double Box-Muller pair per two elements (log1p, sin and cos from libm) and keep
  the spare second value in the generator for its next such draw.
* exponential: ``-1 / lambda * log1p(-u)`` in double from a double uniform.
* cauchy and log_normal: PyTorch's serial kernels at every size: a double uniform through
  tan, and exp of the scalar Box-Muller normal.
"""
import math

import numpy as np

from .avx2_math import log_unit, sincos
from .exact import fma32, fma64, libm

_f16, _f32, _f64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
_TWO_PI = 2.0 * math.pi
_TWO_PI_F32 = np.float32(_TWO_PI)
_MASK24, _MASK53 = np.uint64(2**24 - 1), np.uint64(2**53 - 1)
VECTOR_BLOCK = 16  # the vectorised normal fill works on blocks of 16 values
# Values are made this many at a time: the temporaries stay in cache and below the size at
# which NumPy asks for huge pages (first touches of fresh 4 MiB arrays cost more than the
# arithmetic on them).
_CHUNK = 1 << 15


# Infinities and NaNs from extreme parameters are results, as in C++, not warnings.
_ieee = np.errstate(over="ignore", invalid="ignore", divide="ignore")


def _in_chunks(count, dtype, make):
    """`count` values made by ``make(n)`` for consecutive chunks of at most _CHUNK."""
    if count <= _CHUNK:
        return make(count)
    values = np.empty(count, dtype)
    for start in range(0, count, _CHUNK):
        stop = min(start + _CHUNK, count)
        values[start:stop] = make(stop - start)
    return values


def cast(values, dtype):
    """float32/float64 values as `dtype`, rounding as C++'s static_cast does (to float16
    through float32, since c10::Half is built from a float)."""
    dtype = np.dtype(dtype)
    with np.errstate(over="ignore"):  # beyond the dtype's range is inf, as in C++
        if dtype == _f16 and values.dtype == _f64:
            values = values.astype(_f32)
        return values.astype(dtype, copy=False)


def standard_float32(generator, count):
    """`count` uniforms in [0, 1) with 24 random bits (one 32-bit draw each)."""
    words = generator.words(count)
    return (words & _MASK24).astype(_f32) * np.float32(2.0 ** -24)


def standard_float64(generator, count):
    """`count` uniforms in [0, 1) with 53 random bits (two 32-bit draws each)."""
    return (generator.words64(count) & _MASK53).astype(_f64) * 2.0 ** -53


@_ieee
def uniform(generator, count, dtype, low, high):
    """uniform_(low, high): values in [low, high); a value that rounds to `high` in the
    tensor's dtype is replaced by `low`, as PyTorch does."""
    dtype = np.dtype(dtype)
    high_value = cast(np.array(high, _f64), dtype)
    low_value = cast(np.array(low, _f64), dtype)
    if dtype == _f64:
        def make(n):
            return fma64(standard_float64(generator, n), high - low, low)
    else:
        low32, high32 = np.float32(low), np.float32(high)

        def make(n):
            return cast(fma32(standard_float32(generator, n), high32 - low32, low32), dtype)

    def replaced(n):
        values = make(n)
        return np.where(values == high_value, low_value, values)
    return _in_chunks(count, dtype, replaced)


@_ieee
def normal(generator, count, dtype, mean, std, vectorised):
    """normal_(mean, std): the 16-at-a-time fill when `vectorised` (PyTorch's choice for a
    contiguous tensor of at least 16 elements), else the scalar Box-Muller path."""
    dtype = np.dtype(dtype)
    if not vectorised:
        return _in_chunks(count, dtype, lambda n: cast(
            fma64(_scalar_normals(generator, n), std, mean), dtype))
    full, partial = divmod(count, VECTOR_BLOCK)
    if dtype == _f64:
        draw, transform, work = standard_float64, _blocks_float64, _f64
    else:
        draw, transform, work = standard_float32, _blocks_float32, _f32
    values = np.empty(count, work)
    values[:full * VECTOR_BLOCK] = _in_chunks(full * VECTOR_BLOCK, work, lambda n: transform(
        draw(generator, n).reshape(-1, VECTOR_BLOCK), mean, std).ravel())
    if partial:
        # float32 and float64 draw the uniforms of the partial block too (PyTorch fills the
        # whole tensor with uniforms first) and then discard them; float16 does not. A
        # block of 16 new uniforms then refills the last 16 elements.
        if dtype != _f16:
            draw(generator, partial)
        tail = draw(generator, VECTOR_BLOCK).reshape(1, VECTOR_BLOCK)
        values[count - VECTOR_BLOCK:] = transform(tail, mean, std).ravel()
    return cast(values, dtype)


def _blocks_float32(blocks, mean, std):
    """PyTorch's AVX2 NormalFill16 on rows of 16 float32 uniforms."""
    radius = np.sqrt(np.float32(-2.0) * log_unit(np.float32(1.0) - blocks[:, :8]))
    sin, cos = sincos(_TWO_PI_F32 * blocks[:, 8:])
    mean, std = np.float32(mean), np.float32(std)
    return np.concatenate([fma32(radius * cos, std, mean), fma32(radius * sin, std, mean)],
                          axis=1)


def _blocks_float64(blocks, mean, std):
    """PyTorch's NormalFill16 for double on rows of 16 uniforms (libm's log, cos, sin)."""
    radius = np.sqrt(-2.0 * libm(math.log, 1.0 - blocks[:, :8]))
    angle = _TWO_PI * blocks[:, 8:]
    return np.concatenate([fma64(radius * libm(math.cos, angle), std, mean),
                           fma64(radius * libm(math.sin, angle), std, mean)], axis=1)


def _scalar_normals(generator, count):
    """`count` standard normals from PyTorch's scalar Box-Muller, using and refilling the
    generator's cached second value."""
    values = np.empty(count, _f64)
    start = 0
    if count and generator.next_double_normal is not None:
        values[0] = generator.next_double_normal
        generator.next_double_normal = None
        start = 1
    needed = count - start
    pairs = (needed + 1) // 2
    uniforms = standard_float64(generator, 2 * pairs).reshape(pairs, 2)
    radius = np.sqrt(-2.0 * libm(math.log1p, -uniforms[:, 1]))
    angle = _TWO_PI * uniforms[:, 0]
    samples = np.stack([radius * libm(math.cos, angle), radius * libm(math.sin, angle)],
                       axis=1).ravel()
    values[start:] = samples[:needed]
    if needed % 2:
        generator.next_double_normal = float(samples[-1])
    return values


@_ieee
def exponential(generator, count, dtype, rate):
    """exponential_(rate): ``-1 / rate * log1p(-u)`` for double uniforms u."""
    return _in_chunks(count, dtype, lambda n: cast(
        (-1.0 / rate) * libm(math.log1p, -standard_float64(generator, n)), dtype))


@_ieee
def cauchy(generator, count, dtype, median, sigma):
    """cauchy_(median, sigma): ``median + sigma * tan(pi * (u - 0.5))`` in double from a
    double uniform u, the scaling one fused multiply-add."""
    return _in_chunks(count, dtype, lambda n: cast(fma64(
        libm(math.tan, math.pi * (standard_float64(generator, n) - 0.5)), sigma, median),
        dtype))


@_ieee
def log_normal(generator, count, dtype, mean, std):
    """log_normal_(mean, std): exp of a scalar Box-Muller normal (PyTorch's serial kernel
    at every size, sharing the generator's cached second value)."""
    return _in_chunks(count, dtype, lambda n: cast(
        libm(math.exp, fma64(_scalar_normals(generator, n), std, mean)), dtype))
