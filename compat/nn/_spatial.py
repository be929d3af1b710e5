"""Convolution and pooling over the 1, 2 or 3 spatial dimensions of (N, C, *spatial)
tensors: F.conv1d/2d/3d, F.conv_transpose1d/2d/3d, F.max_pool1d/2d/3d, F.avg_pool1d/2d/3d,
F.adaptive_avg_pool1d/2d/3d and F.adaptive_max_pool1d/2d/3d.

Each is composed of funcgrad.numpy's differentiable operations on the operands' boxes of
compat's eager tape, as the rest of nn.functional is (no derivative is written here):

* a convolution gathers its windows (`_windows`: a sliding-window view of the padded
  input, funcgrad.numpy.lib.stride_tricks', strided and dilated by slicing), then
  multiplies them by the weight in one matrix product per group (im2col);
* a transposed convolution is a convolution of its input spread `stride` apart and padded,
  with the kernel flipped;
* max pooling gathers the windows the same way and keeps, of each, the element PyTorch's
  kernel picks (the first largest; the last NaN), so the gradient goes where PyTorch's
  goes, ties included;
* average pooling sums the windows with matrix products by 0/1 matrices (one per spatial
  dimension: a window's extent along one dimension does not depend on the others) and
  divides by PyTorch's divisor; adaptive average pooling likewise, with PyTorch's
  windows for each output size.

Argument checks raise PyTorch's errors, in the order PyTorch makes them.
"""
import functools
import math
import numbers
import warnings

import numpy as np

import funcgrad.numpy as fnp
from funcgrad.core import unbox_all
from funcgrad.numpy.lib.stride_tricks import sliding_window_view

from .. import _dtypes, _ops
from .._quiet import quiet
from .._record import engine, wrap
from .._tensor import make, require_tensor


def _windows(x, kernel, stride, dilation, output):
    """The windows of `x` (*lead, *spatial), already padded, along its last len(kernel)
    dimensions: an array (*lead, *kernel, *output) whose element [*l, *k, *o] is
    x[*l, *(o * stride + k * dilation)]. Views of x: its sliding windows of the dilated
    kernel's extent, every stride-th window and every dilation-th element of each, the
    kernel axes moved first (the gradient adds back one slice per offset in the extent)."""
    dims = len(kernel)
    lead = fnp.ndim(x) - dims
    extents = tuple(spacing * (size - 1) + 1 for size, spacing in zip(kernel, dilation))
    x = sliding_window_view(x, extents, axis=tuple(range(lead, lead + dims)))
    if fnp.shape(x)[lead:] != tuple(output) + tuple(kernel):  # strided or dilated
        x = fnp.getitem(x, (Ellipsis,)
                        + tuple(slice(0, step * (count - 1) + 1, step)
                                for step, count in zip(stride, output))
                        + tuple(slice(None, None, spacing) for spacing in dilation))
    outputs = tuple(range(lead, lead + dims))
    return fnp.transpose(x, tuple(range(lead)) + tuple(o + dims for o in outputs) + outputs)


# ---- convolution ---------------------------------------------------------------------------


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """The 1-d cross-correlation of input (N, C_in, L) or (C_in, L) with weight (C_out,
    C_in / groups, k), plus bias (C_out)."""
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """The 2-d cross-correlation of input (N, C_in, H, W) or (C_in, H, W) with weight
    (C_out, C_in / groups, kH, kW), plus bias (C_out)."""
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """The 3-d cross-correlation of input (N, C_in, D, H, W) or (C_in, D, H, W) with weight
    (C_out, C_in / groups, kD, kH, kW), plus bias (C_out)."""
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 3, "conv3d")


def _convolution(input, weight, bias, stride, padding, dilation, groups, dims, name):
    require_tensor(input, name, "input", 1)
    require_tensor(weight, name, "weight", 2)
    if bias is not None:
        require_tensor(bias, name, "bias", 3)
    stride, dilation = _bound(stride, dims), _bound(dilation, dims)
    same = _padding_string(padding, stride)
    if input.dim() not in (dims + 1, dims + 2):
        raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input "
                           f"to {name}, but got input of size: {list(input.shape)}")
    if input.dim() == dims + 1:  # unbatched: PyTorch adds the batch and squeezes it away
        batched = _ops.unsqueeze(input, 0)
        return _ops.squeeze(_convolution(batched, weight, bias, stride, padding, dilation,
                                         groups, dims, name), 0)
    kernel_dims = weight.dim() - 2
    stride = _expanded(stride, "stride", kernel_dims)
    dilation = _expanded(dilation, "dilation", kernel_dims)
    if same:
        input, padding = _padded_for_same(input, weight, dilation)
    elif padding == "valid":
        padding = (0,) * kernel_dims
    else:
        padding = _expanded(_bound(padding, dims), "padding", kernel_dims)
    _check_convolution(input, weight, bias, stride, padding, dilation, groups)
    out = quiet().run(_convolved, engine(input), engine(weight),
                      None if bias is None else engine(bias), stride, padding, dilation,
                      groups)
    # PyTorch's node lists the bias's place (None) even without one, and saves the input
    # and the weight (not the bias).
    return wrap(out, "ConvolutionBackward0", (input, weight, bias), saves_inputs=(input, weight))


def _bound(value, dims):
    """An int argument as PyTorch's binding reads it for a `dims`-d function: repeated to
    `dims` values (a sequence is taken as it is, a string passes)."""
    if isinstance(value, bool) or isinstance(value, str):
        return value
    if isinstance(value, numbers.Integral):
        return (int(value),) * dims
    return tuple(value)


def _expanded(values, name, dims):
    """`values` for a convolution of `dims` spatial dimensions (PyTorch repeats a single
    value), or PyTorch's error."""
    if len(values) == 1:
        return values * dims
    if len(values) != dims:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {dims} "
                           f"values to match the convolution dimensions, but got "
                           f"{name}={list(values)}")
    return values


def _padding_string(padding, stride):
    """Whether `padding` is 'same' (after PyTorch's checks of a padding string)."""
    if not isinstance(padding, str):
        return False
    if padding not in ("same", "valid"):
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    if padding == "same" and any(step != 1 for step in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    return padding == "same"


_warned_of_uneven_same = False


def _padded_for_same(input, weight, dilation):
    """The input and padding of padding='same': the output keeps the input's size, the
    dilated kernel's extent less one split evenly, and the odd element (an even kernel
    with an odd dilation) padded on the right first, as PyTorch does (with its warning,
    once)."""
    global _warned_of_uneven_same
    totals = [spacing * (size - 1) for spacing, size in zip(dilation, weight.shape[2:])]
    extra = [total % 2 for total in totals]
    if any(extra):
        if not _warned_of_uneven_same:
            _warned_of_uneven_same = True
            warnings.warn("Using padding='same' with even kernel lengths and odd dilation may "
                          "require a zero-padded copy of the input be created", UserWarning,
                          stacklevel=4)
        widths = [(0, 0)] * 2 + [(0, more) for more in extra]
        input = wrap(quiet().run(fnp.pad, engine(input), widths), "ConstantPadNdBackward0",
                     (input,))
    return input, tuple(total // 2 for total in totals)


def _check_convolution(input, weight, bias, stride, padding, dilation, groups):
    """PyTorch's checks of a batched convolution's arguments, in its order."""
    _check_settings_and_weight(input, weight, stride, padding, None, dilation, groups)
    weight_shape = list(weight.shape)
    channels = weight_shape[1] * groups
    if input.shape[1] != channels:
        raise RuntimeError(f"Given groups={groups}, weight of size {weight_shape}, expected "
                           f"input{list(input.shape)} to have {channels} channels, but got "
                           f"{input.shape[1]} channels instead")
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != weight_shape[0]):
        raise RuntimeError(f"Given weight of size {weight_shape}, expected bias to be "
                           f"1-dimensional with {weight_shape[0]} elements, but got bias of "
                           f"size {list(bias.shape)} instead")
    padded = [size + 2 * p for size, p in zip(input.shape[2:], padding)]
    extents = [spacing * (size - 1) + 1 for spacing, size in zip(dilation, weight_shape[2:])]
    if any(size < extent for size, extent in zip(padded, extents)):
        raise RuntimeError(f"Calculated padded input size per channel: "
                           f"({' x '.join(map(str, padded))}). Kernel size: "
                           f"({' x '.join(map(str, extents))}). Kernel size can't be greater "
                           f"than actual input size")
    _check_convolution_dtypes(input, weight, bias)
    if any(spacing == 0 for spacing in dilation):
        # (float32's oneDNN kernel words it its own way)
        raise RuntimeError("non-positive dilation is not supported"
                           if input.dtype is _dtypes.float32
                           else f"dilation should be greater than zero, but got {list(dilation)}")
    if input.dtype is _dtypes.bool:  # (integers are convolved, as PyTorch's CPU kernels do)
        raise _dtypes.not_implemented_for(_slow_kernel(input.dim() - 2, dilation), input.dtype)


def _check_settings_and_weight(input, weight, stride, padding, output_padding, dilation,
                               groups):
    """PyTorch's first checks of a convolution, transposed (with an output_padding) or not:
    the settings' signs, then the weight's shape against the input's and the groups."""
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if output_padding is not None and any(p < 0 for p in output_padding):
        raise RuntimeError("negative output_padding is not supported")
    if any(step <= 0 for step in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(spacing < 0 for spacing in dilation):
        raise RuntimeError("dilation should be greater than zero")
    weight_shape = list(weight.shape)
    if weight.dim() != input.dim():
        raise RuntimeError(f"Expected {weight.dim()}-dimensional input for {weight.dim()}-"
                           f"dimensional weight {weight_shape}, but got {input.dim()}-"
                           f"dimensional input of size {list(input.shape)} instead")
    if weight_shape[0] < groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be at least {groups} "
                           f"at dimension 0, but got weight of size {weight_shape} instead")
    if weight_shape[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} "
                           f"at dimension 0, but got weight of size [{weight_shape}] instead")


def _check_convolution_dtypes(input, weight, bias):
    """PyTorch's errors for operands of different dtypes: the bias's first, then the
    weight's."""
    if bias is not None and bias.dtype is not input.dtype:
        raise RuntimeError(f"Input type ({input.dtype.cpp_name}) and bias type "
                           f"({bias.dtype.cpp_name}) should be the same")
    _check_weight_dtype(input, weight)


def _slow_kernel(dims, dilation):
    """The name of PyTorch's CPU kernel for a convolution that oneDNN does not compute (a
    1-d convolution is a 2-d one of height 1)."""
    if any(spacing > 1 for spacing in dilation):
        return "slow_conv_dilated<>"
    return "compute_columns3d" if dims == 3 else "slow_conv2d_cpu"


def _output_sizes(sizes, kernel, stride, padding, dilation):
    return tuple((size + 2 * p - spacing * (k - 1) - 1) // step + 1
                 for size, k, step, p, spacing in zip(sizes, kernel, stride, padding, dilation))


def _convolved(x, w, b, stride, padding, dilation, groups):
    """The convolution of x (N, C, *spatial) with w (O, C / groups, *kernel), plus b."""
    kernel = fnp.shape(w)[2:]
    batch, channels = fnp.shape(x)[:2]
    out_channels = fnp.shape(w)[0]
    output = _output_sizes(fnp.shape(x)[2:], kernel, stride, padding, dilation)
    if any(padding):
        x = fnp.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in padding])
    windows = _windows(x, kernel, stride, dilation, output)
    # One row of the matrix product per (channel, kernel offset) of a group: the windows'
    # axes are in the weight's order, so both reshape without a copy.
    rows = channels // groups * math.prod(kernel)
    columns = fnp.reshape(windows, (batch, groups, rows, math.prod(output)))
    filters = fnp.reshape(w, (groups, out_channels // groups, rows))
    out = fnp.reshape(fnp.matmul(filters, columns), (batch, out_channels) + output)
    if b is not None:
        out = fnp.add(out, fnp.reshape(b, (out_channels,) + (1,) * len(kernel)))
    return out


# ---- transposed convolution ------------------------------------------------------------------


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """The 1-d transposed convolution (the gradient of conv1d with respect to its input) of
    input (N, C_in, L) or (C_in, L) with weight (C_in, C_out / groups, k), plus bias
    (C_out)."""
    return _transposed_convolution(input, weight, bias, stride, padding, output_padding,
                                   groups, dilation, 1, "conv_transpose1d")


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """The 2-d transposed convolution (the gradient of conv2d with respect to its input) of
    input (N, C_in, H, W) or (C_in, H, W) with weight (C_in, C_out / groups, kH, kW), plus
    bias (C_out)."""
    return _transposed_convolution(input, weight, bias, stride, padding, output_padding,
                                   groups, dilation, 2, "conv_transpose2d")


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """The 3-d transposed convolution (the gradient of conv3d with respect to its input) of
    input (N, C_in, D, H, W) or (C_in, D, H, W) with weight (C_in, C_out / groups, kD, kH,
    kW), plus bias (C_out)."""
    return _transposed_convolution(input, weight, bias, stride, padding, output_padding,
                                   groups, dilation, 3, "conv_transpose3d")


def _transposed_convolution(input, weight, bias, stride, padding, output_padding, groups,
                            dilation, dims, name):
    require_tensor(input, name, "input", 1)
    require_tensor(weight, name, "weight", 2)
    if bias is not None:
        require_tensor(bias, name, "bias", 3)
    if isinstance(padding, str):
        raise TypeError(f"{name}(): argument 'padding' must be tuple of ints, not str")
    if input.dim() not in (dims + 1, dims + 2):
        raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input "
                           f"to {name}, but got input of size: {list(input.shape)}")
    if input.dim() == dims + 1:  # unbatched: PyTorch adds the batch and squeezes it away
        return _ops.squeeze(_transposed_convolution(
            _ops.unsqueeze(input, 0), weight, bias, stride, padding, output_padding, groups,
            dilation, dims, name), 0)
    kernel_dims = weight.dim() - 2
    stride, padding, output_padding, dilation = (
        _expanded(_bound(value, dims), argument, kernel_dims)
        for value, argument in ((stride, "stride"), (padding, "padding"),
                                (output_padding, "output_padding"), (dilation, "dilation")))
    _check_transposed_convolution(input, weight, bias, stride, padding, output_padding,
                                  dilation, groups)
    if bias is not None and bias.dtype is not input.dtype:
        bias = bias.to(input.dtype)  # (as PyTorch's 2-d kernel converts it)
    out = quiet().run(_transposed_convolved, engine(input), engine(weight),
                      None if bias is None else engine(bias), stride, padding, output_padding,
                      dilation, groups)
    return wrap(out, "ConvolutionBackward0", (input, weight, bias), saves_inputs=(input, weight))


def _check_transposed_convolution(input, weight, bias, stride, padding, output_padding,
                                  dilation, groups):
    """PyTorch's checks of a batched transposed convolution's arguments, in the order of
    its general kernel (float32's oneDNN kernel fails some of them with its own words, and
    gives an empty result for an output size of 0)."""
    _check_settings_and_weight(input, weight, stride, padding, output_padding, dilation,
                               groups)
    weight_shape, shape = list(weight.shape), list(input.shape)
    if shape[1] != weight_shape[0]:
        raise RuntimeError(f"Given transposed=1, weight of size {weight_shape}, expected "
                           f"input{shape} to have {weight_shape[0]} channels, but got "
                           f"{shape[1]} channels instead")
    channels = weight_shape[1] * groups
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != channels):
        raise RuntimeError(f"Given transposed=1, weight of size {weight_shape}, expected bias "
                           f"to be 1-dimensional with {channels} elements, but got bias of "
                           f"size {list(bias.shape)} instead")
    if not all(shape[2:]):
        raise RuntimeError(f"Only zero batch or zero channel inputs are supported, but got "
                           f"input shape: {shape}")
    kernel = weight_shape[2:]
    # PyTorch's 3-d kernel checks the weight's emptiness where its 2-d kernel checks the
    # kernel's sizes (after the settings).
    if len(kernel) < 3 and min(kernel) <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got "
                           f"{_per_dimension('kernel', kernel)}")
    if min(dilation) <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got "
                           f"{_per_dimension('dilation', dilation, ', ')}")
    if any(extra >= step and extra >= spacing
           for extra, step, spacing in zip(output_padding, stride, dilation)):
        raise RuntimeError(f"output padding must be smaller than either stride or dilation, "
                           f"but got {_per_dimension('output_padding', output_padding)} "
                           f"{_per_dimension('stride', stride)} "
                           f"{_per_dimension('dilation', dilation)}")
    if len(kernel) == 3 and not all(weight_shape):
        raise RuntimeError(f"non-empty 5D (n_output_plane x n_input_plane x kernel_depth x "
                           f"kernel_height x kernel_width) tensor expected for weight, but got: "
                           f"{weight_shape}")
    output = tuple((size - 1) * step - 2 * p + spacing * (k - 1) + extra + 1
                   for size, step, p, spacing, k, extra in zip(shape[2:], stride, padding,
                                                               dilation, kernel,
                                                               output_padding))
    if min(output) < 1:
        raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, shape[2:]))})"
                           f". Calculated output size per channel: "
                           f"({' x '.join(map(str, output))}). Output size is too small")
    _check_transposed_dtypes(input, weight, bias)


def _per_dimension(setting, values, separator=" "):
    """`setting_height: 1 setting_width: 2`, as PyTorch's general kernels name a setting's
    values (a 1-d setting as the 2-d kernel has it, of height 1; a 3-d one's first is its
    depth)."""
    values = ((1,) + tuple(values))[-max(len(values), 2):]
    names = ("depth", "height", "width")[-len(values):]
    return separator.join(f"{setting}_{name}: {value}" for name, value in zip(names, values))


def _check_weight_dtype(input, weight):
    """PyTorch's error for a weight of another dtype: its float32 and complex paths name
    the tensor types, its other kernels the scalar types."""
    if weight.dtype is not input.dtype:
        if input.dtype.is_complex:
            raise RuntimeError(f"Input type ({input.dtype.type_string}) and weight type "
                               f"({weight.type()}) should be the same")
        if input.dtype is _dtypes.float32:
            raise RuntimeError(f"Input type ({input.type()}) and weight type "
                               f"({weight.type()}) should be the same or input should be a "
                               f"MKLDNN tensor and weight is a dense tensor")
        raise RuntimeError(f"expected scalar type {input.dtype.scalar_name} but found "
                           f"{weight.dtype.scalar_name}")


def _check_transposed_dtypes(input, weight, bias):
    """PyTorch's errors for a transposed convolution's operands of different dtypes: the
    weight's first, then the bias's on the float32 path and by the 3-d kernel (the 2-d
    kernel converts it)."""
    dims = max(input.dim() - 2, 2)  # (a 1-d one runs the 2-d kernel)
    if input.dtype.category is not _dtypes.FLOAT and input.dtype is not _dtypes.int64 \
            and not input.dtype.is_complex:  # (its kernels: floats, complex and int64)
        raise _dtypes.not_implemented_for(f"slow_conv_transpose{dims}d_out_cpu", input.dtype)
    _check_weight_dtype(input, weight)
    other_bias = bias is not None and bias.dtype is not input.dtype
    if other_bias and input.dtype is _dtypes.float32:
        raise RuntimeError(f"Input type ({input.type()}) and bias type ({bias.type()}) should "
                           f"be the same or input should be a MKLDNN tensor and bias is a "
                           f"dense tensor")
    if other_bias and dims == 3:
        raise RuntimeError(f"expected scalar type {input.dtype.scalar_name} but found "
                           f"{bias.dtype.scalar_name}")


def _transposed_convolved(x, w, b, stride, padding, output_padding, dilation, groups):
    """The transposed convolution of x (N, C_in, *spatial) with w (C_in, C_out / groups,
    *kernel), plus b: a convolution, stride 1, of x spread `stride` apart (zeros between)
    and padded on each side by the dilated kernel's extent less one less `padding`
    (cropped where that is negative; output_padding more after), with the kernel flipped
    and each group's input and output channels swapped."""
    dims = len(stride)
    for axis, step in enumerate(stride, 2):
        if step > 1:
            x = _spread(x, axis, step)
    kernel = fnp.shape(w)[2:]
    widths = [(spacing * (k - 1) - p, spacing * (k - 1) - p + extra)
              for spacing, k, p, extra in zip(dilation, kernel, padding, output_padding)]
    x = fnp.pad(x, [(0, 0)] * 2 + [(max(before, 0), max(after, 0)) for before, after in widths])
    x = fnp.getitem(x, (slice(None),) * 2 + tuple(
        slice(max(-before, 0), size - max(-after, 0))
        for size, (before, after) in zip(fnp.shape(x)[2:], widths)))
    in_channels, out_per_group = fnp.shape(w)[:2]
    w = fnp.reshape(w, (groups, in_channels // groups, out_per_group) + kernel)
    w = fnp.reshape(fnp.swapaxes(w, 1, 2),
                    (groups * out_per_group, in_channels // groups) + kernel)
    w = fnp.flip(w, tuple(range(2, 2 + dims)))
    return _convolved(x, w, b, (1,) * dims, (0,) * dims, dilation, groups)


def _spread(x, axis, step):
    """x with step - 1 zeros between its elements along `axis`."""
    shape = fnp.shape(x)
    x = fnp.pad(fnp.expand_dims(x, axis + 1),
                [(0, 0)] * (axis + 1) + [(0, step - 1)] + [(0, 0)] * (len(shape) - axis - 1))
    x = fnp.reshape(x, shape[:axis] + (shape[axis] * step,) + shape[axis + 1:])
    return fnp.getitem(x, (slice(None),) * axis + (slice(0, (shape[axis] - 1) * step + 1),))


# ---- pooling -------------------------------------------------------------------------------

_COUNTS = {2: "two", 3: "three"}


def _pool_sizes(value, name, function, dims, verb="must either be"):
    """A pooling size argument as `dims` ints (one int, or a sequence of one, is repeated),
    or PyTorch's error."""
    values = (value,) if isinstance(value, numbers.Integral) else tuple(value)
    if len(values) == 1:
        return values * dims
    if len(values) != dims:
        raise RuntimeError(f"{function}: {name} {verb} a single int, or a tuple of "
                           f"{_COUNTS[dims]} ints")
    return values


def _pool_stride(stride, kernel, function, verb="must either be"):
    """The stride (the kernel's size when omitted)."""
    if stride is None or (not isinstance(stride, numbers.Integral) and len(stride) == 0):
        return kernel
    dims = len(kernel)
    values = (stride,) if isinstance(stride, numbers.Integral) else tuple(stride)
    if len(values) not in (1, dims):
        raise RuntimeError(f"{function}: stride {verb} omitted, a single int, or a tuple of "
                           f"{_COUNTS[dims]} ints")
    return values * dims if len(values) == 1 else values


def _truncated_half(n):
    """n / 2 rounded toward zero (C++'s integer division, which PyTorch's check uses)."""
    return -(-n // 2) if n < 0 else n // 2


def _pooled_size(size, kernel, stride, padding, dilation, ceil_mode):
    """The output length of a pooling along one dimension, with PyTorch's checks."""
    if stride == 0:
        raise RuntimeError("stride should not be zero")
    if padding < 0:
        raise RuntimeError(f"pad must be non-negative, but got pad: {padding}")
    if padding > _truncated_half((kernel - 1) * dilation + 1):
        raise RuntimeError(f"pad should be at most half of effective kernel size, but got "
                           f"pad={padding}, kernel_size={kernel} and dilation={dilation}")
    span = size + 2 * padding - dilation * (kernel - 1) - 1
    out = (span + (stride - 1 if ceil_mode else 0)) // stride + 1
    if ceil_mode and (out - 1) * stride >= size + padding:
        out -= 1  # the last window must start inside the input or its left padding
    return out


def _pooled_sizes(input, kernel, stride, padding, dilation, ceil_mode, function=None,
                  whole_kernel=False):
    """The output sizes of a 2-d or 3-d pooling of `input`, after PyTorch's checks (a 3-d
    one's name PyTorch's checks by `function`; `whole_kernel`: the input must hold a whole
    kernel, as a 3-d average pooling's must)."""
    dims = len(kernel)
    output = tuple(_pooled_size(*arguments, ceil_mode)
                   for arguments in zip(input.shape[-dims:], kernel, stride, padding, dilation))
    if dims == 2:
        _check_pooled_plane(input, kernel, stride, padding, dilation, output)
    else:
        _check_pooled_volume(input, kernel, stride, padding, dilation, output, function,
                             whole_kernel)
    return output


def _check_pooled_plane(input, kernel, stride, padding, dilation, output):
    """PyTorch's checks of a 2-d pooling, in its order."""
    (kh, kw), (sh, sw), (ph, pw), (dh, dw) = kernel, stride, padding, dilation
    if kh <= 0 or kw <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kH: {kh} kW: {kw}")
    if sh <= 0 or sw <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got dH: {sh} dW: {sw}")
    if dh <= 0 or dw <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got dilationH: {dh} "
                           f"dilationW: {dw}")
    shape = tuple(input.shape)
    if not (input.dim() == 3 and all(shape) or input.dim() == 4 and all(shape[1:])):
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with optional 0 dim batch "
                           f"size for input, but got:{list(shape)}")
    if kw // 2 < pw or kh // 2 < ph:
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but "
                           f"got padW = {pw}, padH = {ph}, kW = {kw}, kH = {kh}")
    if min(output) < 1:
        channels, height, width = shape[-3:]
        raise RuntimeError(f"Given input size: ({channels}x{height}x{width}). Calculated "
                           f"output size: ({channels}x{output[0]}x{output[1]}). Output size "
                           f"is too small")


def _check_pooled_volume(input, kernel, stride, padding, dilation, output, function,
                         whole_kernel):
    """PyTorch's checks of a 3-d pooling, in its order."""
    (kt, kh, kw), (st, sh, sw), (pt, ph, pw), (dt, dh, dw) = kernel, stride, padding, dilation
    if min(kernel) <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kT: {kt} kH: "
                           f"{kh} kW: {kw}")
    if min(stride) <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got dT: {st} dH: {sh} "
                           f"dW: {sw}")
    if min(dilation) <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got dilationT: {dt} "
                           f"dilationH: {dh} dilationW: {dw}")
    shape = list(input.shape)
    for size in shape[input.dim() - 4:]:  # (a batch may be empty)
        if size == 0:
            raise RuntimeError(f"{function}(): Expected input's non-batch dimensions to have "
                               f"positive length, but input has a shape of {shape} and "
                               f"non-batch dimension {size} has length zero!")
    volume = shape[-3:]
    if whole_kernel and any(size < k for size, k in zip(volume, kernel)):
        raise RuntimeError(f"input image (T: {volume[0]} H: {volume[1]} W: {volume[2]}) "
                           f"smaller than kernel size (kT: {kt} kH: {kh} kW: {kw})")
    if kt // 2 < pt or kw // 2 < pw or kh // 2 < ph:
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but "
                           f"got kT: {kt} kW: {kw} kH: {kh} padT: {pt} padW: {pw} padH: {ph}")
    if min(output) < 1:
        sizes, outputs = ([shape[-4]] + list(sizes) for sizes in (volume, output))
        raise RuntimeError(f"Given input size: ({'x'.join(map(str, sizes))}). Calculated "
                           f"output size: ({'x'.join(map(str, outputs))}). Output size is "
                           f"too small")


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """The largest element of each kernel_size window of input (N, C, H, W) or (C, H, W),
    windows `stride` apart, with elements `dilation` apart, over the input padded by
    `padding` (never picked); with return_indices, also each one's flat index in H * W."""
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices,
                     2)


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """max_pool2d's windows over the last three dimensions of input (N, C, D, H, W) or (C, D,
    H, W); the indices are flat in D * H * W."""
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices,
                     3)


def _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, dims):
    name = f"max_pool{dims}d"
    require_tensor(input, name, "input", 1)
    kernel = _pool_sizes(kernel_size, "kernel_size", name, dims)
    stride = _pool_stride(stride, kernel, name)
    padding = _pool_sizes(padding, "padding", name, dims)
    dilation = _pool_sizes(dilation, "dilation", name, dims, "must be either")
    if input.dim() not in (dims + 1, dims + 2):
        raise RuntimeError(f"non-empty {dims + 1}D or {dims + 2}D (batch mode) tensor expected "
                           f"for input")
    output = _pooled_sizes(input, kernel, stride, padding, dilation, ceil_mode,
                           "max_pool3d_with_indices_out_cpu_template")  # (3-d checks' name)
    if input.dtype is _dtypes.bool or input.dtype.is_complex:
        raise _dtypes.not_implemented_for(name, input.dtype)
    out, indices = quiet().run(_max_pooled, engine(input), kernel, stride, padding, dilation,
                               output, return_indices)
    out = wrap(out, f"MaxPool{dims}DWithIndicesBackward0", (input,), saves_inputs=True)
    return (out, make(indices)) if return_indices else out


def _max_pooled(x, kernel, stride, padding, dilation, output, return_indices):
    """max_pool2d's or max_pool3d's values (and indices, if asked): of each window, the
    element PyTorch's kernel picks (the first largest, or the last NaN), chosen on the
    values and then selected from the windows (so that its derivative goes to that element
    alone)."""
    dims = len(kernel)
    sizes = fnp.shape(x)[-dims:]
    # Padding on the right also covers the windows that ceil_mode adds past the input.
    widths = [(p, max((count - 1) * step + (k - 1) * spacing + 1 - size - p, 0))
              for size, k, step, p, spacing, count in zip(sizes, kernel, stride, padding,
                                                          dilation, output)]
    lead = fnp.shape(x)[:-dims]
    if any(map(any, widths)):
        x = fnp.pad(x, [(0, 0)] * len(lead) + widths)
    windows = fnp.reshape(_windows(x, kernel, stride, dilation, output),
                          lead + (math.prod(kernel),) + output)
    positions = [_input_positions(*arguments)
                 for arguments in zip(kernel, stride, padding, dilation, output)]
    choice = _picked(unbox_all(windows), _inside(positions, sizes, output))
    chosen = _window_positions(math.prod(kernel), dims) == np.expand_dims(choice, -dims - 1)
    dtype = unbox_all(windows).dtype
    values = fnp.sum(fnp.where(chosen, windows, np.zeros((), dtype)), axis=-dims - 1,
                     dtype=dtype)
    if not return_indices:
        return values, None
    # The flat index in the input's spatial dimensions of each window's choice.
    index = 0
    for axis, (places, offset, size) in enumerate(zip(positions, np.unravel_index(choice, kernel),
                                                      sizes)):
        window = np.arange(output[axis]).reshape([-1 if d == axis else 1 for d in range(dims)])
        index = index * size + places[offset, window]
    return values, index.astype(np.int64)


def _input_positions(kernel, stride, padding, dilation, count):
    """The input position (along one dimension) of offset k of window o, at [k, o]."""
    return np.arange(kernel)[:, None] * dilation + np.arange(count) * stride - padding


def _inside(positions, sizes, output):
    """Whether each window position (the kernel's offsets flat) of each window, (offsets,
    *output), is inside the input rather than in its padding."""
    dims = len(sizes)
    inside = np.ones((1,) * 2 * dims, bool)
    for axis, (places, size) in enumerate(zip(positions, sizes)):
        # (offset, window) along this dimension at axes (axis, dims + axis)
        shape = [1] * 2 * dims
        shape[axis], shape[dims + axis] = places.shape
        inside = inside & ((places >= 0) & (places < size)).reshape(shape)
    return inside.reshape((-1,) + tuple(output))


def _window_positions(count, dims):
    return np.arange(count).reshape((count,) + (1,) * dims)  # (along axis -dims - 1)


def _picked(raw, inside):
    """The window position (along axis -inside.ndim of `raw`) PyTorch's max-pooling kernel
    picks among the positions `inside` the input: the last NaN if there is one, else the
    first largest element (the first position when all are -inf). (Minima and maxima of
    positions: NumPy's argmax along an inner axis is ten times slower.)"""
    axis = -inside.ndim
    count = raw.shape[axis]
    positions = _window_positions(count, inside.ndim - 1)
    padded = not inside.all()
    if padded:  # positions in the padding are never picked
        lowest = -np.inf if raw.dtype.kind == "f" else np.iinfo(raw.dtype).min
        best = np.where(inside, raw, lowest).max(axis=axis, keepdims=True)
    else:
        best = raw.max(axis=axis, keepdims=True)
    hits = (raw == best) | (raw != raw)  # (raw != raw: NaN)
    if padded:
        hits &= inside
    choice = np.where(hits, positions, count).min(axis=axis)
    nan = np.squeeze(best != best, axis)
    if nan.any():
        choice = np.where(nan, np.where(hits, positions, -1).max(axis=axis), choice)
    return choice


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """The mean of each kernel_size window of input (N, C, H, W) or (C, H, W), windows
    `stride` apart, over the input padded by `padding` zeros; the divisor counts the
    padding (count_include_pad) or not, or is `divisor_override`."""
    require_tensor(input, "avg_pool2d", "input", 1)
    kernel = _pool_sizes(kernel_size, "kernel_size", "avg_pool2d", 2)
    stride = _pool_stride(stride, kernel, "avg_pool2d")
    padding = _pool_sizes(padding, "padding", "avg_pool2d", 2)
    _check_divisor(divisor_override)
    if input.dim() < 3:  # PyTorch reads the channels as input.size(-3)
        top = max(input.dim(), 1)
        raise IndexError(f"Dimension out of range (expected to be in range of [{-top}, "
                         f"{top - 1}], but got -3)")
    _check_averaged_dtype(input, "avg_pool2d", _dtypes.int64)
    output = _pooled_sizes(input, kernel, stride, padding, (1, 1), ceil_mode)
    return _average_pooled(input, kernel, stride, padding, output, count_include_pad,
                           divisor_override)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """avg_pool2d's windows over the last three dimensions of input (N, C, D, H, W) or (C,
    D, H, W)."""
    require_tensor(input, "avg_pool3d", "input", 1)
    # (PyTorch's 3-d messages say "must be" where its 2-d ones say "must either be")
    kernel = _pool_sizes(kernel_size, "kernel_size", "avg_pool3d", 3, "must be")
    stride = _pool_stride(stride, kernel, "avg_pool3d", "must be")
    padding = _pool_sizes(padding, "padding", "avg_pool3d", 3, "must be")
    if input.dim() not in (4, 5):
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    _check_divisor(divisor_override)
    output = _pooled_sizes(input, kernel, stride, padding, (1, 1, 1), ceil_mode, "avg_pool3d",
                           whole_kernel=True)
    # (PyTorch's 3-d kernel takes neither half precisions nor integers other than int64)
    if input.dtype not in (_dtypes.float32, _dtypes.float64, _dtypes.int64):
        raise _dtypes.not_implemented_for("avg_pool3d_out_frame", input.dtype)
    return _average_pooled(input, kernel, stride, padding, output, count_include_pad,
                           divisor_override)


def _check_divisor(divisor_override):
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")


def _check_averaged_dtype(input, kernel, *integers):
    """PyTorch's error for a dtype its averaging `kernel` does not take (floats, and the
    given `integers`, it does)."""
    dtype = input.dtype
    if not (dtype.is_floating_point or dtype in integers):
        raise _dtypes.not_implemented_for(kernel, dtype)


def _average_pooled(input, kernel, stride, padding, output, count_include_pad,
                    divisor_override):
    """The average pooling of `input` (checked) into `output` sizes."""
    windows, counts = [], []
    dims = len(kernel)
    for size, k, step, p, count in zip(input.shape[-dims:], kernel, stride, padding, output):
        starts = np.arange(count) * step - p
        ends = np.minimum(starts + k, size + p)  # the padded extent, which the divisor counts
        windows.append((starts, ends))
        counts.append(ends - starts if count_include_pad
                      else np.minimum(ends, size) - np.maximum(starts, 0))
    divisor = divisor_override if divisor_override is not None else _outer_product(counts)
    out = quiet().run(_window_means, engine(input), windows, divisor)
    return wrap(out, f"AvgPool{dims}DBackward0", (input,), saves_inputs=True)


def _outer_product(counts):
    """The product of each combination of one count per dimension: (*sizes)."""
    return functools.reduce(np.multiply.outer, counts)


def _window_means(x, windows, divisor):
    """The sums of x over the windows along its last len(windows) dimensions, [start, end)
    of each (clipped to the input: outside it is padding, zeros), divided by `divisor`:
    one product by a 0/1 matrix summing each dimension's windows."""
    dtype = unbox_all(x).dtype
    dims = len(windows)
    for axis, ((starts, ends), size) in enumerate(zip(windows, fnp.shape(x)[-dims:]), -dims):
        if not np.array_equal(starts, np.arange(size)) or not np.array_equal(ends, starts + 1):
            x = _summed_along(x, axis, _summing_matrix(starts, ends, size, dtype))
        # (else each window is one element, its own: there is nothing to sum)
    if dtype.kind != "f":  # integers: PyTorch's integer division (toward zero)
        quotient = np.abs(x) // divisor
        return np.where(x < 0, -quotient, quotient).astype(dtype)
    return fnp.true_divide(x, np.asarray(divisor, dtype))


def _summed_along(x, axis, matrix):
    """x with its `axis` (negative) replaced by the products of its elements there by each
    row of `matrix` (windows, size)."""
    if axis == -1:
        return fnp.matmul(x, matrix.T)
    shape = fnp.shape(x)
    # The axis's elements as the rows of a matrix, whose columns run over the later axes.
    rows = fnp.reshape(x, shape[:axis] + (shape[axis], math.prod(shape[axis + 1:])))
    return fnp.reshape(fnp.matmul(matrix, rows),
                       shape[:axis] + (len(matrix),) + shape[axis + 1:])


def _summing_matrix(starts, ends, size, dtype):
    """The (windows, size) matrix of 1 where position j is in window i's [start, end)."""
    positions = np.arange(size)
    return ((positions >= starts[:, None]) & (positions < ends[:, None])).astype(dtype)


def _adaptive_windows(size, count):
    """PyTorch's `count` adaptive windows of `size` elements (as even as can be: window i
    covers [floor(i * size / count), ceil((i + 1) * size / count))): starts and ends."""
    i = np.arange(count)
    return i * size // count, -(-(i + 1) * size // count)


def _adaptive_output_size(input, output_size, dims):
    """output_size as PyTorch's Python layer passes it on: an int as `dims` of it; a
    sequence with each None replaced by the input's size there (after its check that the
    input has more dimensions than the sequence has sizes)."""
    if isinstance(output_size, numbers.Integral):
        return (int(output_size),) * dims
    sizes = tuple(output_size)
    if input.dim() <= len(sizes):
        raise ValueError(f"Input dimension should be at least {len(sizes) + 1}")
    return tuple(input.shape[i - len(sizes)] if size is None else size
                 for i, size in enumerate(sizes))


def _check_adaptive_input(input, dims, function, first_checked, separator=""):
    """PyTorch's checks of an adaptive pooling's input: (N, C, *spatial) or (C, *spatial),
    nothing empty from dimension `first_checked` on."""
    if input.dim() not in (dims + 1, dims + 2):
        raise RuntimeError(f"{function}(): Expected {dims + 1}D or {dims + 2}D tensor, but "
                           f"got{separator} {list(input.shape)}")
    for dim in range(first_checked, input.dim()):
        if input.shape[dim] == 0:
            raise RuntimeError(f"{function}(): Expected input to have non-zero size for "
                               f"non-batch dimensions, but input has sizes "
                               f"{list(input.shape)} with dimension {dim} being empty")


def adaptive_avg_pool2d(input, output_size):
    """The mean of each of output_size windows (PyTorch's adaptive windows, see
    _adaptive_windows) of input (N, C, H, W) or (C, H, W); None in output_size keeps the
    input's length."""
    return _adaptive_avg_pool(input, output_size, 2)


def adaptive_avg_pool3d(input, output_size):
    """adaptive_avg_pool2d's windows over the last three dimensions of input (N, C, D, H, W)
    or (C, D, H, W)."""
    return _adaptive_avg_pool(input, output_size, 3)


def _adaptive_avg_pool(input, output_size, dims):
    name = f"adaptive_avg_pool{dims}d"
    require_tensor(input, name, "input", 1)
    sizes = _adaptive_output_size(input, output_size, dims)
    if len(sizes) != dims:
        raise RuntimeError(f"{name}: output_size must be {dims}")
    if min(sizes) < 0:  # (PyTorch's 3-d message runs its last two sizes together)
        raise RuntimeError(f"{name}: elements of output_size must be greater than or equal to "
                           f"0 but received {{{sizes[0]}, {','.join(map(str, sizes[1:]))}}}")
    if all(size == 1 for size in sizes):  # PyTorch's shortcut, a mean
        return input.mean(tuple(range(-1, -dims - 1, -1)), keepdim=True)
    # (Its 2-d kernel takes an empty channel dimension.)
    _check_adaptive_input(input, dims, name, input.dim() - 2 if dims == 2 else 1)
    _check_averaged_dtype(input, name if dims == 2 else "adaptive_avg_pool3d_cpu")
    windows = [_adaptive_windows(size, count)
               for size, count in zip(input.shape[-dims:], sizes)]
    out = quiet().run(_window_means, engine(input), windows,
                      _outer_product([ends - starts for starts, ends in windows]))
    return wrap(out, f"AdaptiveAvgPool{dims}DBackward0", (input,), saves_inputs=True)


# ---- adaptive max pooling ------------------------------------------------------------------


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """The largest element of each of output_size windows (PyTorch's adaptive windows, as
    adaptive_avg_pool2d's) of input (N, C, H, W) or (C, H, W); with return_indices, also
    each one's flat index in H * W."""
    return _adaptive_max_pool(input, output_size, return_indices, 2)


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """adaptive_max_pool2d's windows over the last three dimensions of input (N, C, D, H, W)
    or (C, D, H, W); the indices are flat in D * H * W."""
    return _adaptive_max_pool(input, output_size, return_indices, 3)


def _adaptive_max_pool(input, output_size, return_indices, dims):
    name = f"adaptive_max_pool{dims}d"
    require_tensor(input, name, "input", 1)
    sizes = _adaptive_output_size(input, output_size, dims)
    if len(sizes) != dims:
        raise RuntimeError(f"{name}(): internal error: output_size.size() must be {dims}")
    _check_adaptive_input(input, dims, name, 1, ":")
    if min(sizes) < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(sizes)}: "
                           f"{list(input.shape[:-dims]) + list(sizes)}")
    if not input.dtype.is_floating_point:
        raise _dtypes.not_implemented_for(name if dims == 2 else "adaptive_max_pool3d_cpu",
                                          input.dtype)
    out, indices = quiet().run(_adaptive_maxima, engine(input), sizes)
    out = wrap(out, f"AdaptiveMaxPool{dims}DBackward0", (input,), saves_inputs=True)
    return (out, make(indices)) if return_indices else out


def _adaptive_maxima(x, sizes):
    """adaptive_max_pool2d's or adaptive_max_pool3d's values and indices. A window's maximum
    is the maximum over its rows of each row's maximum (over its planes of each plane's);
    taking each row's first largest (or last NaN), then the first row holding the largest
    of those (or the last holding a NaN), and so on, picks the element PyTorch's kernel
    picks, scanning the window in order."""
    shape = fnp.shape(x)[-len(sizes):]
    x, index = _window_maxima(x, -1, shape[-1], sizes[-1])
    span = shape[-1]
    for axis in range(-2, -len(sizes) - 1, -1):
        x, picks = _window_maxima(x, axis, shape[axis], sizes[axis])
        # The flat index, within the later dimensions, of the element picked in each of
        # the rows (planes) picked.
        index = picks * span + np.take_along_axis(index, picks, axis=axis)
        span *= shape[axis]
    return x, index.astype(np.int64)


def _window_maxima(x, axis, size, count):
    """The maxima of x along `axis` over PyTorch's `count` adaptive windows of its `size`
    elements, and the position each was taken from."""
    starts, ends = _adaptive_windows(size, count)
    # Each window's positions, the shorter ones repeating their last (which leaves both
    # the maximum and the element picked as they are; no windows have one position each).
    positions = np.minimum(starts[:, None] + np.arange(max(ends - starts, default=1)),
                           ends[:, None] - 1)
    # (count, longest) positions in place of `axis`: the window's positions at `axis`.
    windows = fnp.take(x, positions, axis=axis)
    choice = _first_largest(unbox_all(windows), axis)
    maxima = fnp.squeeze(fnp.take_along_axis(windows, np.expand_dims(choice, axis), axis=axis),
                         axis)
    window = np.arange(count).reshape([count if d == choice.ndim + axis else 1
                                       for d in range(choice.ndim)])
    return maxima, positions[window, choice]


def _first_largest(raw, axis):
    """The position along `axis` of the first largest element, or of the last NaN where
    there is one (PyTorch's pick)."""
    choice = np.argmax(raw, axis=axis)
    if raw.dtype.kind == "f":
        nan = np.isnan(raw)
        last_nan = raw.shape[axis] - 1 - np.argmax(np.flip(nan, axis), axis=axis)
        choice = np.where(nan.any(axis=axis), last_nan, choice)
    return choice


# ---- 1-d pooling: as PyTorch computes it, the 2-d pooling of a height-1 image -------------


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """max_pool2d along the last dimension of input (N, C, L) or (C, L)."""
    require_tensor(input, "max_pool1d", "input", 1)
    if input.dim() not in (2, 3) or not all(input.shape[1:]):
        raise RuntimeError(f"max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 "
                           f"dim batch size for input, but got:{list(input.shape)}")
    kernel = _one_int(kernel_size, "kernel_size", "max_pool1d")
    stride = kernel if stride is None or stride == () else _one_int(stride, "stride",
                                                                     "max_pool1d", "None, ")
    padding = _one_int(padding, "padding", "max_pool1d")
    dilation = _one_int(dilation, "dilation", "max_pool1d")
    for name, value in (("kernel_size", kernel), ("stride", stride), ("dilation", dilation)):
        if value <= 0:
            raise RuntimeError(f"max_pool1d() {name} must be greater than zero, but got {value}")
    if padding < 0:
        raise RuntimeError(f"max_pool1d() padding must be non-negative, but got {padding}")
    if padding > kernel // 2:
        raise RuntimeError(f"max_pool1d() padding should be at most half of kernel size, but "
                           f"got padding={padding} and kernel_size={kernel}")
    size = _pooled_size(input.shape[-1], kernel, stride, padding, dilation, ceil_mode)
    if size < 1:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {size}")
    if not (input.dtype.is_floating_point or return_indices):  # (PyTorch's kernel without
        raise _dtypes.not_implemented_for("max_pool1d_impl", input.dtype)  # indices: floats)
    pooled = max_pool2d(_ops.unsqueeze(input, -2), (1, kernel), (1, stride), (0, padding),
                        (1, dilation), ceil_mode, return_indices)
    if return_indices:
        return tuple(_ops.squeeze(t, -2) for t in pooled)
    return _ops.squeeze(pooled, -2)


def _one_int(value, name, function, alternatives=""):
    """A 1-d pooling's size argument: an int, or a sequence of one."""
    values = (value,) if isinstance(value, numbers.Integral) else tuple(value)
    if len(values) != 1:
        raise RuntimeError(f"{function}() {name} must be {alternatives or 'an '}"
                           f"{'an ' if alternatives else ''}int, list of ints"
                           f"{',' if alternatives else ''} or tuple of ints of size 1 but got "
                           f"size {len(values)}")
    return values[0]


def _check_1d_input(input, function):
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional "
                           f"tensor for argument #1 'self' (while checking arguments for "
                           f"{function})")


def _one_size(value, name, function):
    values = (value,) if isinstance(value, numbers.Integral) or value is None else tuple(value)
    if len(values) != 1:
        raise RuntimeError(f"{function}() argument '{name}' should contain one int (got "
                           f"{len(values)})")
    return values[0]


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True):
    """avg_pool2d along the last dimension of input (N, C, L) or (C, L)."""
    require_tensor(input, "avg_pool1d", "input", 1)
    _check_1d_input(input, "avg_pool1d")
    kernel = _one_size(kernel_size, "kernel_size", "avg_pool1d")
    stride = kernel if stride is None or stride == () else _one_size(stride, "stride",
                                                                     "avg_pool1d")
    padding = _one_size(padding, "padding", "avg_pool1d")
    return _ops.squeeze(avg_pool2d(_ops.unsqueeze(input, -2), (1, kernel), (1, stride),
                                   (0, padding), ceil_mode, count_include_pad), -2)


def adaptive_avg_pool1d(input, output_size):
    """adaptive_avg_pool2d along the last dimension of input (N, C, L) or (C, L)."""
    require_tensor(input, "adaptive_avg_pool1d", "input", 1)
    size = _one_size(output_size, "output_size", "adaptive_avg_pool1d")
    _check_1d_input(input, "adaptive_avg_pool1d")
    return _ops.squeeze(adaptive_avg_pool2d(_ops.unsqueeze(input, -2), (1, size)), -2)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """adaptive_max_pool2d along the last dimension of input (N, C, L) or (C, L)."""
    require_tensor(input, "adaptive_max_pool1d", "input", 1)
    size = _one_size(output_size, "output_size", "adaptive_max_pool1d")
    _check_1d_input(input, "adaptive_max_pool1d")
    pooled = adaptive_max_pool2d(_ops.unsqueeze(input, -2), (1, size), return_indices)
    if return_indices:
        return tuple(_ops.squeeze(t, -2) for t in pooled)
    return _ops.squeeze(pooled, -2)
