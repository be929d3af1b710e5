"""poisson.entropy against mpmath for every mu: JAX's (the oracle case, for 10 < mu < 95)
agrees to 1e-5 below mu = 10 and has nan derivatives from 100 on; SciPy's sum fails from
mu = 1e4 on (2.77 at mu = 1e6, where the entropy is 7.8)."""
import functools

import jax
import jax.scipy.stats as jax_stats
import mpmath
import numpy as np
import pytest
import scipy.stats

import funcgrad as fg
from funcgrad.scipy.stats import poisson
from funcgrad.test_util import check_grads


def _mpmath_entropy(mu):
    """-sum p_k log p_k over mu +- 20 standard deviations (and 60), in 30 digits."""
    spread = 20 * mpmath.sqrt(mu) + 60
    total = mpmath.mpf(0)
    for k in range(max(0, int(mu - spread)), int(mu + spread)):
        log_mass = k * mpmath.log(mu) - mu - mpmath.loggamma(k + 1)
        total -= mpmath.exp(log_mass) * log_mass
    return total


@functools.lru_cache(maxsize=None)
def _expected(mu, order):
    with mpmath.workdps(30):
        return float(mpmath.diff(_mpmath_entropy, mpmath.mpf(mu), order))


# Rounding: the sum's derivatives add terms of both signs, whose cancellation costs up to
# 1e-12 (first) and 1e-11 (second) just below mu = 1000, where the series takes over.
@pytest.mark.parametrize("mu", [1e-6, 1e-3, 0.5, 1.0, 7.0, 30.0, 99.5, 300.0, 999.0, 1000.0,
                                5e3, 1e5])
def test_entropy_and_its_derivatives_match_mpmath(mu):
    np.testing.assert_allclose(poisson.entropy(mu), _expected(mu, 0), rtol=5e-15)
    np.testing.assert_allclose(fg.grad(poisson.entropy)(mu), _expected(mu, 1), rtol=5e-12)
    np.testing.assert_allclose(fg.grad(fg.grad(poisson.entropy))(mu), _expected(mu, 2),
                               rtol=5e-11)


def test_entropy_matches_scipy_where_scipy_converges_and_its_domain():
    mu = np.array([0.0, 0.02, 1.5, 40.0, 900.0, 2000.0])
    np.testing.assert_allclose(poisson.entropy(mu), scipy.stats.poisson.entropy(mu),
                               rtol=1e-12)
    assert np.isnan(poisson.entropy(-1.0))
    check_grads(poisson.entropy, (np.array([0.3, 8.0, 999.5, 1000.5]),), order=2)


def test_entropy_under_vmap_dtype_and_loc():
    mu = np.array([0.5, 20.0, 4000.0])
    np.testing.assert_allclose(fg.vmap(fg.grad(poisson.entropy))(mu),
                               [fg.grad(poisson.entropy)(m) for m in mu], rtol=1e-13)
    assert poisson.entropy(np.float32(3.0)).dtype == np.float32
    assert poisson.entropy(np.ones(3), loc=np.zeros((2, 1))).shape == (2, 3)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_entropy_of_no_mu_is_empty_as_in_jax(dtype):
    mu = np.zeros(0, dtype)
    for ours, theirs in [(fg.vmap(poisson.entropy), jax.vmap(jax_stats.poisson.entropy)),
                         (fg.vmap(fg.grad(poisson.entropy)),
                          jax.vmap(jax.grad(jax_stats.poisson.entropy))),
                         (poisson.entropy, jax_stats.poisson.entropy)]:
        result, expected = ours(mu), theirs(mu)
        assert (result.shape, result.dtype) == (expected.shape, expected.dtype)
