"""funcgrad.scipy.stats.multivariate_normal: the normal distribution in n dimensions."""
import math

import numpy as np

from ... import numpy as fnp
from ._args import promote_inexact

_LOG_TWO_PI = math.log(2.0 * math.pi)


def _check_allow_singular(allow_singular, function="logpdf"):
    if allow_singular:
        raise NotImplementedError(f"funcgrad.scipy.stats.multivariate_normal.{function}: "
                                  f"allow_singular=True is not supported; the covariance must "
                                  f"be positive definite")


def _last_two_swapped(a):
    axes = list(range(np.ndim(a)))
    axes[-2], axes[-1] = axes[-1], axes[-2]
    return fnp.transpose(a, axes)


def logpdf(x, mean, cov, allow_singular=None):
    """Log of the density at ``x`` (shape (..., n)) of the normal with ``mean`` (shape
    (..., n)) and covariance ``cov``: a scalar variance, or positive definite (..., n, n)
    matrices. As in JAX, a 0-d ``mean`` makes it univariate, and ``cov`` is used through
    its symmetric part (its Cholesky factor gives the density)."""
    _check_allow_singular(allow_singular)
    x, mean, cov = promote_inexact(x, mean, cov)
    y = fnp.subtract(x, mean)
    if not np.shape(mean):
        return -0.5 * (y * y) / cov - 0.5 * (_LOG_TWO_PI + fnp.log(cov))
    n = np.shape(mean)[-1]
    if not np.shape(cov):
        return (-0.5 * fnp.sum(y * y, axis=-1) / cov
                - 0.5 * n * (_LOG_TWO_PI + fnp.log(cov)))
    if np.ndim(cov) < 2 or np.shape(cov)[-2:] != (n, n):
        raise ValueError(f"funcgrad.scipy.stats.multivariate_normal.logpdf: cov must be a "
                         f"scalar or have shape (..., {n}, {n}) to match mean of shape "
                         f"{np.shape(mean)}, got {np.shape(cov)}")
    if np.shape(y)[-1:] != (n,):
        raise ValueError(f"funcgrad.scipy.stats.multivariate_normal.logpdf: x must have "
                         f"{n} entries along its last axis, like mean; got shape "
                         f"{np.shape(x)}")
    # With cov = L L^T, the quadratic form is |L^-1 y|^2.
    lower, half_log_det = _cholesky(cov, "logpdf")
    whitened = fnp.linalg.solve(lower, fnp.expand_dims(y, -1))[..., 0]
    return -0.5 * fnp.sum(whitened * whitened, axis=-1) - 0.5 * n * _LOG_TWO_PI - half_log_det


def pdf(x, mean, cov, allow_singular=None):
    """The density at ``x``."""
    return fnp.exp(logpdf(x, mean, cov, allow_singular))


def entropy(mean=None, cov=1, allow_singular=False):
    """``scipy.stats.multivariate_normal.entropy``: (n (1 + log 2 pi) + log det cov) / 2
    for a positive definite (n, n) ``cov`` (or a scalar variance, n = len(mean) or 1).
    Differentiable in ``cov``."""
    _check_allow_singular(allow_singular, "entropy")
    cov, = promote_inexact(cov)
    if not np.shape(cov):
        n = 1 if mean is None else int(np.size(mean))
        return 0.5 * n * (1.0 + _LOG_TWO_PI + fnp.log(cov))
    if np.ndim(cov) != 2 or np.shape(cov)[0] != np.shape(cov)[1]:
        raise ValueError(f"funcgrad.scipy.stats.multivariate_normal.entropy: cov must be a "
                         f"scalar or a square matrix, got shape {np.shape(cov)}")
    n = np.shape(cov)[0]
    if mean is not None and np.size(mean) != n:
        raise ValueError(f"funcgrad.scipy.stats.multivariate_normal.entropy: mean has "
                         f"{np.size(mean)} entries, cov is {n} by {n}")
    _, half_log_det = _cholesky(cov, "entropy")
    return 0.5 * n * (1.0 + _LOG_TWO_PI) + half_log_det


def _cholesky(cov, function):
    """The lower Cholesky factor L of (a stack of) covariance matrices, of their symmetric
    part, and half of log det cov (the sum of log diag L)."""
    try:
        lower = fnp.linalg.cholesky(0.5 * (cov + _last_two_swapped(cov)))
    except fnp.linalg.LinAlgError as error:
        raise fnp.linalg.LinAlgError(
            f"funcgrad.scipy.stats.multivariate_normal.{function}: cov is not positive "
            f"definite") from error
    return lower, fnp.sum(fnp.log(fnp.einsum("...ii->...i", lower)), axis=-1)


__all__ = ["logpdf", "pdf", "entropy"]
