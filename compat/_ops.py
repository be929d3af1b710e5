"""Tensor operations with autograd, each computed with funcgrad.numpy (see `_record`).

No derivative is written here: where PyTorch's derivative at a kink differs from
funcgrad's convention (abs, clamp, relu at 0), the operation is composed of primitives
whose derivatives give PyTorch's.
"""
import builtins
import functools
import math
import numbers
import warnings

import numpy as np

import funcgrad.numpy as fnp
from funcgrad import custom_vjp
from funcgrad.core import Box, unbox_all
from funcgrad.numpy._base import reshape_p, sum_p
from funcgrad.numpy.elementwise import _where as where_p
from funcgrad.numpy.products import _matmul as matmul_p

from . import _dtypes, _fused, _layout, _memory_formats, _scans
from ._complex_refusals import CLAMP, fixed, refuse_complex
from ._dtypes import DEFAULTS
from ._dim_args import empty_dim, not_an_int, refuse_repeated
from ._factories import shape_argument
from ._grad_mode import STATE
from ._quiet import quiet, quieted
from ._record import (binary, broadcast_error, check_tensor, discard_imaginary, elementwise,
                      engine, float_operand, operand, reduced, result_type, selected,
                      unary, with_number, wrap, wrap_view)
from ._return_types import return_type
from ._tensor import Size, Tensor, make, require_tensor, typename

_int64, _bool, _float = _dtypes.int64, _dtypes.bool, _dtypes.FLOAT


def _unary(fn, label, saves_result=False):
    """A float operation of one tensor (integer tensors compute in the default float)."""
    def op(input):
        return unary(fn, label, input, saves_result)
    op.__name__ = fn.name
    return op


# ---- arithmetic ------------------------------------------------------------------------


def _binary(fn, label, input, other, dtype=None, edges=None, **options):
    """`fn` of two operands cast to `dtype` (PyTorch's result dtype by default); `edges`
    are the inputs next_functions lists (both by default)."""
    if (_same_float(input, other)
            and (edges is None or (len(edges) == 2 and edges[0] is input and edges[1] is other))
            and (dtype is None or dtype.numpy == input._data.dtype)):
        return binary(fn, label, input, other, **options)  # no cast: recorded directly
    dtype = dtype or result_type(input, other)
    out = elementwise(fn, operand(input, dtype), operand(other, dtype))
    return wrap(out, label, (input, other) if edges is None else edges, **options)


def _float_and_number(input, other):
    """Whether `input` is a float32 or float64 tensor and `other` a Python float or int: the
    operation then computes in `input`'s dtype (PyTorch's promotion: a Python number takes
    the tensor's float dtype), on its engine value and the number as it is, which is what
    `_binary` would reach after five calls that look up and compare dtypes. (float16 is not
    among them: see `_half_with_number`.)"""
    kind = type(other)
    return ((kind is float or kind is int) and type(input) is Tensor
            and input._data.dtype.char in "fd")


# `input op number` for a float tensor `input` and a Python number (`_float_and_number`),
# as `with_number` records it: the primitive, the node's label and whether backward frees
# the node (PyTorch frees a product or quotient even by a number: it saved the number as a
# tensor). The operators take the same path (`_methods`).
ADD_NUMBER = (fnp.add, "AddBackward0", None)
SUB_NUMBER = (fnp.subtract, "SubBackward0", None)
MUL_NUMBER = (fnp.multiply, "MulBackward0", True)
DIV_NUMBER = (fnp.true_divide, "DivBackward0", True)


def _same_float(input, other):
    """Whether `input` and `other` are tensors of one float dtype, which `binary` records
    directly with nothing cast (float16 included: NumPy rounds the result of two float16
    arrays once, as PyTorch)."""
    return (type(other) is Tensor and type(input) is Tensor
            and input._data.dtype == other._data.dtype and input._data.dtype.kind == "f")


def _half_with_number(input, other):
    """Whether a product or quotient of `input` and `other` is float16 with a Python number
    among them: PyTorch then computes in float32 (its "opmath" type for half) and rounds
    the result once, where float16 arithmetic first rounds the number (70000 to inf). (Its
    add and sub do round the number to float16; two float16 tensors NumPy rounds once.)"""
    return ((not isinstance(other, Tensor) or not isinstance(input, Tensor))
            and result_type(input, other) is _dtypes.float16)


def _half_with_alpha(input, other, alpha):
    """Whether ``input ± alpha * other`` is float16 with an alpha (see `_half_scaled`)."""
    return alpha != 1 and result_type(input, other) is _dtypes.float16


def _in_opmath(fn, label, input, other, **options):
    """``fn(input, other)`` computed in float32 and rounded to float16 once, in the
    operation's own node (no recorded casts); its VJP computes in float32 too, as
    PyTorch's backward of a product by a number does."""
    a, b = operand(input, _dtypes.float32), operand(other, _dtypes.float32)
    with np.errstate(over="ignore"):  # PyTorch's inf, silently
        out = fnp.astype(elementwise(fn, a, b), np.float16)
    return wrap(out, label, (input, other), **options)


def _half_scaled(x, alpha):
    """``alpha * x`` for a float16 ``input ± alpha * x``, as PyTorch's kernel computes it:
    alpha rounded to float16 (PyTorch's error if it overflows), the product rounded to
    float16 (before the sum is, separately); its VJP multiplies by alpha as given, in
    float32 (AddBackward0's ``grad * alpha``). A number `x` is first rounded to float16."""
    rounded = _half_scalar(alpha)
    if not isinstance(x, Tensor):
        return _as_half(_as_half(x) * rounded)
    return _times_alpha(operand(x, _dtypes.float16), rounded, alpha)


@functools.partial(custom_vjp, nondiff_argnums=(1, 2))
def _times_alpha(x, rounded_alpha, alpha):
    return fnp.multiply(x, rounded_alpha)


def _times_alpha_forward(x, rounded_alpha, alpha):
    return _times_alpha(x, rounded_alpha, alpha), None


def _times_alpha_backward(rounded_alpha, alpha, saved, g):
    return (fnp.astype(fnp.multiply(fnp.astype(g, np.float32), alpha), np.float16),)


_times_alpha.defvjp(_times_alpha_forward, _times_alpha_backward)


def _half_scalar(number):
    """A Python number that PyTorch converts to float16 (an alpha, a clamp bound, an
    exponent), rounded, or PyTorch's error if it is beyond float16's largest finite value
    (65504; PyTorch checks before rounding, so 65519 is an error too)."""
    _dtypes.check_convertible(number, _dtypes.float16)
    return _as_half(number)


def _as_half(number):
    """A Python number rounded to float16 (inf beyond its range), as a Python float."""
    with np.errstate(over="ignore"):
        return float(np.float16(number))


def _half_difference(fn, label, input, scaled, edges):
    """`fn` of a float16 operand and an operand `_half_scaled` gave, in float16."""
    out = elementwise(fn, operand(input, _dtypes.float16), scaled)
    return wrap(out, label, edges)


def _check_alpha(alpha, dtype):
    """PyTorch's checks of an alpha against the dtype of the sum."""
    if isinstance(alpha, (bool, np.bool_)) and dtype is not _bool:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if dtype.category < _dtypes.FLOAT and not isinstance(alpha, numbers.Integral):
        raise RuntimeError("For integral input tensors, argument alpha must not be a "
                           "floating point number.")
    if dtype.category < _dtypes.COMPLEX and isinstance(alpha, numbers.Complex) and not \
            isinstance(alpha, numbers.Real):
        raise RuntimeError("For non-complex input tensors, argument alpha must not be a "
                           "complex number.")


def _plus_scaled(label, input, other, alpha, edges):
    """``input + alpha * other`` (float16 aside: `_half_scaled`): one fused multiply-add in
    float32 and float64, as PyTorch's add kernel (`_fused`), in other dtypes as written."""
    dtype = result_type(input, other)
    _check_alpha(alpha, dtype)
    if alpha == 1:
        return _binary(fnp.add, label, input, other, dtype, edges=edges)
    if dtype is _bool:  # PyTorch's kernel: input or (alpha and other)
        return _binary(fnp.add, label, input, other if alpha else False, dtype, edges=edges)
    if dtype is _dtypes.float32 or dtype is _dtypes.float64:
        out = _fused.add_scaled(operand(input, dtype), operand(other, dtype), alpha,
                                dtype.numpy)
        return wrap(out, label, edges)
    return _binary(fnp.add, label, input, mul(other, alpha), edges=edges)


def number_argument(value, function, argument="alpha"):
    """A tensor given as a Number argument, read as PyTorch's argument parser reads it: a
    0-d tensor that does not require grad stands for its value (L-BFGS's step lengths);
    any other is refused."""
    if value.dim() or value.requires_grad:
        raise TypeError(f"{function}(): argument '{argument}' must be Number, not Tensor")
    return value.item()


def add(input, other, *, alpha=1):
    """input + alpha * other"""
    if isinstance(alpha, Tensor):
        alpha = number_argument(alpha, "add")
    if alpha == 1 and _float_and_number(input, other):
        return with_number(ADD_NUMBER, input, other)
    if alpha == 1 and _same_float(input, other):
        return binary(fnp.add, "AddBackward0", input, other)
    if _half_with_alpha(input, other, alpha):
        return _half_difference(fnp.add, "AddBackward0", input, _half_scaled(other, alpha),
                                (input, other))
    return _plus_scaled("AddBackward0", input, other, alpha, (input, other))


def sub(input, other, *, alpha=1):
    """input - alpha * other"""
    if isinstance(alpha, Tensor):
        alpha = number_argument(alpha, "sub")
    if alpha == 1 and _float_and_number(input, other):
        return with_number(SUB_NUMBER, input, other)
    if alpha == 1 and _same_float(input, other):
        return binary(fnp.subtract, "SubBackward0", input, other)
    dtype = result_type(input, other)
    if dtype is _bool or _is_bool(input) or _is_bool(other):
        raise RuntimeError(_bool_subtraction_error(input, other))
    if _half_with_alpha(input, other, alpha):
        return _half_difference(fnp.subtract, "SubBackward0", input,
                                _half_scaled(other, alpha), (input, other))
    if alpha != 1:
        return _plus_scaled("SubBackward0", input, other, -alpha, (input, other))
    return _binary(fnp.subtract, "SubBackward0", input, other, dtype)  # dtype known (~0.5 us)


def _is_bool(x):
    """Whether `x` is a bool or a bool tensor (read off the array: ~0.1 us less)."""
    return type(x) is bool or (isinstance(x, Tensor) and x._data.dtype.kind == "b")


def _bool_subtraction_error(a, b):
    if _is_bool(a) and _is_bool(b):
        return ("Subtraction, the `-` operator, with two bool tensors is not supported. Use "
                "the `^` or `logical_xor()` operator instead.")
    return ("Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
            "trying to invert a mask, use the `~` or `logical_not()` operator instead.")


def rsub(input, other, *, alpha=1):
    """other - alpha * input (``number - tensor``)"""
    if isinstance(alpha, Tensor):
        alpha = number_argument(alpha, "rsub")
    if _is_bool(input) or _is_bool(other):
        raise RuntimeError(_bool_subtraction_error(other, input))
    # PyTorch's node for a tensor `other` lists both; for a number, the input only.
    label, edges = (("RsubBackward0", (input, other)) if isinstance(other, Tensor)
                    else ("RsubBackward1", (input,)))
    if _half_with_alpha(other, input, alpha):
        return _half_difference(fnp.subtract, label, other, _half_scaled(input, alpha), edges)
    if alpha == 1:
        return _binary(fnp.subtract, label, other, input, edges=edges)
    return _plus_scaled(label, other, input, -alpha, edges)


def mul(input, other):
    if _float_and_number(input, other):
        return with_number(MUL_NUMBER, input, other)
    if _same_float(input, other):
        return binary(fnp.multiply, "MulBackward0", input, other, frees=True)
    if _half_with_number(input, other):
        return _in_opmath(fnp.multiply, "MulBackward0", input, other, frees=True)
    return _binary(fnp.multiply, "MulBackward0", input, other, frees=True)


def div(input, other, *, rounding_mode=None):
    """input / other (true division; integers divide into the default float dtype)."""
    if rounding_mode is not None:
        return _rounded_div(input, other, rounding_mode)
    if _float_and_number(input, other):
        return with_number(DIV_NUMBER, input, other)
    if _half_with_number(input, other):
        return _in_opmath(fnp.true_divide, "DivBackward0", input, other, frees=True)
    dtype = result_type(input, other)
    if dtype.category < _float:
        dtype = DEFAULTS.float
    # PyTorch saves the numerator for the denominator's gradient (funcgrad's rule reads the
    # quotient instead): its version is checked before backward, as PyTorch's.
    return _binary(fnp.true_divide, "DivBackward0", input, other, dtype, frees=True,
                   saves_inputs=_recording(other))


def _recording(x):
    """Whether `x` is a tensor whose history an operation on it records."""
    return STATE.enabled and isinstance(x, Tensor) and x._box is not None


def refuse_integer_zero_divisor(dtype, divisor):
    """PyTorch's error for an integer quotient, remainder or fmod by zero, where NumPy gives
    0 (with a warning). `dtype` is the operation's NumPy dtype, `divisor` a tensor, a number
    or a tensor's value."""
    if dtype.kind in "iub":
        raw = divisor._data if isinstance(divisor, Tensor) else unbox_all(divisor)
        if not np.all(raw):
            raise RuntimeError("ZeroDivisionError")


def _rounded_div(input, other, rounding_mode):
    """Division rounded down (floor) or toward zero (trunc): a zero derivative, as PyTorch's.
    (PyTorch's ``//`` instead records an operation whose backward raises.)"""
    if rounding_mode not in ("floor", "trunc"):
        raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or "
                           f"'floor' but found {rounding_mode!r}")
    refuse_complex(f"div_{rounding_mode}_cpu", input, other)
    dtype = result_type(input, other)
    if dtype is _bool:
        raise _dtypes.not_implemented_for(f"div_{rounding_mode}_cpu", dtype)
    refuse_integer_zero_divisor(dtype.numpy, other)
    if rounding_mode == "floor":
        return _binary(fnp.floor_divide, "DivBackward2", input, other, dtype)
    quotient = elementwise(fnp.true_divide, operand(input, dtype), operand(other, dtype))
    return wrap(fnp.astype(fnp.trunc(quotient), dtype.numpy), "DivBackward2", (input, other))


def floor_divide(input, other):
    """input / other rounded down (``//``): ``div(input, other, rounding_mode="floor")``."""
    return div(input, other, rounding_mode="floor")


def remainder(input, other):
    """The remainder with the sign of `other`, as Python's %."""
    refuse_complex("remainder_cpu", input, other)
    dtype = result_type(input, other)
    if dtype is _bool:
        raise _dtypes.not_implemented_for("remainder_cpu", dtype)
    refuse_integer_zero_divisor(dtype.numpy, other)
    if not isinstance(other, Tensor):
        return _binary(fnp.remainder, "RemainderBackward0", input, other, dtype, (input,))
    if not isinstance(input, Tensor):
        return _binary(fnp.remainder, "RemainderBackward1", input, other, dtype, (other,))
    return _binary(fnp.remainder, "RemainderBackward1", input, other, dtype, saves_inputs=True)


def reciprocal(input):
    # fnp.reciprocal's rule is PyTorch's -grad * (result * result), rounded alike.
    out = quiet().run(fnp.reciprocal, float_operand(input))
    return wrap(out, "ReciprocalBackward0", (input,), saves_result=True)


def rdiv(input, other):
    """other / input for a number `other`: PyTorch computes reciprocal, then multiplies."""
    return mul(reciprocal(input), other)


def pow(input, exponent):
    """input ** exponent (either may be a number, not both), with PyTorch's derivatives
    for real floats (0 where the exponent is 0, and for the exponent where the base is 0
    and the exponent >= 0; funcgrad's, JAX's, are NaN there)."""
    if not isinstance(input, Tensor):
        return _binary(_power(exponent), "PowBackward2", input, exponent, edges=(exponent,),
                       saves_result=True)
    if isinstance(exponent, Tensor):
        if input.dtype is _bool is exponent.dtype:
            raise _dtypes.not_implemented_for("pow", _bool)
        return _binary(_power(input, exponent), "PowBackward1", input, exponent,
                       saves_result=True)
    if _float_and_number(input, exponent) and exponent == 2:  # a number: == is a bool
        # x * x, as PyTorch computes pow(x, 2): NumPy's square, half the time of its power,
        # whose rule is the same v * (x * 2.0) (squared losses).
        return unary(fnp.square, "PowBackward0", input, frees=True)
    if input._data.dtype.char == "e" and isinstance(exponent, numbers.Real):
        _half_scalar(exponent)
    power = fnp.power if input.dtype.category == _dtypes.COMPLEX else _fused.pow_by_number_p
    return _binary(power, "PowBackward0", input, exponent, edges=(input,), frees=True)


def _power(*tensors):
    """The power primitive for these operands: PyTorch's derivatives (_fused.pow_p) unless
    one is complex (funcgrad's power)."""
    if builtins.any(t.dtype.category == _dtypes.COMPLEX for t in tensors):
        return fnp.power
    return _fused.pow_p


def square(input):
    return pow(input, 2)


def positive(input):
    """The input itself, as PyTorch's positive (no copy, no history)."""
    if input.dtype is _bool:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


def conj(input):
    """The complex conjugate; a real tensor itself, as in PyTorch."""
    if input._data.dtype.kind != "c":
        return input
    return wrap_view(input, fnp.conj, "ConjBackward0")


def conj_physical(input):
    """The complex conjugate in new memory; a real tensor itself, as in PyTorch."""
    if input._data.dtype.kind != "c":
        return input
    return wrap(fnp.conj(engine(input)), "ConjPhysicalBackward0", (input,))


def conj_physical_op(input):
    """conj_physical_'s result: PyTorch records its node for a real tensor too."""
    kind = input._data.dtype.kind
    value = engine(input)
    if kind == "c":
        value = fnp.conj(value)
    elif kind != "b":  # (NumPy's positive has no bool loop; a bool array is never traced)
        value = fnp.positive(value)
    return wrap(value, "ConjPhysicalBackward1", (input,))


def neg(input):
    if input.dtype is _bool:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If "
                           "you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")
    return wrap(fnp.negative(engine(input)), "NegBackward0", (input,))


exp = _unary(fnp.exp, "ExpBackward0", saves_result=True)
log = _unary(fnp.log, "LogBackward0")
sin = _unary(fnp.sin, "SinBackward0")
cos = _unary(fnp.cos, "CosBackward0")
tanh = _unary(fnp.tanh, "TanhBackward0", saves_result=True)
sqrt = _unary(fnp.sqrt, "SqrtBackward0", saves_result=True)


def abs(input):
    """|input|, with PyTorch's derivative sgn(input): 0 at 0 and at NaN."""
    if input.dtype is _bool:
        raise _dtypes.not_implemented_for("abs_cpu", input.dtype)
    value = engine(input)
    if input._data.dtype.kind == "c":  # the modulus (sign(z) is z / |z|)
        # (PyTorch's node saves the input, where funcgrad's rule keeps z / |z|)
        return wrap(fnp.absolute(value), "AbsBackward0", (input,), saves_inputs=True)
    return wrap(_fused.abs_p(value), "AbsBackward0", (input,))


def sigmoid(input):
    """1 / (1 + exp(-input)), one primitive (`_fused.sigmoid_p`)."""
    return unary(_fused.sigmoid_p, "SigmoidBackward0", input, saves_result=True)


def relu(input):
    """max(input, 0), whose derivative at 0 is 0 (PyTorch's)."""
    require_tensor(input, "relu", "input", 1)
    if input._data.dtype == np.bool_:
        raise RuntimeError("Boolean inputs not supported for relu")
    refuse_complex(CLAMP, input)
    value = engine(input)
    raw = unbox_all(value)
    # PyTorch's relu keeps NaN and -0.0 (the value is x unless x < 0) but its derivative is
    # 1 only where x > 0 or NaN: the kept zeros enter as constants (funcgrad's where on
    # the plain values: by bits, without NumPy's branch per element, for float arrays).
    zeros_kept = fnp.where(raw < 0, 0 if input.dtype.category != _float else 0.0, raw)
    return wrap(fnp.where(raw <= 0, zeros_kept, value), "ReluBackward0", (input,),
                saves_result=True)


def _bound(bound, dtype):
    if bound is None:
        return None
    if dtype is _dtypes.float16 and isinstance(bound, numbers.Real):
        _half_scalar(bound)
    if isinstance(bound, numbers.Number) and dtype.category < _float:
        # PyTorch's cast of a number to an integer dtype: 300 refused for uint8, -1 wraps
        return _dtypes.cast_number(bound, dtype).item()
    return operand(bound, dtype)


def _clamped(value, low, high):
    # PyTorch's clamp: NaN where x or a bound is NaN, else min(max(x, low), high) (high where
    # low > high; see below for ties). Its derivative (ClampBackward0's) goes to x where
    # low <= x <= high, where x itself is taken (keeping the sign of a -0.0 equal to a
    # bound); to a tensor low where x < low < high; to a tensor high where x > high or
    # high < low, NaN results included.
    raw = unbox_all(value)
    if high is None and not isinstance(low, Box):
        return _clamped_below(value, raw, low)
    if low is None and not isinstance(high, Box):
        return _clamped_above(value, raw, high)
    low_raw = None if low is None else unbox_all(low)
    high_raw = None if high is None else unbox_all(high)
    inside = None
    clamped = raw
    # max(x, low), then min(that, high), keeping the first on a tie (0.0 against -0.0) as
    # PyTorch's kernel does, where NumPy's maximum and minimum may take either.
    if low is not None:
        inside = raw >= low_raw
        clamped = np.where((clamped < low_raw) | np.isnan(low_raw), low_raw, clamped)
    if high is not None:
        below = raw <= high_raw
        inside = below if inside is None else inside & below
        clamped = np.where((high_raw < clamped) | np.isnan(high_raw), high_raw, clamped)
    if isinstance(high, Box):
        to_high = raw > high_raw if low is None else (raw > high_raw) | (high_raw < low_raw)
        nan = np.isnan(clamped)
        if nan.any():  # the gradient still goes to high there, as PyTorch's does
            high = fnp.where(nan, fnp.add(high, np.nan), high)
        clamped = fnp.where(to_high, high, clamped)
    if isinstance(low, Box):  # (never NaN where taken: x < low < high)
        to_low = raw < low_raw if high is None else (raw < low_raw) & (low_raw < high_raw)
        clamped = fnp.where(to_low, low, clamped)
    return fnp.where(inside, value, clamped)


# One bound that is a constant (a number or an array): outside [low, inf) NumPy's maximum
# is the bound, or NaN where x or the bound is NaN (PyTorch's value there); inside, where it
# may lose the sign of a -0.0 equal to the bound, x itself is taken. One comparison and a
# maximum instead of two comparisons and a where: (64, 100) float32, 17.7 -> 11.9 us.
def _clamped_below(value, raw, low):
    return fnp.where(raw >= low, value, np.maximum(raw, low))


def _relu_value(raw):
    """`_clamped_below(raw, raw, 0)` of a float array, bit for bit (NaN and -0.0 kept): +0.0
    where raw < 0, else raw, selected by bits (`where_p`). A comparison and a select from
    one array instead of a comparison, a maximum and a select from two ((64, 100) float32
    of random signs, thread CPU, two runs: 12.8-16.3 -> 6.8-8.3 us)."""
    return where_p.impl(raw < 0, 0.0, raw)


def _clamped_above(value, raw, high):
    return fnp.where(raw <= high, value, np.minimum(raw, high))


def clamp(input, min=None, max=None):
    """Limit the elements to [min, max] (either may be None, or a tensor)."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if min is not None and max is not None and isinstance(min, Tensor) != isinstance(max, Tensor):
        raise TypeError(f"clamp() received an invalid combination of arguments - got "
                        f"min={typename(min)} and max={typename(max)}: the bounds are both "
                        f"Tensors or both numbers (convert the number with torch.tensor)")
    if max is None and _float_and_number(input, min):
        # clamp(min=0) on a float tensor (ReLU): the result has the input's dtype and the
        # bound is taken as it is, what the general path below finds (~1.3 us).
        raw = input._data
        zero = min == 0 and math.copysign(1.0, min) > 0  # a ReLU's bound, +0
        if STATE.enabled and input._box is not None:  # _clamped_below's where, recorded
            if zero:  # (its result, which is also the values where raw is below the bound)
                value = _relu_value(raw)
                return selected(where_p, "ClampBackward1", raw >= 0, input, value, value)
            return selected(where_p, "ClampBackward1", raw >= min, input, np.maximum(raw, min))
        value = _relu_value(raw) if zero else _clamped_below(raw, raw, min)
        return wrap(value, "ClampBackward1", (input,))
    _refuse_complex_clamp(input, min, max)  # (the case above is of real numbers)
    # Lists rather than generator expressions, and the input's dtype looked up once (~1 us).
    dtype = result_type(*[x for x in (input, min, max) if x is not None])
    shape = input._data.shape
    for bound in (min, max):
        if isinstance(bound, Tensor) and bound._data.shape != shape:
            clash = broadcast_error(shape, bound._data.shape)
            if clash:
                raise RuntimeError(clash)
            shape = np.broadcast_shapes(shape, bound._data.shape)
    value = _clamped(operand(input, dtype), _bound(min, dtype), _bound(max, dtype))
    tensor_bounds = tuple([b for b in (min, max) if isinstance(b, Tensor)])
    value = _layout.laid_out_as_iterator(value, [input._data] + [b._data for b in tensor_bounds])
    label = "ClampBackward0" if tensor_bounds else "ClampBackward1"
    # PyTorch saves the input and tensor bounds: modifying one before backward is an error.
    return wrap(value, label, (input,) + tensor_bounds, saves_inputs=True)


def _refuse_complex_clamp(input, low, high):
    """PyTorch's errors for clamping complex numbers: clamp's own for a complex input, else
    the kernel it runs for complex bounds (clamp, maximum or minimum)."""
    refuse_complex(CLAMP, input)
    refuse_complex(_bounds_kernel(low, high), *[b for b in (low, high) if isinstance(b, Tensor)])


def _bounds_kernel(low, high):
    if low is None or high is None:
        return "minimum_cpu" if low is None else "maximum_cpu"
    return "clamp_cpu"


def clamp_min(input, min):
    return _one_sided(input, min, None, "ClampMin")


def clamp_max(input, max):
    return _one_sided(input, None, max, "ClampMax")


def _one_sided(input, low, high, name):
    """clamp_min or clamp_max (`name`): PyTorch's node is ...Backward1 for a tensor bound,
    which is then an edge too."""
    bound = high if low is None else low
    if isinstance(bound, Tensor):  # clamp_min(input, tensor) is maximum's kernel
        refuse_complex(_bounds_kernel(low, high), input, bound)
        clash = broadcast_error(input._data.shape, bound._data.shape)
        if clash:
            raise RuntimeError(clash)
    _refuse_complex_clamp(input, low, high)
    dtype = result_type(input, bound)  # (clamp's: an int tensor and a float bound give floats)
    value = _clamped(operand(input, dtype), _bound(low, dtype), _bound(high, dtype))
    if isinstance(bound, Tensor):
        return wrap(value, f"{name}Backward1", (input, bound), saves_inputs=True)
    return wrap(value, f"{name}Backward0", (input,), saves_inputs=True)


def _nan_passing(extremum):
    """`extremum` (fnp.maximum or fnp.minimum) with PyTorch's derivative at NaN: where
    either operand is NaN, both get the whole gradient (funcgrad's rule, JAX's, gives
    neither any); elsewhere the two agree (1 to the one taken, half each at a tie)."""
    def fn(a, b):
        out = extremum(a, b)
        value = unbox_all(out)
        if value.dtype.kind not in "fc":
            return out
        nan = np.isnan(value)
        return fnp.where(nan, a + b, out) if nan.any() else out
    return fn


_maximum, _minimum = _nan_passing(fnp.maximum), _nan_passing(fnp.minimum)
_EXTREMA_OF_COMPLEX = {name: fixed(RuntimeError, f"{name} not implemented for complex tensors.")
                       for name in ("maximum", "minimum")}


def maximum(input, other):
    refuse_complex(_EXTREMA_OF_COMPLEX["maximum"], input, other)
    return _binary(_maximum, "MaximumBackward0", input, other, saves_inputs=True)


def minimum(input, other):
    refuse_complex(_EXTREMA_OF_COMPLEX["minimum"], input, other)
    return _binary(_minimum, "MinimumBackward0", input, other, saves_inputs=True)


# ---- comparisons and logic (no gradient) ---------------------------------------------------


def _compare(numpy_fn, kernel=None):
    """A comparison; `kernel` names PyTorch's, for the orderings (which refuse complex
    numbers, where NumPy orders them lexicographically)."""
    def op(input, other):
        if kernel is not None:
            refuse_complex(kernel, input, other)
        dtype = result_type(input, other)
        a = input._data.astype(dtype.numpy, copy=False)
        b = other._data.astype(dtype.numpy, copy=False) if isinstance(other, Tensor) else other
        return make(np.asarray(elementwise(numpy_fn, a, b)))
    op.__name__ = numpy_fn.__name__
    return op


eq = _compare(np.equal)
ne = _compare(np.not_equal)
lt = _compare(np.less, "lt_cpu")
le = _compare(np.less_equal, "le_cpu")
gt = _compare(np.greater, "gt_cpu")
ge = _compare(np.greater_equal, "ge_cpu")


def _logical(numpy_fn):
    def op(input, other):
        dtype = result_type(input, other)
        if dtype.category >= _float:
            raise _dtypes.not_implemented_for(f"{numpy_fn.__name__}_cpu", dtype)
        b = other._data if isinstance(other, Tensor) else other
        return make(np.asarray(elementwise(numpy_fn, input._data, b), dtype.numpy))
    return op


bitwise_and = _logical(np.bitwise_and)
bitwise_or = _logical(np.bitwise_or)
bitwise_xor = _logical(np.bitwise_xor)


def _shift(numpy_fn, kernel, beyond):
    """A bit shift as PyTorch's: integer operands only (bool ones promote to an integer
    first); a shift by a negative count or by the width of the type or more gives
    `beyond(a)` (0 for a left shift, the sign for a right one), where NumPy's is undefined."""
    def op(input, other):
        dtype = result_type(input, other)
        if dtype.category >= _float or dtype is _dtypes.bool:
            raise _dtypes.not_implemented_for(kernel, dtype)
        a = np.asarray(input._data if isinstance(input, Tensor) else input, dtype.numpy)
        b = np.asarray(other._data if isinstance(other, Tensor) else other, dtype.numpy)
        out_of_range = (b < 0) | (b >= 8 * dtype.numpy.itemsize)
        shifted = numpy_fn(a, np.where(out_of_range, 0, b))
        return make(_layout.laid_out_as_iterator(
            np.asarray(np.where(out_of_range, beyond(a), shifted), dtype.numpy), (a, b)))
    op.__name__ = f"bitwise_{numpy_fn.__name__}"
    return op


bitwise_left_shift = _shift(np.left_shift, "lshift_cpu", lambda a: np.zeros_like(a))
bitwise_right_shift = _shift(np.right_shift, "rshift_cpu", lambda a: np.where(a < 0, -1, 0))


def bitwise_not(input):
    if input.dtype.category >= _float:
        raise _dtypes.not_implemented_for("bitwise_not_cpu", input.dtype)
    return make(np.invert(input._data))


def invert(input):
    """``~input``: PyTorch checks the dtype before its kernel, with another message."""
    if input.dtype.category >= _float:
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                        "tensors")
    return bitwise_not(input)


def logical_not(input):
    return make(np.logical_not(input._data))


def isnan(input):
    return make(np.isnan(input._data))


def equal(input, other):
    """True if both tensors have the same shape and elements."""
    require_tensor(other, "equal", "other", 2)
    return input.shape == other.shape and bool(np.array_equal(input._data, other._data))


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    require_tensor(other, "allclose", "other", 2)
    if input.dtype is not other.dtype:  # (PyTorch promotes none: a real and a complex one)
        raise RuntimeError(f"{input.dtype.scalar_name} did not match {other.dtype.scalar_name}")
    return bool(np.allclose(input._data, other._data, rtol=rtol, atol=atol,
                            equal_nan=equal_nan))


def argmax(input, dim=None, keepdim=False):
    return _arg_reduce(np.argmax, input, dim, keepdim)


def argmin(input, dim=None, keepdim=False):
    return _arg_reduce(np.argmin, input, dim, keepdim)


def _arg_reduce(numpy_fn, input, dim, keepdim):
    name = numpy_fn.__name__
    refuse_complex(fixed(RuntimeError, f"{name}(): does not support complex input"), input)
    if input.dtype is _bool:
        raise RuntimeError(f"{name}(): does not support bool input")
    if dim is None:
        if not input._data.size:
            raise IndexError(f"{name}(): Expected reduction dim to be specified for "
                             f"input.numel() == 0.")
        return make(np.asarray(numpy_fn(input._data), np.int64))
    axis = input._dim(dim)
    if input._data.ndim and not input._data.shape[axis]:
        raise empty_dim(f"{name}()", axis)
    return make(np.asarray(numpy_fn(input._data, axis=axis, keepdims=keepdim), np.int64))


def any(input, dim=None, keepdim=False):
    return make(_as_test_result(np.any(input._data, axis=_axes(input, dim),
                                       keepdims=keepdim), input))


def all(input, dim=None, keepdim=False):
    return make(_as_test_result(np.all(input._data, axis=_axes(input, dim),
                                       keepdims=keepdim), input))


def _as_test_result(found, input):
    """any's or all's result: bool, but uint8 for a uint8 input (PyTorch's legacy)."""
    return np.asarray(found, np.uint8 if input._data.dtype == np.uint8 else np.bool_)


# ---- reductions -------------------------------------------------------------------------


def _axes(input, dim):
    """`dim` (None, an int or a sequence of ints) as a tuple of axes, None for all."""
    if dim is None:
        return None
    dims = (dim,) if isinstance(dim, numbers.Integral) else tuple(dim)
    axes = tuple(input._dim(d) for d in dims)  # (a 0-d tensor's dims 0 and -1 are one dim)
    if len(set(axes)) != len(axes):
        refuse_repeated(axes)
    return axes if input._data.ndim else ()


def _reduction(name, fn, labels, integer_dtype=None, primitive=None, saves=False):
    """A reduction over `dim` (all elements when None) computed by ``fn(value, axes,
    keepdims)``, given sorted axes; `labels` are PyTorch's names for the full and the
    per-dimension form. `primitive`, where given, is the primitive `fn` applies, whose
    rule holds no array of a NumPy input: a recording tensor reduced in its own dtype is
    then recorded directly (`reduced`). `saves`: PyTorch's node saves input and result."""
    def reduce(input, dim=None, keepdim=False, *, dtype=None):
        input_dtype = input.dtype  # looked up once: a property call fewer (~0.15 us)
        if dtype is not None:
            target = _dtypes.as_dtype(dtype)
        elif input_dtype.category < _float:  # (complex sums stay complex)
            if integer_dtype is None:
                raise RuntimeError(
                    f"{name}(): could not infer output dtype. Input dtype must be either "
                    f"a floating point or complex dtype. Got: {input_dtype.scalar_name}")
            target = integer_dtype
        else:
            target = input_dtype
        axes = (tuple(range(input._data.ndim)) if dim is None
                else tuple(sorted(_axes(input, dim))))
        if (primitive is not None and target is input_dtype and type(input) is Tensor
                and input._box is not None and STATE.enabled):
            return reduced(primitive, labels[dim is not None], input, axes=axes,
                           keepdims=bool(keepdim))
        out = quiet().run(fn, operand(input, target), axes, bool(keepdim))
        if target.category < _float and fnp.result_type(out) != target.numpy:
            out = fnp.astype(out, target.numpy)  # (NumPy sums small integers into int64)
        return wrap(out, labels[dim is not None], (input,), saves_inputs=saves,
                    saves_result=saves)
    reduce.__name__ = name
    return reduce


def _sum(value, axes, keepdims):
    # The primitive itself: the axes are checked and sorted, and fnp.sum's argument
    # handling would cost ~1 us more (a loss's sum of a (64, 10) float32 tensor: 6.9 us).
    return sum_p(value, axes=axes, keepdims=keepdims)


sum = _reduction("sum", _sum, ("SumBackward0", "SumBackward1"), _int64, sum_p)
mean = _reduction("mean", lambda value, axes, keepdims: fnp.mean(value, axes, keepdims=keepdims),
                  ("MeanBackward0", "MeanBackward1"))
prod = _reduction("prod", lambda value, axes, keepdims: fnp.prod(value, axes, keepdims=keepdims),
                  ("ProdBackward0", "ProdBackward1"), _int64, saves=True)


_MAX_RESULT = return_type("max")
_MIN_RESULT = return_type("min")


def _extreme(input, dim, keepdim, which):
    """max/min over all elements (ties share the gradient), or over `dim` with indices
    (the gradient goes to the chosen index), as in PyTorch."""
    name = "Max" if which == "max" else "Min"
    if dim is None:
        if input._data.size == 0:
            raise RuntimeError(f"{which}(): Expected reduction dim to be specified for "
                               f"input.numel() == 0. Specify the reduction dim with the 'dim' "
                               f"argument.")
        refuse_complex(f"{which}_all", input)
        fn = fnp.max if which == "max" else fnp.min
        return wrap(fn(engine(input)), f"{name}Backward1", (input,), saves_result=True,
                    saves_inputs=True)
    axis = input._dim(dim)
    refuse_complex(fixed(RuntimeError, f"{which}(): does not support complex input"), input)
    if input._data.ndim and not input._data.shape[axis]:
        raise empty_dim(f"{which}()", axis)
    if input._data.ndim == 0:
        index = np.zeros((), np.int64)
        values = wrap(fnp.reshape(engine(input), ()), f"{name}Backward0", (input,))
    else:
        pick = np.argmax if which == "max" else np.argmin
        index = np.asarray(pick(input._data, axis=axis, keepdims=True), np.int64)
        grids = list(np.indices(index.shape, sparse=True))
        grids[axis] = index
        out = fnp.getitem(engine(input), tuple(grids))
        if not keepdim:
            out = fnp.squeeze(out, axis=axis)
            index = np.squeeze(index, axis=axis)
        values = wrap(out, f"{name}Backward0", (input,))
    result = _MAX_RESULT if which == "max" else _MIN_RESULT
    return result(values, make(np.asarray(index)))


def max(input, dim=None, keepdim=False):
    """The largest element; or (values, indices) along `dim`; or the elementwise maximum
    when `dim` is a tensor."""
    if isinstance(dim, Tensor):
        return maximum(input, dim)
    return _extreme(input, dim, keepdim, "max")


def min(input, dim=None, keepdim=False):
    if isinstance(dim, Tensor):
        return minimum(input, dim)
    return _extreme(input, dim, keepdim, "min")


def amax(input, dim=(), keepdim=False):
    refuse_complex("max_values_cpu", input)
    axes = _extreme_axes("amax", input, dim)
    return wrap(fnp.max(engine(input), axis=axes, keepdims=keepdim), "AmaxBackward0",
                (input,), saves_result=True, saves_inputs=True)


def amin(input, dim=(), keepdim=False):
    refuse_complex("min_values_cpu", input)
    axes = _extreme_axes("amin", input, dim)
    return wrap(fnp.min(engine(input), axis=axes, keepdims=keepdim), "AminBackward0",
                (input,), saves_result=True, saves_inputs=True)


def _extreme_axes(name, input, dim):
    """amax's or amin's axes (None: all, as for an empty `dim`), with PyTorch's errors for
    an empty tensor: a maximum of no elements has no value."""
    everything = dim is None or not isinstance(dim, numbers.Integral) and not len(dim)
    axes = None if everything else _axes(input, dim)
    shape = input._data.shape
    if axes is None:
        if 0 in shape:
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for "
                               f"input.numel() == 0. Specify the reduction dim with the 'dim' "
                               f"argument.")
        return None
    for axis in axes:  # (in the order given: PyTorch names the first empty one)
        if shape[axis] == 0:
            raise empty_dim(f"{name}()", axis)
    return axes


def _variance(input, dim, unbiased, keepdim, correction, name):
    if input.dtype.category < _float:
        raise RuntimeError("std and var only support floating point and complex dtypes")
    if isinstance(dim, bool):  # var(x, False) means unbiased=False, as in PyTorch
        dim, unbiased = None, dim
    if correction is None:
        correction = 1 if unbiased else 0
    axes = _axes(input, dim)
    shape = input._data.shape
    count = int(np.prod([shape[a] for a in (range(len(shape)) if axes is None else axes)]))
    if count - correction <= 0:
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly "
                      f"less than the reduction factor (input numel divided by output "
                      f"numel).", UserWarning, stacklevel=3)
    return quiet().run(_squared_deviations, engine(input), axes, bool(keepdim),
                       builtins.max(count - correction, 0))


def _squared_deviations(value, axes, keepdims, divisor):
    """The sum of squared deviations from the mean over `axes`, over `divisor`."""
    deviation = fnp.subtract(value, fnp.mean(value, axis=axes, keepdims=True))
    if unbox_all(deviation).dtype.kind == "c":  # |deviation| squared: a real variance
        squared = fnp.real(fnp.multiply(deviation, fnp.conj(deviation)))
    else:
        squared = fnp.multiply(deviation, deviation)
    squares = fnp.sum(squared, axis=axes, keepdims=keepdims)
    return fnp.true_divide(squares, divisor)


def var(input, dim=None, unbiased=True, keepdim=False, *, correction=None):
    """Variance over `dim` (Bessel's correction unless unbiased=False / correction=0)."""
    return wrap(_variance(input, dim, unbiased, keepdim, correction, "var"), "VarBackward0",
                (input,), saves_inputs=True)


def std(input, dim=None, unbiased=True, keepdim=False, *, correction=None):
    """Standard deviation over `dim`."""
    variance = _variance(input, dim, unbiased, keepdim, correction, "std")
    return wrap(quiet().run(_root_of_variance, variance), "StdBackward0", (input,),
                saves_inputs=True, saves_result=True)


def _root_of_variance(variance):
    """sqrt(variance), with PyTorch's derivative 0 where the variance is 0 (sqrt's is
    infinite there, and the variance's derivative 0: NaN)."""
    zero = unbox_all(variance) == 0
    return fnp.where(zero, 0, fnp.sqrt(fnp.where(zero, 1, variance)))


@quieted
def norm(input, p="fro", dim=None, keepdim=False, dtype=None):
    """The vector p-norm over `dim` (all elements by default) for a number p (2 for 'fro';
    0 counts the nonzero elements, +-inf takes the largest or smallest magnitude), with
    PyTorch's derivative (0 where x or the norm is 0)."""
    if input.dtype.category < _float:
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor "
                           f"as input. Got {input.dtype.scalar_name}")
    if p == "fro":
        p = 2
    if not isinstance(p, numbers.Real) or isinstance(p, bool):
        raise NotImplementedError(f"compat.norm: p={p!r} is not supported; use 'fro' or a "
                                  f"number (a vector norm)")
    out = _fused.vector_norm(engine(input), p, _axes(input, dim), bool(keepdim))
    result = wrap(out, "LinalgVectorNormBackward0", (input,), saves_result=True)
    return result if dtype is None else result.to(dtype)


def cumsum(input, dim, *, dtype=None):
    """Running sums along `dim`, as PyTorch's kernel sums (see `_scans`)."""
    value = engine(input) if dtype is None else operand(input, _dtypes.as_dtype(dtype))
    value = quiet().run(_scans.scanned, fnp.cumsum, value, input._dim(dim), dtype)
    value = _layout.relaid(value, _layout.row_major)  # PyTorch's, of any input
    return wrap(value, "CumsumBackward0", (input,), frees=False)


# ---- products ---------------------------------------------------------------------------


def _product(a, b, label):
    """`a @ b` recorded as `label`. Operands of two dtypes reach it only where PyTorch's bmm
    has nothing to multiply (an empty result or no columns), skips its dtype check and
    gives zeros of `b`'s dtype."""
    if _same_dtype(a, b):
        return binary(matmul_p, label, a, b, product=True)  # (no boxes, dispatch or search)
    recorded = isinstance(engine(a), Box)
    if recorded and not (b.dtype.is_floating_point or b.dtype.is_complex):
        raise RuntimeError(f"Autograd not support dtype: {b.dtype.scalar_name}")
    return wrap(quiet().run(fnp.matmul, operand(a, b.dtype), engine(b)), label, (a, b))


def _same_dtype(a, b):
    # One compat dtype per NumPy dtype: comparing the arrays' dtypes is comparing theirs,
    # without two dtype lookups (~0.3 us).
    return a._data.dtype == b._data.dtype


def mm(input, mat2):
    """Matrix product of two 2-D tensors."""
    check_tensor(input, "mm")
    check_tensor(mat2, "mm")
    shape, mat2_shape = input._data.shape, mat2._data.shape  # (read once: ~0.2 us a product)
    if len(shape) != 2:
        raise RuntimeError("self must be a matrix")
    if len(mat2_shape) != 2:
        raise RuntimeError("mat2 must be a matrix")
    _check_mm(shape, mat2_shape, input, mat2)
    return _product(input, mat2, "MmBackward0")


def _check_mm(shape, mat2_shape, mat1, mat2):
    """mm's errors for matrices of `shape` and `mat2_shape` (the tensors `mat1` and `mat2`,
    or the matrices a batched product folds them into)."""
    if shape[1] != mat2_shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({shape[0]}x{shape[1]} "
                           f"and {mat2_shape[0]}x{mat2_shape[1]})")
    if not _same_dtype(mat1, mat2):
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: "
                           f"{mat1.dtype.cpp_name} != {mat2.dtype.cpp_name}")
    refuse_bool_product(mat1, "addmm_impl_cpu_")


def refuse_bool_product(t, kernel):
    """PyTorch's refusal of a product of bool tensors (it has no bool loop in `kernel`);
    after its shape and dtype checks."""
    if isinstance(t, Tensor) and t._data.dtype == np.bool_:
        raise _dtypes.not_implemented_for(kernel, t.dtype)


def mv(input, vec):
    check_tensor(input, "mv")
    check_tensor(vec, "mv")
    if input.dim() == 0:  # PyTorch reads the matrix's length first
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if input.dim() != 2 or vec.dim() != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {input.dim()}, "
                           f"{vec.dim()}")
    _check_mv(input._data.shape, vec._data.shape[0], input, vec)
    return _product(input, vec, "MvBackward0")


def _check_mv(shape, length, matrix, vector):
    """mv's errors for a matrix of `shape` and a vector of `length` (the tensors `matrix`
    and `vector`, or those a batched product folds them into)."""
    rows, columns = shape
    if columns != length:
        raise RuntimeError(f"size mismatch, got input ({rows}), mat ({rows}x{columns}), vec "
                           f"({length})")
    if not _same_dtype(matrix, vector):
        vec, mat = vector.dtype.scalar_name, matrix.dtype.scalar_name
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {vec}, "
                           f"{mat}, and {vec}")
    refuse_bool_product(matrix, "addmv_impl_cpu")


def dot(input, other):
    check_tensor(input, "dot")
    check_tensor(other, "dot")
    if input.dim() != 1 or other.dim() != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.dim()}D and {other.dim()}D "
                           f"tensors")
    if not _same_dtype(input, other):
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found "
                           f"{input.dtype.scalar_name} and {other.dtype.scalar_name}")
    if input.shape != other.shape:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{input.numel()}] and "
                           f"src [{other.numel()}] to have the same number of elements, but "
                           f"got {input.numel()} and {other.numel()} elements respectively")
    refuse_bool_product(input, "dot")
    return _product(input, other, "DotBackward0")


def bmm(input, mat2):
    check_tensor(input, "bmm")
    check_tensor(mat2, "bmm")
    if input.dim() != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if mat2.dim() != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    (batch, _, columns), (batch2, rows, _) = input._data.shape, mat2._data.shape
    if (batch2, rows) != (batch, columns):
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{batch}, {columns}] but got: [{batch2}, {rows}].")
    _check_bmm_dtypes(input, mat2, batch * input._data.shape[1] * mat2._data.shape[2] * columns)
    refuse_bool_product(input, "bmm")
    return _product(input, mat2, "BmmBackward0")


def _check_bmm_dtypes(input, mat2, work):
    """bmm's dtype error, which PyTorch skips where there is no `work` (the product of the
    result's size and the length of the sums is 0)."""
    if work and not _same_dtype(input, mat2):
        raise RuntimeError(f"expected scalar type {input.dtype.scalar_name} but found "
                           f"{mat2.dtype.scalar_name}")


def _check_batches(a, b):
    """PyTorch's errors of a batched product of shapes `a` (at least 2-D) and `b`: batch
    dimensions that do not broadcast, or rows of `b` that do not match columns of `a`."""
    b_batch = b[:-2] if len(b) >= 2 else ()
    clash = broadcast_error(a[:-2], b_batch)
    if clash:
        raise RuntimeError(clash)
    rows = b[-2] if len(b) >= 2 else b[0]
    if a[-1] != rows:
        batch = math.prod(np.broadcast_shapes(a[:-2], b_batch))
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{batch}, {a[-1]}] but got: [{batch}, {rows}].")


def matmul(input, other):
    """Matrix product with NumPy's rules for vectors and batches."""
    check_tensor(input, "matmul")
    check_tensor(other, "matmul")
    a_dim, b_dim = input.dim(), other.dim()
    if a_dim == 0 or b_dim == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{a_dim}D and {b_dim}D")
    if a_dim == 1 and b_dim == 1:
        return dot(input, other)
    if a_dim == 2 and b_dim == 2:
        return mm(input, other)
    if a_dim == 2 and b_dim == 1:
        return mv(input, other)
    if a_dim == 1 and b_dim == 2:
        return wrap_view(mm(unsqueeze(input, 0), other), fnp.squeeze, "SqueezeBackward4", axis=0)
    if a_dim == 3 and b_dim == 3:
        squeezed = _batch_of_one_squeezed(input, other)
        if squeezed:
            return matmul(*squeezed)
    _check_batched_matmul(input, other)
    if a_dim == 2 and input.requires_grad:
        return _folded_transposed(input, other)
    return _product(input, other, "UnsafeViewBackward0")


def _batch_of_one_squeezed(input, other):
    """PyTorch's operands for a product of two 3-D tensors whose batches differ, one of them
    a batch of one that requires grad: that one as a matrix (so that its gradient is one
    product, not a sum over the other's batch), the left one if both are; else None."""
    a, b = input._data.shape[0], other._data.shape[0]
    if a == b:
        return None
    if a == 1 and input.requires_grad:
        return squeeze(input, 0), other
    if b == 1 and other.requires_grad:
        return input, squeeze(other, 0)
    return None


def _folded_transposed(matrix, batch):
    """`matrix @ batch` where `matrix` requires grad: PyTorch computes it as (batch^T with
    its batch folded into rows) @ matrix^T and transposes the result back, copying it
    (CloneBackward0) unless the transposed layout is row-major already (TransposeBackward0,
    with the transpose's strides)."""
    rows, columns = matrix._data.shape[0], batch._data.shape[-1]
    if rows != 1 and columns != 1 and math.prod(batch._data.shape[:-2]) * rows * columns:
        return _product(matrix, batch, "CloneBackward0")
    product = fnp.matmul(fnp.swapaxes(engine(batch), -1, -2), fnp.swapaxes(engine(matrix), 0, 1))
    return wrap(fnp.swapaxes(product, -1, -2), "TransposeBackward0", (matrix, batch))


def _check_batched_matmul(input, other):
    """PyTorch's errors of a product with a batch dimension, named after the product it
    computes: mm or mv where it folds the batch of the side with more dimensions into
    rows (`_folds`), else bmm."""
    a, b = input._data.shape, other._data.shape
    if (a[-1] == (b[-2] if len(b) > 1 else b[0]) and _same_dtype(input, other)
            and not broadcast_error(a[:-2], b[:-2])):
        if input._data.dtype == np.bool_:  # (the kernel PyTorch picks names the error)
            refuse_bool_product(input, _batched_kernel(input, other))
        return
    if len(b) <= 2 and _folds(input._data, other, input):
        _check_folded(input, other, a, b)
        return
    if len(a) <= 2 and _folds(np.swapaxes(other._data, -1, -2), input, input):
        # PyTorch computes other^T @ input^T: other transposed is the matrix
        _check_folded(other, input, b[:-2] + (b[-1], b[-2]), a[::-1])
        return
    a = (1,) + a if len(a) == 1 else a
    b = b + (1,) if len(b) == 1 else b
    _check_batches(a, b)
    batch = math.prod(np.broadcast_shapes(a[:-2], b[:-2]))
    _check_bmm_dtypes(input, other, batch * a[-2] * a[-1] * b[-1])


def _batched_kernel(input, other):
    """The kernel PyTorch's product with a batch dimension runs (`_check_batched_matmul`)."""
    if other.dim() <= 2 and _folds(input._data, other, input):
        return "addmv_impl_cpu" if other.dim() == 1 else "addmm_impl_cpu_"
    if input.dim() <= 2 and _folds(np.swapaxes(other._data, -1, -2), input, input):
        return "addmm_impl_cpu_"
    return "bmm"


def _folds(larger, smaller, input):
    """PyTorch's choice to fold the batch of the `larger` side (an array, transposed when
    it is the right operand) into rows: always when the `smaller` side requires grad,
    never when the left operand `input` is a matrix, else where that needs no copy."""
    if len(larger.shape) < 3:
        return False
    if smaller.requires_grad:
        return True
    if input.dim() == 2:
        return False
    if larger.size == 0:
        return True
    shape, strides = larger.shape, larger.strides
    return builtins.all(strides[i] == strides[i + 1] * shape[i + 1]
                        for i in range(len(shape) - 2))


def _check_folded(matrix, operand, shape, operand_shape):
    """The errors of mv or mm of `matrix` (of `shape`, its batch folded into its rows) by
    `operand` (of `operand_shape`)."""
    folded = (math.prod(shape[:-1]), shape[-1])
    if len(operand_shape) == 1:
        _check_mv(folded, operand_shape[0], matrix, operand)
    else:
        _check_mm(folded, operand_shape, matrix, operand)


# ---- shapes -----------------------------------------------------------------------------


# PyTorch's name of each function's shape argument, which its type errors name.
_SHAPE_ARGUMENTS = {"view": "size", "reshape": "shape", "permute": "dims", "expand": "size"}


def _shape_args(shape, name):
    argument = _SHAPE_ARGUMENTS[name]
    if not shape:  # (an empty sequence is a shape; no argument is none)
        raise TypeError(f'{name}() missing 1 required positional arguments: "{argument}"')
    return shape_argument(shape, name, argument)


def _as_view(input, view_shape, strides, label, fn=reshape_p, **params):
    """`fn(input, **params)` recorded as a view of `input` of `view_shape` with `strides` (in
    bytes), those PyTorch gives it: NumPy may step differently over dimensions of length 1,
    or copy where PyTorch's rule finds a view. `fn` defaults to the reshape primitive itself,
    as fnp.reshape returns its input unrecorded when the shape is the same."""
    if fn is reshape_p:
        params = {"shape": view_shape, "order": "C"}
    out = fn(engine(input), **params)
    data = out.value if isinstance(out, Box) else out
    if data.strides != strides or not np.may_share_memory(data, input._data):
        data = np.lib.stride_tricks.as_strided(input._data, view_shape, strides,
                                               writeable=input._data.flags.writeable)
        if isinstance(out, Box):
            out.value = data
        else:
            out = data
    return wrap(out, label, (input,), view_of=input)


def view(input, *shape):
    """The same storage with another shape; fails where that needs a copy (use reshape)."""
    if len(shape) == 1 and isinstance(shape[0], _dtypes.dtype):
        return _viewed_as(input, shape[0])
    shape = _layout.infer_shape(_shape_args(shape, "view"), input._data.size)
    strides = _layout.view_strides(input._data, shape)
    if strides is None:
        raise RuntimeError("view size is not compatible with input tensor's size and stride "
                           "(at least one dimension spans across two contiguous subspaces). "
                           "Use .reshape(...) instead.")
    return _as_view(input, shape, strides, "ViewBackward0")


def _viewed_as(input, dtype):
    """``view(dtype)``: the same memory read as `dtype` (a last dimension of elements of
    another size rescaled), with PyTorch's checks; like PyTorch's, without history, and
    sharing input's version counter (as detach)."""
    data, old = input._data, input.dtype
    ratio = dtype.numpy.itemsize / data.itemsize
    if ratio != 1:
        words = f"to view {old.scalar_name} as {dtype.scalar_name} (different element sizes)"
        if not data.ndim:
            raise RuntimeError(f"self.dim() cannot be 0 {words}")
        if data.strides[-1] != data.itemsize and data.shape[-1] != 1:
            raise RuntimeError(f"self.stride(-1) must be 1 {words}, but got "
                               f"{data.strides[-1] // data.itemsize}")
        if ratio > 1:  # (wider elements: each must start where a narrow one does)
            factor = int(ratio)
            if data.shape[-1] % factor:
                raise RuntimeError(f"self.size(-1) must be divisible by {factor} {words}, "
                                   f"but got {data.shape[-1]}")
            if input.storage_offset() % factor:
                raise RuntimeError(f"self.storage_offset() must be divisible by {factor} "
                                   f"{words}, but got {input.storage_offset()}")
            for dim, stride in enumerate(input.stride()[:-1]):
                if stride % factor:
                    raise RuntimeError(f"self.stride({dim}) must be divisible by {factor} "
                                       f"{words}, but got {stride}")
    view = input.detach()
    view._data = data.view(dtype.numpy)  # (a fresh tensor: its array may be replaced)
    return view


def reshape(input, *shape):
    """The elements with another shape: a view when possible, else a copy (recorded as
    PyTorch does, a clone then a view)."""
    shape = _layout.infer_shape(_shape_args(shape, "reshape"), input._data.size)
    strides = _layout.view_strides(input._data, shape)
    if strides is not None:
        contiguous_input = input._data.flags.c_contiguous
        return _as_view(input, shape, strides,
                        "ViewBackward0" if contiguous_input else "ReshapeAliasBackward0")
    copy = contiguous(input)
    label = "UnsafeViewBackward0" if copy._box is not None else "ViewBackward0"
    return _as_view(copy, shape, _layout.row_major_strides(shape, copy._data.itemsize), label)


def flatten(input, start_dim=0, end_dim=-1):
    shape = input._data.shape
    if not shape:
        return reshape(input, 1)
    start, end = input._dim(start_dim), input._dim(end_dim)
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return input
    middle = int(np.prod(shape[start:end + 1]))
    return reshape(input, shape[:start] + (middle,) + shape[end + 1:])


def _permuted(input, axes, label):
    """The view of `input` with its axes in the order `axes` (recorded even when that is
    their order already, as PyTorch records it)."""
    if axes == tuple(range(input._data.ndim)):  # fnp.transpose would return its input
        return _as_view(input, input._data.shape, input._data.strides, label)
    return wrap_view(input, fnp.transpose, label, axes=axes)


def t(input):
    """Transpose of a matrix (vectors and scalars are returned as they are)."""
    if input.dim() > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is "
                           f"{input.dim()}D")
    return _permuted(input, tuple(range(input.dim()))[::-1], "TBackward0")


def transpose(input, dim0, dim1):
    axes = list(range(input.dim()))
    if axes:
        a, b = input._dim(dim0), input._dim(dim1)
        axes[a], axes[b] = axes[b], axes[a]
    return _permuted(input, tuple(axes), "TransposeBackward0")


def permute(input, *dims):
    dims = _shape_args(dims, "permute")
    if len(dims) != input.dim():
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input "
                           f"does not match the length of the desired ordering of dimensions "
                           f"i.e. input.dim() = {input.dim()} is not equal to len(dims) = "
                           f"{len(dims)}")
    axes = tuple(input._dim(d) for d in dims)
    if len(set(axes)) != len(axes):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return _permuted(input, axes, "PermuteBackward0")


def expanded_shape(shape, sizes, dtype):
    """The shape a tensor of `shape` and NumPy `dtype` expands to with `sizes` (-1 keeps a
    dimension), with PyTorch's errors for sizes it cannot expand to (checked, as PyTorch
    does, from the last dimension)."""
    lead = len(sizes) - len(shape)
    if lead < 0:
        name = _dtypes.from_numpy_dtype(dtype).type_string
        raise RuntimeError(f"expand({name}{{{list(shape)}}}, size={list(sizes)}): the "
                           f"number of sizes provided ({len(sizes)}) must be greater or equal "
                           f"to the number of dimensions in the tensor ({len(shape)})")
    target = list(sizes)
    for i in reversed(range(len(sizes))):
        size = sizes[i]
        if i < lead:
            if size < 0:
                raise RuntimeError(f"The expanded size of the tensor ({size}) isn't allowed in "
                                   f"a leading, non-existing dimension {i}")
        elif size == -1:
            target[i] = shape[i - lead]
        elif shape[i - lead] not in (1, size):
            raise RuntimeError(
                f"The expanded size of the tensor ({size}) must match the existing size "
                f"({shape[i - lead]}) at non-singleton dimension {i}.  Target sizes: "
                f"{list(sizes)}.  Tensor sizes: {list(shape)}")
    return tuple(target)


def expand(input, *sizes):
    """A broadcast view with `sizes` (-1 keeps a dimension)."""
    sizes = _shape_args(sizes, "expand")
    shape = input._data.shape
    target = expanded_shape(shape, sizes, input._data.dtype)
    if target == shape:  # broadcast_to would return its input itself, unrecorded
        return _as_view(input, shape, input._data.strides, "ExpandBackward0")
    lead = len(target) - len(shape)
    # PyTorch's strides: 0 along new and stretched dimensions, the input's elsewhere.
    strides = (0,) * lead + tuple(0 if size != target[lead + i] else step
                                  for i, (size, step) in enumerate(zip(shape, input._data.strides)))
    return _as_view(input, target, strides, "ExpandBackward0", fnp.broadcast_to, shape=target)


def sum_to_size(input, *size):
    """The sum of `input` over the dimensions that expanding `size` to its shape would
    stretch or add: the input itself when its shape is `size`."""
    if not size:
        raise TypeError('sum_to_size() missing 1 required positional arguments: "size"')
    size = tuple(shape_argument(size, "sum_to_size"))
    shape = input._data.shape
    lead = len(shape) - len(size)
    if lead < 0 or builtins.any(n not in (1, shape[lead + i]) for i, n in enumerate(size)):
        raise RuntimeError(f"size {{{list(size)}}} is not expandable to size {{{list(shape)}}}.")
    if size == shape:
        return input
    dims = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(size)
                                      if n == 1 and shape[lead + i] != 1)
    out = sum(input, dims, keepdim=True) if dims else input
    return view(out, *size) if lead else out


def broadcast_shapes(*shapes):
    """The shape tensors of `shapes` (sizes or ints) broadcast to, without making them."""
    for shape in shapes:
        if not isinstance(shape, (numbers.Integral, tuple, list)):
            raise RuntimeError(f"Input shapes should be of type ints, a tuple of ints, or a list "
                               f"of ints, got {shape}")
    shapes = [(shape,) if isinstance(shape, numbers.Integral) else tuple(shape)
              for shape in shapes]
    result = [1] * builtins.max(map(len, shapes), default=0)
    for index, shape in enumerate(shapes):
        for position in range(-1, -len(shape) - 1, -1):
            size = shape[position]
            if size < 0:
                raise ValueError("Attempting to broadcast a dimension with negative length!")
            if size != 1 and result[position] not in (1, size):
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {size} at {position}! "
                    f"Mismatching argument at index {index} had {shape}; but expected shape "
                    f"should be broadcastable to {result}")
            if size != 1:
                result[position] = size
    return Size(result)


def expand_as(input, other):
    require_tensor(other, "expand_as", "other", 1)
    return expand(input, other.shape)


def view_as(input, other):
    require_tensor(other, "view_as", "other", 1)
    return view(input, other.shape)


def reshape_as(input, other):
    require_tensor(other, "reshape_as", "other", 1)
    return reshape(input, other.shape)


def unsqueeze(input, dim):
    axis = input._dim(dim, extra=1)
    shape, strides = input._data.shape, input._data.strides
    # PyTorch's stride for the new dimension: a step over the whole dimension after it.
    step = shape[axis] * strides[axis] if axis < len(shape) else input._data.itemsize
    return _as_view(input, shape[:axis] + (1,) + shape[axis:],
                    strides[:axis] + (step,) + strides[axis:], "UnsqueezeBackward0")


def squeeze(input, dim=None):
    """Remove dimensions of length 1 (only `dim`, if given; other lengths are kept)."""
    shape = input._data.shape
    if dim is None:
        return wrap_view(input, fnp.reshape, "SqueezeBackward0",
                         shape=tuple(n for n in shape if n != 1))
    axes = [input._dim(a) for a in ((dim,) if isinstance(dim, numbers.Integral) else dim)]
    refuse_repeated(axes)
    kept = tuple(n for i, n in enumerate(shape) if not (i in axes and n == 1))
    label = "SqueezeBackward1" if isinstance(dim, numbers.Integral) else "SqueezeBackward2"
    return wrap_view(input, fnp.reshape, label, shape=kept)


def refuse_one_tensor(tensors, function):
    """PyTorch's error for a tensor where `function` takes a sequence of tensors (a tensor
    would be taken as the sequence of its rows)."""
    if isinstance(tensors, Tensor):
        raise TypeError(f"{function}(): argument 'tensors' (position 1) must be tuple of "
                        f"Tensors, not Tensor")


def _join_dtype(tensors, name):
    refuse_one_tensor(tensors, name)
    tensors = list(tensors)
    if not tensors:  # PyTorch's error types differ between the two
        if name == "cat":
            raise ValueError("torch.cat(): expected a non-empty list of Tensors")
        raise RuntimeError("stack expects a non-empty TensorList")
    for i, x in enumerate(tensors):
        if not isinstance(x, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type(x).__name__}")
    return tensors, result_type(*tensors)


def cat(tensors, dim=0):
    """Join tensors along an existing dimension. As in PyTorch, 1-D empty tensors (the
    legacy empty shape) join anything and are left out."""
    tensors, dtype = _join_dtype(tensors, "cat")
    for i, x in enumerate(tensors):
        if not x._data.ndim:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be "
                               f"concatenated")
    joined = [x for x in tensors if x._data.shape != (0,)]
    if not joined:  # only legacy empty tensors: any dim will do
        joined, dim = tensors, 0
    axis = joined[0]._dim(dim)
    _check_cat_shapes(tensors, joined[0]._data.shape, axis)
    values = [operand(x, dtype) for x in joined]
    out = _joined_layout(fnp.concatenate(values, axis=axis), joined)
    return wrap(out, "CatBackward0", tuple(joined))


def concatenate(tensors, dim=0, *, axis=None):
    """cat, also taking NumPy's name `axis` for `dim` (as PyTorch's arguments do)."""
    refuse_one_tensor(tensors, "concatenate")
    return cat(tensors, dim if axis is None else axis)


def concat(tensors, dim=0):
    refuse_one_tensor(tensors, "concat")
    return cat(tensors, dim)


def _joined_layout(value, tensors):
    """cat's or stack's result `value` laid out as PyTorch's: row-major, or channels_last
    where every input is (NumPy's keeps the inputs' order of dimensions)."""
    if _layout.joined_order([x._data for x in tensors]) == "C":
        return _layout.relaid(value, _layout.row_major)
    order = _layout.order_of_dimensions(tensors[0]._data)
    return _layout.relaid(value, lambda raw: _layout.laid_out(raw, order))


def _check_cat_shapes(tensors, reference, axis):
    for i, x in enumerate(tensors):
        shape = x._data.shape
        if shape == (0,):
            continue
        if len(shape) != len(reference):
            raise RuntimeError(f"Tensors must have same number of dimensions: got "
                               f"{len(reference)} and {len(shape)}")
        for d, (expected, size) in enumerate(zip(reference, shape)):
            if d != axis and size != expected:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {axis}. "
                                   f"Expected size {expected} but got size {size} for tensor "
                                   f"number {i} in the list.")


def stack(tensors, dim=0):
    """Join tensors of one shape along a new dimension."""
    tensors, dtype = _join_dtype(tensors, "stack")
    axis = tensors[0]._dim(dim, extra=1)
    first = tensors[0]._data.shape
    for i, x in enumerate(tensors):
        if x._data.shape != first:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                               f"{list(first)} at entry 0 and {list(x._data.shape)} at entry {i}")
    values = [operand(x, dtype) for x in tensors]
    out = _layout.relaid(fnp.stack(values, axis=axis), _layout.row_major)
    return wrap(out, "StackBackward0", tuple(tensors))


def nonzero_indices(array):
    """The int64 indices of `array`'s nonzero elements, one array per dimension (a 0-d
    array's as a 1-D array's, as PyTorch's nonzero(as_tuple=True) gives them)."""
    return tuple([i.astype(np.int64) for i in np.nonzero(np.atleast_1d(array))])


def where(condition, input=None, other=None):
    """Elements of `input` where `condition` holds, else of `other`."""
    if input is None and other is None:
        return tuple(make(i) for i in nonzero_indices(condition._data))
    cond = condition._data if isinstance(condition, Tensor) else np.asarray(condition)
    if cond.dtype != np.bool_:
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a "
                           f"tensor with dtype {_dtypes.of_array(cond).scalar_name}")
    shape = cond.shape
    for x in (input, other):  # PyTorch's error for the first pair that does not broadcast
        clash = broadcast_error(shape, np.shape(x._data if isinstance(x, Tensor) else x))
        if clash:
            raise RuntimeError(clash)
        shape = np.broadcast_shapes(shape, np.shape(x._data if isinstance(x, Tensor) else x))
    dtype = result_type(input, other)
    out = fnp.where(cond, operand(input, dtype), operand(other, dtype))
    out = _layout.laid_out_as_iterator(out, [cond] + [x._data for x in (input, other)
                                                      if isinstance(x, Tensor)])
    others = (condition,) if isinstance(condition, Tensor) else ()
    return wrap(out, "WhereBackward0", (input, other), others=others)


def masked_fill(input, mask, value):
    clash = broadcast_error(mask._data.shape, input._data.shape)
    if clash:
        raise RuntimeError(clash)
    if mask._data.dtype != np.bool_:
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{mask.dtype.cpp_name}")
    if isinstance(value, Tensor) and value.dim():
        raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but got "
                           f"tensor with {value.dim()} dimension(s).")
    dtype = input.dtype
    if not isinstance(value, Tensor):
        value = _dtypes.cast_number(value, dtype).item()
    out = fnp.where(mask._data, operand(value, dtype), engine(input))
    if isinstance(value, Tensor):  # PyTorch's overload for a tensor value
        return wrap(out, "MaskedFillBackward1", (input, value), others=(mask,))
    return wrap(out, "MaskedFillBackward0", (input,), others=(mask,))


def softmax_dim(input, dim, name, stacklevel=3):
    """`dim` as an axis of `input`; when None, PyTorch's implicit choice and its warning
    (pointing `stacklevel` frames up: the caller of softmax by default)."""
    if dim is None:
        warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the "
                      f"call to include dim=X as an argument.", UserWarning,
                      stacklevel=stacklevel)
        dim = 0 if input.dim() in (0, 1, 3) else 1
    return input._dim(dim)


def _required_dim(dim, function):
    if dim is None:
        raise not_an_int(dim, function)
    return dim


def _shifted(input, axis, dtype, name):
    """input minus its maximum along `axis`; the maximum is a constant, which changes
    neither softmax nor its derivative where it is finite. Also the axes to normalize
    over: `axis`, or none for a 0-d tensor (one element along PyTorch's dim 0 or -1)."""
    if dtype is not None:
        input = input.to(dtype)
    if input.dtype.category != _float:
        kernel = "lastdim_kernel_impl" if axis >= input._data.ndim - 1 else "kernel_impl"
        raise _dtypes.not_implemented_for(f"{name}_{kernel}", input.dtype)
    value = engine(input)
    raw = input._data
    axes = (axis,) if raw.ndim else ()
    # As PyTorch's kernel, whatever the maximum: +inf or NaN there make the slice NaN.
    top = np.max(raw, axis=axes, keepdims=True) if raw.size else raw.dtype.type(0)
    return input, quiet().run(fnp.subtract, value, top), axes


def softmax(input, dim, dtype=None):
    """exp(input) normalized to sum to 1 along `dim` (torch.softmax's is required:
    torch.nn.functional's may be left to `softmax_dim`)."""
    axis = input._dim(_required_dim(dim, "softmax"))
    input, shifted, axes = _shifted(input, axis, dtype, "softmax")
    out = _layout.relaid(quiet().run(_softmax, shifted, axes), _layout.row_major)  # PyTorch's
    return wrap(out, "SoftmaxBackward0", (input,), saves_result=True)


def _softmax(shifted, axes):
    e = fnp.exp(shifted)
    return fnp.true_divide(e, fnp.sum(e, axis=axes, keepdims=True))


def log_softmax(input, dim, dtype=None):
    """log(softmax(input)), computed without forming softmax."""
    axis = input._dim(_required_dim(dim, "log_softmax"))
    input, shifted, axes = _shifted(input, axis, dtype, "log_softmax")
    out = _layout.relaid(quiet().run(_log_softmax, shifted, axes), _layout.row_major)
    return wrap(out, "LogSoftmaxBackward0", (input,), saves_result=True)


def _log_softmax(shifted, axes):
    total = fnp.sum(fnp.exp(shifted), axis=axes, keepdims=True)
    return fnp.subtract(shifted, fnp.log(total))


# ---- copies and casts ---------------------------------------------------------------------


def clone(input, *, memory_format=_memory_formats.preserve_format):
    """A copy with its own storage, laid out in `memory_format` (preserve_format: its
    dimensions in `input`'s order of strides; recorded: the gradient passes through)."""
    return _copied(input, _memory_formats.empty_in(input._data, memory_format, "clone"))


def contiguous(input, memory_format=_memory_formats.contiguous_format):
    """`input` itself when it is laid out densely in `memory_format` (row-major by default),
    else a copy so laid out (recorded as a clone)."""
    if memory_format is _memory_formats.preserve_format:
        raise RuntimeError("preserve memory format is unsupported by the contiguous operator")
    if _memory_formats.is_in(input._data, memory_format, "contiguous"):
        return input
    return _copied(input, _memory_formats.empty_in(input._data, memory_format, "contiguous"))


def _copied(input, fresh, label="CloneBackward0"):
    """A copy of `input` into the new array `fresh`, recorded as a clone (or `label`)."""
    if input._box is None or not STATE.enabled:
        fresh[...] = input._data
        return make(fresh)
    out = fnp.positive(input._box)
    if out.value.strides != fresh.strides:  # the ufunc kept the input's order
        fresh[...] = out.value
        out.value = fresh
    return wrap(out, label, (input,))


def copy_of(input):
    """A recorded copy named as PyTorch names the copy that create_graph accumulates."""
    return wrap(fnp.positive(input._box), "CopyBackwards", (input,))


def to_dtype(input, dtype, memory_format=_memory_formats.preserve_format):
    """The tensor converted to `dtype` and laid out in `memory_format` (the tensor itself
    where it is both already)."""
    dtype = _dtypes.as_dtype(dtype)
    laid_out = (memory_format is _memory_formats.preserve_format
                or _memory_formats.is_in(input._data, memory_format, "to"))
    if input.dtype is dtype:
        return input if laid_out else _copied(
            input, _memory_formats.empty_in(input._data, memory_format, "to"),
            "ToCopyBackward0")
    value = engine(input)
    if input.dtype.is_complex and dtype.category in (_dtypes.INTEGER, _float):
        value = discard_imaginary(value)  # (bool is z != 0: no part is discarded)
    if dtype.category < _float:  # (an integer result has no history)
        value = quiet().run(unbox_all(value).astype, dtype.numpy)
    else:
        value = quiet().run(fnp.astype, value, dtype.numpy)
    if not laid_out:  # (the cast's fresh array, laid out again)
        value = _layout.relaid(value, lambda raw: _filled(
            _memory_formats.empty_in(raw, memory_format, "to"), raw))
    if dtype.category < _float:
        return make(value)
    return wrap(value, "ToCopyBackward0", (input,))


def _filled(fresh, values):
    fresh[...] = values
    return fresh


__all__ = [
    "add", "sub", "rsub", "mul", "div", "floor_divide", "remainder", "reciprocal", "pow",
    "square", "neg", "positive", "conj", "conj_physical",
    "exp", "log", "sin", "cos", "tanh", "sqrt", "abs", "sigmoid", "relu", "clamp",
    "clamp_min", "clamp_max", "maximum", "minimum", "eq", "ne", "lt", "le", "gt", "ge",
    "logical_not", "isnan", "equal", "allclose", "argmax", "argmin", "any", "all", "sum", "mean",
    "prod", "max", "min", "amax", "amin", "var", "std", "norm", "cumsum", "mm", "mv", "dot",
    "bmm", "matmul", "view", "reshape", "flatten", "t", "transpose", "permute", "expand",
    "unsqueeze", "squeeze", "cat", "concat", "concatenate", "stack", "where", "masked_fill", "softmax",
    "log_softmax", "clone", "contiguous", "bitwise_and", "bitwise_or", "bitwise_xor",
    "bitwise_not", "bitwise_left_shift", "bitwise_right_shift", "broadcast_shapes",
]
