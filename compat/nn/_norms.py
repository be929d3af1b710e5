"""The normalisations of nn.functional: batch_norm, layer_norm and group_norm, computed with
funcgrad and recorded under the names of PyTorch's kernels; and those PyTorch composes
from other operations: rms_norm (tensor arithmetic), instance_norm (batch_norm of every
sample's channels as channels of one sample) and local_response_norm (an average pool
across channels), composed the same way here, so their values, gradients and grad_fn names
follow."""
import math
import warnings

import numpy as np

import funcgrad.numpy as fnp
from funcgrad.core import unbox_all

from .. import _dtypes
from .._grad_mode import no_grad
from .._inplace import write
from .._quiet import quiet
from .._record import float_operand, wrap
from ._padding import pad
from ._spatial import avg_pool2d, avg_pool3d


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-5):
    """Each channel (dimension 1) normalised by the batch's mean and (biased) variance when
    training, which also updates the running statistics in place (the variance unbiased),
    or by the running statistics otherwise; then scaled by weight and shifted by bias."""
    if training:
        _verify_batch_size(input.shape)
    if training and eps <= 0.0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    if eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    if not input.numel():
        # PyTorch's result for no elements: a copy of them (times weight[0], plus bias[0]),
        # and no statistics (the mean of nothing, NaN, would make the running ones NaN).
        out = input.clone()
        out = out if weight is None else out * weight[0]
        return out if bias is None else out + bias[0]
    channels = input.shape[1] if input.dim() > 1 else 1
    for name, statistic in (("running_mean", running_mean), ("running_var", running_var)):
        if statistic is None and not training:
            raise RuntimeError(f"{name} must be defined in evaluation mode")
        if statistic is not None and statistic.numel() != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not "
                               f"{statistic.numel()}")
    _dtypes.require_floating("batch_norm", input.dtype)
    _refuse_mixed_dtypes(input, weight, bias, running_mean, running_var)
    axes = (0,) + tuple(range(2, input.dim()))
    shape = (1, channels) + (1,) * (input.dim() - 2)  # a channel's values, broadcast
    edges = tuple(t for t in (input, weight, bias) if t is not None)
    if not training:
        statistics = (running_mean._data.reshape(shape), running_var._data.reshape(shape))
        out = quiet().run(_normalised_by, _computing(input), *statistics,
                          *_affine_operands(weight, bias, shape), eps)
        return wrap(_in_dtype_of(out, input), "NativeBatchNormBackward0", edges)
    out, mean, variance = quiet().run(_batch_normalised, _computing(input), axes,
                                      *_affine_operands(weight, bias, shape), eps)
    out = _in_dtype_of(out, input)
    if running_mean is not None:
        _update_running_statistics(running_mean, running_var, mean, variance,
                                   input.numel() // channels, momentum)
    return wrap(out, "NativeBatchNormBackward0", edges)


def _refuse_mixed_dtypes(input, *parameters):
    """PyTorch's CPU normalisations take parameters of the input's dtype, or float32 ones
    for a float16 input (whose result stays float16)."""
    for parameter in parameters:
        if parameter is not None and parameter.dtype is not input.dtype and not (
                input.dtype is _dtypes.float16 and parameter.dtype is _dtypes.float32):
            raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")


def _computing(input):
    """The input's value as PyTorch's kernels compute with it: float16 in float32."""
    x = float_operand(input)
    return fnp.astype(x, np.float32) if input._data.dtype == np.float16 else x


def _in_dtype_of(out, input):
    """A normalisation's result in the input's dtype (float16's computed in float32)."""
    return fnp.astype(out, input._data.dtype) if fnp.result_type(out) != input._data.dtype \
        else out


def _verify_batch_size(size):
    values_per_channel = size[0]
    for extent in size[2:]:
        values_per_channel *= extent
    if values_per_channel == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input "
                         f"size {size}")


def _affine_operands(weight, bias, shape):
    return tuple(None if t is None else fnp.reshape(float_operand(t), shape)
                 for t in (weight, bias))


def _moments(x, axes):
    """The mean and the biased variance of x over `axes` (kept as dimensions of 1)."""
    mean = fnp.mean(x, axes, keepdims=True)
    return mean, fnp.mean(fnp.square(fnp.subtract(x, mean)), axes, keepdims=True)


def _normalised_by(x, mean, variance, weight, bias, eps):
    """(x - mean) / sqrt(variance + eps), times weight, plus bias (either may be None), as
    PyTorch's CPU kernels compute it: x * scale + shift, with scale = weight / sqrt(variance
    + eps) and shift = bias - mean * scale."""
    scale = fnp.true_divide(1.0, fnp.sqrt(fnp.add(variance, eps)))
    if weight is not None:
        scale = fnp.multiply(scale, weight)
    shift = fnp.negative(fnp.multiply(mean, scale))
    if bias is not None:
        shift = fnp.add(bias, shift)
    return fnp.add(fnp.multiply(x, scale), shift)


def _batch_normalised(x, axes, weight, bias, eps):
    mean, variance = _moments(x, axes)
    return (_normalised_by(x, mean, variance, weight, bias, eps), unbox_all(mean),
            unbox_all(variance))


def _update_running_statistics(running_mean, running_var, mean, variance, count, momentum):
    """running = momentum * batch + (1 - momentum) * running, in float64 as PyTorch's CPU
    kernel accumulates, with the batch's unbiased variance."""
    unbiased = variance.astype(np.float64) * count / (count - 1)
    for running, batch in ((running_mean, mean.astype(np.float64)), (running_var, unbiased)):
        updated = momentum * batch.reshape(-1) + (1 - momentum) * running._data
        write(running, updated.reshape(running.shape))


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """input normalised over its last dimensions (normalized_shape) by their mean and
    biased variance, times weight, plus bias (both of normalized_shape)."""
    normalized_shape = tuple(normalized_shape)
    size = len(normalized_shape)
    if input.shape[input.dim() - size:] != normalized_shape or size > input.dim():
        expected = ", ".join(str(extent) for extent in normalized_shape)
        raise RuntimeError(f"Given normalized_shape={list(normalized_shape)}, expected input "
                           f"with shape [*, {expected}], but got input of size"
                           f"{list(input.shape)}")
    for name, parameter in (("weight", weight), ("bias", bias)):
        if parameter is not None and tuple(parameter.shape) != normalized_shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but "
                               f"got {name} of shape {list(parameter.shape)} and "
                               f"normalized_shape = {list(normalized_shape)}")
    _refuse_mixed_dtypes(input, weight, bias)
    _dtypes.require_floating("LayerNormKernelImpl", input.dtype)
    axes = tuple(range(input.dim() - size, input.dim()))
    out = quiet().run(_layer_normalised, float_operand(input), axes,
                      *_affine_operands(weight, bias, normalized_shape), eps)
    # PyTorch's node saves the input, weight and bias (compat's rule holds no bias).
    return wrap(out, "NativeLayerNormBackward0",
                tuple(t for t in (input, weight, bias) if t is not None), saves_inputs=True)


def _layer_normalised(x, axes, weight, bias, eps):
    dtype = fnp.result_type(x)
    if dtype == np.float16:  # PyTorch's kernel computes float16 in float32, rounding once
        x, weight, bias = (None if t is None else fnp.astype(t, np.float32)
                           for t in (x, weight, bias))
    return fnp.astype(_normalised_by(x, *_moments(x, axes), weight, bias, eps), dtype)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Each sample's channels (dimension 1), in num_groups groups, normalised by each
    group's mean and biased variance; then each channel scaled by weight and shifted by
    bias."""
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received "
                           f"{input.dim()}")
    shape = list(input.shape)
    if shape[1] % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by "
                           f"num_groups, but got input of shape {shape} and "
                           f"num_groups={num_groups}")
    # (PyTorch's message for the bias shows the weight's shape, [0] without one)
    weight_shape = [0] if weight is None else list(weight.shape)
    for name, parameter in (("weight", weight), ("bias", bias)):
        if parameter is not None and (parameter.dim() != 1 or parameter.numel() != shape[1]):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number "
                               f"of channels in input, but got {name} of shape "
                               f"{weight_shape} and input of shape {shape}")
    channel_shape = (shape[1],) + (1,) * (len(shape) - 2)
    _refuse_mixed_dtypes(input, weight, bias)
    _dtypes.require_floating("GroupNormKernelImpl", input.dtype)
    out = quiet().run(_group_normalised, _computing(input), num_groups,
                      *_affine_operands(weight, bias, channel_shape), eps)
    return wrap(_in_dtype_of(out, input), "NativeGroupNormBackward0", (input, weight, bias))


def _group_normalised(x, groups, weight, bias, eps):
    shape = fnp.shape(x)
    # (no -1: a batch of no samples leaves it undetermined)
    grouped = fnp.reshape(x, (shape[0], groups, math.prod(shape[1:]) // groups))
    out = fnp.reshape(_normalised_by(grouped, *_moments(grouped, 2), None, None, eps), shape)
    if weight is not None:
        out = fnp.multiply(out, weight)
    return out if bias is None else fnp.add(out, bias)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """input divided by the root mean square of its last dimensions (normalized_shape),
    times weight; eps (default: the computing dtype's machine epsilon) is added to the mean
    square."""
    normalized_shape = tuple(normalized_shape)
    size = len(normalized_shape)
    if size > input.dim() or input.shape[input.dim() - size:] != normalized_shape:
        expected = ", ".join(str(extent) for extent in normalized_shape)
        raise RuntimeError(f"Given normalized_shape={list(normalized_shape)}, expected input "
                           f"with shape [*{expected}], but got input of size"
                           f"{list(input.shape)}")
    if weight is not None and tuple(weight.shape) != normalized_shape:
        raise RuntimeError(f"Expected weight to be of same shape as normalized_shape, but got "
                           f"weight of shape {list(weight.shape)} and normalized_shape = "
                           f"{list(normalized_shape)}")
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise _dtypes.not_implemented_for("rms_norm", input.dtype)
    # Half precisions compute in float32 (eps too: float32's), as PyTorch's kernels do.
    upcast = input.float() if input.dtype in (_dtypes.float16, _dtypes.bfloat16) else input
    if eps is None:
        eps = float(np.finfo(upcast.dtype.numpy).eps)
    dims = tuple(range(input.dim() - size, input.dim()))
    scale = (upcast.pow(2).mean(dims, keepdim=True) + eps).rsqrt()
    out = (upcast * scale).type_as(input)
    if weight is None:
        return out
    out = out * weight
    return out if out.dtype is input.dtype or not input.dtype.is_floating_point \
        else out.type_as(input)  # (a float16 input times a float32 weight: float16)


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.1, eps=1e-5):
    """Each channel of each sample normalised by its own mean and variance (the running
    statistics, if given, updated with their average over the samples)."""
    if use_input_stats:
        spatial = int(np.prod(input.shape[2:], dtype=np.int64))
        if spatial == 1:
            raise ValueError(f"Expected more than 1 spatial element when training, got input "
                             f"size {input.size()}")
    samples, channels = input.shape[:2]
    repeated = [None if t is None else t.repeat(samples)
                for t in (weight, bias, running_mean, running_var)]
    as_channels = input.contiguous().view((1, samples * channels) + tuple(input.shape[2:]))
    out = batch_norm(as_channels, repeated[2], repeated[3], repeated[0], repeated[1],
                     use_input_stats, momentum, eps)
    with no_grad():
        for running, updated in zip((running_mean, running_var), repeated[2:]):
            if running is not None:
                running.copy_(updated.view(samples, channels).mean(0))
    return out.view(input.shape)


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """input divided by (k + alpha * the mean of the squares of `size` neighbouring
    channels) ** beta."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          "
                         f"input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    # The channels as the first spatial dimension of a one-channel image (a volume, whose
    # last dimension holds the positions after the first), averaged `size` at a time.
    squares = input.mul(input)
    if dim == 3:
        squares = pad(squares.unsqueeze(1), (0, 0, size // 2, (size - 1) // 2))
        averages = avg_pool2d(squares, (size, 1), stride=1).squeeze(1)
    else:
        squares = squares.view(input.shape[0], 1, input.shape[1], input.shape[2], -1)
        squares = pad(squares, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        averages = avg_pool3d(squares, (size, 1, 1), stride=1).squeeze(1).view(input.shape)
    return input / averages.mul(alpha).add(k).pow(beta)


def warn_of_unused_features(feature_dim):
    warnings.warn(f"input's size at dim={feature_dim} does not match num_features. You can "
                  f"silence this warning by not passing in num_features, which is not used "
                  f"because affine=False", UserWarning, stacklevel=3)
