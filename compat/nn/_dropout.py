"""The dropout functions: elements, channels (1-d to 3-d) or, with SELU's alpha, elements
and channels dropped with the draws of PyTorch's CPU generator, in its order."""
import math
import warnings

import numpy as np

from .. import _ops
from .._factories import empty, zeros


def check_probability(p):
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability p (drawn from the default generator as PyTorch's
    CPU kernel draws) and scale the rest by 1 / (1 - p); the identity when not training."""
    check_probability(p)
    return _dropped(input, p, training, inplace, input.shape)


def _dropped(input, p, training, inplace, noise_shape, alpha=False):
    """input times noise of `noise_shape` (broadcast): 0 with probability p, else
    1 / (1 - p); with `alpha`, SELU's alpha dropout: each dropped element (or channel) set
    to SELU's negative saturation, and all scaled and shifted to keep the mean and
    variance."""
    if not training or p == 0 or input.numel() == 0:
        return input
    if p == 1:
        noise = zeros((), dtype=input.dtype)
        return input.mul_(noise) if inplace else _ops.mul(input, noise)
    if tuple(noise_shape) == tuple(input.shape):
        noise = drawn_in_memory_order(input, 1 - p)
    else:
        noise = empty(noise_shape, dtype=input.dtype).bernoulli_(1 - p)
    if not alpha:
        noise.div_(1 - p)
        return input.mul_(noise) if inplace else _ops.mul(input, noise)
    scale = 1.0 / math.sqrt((_ALPHA_DROPOUT ** 2 * p + 1) * (1 - p))
    shift = noise.add(-1).mul_(_ALPHA_DROPOUT * scale).add_(_ALPHA_DROPOUT * scale * p)
    noise.mul_(scale)
    return (input.mul_(noise) if inplace else _ops.mul(input, noise)).add_(shift)


# SELU's negative saturation, -scale * alpha: where alpha dropout sets dropped elements.
_ALPHA_DROPOUT = 1.7580993408473766


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    check_probability(p)
    return _dropped(input, p, training, inplace, input.shape, alpha=True)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    check_probability(p)
    return _dropped(input, p, training, inplace, _channels(input, p, training), alpha=True)


def _channels(input, p, training):
    """A feature dropout's noise shape, a draw per channel of each sample. PyTorch refuses
    fewer than two dimensions only where it draws (training, p > 0, some elements)."""
    if training and p != 0 and input.numel() and input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    return tuple(input.shape[:2]) + (1,) * (input.dim() - 2)


def drawn_in_memory_order(input, probability):
    """Bernoulli draws shaped like `input`, made in the order of its elements in memory:
    PyTorch's noise (empty_like) takes the strides of a dense input, and bernoulli_ fills
    memory in order, so a transposed input gets transposed draws."""
    order = sorted(range(input.dim()), key=lambda dim: -input.stride(dim))
    shape = [input.size(dim) for dim in order]
    dense_strides = np.cumprod([1] + shape[:0:-1])[::-1]
    if any(input.stride(dim) != stride for dim, stride in zip(order, dense_strides)
           if input.size(dim) != 1):
        order, shape = list(range(input.dim())), list(input.shape)  # PyTorch's: contiguous
    noise = empty(shape, dtype=input.dtype).bernoulli_(probability)
    return noise.permute(*np.argsort(order)) if input.dim() else noise


def feature_dropout(input, p, training, inplace):
    """Zero each channel (dimension 1) of each sample with probability p, and scale the
    rest by 1 / (1 - p)."""
    return _dropped(input, p, training, inplace, _channels(input, p, training))


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Channel dropout of input (N, C, L) or (C, L)."""
    check_probability(p)
    if input.dim() not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a "
                           f"{input.dim()}D input. Note that dropout1d exists to provide "
                           f"channel-wise dropout on inputs with 1 spatial dimension, a channel "
                           f"dimension, and an optional batch dimension (i.e. 2D or 3D "
                           f"inputs).")
    if input.dim() == 3:
        return feature_dropout(input, p, training, inplace)
    if inplace:  # one draw per channel, as for a batch of one (PyTorch's node: a squeeze_)
        return _dropped(input, p, training, inplace, (input.shape[0], 1))
    return feature_dropout(input.unsqueeze(0), p, training, inplace).squeeze(0)


def _warn_unless_image_rank(input, spatial):
    """PyTorch's deprecation of dropout{spatial}d on an input of another rank than an image
    of `spatial` dimensions with channels, with or without a batch."""
    if input.dim() not in (spatial + 1, spatial + 2):
        name = f"dropout{spatial}d"
        warnings.warn(f"{name}: Received a {input.dim()}-D input to {name}, which is "
                      f"deprecated and will result in an error in a future release. To retain "
                      f"the behavior and silence this warning, please use dropout instead. "
                      f"Note that {name} exists to provide channel-wise dropout on inputs "
                      f"with {spatial} spatial dimensions, a channel dimension, and an optional "
                      f"batch dimension (i.e. {spatial + 1}D or {spatial + 2}D inputs).",
                      UserWarning, stacklevel=3)


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Channel dropout of input (N, C, H, W); a 3-d input is taken as (N, C, L), with
    PyTorch's warning."""
    check_probability(p)
    _warn_unless_image_rank(input, 2)
    if input.dim() == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that "
                      "channel-wise 1D dropout behavior is desired - input is interpreted as "
                      "shape (N, C, L), where C is the channel dim. This behavior will change "
                      "in a future release to interpret the input as one without a batch "
                      "dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise "
                      "dropout behavior, please switch to using dropout1d instead.",
                      UserWarning, stacklevel=2)
    return feature_dropout(input, p, training, inplace)


def dropout3d(input, p=0.5, training=True, inplace=False):
    """Channel dropout of input (N, C, D, H, W) or (C, D, H, W); an input of another rank
    is taken as unbatched, with PyTorch's warning."""
    check_probability(p)
    _warn_unless_image_rank(input, 3)
    if input.dim() == 5:
        return feature_dropout(input, p, training, inplace)
    if inplace and input.dim():  # one draw per channel, as for a batch of one
        return _dropped(input, p, training, inplace, input.shape[:1] + (1,) * (input.dim() - 1))
    return feature_dropout(input.unsqueeze(0), p, training, inplace).squeeze(0)
