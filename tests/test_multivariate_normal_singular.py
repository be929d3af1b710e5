"""multivariate_normal with allow_singular=True: JAX has none, so values are checked against
SciPy's, derivatives against finite differences along covariances of the same rank
(cov = B B^T, x = mean + B c) and against the closed-form restricted gradient."""
import numpy as np
import pytest
import scipy.stats

import funcgrad as fg
from funcgrad.scipy.stats import multivariate_normal
from funcgrad.test_util import check_grads


def _degenerate(n, rank, seed):
    rng = np.random.default_rng(seed)
    factor = rng.normal(size=(n, rank))
    mean = rng.normal(size=n)
    on_support = mean + (factor @ rng.normal(size=(rank, 3))).T
    off_support = mean + rng.normal(size=(1, n))
    return factor, mean, np.concatenate([on_support, off_support])


@pytest.mark.parametrize("n, rank", [(2, 1), (3, 1), (3, 2), (5, 3), (4, 4)])
def test_values_match_scipy_on_and_off_the_support(n, rank):
    factor, mean, x = _degenerate(n, rank, seed=n + rank)
    cov = factor @ factor.T
    expected = scipy.stats.multivariate_normal(mean, cov, allow_singular=True)
    np.testing.assert_allclose(multivariate_normal.logpdf(x, mean, cov, allow_singular=True),
                               expected.logpdf(x), rtol=1e-13)
    np.testing.assert_allclose(multivariate_normal.pdf(x, mean, cov, allow_singular=True),
                               expected.pdf(x), rtol=1e-13)
    np.testing.assert_allclose(multivariate_normal.entropy(mean, cov, allow_singular=True),
                               expected.entropy(), rtol=1e-13)


@pytest.mark.parametrize("n, rank", [(3, 1), (4, 2), (5, 3)])
def test_derivatives_along_covariances_of_the_same_rank(n, rank):
    factor, mean, _ = _degenerate(n, rank, seed=10 * n + rank)
    coordinates = np.random.default_rng(rank).normal(size=rank)
    check_grads(lambda b, c, m: multivariate_normal.logpdf(m + b @ c, m, b @ b.T,
                                                           allow_singular=True),
                (factor, coordinates, mean), order=2)
    check_grads(lambda b: multivariate_normal.entropy(None, b @ b.T, allow_singular=True),
                (factor,), order=2)


def test_gradient_in_cov_is_the_restricted_one():
    # d logpdf = tr((z z^T - pinv(cov)) dcov) / 2 along the rank's covariances, z = pinv(cov)
    # (x - mean); the gradient is that matrix, which has no part across ranks.
    factor, mean, x = _degenerate(4, 2, seed=7)
    cov = factor @ factor.T
    pinv = np.linalg.pinv(cov)
    z = pinv @ (x[0] - mean)
    gradient = fg.grad(lambda c: multivariate_normal.logpdf(x[0], mean, c,
                                                            allow_singular=True))(cov)
    np.testing.assert_allclose(gradient, 0.5 * (np.outer(z, z) - pinv), atol=1e-13)
    gradient = fg.grad(lambda c: multivariate_normal.entropy(None, c, allow_singular=True))(cov)
    np.testing.assert_allclose(gradient, 0.5 * pinv, atol=1e-13)


def test_vmap_over_points_and_covariances_and_single_precision():
    rng = np.random.default_rng(3)
    factors = rng.normal(size=(3, 3, 2))
    covs = factors @ np.swapaxes(factors, 1, 2)
    x = np.einsum("bij,bj->bi", factors, rng.normal(size=(3, 2)))

    def log_density(point, cov):
        mean = np.zeros(3, np.result_type(point))
        return multivariate_normal.logpdf(point, mean, cov, allow_singular=True)
    np.testing.assert_allclose(fg.vmap(fg.grad(log_density, 1))(x, covs),
                               [fg.grad(log_density, 1)(p, c) for p, c in zip(x, covs)],
                               rtol=1e-13)
    single = log_density(x[0].astype(np.float32), covs[0].astype(np.float32))
    assert single.dtype == np.float32
    np.testing.assert_allclose(single, log_density(x[0], covs[0]), rtol=1e-4)


def test_allow_singular_errors():
    with pytest.raises(ValueError, match="logpdf: cov is not positive semidefinite"):
        multivariate_normal.logpdf(np.zeros(2), np.zeros(2), -np.eye(2), allow_singular=True)
    with pytest.raises(ValueError, match="needs a nonzero covariance"):
        multivariate_normal.logpdf(np.zeros(2), np.zeros(2), np.zeros((2, 2)),
                                   allow_singular=True)
    with pytest.raises(ValueError, match=r"takes one \(n, n\) covariance matrix"):
        multivariate_normal.logpdf(np.zeros(2), np.zeros(2), np.ones((2, 2, 2)),
                                   allow_singular=True)
    # Without allow_singular a singular cov stays an error, as in SciPy.
    with pytest.raises(np.linalg.LinAlgError, match="cov is not positive definite"):
        multivariate_normal.logpdf(np.zeros(2), np.zeros(2), np.ones((2, 2)))
