"""Oracle cases: scipy.special (checked against jax.scipy.special; dtypes against SciPy's).

The functions JAX lacks are written from JAX's own where an identity gives them (rgamma,
erfcinv, J_n through bessel_jn), and otherwise (Y_n, I_v) taken from mpmath in arbitrary
precision: values and derivatives of any order, through a JAX callback.
"""
import functools
import math
import types

import hypothesis.strategies as st
import jax
import jax.numpy as jnp
import jax.scipy.special
import mpmath
import numpy
import scipy.special

import funcgrad.scipy.special
from oracle import Case, array, dtypes, floats


def _from_mpmath(function, derivative=0):
    """``function(order, x)`` (of mpmath numbers) as a JAX function of x for a constant
    order, differentiable to any order: each derivative is mpmath's, in extra precision."""
    def evaluate(order, x):
        values = numpy.vectorize(lambda v: float(
            mpmath.diff(lambda t: function(order, t), float(v), derivative)))(x)
        return numpy.asarray(values, x.dtype)

    @functools.partial(jax.custom_jvp, nondiff_argnums=(0,))
    def jax_function(order, x):
        return jax.pure_callback(functools.partial(evaluate, order),
                                 jax.ShapeDtypeStruct(x.shape, x.dtype), x,
                                 vmap_method="expand_dims")

    @jax_function.defjvp
    def slope(order, primals, tangents):
        (x,), (t,) = primals, tangents
        return jax_function(order, x), _from_mpmath(function, derivative + 1)(order, x) * t
    return jax_function


def _from_mpmath_of_two(function, orders=(0, 0)):
    """``function(x, y)`` (of mpmath numbers) as a JAX function differentiable in both
    arguments to any order, each partial derivative mpmath's, in extra precision."""
    def evaluate(x, y):
        values = numpy.vectorize(lambda a, b: float(
            mpmath.diff(function, (float(a), float(b)), orders)))(x, y)
        return numpy.asarray(values, numpy.result_type(x.dtype, y.dtype))

    @jax.custom_jvp
    def jax_function(x, y):
        # Broadcast here, where the shapes are one element's: under vmap, "broadcast_all"
        # gives both the batch axis but leaves their ranks apart (a batch of numbers, (B,),
        # beside a batch of rows, (B, 3), which NumPy cannot broadcast).
        x, y = jnp.broadcast_arrays(x, y)
        return jax.pure_callback(evaluate, jax.ShapeDtypeStruct(x.shape, jnp.result_type(x, y)),
                                 x, y, vmap_method="broadcast_all")

    @jax_function.defjvp
    def slope(primals, tangents):
        (x, y), (tx, ty) = primals, tangents
        in_x = _from_mpmath_of_two(function, (orders[0] + 1, orders[1]))(x, y)
        in_y = _from_mpmath_of_two(function, (orders[0], orders[1] + 1))(x, y)
        return jax_function(x, y), in_x * tx + in_y * ty
    return jax_function


def _mpmath_boxcox(log_base):
    """(b**l - 1) / l with log(b) = log_base(x), log(b) at l = 0."""
    def boxcox(x, lmbda):
        exponent = lmbda * log_base(x)
        return log_base(x) if exponent == 0 else mpmath.expm1(exponent) / lmbda
    return boxcox


def _in_double_precision(function):
    """JAX's float32 bessel_jn is nan or wrong (J_0(1) is nan): computed in float64."""
    return lambda x: function(jnp.asarray(x, jnp.float64)).astype(jnp.result_type(x))


def _exponentially_scaled(function):
    return lambda order, x: function(order, x) * jnp.exp(-jnp.abs(x))


# JAX's bessel_jn (its only J) has second derivatives off by 1e5 at x = 0.125: J_n from
# mpmath; bessel_jn itself is checked to first order against JAX's.
_bessel_j = _from_mpmath(mpmath.besselj)
_bessel_y = _from_mpmath(mpmath.bessely)
_bessel_i = _from_mpmath(mpmath.besseli)
# JAX's exp1 and expn fail to compile under jit with jvp ("No constant handler").
_exponential_integral = _from_mpmath(mpmath.expint)

# JAX's special functions, and those JAX lacks from the identities and mpmath above.
_JAX_SPECIAL = types.SimpleNamespace(**{
    name: getattr(jax.scipy.special, name) for name in dir(jax.scipy.special)
    if not name.startswith("_")})
_JAX_SPECIAL.__dict__.update(
    rgamma=lambda x: 1.0 / jax.scipy.special.gamma(x),
    erfcinv=lambda y: -jax.scipy.special.ndtri(0.5 * y) / math.sqrt(2.0),
    j0=lambda x: _bessel_j(0, x), j1=lambda x: _bessel_j(1, x), jn=_bessel_j,
    bessel_jn=lambda x, v: _in_double_precision(
        lambda x: jax.scipy.special.bessel_jn(x, v=v))(x),
    exp1=lambda x: _exponential_integral(1, x),
    expn=lambda n, x: _exponential_integral(n, x),
    y0=lambda x: _bessel_y(0, x), y1=lambda x: _bessel_y(1, x),
    yn=lambda n, x: _bessel_y(n, x), iv=lambda v, x: _bessel_i(v, x),
    ive=lambda v, x: _exponentially_scaled(_bessel_i)(v, x),
    # JAX's derivative of boxcox in lmbda is 0 at lmbda = 0 and wrong in the 7th digit at
    # 1e-10 (it differentiates the closed form): mpmath's.
    boxcox=_from_mpmath_of_two(_mpmath_boxcox(mpmath.log)),
    boxcox1p=_from_mpmath_of_two(_mpmath_boxcox(mpmath.log1p)))

# A case's `np` is funcgrad.numpy, jax.numpy or numpy; its special functions are these.
_SPECIAL = {"funcgrad.numpy": funcgrad.scipy.special, "jax.numpy": _JAX_SPECIAL,
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


def _mpmath_zeta(x):
    """Riemann's zeta of each element of x, from mpmath, in x's dtype."""
    return numpy.vectorize(lambda v: float(mpmath.zeta(v)), otypes=[x.dtype])(x)


def _negative_non_integers(dtype):
    return floats(-2.9, -2.1, dtype) | floats(-0.9, -0.1, dtype)


def _logsumexp(np, a, b=None, **static):
    return special(np).logsumexp(a, b=b, **static)


@st.composite
def with_order(draw, low, high, orders, exclude_zero=False):
    """An array in [low, high], and a constant ``order`` drawn from ``orders``."""
    (x,), _ = draw(values(low, high, exclude_zero=exclude_zero))
    return (x,), {"order": draw(orders)}


@st.composite
def several(draw, *ranges, layouts=((2, 3), (3,), (), (2, 1))):
    """One array per (low, high) range, of broadcastable shapes and one dtype."""
    dtype = draw(dtypes())
    return tuple(draw(array(layouts[i % len(layouts)], dtype, low, high))
                 for i, (low, high) in enumerate(ranges)), {}


def _with_order(name, low, high, orders, order=1, exclude_zero=False, suffix=""):
    """A function of a constant order and an array. For an integer array order SciPy
    computes in double precision; funcgrad keeps single precision: no dtype check."""
    return Case(f"special.{name}{suffix}",
                lambda np, x, order: getattr(special(np), name)(order, x),
                with_order(low, high, orders, exclude_zero), order=order,
                jax_fun=lambda x, order: getattr(_JAX_SPECIAL, name)(order, x))


def _box_cox_powers(dtype):
    """lmbda of moderate size, and at and near 0, where the closed-form derivative fails."""
    return st.one_of(floats(-2.0, 2.0, dtype), floats(-1e-6, 1e-6, dtype), st.just(0.0))


@st.composite
def box_cox_args(draw, low, high):
    shapes = draw(st.sampled_from(_BROADCAST))
    dtype = draw(dtypes())
    return (draw(array(shapes[0], dtype, low, high)),
            draw(array(shapes[1], dtype, elements=_box_cox_powers(dtype)))), {}


@st.composite
def faddeeva_args(draw):
    """Real (float32, float64) or complex (complex64, complex128) z with Re z in [-3, 3] and
    Im z in [-0.5, 3]: in the lower half plane w grows like exp(-z**2)."""
    dtype = draw(dtypes())
    real = draw(array((2, 3), dtype, -3.0, 3.0))
    if draw(st.booleans()):
        return (real,), {}
    z = real + 1j * draw(array((2, 3), dtype, -0.5, 3.0))
    return (z.astype(numpy.complex64 if dtype == numpy.float32 else numpy.complex128),), {}


@st.composite
def spherical_harmonic_args(draw):
    """theta in [0.1, 3], phi in [0, 6.2], with constant degrees n <= 4 and orders |m| <= n
    (scalars, or one per element)."""
    dtype = draw(dtypes())
    shape = draw(st.sampled_from([(), (3,), (2, 3)]))
    theta, phi = draw(array(shape, dtype, 0.1, 3.0)), draw(array((3,), dtype, 0.0, 6.2))
    if draw(st.booleans()):
        n = draw(st.integers(0, 4))
        m = draw(st.integers(-n, n))
    else:
        n = numpy.array(draw(st.lists(st.integers(0, 4), min_size=3, max_size=3)))
        m = numpy.array([draw(st.integers(-k, k)) for k in n])
    return (theta, phi), {"n": n, "m": m}


def _jax_sph_harm_y(theta, phi, n, m):
    """JAX's sph_harm_y takes 1-d arrays of one length only: broadcast, flatten, reshape. Its
    float32 result is complex128 when n is an array (n enters in double precision): cast
    to the angles' precision, as funcgrad's."""
    precision = jnp.result_type(theta, phi, 1j)
    n, m, theta, phi = jnp.broadcast_arrays(jnp.asarray(n), jnp.asarray(m), theta, phi)
    y = jax.scipy.special.sph_harm_y(n.ravel(), m.ravel(), theta.ravel(), phi.ravel(),
                                     n_max=4)
    return y.reshape(theta.shape).astype(precision)


def _positive_or_negative_non_integers(dtype):
    return floats(0.2, 4.0, dtype) | _negative_non_integers(dtype)


def _non_integers(low, high):
    return lambda dtype: floats(low, high, dtype).filter(lambda v: v != round(v))


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
    _binary("beta", (0.2, 4.0), (0.2, 4.0), layouts=[((2, 3), (3,))]),
    _unary("rgamma", -3.0, 4.0, elements=_positive_or_negative_non_integers, order=2),
    _unary("gammasgn", -3.0, 4.0, elements=_positive_or_negative_non_integers),
    _unary("loggamma", 0.2, 5.0, order=2),
    # SciPy's factorial and multigammaln compute float32 arrays in double precision; JAX
    # and funcgrad keep single precision.
    Case("special.multigammaln", lambda np, a, d: special(np).multigammaln(a, d),
         with_order(2.0, 5.0, st.integers(1, 3)).map(lambda c: (c[0], {"d": c[1]["order"]})),
         jax_fun=jax.scipy.special.multigammaln, order=2),
    _binary("poch", (0.3, 4.0), (0.2, 3.0), layouts=[((2, 3), (3,))]),
    # JAX's derivative is nan at negative integers (where ours is 0, as the value's).
    Case("special.factorial", lambda np, x: special(np).factorial(x),
         values(-2.5, 4.0, _positive_or_negative_non_integers),
         jax_fun=jax.scipy.special.factorial),
    # JAX has no binom: Gamma's ratio, through its gammaln (n - k + 1 > 0 on this domain).
    Case("special.binom", lambda np, n, k: special(np).binom(n, k), pairs((1.0, 6.0), (0.0, 1.0)),
         jax_fun=lambda n, k: jnp.exp(jax.scipy.special.gammaln(n + 1) - jax.scipy.special.gammaln(
             k + 1) - jax.scipy.special.gammaln(n - k + 1)), order=2),
    Case("special.comb", lambda np, n, k: special(np).comb(n, k), pairs((0.0, 6.0), (0.0, 6.0))),
    # k = 0 is left out: there JAX's comb with repetition is the constant 1 (derivative 0 in
    # k), ours the binomial formula's value, 1, and its derivative.
    Case("special.comb_repetition",
         lambda np, n, k: special(np).comb(n, k, repetition=True),
         pairs((1.0, 5.0), (0.25, 4.0))),
    # The derivative in the exponent x is not implemented (an error; tests/test_errors.py).
    # The second derivative is compared in double precision with x as drawn; with a float32
    # x the two sides round differently (3e-6 relative, found by the explore profile).
    Case("special.zeta", lambda np, x, q: special(np).zeta(x, q),
         pairs((1.5, 5.0), (0.3, 4.0)), diff=(1,), order=2, rtol=1e-5),
    # Riemann's zeta (no q), below x = 1 too, where JAX has none: mpmath's values. It has
    # no derivative (in x, as zeta above).
    Case("special.riemann_zeta", lambda np, x: special(np).zeta(x),
         values(-4.5, 6.0, lambda dtype: floats(-4.5, 0.75, dtype) | floats(1.25, 6.0, dtype)),
         differentiable=False, jax_fun=_mpmath_zeta),
    Case("special.gammainc", lambda np, a, x: special(np).gammainc(a, x),
         pairs((0.5, 5.0), (0.05, 8.0)), costly_oracle=True),
    Case("special.gammainc_in_x", lambda np, a, x: special(np).gammainc(a, x),
         pairs((0.5, 5.0), (0.05, 8.0)), diff=(1,), order=2),
    Case("special.gammaincc", lambda np, a, x: special(np).gammaincc(a, x),
         pairs((0.5, 5.0), (0.05, 8.0))),
    # The second derivative is compared in double precision, but a and b stay as drawn:
    # with float32 ones, both sides' betaln(a, b) round like float32.
    Case("special.betainc", lambda np, a, b, x: special(np).betainc(a, b, x),
         several((0.5, 4.0), (0.5, 4.0), (0.05, 0.95)), diff=(2,), order=2, rtol=1e-6),
    _unary("erfcinv", 0.05, 1.95),
    _unary("erfcx", -2.0, 5.0, order=2),
    _unary("dawsn", -4.0, 4.0, order=2),
    # JAX's second derivative of C is 0 at x = 1, not -pi: non-integers here; at integers,
    # tests/test_oracle_regressions.py.
    Case("special.fresnel", lambda np, x: special(np).fresnel(x),
         values(-3.0, 3.0, _non_integers(-3.0, 3.0)), order=2),
    Case("special.sici", lambda np, x: special(np).sici(x), values(0.1, 8.0), order=2),
    _unary("expi", -3.0, 3.0, exclude_zero=True, order=2),
    _unary("exp1", 0.1, 4.0, order=2),
    # SciPy computes expn in double precision; JAX (and funcgrad) keep single precision.
    Case("special.expn", lambda np, x, order: special(np).expn(order, x),
         with_order(0.2, 4.0, st.integers(0, 3)),
         jax_fun=lambda x, order: _exponential_integral(order, x), order=2),
    # JAX's derivative of spence is nan above 1 and 0 at 1 (it is log(x) / (1 - x), -1 at
    # 1): checked on (0, 1) here, elsewhere by tests/test_oracle_regressions.py.
    _unary("spence", 0.05, 0.95, order=2),
    # JAX's owens_t returns double precision for single precision arguments.
    Case("special.owens_t", lambda np, h, a: special(np).owens_t(h, a),
         pairs((-3.0, 3.0), (-2.0, 2.0)),
         jax_fun=lambda h, a: jax.scipy.special.owens_t(h, a).astype(jnp.result_type(h, a))),
    # Derivatives in the parameters are not implemented (an error; tests/test_errors.py).
    # As for zeta: float32 a and b round both sides' second derivatives differently (1e-6).
    Case("special.hyp1f1", lambda np, a, b, x: special(np).hyp1f1(a, b, x),
         several((0.5, 3.0), (0.5, 3.0), (-2.0, 2.0)), diff=(2,), order=2, rtol=1e-5),
    Case("special.hyp2f1", lambda np, a, b, c, x: special(np).hyp2f1(a, b, c, x),
         several((0.5, 2.0), (0.5, 2.0), (1.0, 3.0), (-0.9, 0.9)), diff=(3,)),
    Case("special.boxcox", lambda np, x, lmbda: special(np).boxcox(x, lmbda),
         box_cox_args(0.05, 8.0), order=2),
    Case("special.boxcox1p", lambda np, x, lmbda: special(np).boxcox1p(x, lmbda),
         box_cox_args(-0.9, 6.0), order=2),
    # SciPy computes float32 in double precision; JAX and funcgrad give complex64.
    Case("special.wofz", lambda np, z: special(np).wofz(z), faddeeva_args(),
         jax_fun=jax.scipy.special.wofz, order=2),
    Case("special.sph_harm_y",
         lambda np, theta, phi, n, m: special(np).sph_harm_y(n, m, theta, phi),
         spherical_harmonic_args(), jax_fun=_jax_sph_harm_y, order=2, costly_oracle=True),
    _binary("kl_div", (0.0, 3.0), (0.1, 3.0), order=2),
    _binary("rel_entr", (0.0, 3.0), (0.1, 3.0), order=2),
    # JAX's Bernoulli numbers are rounded to single precision: exact ones from mpmath.
    Case("special.bernoulli", lambda np, n: special(np).bernoulli(n), st.integers(0, 12).map(
        lambda n: ((), {"n": n})), differentiable=False,
         jax_fun=lambda n: numpy.array([float(mpmath.bernoulli(k)) for k in range(n + 1)])),
    _unary("j0", 0.1, 10.0, order=2),
    _unary("j1", 0.1, 10.0, order=2),
    _with_order("jn", 0.1, 10.0, st.integers(0, 4), order=2),
    Case("special.bessel_jn", lambda np, x, order: special(np).bessel_jn(x, v=order),
         with_order(0.1, 8.0, st.integers(0, 3)),
         jax_fun=lambda x, order: _JAX_SPECIAL.bessel_jn(x, v=order)),
    # Y_n has a logarithmic singularity at 0: away from it.
    _unary("y0", 0.2, 10.0, order=2),
    _unary("y1", 0.2, 10.0, order=2),
    _with_order("yn", 0.2, 10.0, st.integers(0, 4), order=2),
    _with_order("iv", -6.0, 6.0, st.integers(0, 3), order=2),
    # I_v of a non-integer order is real for x >= 0 only, and x**v near 0.
    _with_order("iv", 0.1, 6.0, st.sampled_from([0.5, 2.5, -1.5]), order=2,
                suffix="_non_integer_order"),
    # ive(0, x) = exp(-|x|) I0(x) has a corner at 0.
    _with_order("ive", -6.0, 6.0, st.integers(0, 3), exclude_zero=True),
    _with_order("ive", 0.1, 6.0, st.sampled_from([0.5, 2.5]), order=2,
                suffix="_non_integer_order"),
]
