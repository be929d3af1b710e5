"""NumPy's scalar types and dtype names (float64, longdouble, intp, complexfloating, ...),
so that code written against ``numpy`` finds every one of them in ``funcgrad.numpy``.

Taken from NumPy itself rather than listed, so each NumPy version's own names are here
(platform-dependent ones such as float128 included where NumPy has them).
"""
import numpy as np

_SCALAR_TYPES = {name: obj for name, obj in vars(np).items()
                 if not name.startswith("_") and isinstance(obj, type)
                 and issubclass(obj, np.generic)}
globals().update(_SCALAR_TYPES)

# Tables and lookups of those types (names in, names or types out).
from numpy import (  # noqa: E402 -- after the types they describe
    False_, ScalarType, True_, mintypecode, sctypeDict, typecodes, typename)

__all__ = sorted(_SCALAR_TYPES) + ["False_", "ScalarType", "True_", "mintypecode",
                                   "sctypeDict", "typecodes", "typename"]
