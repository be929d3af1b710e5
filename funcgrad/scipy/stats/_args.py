"""Argument handling shared by the distributions."""
import numbers

import numpy as np

from ... import numpy as fnp
from ...core import dtype_of


def promote_inexact(*values):
    """The arguments as arrays of one floating (or complex) dtype, as JAX's distributions
    take them: NumPy's promotion, with Python scalars (like ``loc=0``) not widening it."""
    values = [fnp.asarray(v) if isinstance(v, (list, tuple)) else v for v in values]
    dtype = np.result_type(*(v if isinstance(v, numbers.Number) else dtype_of(v)
                             for v in values))
    if dtype.kind not in "fc":
        dtype = np.dtype(np.float64)
    return tuple(fnp.astype(v, dtype) if dtype_of(v) != dtype else v for v in values)
