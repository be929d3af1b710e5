"""multivariate_normal.entropy: JAX has none, so values are checked against SciPy's and
derivatives against finite differences."""
import numpy as np
import pytest
import scipy.stats

import funcgrad.numpy as fnp
from funcgrad.scipy.stats import multivariate_normal
from funcgrad.test_util import check_grads


@pytest.mark.parametrize("n", [1, 2, 4])
def test_entropy_matches_scipy_and_finite_differences(n):
    factor = np.random.default_rng(n).normal(size=(n, n))
    cov = factor @ factor.T + 0.5 * np.eye(n)
    expected = scipy.stats.multivariate_normal(np.zeros(n), cov).entropy()
    assert np.isclose(multivariate_normal.entropy(np.zeros(n), cov), expected, rtol=1e-12)
    check_grads(lambda c: multivariate_normal.entropy(None, c), (cov,), order=2)


def test_entropy_of_a_scalar_variance_and_in_single_precision():
    expected = scipy.stats.multivariate_normal(np.zeros(3), 2.5).entropy()
    assert np.isclose(multivariate_normal.entropy(np.zeros(3), 2.5), expected, rtol=1e-12)
    check_grads(lambda v: multivariate_normal.entropy(np.zeros(3), v), (2.5,), order=2)
    assert multivariate_normal.entropy(None, np.eye(2, dtype=np.float32)).dtype == np.float32
    assert fnp.asarray(multivariate_normal.entropy(None, np.float32(2.0))).dtype == np.float32


def test_entropy_errors():
    with pytest.raises(ValueError, match="entropy: cov is not positive semidefinite"):
        multivariate_normal.entropy(None, -np.eye(2), allow_singular=True)
    with pytest.raises(fnp.linalg.LinAlgError, match="entropy: cov is not positive definite"):
        multivariate_normal.entropy(None, -np.eye(2))
    with pytest.raises(ValueError, match="entropy: mean has 3 entries, cov is 2 by 2"):
        multivariate_normal.entropy(np.zeros(3), np.eye(2))
    with pytest.raises(ValueError, match=r"cov must be a scalar or a square matrix"):
        multivariate_normal.entropy(None, np.ones((2, 3)))
