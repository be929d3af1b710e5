"""funcgrad.scipy.stats.beta: the beta distribution on [loc, loc + scale]."""
import numpy as np

from ... import numpy as fnp
from .. import special
from ._args import nan_where_invalid, not_positive, promote_inexact


def _invalid(a, b, loc=0, scale=1):  # (SciPy's domain of the parameters)
    return not_positive(a, b, scale)


@nan_where_invalid(_invalid)
def logpdf(x, a, b, loc=0, scale=1):
    """Log of the beta density at ``x``: -inf outside [loc, loc + scale], nan unless a, b
    and scale are positive (as in JAX)."""
    x, a, b, loc, scale = promote_inexact(x, a, b, loc, scale)
    y = fnp.true_divide(fnp.subtract(x, loc), scale)
    log_density = (special.xlogy(a - 1.0, y) + special.xlog1py(b - 1.0, -y)
                   - special.betaln(a, b) - fnp.log(scale))
    outside = fnp.greater(x, fnp.add(loc, scale)) | fnp.less(x, loc)
    return fnp.where(outside, -np.inf, log_density)


def pdf(x, a, b, loc=0, scale=1):
    """The beta density at ``x``."""
    return fnp.exp(logpdf(x, a, b, loc, scale))


@nan_where_invalid(_invalid)
def cdf(x, a, b, loc=0, scale=1):
    """P(X <= x) = betainc(a, b, (x - loc) / scale): 0 below loc, 1 above loc + scale.
    Differentiable in x, loc and scale (as JAX's; a derivative in a or b is an error)."""
    x, a, b, loc, scale = promote_inexact(x, a, b, loc, scale)
    y = fnp.true_divide(fnp.subtract(x, loc), scale)
    below, above = fnp.less_equal(y, 0), fnp.greater_equal(y, 1)
    inside = special.betainc(a, b, fnp.where(below | above, 0.5, y))
    return fnp.where(below, 0.0, fnp.where(above, 1.0, inside))


def logcdf(x, a, b, loc=0, scale=1):
    """log P(X <= x)."""
    return fnp.log(cdf(x, a, b, loc, scale))


@nan_where_invalid(_invalid)
def sf(x, a, b, loc=0, scale=1):
    """P(X > x) = betainc(b, a, 1 - y), y = (x - loc) / scale."""
    x, a, b, loc, scale = promote_inexact(x, a, b, loc, scale)
    y = fnp.true_divide(fnp.subtract(x, loc), scale)
    below, above = fnp.less_equal(y, 0), fnp.greater_equal(y, 1)
    inside = special.betainc(b, a, 1.0 - fnp.where(below | above, 0.5, y))
    return fnp.where(below, 1.0, fnp.where(above, 0.0, inside))


def logsf(x, a, b, loc=0, scale=1):
    """log P(X > x)."""
    return fnp.log(sf(x, a, b, loc, scale))


__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"]
