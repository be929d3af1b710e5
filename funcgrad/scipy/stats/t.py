"""funcgrad.scipy.stats.t: Student's t distribution with ``df`` degrees of freedom."""
import math

from ... import numpy as fnp
from .. import special
from ._args import promote_inexact


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


__all__ = ["logpdf", "pdf"]
