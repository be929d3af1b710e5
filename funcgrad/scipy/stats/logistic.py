"""funcgrad.scipy.stats.logistic: the logistic distribution."""
from ... import numpy as fnp
from .. import special
from ._args import invalid_scale, nan_where_invalid, promote_inexact, standardize


@nan_where_invalid(invalid_scale)
def logpdf(x, loc=0, scale=1):
    """Log of the density at ``x``: -2 log(exp(y / 2) + exp(-y / 2)) - log(scale)."""
    y, _, _, scale = standardize(x, loc, scale)
    return -2.0 * fnp.logaddexp(0.5 * y, -0.5 * y) - fnp.log(scale)


def pdf(x, loc=0, scale=1):
    """The density at ``x``."""
    return fnp.exp(logpdf(x, loc, scale))


@nan_where_invalid(invalid_scale)
def cdf(x, loc=0, scale=1):
    """P(X <= x)."""
    return special.expit(standardize(x, loc, scale)[0])


@nan_where_invalid(invalid_scale)
def sf(x, loc=0, scale=1):
    """P(X > x)."""
    return special.expit(-standardize(x, loc, scale)[0])


@nan_where_invalid(invalid_scale)
def ppf(q, loc=0, scale=1):
    """The quantile function, the inverse of ``cdf``."""
    q, loc, scale = promote_inexact(q, loc, scale)
    return loc + scale * special.logit(q)


@nan_where_invalid(invalid_scale)
def isf(q, loc=0, scale=1):
    """The inverse of ``sf``."""
    q, loc, scale = promote_inexact(q, loc, scale)
    return loc - scale * special.logit(q)


__all__ = ["logpdf", "pdf", "cdf", "sf", "ppf", "isf"]
