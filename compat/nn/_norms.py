"""The normalisations PyTorch composes from other operations: rms_norm (tensor
arithmetic), instance_norm (batch_norm of every sample's channels as channels of one
sample) and local_response_norm (an average pool across channels), composed the same way
here, so their values, gradients and grad_fn names follow."""
import warnings

import numpy as np

from .. import _dtypes
from .._grad_mode import no_grad
from ._padding import pad
from ._spatial import avg_pool2d, avg_pool3d
from .functional import batch_norm


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
    if not input.dtype.is_floating_point:
        raise _dtypes.not_implemented_for("rms_norm", input.dtype)
    # Half precisions compute in float32 (eps too: float32's), as PyTorch's kernels do.
    upcast = input.float() if input.dtype in (_dtypes.float16, _dtypes.bfloat16) else input
    if eps is None:
        eps = float(np.finfo(upcast.dtype.numpy).eps)
    dims = tuple(range(input.dim() - size, input.dim()))
    scale = (upcast.pow(2).mean(dims, keepdim=True) + eps).rsqrt()
    out = (upcast * scale).type_as(input)
    return out if weight is None else out * weight


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
