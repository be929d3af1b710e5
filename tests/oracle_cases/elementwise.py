"""Oracle cases: elementwise functions (NumPy's ufuncs and their relatives).

Every function has a first-order case over its whole domain, edges included (zeros, ties,
poles, NaN and infinities where JAX defines a convention); Python scalars on either side
and zero-dimensional arrays get grouped cases of their own. Most cases draw from one
shape (two that broadcast into each other) in mixed float32/float64 (`values`), which
keeps JAX's compilations, and so the runtime, low; add, subtract and multiply keep the
general strategies. Second derivatives are checked per family, several functions per case.
Where JAX's derivative is wrong (i0'' at 0, ldexp' at 0, hypot'' at |x| == |y|) the cases
avoid that point and tests/test_elementwise_edges.py checks the true value.
"""
import hypothesis.strategies as st
import jax.numpy as jnp
import numpy as np

from oracle import Case, array, broadcasting, dtypes, floats, unary

# Rules are shape-agnostic, so most cases draw one shape (two that broadcast into each
# other, for binary functions): every new shape or dtype costs JAX a compilation.
# Zero-dimensional arrays are covered per family, and the general strategies still
# run for the arithmetic operators.
_SHAPE = (2, 3)
_SHAPE_PAIR = ((2, 1), (3,))  # each side is broadcast: a new leading axis, a size-1 axis
_DTYPE_PAIRS = [(np.float64, np.float32), (np.float32, np.float64), (np.float32, np.float32)]


@st.composite
def values(draw, count=1, low=-3.0, high=3.0, exclude_zero=False, special=(), ints=(),
           shapes=None, gap=0.0):
    """``count`` float arrays (two broadcasting shapes, mixed float32/float64).

    ``special`` values (NaN, infinities) are mixed in; the positions in ``ints`` get integer
    arrays in [-3, 3] instead (exponents, constants). With ``gap``, no value is closer than
    that to 0 but 0 itself (tiny values underflow in JAX's formulas).
    """
    shapes = shapes or ((_SHAPE,) if count == 1 else _SHAPE_PAIR + (_SHAPE,) * (count - 2))
    kinds = (draw(dtypes()),) if count == 1 else draw(st.sampled_from(_DTYPE_PAIRS))
    result = []
    for i, shape in enumerate(shapes):
        if i in ints:
            result.append(draw(array(shape, np.int64, elements=st.integers(-3, 3))))
            continue
        dtype = kinds[i % len(kinds)]
        elements = None
        if gap:
            elements = st.one_of(away_from_zero(low, high, gap, dtype),
                                 st.integers(int(np.ceil(low)), int(np.floor(high))).map(float))
        if special:
            elements = st.one_of(floats(low, high, dtype, exclude_zero),
                                 st.integers(int(np.ceil(low)), int(np.floor(high))).map(float),
                                 st.sampled_from(special))
        result.append(draw(array(shape, dtype, low, high, exclude_zero, elements)))
    return tuple(result), {}


def away_from_zero(low, high, gap, dtype, include_zero=True):
    """Floats in [low, high] at least ``gap`` from 0, and 0 itself if ``include_zero``."""
    sides = [floats(low, -gap, dtype), floats(gap, high, dtype)]
    return st.one_of(*sides, *([st.just(0.0)] if include_zero else []))


@st.composite
def sparse_near_zero(draw, low=-3.0, high=3.0, gap=0.05, include_zero=True):
    """One array avoiding tiny non-zero values (where JAX's formulas lose all accuracy)."""
    dtype = draw(dtypes())
    elements = away_from_zero(low, high, gap, dtype, include_zero)
    return (draw(array(_SHAPE, dtype, elements=elements)),), {}


@st.composite
def complex_values(draw, low=-3.0, high=3.0, special=()):
    """One complex64 or complex128 array; parts are often 0, so some elements are real, and
    never tiny (their squares underflow, to different results in JAX)."""
    dtype = draw(st.sampled_from([np.complex128, np.complex64]))
    part = np.float64 if dtype == np.complex128 else np.float32
    shape = _SHAPE
    elements = st.one_of(away_from_zero(low, high, 1e-3, part), st.sampled_from((0.0,) + special))
    parts = [draw(array(shape, part, elements=elements)) for _ in range(2)]
    z = np.empty(shape, dtype)
    z.real, z.imag = parts  # not parts[0] + 1j * parts[1]: inf * 1j has a NaN real part
    return (z,), {}


NAN_INF = (np.nan, np.inf, -np.inf)


def _off_jumps(args):
    """No x / y that is an integer while y is not: the remainder jumps there, and JAX's
    compiled x / y (a product with 1 / y) can round to just below the integer, taking the
    other side's derivative (x = y = 0.298 in float32: JAX's d/dy 0, funcgrad's -1)."""
    (x, y), _ = args
    quotient = np.asarray(x, np.float64) / np.asarray(y, np.float64)
    return not np.any((quotient == np.round(quotient)) & (np.round(y) != y))


def remainder_args():
    return values(2, exclude_zero=True).filter(_off_jumps)


def in_float64(fun):
    """JAX's version of a case whose NumPy result is float64 whatever its inputs (JAX keeps
    float32), so that the two agree on the output dtype."""
    return lambda *args: fun(jnp, *(jnp.asarray(a, jnp.float64) for a in args))


def unary_case(name, fun=None, low=-3.0, high=3.0, **kwargs):
    """The case of ``np.<name>(x)`` over [low, high] (both ends and 0 included)."""
    fun = fun or (lambda np, x: getattr(np, name)(x))
    return Case(name, fun, kwargs.pop("args", values(low=low, high=high)), **kwargs)


def alias_case(name, alias, low=-3.0, high=3.0, **kwargs):
    """One case for a function and NumPy 2's other name for it."""
    return unary_case(name, lambda np, x: (getattr(np, name)(x), getattr(np, alias)(x)),
                      low, high, **kwargs)


# ---- unary smooth functions ------------------------------------------------------------

UNARY = [
    unary_case("negative", lambda np, x: (np.negative(x), -x)),
    unary_case("positive"),
    unary_case("exp", args=unary()),
    unary_case("exp2"),
    unary_case("expm1"),
    unary_case("log", low=0.0, high=5.0),
    unary_case("log2", low=0.0, high=5.0),
    unary_case("log10", low=0.0, high=5.0),
    unary_case("log1p", low=-1.0, high=4.0),
    unary_case("sin", args=unary()),
    unary_case("cos"),
    unary_case("tan", low=-1.5, high=1.5),
    alias_case("arcsin", "asin", low=-1.0, high=1.0),
    alias_case("arccos", "acos", low=-1.0, high=1.0),
    alias_case("arctan", "atan"),
    unary_case("sinh"),
    unary_case("cosh"),
    unary_case("tanh"),
    alias_case("arcsinh", "asinh"),
    alias_case("arccosh", "acosh", low=1.0, high=4.0),
    # At the poles +-1, JAX's float32 derivative flushes a tiny cotangent to 0 (NaN, not inf).
    alias_case("arctanh", "atanh", low=-0.99, high=0.99),
    unary_case("sqrt", low=0.0, high=5.0),
    unary_case("cbrt"),
    unary_case("square"),
    unary_case("reciprocal"),
    alias_case("deg2rad", "radians"),
    alias_case("rad2deg", "degrees"),
    unary_case("sinc", args=sparse_near_zero(), order=2),
    # JAX's second derivative of i0 at 0 is 0 (it is 1/2): checked without zeros.
    unary_case("i0"),
    unary_case("i0_second_order", lambda np, x: np.i0(x), order=2,
               args=sparse_near_zero(include_zero=False)),
]

SECOND_ORDER = [
    Case("exp_log_family_second_order",
         lambda np, x: (np.exp(x), np.exp2(x), np.expm1(x), np.log(x), np.log1p(x), np.sqrt(x),
                        np.cbrt(x), np.square(x), np.reciprocal(x)),
         values(low=0.1, high=3.0), order=2),
    Case("trig_family_second_order",
         lambda np, x: (np.sin(x), np.cos(x), np.tan(x), np.arcsin(x), np.arctan(x),
                        np.tanh(x), np.arcsinh(x), np.arctanh(x), np.arccosh(x + 2.0)),
         values(low=-0.9, high=0.9), order=2),
    # (hypot's Hessian is checked in tests/test_elementwise_edges.py: JAX's is off at ties.)
    Case("binary_family_second_order",
         lambda np, x, y: (np.arctan2(x, y), np.logaddexp(x, y)),
         values(2, low=0.1, high=3.0), order=2),
    # Piecewise-linear functions: second derivatives vanish, also at kinks and ties.
    Case("piecewise_family_second_order",
         lambda np, x, y: (np.abs(x), np.maximum(x, y), np.fmin(x, y), np.remainder(x, y),
                           np.copysign(x, y), np.floor(x) * x),
         values(2, gap=0.1), order=2),
    Case("power_edges_second_order",
         lambda np, x: (x ** 0, x ** 1, x ** 2, x ** 3, np.power(x, 2.0), x ** -1),
         values(exclude_zero=True), order=2),
]

# ---- absolute value, signs, rounding: kinks and zero derivatives --------------------------

PIECEWISE = [
    unary_case("absolute", lambda np, x: (np.absolute(x), np.abs(x), abs(x))),
    unary_case("fabs"),
    Case("sign", lambda np, x: np.sign(x) * x, values()),
    Case("floor", lambda np, x: np.floor(x) * x, values()),
    Case("ceil", lambda np, x: np.ceil(x) * x, values()),
    Case("rint", lambda np, x: np.rint(x) * x, values()),
    Case("trunc", lambda np, x: np.trunc(x) * x, values()),
    # jax.numpy.fix is gone (JAX 0.10): fix is trunc.
    Case("fix", lambda np, x: np.fix(x) * x, values(), jax_fun=lambda x: jnp.trunc(x) * x),
    Case("round", lambda np, x: (np.round(x) * x, np.round(x, 1), np.around(x, decimals=2),
                                 x.round(1)), values()),
    Case("copysign", lambda np, x, y: np.copysign(x, y), values(2)),
    Case("copysign_signed_zeros", lambda np, x: np.copysign(x, -0.0) + np.copysign(-x, 0.0),
         values()),
    Case("heaviside", lambda np, x, h: np.heaviside(x, h) * x + np.heaviside(x, h), values(2)),
]

# ---- binary ------------------------------------------------------------------------------

BINARY = [
    Case("add", lambda np, x, y: np.add(x, y), broadcasting()),
    Case("subtract", lambda np, x, y: x - y, broadcasting()),
    Case("multiply", lambda np, x, y: x * y, broadcasting(), order=2),
    Case("divide", lambda np, x, y: (x / y, np.true_divide(x, y)),
         values(2, exclude_zero=True), order=2),
    Case("power", lambda np, x, y: (np.power(x, y), np.pow(x, y)),
         values(2, low=0.1, high=3.0), order=2),
    Case("power_zero_base", lambda np, x, y: np.power(x, y), values(2, low=0.0, high=3.0)),
    Case("power_negative_base_integer_exponent",
         lambda np, x, y: np.power(x, np.round(y)), values(2)),
    Case("power_integer_exponent_array", lambda np, x, n: np.power(x, n) + x ** np.abs(n),
         values(2, ints=(1,)), jax_fun=lambda x, n: (  # NumPy promotes float32 ** int64
             jnp.power(jnp.asarray(x, jnp.float64), n) + jnp.asarray(x, jnp.float64) ** abs(n))),
    Case("power_int_exponent", lambda np, x: x ** 3, unary(), order=2),
    Case("power_negative_base_square", lambda np, x: x ** 2.0, unary()),
    Case("float_power", lambda np, x, y: np.float_power(x, y), values(2, low=0.0, high=3.0),
         jax_fun=in_float64(lambda np, x, y: np.float_power(x, y))),
    Case("arctan2", lambda np, x, y: (np.arctan2(x, y), np.atan2(x, y)), values(2)),
    Case("hypot", lambda np, x, y: np.hypot(x, y), values(2, gap=1e-3)),
    Case("logaddexp", lambda np, x, y: np.logaddexp(x, y), values(2)),
    Case("logaddexp2", lambda np, x, y: np.logaddexp2(x, y), values(2)),
    Case("logaddexp_infinities", lambda np, x, y: (np.logaddexp(x, y), np.logaddexp2(x, y)),
         values(2, special=(np.inf, -np.inf))),
    Case("maximum", lambda np, x, y: np.maximum(x, y), values(2)),
    Case("minimum", lambda np, x, y: np.minimum(x, y), values(2)),
    Case("maximum_minimum_nan", lambda np, x, y: (np.maximum(x, y), np.minimum(x, y)),
         values(2, special=(np.nan,))),
    Case("fmax", lambda np, x, y: np.fmax(x, y), values(2, special=(np.nan,))),
    Case("fmin", lambda np, x, y: np.fmin(x, y), values(2, special=(np.nan,))),
    Case("clip", lambda np, x: np.clip(x, -1.0, 1.0), values()),
    Case("clip_one_sided", lambda np, x: np.clip(x, None, 1.0) + np.clip(x, min=-1.0)
         + x.clip(max=2.0), values()),
    Case("clip_traced_bounds", lambda np, x, lo, hi: np.clip(x, lo, lo + np.abs(hi)),
         values(3)),
    Case("remainder", lambda np, x, y: (np.remainder(x, y), np.mod(x, y), x % y),
         remainder_args()),
    Case("fmod", lambda np, x, y: np.fmod(x, y), remainder_args()),
    Case("floor_divide", lambda np, x, y: np.floor_divide(x, y) * x + x // y,
         values(2, exclude_zero=True)),
    Case("divmod", lambda np, x, y: np.divmod(x, y), remainder_args()),
    # JAX's ldexp has slope 1 at x == 0 (it is 2**n): zeros are left out.
    Case("ldexp", lambda np, x, n: np.ldexp(x, n), values(2, ints=(1,), exclude_zero=True)),
    Case("frexp", lambda np, x: np.frexp(x), values(special=(0.0,))),
    Case("modf", lambda np, x: np.modf(x), values()),
]

# Python scalars on either side (weakly typed: a float32 array stays float32).
PYTHON_SCALARS = [
    Case("arithmetic_python_scalars", lambda np, x: (2.5 + x + 1, 1.5 - x, x * 2, 1.5 / x,
                                                     x / 4, x ** 2.5, 2.0 ** x),
         values(low=0.25, high=3.0)),
    Case("power_python_integer_exponents",
         lambda np, x: (x ** 0, x ** 1, x ** 2, x ** -1, np.power(x, 3)),
         values(low=0.0, high=3.0)),
    Case("binary_functions_python_scalars",
         lambda np, x: (np.arctan2(x, 2.0), np.arctan2(-1.0, x), np.hypot(x, 0.0),
                        np.logaddexp(0.5, x),
                        np.maximum(x, 0.0), np.minimum(0, x), np.fmax(x, 1.0),
                        np.fmin(1.0, x), np.copysign(x, -1.0), np.copysign(2.0, x),
                        np.heaviside(x, 0.5)),
         values(gap=0.25)),
    Case("division_python_scalars",
         lambda np, x: (x % 0.7, 2.5 % x, np.fmod(2.5, x), x // 0.7, np.ldexp(x, 3)),
         values(exclude_zero=True)),
    Case("float_power_python_scalars",
         lambda np, x: np.float_power(x, 2) + np.float_power(1.5, x), values(),
         jax_fun=in_float64(lambda np, x: np.float_power(x, 2) + np.float_power(1.5, x))),
]

# ---- replacing values, selecting, and predicates (boolean results are constants) ----------

PREDICATES = [
    Case("nan_to_num", lambda np, x: (np.nan_to_num(x), np.nan_to_num(
        x, nan=1.5, posinf=2.0, neginf=-2.0) * x), values(special=NAN_INF)),
    Case("nan_to_num_complex", lambda np, z: np.nan_to_num(z, nan=1.0, posinf=5.0),
         complex_values(special=NAN_INF)),
    Case("where", lambda np, x, y: np.where(x > y, x * 2, y), values(2)),
    Case("comparisons", lambda np, x, y: np.where((x < y) | (x >= y * 2) | (x == y)
                                                  | (x != 1.0) & (x <= 0) & (y > 0), x, y),
         values(2)),
    Case("comparison_functions", lambda np, x, y: np.where(
        np.less(x, y) ^ np.less_equal(y, 0) ^ np.greater(x, 1) ^ np.greater_equal(y, x)
        ^ np.equal(x, 0) ^ np.not_equal(y, 1), x, y), values(2)),
    # On floats, so that the traced values themselves reach the logical functions.
    Case("logical", lambda np, x, y: np.where(
        np.logical_and(x, y - 1) | np.logical_or(x + 1, y) & np.logical_xor(x, y)
        | np.logical_not(x), x, y), values(2)),
    Case("isfinite_isinf_isnan", lambda np, x: np.where(np.isfinite(x), x, 0.0) + np.where(
        np.isinf(x) | np.isnan(x), 0.0, x * x), values(special=NAN_INF)),
    Case("isneginf_isposinf", lambda np, x: np.where(np.isneginf(x) | np.isposinf(x), 0.0, x),
         values(special=(np.inf, -np.inf))),
    Case("signbit", lambda np, x: np.where(np.signbit(x), -x, x * 2),
         values(special=(-0.0, 0.0))),
    Case("isreal_iscomplex", lambda np, z: np.where(np.isreal(z), z * 2, z) + np.where(
        np.iscomplex(z), z, 0), complex_values()),
    Case("isreal_of_real", lambda np, x: np.where(np.isreal(x) & ~np.iscomplex(x), x * 2, x),
         values()),
]

# ---- complex parts --------------------------------------------------------------------------

COMPLEX = [
    Case("real_imag_conj", lambda np, x: (np.real(x), np.imag(x) + x, np.conjugate(x),
                                          np.conj(x)), values()),
    Case("angle", lambda np, x: np.angle(x) + np.angle(x, deg=True), values(gap=1e-3)),
    Case("real_imag_conj_complex", lambda np, z: (np.real(z) + z.real, np.imag(z) * z.imag,
                                                  np.conjugate(z) * z), complex_values()),
    Case("angle_complex", lambda np, z: np.angle(z) + np.angle(z, deg=True), complex_values()),
    Case("absolute_complex", lambda np, z: np.abs(z), complex_values()),
    Case("holomorphic_complex",
         lambda np, z: (np.exp(z), np.log(z + 4), z ** 3 / (z + 4)), complex_values(),
         order=2),
    Case("holomorphic_complex_first_order",
         lambda np, z: (np.sin(z), np.tanh(z), np.sqrt(z + 4), np.reciprocal(z + 4), z * z),
         complex_values()),
]

# ---- zero-dimensional arrays, alone and broadcast against arrays ---------------------------

SCALARS = [
    Case("unary_functions_on_0d",
         lambda np, x: (np.exp(x), np.arctanh(x), np.sqrt(x), np.abs(x), np.floor(x) * x,
                        np.round(x, 1) * x, np.sinc(x), np.i0(x), np.nan_to_num(x),
                        np.imag(x) + x) + np.modf(x) + np.frexp(x)[:1],
         values(low=0.1, high=0.9, shapes=((),))),
    Case("binary_functions_on_0d",
         lambda np, x, y: (x + y, x / y, np.power(x, y), np.hypot(x, y), np.maximum(x, y),
                           np.fmin(x, y), np.remainder(x, y), np.floor_divide(x, y) * y,
                           np.heaviside(x - 1, y), np.clip(x, y - 1, y)),
         values(2, low=0.0, high=3.0, exclude_zero=True, shapes=((), ()))),
]

CASES = UNARY + SECOND_ORDER + PIECEWISE + BINARY + PYTHON_SCALARS + PREDICATES + COMPLEX + SCALARS
