"""Oracle cases: scipy.special (checked against jax.scipy.special; dtypes against SciPy's)."""
import hypothesis.strategies as st
import jax.scipy.special
import numpy
import scipy.special

import funcgrad.scipy.special
from oracle import Case, array, dtypes, floats

# A case's `np` is funcgrad.numpy, jax.numpy or numpy; its special functions are these.
_SPECIAL = {"funcgrad.numpy": funcgrad.scipy.special, "jax.numpy": jax.scipy.special,
            "numpy": scipy.special}

# A few small shapes: enough for broadcasting, few enough to keep JAX's compilations low.
_SHAPES = [(), (2, 3)]
_BROADCAST = [((), (3,)), ((2, 3), (3,)), ((2, 1), (1, 3))]


def special(np):
    return _SPECIAL[np.__name__]


@st.composite
def values(draw, low, high, elements=None, exclude_zero=False):
    """One array with values in [low, high] (small integers among them)."""
    dtype = draw(dtypes())
    return (draw(array(draw(st.sampled_from(_SHAPES)), dtype, low, high, exclude_zero,
                       elements and elements(dtype))),), {}


@st.composite
def pairs(draw, first, second, layouts=_BROADCAST):
    """Two arrays of broadcastable shapes with values in the ``first`` and ``second`` ranges."""
    shapes = draw(st.sampled_from(layouts))
    dtype = draw(dtypes())
    return tuple(draw(array(shape, dtype, *bounds))
                 for shape, bounds in zip(shapes, (first, second))), {}


@st.composite
def polygamma_args(draw):
    dtype = draw(dtypes())
    shape = draw(st.sampled_from(_SHAPES))
    n = draw(st.one_of(st.integers(0, 3),
                       st.lists(st.integers(0, 3), min_size=3, max_size=3).map(numpy.array)))
    return (draw(array(shape, dtype, 0.3, 5.0)),), {"n": n}


@st.composite
def reduction(draw, low=-3.0, high=3.0, elements=None):
    """An array, and ``axis`` as None, an int (maybe negative) or a tuple."""
    dtype = draw(dtypes())
    shape = draw(st.sampled_from([(2, 3), (2, 1, 3)]))
    ndim = len(shape)
    axis = draw(st.one_of(st.none(), st.integers(-ndim, ndim - 1),
                          st.lists(st.integers(0, ndim - 1), unique=True, min_size=1,
                                   max_size=ndim).map(tuple)))
    x = draw(array(shape, dtype, low, high, elements=elements and elements(dtype)))
    return (x,), {"axis": axis}


def _with_infinities(dtype):
    return st.one_of(floats(-3.0, 3.0, dtype), st.just(-numpy.inf))


@st.composite
def logsumexp_args(draw, signed=False, infinities=False):
    (a,), static = draw(reduction(elements=_with_infinities if infinities else None))
    static["keepdims"] = draw(st.booleans())
    if not draw(st.booleans()):
        return (a,), static
    b_shape = a.shape[draw(st.integers(0, a.ndim)):]  # b broadcasts against a
    # Weights are 0 or of moderate size: at weights like 1e-19 the Hessian is ~1/b**2 and
    # both sides' second derivatives are rounding noise.
    dtype = draw(dtypes())
    weight = floats(0.125, 2.0, dtype)
    weight = st.one_of(weight, weight.map(lambda w: -w)) if signed else weight
    b = draw(array(b_shape, dtype, elements=st.one_of(st.just(0.0), weight)))
    return (a, b), static


def _unary(name, low, high, order=1, elements=None, exclude_zero=False, suffix=""):
    return Case(f"special.{name}{suffix}", lambda np, x: getattr(special(np), name)(x),
                values(low, high, elements, exclude_zero), order=order)


def _binary(name, first, second, order=1, layouts=_BROADCAST):
    return Case(f"special.{name}", lambda np, x, y: getattr(special(np), name)(x, y),
                pairs(first, second, layouts), order=order)


def _negative_non_integers(dtype):
    return floats(-2.9, -2.1, dtype) | floats(-0.9, -0.1, dtype)


def _logsumexp(np, a, b=None, **static):
    return special(np).logsumexp(a, b=b, **static)


CASES = [
    _unary("gammaln", 0.1, 6.0, order=2),
    _unary("gammaln", -3.0, 0.0, elements=_negative_non_integers, suffix="_negative"),
    _unary("gamma", 0.2, 4.0),
    _unary("digamma", 0.2, 5.0, order=2),
    Case("special.polygamma", lambda np, x, n: special(np).polygamma(n, x), polygamma_args(),
         jax_fun=lambda x, n: jax.scipy.special.polygamma(numpy.asarray(n), x), order=2),
    _unary("erf", -3.0, 3.0, order=2),
    _unary("erfc", -3.0, 3.0),
    _unary("erfinv", -0.95, 0.95, order=2),
    _unary("expit", -6.0, 6.0, order=2),
    _unary("logit", 0.02, 0.98),
    _unary("ndtr", -4.0, 4.0, order=2),
    _unary("ndtri", 0.02, 0.98),
    _unary("log_ndtr", -5.0, 8.0, order=2),
    # Far in the lower tail, where float32 second derivatives lose their digits.
    _unary("log_ndtr", -30.0, -5.0, suffix="_tail"),
    # At and near 0 some of JAX's derivatives are not the functions' own (i0'(0) is 1,
    # not 0; i1''(0) is 1, not 0; i1e''(1e-200) is 0, not -1): second derivatives and i0
    # are checked away from 0, first derivatives of i1 and i1e at 0 too.
    _unary("i0", -4.0, 4.0, order=2, exclude_zero=True),
    _unary("i1", -4.0, 4.0),
    _unary("i0e", -4.0, 4.0, order=2, exclude_zero=True),
    _unary("i1e", -4.0, 4.0),
    _unary("entr", 0.0, 3.0, order=2),
    _binary("xlogy", (-2.0, 2.0), (0.0, 3.0), order=2),
    _binary("xlog1py", (-2.0, 2.0), (-1.0, 2.0), order=2),
    # JAX's betaln compiles slowly: one broadcasting layout only.
    _binary("betaln", (0.2, 5.0), (0.2, 5.0), layouts=[((2, 3), (3,))]),
    Case("special.logsumexp", _logsumexp, logsumexp_args(), order=2),
    Case("special.logsumexp_return_sign",
         lambda np, *ab, **k: _logsumexp(np, *ab, return_sign=True, **k),
         logsumexp_args(signed=True)),
    Case("special.logsumexp_infinities", _logsumexp, logsumexp_args(infinities=True)),
    Case("special.softmax", lambda np, x, axis: special(np).softmax(x, axis=axis), reduction(),
         order=2),
    Case("special.log_softmax", lambda np, x, axis: special(np).log_softmax(x, axis=axis),
         reduction()),
]
