"""default_collate: a list of samples as one batch, as PyTorch builds it. Tensors are
stacked along a new first dimension, Python and NumPy numbers become tensors (floats as
float64, ints as int64), and tuples, lists, named tuples and dicts are collated field by
field."""
import collections.abc
import numbers

import numpy as np

from ... import _dtypes
from ..._factories import as_tensor, tensor
from ..._ops import stack
from ..._tensor import Tensor


def default_collate(batch):
    first = batch[0]
    if isinstance(first, Tensor):
        return stack(list(batch), 0)
    if isinstance(first, (np.ndarray, np.number, np.bool_)):
        return stack([as_tensor(np.asarray(x)) for x in batch], 0)
    if isinstance(first, bool):
        return tensor(batch)
    if isinstance(first, numbers.Integral):
        return tensor(batch)
    if isinstance(first, float):
        return tensor(batch, dtype=_dtypes.float64)
    if isinstance(first, (str, bytes)):
        return batch
    if isinstance(first, collections.abc.Mapping):
        return type(first)({key: default_collate([sample[key] for sample in batch])
                            for key in first})
    # A field is collated as the tuple zip gives (so a field of strings stays a tuple).
    if isinstance(first, tuple) and hasattr(first, "_fields"):  # a named tuple
        return type(first)(*(default_collate(items) for items in zip(*batch)))
    if isinstance(first, collections.abc.Sequence):
        if any(len(sample) != len(first) for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(items) for items in zip(*batch)]
    raise TypeError(f"default_collate: batch must contain tensors, numpy arrays, numbers, "
                    f"dicts or lists; found {type(first)}")


def default_convert(data):
    """A sample as it is, NumPy arrays turned into tensors (collation without batching)."""
    if isinstance(data, np.ndarray):
        return as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return type(data)({key: default_convert(value) for key, value in data.items()})
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(item) for item in data))
    if isinstance(data, (list, tuple)):
        return type(data)(default_convert(item) for item in data)
    return data


__all__ = ["default_collate", "default_convert"]
