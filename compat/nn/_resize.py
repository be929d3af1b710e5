"""F.interpolate and nn.Upsample: nearest-neighbour and (bi/tri)linear resizes here; the
bicubic and antialiased ones in `_resize_filters`, uint8 images' in `_resize_uint8`.

Nearest: each output position along a resized dimension reads one input position,
computed as PyTorch's 2-d kernels compute it (in float32): ``floor(i * scale)`` for
'nearest' and ``floor((i + 0.5) * scale)`` for 'nearest-exact', at most the last
position, where `scale` is ``1 / scale_factor`` when one is given and ``input size /
output size`` otherwise. (PyTorch's 1-d and 3-d kernels round float64's 'nearest' and
both dtypes' 'nearest-exact' otherwise: a position within rounding of a boundary may read
the other neighbour.)

Linear: each output position mixes the two input positions around its source position
(``i * (n_in - 1) / (n_out - 1)`` with align_corners, else ``(i + 0.5) * scale - 0.5``,
at least 0), weighted by their distances, one dimension after another from the last, as
PyTorch's kernels nest the products.

One funcgrad.numpy `take` a dimension (two for linear), whose derivative adds each
output's gradient back to the positions it read: no derivative is written here.
"""
import math
import numbers

import numpy as np

import funcgrad.numpy as fnp

from .. import _dtypes
from .._memory_formats import in_suggested_format
from .._quiet import quiet
from .._record import engine, wrap
from ._padding import read_at
from ._resize_filters import antialiased_taps, cubic_taps, resized
from ._resize_uint8 import resized_uint8
from ._spatial import adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d

_NEAREST = ("nearest", "nearest-exact")
_LINEAR = {"linear": 1, "bilinear": 2, "trilinear": 3}  # the number of spatial dimensions
_FOUR_D = ("bicubic", "lanczos")  # (modes of 4-d inputs only)
_MODES = _NEAREST + tuple(_LINEAR) + _FOUR_D + ("area",)
_AREA = {1: adaptive_avg_pool1d, 2: adaptive_avg_pool2d, 3: adaptive_avg_pool3d}
_ALL_MODES = "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact"


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """`input` (N, C, d1, ..., dK; K = 1, 2 or 3) resized to `size` or by `scale_factor`
    along its spatial dimensions: each output element a copy of its nearest input element
    ('nearest': the one at or left of its scaled position; 'nearest-exact': the one
    nearest its scaled centre), a mix of the two around it ('linear', 'bilinear',
    'trilinear' for K = 1, 2, 3), of the four around it ('bicubic', K = 2), of all those
    under a filter widened when shrinking (antialias=True: 'bilinear', 'bicubic' and
    'lanczos', K = 2), or the mean of its window ('area')."""
    dims = input.dim() - 2
    # PyTorch's checks, in its order
    if align_corners is not None and mode in _NEAREST + ("area",):
        raise ValueError("align_corners option can only be set with the interpolating "
                         "modes: linear | bilinear | bicubic | trilinear")
    sizes, scales = _output_sizes(input, dims, size, scale_factor, recompute_scale_factor)
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.dim() == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos "
                         "modes and requires a 4-D tensor as input")
    if dims == 2 and mode == "lanczos":
        if align_corners:
            raise ValueError("Lanczos mode does not support align_corners=True")
        if not antialias:
            raise ValueError("Lanczos mode requires antialias=True")
    if mode in _LINEAR and dims in (1, 2, 3) and dims != _LINEAR[mode]:
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs "
                                  f"{_LINEAR[mode] + 2}D input")
    if dims not in (1, 2, 3) or mode not in _MODES or mode in _FOUR_D and dims != 2:
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported "
                                  f"(got {input.dim()}D) for the modes: {_ALL_MODES} (got "
                                  f"{mode})")
    if mode == "area":  # PyTorch's: adaptive average pooling
        return _AREA[dims](input, sizes)
    spatial = input.shape[2:]
    if any(n <= 0 for n in spatial) or any(n <= 0 for n in sizes):
        names = "WHD"[:dims][::-1]
        raise RuntimeError(
            f"Input and output sizes should be greater than 0, but got input "
            f"({', '.join(f'{a}: {n}' for a, n in zip(names, spatial))})"
            f"{' and' if dims == 1 else ''} output "  # (PyTorch's 1-d text alone has "and")
            f"({', '.join(f'{a}: {n}' for a, n in zip(names, sizes))})")
    _refuse_dtype(input, mode, dims, antialias)
    if antialias or mode == "bicubic" or input.dtype is _dtypes.uint8 and mode == "bilinear":
        return _filtered(input, sizes, scales, bool(align_corners), mode, antialias)
    if mode in _LINEAR:
        compute = np.float64 if input.dtype is _dtypes.float64 else np.float32
        mixes = [_linear_mix(n_in, n_out, scale, bool(align_corners), compute)
                 for n_in, n_out, scale in zip(spatial, sizes, scales)]
        label = f"Upsample{mode.capitalize()}{dims}DBackward0"
        return wrap(in_suggested_format(quiet().run(_mixed, engine(input), mixes),
                                        input._data), label, (input,))
    exact = mode == "nearest-exact"
    positions = [_source_positions(n_in, n_out, scale, exact)
                 for n_in, n_out, scale in zip(spatial, sizes, scales)]
    label = f"UpsampleNearest{'Exact' if exact else ''}{dims}DBackward0"
    return wrap(in_suggested_format(quiet().run(read_at, engine(input), positions),
                                    input._data), label, (input,))


def _refuse_dtype(input, mode, dims, antialias):
    """PyTorch's refusal of a dtype its resize kernel has no loop for (any but float32 and
    float64; float16 but with antialias; uint8 but for (tri)linear of 1 or 3 dimensions),
    naming the kernel."""
    if antialias:
        kernel, takes_uint8 = "compute_index_ranges_weights", True
    elif mode in _NEAREST:
        kernel = ("upsample_nearest2d_channels_last" if dims == 2
                  else "compute_indices_weights_nearest")
        takes_uint8 = True
    elif mode == "bicubic":
        kernel, takes_uint8 = "compute_indices_weights_cubic", True
    elif dims == 2:
        kernel, takes_uint8 = "upsample_bilinear2d_channels_last", True
    else:
        kernel, takes_uint8 = "compute_indices_weights_linear", False
    dtype = input.dtype
    if not (dtype in (_dtypes.float32, _dtypes.float64)
            or dtype is _dtypes.float16 and not antialias
            or dtype is _dtypes.uint8 and takes_uint8):
        raise _dtypes.not_implemented_for(kernel, dtype)


def _filtered(input, sizes, scales, align_corners, mode, antialias):
    """A resize of a 4-d input by the filters of `_resize_filters` (for uint8, PyTorch's
    integer kernels: `_resize_uint8`)."""
    data = input._data
    if data.dtype == np.uint8:  # (no gradient: integers never require grad)
        return wrap(in_suggested_format(resized_uint8(
            data, sizes, scales, align_corners, mode, antialias), data), None, (input,))
    axes = {}
    if antialias:
        label = f"Upsample{mode.capitalize()}2DAaBackward0"
        compute = data.dtype.type
        for axis, n_out, scale in zip((2, 3), sizes, scales):
            if data.shape[axis] != n_out:
                axes[axis] = antialiased_taps(data.shape[axis], n_out, scale, align_corners,
                                              compute, mode)
    else:
        label = "UpsampleBicubic2DBackward0"
        compute = np.float64 if data.dtype == np.float64 else np.float32
        for axis, n_out, scale in zip((2, 3), sizes, scales):
            positions, weights = cubic_taps(data.shape[axis], n_out, scale, align_corners,
                                            compute)
            # (the kernel keeps its weights in the input's type)
            axes[axis] = positions, weights.astype(data.dtype).astype(compute)

    def resize(x):
        if not axes:  # PyTorch's antialiased kernels copy an input of the output's size
            return fnp.positive(x)  # (a recorded copy)
        return fnp.astype(resized(fnp.astype(x, compute), axes), data.dtype)
    return wrap(in_suggested_format(quiet().run(resize, engine(input)), data), label,
                (input,))


def _output_sizes(input, dims, size, scale_factor, recompute_scale_factor):
    """The output's spatial sizes, and the scale factor each dimension's kernel is given
    (None: it computes input size / output size), as torch.nn.functional.interpolate."""
    spatial = list(input.shape[2:])
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is None and scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != dims:
                raise ValueError(
                    f"Input and output must have the same number of spatial dimensions, but "
                    f"got input with spatial dimensions of {spatial} and output size of "
                    f"{size}. Please provide input tensor in (N, C, d1, d2, ...,dK) format "
                    f"and output size in (o1, o2, ...,oK) format.")
            sizes = list(size)
        else:
            sizes = [size] * dims
        if any(not isinstance(n, numbers.Integral) for n in sizes):
            raise TypeError(f"compat.nn.functional.interpolate: size must be integers, got "
                            f"{size!r}")
        return [int(n) for n in sizes], [None] * dims
    if isinstance(scale_factor, (list, tuple)):
        if len(scale_factor) != dims:
            raise ValueError(
                f"Input and scale_factor must have the same number of spatial dimensions, "
                f"but got input with spatial dimensions of {spatial} and scale_factor of "
                f"shape {scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) "
                f"format and scale_factor in (s1, s2, ...,sK) format.")
        factors = [float(f) for f in scale_factor]
    else:
        factors = [float(scale_factor)] * dims
    sizes = [math.floor(n * f) for n, f in zip(spatial, factors)]
    return sizes, [None] * dims if recompute_scale_factor else factors


def _source_positions(n_in, n_out, factor, exact):
    """The input position each of the `n_out` output positions reads, computed as
    PyTorch's nearest kernels compute it."""
    out = np.arange(n_out)
    if not exact and n_out == n_in:
        return out
    if not exact and n_out == 2 * n_in:
        return out >> 1
    scale = np.float32(1.0 / factor if factor is not None and factor > 0 else
                       np.float32(n_in) / np.float32(n_out))
    if exact:  # (i + 0.5) in double, times the float scale, rounded to float
        scaled = ((out + 0.5) * np.float64(scale)).astype(np.float32)
    else:
        scaled = out.astype(np.float32) * scale
    return np.minimum(np.floor(scaled).astype(np.int64), n_in - 1)


def _linear_mix(n_in, n_out, factor, align_corners, compute):
    """Each output position's two input positions (the one at or below its source
    position, and the next, or itself at the end) and their weights, computed in
    `compute` (PyTorch's float32 for float32 and float16, float64 for float64)."""
    out = np.arange(n_out, dtype=compute)
    if align_corners:
        scale = compute(n_in - 1) / compute(n_out - 1) if n_out > 1 else compute(0)
        source = out * scale
    else:
        scale = (compute(1.0 / factor) if factor is not None and factor > 0
                 else compute(n_in) / compute(n_out))
        source = np.maximum(scale * (out + compute(0.5)) - compute(0.5), compute(0))
    low = np.minimum(np.floor(source).astype(np.int64), n_in - 1)
    high = low + (low < n_in - 1)
    weight = np.clip(source - low, 0, 1).astype(compute)
    return low, high, 1 - weight, weight


def _mixed(x, mixes):
    """x with its last len(mixes) dimensions resized, the last first: each output
    position the weighted sum of its two input positions."""
    ndim = fnp.ndim(x)
    for axis in range(ndim - 1, ndim - 1 - len(mixes), -1):
        low, high, low_weight, high_weight = mixes[axis - ndim + len(mixes)]
        along = (-1,) + (1,) * (ndim - 1 - axis)  # the weights, broadcast along `axis`
        low_weight = low_weight.astype(fnp.result_type(x)).reshape(along)
        high_weight = high_weight.astype(fnp.result_type(x)).reshape(along)
        x = (fnp.multiply(low_weight, fnp.take(x, low, axis=axis))
             + fnp.multiply(high_weight, fnp.take(x, high, axis=axis)))
    return x
