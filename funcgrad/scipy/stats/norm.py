"""funcgrad.scipy.stats.norm: the normal distribution with mean ``loc`` and standard
deviation ``scale``."""
import math

from ... import numpy as fnp
from .. import special
from ._args import invalid_scale, nan_where_invalid, promote_inexact, standardize

_HALF_LOG_TWO_PI = 0.5 * math.log(2.0 * math.pi)


@nan_where_invalid(invalid_scale)
def logpdf(x, loc=0, scale=1):
    """Log of the normal density at ``x``."""
    z, _, _, scale = standardize(x, loc, scale)
    return -0.5 * (z * z) - fnp.log(scale) - _HALF_LOG_TWO_PI


def pdf(x, loc=0, scale=1):
    """The normal density at ``x``."""
    return fnp.exp(logpdf(x, loc, scale))


@nan_where_invalid(invalid_scale)
def cdf(x, loc=0, scale=1):
    """P(X <= x)."""
    return special.ndtr(standardize(x, loc, scale)[0])


@nan_where_invalid(invalid_scale)
def logcdf(x, loc=0, scale=1):
    """log P(X <= x), accurate in the lower tail."""
    return special.log_ndtr(standardize(x, loc, scale)[0])


@nan_where_invalid(invalid_scale)
def sf(x, loc=0, scale=1):
    """The survival function P(X > x)."""
    return special.ndtr(-standardize(x, loc, scale)[0])


@nan_where_invalid(invalid_scale)
def logsf(x, loc=0, scale=1):
    """log P(X > x), accurate in the upper tail."""
    return special.log_ndtr(-standardize(x, loc, scale)[0])


@nan_where_invalid(invalid_scale)
def ppf(q, loc=0, scale=1):
    """The quantile function, the inverse of ``cdf``."""
    q, loc, scale = promote_inexact(q, loc, scale)
    return fnp.add(fnp.multiply(special.ndtri(q), scale), loc)


@nan_where_invalid(invalid_scale)
def isf(q, loc=0, scale=1):
    """The inverse survival function: ``ppf(1 - q)``."""
    q, = promote_inexact(q)
    return ppf(fnp.subtract(1, q), loc, scale)


__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"]
