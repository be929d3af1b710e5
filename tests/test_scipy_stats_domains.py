"""funcgrad.scipy.stats outside the parameters' domains, with SciPy as the oracle: NaN for
a scale or shape <= 0, a probability outside [0, 1] and NaN parameters or counts, the
quantiles at 0 and 1, and counts offset by a non-integer loc. JAX, whose distributions do
not check their parameters, cannot be the oracle here. Each value is checked untraced and
under jit and vmap."""
import warnings

import numpy as np
import pytest
import scipy.stats

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.stats as stats

X = np.array([0.0, 0.3, 1.0, 2.0, 3.5])
Q = np.array([0.0, 0.3, 0.5, 1.0, -0.1, 1.1])
K = np.array([0.0, 1.0, 1.5, 2.0, 3.0, np.nan, -1.0])

INVALID = {  # distribution: parameter tuples SciPy answers with NaN (some elements)
    "norm": [(0, -1.0), (0, 0.0)], "cauchy": [(0, -1.0), (0, 0.0)],
    "expon": [(0, -1.0), (0, 0.0)], "logistic": [(0, -1.0)], "laplace": [(0, -1.0)],
    "uniform": [(0, -1.0), (0, 0.0)], "t": [(-1.0,), (3.0, 0, 0.0)],
    "chi2": [(0.0,), (3.0, 0, -1.0)], "gamma": [(-1.0,), (2.0, 0, -1.0)],
    "beta": [(2.0, 0.0), (2.0, 3.0, 0, -1.0)], "vonmises": [(-1.0,)],
    "bernoulli": [(1.5,), (-0.5,), (np.nan,)], "binom": [(5, 1.5), (-2, 0.5), (2.5, 0.5)],
    "geom": [(1.5,), (0.0,)], "nbinom": [(3, 1.5), (-1, 0.5), (3, 0.0)],
    "poisson": [(-1.0,), (np.nan,)],
}
QUANTILES = ("ppf", "isf")


def _calls():
    for name, parameters in INVALID.items():
        for method in ("pdf", "logpdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf", "pmf",
                       "logpmf"):
            if hasattr(getattr(stats, name), method):
                for p in parameters:
                    yield name, method, p


def _check(name, method, argument, parameters):
    ours = getattr(getattr(stats, name), method)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = getattr(getattr(scipy.stats, name), method)(argument, *parameters)
        for transform, result in [
                ("untraced", ours(argument, *parameters)),
                ("jit", fg.jit(lambda a: ours(a, *parameters))(argument)),
                ("vmap", fg.vmap(lambda a: ours(a, *parameters))(argument))]:
            np.testing.assert_allclose(result, expected, rtol=1e-12, atol=1e-300,
                                       equal_nan=True, err_msg=transform)


@pytest.mark.parametrize("name, method, parameters", list(_calls()))
def test_parameters_outside_their_domain_give_nan(name, method, parameters):
    _check(name, method, Q if method in QUANTILES else X, parameters)


@pytest.mark.parametrize("name, parameters", [
    ("cauchy", ()), ("cauchy", (1.0, 2.0)), ("norm", ()), ("logistic", ()), ("expon", ()),
    ("uniform", (1.0, 2.0)), ("bernoulli", (0.3,)),
])
@pytest.mark.parametrize("method", QUANTILES)
def test_quantiles_at_the_ends_and_outside(name, parameters, method):
    # (cauchy's were tan(pi / 2) = 1.6e16 at the ends, and finite outside [0, 1])
    if hasattr(getattr(stats, name), method):
        _check(name, method, Q, parameters)


@pytest.mark.parametrize("name, parameters", [
    ("poisson", (1.5,)), ("poisson", (1.5, 0.5)), ("poisson", (1.5, 1.0)),
    ("bernoulli", (0.3,)), ("bernoulli", (0.3, 0.5)), ("binom", (4, 0.3, 0.5)),
    ("nbinom", (3, 0.4, 0.5)), ("geom", (0.3, -1.0)),
])
@pytest.mark.parametrize("method", ["pmf", "logpmf", "cdf"])
def test_counts_offset_by_loc_and_nan_counts(name, parameters, method):
    # (poisson tested whether k, not k - loc, was an integer; a NaN count had mass 0)
    if hasattr(getattr(stats, name), method) and not (method == "cdf" and len(parameters) > 1
                                                      and name == "bernoulli"):
        _check(name, method, K, parameters)


@pytest.mark.filterwarnings("ignore:invalid value encountered in log:RuntimeWarning")
def test_a_traced_scale_is_checked_and_differentiated():
    x = np.array([0.5, 1.5])

    def total(scale):
        return fnp.sum(stats.norm.logpdf(x, 0.2, scale))
    expected = np.sum(-1 / 1.3 + (x - 0.2) ** 2 / 1.3 ** 3)
    np.testing.assert_allclose(fg.grad(total)(1.3), expected, rtol=1e-14)
    assert np.isnan(fg.jit(total)(-1.3))
