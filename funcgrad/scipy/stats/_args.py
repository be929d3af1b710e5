"""Argument handling shared by the distributions."""
import numbers

import numpy as np

from ... import numpy as fnp
from ...core import dtype_of
from ...numpy._batching import plain_value


def promote_inexact(*values):
    """The arguments as arrays of one floating (or complex) dtype, as JAX's distributions
    take them: NumPy's promotion, with Python scalars (like ``loc=0``) not widening it."""
    values = [fnp.asarray(v) if isinstance(v, (list, tuple)) else v for v in values]
    dtype = np.result_type(*(v if isinstance(v, numbers.Number) else dtype_of(v)
                             for v in values))
    if dtype.kind not in "fc":
        dtype = np.dtype(np.float64)
    return tuple(fnp.astype(v, dtype) if dtype_of(v) != dtype else v for v in values)


def standardize(x, loc, scale):
    """(x - loc) / scale, the arguments promoted as `promote_inexact` does; and them."""
    x, loc, scale = promote_inexact(x, loc, scale)
    return fnp.true_divide(fnp.subtract(x, loc), scale), x, loc, scale


def not_a_count(count):
    """A constant mask: where ``count`` is negative or not an integer (mass 0 there)."""
    values = plain_value(count)
    return fnp.less(count, 0) | (np.round(values) != values)


def outside_unit_interval(q):
    """A constant mask: where a probability ``q`` is outside [0, 1] (quantiles are nan)."""
    return fnp.less(q, 0) | fnp.greater(q, 1)
