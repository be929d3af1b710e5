"""Sequences of different lengths (``nn.utils.rnn``): padded to one length, or packed, the
sequences sorted by decreasing length and their elements stored time step after time step,
so that a recurrent layer computes each step for the sequences still running only.

Packing gathers the rows of the padded tensor that hold elements, and padding gathers the
packed rows back to their places (an extra row holds the padding value): one index_select
each way, so the gradient flows through both with no derivative written here.
"""
import collections
import numbers
from collections.abc import Iterable

import numpy as np

from ... import _dtypes, _ops
from ..._factories import arange, as_tensor, empty_like, tensor
from ..._record import broadcast_error, engine, wrap
from ..._tensor import Tensor, typename
from .. import functional as F

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence",
           "pad_packed_sequence", "pad_sequence", "unpad_sequence", "pack_sequence",
           "unpack_sequence"]


class PackedSequence(collections.namedtuple("PackedSequence_",
                                            "data batch_sizes sorted_indices unsorted_indices")):
    """A batch of sequences packed by pack_padded_sequence or pack_sequence: `data` holds
    the elements of the first time step of all the sequences, then of the second step of
    those that have one, ...; `batch_sizes` the number of sequences at each step;
    `sorted_indices` the order (by decreasing length) they were packed in, and
    `unsorted_indices` its inverse (both None if they were given sorted)."""

    __slots__ = ()

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:  # (data, batch_sizes) as one pair
            if not (isinstance(data, (list, tuple)) and len(data) == 2):
                raise AssertionError("Expected data to be a list or tuple of length 2")
            data, batch_sizes = data
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def _with_data(self, data):
        """self if `data` is self.data (a conversion that changed nothing), else a copy
        holding `data` (the indices stay on the CPU, compat's only device)."""
        if data is self.data:
            return self
        return type(self)(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def to(self, *args, **kwargs):
        return self._with_data(self.data.to(*args, **kwargs))

    def cuda(self, *args, **kwargs):
        return self._with_data(self.data.cuda(*args, **kwargs))

    def cpu(self, *args, **kwargs):
        return self._with_data(self.data.cpu(*args, **kwargs))

    def double(self):
        return self.to(dtype=_dtypes.float64)

    def float(self):
        return self.to(dtype=_dtypes.float32)

    def half(self):
        return self.to(dtype=_dtypes.float16)

    def long(self):
        return self.to(dtype=_dtypes.int64)

    def int(self):
        return self.to(dtype=_dtypes.int32)

    def short(self):
        return self.to(dtype=_dtypes.int16)

    def char(self):
        return self.to(dtype=_dtypes.int8)

    def byte(self):
        return self.to(dtype=_dtypes.uint8)

    @property
    def is_cuda(self):
        return self.data.is_cuda


def invert_permutation(permutation):
    """The permutation that undoes `permutation` (None for None)."""
    if permutation is None:
        return None
    inverse = empty_like(permutation)
    inverse.scatter_(0, permutation, arange(permutation.numel()))
    return inverse


# ---- packing and padding ---------------------------------------------------------------------


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """The sequences of `input` (L, N, *) ((N, L, *) if `batch_first`), of the given
    lengths, packed; unless `enforce_sorted`, they are sorted by decreasing length first."""
    if isinstance(lengths, Tensor):
        lengths = lengths.to(dtype=_dtypes.int64)
    else:
        lengths = as_tensor(lengths, dtype=_dtypes.int64)
    sorted_indices = None
    if not enforce_sorted:
        lengths, sorted_indices = lengths.sort(descending=True)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    data, batch_sizes = _packed(input, lengths, batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def _packed(input, lengths, batch_first):
    """The packed data and batch sizes of `input`'s sequences, already sorted (PyTorch's
    _pack_padded_sequence, with its checks in its order)."""
    _check_argument("_pack_padded_sequence", "input", 1, input, Tensor, "Tensor")
    _check_argument("_pack_padded_sequence", "batch_first", 3, batch_first, bool, "bool")
    if input.numel() == 0:
        raise RuntimeError("Cannot pack empty tensors.")
    if lengths.dim() != 1:
        raise RuntimeError(f"'lengths' argument should be a 1D CPU int64 tensor, but got "
                           f"{lengths.dim()}D cpu Long tensor")
    time_major = input.transpose(0, 1) if batch_first else input
    steps, batch = time_major.size(0), time_major.size(1)
    lengths = lengths.tolist()
    if len(lengths) != batch:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got "
                           f"{len(lengths)} (batch_size={batch})")
    if lengths[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an "
                           "element in 'lengths' that is <= 0")
    if any(shorter > longer for longer, shorter in zip(lengths, lengths[1:])):
        raise RuntimeError("`lengths` array must be sorted in decreasing order when "
                           "`enforce_sorted` is True. You can pass `enforce_sorted=False` to "
                           "pack_padded_sequence and/or pack_sequence to sidestep this "
                           "requirement if you do not need ONNX exportability.")
    if lengths[0] > steps:  # (PyTorch reads past the end of the input)
        raise RuntimeError(f"compat: a sequence's length ({lengths[0]}) exceeds the "
                           f"padded length of the input ({steps})")
    # running[t, n]: whether sequence n has an element at step t; its True entries, read
    # row by row, are the packed rows in their order.
    running = np.arange(lengths[0])[:, None] < np.array(lengths)
    rows = tensor(np.flatnonzero(running))
    data = time_major.reshape((steps * batch,) + tuple(input.shape[2:])).index_select(0, rows)
    return (wrap(engine(data), "PackPaddedSequenceBackward0", (input,)),
            tensor(running.sum(1)))


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """The packed sequences padded to the longest one's length (or `total_length`), in
    their original order: (padded (L, N, *) or (N, L, *), their lengths)."""
    length = sequence.batch_sizes.size(0)
    if total_length is not None:
        if total_length < length:
            raise ValueError(f"Expected total_length to be at least the length of the longest "
                             f"sequence in input, but got total_length={total_length} and max "
                             f"sequence length being {length}")
        length = total_length
    padded, lengths = _padded(sequence.data, sequence.batch_sizes, batch_first, padding_value,
                              length)
    if sequence.unsorted_indices is None:
        return padded, lengths
    return (padded.index_select(0 if batch_first else 1, sequence.unsorted_indices),
            lengths[sequence.unsorted_indices])


def _padded(data, batch_sizes, batch_first, padding_value, length):
    """Packed `data` padded with `padding_value` to `length` time steps, in packed order,
    and the sequences' lengths (PyTorch's _pad_packed_sequence)."""
    _check_argument("_pad_packed_sequence", "batch_first", 3, batch_first, bool, "bool")
    _check_argument("_pad_packed_sequence", "padding_value", 4, padding_value,
                    (numbers.Number, Tensor), "Number")
    _check_argument("_pad_packed_sequence", "total_length", 5, length,
                    (numbers.Integral, Tensor), "int")
    batch_sizes = batch_sizes.tolist()
    running = np.zeros((int(length), batch_sizes[0]), dtype=bool)
    running[:len(batch_sizes)] = np.arange(batch_sizes[0]) < np.array(batch_sizes)[:, None]
    # Each padded position reads its packed row, or the padding row appended to the data.
    source = np.full(running.shape, data.size(0))
    source[running] = np.arange(data.size(0))
    if isinstance(padding_value, Tensor):
        padding_value = padding_value.item()
    filler = data.new_full((1,) + tuple(data.shape[1:]), padding_value)
    padded = _ops.cat([data, filler]).index_select(0, tensor(source.ravel()))
    padded = padded.reshape(running.shape + tuple(data.shape[1:]))
    padded = wrap(engine(padded), "CopySlices", (data,))  # PyTorch copies step by step
    return (padded.transpose(0, 1) if batch_first else padded), tensor(running.sum(0))


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """The sequences (each (L_i, *)) padded with `padding_value` on `padding_side` to the
    longest one's length and stacked: (L, N, *), or (N, L, *) if `batch_first`. They take
    the first one's dtype and trailing shape (to which each must broadcast)."""
    if not isinstance(sequences, Iterable):
        raise RuntimeError(f"pad_sequence: Expected iterable for input sequences, but got arg "
                           f"of type: {type(sequences)}")
    sequences = tuple(sequences)
    for index, sequence in enumerate(sequences):
        if not isinstance(sequence, Tensor):
            raise TypeError(f"expected Tensor as element {index} in argument 0, but got "
                            f"{type(sequence).__name__}")
    _check_argument("pad_sequence", "batch_first", 2, batch_first, bool, "bool")
    _check_argument("pad_sequence", "padding_value", 3, padding_value,
                    (numbers.Real, Tensor), "float")
    _check_argument("pad_sequence", "padding_side", 4, padding_side, str, "str")
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got "
                           f"{padding_side}.")
    first = sequences[0]
    if first.dim() == 0:
        raise RuntimeError("ArrayRef: invalid slice, N = 1; size = 0")
    length = max(sequence.size(0) for sequence in sequences)
    padded = [_padded_to(sequence, length, first, padding_value, padding_side)
              for sequence in sequences]
    stacked = _ops.stack(padded, 0 if batch_first else 1)
    return wrap(engine(stacked), "CopySlices", sequences)  # PyTorch copies each in place


def _padded_to(sequence, length, first, padding_value, padding_side):
    """`sequence` as `first`'s dtype and trailing shape, padded to `length` steps."""
    shape = (sequence.size(0),) + tuple(first.shape[1:])
    mismatch = broadcast_error(shape, tuple(sequence.shape))
    if mismatch:
        raise RuntimeError(mismatch)
    sequence = sequence.to(first.dtype).expand(shape)
    missing = length - sequence.size(0)
    widths = [0, missing] if padding_side == "right" else [missing, 0]
    return F.pad(sequence, [0, 0] * (first.dim() - 1) + widths, value=padding_value)


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """The list of sequences that pad_sequence padded, each cut to its length. (PyTorch
    transposes a padded tensor that is not batch_first in place; compat leaves it.)"""
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    positions = arange(padded_sequences.shape[1], device=lengths.device)
    return [sequence[positions < length]
            for sequence, length in zip(padded_sequences.unbind(0), lengths, strict=True)]


def pack_sequence(sequences, enforce_sorted=True):
    """The sequences (each (L_i, *)) packed: pad_sequence then pack_padded_sequence."""
    lengths = as_tensor([sequence.size(0) for sequence in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """The list of the packed sequences, in their original order."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)


def _check_argument(function, name, position, value, kinds, expected):
    """The error of PyTorch's argument parser for `value` not of `kinds` (where an int is
    expected, a bool is not one)."""
    if not isinstance(value, kinds) or (expected == "int" and isinstance(value, bool)):
        given = "Tensor" if isinstance(value, Tensor) else typename(value)
        raise TypeError(f"{function}(): argument '{name}' (position {position}) must be "
                        f"{expected}, not {given}")
