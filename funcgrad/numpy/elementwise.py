"""Elementwise functions (NumPy's ufuncs) and their derivative rules, written in funcgrad.numpy.

Each rule is given once, as a *staged linear map*: ``linear(ans, *args)`` runs in the forward
pass and returns ``v -> v * d ans / d arg`` (or None where that derivative is zero). Both
the VJP (``v`` a cotangent, summed back to the argument's shape) and the JVP (``v`` a
tangent) apply it: for elementwise real or holomorphic functions the two maps are the same
multiplication, because JAX transposes without conjugating. Slopes that are constants
(masks: which argument wins a maximum, the sign of abs) are computed once, with NumPy, on
the raw values.

Rounding, integer division, ``sinc``, ``i0`` and other special cases live in
``elementwise_special``.
"""
import inspect
import math

import numpy as np

from ..core import (NO_PARAMS, ArgVJP, Box, Primitive, as_dtype, errors, strip_derivatives,
                   unbox_all)
from ._base import astype, as_computed, broadcast_to_p, chunked_like, real, unbroadcast
from ._batching import elementwise as batch_elementwise
from ._batching import may_hold
from ._diagonal import elementwise as diagonal_elementwise
from ._rules import (aval, defbatch, defdiagonal, defjvp, defvjp, dtype_of, primitive,
                     reject_out, shape_of)

# ---- ufunc primitives ----------------------------------------------------------------

# The keyword arguments every ufunc takes, at the values that change nothing.
_UFUNC_DEFAULTS = {"out": None, "where": True, "casting": "same_kind", "order": "K",
                   "dtype": None, "subok": True, "signature": None}


class Ufunc(Primitive):
    """A primitive that is a NumPy ufunc.

    Untraced calls are NumPy's own, keywords (``out=``, ``where=``, ...) included. Traced
    calls take just the operands: an output buffer or a ``where=`` mask would hold values
    outside the derivative's reach, so they raise a TypeError that says what to do instead.
    """

    __slots__ = ("nin",)

    def __init__(self, ufunc, name=None, multiple_results=False, register=True):
        super().__init__(name or ufunc.__name__, ufunc, multiple_results, register)
        self.nin = ufunc.nin
        self.batch_rule = batch_elementwise
        if not multiple_results:
            defdiagonal(self, diagonal_elementwise)

    def traced_keywords(self, args, kwargs):
        """The params of a traced call: none, once the keywords are found to change nothing
        (else a TypeError saying what to do instead)."""
        name = f"funcgrad.numpy.{self.name}"
        if len(args) > self.nin:  # the extra one is an output buffer, given positionally
            reject_out(args[self.nin], self.name)
        if len(args) < self.nin:
            raise TypeError(f"{name} takes {self.nin} array argument(s) but got {len(args)}")
        reject_out(kwargs.get("out"), self.name)
        for key, value in kwargs.items():
            if key not in _UFUNC_DEFAULTS:
                raise TypeError(f"{name} got an unexpected keyword argument {key!r}")
            default = _UFUNC_DEFAULTS[key]
            if not (value is default or (isinstance(default, str) and value == default)):
                raise TypeError(
                    f"{name}: {key}= is not supported on traced values (it would put values "
                    f"out of the derivative's reach). Leave it out and use the returned array; "
                    f"instead of where=mask write funcgrad.numpy.where(mask, result, other), "
                    f"and instead of dtype= cast the operands with .astype().")
        return NO_PARAMS


# ---- rule helpers --------------------------------------------------------------------


class Slope:
    """A linear map ``v -> v * d ans / d arg`` for one argument of an elementwise function,
    in two halves: ``save(ans, *args) -> residuals`` runs in the forward pass,
    ``apply(v, *residuals)`` (None: a zero map) maps a cotangent or a tangent. `saves`
    declares the residuals where `save` computes nothing: the positions in ``(ans, *args)``
    of the values they are (None: undeclared).

    Both modes apply it: for elementwise real or holomorphic functions the VJP and the JVP
    are the same multiplication, because JAX transposes without conjugating.
    """

    __slots__ = ("save", "apply", "saves")

    def __init__(self, save, apply, saves=None):
        self.save = save
        self.apply = apply
        self.saves = saves


def slope_of(apply, arg_names):
    """The Slope whose `apply(v, ...)` names the values it needs after the cotangent:
    ``ans`` and the names in `arg_names` (the function's arguments, in order), e.g.
    ``lambda v, x: v * cos(x)`` saves x, ``lambda v, ans: v * ans`` saves the output."""
    if isinstance(apply, Slope):
        return apply
    names = tuple(inspect.signature(apply).parameters)[1:]
    sources = ("ans",) + tuple(arg_names)
    unknown = [name for name in names if name not in sources]
    if unknown:
        raise TypeError(f"slope {apply.__name__} names {unknown}, which are not among "
                        f"{sources}")
    positions = tuple(sources.index(name) for name in names)
    return Slope(_picker(positions), apply, positions)


def _picker(positions):
    """``save(ans, *args)`` returning the values at `positions` of ``(ans, *args)``."""
    if positions == ():
        return _save_nothing
    if positions == (0,):
        return _save_ans
    if positions == (1,):
        return _save_first
    if positions == (2,):
        return _save_second

    def save(ans, *args):
        values = (ans,) + args
        return tuple([values[i] for i in positions])
    return save


def _save_nothing(ans, *args):
    return ()


def _save_ans(ans, *args):
    return (ans,)


def _save_first(ans, x, *args):
    return (x,)


def _save_second(ans, x, y, *args):
    return (y,)


def _identity(v):
    return v


def _zero(v):
    return None


IDENTITY = Slope(_save_nothing, _identity, ())
# The slope of a function that is constant almost everywhere (rounding, sign): zero.
ZERO_SLOPE = Slope(_save_nothing, _zero, ())


def _from_values_impl(*values, compute, dtype):
    constant = compute(*values)
    if type(constant) is not np.ndarray:
        return as_dtype(constant, dtype)
    if constant.dtype != dtype:  # (a mask, most often) cast: a new array
        return constant.astype(dtype)
    # Memory of its own (see from_values_p): a compute that returned an argument, or a
    # view (of an argument, maybe), is copied. NumPy's operations return new arrays.
    if constant.base is not None or any([constant is value for value in values]):
        return constant.copy()
    return constant


# A constant that a rule computes with NumPy from raw values, as a primitive of its own
# (with no derivative): under jit it is an equation of the program, computed again on
# every run, rather than a value read from one run (a guard). Its result is memory of its
# own, so jit may reuse the buffers it reads (a ReLU's mask reads the pre-activation).
from_values_p = Primitive("from_values", _from_values_impl, register=False, allocates=True)


def constant_from_values(compute, dtype, *args):
    """``compute(*raw values of args)`` as a `dtype` array that carries no derivative."""
    values = [strip_derivatives(arg) for arg in args]
    if any(isinstance(value, Box) and value._trace.batches for value in values):
        # A batch (vmap): `compute`'s NumPy calls on the batch's boxes batch themselves,
        # giving one constant per element of the batch.
        constant = compute(*values)
        return (astype(constant, dtype) if isinstance(constant, Box)
                else as_dtype(constant, dtype))
    return from_values_p(*values, compute=compute, dtype=dtype)


def constant_slope(compute):
    """The Slope multiplying by a constant computed once, in the forward pass, from the
    raw values: ``compute(ans, *args)`` (a mask choosing an argument, a sign, ...)."""
    def save(ans, *args):
        return (constant_from_values(compute, dtype_of(ans), ans, *args),)
    return Slope(save, _times_constant)


def _times_constant(v, constant):
    return v * constant


def replace_where(mask, replacement, value):
    """``value`` with ``replacement`` where the raw ``mask`` holds (no op if nowhere)."""
    return _where(mask, replacement, value) if may_hold(mask) else value


class ElementwiseVJP:
    """The VJP of a broadcasting elementwise function, assembled once from one Slope per
    argument (`rules`; None: not differentiable). Each wanted argument saves its slope's
    residuals and its shape and dtype; its cotangent is the slope applied to ``g``, with
    broadcasting and type promotion undone (`unbroadcast`).

    The residuals are one flat tuple, those three values an argument (three Nones for one
    not wanted or of zero slope): a tuple of tuples would stay on the cyclic collector's
    lists for a collection more a level, which compat's eager tape, holding nodes for as
    long as the program keeps their results, would pay for on every operation."""

    __slots__ = ("name", "rules", "as_given")

    def __init__(self, name, slopes, as_given):
        self.name = name
        self.rules = slopes
        self.as_given = as_given

    def save(self, ans, args, params, wanted):
        rules = self.rules
        computed = args if self.as_given else as_computed(ans, args)
        # two arguments, the common case, without a loop (~0.3 us less a product by a number)
        if len(wanted) == 2 == len(rules):
            return (self._residual(rules[0], 0, ans, args, computed, wanted[0])
                    + self._residual(rules[1], 1, ans, args, computed, wanted[1]))
        residuals = ()
        for argnum, (slope, want) in enumerate(zip(rules, wanted)):
            # (an argument not wanted, most of where's, without a call: ~0.15 us each)
            residuals += (_NOTHING if want is None
                          else self._residual(slope, argnum, ans, args, computed, want))
        return residuals

    def _residual(self, slope, argnum, ans, args, computed, want):
        """What argument `argnum`'s cotangent needs: its slope's residuals, from the
        arguments as NumPy `computed` with them (`as_computed`), and the argument's own
        shape and dtype (Nones for an argument not wanted or of zero slope)."""
        if want is None or slope is ZERO_SLOPE:
            return _NOTHING
        if slope is None:
            raise errors.missing_vjp_rule(self.name, argnum)
        arg = args[argnum]
        try:  # (aval, inlined: a call fewer per traced binary operation)
            shape, dtype = arg.shape, arg.dtype
        except AttributeError:
            shape, dtype = aval(arg)
        return (slope.save(ans, *computed), shape, dtype)

    def saved_positions(self, wanted):
        """The positions in ``(ans, *args)`` of the values that the residuals for `wanted`
        hold, as the slopes declare them; None if a slope does not declare its residuals."""
        positions = ()
        for slope, want in zip(self.rules, wanted):
            if want is not None and slope is not ZERO_SLOPE:
                if slope is None or slope.saves is None:
                    return None
                positions += slope.saves
        return positions

    def backward(self, residuals, params, g):
        rules = self.rules
        if len(residuals) == 6 and len(rules) == 2:  # two arguments (as in `save`)
            saved_x, shape_x, dtype_x, saved_y, shape_y, dtype_y = residuals
            return (None if shape_x is None
                    else _cotangent(rules[0], saved_x, shape_x, dtype_x, g),
                    None if shape_y is None
                    else _cotangent(rules[1], saved_y, shape_y, dtype_y, g))
        cotangents = []
        for start in range(0, len(residuals), 3):  # (indexed, not sliced: ~0.2 us an argument)
            shape = residuals[start + 1]
            cotangents.append(None if shape is None else _cotangent(
                rules[start // 3], residuals[start], shape, residuals[start + 2], g))
        return cotangents


# An argument's residuals when it is not wanted or its slope is zero (no shape: no
# cotangent).
_NOTHING = (None, None, None)


def _cotangent(slope, saved, shape, dtype, g):
    """An argument's cotangent from the output's `g`: its slope applied to `g` and its
    residuals `saved`, with broadcasting and type promotion undone."""
    v = g if slope is IDENTITY else slope.apply(g, *saved)
    return None if v is None else unbroadcast(v, shape, dtype)


def _elementwise_jvp(slope, as_given):
    def rule(t, ans, *args):
        v = slope.apply(t, *slope.save(ans, *(args if as_given else as_computed(ans, args))))
        return None if v is None else _fit(v, ans)
    return rule


def _fit(tangent, ans):
    """A JVP contribution with the output's shape and dtype (it may lack broadcasting)."""
    shape, dtype = shape_of(ans), dtype_of(ans)
    if shape_of(tangent) != shape:
        tangent = broadcast_to_p(tangent, shape=shape)
    if dtype_of(tangent) != dtype:
        tangent = astype(tangent, dtype)
    return tangent


_ARG_NAMES = {1: ("x",), 2: ("x", "y"), 3: ("condition", "x", "y")}


def define_rules(prim, *slopes, as_given=False):
    """Give elementwise `prim` its VJP and JVP rules from one slope per argument: a Slope
    or a function naming what it needs (`slope_of`); None leaves that argument
    non-differentiable (an integer exponent, say). The slopes see the arguments as NumPy
    computed with them (`as_computed`), or `as_given` where they only multiply or divide
    by them (arithmetic NumPy does at the result's precision itself, on lists too): the
    four hottest operations skip the check."""
    slopes = [None if s is None else slope_of(s, _ARG_NAMES[len(slopes)]) for s in slopes]
    prim.vjp = ElementwiseVJP(prim.name, slopes, as_given)
    defjvp(prim, *(None if s is None else _elementwise_jvp(s, as_given) for s in slopes))


def unary_rules(prim, slope):
    """Rules of a real or holomorphic function of one argument, from its slope (a Slope or
    a function naming what it needs, e.g. ``lambda v, x: v * cos(x)``).

    Its cotangent and tangent already have the argument's shape and dtype, so the slope is
    the whole VJP: one call per backward step."""
    slope = slope_of(slope, ("x",))
    defvjp(prim, ArgVJP(slope.save, slope.apply, slope.saves))
    defjvp(prim, lambda t, ans, x: slope.apply(t, *slope.save(ans, x)))


# ---- unary ---------------------------------------------------------------------------

negative = Ufunc(np.negative)
positive = Ufunc(np.positive)
exp = Ufunc(np.exp)
exp2 = Ufunc(np.exp2)
expm1 = Ufunc(np.expm1)
log = Ufunc(np.log)
log2 = Ufunc(np.log2)
log10 = Ufunc(np.log10)
log1p = Ufunc(np.log1p)
sin = Ufunc(np.sin)
cos = Ufunc(np.cos)
tan = Ufunc(np.tan)
arcsin = Ufunc(np.arcsin)
arccos = Ufunc(np.arccos)
arctan = Ufunc(np.arctan)
sinh = Ufunc(np.sinh)
cosh = Ufunc(np.cosh)
tanh = Ufunc(np.tanh)
arcsinh = Ufunc(np.arcsinh)
arccosh = Ufunc(np.arccosh)
arctanh = Ufunc(np.arctanh)
sqrt = Ufunc(np.sqrt)
cbrt = Ufunc(np.cbrt)
square = Ufunc(np.square)
reciprocal = Ufunc(np.reciprocal)
deg2rad = Ufunc(np.deg2rad)
rad2deg = Ufunc(np.rad2deg)
absolute = Ufunc(np.absolute)
fabs = Ufunc(np.fabs)
sign = Ufunc(np.sign)
conjugate = Ufunc(np.conjugate)
imag = primitive(np.imag)

_LN2 = float(np.log(2.0))
_LN10 = float(np.log(10.0))

# Operators rather than multiply()/true_divide() calls: on plain arrays (a first derivative)
# they go straight to NumPy, skipping a Python-level dispatch per step of the backward pass;
# on boxes (higher derivatives) they dispatch to the same primitives.
unary_rules(negative, lambda v: -v)
unary_rules(positive, lambda v: v)
unary_rules(exp, lambda v, ans: v * ans)
unary_rules(exp2, lambda v, ans: v * (ans * _LN2))
unary_rules(expm1, lambda v, ans: v * (ans + 1.0))
unary_rules(log, lambda v, x: v / x)
unary_rules(log2, lambda v, x: v / (x * _LN2))
unary_rules(log10, lambda v, x: v / (x * _LN10))
unary_rules(log1p, lambda v, x: v / (x + 1.0))
unary_rules(sin, lambda v, x: v * cos(x))
unary_rules(cos, lambda v, x: v * -sin(x))
unary_rules(tan, lambda v, ans: v * (square(ans) + 1.0))
unary_rules(arcsin, lambda v, x: v / sqrt(1.0 - square(x)))
unary_rules(arccos, lambda v, x: v / -sqrt(1.0 - square(x)))
unary_rules(arctan, lambda v, x: v / (square(x) + 1.0))
unary_rules(sinh, lambda v, x: v * cosh(x))
unary_rules(cosh, lambda v, x: v * sinh(x))
unary_rules(tanh, lambda v, ans: v * (1.0 - square(ans)))
unary_rules(arcsinh, lambda v, x: v / sqrt(square(x) + 1.0))
unary_rules(arccosh, lambda v, x: v / sqrt(square(x) - 1.0))
# (1 - x)(1 + x) rather than 1 - x**2: accurate near the poles at +-1.
unary_rules(arctanh, lambda v, x: v / ((1.0 - x) * (x + 1.0)))
unary_rules(sqrt, lambda v, ans: v * 0.5 / ans)
unary_rules(cbrt, lambda v, ans: v / (square(ans) * 3.0))
unary_rules(square, lambda v, x: v * (x * 2.0))
unary_rules(reciprocal, lambda v, ans: -(v * square(ans)))
unary_rules(deg2rad, lambda v: v * (np.pi / 180.0))
unary_rules(rad2deg, lambda v: v * (180.0 / np.pi))
unary_rules(conjugate, lambda v: conjugate(v))
define_rules(sign, ZERO_SLOPE)


def _real_abs_slope(ans, x):
    # JAX's convention: slope 1 at 0 (and at -0).
    return np.where(x >= 0, 1.0, -1.0)


def _complex_abs_direction(ans, x):
    """conj(x) / |x| (0 where x is 0, as in JAX): d|x| applied to v is Re(v conj(x) / |x|),
    so the VJP sends a real cotangent c to c conj(x) / |x|."""
    safe_ans = replace_where(unbox_all(ans) == 0, 1.0, ans)
    return true_divide(conjugate(x), safe_ans)


_real_abs = constant_slope(_real_abs_slope)


def _abs_save(ans, x):
    if dtype_of(x).kind == "c":
        return (_complex_abs_direction(ans, x),)
    return _real_abs.save(ans, x)


def _abs_jvp(t, ans, x):
    (slope,) = _abs_save(ans, x)
    product = multiply(t, slope)
    return real(product) if dtype_of(x).kind == "c" else product


defvjp(absolute, ArgVJP(_abs_save, _times_constant))
defjvp(absolute, _abs_jvp)
define_rules(fabs, _real_abs)


def _imag_save(ans, x):
    return (dtype_of(x).kind == "c",)


def _imag_pull(g, complex_x):
    return multiply(g, -1j) if complex_x else None


defvjp(imag, ArgVJP(_imag_save, _imag_pull))
defjvp(imag, lambda t, ans, x: imag(t) if dtype_of(x).kind == "c" else None)


def angle(z, deg=False):
    """``numpy.angle``: the argument of complex ``z`` (radians, or degrees with ``deg``)."""
    if not isinstance(z, Box):
        return np.angle(z, deg)
    result = arctan2(imag(z), real(z))
    return multiply(result, 180.0 / np.pi) if deg else result


# ---- binary arithmetic -----------------------------------------------------------------

add = Ufunc(np.add)
subtract = Ufunc(np.subtract)
multiply = Ufunc(np.multiply)
true_divide = Ufunc(np.true_divide)
power = Ufunc(np.power)
arctan2 = Ufunc(np.arctan2)
hypot = Ufunc(np.hypot)
logaddexp = Ufunc(np.logaddexp)
logaddexp2 = Ufunc(np.logaddexp2)


define_rules(add, IDENTITY, IDENTITY, as_given=True)
define_rules(subtract, IDENTITY, lambda v: -v, as_given=True)
define_rules(multiply, lambda v, y: v * y, lambda v, x: v * x, as_given=True)
define_rules(true_divide, lambda v, y: v / y, lambda v, ans, y: -(v * (ans / y)),
             as_given=True)


def _power_base_save(ans, x, y):
    """What v -> v y x**(y - 1) needs, with its kind first: the common x ** n is
    special-cased at no cost, and an integer exponent of 0 has slope 0 (JAX's
    convention), one of 1 slope 1."""
    python_number = type(y) in (int, float, bool)  # checked first: np.ndim is slow on them
    integer = isinstance(y, int) if python_number else dtype_of(y).kind in "iub"
    if isinstance(y, Box):  # traced: a differentiated exponent, or one vmap maps
        return "general", x, _where(y == 0, 0, y - 1) if integer else y - 1.0, y
    if python_number or np.ndim(y) == 0:
        if y == 2:
            return "square", x
        if integer and y == 0:
            return ("zero",)
        if integer and y == 1:
            return ("identity",)
        return "general", x, y - 1, y  # a Python scalar stays weakly typed (float32 too)
    # An integer y: x**0 * 0 is an exact 0 where y == 0, even at x == 0.
    return "general", x, np.where(y == 0, 0, y - 1) if integer else y - 1, y


def _power_base_apply(v, kind, *values):
    if kind == "general":
        x, exponent, y = values
        return v * (power(x, exponent) * y)
    if kind == "square":
        return v * (values[0] * 2.0)
    return v if kind == "identity" else None


def _power_exponent_save(ans, x, y):
    """v -> v log(x) x**y; JAX's convention: 0 where x is 0."""
    return replace_where(unbox_all(x) == 0, 1.0, x), ans


def _power_exponent_apply(v, safe_x, ans):
    return multiply(v, multiply(log(safe_x), ans))


define_rules(power, Slope(_power_base_save, _power_base_apply),
             Slope(_power_exponent_save, _power_exponent_apply))

# numpy.float_power's own loop, for its operands cast to float64 or complex128
# (elementwise_special.float_power): NumPy's float64 power has a SIMD loop that rounds
# differently in the last bit, so a traced call would not give the untraced call's value.
float_power_p = Ufunc(np.float_power)
define_rules(float_power_p, Slope(_power_base_save, _power_base_apply),
             Slope(_power_exponent_save, _power_exponent_apply))


def _arctan2_denominator(x, y):
    """x**2 + y**2, computed at the output's precision (the rules' arguments are promoted
    to it): a float32 x squared alone underflows where the float64 sum does not (1e-38 **
    2), which would turn the slope 0/0 into a NaN."""
    return add(square(x), square(y))


define_rules(arctan2,
             lambda v, x, y: v * true_divide(y, _arctan2_denominator(x, y)),
             lambda v, x, y: v * true_divide(negative(x), _arctan2_denominator(x, y)))


def _hypot_slope(argnum):
    def save(ans, x, y):
        mine = y if argnum else x
        zero = unbox_all(ans) == 0
        if not may_hold(zero):
            return mine, ans, None
        # hypot(0, 0): JAX's hypot(a, b) = max(|a|, |b|) there, so each side gets 1/2.
        return mine, _where(zero, 1.0, ans), zero

    def apply(v, mine, safe_ans, zero):
        ratio = true_divide(mine, safe_ans)
        return multiply(v, ratio if zero is None else _where(zero, 0.5, ratio))
    return Slope(save, apply)


define_rules(hypot, _hypot_slope(0), _hypot_slope(1))


def _logaddexp_slope(argnum, base_power, function):
    """v -> v * b**(arg - ans) for log_b(b**x + b**y); as in JAX, +inf is read as 0 there."""
    def save(ans, x, y):
        mine = y if argnum else x
        if chunked_like(ans) is not None:
            # Dask: the total again, from the inputs (swapped: the same values bit for bit,
            # under another task key). With the forward's output here, Dask's ordering ran
            # the loss's own reduction of every block last, holding each block's output
            # until then: memory growing with the rows (docs/out-of-core.md).
            ans = function(y, x)
        return (replace_where(unbox_all(mine) == np.inf, 0.0, mine),
                replace_where(unbox_all(ans) == np.inf, 0.0, ans))

    def apply(v, mine, total):
        return multiply(v, base_power(subtract(mine, total)))
    return Slope(save, apply)


define_rules(logaddexp, _logaddexp_slope(0, exp, logaddexp),
             _logaddexp_slope(1, exp, logaddexp))
define_rules(logaddexp2, _logaddexp_slope(0, exp2, logaddexp2),
             _logaddexp_slope(1, exp2, logaddexp2))

# ---- maximum and minimum ---------------------------------------------------------------

maximum = Ufunc(np.maximum)
minimum = Ufunc(np.minimum)
fmax = Ufunc(np.fmax)
fmin = Ufunc(np.fmin)


def _chooser_slope(argnum):
    """1 where this argument is the result, 1/2 where both are (JAX splits ties), else 0;
    0 for both where the result is NaN."""
    def compute(ans, x, y):
        mine, other = (y, x) if argnum else (x, y)
        wins = mine == ans
        ties = mine == other  # where both are the result (NaN == NaN is False: no tie)
        # count_nonzero is NumPy's cheapest "any" (0.4 us; np.any and .any() cost 1-3 us).
        # Ties are rare, so the 1/2 is written only where needed.
        if not may_hold(ties):
            return wins
        if type(wins) is np.ndarray:
            # In the result's dtype at once, as constant_slope casts it (0.5 to an integer
            # or bool as astype does): np.where of a bool and a float, then the cast, cost
            # 3x as much (7.6 against 2.4 us on a float32 ReLU's (64, 100)).
            share = wins.astype(dtype_of(ans))
            np.copyto(share, 0.5, casting="unsafe", where=ties)
            return share
        return np.where(ties, 0.5, wins)  # a NumPy bool, or a batch (vmap)
    return constant_slope(compute)


def _nan_ignoring_slope(argnum, wins):
    """As JAX's fmax/fmin: all to x where it wins or y is NaN, else all to y (ties too)."""
    def compute(ans, x, y):
        to_x = wins(x, y) | np.isnan(y)
        return np.logical_not(to_x) if argnum else to_x
    return constant_slope(compute)


define_rules(maximum, _chooser_slope(0), _chooser_slope(1))
define_rules(minimum, _chooser_slope(0), _chooser_slope(1))
define_rules(fmax, _nan_ignoring_slope(0, np.greater), _nan_ignoring_slope(1, np.greater))
define_rules(fmin, _nan_ignoring_slope(0, np.less), _nan_ignoring_slope(1, np.less))


def clip(a, a_min=None, a_max=None, out=None, *, min=None, max=None, **kwargs):
    """``numpy.clip``: limit ``a`` to [a_min, a_max] (either bound may be None).

    Traced, it is ``minimum(a_max, maximum(a_min, a))``, as in JAX, so a value at a bound
    shares its gradient equally with that bound.
    """
    if min is not None or max is not None:
        if a_min is not None or a_max is not None:
            raise TypeError("funcgrad.numpy.clip: give the bounds as a_min/a_max or as "
                            "min/max, not both")
        a_min, a_max = min, max
    if not any(isinstance(v, Box) for v in (a, a_min, a_max)):
        return np.clip(a, a_min, a_max, out=out, **kwargs)
    unsupported = (["out"] if out is not None else []) + sorted(kwargs)
    if unsupported:
        raise TypeError(f"funcgrad.numpy.clip: {', '.join(k + '=' for k in unsupported)} not "
                        f"supported on traced values; use the returned array.")
    if a_min is not None:
        a = maximum(a_min, a)
    if a_max is not None:
        a = minimum(a_max, a)
    return a


# ---- comparisons, logic and predicates: boolean results are constants, so no rules -------

less = Ufunc(np.less)
less_equal = Ufunc(np.less_equal)
greater = Ufunc(np.greater)
greater_equal = Ufunc(np.greater_equal)
equal = Ufunc(np.equal)
not_equal = Ufunc(np.not_equal)
logical_and = Ufunc(np.logical_and)
logical_or = Ufunc(np.logical_or)
logical_xor = Ufunc(np.logical_xor)
logical_not = Ufunc(np.logical_not)
isfinite = Ufunc(np.isfinite)
isinf = Ufunc(np.isinf)
isnan = Ufunc(np.isnan)
signbit = Ufunc(np.signbit)
isneginf = primitive(np.isneginf)
isposinf = primitive(np.isposinf)
isreal = primitive(np.isreal)
iscomplex = primitive(np.iscomplex)

# Bit operations have integer and boolean results, so nothing to differentiate (and no
# oracle case: unregistered). They are primitives so that batched masks (vmap) combine.
bitwise_and = Ufunc(np.bitwise_and, register=False)
bitwise_or = Ufunc(np.bitwise_or, register=False)
bitwise_xor = Ufunc(np.bitwise_xor, register=False)
invert = Ufunc(np.invert, register=False)
left_shift = Ufunc(np.left_shift, register=False)
right_shift = Ufunc(np.right_shift, register=False)
bitwise_not = bitwise_invert = invert
bitwise_left_shift, bitwise_right_shift = left_shift, right_shift

# ---- selection -----------------------------------------------------------------------

# The integers of each float's size, for selecting floats by their bits.
_SAME_SIZE_INTS = {np.dtype(np.float16): np.int16, np.dtype(np.float32): np.int32,
                   np.dtype(np.float64): np.int64}
# From this many elements the bitwise selection is faster than np.where even where the
# condition is regular: five passes without branches against one with a branch an element.
_BRANCH_FREE_SIZE = 1024


def _where_impl(condition, x, y):
    """``np.where(condition, x, y)``, its bits and layout. A boolean C-contiguous condition
    of 1,024 elements or more, choosing between C-contiguous float arrays of its shape and
    dtype (or the number 0.0, as where's cotangents do), selects by the bits: an integer
    product with the condition (1 keeps the bits, 0 gives those of +0.0). np.where branches
    on each element, which costs most where the condition is random, as a ReLU's is:
    (64, 100) float32 with a new random mask each call, 24.4 -> 6.3 us (two arrays),
    25.1 -> 3.9 us (an array and 0.0)."""
    array = x if type(x) is np.ndarray else y
    ints = _SAME_SIZE_INTS.get(array.dtype) if type(array) is np.ndarray else None
    if (ints is None or type(condition) is not np.ndarray or condition.dtype.kind != "b"
            or condition.size < _BRANCH_FREE_SIZE or not condition.flags.c_contiguous
            or not _selectable(x, condition, array.dtype)
            or not _selectable(y, condition, array.dtype)):
        return np.where(condition, x, y)
    out = np.empty(condition.shape, array.dtype)
    bits = out.view(ints)
    if type(y) is not np.ndarray:  # 0.0: x's bits where taken
        np.multiply(x.view(ints), condition, out=bits)
    elif type(x) is not np.ndarray:  # 0.0: y's bits where not
        np.multiply(y.view(ints), np.logical_not(condition), out=bits)
    else:  # y ^ ((x ^ y) * condition)
        y_bits = y.view(ints)
        np.bitwise_xor(x.view(ints), y_bits, out=bits)
        np.multiply(bits, condition, out=bits)
        np.bitwise_xor(bits, y_bits, out=bits)
    return out


def _selectable(value, condition, dtype):
    """Whether `value` is an operand `_where_impl` selects by its bits: a C-contiguous
    array of the condition's shape and of `dtype`, or the Python number +0.0."""
    if type(value) is np.ndarray:
        return (value.dtype == dtype and value.shape == condition.shape
                and value.flags.c_contiguous)
    return type(value) is float and value == 0.0 and math.copysign(1.0, value) > 0


_where = primitive(_where_impl, name="where")
for _primitive in (imag, isneginf, isposinf, isreal, iscomplex, _where):
    defbatch(_primitive, batch_elementwise)
    defdiagonal(_primitive, diagonal_elementwise)
define_rules(_where, ZERO_SLOPE, lambda v, condition: _where(condition, v, 0.0),
             lambda v, condition: _where(condition, 0.0, v))


def where(condition, x=None, y=None):
    """``numpy.where``: elements of x where condition holds, else of y."""
    if x is None and y is None:
        return np.nonzero(condition)
    if x is None or y is None:
        raise ValueError("funcgrad.numpy.where: give both x and y, or neither")
    return _where(condition, x, y)


# NumPy's other names (NumPy 2 adds the array API's).
abs = absolute
divide = true_divide
conj = conjugate
pow = power
asin, acos, atan = arcsin, arccos, arctan
asinh, acosh, atanh = arcsinh, arccosh, arctanh
atan2 = arctan2
radians, degrees = deg2rad, rad2deg

__all__ = [
    "negative", "positive", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
    "arccosh", "arctanh", "asin", "acos", "atan", "asinh", "acosh", "atanh", "sqrt", "cbrt",
    "square", "reciprocal", "deg2rad", "rad2deg", "radians", "degrees", "absolute", "abs",
    "fabs", "sign", "real", "imag", "conjugate", "conj", "angle",
    "add", "subtract", "multiply", "true_divide", "divide", "power", "pow", "arctan2", "atan2",
    "hypot", "logaddexp", "logaddexp2", "maximum", "minimum", "fmax", "fmin", "clip",
    "less", "less_equal", "greater", "greater_equal", "equal", "not_equal", "logical_and",
    "logical_or", "logical_xor", "logical_not", "isfinite", "isinf", "isnan", "signbit",
    "isneginf", "isposinf", "isreal", "iscomplex", "where",
    "bitwise_and", "bitwise_or", "bitwise_xor", "invert", "bitwise_not", "bitwise_invert",
    "left_shift", "right_shift", "bitwise_left_shift", "bitwise_right_shift",
]
