"""funcgrad.scipy.stats.gamma: the gamma distribution with shape ``a``."""
import numpy as np

from ... import numpy as fnp
from .. import special
from ._args import nan_where_invalid, not_positive, promote_inexact


def _invalid(a, loc=0, scale=1):  # (SciPy's domain of the parameters)
    return not_positive(a, scale)


def _standardized(x, a, loc, scale):
    """The standardized x (set to 1 below loc, where the functions are constants and no
    nan may reach the gradient), whether x is below loc, and the promoted a and scale."""
    x, a, loc, scale = promote_inexact(x, a, loc, scale)
    below = fnp.less(x, loc)
    return fnp.where(below, 1.0, fnp.true_divide(fnp.subtract(x, loc), scale)), below, a, scale


@nan_where_invalid(_invalid)
def logpdf(x, a, loc=0, scale=1):
    """Log of the gamma density at ``x``; -inf below ``loc``, where the gradient is 0."""
    y, below, a, scale = _standardized(x, a, loc, scale)
    log_density = special.xlogy(a - 1.0, y) - y - special.gammaln(a) - fnp.log(scale)
    return fnp.where(below, -np.inf, log_density)


def pdf(x, a, loc=0, scale=1):
    """The gamma density at ``x``."""
    return fnp.exp(logpdf(x, a, loc, scale))


@nan_where_invalid(_invalid)
def cdf(x, a, loc=0, scale=1):
    """P(X <= x) = gammainc(a, (x - loc) / scale), differentiable in every argument."""
    y, below, a, _ = _standardized(x, a, loc, scale)
    return fnp.where(below, 0.0, special.gammainc(a, y))


def logcdf(x, a, loc=0, scale=1):
    """log P(X <= x)."""
    return fnp.log(cdf(x, a, loc, scale))


@nan_where_invalid(_invalid)
def sf(x, a, loc=0, scale=1):
    """P(X > x) = gammaincc(a, (x - loc) / scale)."""
    y, below, a, _ = _standardized(x, a, loc, scale)
    return fnp.where(below, 1.0, special.gammaincc(a, y))


def logsf(x, a, loc=0, scale=1):
    """log P(X > x)."""
    return fnp.log(sf(x, a, loc, scale))


__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"]
