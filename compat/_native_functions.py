"""torch's native functions that return what nn.functional's keep inside: native_layer_norm
and native_batch_norm (with the statistics they normalised by), native_dropout (with its
mask), and the recurrent cells' single steps (torch.lstm_cell, gru_cell, rnn_tanh_cell,
rnn_relu_cell)."""
import funcgrad.numpy as fnp

from . import _dtypes
from ._factories import empty, ones
from ._record import engine, wrap
from .nn import functional as F
from .nn import rnn
from .nn._dropout import drawn_in_memory_order


def _statistics(input, dims, eps):
    """The mean and 1 / sqrt(biased variance + eps) of `input` over `dims` (kept), with no
    history (PyTorch's kernels return them without one); float16 computed in float32 and
    rounded once, as PyTorch's kernels compute them."""
    x = input.detach()
    if x.dtype is _dtypes.float16:
        x = x.float()
    mean = x.mean(dims, keepdim=True)
    rstd = ((x - mean) ** 2).mean(dims, keepdim=True).add(eps).rsqrt()
    return mean.to(input.dtype), rstd.to(input.dtype)


def native_layer_norm(input, normalized_shape, weight, bias, eps):
    """(layer_norm's output, the mean, the reciprocal standard deviation), the statistics
    of shape input.shape[:-len(normalized_shape)] + (1,) * len(normalized_shape)."""
    out = F.layer_norm(input, normalized_shape, weight, bias, eps)
    dims = tuple(range(input.dim() - len(normalized_shape), input.dim()))
    return (out, *_statistics(input, dims, eps))


def native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum,
                      eps):
    """(batch_norm's output, the batch's mean, its reciprocal standard deviation) of each
    channel when training (the running statistics updated as batch_norm updates them);
    two empty tensors in their place otherwise."""
    out = F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)
    if not training:
        return out, empty(0, dtype=input.dtype), empty(0, dtype=input.dtype)
    dims = (0, *range(2, input.dim()))
    return (out, *(s.reshape(-1) for s in _statistics(input, dims, eps)))


def native_dropout(input, p, train):
    """(input with each element zeroed with probability p and the rest scaled by
    1 / (1 - p), the bool mask of the elements kept); all kept when `train` is False."""
    if train is False:
        keep = ones(input.shape, dtype=input.dtype)
        scale = 1.0
    else:
        keep = drawn_in_memory_order(input, 1 - p)
        scale = 0.0 if p == 1 else 1 / (1 - p)
        if not input.dtype.is_floating_point:  # (PyTorch's in-place scaling of the output)
            raise RuntimeError(f"result type Float can't be cast to the desired output type "
                               f"{input.dtype.scalar_name}")
    scaled = fnp.multiply(fnp.multiply(engine(input), keep._data), input._data.dtype.type(scale))
    out = wrap(scaled, "NativeDropoutBackward0", (input,))
    return out, keep.bool()


def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One LSTM step on a batch: (h', c')."""
    if not isinstance(hx, (tuple, list)):
        raise TypeError(f"lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, "
                        f"not {type(hx).__name__}")
    if len(hx) != 2:
        raise RuntimeError("lstm_cell expects two hidden states")
    return rnn.cell("LSTM", input, tuple(hx), w_ih, w_hh, b_ih, b_hh)


def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One GRU step on a batch: h'."""
    return rnn.cell("GRU", input, (hx,), w_ih, w_hh, b_ih, b_hh)[0]


def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """h' = tanh(W_ih x + b_ih + W_hh h + b_hh)."""
    return rnn.cell("RNN_TANH", input, (hx,), w_ih, w_hh, b_ih, b_hh)[0]


def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """h' = relu(W_ih x + b_ih + W_hh h + b_hh)."""
    return rnn.cell("RNN_RELU", input, (hx,), w_ih, w_hh, b_ih, b_hh)[0]


__all__ = ["native_layer_norm", "native_batch_norm", "native_dropout", "lstm_cell",
           "gru_cell", "rnn_tanh_cell", "rnn_relu_cell"]
