"""Oracle cases: scipy.stats distributions, checked against jax.scipy.stats.

SciPy's own stats compute in double precision whatever the input, while funcgrad keeps
single precision as JAX does, so a case's ``numpy`` namespace maps to JAX's functions:
the dtype check then holds funcgrad to JAX's dtypes.
"""
import hypothesis.strategies as st
import jax
import jax.numpy
import jax.numpy as jnp
import jax.scipy.special
import jax.scipy.stats
import mpmath
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


class Counts(tuple):
    """A (low, high) range of integers only: counts, where discrete distributions have mass
    (at other values funcgrad's mass is 0, as SciPy's; JAX's is not)."""


@st.composite
def arguments(draw, *ranges):
    """One array per (low, high) range, of mutually broadcastable shapes and one dtype."""
    dtype = draw(dtypes())
    return tuple(draw(array(_LAYOUT[i % len(_LAYOUT)], dtype, low, high, elements=(
        st.integers(int(low), int(high)).map(float) if isinstance(bounds, Counts) else None)))
        for i, bounds in enumerate(ranges) for low, high in [bounds]), {}


def _case(distribution, function, *ranges, order=1, diff=None, suffix="", check_dtype=True,
          jax_fun=None):
    def fun(np, *args):
        return getattr(getattr(stats(np), distribution), function)(*args)
    # Without a NumPy-side call (jax_fun given) the oracle does not compare dtypes.
    if not check_dtype:
        jax_fun = lambda *args: fun(jax.numpy, *args).astype(numpy.result_type(*args))
    return Case(f"stats.{distribution}.{function}{suffix}", fun, arguments(*ranges),
                jax_fun=jax_fun, order=order, diff=diff)


def _mpmath_poisson_entropy_derivative(mu, order):
    """d^order/dmu^order of the entropy mu - mu log(mu) + E[lgamma(K + 1)], in 30 digits:
    by Poisson's d/dmu E[f(K)] = E[f(K + 1) - f(K)], the n-th derivative of the expectation
    is E[(n - 1)-th forward difference of log(K + 1)]."""
    with mpmath.workdps(30):
        mu = mpmath.mpf(float(mu))
        elementary = [mu - mu * mpmath.log(mu), -mpmath.log(mu)][order] if order < 2 else (
            (-1) ** (order - 1) * mpmath.factorial(order - 2) / mu ** (order - 1))
        spread = 20 * mpmath.sqrt(mu) + 60
        expectation = mpmath.mpf(0)
        for k in range(max(0, int(mu - spread)), int(mu + spread)):
            if order == 0:
                term = mpmath.loggamma(k + 1)
            else:
                term = mpmath.fsum((-1) ** (order - 1 - j) * mpmath.binomial(order - 1, j)
                                   * mpmath.log(k + 1 + j) for j in range(order))
            expectation += mpmath.exp(k * mpmath.log(mu) - mu - mpmath.loggamma(k + 1)) * term
        return float(elementary + expectation)


def _mpmath_poisson_entropy(order=0):
    """poisson.entropy as a JAX function, its value and derivatives of every order from
    mpmath (JAX's own sum is off by 1e-5 below mu = 10, its float32 grad nan at mu = 88 and
    its jvp nan everywhere)."""
    def evaluate(mu):
        values = numpy.vectorize(lambda m: _mpmath_poisson_entropy_derivative(m, order))(mu)
        return numpy.asarray(values, mu.dtype)

    @jax.custom_jvp
    def entropy(mu):
        return jax.pure_callback(evaluate, jax.ShapeDtypeStruct(mu.shape, mu.dtype), mu,
                                 vmap_method="expand_dims")

    @entropy.defjvp
    def slope(primals, tangents):
        (mu,), (t,) = primals, tangents
        return entropy(mu), _mpmath_poisson_entropy(order + 1)(mu) * t
    return entropy


X, LOC, SCALE = (-3.0, 3.0), (-1.0, 1.0), (0.3, 3.0)
PROBABILITY, SHAPE = (0.05, 0.95), (0.5, 5.0)
# Where a function's support starts at loc, JAX's derivatives at x = loc are nan (and its
# chi2 density there too), funcgrad's those of the side the value is computed from: the
# distribution functions are compared with x above loc (their values below loc are
# constants; the densities' cases cover that side).
LOC_BELOW = (-0.45, 0.0)


def _t_tail(x, df, loc=0.0, scale=1.0):
    """JAX has no t.cdf: P(T <= -|z|) from its betainc, as funcgrad's (and SciPy's)."""
    z = (x - loc) / scale
    return 0.5 * jax.scipy.special.betainc(0.5 * df, 0.5, df / (df + z * z)), z < 0


def _t_cdf(*args):
    tail, lower = _t_tail(*args)
    return jnp.where(lower, tail, 1.0 - tail)


def _t_sf(*args):
    tail, lower = _t_tail(*args)
    return jnp.where(lower, 1.0 - tail, tail)


_T_FUNCTIONS = {"cdf": _t_cdf, "sf": _t_sf, "logcdf": lambda *a: jnp.log(_t_cdf(*a)),
                "logsf": lambda *a: jnp.log(_t_sf(*a))}


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
    # With a loc, k - loc must be a count, as SciPy's (JAX's checks k itself): JAX's of it.
    _case("poisson", "pmf", (-2.0, 6.0), (0.1, 5.0), (-1.0, 1.0), diff=(1,),
          jax_fun=lambda k, mu, loc: jax.scipy.stats.poisson.pmf(k - loc, mu)),
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
    # The distribution functions through betainc: not differentiable in its parameters
    # (a, b; t's df), as JAX's.
    *(_case("t", f, X, (0.5, 6.0), LOC, SCALE, diff=(0, 2, 3), jax_fun=_T_FUNCTIONS[f])
      for f in ("cdf", "logcdf", "sf", "logsf")),
    *(_case("beta", f, (0.02, 0.98), SHAPE, SHAPE, diff=(0,)) for f in ("cdf", "sf")),
    *(_case("beta", f, (0.05, 0.95), SHAPE, SHAPE, (-0.02, 0.02), (1.0, 1.2), diff=(0, 3, 4))
      for f in ("logcdf", "logsf")),
    *(_case("gamma", f, (0.05, 5.0), SHAPE, LOC_BELOW, SCALE) for f in ("cdf", "sf")),
    *(_case("gamma", f, (0.05, 6.0), SHAPE) for f in ("logcdf", "logsf")),
    *(_case("chi2", f, (0.05, 8.0), (0.5, 6.0)) for f in ("logpdf", "logcdf", "logsf")),
    *(_case("chi2", f, (0.05, 8.0), (0.5, 6.0), LOC_BELOW, SCALE) for f in ("pdf", "cdf", "sf")),
    # k is a count (a constant): the cdf is a step function of it. SciPy's floor(k - loc),
    # not JAX's floor(1 + k - loc), which rounds up just below a count (k - loc = 1 - 1e-16).
    _case("poisson", "cdf", (-1.0, 6.0), (0.1, 5.0), (-1.0, 1.0), diff=(1,),
          jax_fun=lambda k, mu, loc: jnp.where(k < loc, 0.0, jax.scipy.special.gammaincc(
              jnp.floor(k - loc) + 1.0, mu))),
    # From mpmath (tests/test_poisson_entropy.py: up to mu = 1e5, where the sum gives way to
    # the asymptotic series).
    Case("stats.poisson.entropy", lambda np, mu, loc: stats(np).poisson.entropy(mu, loc),
         arguments((0.05, 40.0), (-1.0, 1.0)), diff=(0,), order=2,
         jax_fun=lambda mu, loc: jnp.broadcast_to(_mpmath_poisson_entropy()(mu),
                                                  jnp.broadcast_shapes(mu.shape, loc.shape))),
    *(_case("expon", f, X, LOC, SCALE) for f in ("pdf", "cdf", "sf", "logsf")),
    # log densities inside the support (-inf outside, which the densities' cases cover)
    _case("expon", "logpdf", (0.05, 4.0), LOC_BELOW, SCALE),
    _case("expon", "logcdf", (0.05, 4.0), LOC_BELOW, SCALE),
    _case("expon", "ppf", (0.02, 0.98), LOC, SCALE),
    *(_case("laplace", f, X, LOC, SCALE) for f in ("logpdf", "pdf", "cdf")),
    *(_case("logistic", f, X, LOC, SCALE) for f in ("logpdf", "pdf", "cdf", "sf")),
    *(_case("logistic", f, (0.02, 0.98), LOC, SCALE) for f in ("ppf", "isf")),
    *(_case("cauchy", f, X, LOC, SCALE)
      for f in ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf")),
    *(_case("cauchy", f, (0.02, 0.98), LOC, SCALE) for f in ("ppf", "isf")),
    *(_case("uniform", f, X, LOC, SCALE) for f in ("pdf", "cdf")),
    _case("uniform", "logpdf", (0.02, 0.1), LOC_BELOW, (0.6, 3.0)),
    _case("uniform", "ppf", (-0.5, 1.5), LOC, SCALE),
    *(_case("bernoulli", f, Counts((-1, 2)), PROBABILITY, diff=(1,)) for f in ("logpmf", "pmf")),
    _case("bernoulli", "cdf", (-1.0, 2.0), PROBABILITY, diff=(1,)),
    # At q = 0 SciPy's discrete quantile is one below the support, -1 (JAX's: 0).
    _case("bernoulli", "ppf", (-0.5, 1.5), PROBABILITY, diff=(1,),
          jax_fun=lambda q, p: jnp.where(q == 0, -1.0, jax.scipy.stats.bernoulli.ppf(q, p))),
    *(_case("binom", f, Counts((-1, 6)), Counts((0, 5)), PROBABILITY, diff=(2,))
      for f in ("logpmf", "pmf")),
    *(_case("geom", f, Counts((-1, 6)), PROBABILITY, diff=(1,)) for f in ("logpmf", "pmf")),
    # JAX's derivatives are nan at negative k (where the mass is the constant 0).
    *(_case("nbinom", f, Counts((0, 6)), SHAPE, PROBABILITY, diff=(1, 2))
      for f in ("logpmf", "pmf")),
    _case("vonmises", "logpdf", (-4.0, 4.0), (0.1, 5.0), order=2),
    _case("vonmises", "pdf", (-4.0, 4.0), (0.1, 5.0)),
]
