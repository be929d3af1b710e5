"""Argument handling shared by the distributions."""
import functools
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
    """A constant mask: where ``count`` is negative or not an integer (mass 0 there); not
    where it is NaN (the mass is NaN, as SciPy's)."""
    values = plain_value(count)
    return fnp.less(count, 0) | (np.isfinite(values) & (np.round(values) != values))


def outside_unit_interval(q):
    """A constant mask: where a probability ``q`` is outside [0, 1], or NaN."""
    return fnp.logical_not(fnp.greater_equal(q, 0) & fnp.less_equal(q, 1))


def nan_where_invalid(invalid):
    """A decorator for a distribution's function ``f(x, *parameters)``: NaN wherever
    ``invalid(*parameters)`` holds (a mask; ``invalid`` has the function's defaults), as
    SciPy answers for parameters outside their domain (a scale <= 0, a probability outside
    [0, 1]); the formulas would give numbers there (a survival function of 33)."""
    def decorate(function):
        @functools.wraps(function)
        def checked(x, *parameters, **named):
            value = function(x, *parameters, **named)
            mask = invalid(*parameters, **named)
            # Valid NumPy parameters: the value as it is. (Others are masked whatever they
            # hold: reading a Dask array's mask would compute it.)
            if isinstance(mask, (bool, np.bool_, np.ndarray)) and not np.any(mask):
                return value
            return fnp.where(mask, np.nan, value)
        return checked
    return decorate


def invalid_scale(loc=0, scale=1):
    """Where a location-scale family's parameters are outside their domain (the
    `nan_where_invalid` check of norm, cauchy, expon, ...): a scale that is not positive."""
    return not_positive(scale)


def not_positive(*values):
    """A mask: where any of ``values`` (a scale, or a shape parameter) is <= 0, or NaN."""
    return functools.reduce(fnp.logical_or,
                            [fnp.logical_not(fnp.greater(v, 0)) for v in values])


def negative(value):
    """A mask: where ``value`` is < 0, or NaN."""
    return fnp.logical_not(fnp.greater_equal(value, 0))
