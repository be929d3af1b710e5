"""F.embedding: rows of a weight table looked up by integer indices, with PyTorch's options:
`padding_idx` (that row gets no gradient), `max_norm` (the rows looked up are renormalised in
the weight itself, in place and without recording, before the lookup, as PyTorch does) and
`scale_grad_by_freq` (each row's gradient divided by how often the indices name it)."""
import functools

import numpy as np

import funcgrad.numpy as fnp
from funcgrad import custom_vjp
from funcgrad.core import unbox_all

from .. import _dtypes
from .._complex_refusals import refuse_complex_derivative
from .._grad_mode import no_grad
from .._record import float_operand, wrap
from .._tensor import Tensor, make, require_tensor


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):
    """The rows of `weight` at the integer indices `input`."""
    # (PyTorch's native signature is embedding(weight, indices): its positions)
    require_tensor(weight, "embedding", "weight", 1)
    require_tensor(input, "embedding", "indices", 2)
    if sparse:
        raise NotImplementedError("compat: embedding's sparse gradients are not supported")
    if max_norm is not None:  # (PyTorch renormalises first)
        _check_indices(input, 2, "embedding_renorm_")
        _renormalise_rows_(weight, input._data, max_norm, norm_type)
    _check_indices(input, 1, "embedding")
    indices = input._data
    rows = weight._data.shape[0]
    if indices.size and (indices.min() < 0 or indices.max() >= rows):
        raise IndexError("index out of range in self")
    refuse_complex_derivative("embedding", weight)
    table = float_operand(weight)
    if padding_idx is not None:
        keep = np.arange(rows) != padding_idx % rows
        table = fnp.where(keep[:, None], table, unbox_all(table))
    looked_up = fnp.getitem(table, indices)
    if scale_grad_by_freq:
        _, where, counts = np.unique(indices, return_inverse=True, return_counts=True)
        scales = (1.0 / counts[where.reshape(indices.shape)]).astype(looked_up.dtype)
        looked_up = _gradient_scaled(looked_up, scales[..., None])
    return wrap(looked_up, "EmbeddingBackward0", (weight,), others=(input,))


def _check_indices(input, position, kernel):
    """PyTorch's error for indices that are not a tensor of int64 or int32, which name
    them by their position among the `kernel`'s arguments."""
    if not isinstance(input, Tensor) or input.dtype not in (_dtypes.int64, _dtypes.int32):
        what = input.dtype.type_string if isinstance(input, Tensor) else type(input).__name__
        raise RuntimeError(f"Expected tensor for argument #{position} 'indices' to have one of "
                           f"the following scalar types: Long, Int; but got {what} instead "
                           f"(while checking arguments for {kernel})")


def _renormalise_rows_(weight, indices, max_norm, norm_type):
    """Each row of `weight` that `indices` name whose norm exceeds max_norm, scaled in place
    to max_norm / (norm + 1e-7) of itself (Tensor.renorm's rule), unrecorded; PyTorch's
    errors for a weight of integers and an index beyond the table, in its order."""
    if weight.dtype.category < _dtypes.FLOAT:
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. "
                           f"Got {weight.dtype.scalar_name} instead.")
    size = weight._data.shape[0]
    named = np.unique(indices)
    beyond = named[(named < -size) | (named >= size)]
    if beyond.size:
        raise IndexError(f"select(): index {beyond[0]} out of range for tensor of size "
                         f"{list(weight.shape)} at dimension 0")
    if not named.size:
        return
    rows = make(named % size)
    with no_grad():
        weight.index_copy_(0, rows, weight[rows].renorm(norm_type, 0, max_norm))


@functools.partial(custom_vjp, nondiff_argnums=(1,))
def _gradient_scaled(rows, scales):
    """`rows` as they are, their gradient multiplied by `scales` (PyTorch's backward of
    scale_grad_by_freq multiplies each looked-up row's gradient by 1 / its frequency)."""
    return fnp.positive(rows)


def _gradient_scaled_forward(rows, scales):
    return _gradient_scaled(rows, scales), None


def _gradient_scaled_backward(scales, saved, g):
    return (g * scales,)


_gradient_scaled.defvjp(_gradient_scaled_forward, _gradient_scaled_backward)
