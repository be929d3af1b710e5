"""funcgrad.scipy.stats.multivariate_normal: the normal distribution in n dimensions,
degenerate ones (a singular covariance) included with ``allow_singular=True``."""
import math

import numpy as np

from ... import numpy as fnp
from ...core.trace import every_value
from ...numpy._batching import plain_value
from ._args import promote_inexact

_LOG_TWO_PI = math.log(2.0 * math.pi)
# SciPy's cutoff: eigenvalues up to this many eps times the largest count as 0.
_RANK_CUTOFF = {np.dtype(np.float32): 1e3, np.dtype(np.float64): 1e6}
_NAME = "funcgrad.scipy.stats.multivariate_normal"


def _last_two_swapped(a):
    axes = list(range(np.ndim(a)))
    axes[-2], axes[-1] = axes[-1], axes[-2]
    return fnp.transpose(a, axes)


def logpdf(x, mean, cov, allow_singular=None):
    """Log of the density at ``x`` (shape (..., n)) of the normal with ``mean`` (shape
    (..., n)) and covariance ``cov``: a scalar variance, or positive definite (..., n, n)
    matrices. As in JAX, a 0-d ``mean`` makes it univariate, and ``cov`` is used through
    its symmetric part (its Cholesky factor gives the density).

    With ``allow_singular=True`` a positive semidefinite ``cov`` of rank r < n gives SciPy's
    density on its support, mean + range(cov) (-inf off it), with cov's pseudo-determinant
    and pseudo-inverse, r and the support decided by SciPy's cutoffs. Its derivative is the
    one along the covariances of rank r (the function is not differentiable across ranks):
    the gradient in cov is (z z^T - pinv(cov)) / 2, z = pinv(cov) (x - mean)."""
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
    support = _Support(cov, "logpdf") if allow_singular else None
    if support is not None and support.rank < n:
        lower, half_log_det, range_basis = support.restricted(cov)
        log_density = _normal_log_density(fnp.matmul(y, range_basis), lower, half_log_det)
        return fnp.where(support.contains(y), log_density, -np.inf)
    return _normal_log_density(y, *_cholesky(cov, "logpdf"))


def _normal_log_density(y, lower, half_log_det):
    """With cov = L L^T, the quadratic form is |L^-1 y|^2."""
    whitened = fnp.linalg.solve(lower, fnp.expand_dims(y, -1))[..., 0]
    rank = np.shape(lower)[-1]
    return (-0.5 * fnp.sum(whitened * whitened, axis=-1) - 0.5 * rank * _LOG_TWO_PI
            - half_log_det)


def pdf(x, mean, cov, allow_singular=None):
    """The density at ``x``."""
    return fnp.exp(logpdf(x, mean, cov, allow_singular))


def entropy(mean=None, cov=1, allow_singular=False):
    """``scipy.stats.multivariate_normal.entropy``: (n (1 + log 2 pi) + log det cov) / 2
    for a positive definite (n, n) ``cov`` (or a scalar variance, n = len(mean) or 1).
    With ``allow_singular=True``, for a cov of rank r: r and its pseudo-determinant in
    place of n and det, as SciPy. Differentiable in ``cov`` (along the covariances of its
    rank)."""
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
    support = _Support(cov, "entropy") if allow_singular else None
    if support is not None and support.rank < n:
        n = support.rank
        _, half_log_det, _ = support.restricted(cov)
    else:
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


class _Support:
    """The rank of a positive semidefinite cov (its symmetric part), and constant bases of
    its range and null space, from the eigenvalues of its value (no derivatives), with
    SciPy's cutoffs. On the covariances of that rank near cov, A -> the range of A V (V the
    range basis) is smooth, and so is everything computed through it: derivatives of every
    order along them are the function's own."""

    def __init__(self, cov, function):
        if np.ndim(cov) != 2:
            raise ValueError(f"{_NAME}.{function}: allow_singular=True takes one (n, n) "
                             f"covariance matrix (as SciPy), got shape {np.shape(cov)}")
        values = plain_value(cov)
        eigenvalues, eigenvectors = fnp.linalg.eigh(0.5 * (values + fnp.transpose(values)))
        every = np.asarray(every_value(eigenvalues))
        cutoff = (_RANK_CUTOFF[every.dtype] * np.finfo(every.dtype).eps
                  * np.max(np.abs(every), axis=-1, keepdims=True))
        if np.any(every < -cutoff):
            raise ValueError(f"{_NAME}.{function}: cov is not positive semidefinite (an "
                             f"eigenvalue is {np.min(every):.3g}, below -{np.max(cutoff):.3g})")
        ranks = np.sum(every > cutoff, axis=-1)
        if np.any(ranks != ranks.flat[0]) or ranks.flat[0] == 0:
            raise ValueError(f"{_NAME}.{function}: cov has rank {np.unique(ranks).tolist()}; "
                             f"allow_singular=True needs a nonzero covariance, and one rank "
                             f"for every covariance of a batch")
        self.rank = int(ranks.flat[0])
        nullity = np.shape(cov)[-1] - self.rank
        # eigh sorts the eigenvalues up: the null space's first.
        self.range_basis = eigenvectors[..., nullity:]
        self.null_basis = eigenvectors[..., :nullity]
        # SciPy's support test: a residual below 1000 times the eigenvalue cutoff.
        self.function = function
        self.tolerance = 1e3 * _RANK_CUTOFF[every.dtype] * np.finfo(every.dtype).eps * (
            fnp.max(fnp.abs(eigenvalues), axis=-1))

    def restricted(self, cov):
        """The lower Cholesky factor L and half the log determinant of cov restricted to
        its range (half the log pseudo-determinant), and the orthonormal basis Q of the
        range it is expressed in: Q^T cov Q = L L^T."""
        symmetric = 0.5 * (cov + fnp.transpose(cov))
        basis, _ = fnp.linalg.qr(fnp.matmul(symmetric, self.range_basis))
        lower, half_log_det = _cholesky(fnp.matmul(fnp.transpose(basis),
                                                   fnp.matmul(symmetric, basis)),
                                        self.function)
        return lower, half_log_det, basis

    def contains(self, y):
        """A constant mask: where the deviation ``y`` (..., n) lies in the range."""
        residual = fnp.linalg.norm(fnp.matmul(plain_value(y), self.null_basis), axis=-1)
        return fnp.less(residual, self.tolerance)


__all__ = ["logpdf", "pdf", "entropy"]
