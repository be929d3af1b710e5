"""The resizes that weigh several input positions by a filter, over a 4-d input's last two
dimensions, each computed as PyTorch's CPU kernels compute it:

- 'bicubic' (upsample_bicubic2d): four positions around each output's source position,
  clamped at the edges, weighted by Keys' cubic with a = -0.75, in the input's
  computation type (float32 for float16);
- antialias=True (PIL's resampling, as PyTorch's _upsample_*_aa): every input position
  within the filter's support of the output's centre, the support widened by the scale
  when shrinking, the weights normalised to sum to 1, in the input's own type: 'bilinear'
  (a triangle), 'bicubic' (Keys' cubic with a = -0.5) and 'lanczos' (three lobes of sinc).

Both resize the width first, then the height, as PyTorch's kernels nest their sums. Each
dimension's resize is a weighted sum of funcgrad.numpy `take`s, whose derivatives add
each output's gradient back to the positions it read: no derivative is written here.
"""
import math

import numpy as np

import funcgrad.numpy as fnp

CUBIC_TAPS = 4


def source_scale(n_in, n_out, factor, align_corners, dtype):
    """The step between the source positions of consecutive outputs, in `dtype`
    (PyTorch's area_pixel_compute_scale)."""
    if align_corners:
        return dtype(n_in - 1) / dtype(n_out - 1) if n_out > 1 else dtype(0)
    if factor is not None and factor > 0:
        return dtype(1.0 / factor)
    return dtype(n_in) / dtype(n_out)


def cubic_near(x, a):
    """Keys' cubic convolution kernel for |x| <= 1."""
    return ((a + 2) * x - (a + 3)) * x * x + 1


def cubic_far(x, a):
    """Keys' cubic convolution kernel for 1 < |x| < 2."""
    return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a


def cubic_taps(n_in, n_out, factor, align_corners, compute):
    """The four positions (n_out, 4) each output reads and their weights, in `compute`."""
    scale = source_scale(n_in, n_out, factor, align_corners, compute)
    out = np.arange(n_out).astype(compute)
    source = scale * out if align_corners else scale * (out + compute(0.5)) - compute(0.5)
    # (PyTorch floors the source position as a float32, whatever the type)
    index = np.minimum(np.floor(source.astype(np.float32)).astype(np.int64), n_in - 1)
    t = np.clip(source - index.astype(compute), compute(0), compute(1))
    a = compute(-0.75)
    weights = np.stack([cubic_far(t + 1, a), cubic_near(t, a), cubic_near(1 - t, a),
                        cubic_far((1 - t) + 1, a)], axis=1)
    positions = np.clip(index[:, None] + np.arange(-1, CUBIC_TAPS - 1), 0, n_in - 1)
    return positions, weights


# ---- antialiased filters (PIL's), with the half-width of their support ------------------

def _triangle(x):
    x = np.abs(x)
    return np.where(x < 1, 1 - x, 0).astype(x.dtype)


def _keys_cubic(x):
    x = np.abs(x)
    a = x.dtype.type(-0.5)
    return np.where(x < 1, cubic_near(x, a), np.where(x < 2, cubic_far(x, a), 0)
                    ).astype(x.dtype)


def _lanczos(x):
    wide = x.astype(np.float64)
    inside = (wide >= -3) & (wide < 3)
    return np.where(inside, np.sinc(wide) * np.sinc(wide / 3), 0).astype(x.dtype)


FILTERS = {"bilinear": (_triangle, 1), "bicubic": (_keys_cubic, 2), "lanczos": (_lanczos, 3)}


def antialiased_taps(n_in, n_out, factor, align_corners, dtype, mode):
    """The positions (n_out, taps) each output reads (-1 past the last of its window) and
    their normalised weights, in `dtype`, for the antialiased filter of `mode`."""
    window, half_width = FILTERS[mode]
    scale = source_scale(n_in, n_out, factor, align_corners, dtype)
    # The support and the centres are rounded to `dtype` from double-precision products.
    support = dtype(half_width * float(scale) if scale >= 1 else half_width)
    inverse = dtype(1.0 / float(scale) if scale >= 1 else 1.0)
    taps = int(math.ceil(support)) * 2 + 1
    centre = (float(scale) * (np.arange(n_out) + 0.5)).astype(dtype)
    first = np.maximum(np.trunc((centre - support).astype(np.float64) + 0.5), 0).astype(int)
    last = np.minimum(np.trunc((centre + support).astype(np.float64) + 0.5), n_in).astype(int)
    count = np.clip(last - first, 0, taps)
    offsets = np.arange(taps)
    distance = ((offsets + first[:, None]).astype(dtype) - centre[:, None]).astype(np.float64)
    weights = window(((distance + 0.5) * float(inverse)).astype(dtype))
    used = offsets < count[:, None]
    weights = np.where(used, weights, 0).astype(dtype)
    total = np.zeros(n_out, dtype)
    for j in range(taps):  # (summed in order, as the kernel sums them)
        total = total + weights[:, j]
    weights = np.where(total[:, None] != 0, weights / np.where(total == 0, 1, total)[:, None],
                       weights).astype(dtype)
    return np.where(used, first[:, None] + offsets, -1), weights


def resized(x, taps_by_axis):
    """x (any leading dimensions) with its last dimensions resized by `taps_by_axis`
    ({axis: (positions, weights)}, positions -1 where an output reads no more), the last
    axis first; each output the sum, in order, of its positions' values times weights."""
    ndim = fnp.ndim(x)
    for axis in sorted(taps_by_axis, reverse=True):
        positions, weights = taps_by_axis[axis]
        along = (-1,) + (1,) * (ndim - 1 - axis)  # (the weights, broadcast along `axis`)
        total = None
        for j in range(positions.shape[1]):
            used = positions[:, j] >= 0
            term = fnp.multiply(weights[:, j].astype(fnp.result_type(x)).reshape(along),
                                fnp.take(x, np.maximum(positions[:, j], 0), axis=axis))
            if not used.all():  # (no 0 * inf where the window has ended)
                term = fnp.where(used.reshape(along), term, 0)
            total = term if total is None else total + term
        x = total
    return x
