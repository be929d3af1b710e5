"""F.embedding_bag: the sums, means or maxima of bags of embedding rows (PyTorch's
EmbeddingBag, as its text-classification tutorial uses it), with PyTorch's checks in its
order. The bags' sums and means are one product of a bag-membership matrix (weighted by
per_sample_weights) with the rows looked up; the maxima pick, in each bag and column, the
first largest row, as PyTorch's kernel does, so the gradient goes where PyTorch's goes."""
import numpy as np

import funcgrad.numpy as fnp
from funcgrad.core import unbox_all

from .. import _dtypes
from .._quiet import quiet
from .._factories import arange
from .._record import float_operand, wrap
from .._tensor import Tensor

_MODES = ("sum", "mean", "max")


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2,
                  scale_grad_by_freq=False, mode="mean", sparse=False, per_sample_weights=None,
                  include_last_offset=False, padding_idx=None):
    """One row per bag of `mode` over the bag's rows of `weight` at the indices `input`: a
    2-d input is one bag per row; a 1-d one is split into bags starting at `offsets`."""
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) "
                         f"is not None, then it must have the same shape as the input "
                         f"({input.shape})")
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension "
                         f"{weight.dim()}")
    offsets, include_last_offset = _offsets(input, offsets, include_last_offset)
    _check_mode(mode, scale_grad_by_freq, sparse)
    if max_norm is not None or scale_grad_by_freq or sparse:
        raise NotImplementedError("compat: embedding_bag's max_norm, scale_grad_by_freq and "
                                  "sparse are not supported")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. "
                                  f"per_sample_weights is only supported for mode='sum' (got "
                                  f"mode='{mode}'). Please open a feature request on GitHub.")
    _check_integers(input)
    _check_integers(offsets)
    if not weight.dtype.is_floating_point:  # PyTorch's kernel takes floats only
        raise RuntimeError(f"Expected tensor for argument #1 'weight' to have one of the "
                           f"following scalar types: Half, BFloat16, Float, Double; but got "
                           f"{weight.dtype.type_string} instead (while checking "
                           f"arguments for embedding_bag)")
    indices, starts = input._data.reshape(-1), offsets._data.astype(np.int64)
    ends = _check_bags(indices, starts, include_last_offset, weight.shape[0])
    if include_last_offset:
        starts = starts[:-1]
    kept = np.ones(indices.shape, bool) if padding_idx is None else indices != padding_idx
    weights = None if per_sample_weights is None else float_operand(per_sample_weights)
    edges = (weight,) if per_sample_weights is None else (weight, per_sample_weights)
    out = quiet().run(_bagged, float_operand(weight), indices, starts, ends, kept, mode,
                      None if weights is None else fnp.reshape(weights, (-1,)))
    return wrap(out, "EmbeddingBagBackward0", edges, others=(input,))


def _offsets(input, offsets, include_last_offset):
    """The bags' starts and include_last_offset, as PyTorch reads a 2-d input (one bag per
    row) or a 1-d one with offsets."""
    if input.dim() == 2:
        if offsets is not None:
            kind = "<class 'torch.Tensor'>" if isinstance(offsets, Tensor) else type(offsets)
            raise ValueError(f"if input is 2D, then offsets has to be None, as input is treated "
                             f"is a mini-batch of fixed length sequences. However, found "
                             f"offsets of type {kind}")
        return arange(0, input.numel(), max(input.shape[1], 1), dtype=input.dtype), False
    if input.dim() != 1:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension "
                         f"{input.dim()}")
    if offsets is None:
        raise ValueError("offsets has to be a 1D Tensor but got None")
    if offsets.dim() != 1:
        raise ValueError("offsets has to be a 1D Tensor")
    return offsets, include_last_offset


def _check_integers(t):
    if not isinstance(t, Tensor) or t.dtype not in (_dtypes.int64, _dtypes.int32):
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the "
                           f"following scalar types: Long, Int; but got {t.dtype.type_string} "
                           f"instead (while checking arguments for embedding_bag)")


def _check_mode(mode, scale_grad_by_freq, sparse):
    if mode not in _MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if mode == "max" and sparse:
        raise ValueError("max mode does not support sparse weights")


def _check_bags(indices, starts, include_last_offset, rows):
    """Each bag's end (the next bag's start, or the input's length), after PyTorch's checks
    of the offsets and the indices."""
    if starts.size and starts[0] != 0:
        raise RuntimeError(f"offsets[0] has to be 0, i.e., the first sequence in the "
                           f"mini-batch has to start from position 0. However, got "
                           f"{starts[0]}\n[ torch.LongTensor{{}} ]")
    if starts.size and starts[-1] > indices.size:
        raise RuntimeError(f"offsets[-1] can not be greater than input's length "
                           f"{indices.size} but got offsets[-1] of {starts[-1]}")
    outside = np.flatnonzero((indices < 0) | (indices >= rows))
    if outside.size:
        place = outside[0]
        raise RuntimeError(f"Index {place} of input takes value {indices[place]} which is not "
                           f"in the valid range [0, {rows})")
    if include_last_offset:
        return starts[1:]
    return np.append(starts[1:], indices.size)


def _bagged(table, indices, starts, ends, kept, mode, weights):
    rows = fnp.take(table, indices, axis=0)  # (N, D)
    positions = np.arange(indices.size)
    members = ((positions >= starts[:, None]) & (positions < ends[:, None]) & kept)
    if mode == "max":
        return _bag_maxima(rows, members)
    membership = members.astype(unbox_all(table).dtype)
    if weights is not None:
        membership = fnp.multiply(membership, weights)
    sums = fnp.matmul(membership, rows)
    if mode == "sum":
        return sums
    counts = np.maximum(members.sum(axis=1), 1).astype(unbox_all(table).dtype)
    return fnp.true_divide(sums, counts[:, None])  # (an empty bag's mean is 0)


def _bag_maxima(rows, members):
    """Per bag and column, the first largest of the bag's rows (0 for an empty bag)."""
    raw = unbox_all(rows)
    candidates = np.where(members[:, :, None], raw[None, :, :], -np.inf)  # (B, N, D)
    first = np.argmax(candidates, axis=1)  # (B, D): the first largest member
    picked = fnp.take_along_axis(rows, first, axis=0)
    return fnp.where(members.any(axis=1)[:, None], picked, 0.0)
