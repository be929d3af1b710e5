"""NumPy functions whose results carry no derivative: integer and boolean results (bin
numbers, membership, bit operations), index arrays built from shapes, window functions of
a length, dtype queries. Traced arguments are read for their values, as ``stop_gradient``
would, so ``np.digitize(x, bins)`` inside a differentiated function works as in NumPy.
"""
import functools

import numpy as np

from ..core import unbox_all
from ..tree_util import tree_map


def _on_values(function):
    """NumPy's ``function`` applied to the plain values of its (possibly traced) arguments."""
    @functools.wraps(function)
    def on_values(*args, **kwargs):
        plain = tree_map(unbox_all, (args, kwargs))
        return function(*plain[0], **plain[1])
    return on_values


# Integer or boolean results of array arguments, which may be traced.
digitize = _on_values(np.digitize)
isin = _on_values(np.isin)
isrealobj = _on_values(np.isrealobj)
common_type = _on_values(np.common_type)
min_scalar_type = _on_values(np.min_scalar_type)
tril_indices_from = _on_values(np.tril_indices_from)
triu_indices_from = _on_values(np.triu_indices_from)
diag_indices_from = _on_values(np.diag_indices_from)

# Functions of integers, shapes and dtypes only (traced values are never integers), so
# NumPy's own: they are here so that `import funcgrad.numpy as np` finds them.
from numpy import (  # noqa: E402 -- grouped with the comment above
    bartlett, bitwise_and, bitwise_count, bitwise_invert, bitwise_left_shift, bitwise_not,
    bitwise_or, bitwise_right_shift, bitwise_xor, blackman, broadcast_shapes, can_cast,
    diag_indices, gcd, hamming, hanning, indices, invert, isdtype, issubdtype, iterable, ix_,
    kaiser, lcm, left_shift, mask_indices, packbits, ravel_multi_index, right_shift,
    tril_indices, triu_indices, unpackbits, unravel_index)

__all__ = [
    "digitize", "isin", "isrealobj", "common_type", "min_scalar_type", "tril_indices_from",
    "triu_indices_from", "diag_indices_from",
    "bartlett", "bitwise_and", "bitwise_count", "bitwise_invert", "bitwise_left_shift",
    "bitwise_not", "bitwise_or", "bitwise_right_shift", "bitwise_xor", "blackman",
    "broadcast_shapes", "can_cast", "diag_indices", "gcd", "hamming", "hanning", "indices",
    "invert", "isdtype", "issubdtype", "iterable", "ix_", "kaiser", "lcm", "left_shift",
    "mask_indices", "packbits", "ravel_multi_index", "right_shift", "tril_indices",
    "triu_indices", "unpackbits", "unravel_index",
]
