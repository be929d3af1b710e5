"""Oracle cases: scipy.stats distributions, checked against jax.scipy.stats.

SciPy's own stats compute in double precision whatever the input, while funcgrad keeps
single precision as JAX does, so a case's ``numpy`` namespace maps to JAX's functions:
the dtype check then holds funcgrad to JAX's dtypes.
"""
import hypothesis.strategies as st
import jax.numpy
import jax.scipy.stats
import numpy

import funcgrad.scipy.stats
from oracle import Case, array, dtypes

_STATS = {"funcgrad.numpy": funcgrad.scipy.stats, "jax.numpy": jax.scipy.stats,
          "numpy": jax.scipy.stats}

# The arguments' shapes, in turn: they broadcast against each other, scalars among them.
# One layout and one dtype per draw keep JAX's compilations (seconds each) few.
_LAYOUT = ((2, 3), (), (2, 1), (3,))


def stats(np):
    return _STATS[np.__name__]


@st.composite
def arguments(draw, *ranges):
    """One array per (low, high) range, of mutually broadcastable shapes and one dtype."""
    dtype = draw(dtypes())
    return tuple(draw(array(_LAYOUT[i % len(_LAYOUT)], dtype, low, high))
                 for i, (low, high) in enumerate(ranges)), {}


def _case(distribution, function, *ranges, order=1, diff=None, suffix="", check_dtype=True):
    def fun(np, *args):
        return getattr(getattr(stats(np), distribution), function)(*args)
    # Without a NumPy-side call (jax_fun given) the oracle does not compare dtypes.
    jax_fun = None if check_dtype else lambda *args: fun(jax.numpy, *args).astype(
        numpy.result_type(*args))
    return Case(f"stats.{distribution}.{function}{suffix}", fun, arguments(*ranges),
                jax_fun=jax_fun, order=order, diff=diff)


X, LOC, SCALE = (-3.0, 3.0), (-1.0, 1.0), (0.3, 3.0)


@st.composite
def dirichlet_args(draw):
    """Concentrations, and a point of the simplex, or two with the last coordinate left out
    (axis 0 holds the coordinates)."""
    dtype = draw(dtypes())
    alpha = draw(array((3,), dtype, 0.5, 4.0))
    batched = draw(st.booleans())
    weights = draw(array((3, 2) if batched else (3,), numpy.float64, 0.1, 3.0))
    x = (weights / weights.sum(axis=0)).astype(dtype)
    return (x[:-1] if batched else x, alpha), {}


@st.composite
def multivariate_normal_args(draw):
    """Points, a mean, and a positive definite covariance, a scalar variance, or (with a
    0-d mean) the univariate normal."""
    dtype = draw(dtypes())
    kind = draw(st.sampled_from(["matrix", "scalar", "univariate"]))
    if kind == "univariate":
        return tuple(draw(array(shape, dtype, *bounds))
                     for shape, bounds in [((3,), X), ((), X), ((), SCALE)]), {}
    n = 3 if kind == "matrix" else 2
    x = draw(array((2, n), dtype))
    mean = draw(array((n,), dtype))
    if kind == "scalar":
        return (x, mean, draw(array((), dtype, *SCALE))), {}
    factor = draw(array((n, n), numpy.float64, -1.0, 1.0))
    cov = (factor @ factor.T + 0.5 * numpy.eye(n)).astype(dtype)
    return (x, mean, cov), {}


CASES = [
    _case("norm", "logpdf", X, LOC, SCALE, order=2),
    _case("norm", "logpdf", X, suffix="_standard"),
    _case("norm", "pdf", X, LOC, SCALE),
    _case("norm", "cdf", X, LOC, SCALE),
    _case("norm", "logcdf", X, LOC, SCALE),
    _case("norm", "sf", X, LOC, SCALE),
    _case("norm", "logsf", X, LOC, SCALE),
    # JAX's ppf and isf return double precision whatever the input; funcgrad keeps the
    # input's precision, as in its other functions.
    _case("norm", "ppf", (0.02, 0.98), LOC, SCALE, check_dtype=False),
    _case("norm", "isf", (0.02, 0.98), LOC, SCALE, check_dtype=False),
    _case("t", "logpdf", X, (0.5, 6.0), LOC, SCALE),
    _case("t", "pdf", X, (0.5, 6.0)),
    _case("beta", "logpdf", (0.02, 0.98), (0.5, 4.0), (0.5, 4.0)),
    _case("beta", "pdf", (-0.5, 3.0), (0.5, 4.0), (0.5, 4.0), (-0.2, 0.2), (1.0, 2.5)),
    _case("gamma", "logpdf", (0.05, 5.0), (0.5, 4.0), order=2),
    _case("gamma", "pdf", (-2.0, 5.0), (0.5, 4.0), LOC, SCALE),
    # k is a count (a constant); values that are not non-negative integers have mass 0.
    _case("poisson", "logpmf", (0.0, 6.0), (0.1, 5.0), diff=(1,), order=2),
    _case("poisson", "pmf", (-2.0, 6.0), (0.1, 5.0), (-1.0, 1.0), diff=(1,)),
    Case("stats.dirichlet.logpdf", lambda np, x, alpha: stats(np).dirichlet.logpdf(x, alpha),
         dirichlet_args()),
    Case("stats.dirichlet.pdf", lambda np, x, alpha: stats(np).dirichlet.pdf(x, alpha),
         dirichlet_args()),
    Case("stats.multivariate_normal.logpdf",
         lambda np, x, mean, cov: stats(np).multivariate_normal.logpdf(x, mean, cov),
         multivariate_normal_args()),
    Case("stats.multivariate_normal.pdf",
         lambda np, x, mean, cov: stats(np).multivariate_normal.pdf(x, mean, cov),
         multivariate_normal_args()),
]
