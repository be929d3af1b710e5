"""NumPy functions whose results carry no derivative: integer and boolean results (bin
numbers, membership, bit operations), index arrays built from shapes, window functions of
a length, dtype queries; and NumPy's settings, printing and file reading and writing.
Traced arguments are read for their values, as ``stop_gradient`` would, so
``np.digitize(x, bins)`` inside a differentiated function works as in NumPy.
"""
import functools

import numpy as np

from ._batching import read_values
from .creation import converted_like


def _on_values(function):
    """NumPy's ``function`` applied to the plain values of its (possibly traced) arguments."""
    @functools.wraps(function)
    def on_values(*args, **kwargs):
        return read_values(function, *args, **kwargs)
    return on_values


# Integer or boolean results of array arguments, which may be traced.
digitize = _on_values(np.digitize)
isin = _on_values(np.isin)
isrealobj = _on_values(np.isrealobj)
common_type = _on_values(np.common_type)
min_scalar_type = _on_values(np.min_scalar_type)


def _of_shape(function):
    """NumPy's ``function`` of an array's shape and dtype alone: a stand-in array without
    data, so a traced (or batched) array's values are never read."""
    @functools.wraps(function)
    def of_shape(arr, *args, **kwargs):
        stand_in = np.broadcast_to(np.zeros((), np.result_type(arr)), np.shape(arr))
        return function(stand_in, *args, **kwargs)
    return of_shape


tril_indices_from = _of_shape(np.tril_indices_from)
triu_indices_from = _of_shape(np.triu_indices_from)
diag_indices_from = _of_shape(np.diag_indices_from)

# Printing, saving and memory queries read the values.
array2string = _on_values(np.array2string)
array_repr = _on_values(np.array_repr)
array_str = _on_values(np.array_str)
save = _on_values(np.save)
savez = _on_values(np.savez)
savez_compressed = _on_values(np.savez_compressed)
savetxt = _on_values(np.savetxt)
may_share_memory = _on_values(np.may_share_memory)
shares_memory = _on_values(np.shares_memory)

# Functions of integers, shapes and dtypes only (traced values are never integers), so
# NumPy's own: they are here so that `import funcgrad.numpy as np` finds them.
from numpy import (  # noqa: E402 -- grouped with the comment above
    bartlett, bitwise_count, blackman, broadcast_shapes, can_cast, diag_indices, gcd, hamming,
    hanning, indices, isdtype, issubdtype, iterable, ix_, kaiser, lcm, mask_indices, packbits,
    ravel_multi_index, tril_indices, triu_indices, unpackbits, unravel_index)

# NumPy's settings (floating-point errors, printing), number formatting, index
# expressions of constants, and reading arrays from files and buffers: NumPy's own.
from numpy import (  # noqa: E402 -- grouped with the comment above
    base_repr, binary_repr, errstate, format_float_positional, format_float_scientific,
    fromregex, get_printoptions, getbufsize, geterr, geterrcall, index_exp, little_endian,
    load, mgrid, ndindex, ogrid, printoptions, s_, set_printoptions, setbufsize, seterr,
    seterrcall)

# Readers that take like=: for another library's like, NumPy reads and that library converts.
frombuffer = converted_like(np.frombuffer)
fromfile = converted_like(np.fromfile)
fromiter = converted_like(np.fromiter)
fromstring = converted_like(np.fromstring)
genfromtxt = converted_like(np.genfromtxt)
loadtxt = converted_like(np.loadtxt)

__all__ = [
    "digitize", "isin", "isrealobj", "common_type", "min_scalar_type", "tril_indices_from",
    "triu_indices_from", "diag_indices_from",
    "bartlett", "bitwise_count", "blackman", "broadcast_shapes", "can_cast", "diag_indices",
    "gcd", "hamming", "hanning", "indices", "isdtype", "issubdtype", "iterable", "ix_",
    "kaiser", "lcm", "mask_indices", "packbits", "ravel_multi_index", "tril_indices",
    "triu_indices", "unpackbits", "unravel_index",
    "array2string", "array_repr", "array_str", "save", "savez", "savez_compressed", "savetxt",
    "may_share_memory", "shares_memory",
    "base_repr", "binary_repr", "errstate", "format_float_positional",
    "format_float_scientific", "frombuffer", "fromfile", "fromiter", "fromregex",
    "fromstring", "genfromtxt", "get_printoptions", "getbufsize", "geterr", "geterrcall",
    "index_exp", "little_endian", "load", "loadtxt", "mgrid", "ndindex", "ogrid",
    "printoptions", "s_", "set_printoptions", "setbufsize", "seterr", "seterrcall",
]
