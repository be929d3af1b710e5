"""funcgrad.scipy.stats.t: Student's t distribution with ``df`` degrees of freedom."""
import math

from ... import numpy as fnp
from .. import special
from ._args import nan_where_invalid, not_positive, promote_inexact


def _invalid(df, loc=0, scale=1):  # (SciPy's domain of the parameters)
    return not_positive(df, scale)


@nan_where_invalid(_invalid)
def logpdf(x, df, loc=0, scale=1):
    """Log of the density of ``loc + scale * T`` at ``x``, T with ``df`` degrees of freedom."""
    x, df, loc, scale = promote_inexact(x, df, loc, scale)
    z = fnp.true_divide(fnp.subtract(x, loc), scale)
    half_df = fnp.true_divide(df, 2)
    exponent = half_df + 0.5
    normalizer = (special.gammaln(half_df) - special.gammaln(exponent)
                  + 0.5 * fnp.log(fnp.multiply(math.pi, df)) + fnp.log(scale))
    return -(normalizer + special.xlog1py(exponent, z * z / df))


def pdf(x, df, loc=0, scale=1):
    """The density at ``x``."""
    return fnp.exp(logpdf(x, df, loc, scale))


def _tail(x, df, loc, scale):
    """P(T <= -|z|) = betainc(df / 2, 1 / 2, df / (df + z**2)) / 2, and whether z < 0."""
    x, df, loc, scale = promote_inexact(x, df, loc, scale)
    z = fnp.true_divide(fnp.subtract(x, loc), scale)
    tail = 0.5 * special.betainc(fnp.true_divide(df, 2), 0.5, df / (df + z * z))
    return tail, fnp.less(z, 0)


@nan_where_invalid(_invalid)
def cdf(x, df, loc=0, scale=1):
    """P(X <= x). Differentiable in x, loc and scale; a derivative in df is an error (it
    needs betainc's in its parameters)."""
    tail, lower = _tail(x, df, loc, scale)
    return fnp.where(lower, tail, 1.0 - tail)


def logcdf(x, df, loc=0, scale=1):
    """log P(X <= x)."""
    return fnp.log(cdf(x, df, loc, scale))


@nan_where_invalid(_invalid)
def sf(x, df, loc=0, scale=1):
    """P(X > x)."""
    tail, lower = _tail(x, df, loc, scale)
    return fnp.where(lower, 1.0 - tail, tail)


def logsf(x, df, loc=0, scale=1):
    """log P(X > x)."""
    return fnp.log(sf(x, df, loc, scale))


__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"]
