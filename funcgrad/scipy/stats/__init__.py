"""funcgrad.scipy.stats: differentiable densities and distribution functions, one module
per distribution as in ``scipy.stats`` and ``jax.scipy.stats``.

Every function is differentiable in its data and in its parameters (``loc``, ``scale``
and the shape parameters); values outside the support follow JAX (-inf log density).
"""
from . import (bernoulli, beta, binom, cauchy, chi2, dirichlet, expon, gamma,  # noqa: F401
               geom, laplace, logistic, multivariate_normal, nbinom, norm, poisson, t,
               uniform, vonmises)

__all__ = ["bernoulli", "beta", "binom", "cauchy", "chi2", "dirichlet", "expon", "gamma",
           "geom", "laplace", "logistic", "multivariate_normal", "nbinom", "norm", "poisson",
           "t", "uniform", "vonmises"]
