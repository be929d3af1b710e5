"""uint8 images resized as PyTorch's CPU kernels resize them ('bilinear', 'bicubic' and
antialiased 'lanczos' of a 4-d input): in integers, as PIL does. Each dimension's weights
(double precision, then scaled to 16-bit integers by the largest power of two that keeps
them in range) multiply the pixels, the sums are rounded by that power of two and clamped
to 0..255; the width is resized first, into uint8, then the height.

Without antialias the weights are the float kernels' (the triangle, or Keys' cubic with
a = -0.75, around each output's source position), those of positions past an edge added
to the edge's, as PyTorch's integer kernel folds them.
"""
import numpy as np

from ._resize_filters import FILTERS, antialiased_taps, cubic_far, cubic_near, source_scale


def _clamped_cubic(x):
    x = np.abs(x)
    return np.where(x < 1, cubic_near(x, -0.75), np.where(x < 2, cubic_far(x, -0.75), 0))


def _folded_taps(n_in, n_out, factor, align_corners, mode):
    """Positions (n_out, taps; -1 past the window), weights and the largest value a
    weight took while summed, for the resize without antialias: the filter at the taps
    around each source position, those outside the input folded onto the nearest edge
    tap, as PyTorch's integer kernel computes them."""
    cubic = mode == "bicubic"
    taps = 4 if cubic else 2
    window = _clamped_cubic if cubic else FILTERS["bilinear"][0]
    scale = source_scale(n_in, n_out, factor, align_corners, np.float64)
    out = np.arange(n_out, dtype=np.float64)
    source = scale * out if align_corners else scale * (out + 0.5) - 0.5
    if not (cubic or align_corners):
        source = np.maximum(source, 0)
    index = np.minimum(np.floor(source.astype(np.float32)).astype(np.int64), n_in - 1)
    fraction = np.clip(source - index, 0, 1)
    half = taps // 2
    start = index - half + 1
    first = np.maximum(start, 0)
    count = np.clip(np.minimum(start + taps, n_in) - first, 0, taps)
    offsets = np.arange(taps)
    positions = np.where(offsets < count[:, None], first[:, None] + offsets, -1)
    weights = np.zeros((n_out, taps))
    rows = np.arange(n_out)
    slot = np.zeros(n_out, np.int64)
    largest = 0.0  # (the kernel scales by the largest partial sum, not final weight)
    for j in range(taps):  # the kernel's walk, for every output at once
        weights[:, j] = 0.0  # (a slot is cleared as the walk reaches it)
        slot = np.where(start + j <= 0, 0, np.where(start + j >= n_in - 1, count - 1, slot))
        weights[rows, slot] += window(np.float64(j + 1 - half) - fraction)
        largest = max(largest, weights[rows, slot].max(initial=0.0))
        slot = slot + 1
    return positions, weights, largest


def _in_integers(weights, largest):
    """The weights as 16-bit integers and the power of two they were scaled by, the
    largest that keeps `largest` in range."""
    precision = 0
    while precision < 22 and int(0.5 + largest * (1 << (precision + 1))) < (1 << 15):
        precision += 1
    scaled = weights * (1 << precision)
    return np.trunc(scaled + np.where(scaled < 0, -0.5, 0.5)).astype(np.int64), precision


def _resized_along(x, axis, positions, weights, largest):
    integer_weights, precision = _in_integers(weights, largest)
    total = np.full(x.shape[:axis] + (len(positions),) + x.shape[axis + 1:],
                    1 << (precision - 1), np.int64)
    along = (-1,) + (1,) * (x.ndim - 1 - axis)
    for j in range(positions.shape[1]):
        read = np.take(x, np.maximum(positions[:, j], 0), axis=axis).astype(np.int64)
        total += read * np.where(positions[:, j] >= 0, integer_weights[:, j], 0).reshape(along)
    return np.clip(total >> precision, 0, 255).astype(np.uint8)


def resized_uint8(x, sizes, factors, align_corners, mode, antialias):
    """uint8 array x (N, C, H, W) resized to `sizes` in `mode` (a copy where the sizes
    are x's)."""
    x = x.copy()
    for axis in (3, 2):
        n_in, n_out = x.shape[axis], sizes[axis - 2]
        if n_in == n_out:
            continue
        factor = factors[axis - 2]
        if antialias:
            positions, weights = antialiased_taps(n_in, n_out, factor, align_corners,
                                                  np.float64, mode)
            largest = weights.max(initial=0.0)
        else:
            positions, weights, largest = _folded_taps(n_in, n_out, factor, align_corners,
                                                       mode)
        x = _resized_along(x, axis, positions, weights, largest)
    return x
