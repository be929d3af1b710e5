"""funcgrad.scipy.stats.vonmises: the von Mises distribution on the circle, with
concentration ``kappa`` (mean direction 0)."""
import math

from ... import numpy as fnp
from .. import special
from ._args import nan_where_invalid, negative, promote_inexact


def _invalid(kappa):  # (SciPy's domain of the parameters)
    return negative(kappa)


@nan_where_invalid(_invalid)
def logpdf(x, kappa):
    """Log of the density kappa cos(x) - log(2 pi I0(kappa)), computed with the scaled
    i0e(kappa) = exp(-kappa) I0(kappa) so that large concentrations do not overflow."""
    x, kappa = promote_inexact(x, kappa)
    return kappa * (fnp.cos(x) - 1.0) - fnp.log(special.i0e(kappa)) - math.log(2.0 * math.pi)


def pdf(x, kappa):
    """The density at ``x``."""
    return fnp.exp(logpdf(x, kappa))


__all__ = ["logpdf", "pdf"]
