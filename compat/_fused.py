"""PyTorch's pointwise kernels that scale and add (add and sub with alpha, addcmul,
addcdiv, lerp), with the values its CPU kernels compute and the derivatives its
derivatives.yaml writes; and the derivative formulas of rsqrt and hypot, rounded as
PyTorch rounds them, and of atan2, copysign, logaddexp, logaddexp2 and xlogy, whose
values at infinities and zeros are PyTorch's.

PyTorch's CPU kernels fuse the multiply and the add of ``c + a * b`` (Vectorized's fmadd,
or the compiler's contraction), rounding once where NumPy's two operations round twice, and
compute float16 in float32, rounding once at the end. Each operation is one primitive
(compat's own, unregistered) whose value is computed so (`_fma`) and whose VJP is
PyTorch's formula, written with funcgrad.numpy so that create_graph differentiates it
again. The value functions also serve compat.optim, whose updates are these kernels.
"""
import math
import numbers

import numpy as np

import funcgrad.numpy as fnp
from funcgrad.core import ArgVJP, Box, Primitive, defvjp, dtype_of, shape_of, unbox_all
from funcgrad.numpy._base import unbroadcast

from . import _dtypes
from ._fma import fused_multiply_add
from ._tensor import Tensor

_FUSED = (np.dtype(np.float32), np.dtype(np.float64))
_HALF = np.dtype(np.float16)


def is_fused(dtype):
    """Whether PyTorch's kernels of this (NumPy) dtype fuse or compute in float32, which
    the primitives here reproduce; other dtypes (integers, complex) compute as written."""
    return dtype in _FUSED or dtype == _HALF


def _compute_dtype(dtype):
    """The dtype PyTorch computes in ("opmath"): float32 for float16."""
    return np.dtype(np.float32) if dtype == _HALF else dtype


def _scalar(number, dtype):
    """A Python number as PyTorch's kernel of `dtype` uses it: in the compute dtype, with
    PyTorch's overflow error where the dtype itself is float32 or float64."""
    if dtype in _FUSED:
        _dtypes.check_convertible(number, _dtypes.from_numpy_dtype(dtype))
    return _compute_dtype(dtype).type(number)


def _rounded(out, dtype):
    """A result computed in the compute dtype, rounded once to `dtype`."""
    with np.errstate(over="ignore"):  # PyTorch's inf, silently
        return out.astype(dtype, copy=False)


def _widened(dtype, *arrays):
    compute = _compute_dtype(dtype)
    return [np.asarray(a).astype(compute, copy=False) for a in arrays]


# ---- values, on arrays -----------------------------------------------------------------


def add_scaled_value(input, other, alpha):
    """``input + alpha * other`` as PyTorch's add kernel computes it for float32 and
    float64: ``fmadd(other, alpha, input)``; other dtypes as written (for float16 PyTorch
    fuses in float32 in its vectorized loop but not in its scalar tail, which depends on
    the layout: compat._ops keeps the tail's model)."""
    dtype = np.result_type(input, other)
    if dtype not in _FUSED:
        return input + alpha * other
    if alpha == 1:  # fmadd(other, 1, input) rounds the exact sum once: the sum
        return np.asarray(input + other)
    return fused_multiply_add(np.asarray(other), _scalar(alpha, dtype), np.asarray(input))


def addcmul_value(input, tensor1, tensor2, value):
    """``input + value * tensor1 * tensor2``: ``fmadd(value * tensor1, tensor2, input)``."""
    dtype = np.result_type(input, tensor1, tensor2)
    input, tensor1, tensor2 = _widened(dtype, input, tensor1, tensor2)
    with np.errstate(all="ignore"):  # PyTorch's inf and NaN, silently
        scaled = _scalar(value, dtype) * tensor1
    return _rounded(fused_multiply_add(scaled, tensor2, input), dtype)


def addcdiv_value(input, tensor1, tensor2, value):
    """``input + value * tensor1 / tensor2`` (a division: nothing to fuse)."""
    dtype = np.result_type(input, tensor1, tensor2)
    input, tensor1, tensor2 = _widened(dtype, input, tensor1, tensor2)
    with np.errstate(all="ignore"):  # PyTorch's inf and NaN, silently
        return _rounded(_scalar(value, dtype) * tensor1 / tensor2 + input, dtype)


def lerp_value(start, end, weight):
    """``start + weight * (end - start)`` as PyTorch's lerp kernel computes it: from
    `start` for weights below 0.5 in magnitude, else back from `end` (exact at weight 1)."""
    dtype = np.result_type(start, end)
    start, end = _widened(dtype, start, end)
    compute = start.dtype
    if isinstance(weight, np.ndarray):
        weight = weight.astype(compute, copy=False)
    else:
        weight = _scalar(weight, dtype)
    with np.errstate(all="ignore"):  # PyTorch's inf and NaN, silently
        difference = end - start
        near_start = np.abs(weight) < 0.5
        if np.ndim(weight) == 0:  # one branch
            out = (fused_multiply_add(weight, difference, start) if near_start
                   else fused_multiply_add(-difference, 1 - weight, end))
        else:
            out = np.where(near_start, fused_multiply_add(weight, difference, start),
                           fused_multiply_add(-difference, 1 - weight, end))
    return _rounded(out, dtype)


# ---- the primitives --------------------------------------------------------------------


def _times(x, number):
    """``x * number`` as PyTorch multiplies a tensor by a number: float16 in float32,
    rounded once (NumPy would round the number to float16 first)."""
    if dtype_of(x) == _HALF:
        return fnp.astype(fnp.multiply(fnp.astype(x, np.float32), number), np.float16)
    return fnp.multiply(x, number)


def _arg_rule(argnum, formula, reads):
    """Argument `argnum`'s VJP: ``formula(g, *read_args, **params)``, broadcasting and
    promotion undone; only the arguments at positions `reads` are saved ("ans": the
    result)."""
    def save(ans, *args, **params):
        arg = args[argnum]
        read = tuple(ans if i == "ans" else args[i] for i in reads)
        return read, params, shape_of(arg), dtype_of(arg)

    def pull(g, read, params, shape, dtype):
        return unbroadcast(formula(g, *read, **params), shape, dtype)
    return ArgVJP(save, pull, saves=tuple([0 if i == "ans" else i + 1 for i in reads]))


def _declare(name, impl, *rules):
    primitive = Primitive(f"compat.{name}", impl, register=False)
    defvjp(primitive, *[_arg_rule(i, formula, reads) for i, (formula, reads)
                        in enumerate(rules)])
    return primitive


def _pass(g, **params):
    return g


add_scaled_p = _declare(
    "add_scaled", lambda input, other, *, alpha: add_scaled_value(input, other, alpha),
    (_pass, ()),
    (lambda g, *, alpha: _times(g, alpha), ()))  # AddBackward0: grad * alpha

addcmul_p = _declare(
    "addcmul", lambda input, t1, t2, *, value: addcmul_value(input, t1, t2, value),
    (_pass, ()),
    (lambda g, t2, *, value: g * _times(t2, value), (2,)),  # grad * (tensor2 * value)
    (lambda g, t1, *, value: g * _times(t1, value), (1,)))  # grad * (tensor1 * value)


def _addcdiv_divisor_pull(g, t1, t2, *, value):
    """-grad * (value * tensor1 / (tensor2 * tensor2))"""
    return -g * (_times(t1, value) / (t2 * t2))


addcdiv_p = _declare(
    "addcdiv", lambda input, t1, t2, *, value: addcdiv_value(input, t1, t2, value),
    (_pass, ()),
    # grad * (value / tensor2), where PyTorch's number / tensor fills a tensor of
    # tensor2's dtype with the number (float16 rounds it) and divides: as NumPy does.
    (lambda g, t2, *, value: g * (value / t2), (2,)),
    (_addcdiv_divisor_pull, (1, 2)))


lerp_p = _declare(
    "lerp", lambda start, end, *, weight: lerp_value(start, end, weight),
    (lambda g, *, weight: _times(g, 1 - weight), ()),  # grad * (1 - weight)
    (lambda g, *, weight: _times(g, weight), ()))  # grad * weight

lerp_tensor_p = _declare(
    "lerp_tensor", lerp_value,
    (lambda g, weight: g * (1 - weight), (2,)),  # grad * (1 - weight)
    (lambda g, weight: g * weight, (2,)),  # grad * weight
    (lambda g, start, end: g * (end - start), (0, 1)))  # grad * (end - self)


# ---- derivative formulas: rsqrt and hypot ------------------------------------------------


def _cube(y):
    """``y.pow(3)``: PyTorch's kernel multiplies twice, float16 in float32 rounded once."""
    if dtype_of(y) == _HALF:
        wide = fnp.astype(y, np.float32)
        return fnp.astype(wide * wide * wide, np.float16)
    return y * y * y


def _rsqrt_value(x):
    """1 / sqrt(x), each operation rounded (for float16 as PyTorch's scalar loop; its
    vectorised loop, over whole blocks of 32 elements, computes in float32)."""
    with np.errstate(divide="ignore", invalid="ignore"):  # PyTorch's inf and NaN, silently
        return 1 / np.sqrt(x)


def _hypot_pull(g, x, y):
    """hypot's ``grad * self / result`` (and ``grad * other / result``), NaN at (0, 0)."""
    return g * x / y


rsqrt_p = _declare("rsqrt", _rsqrt_value,
                   (lambda g, y: _times(g, -0.5) * _cube(y), ("ans",)))
hypot_p = _declare("hypot", np.hypot, (_hypot_pull, (0, "ans")), (_hypot_pull, (1, "ans")))


# ---- derivative formulas: atan2, copysign, logaddexp, logaddexp2, xlogy ------------------
# funcgrad's (JAX's) rules give these other values where an argument is infinite or xlogy's
# logarithm is undefined; PyTorch's formulas below decide there.


def _logaddexp_pull(power):
    """logaddexp's ``grad / (1 + exp(other - self))`` (logaddexp2's with 2 ** ...): 0 for a
    finite argument beside an infinite one, NaN where both are the same infinity."""
    def pull(g, mine, other):
        return g / (1 + power(other - mine))
    return pull


def _xlogy_value(x, y):
    """PyTorch's xlogy: ``x * log(y)``, 0 where x == 0 (NaN where y is NaN)."""
    return np.where((x == 0) & ~np.isnan(y), 0, x * np.log(y))


def _xlogy_self_pull(g, x, y):
    """xlogy's ``xlogy(grad, other)``, 0 where self == 0 and other <= 0."""
    undefined = (unbox_all(x) == 0) & (unbox_all(y) <= 0)
    return fnp.where(undefined, 0, xlogy_p(g, y))


def _atan2_pull(sign):
    """atan2's ``grad * other * recip`` (and ``grad * -self * recip``), recip being
    1 / (self ** 2 + other ** 2) and 0 where that is infinite: 0, not NaN, at (0, 0)."""
    def pull(g, factor, y, x):
        total = fnp.reciprocal(y * y + x * x)
        recip = fnp.where(np.isinf(unbox_all(total)), 0, total)
        return g * (factor if sign > 0 else -factor) * recip
    return pull


atan2_p = _declare("atan2", np.arctan2, (_atan2_pull(1), (1, 0, 1)), (_atan2_pull(-1), (0, 0, 1)))


def _copysign_self_pull(g, x, ans):
    """copysign's ``grad * (result / self)``, 0 where self == 0 (NaN at infinities)."""
    return g * fnp.where(unbox_all(x) == 0, 0, ans / x)


copysign_p = _declare("copysign", np.copysign, (_copysign_self_pull, (0, "ans")),
                      (lambda g: fnp.zeros_like(g), ()))  # other: zeros

logaddexp_p = _declare("logaddexp", np.logaddexp, (_logaddexp_pull(fnp.exp), (0, 1)),
                       (_logaddexp_pull(fnp.exp), (1, 0)))
logaddexp2_p = _declare("logaddexp2", np.logaddexp2, (_logaddexp_pull(fnp.exp2), (0, 1)),
                        (_logaddexp_pull(fnp.exp2), (1, 0)))
xlogy_p = _declare("xlogy", _xlogy_value, (_xlogy_self_pull, (0, 1)),
                   (lambda g, x, y: g * x / y, (0, 1)))  # grad * self / other


# ---- sigmoid: one primitive, PyTorch's value and derivative ----------------------------------


def _sigmoid_value(x):
    """``1 / (1 + exp(-x))``, as PyTorch's kernel (float16 in float32, rounded once); its
    callers run it quietly: where exp(-x) overflows, 1 / inf is its 0."""
    (compute,) = _widened(x.dtype, x)
    return (1 / (1 + np.exp(-compute))).astype(x.dtype, copy=False)


# SigmoidBackward0: ``grad * (1 - result) * result``, 0 (not NaN) where the result is 0.
sigmoid_p = _declare("sigmoid", _sigmoid_value, (lambda g, ans: g * (1 - ans) * ans, ("ans",)))


# ---- logsumexp: PyTorch's derivative --------------------------------------------------------


def _logsumexp_value(x, *, axes, keepdims):
    """PyTorch's logsumexp: ``log(sum(exp(x - m))) + m``, m the largest element of each
    slice, or 0 where that is infinite (an empty slice's is -inf)."""
    largest = np.amax(x, axis=axes, keepdims=True, initial=-np.inf)
    shift = np.where(np.isinf(largest), 0, largest)
    out = np.log(np.sum(np.exp(x - shift), axis=axes, keepdims=True)) + shift
    return out if keepdims else np.squeeze(out, axis=axes)


def _logsumexp_pull(g, x, result, *, axes, keepdims):
    """logsumexp's ``grad * exp(self - result)``: NaN for the infinite elements of a slice
    whose result is infinite, 0 for the finite ones."""
    if not keepdims:
        g, result = fnp.expand_dims(g, axes), fnp.expand_dims(result, axes)
    return g * fnp.exp(x - result)


logsumexp_p = _declare("logsumexp", _logsumexp_value, (_logsumexp_pull, (0, "ans")))


# ---- pow: PyTorch's derivatives --------------------------------------------------------------


def _pow_base_pull(g, base, exponent):
    """``grad * exponent * base ** (exponent - 1)``, 0 where the exponent is 0 (x ** 0 is
    constant, also at x = 0, where the formula is 0 * inf)."""
    return fnp.where(unbox_all(exponent) == 0, 0, g * exponent * fnp.power(base, exponent - 1))


def _pow_exponent_pull(g, base, exponent, result):
    """``grad * result * log(base)``, 0 where base == 0 and exponent >= 0 (0 ** y is
    constant there, and the formula 0 * -inf)."""
    raw_base = unbox_all(base)
    constant = (raw_base == 0) & (unbox_all(exponent) >= 0)
    return fnp.where(constant, 0, g * result * fnp.log(base))


pow_p = _declare("pow", np.power, (_pow_base_pull, (0, 1)), (_pow_exponent_pull, (0, 1, "ans")))


def _power_by_a_number(base, exponent):
    """np.power, but for the exponents PyTorch's CPU kernel special-cases when the exponent
    is a number (pow_tensor_scalar_optimized): x ** 3 is x * x * x, x ** -2 is 1 / (x * x)
    and x ** -0.5 is 1 / sqrt(x), rounded at each step as there (NumPy's power differs in
    the last bit for about a quarter of float32 cubes). float16 computes in float32 there
    and rounds once, as NumPy's power does."""
    if base.dtype.char in "fd":
        if exponent == 3:
            return base * base * base
        if exponent == -2:
            return 1 / (base * base)
        if exponent == -0.5:
            return 1 / np.sqrt(base)
    return np.power(base, exponent)


def _pow_by_number_pull(g, base, exponent):
    """``grad * (exponent * base.pow(exponent - 1))``, PyTorch's order, its power also
    computed by PyTorch's kernel; 0 where the exponent is 0."""
    power = pow_by_number_p(base, exponent - 1)
    return fnp.where(unbox_all(exponent) == 0, 0, g * (exponent * power))


# pow(tensor, number): PyTorch's values for the exponents its kernel special-cases.
pow_by_number_p = _declare("pow_by_number", _power_by_a_number, (_pow_by_number_pull, (0, 1)))


# ---- vector norms: PyTorch's derivative (linalg_vector_norm_backward) ---------------------


def _norm_value(x, *, ord, axes, keepdims):
    return np.linalg.vector_norm(x, axis=axes, keepdims=keepdims, ord=ord)


def sgn(x):
    """PyTorch's sgn of a value (a box or an array): the sign (x / |x| of complex numbers),
    0 at 0 and at NaN; a function of x (of derivative 0), as PyTorch's, so that a gradient
    made with create_graph depends on x."""
    raw = unbox_all(x)
    if raw.dtype.kind == "c":  # |x| replaced by 1 at 0, where a 0 / 0 would reach x's gradient
        sign = x / fnp.where(raw == 0, 1, fnp.absolute(x))
    else:
        sign = fnp.sign(x)
    raw_sign = unbox_all(sign)
    return fnp.where((raw == 0) | (raw_sign != raw_sign), 0, sign)


def _norm_pull(g, x, norm, *, ord, axes, keepdims):
    """The gradient of a vector ord-norm as PyTorch computes it: 0 where x is 0, and
    where the norm is 0 (its subgradients), sgn(x) = 0 at NaN."""
    if unbox_all(x).dtype.kind == "c":
        # PyTorch's formula, for the real g, is the conjugate of the tape's cotangent
        # (`_graph.pytorch_convention`): written in conj(x), it gives the tape's.
        x = fnp.conj(x)
    if not keepdims and axes is not None:
        g, norm = fnp.expand_dims(g, axes), fnp.expand_dims(norm, axes)
    if ord == 0:
        return fnp.zeros_like(x)
    if ord == 2:
        return g * fnp.where(unbox_all(norm) == 0, 0, x / norm)
    if ord == 1:
        return sgn(x) * g
    raw = unbox_all(x)
    if math.isinf(ord):  # the elements at the norm (or NaN) share it
        magnitude = np.abs(raw)
        hits = (magnitude == unbox_all(norm)) | (magnitude != magnitude)
        count = np.sum(hits, axis=axes, keepdims=True)
        return sgn(x) * ((g / count.astype(raw.dtype)) * hits)
    magnitude = fnp.absolute(x)
    if ord < 1:
        scaled = sgn(x) * fnp.where(raw == 0, 0, magnitude ** (ord - 1))
        return scaled * g * norm ** (1 - ord)
    scale = fnp.where(unbox_all(norm) == 0, 0, g / norm ** (ord - 1))
    if ord < 2:
        return sgn(x) * magnitude ** (ord - 1) * scale
    return x * magnitude ** (ord - 2) * scale


abs_p = _declare("abs", np.abs, (lambda g, x: g * sgn(x), (0,)))
vector_norm_p = _declare("vector_norm", _norm_value, (_norm_pull, (0, "ans")))


def vector_norm(x, ord, axes, keepdims):
    """The vector `ord`-norm of the value `x` over `axes` (an int, a tuple, or None for all),
    with PyTorch's derivative."""
    return vector_norm_p(x, ord=ord, axes=axes, keepdims=keepdims)


# ---- the operations, on funcgrad values (boxes or arrays) ------------------------------


def add_scaled(input, other, alpha, dtype):
    """``input + alpha * other`` in `dtype`, float32 or float64 (either of `input` and
    `other` may be a Python number, as PyTorch's wrapped number)."""
    if not isinstance(input, Box):
        input = np.asarray(input, dtype)
    if not isinstance(other, Box):
        other = np.asarray(other, dtype)
    return add_scaled_p(input, other, alpha=alpha)


def addcmul(input, tensor1, tensor2, value=1):
    """torch.addcmul of values promoted to one dtype."""
    dtype = dtype_of(input)
    if dtype.kind == "b":
        raise _dtypes.not_implemented_for("addcmul_cpu_out", _dtypes.bool)
    if not is_fused(dtype):
        return input + _in_dtype(value, dtype) * tensor1 * tensor2
    return addcmul_p(input, tensor1, tensor2, value=value)


def addcdiv(input, tensor1, tensor2, value=1):
    """torch.addcdiv of values promoted to one dtype (`check_addcdiv` saw them before)."""
    if not is_fused(dtype_of(input)):
        return input + _in_dtype(value, dtype_of(input)) * tensor1 / tensor2
    return addcdiv_p(input, tensor1, tensor2, value=value)


def _in_dtype(number, dtype):
    """A number as PyTorch's kernel of an integer dtype takes it: converted (truncated),
    with its overflow error; for complex dtypes as it is."""
    if dtype.kind not in "iu":
        return number
    _dtypes.check_convertible(number, _dtypes.from_numpy_dtype(dtype))
    return dtype.type(number)


def check_addcdiv(input, tensor1, tensor2, *, value=1):
    """PyTorch's refusal of integer division, from the tensors' own dtypes."""
    if all(isinstance(t, Tensor) and t.dtype.category < _dtypes.FLOAT
           for t in (tensor1, tensor2)):
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release "
            "addcdiv will perform a true division of tensor1 and tensor2. The historic "
            "addcdiv behavior can be implemented as (input + value * torch.trunc(tensor1 / "
            "tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / "
            "tensor2) for float inputs. The future addcdiv behavior is just the latter "
            "implementation: (input + value * tensor1 / tensor2), for all dtypes.")


def lerp(start, end, weight):
    """torch.lerp on the tensors' own values: PyTorch casts none of them (end and a tensor
    weight must have start's dtype, a float or complex one)."""
    dtype = dtype_of(start)
    scalar = isinstance(weight, numbers.Number)
    for name, value in (("end", end),) if scalar else (("end", end), ("weight", weight)):
        if dtype_of(value) != dtype:
            raise RuntimeError(f"expected dtype {_cpp_name(dtype)} for `{name}` but got dtype "
                               f"{_cpp_name(dtype_of(value))}")
    if dtype.kind not in "fc":
        kernel = "lerp_kernel_scalar" if scalar else "lerp_kernel_tensor"
        raise _dtypes.not_implemented_for(kernel, _dtypes.from_numpy_dtype(dtype))
    if not is_fused(dtype):
        return start + weight * (end - start)
    if scalar:
        return lerp_p(start, end, weight=weight)
    return lerp_tensor_p(start, end, weight)


def _cpp_name(dtype):
    return _dtypes.from_numpy_dtype(dtype).cpp_name
