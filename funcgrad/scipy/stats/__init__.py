"""funcgrad.scipy.stats: differentiable densities and distribution functions, one module
per distribution as in ``scipy.stats`` and ``jax.scipy.stats``.

Every function is differentiable in its data and in its parameters (``loc``, ``scale``
and the shape parameters); values outside the support follow JAX (-inf log density).
"""
from . import beta, dirichlet, gamma, multivariate_normal, norm, poisson, t  # noqa: F401

__all__ = ["beta", "dirichlet", "gamma", "multivariate_normal", "norm", "poisson", "t"]
