"""funcgrad.scipy.stats.gamma: the gamma distribution with shape ``a``."""
import numpy as np

from ... import numpy as fnp
from .. import special
from ._args import promote_inexact


def logpdf(x, a, loc=0, scale=1):
    """Log of the gamma density at ``x``; -inf below ``loc``, where the gradient is 0."""
    x, a, loc, scale = promote_inexact(x, a, loc, scale)
    inside = fnp.greater_equal(x, loc)
    # Outside the support y is set to 1, so that no nan reaches the gradient.
    y = fnp.where(inside, fnp.true_divide(fnp.subtract(x, loc), scale), 1)
    log_density = special.xlogy(a - 1.0, y) - y - special.gammaln(a) - fnp.log(scale)
    return fnp.where(inside, log_density, -np.inf)


def pdf(x, a, loc=0, scale=1):
    """The gamma density at ``x``."""
    return fnp.exp(logpdf(x, a, loc, scale))


__all__ = ["logpdf", "pdf"]
