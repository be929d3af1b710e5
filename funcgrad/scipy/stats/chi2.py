"""funcgrad.scipy.stats.chi2: the chi-squared distribution with ``df`` degrees of freedom,
the gamma distribution of shape df / 2 and scale 2."""
from ... import numpy as fnp
from . import gamma
from ._args import promote_inexact


def _as_gamma(function):
    def of_chi2(x, df, loc=0, scale=1):
        x, df, loc, scale = promote_inexact(x, df, loc, scale)
        return function(x, fnp.true_divide(df, 2), loc, fnp.multiply(scale, 2))
    of_chi2.__name__ = of_chi2.__qualname__ = function.__name__
    of_chi2.__doc__ = f"chi2's {function.__name__}: gamma's with a = df / 2, scale 2 scale."
    return of_chi2


logpdf = _as_gamma(gamma.logpdf)
pdf = _as_gamma(gamma.pdf)
cdf = _as_gamma(gamma.cdf)
logcdf = _as_gamma(gamma.logcdf)
sf = _as_gamma(gamma.sf)
logsf = _as_gamma(gamma.logsf)

__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"]
