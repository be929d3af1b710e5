"""funcgrad.scipy.stats.dirichlet: the Dirichlet distribution on the probability simplex."""
import numpy as np
import scipy.stats

from ... import numpy as fnp
from ...numpy._batching import plain_value, read_values
from .. import special
from ._args import promote_inexact

# How far from 1 the coordinates of a point of the simplex may sum (JAX's tolerance).
_SIMPLEX_TOLERANCE = 1e-6


def _on_simplex(x):
    """A constant mask over the points (axis 0 holds the coordinates)."""
    values = plain_value(x)
    return np.all(values > 0, axis=0) & (np.abs(np.sum(values, axis=0) - 1) < _SIMPLEX_TOLERANCE)


def logpdf(x, alpha):
    """Log of the Dirichlet density at ``x``.

    ``alpha`` holds the K concentrations; ``x`` has K coordinates along its first axis
    (more axes index points), or K - 1, the last being 1 minus their sum. Off the
    simplex the log density is -inf.
    """
    x, alpha = promote_inexact(x, alpha)
    alpha_shape, x_shape = np.shape(alpha), np.shape(x)
    if len(alpha_shape) != 1:
        raise ValueError(f"funcgrad.scipy.stats.dirichlet.logpdf: alpha must be "
                         f"one-dimensional, got shape {alpha_shape}")
    k = alpha_shape[0]
    if not x_shape or x_shape[0] not in (k, k - 1):
        raise ValueError(f"funcgrad.scipy.stats.dirichlet.logpdf: x must have {k} or {k - 1} "
                         f"entries along its first axis (alpha has {k}), got shape {x_shape}")
    if x_shape[0] == k - 1:
        x = fnp.concatenate([x, 1 - fnp.sum(x, axis=0, keepdims=True)], axis=0)
    normalizer = fnp.sum(special.gammaln(alpha)) - special.gammaln(fnp.sum(alpha))
    alpha = fnp.reshape(alpha, (k,) + (1,) * (len(x_shape) - 1))
    log_density = fnp.sum(special.xlogy(alpha - 1.0, x), axis=0) - normalizer
    return fnp.where(_on_simplex(x), log_density, -np.inf)


def pdf(x, alpha):
    """The Dirichlet density at ``x``."""
    return fnp.exp(logpdf(x, alpha))


def rvs(alpha, size=1, random_state=None):
    """Samples of the distribution: SciPy's ``scipy.stats.dirichlet.rvs``, as autograd
    passes it through. A sample carries no derivative: traced arguments are read for
    their values, as in ``funcgrad.numpy.random``."""
    return read_values(scipy.stats.dirichlet.rvs, alpha, size=size, random_state=random_state)


__all__ = ["logpdf", "pdf", "rvs"]
