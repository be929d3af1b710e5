"""Floating-point steps done exactly as PyTorch's compiled CPU kernels do them.

* Fused multiply-add. The kernels' ``x * std + mean`` is compiled into an FMA (one
  rounding); NumPy has no FMA, so `fma32` and `fma64` compute it exactly from error-free
  transformations.
* The C library. The kernels call libm's log, log1p, sin and cos; Python's math module calls
  the same libm, so `libm` maps a math function over an array (NumPy's own log and log1p
  differ from libm in the last bit for about one value in 300, and its sin and cos may).
"""
from fractions import Fraction
from math import copysign

import numpy as np

_f32, _f64 = np.float32, np.float64


def libm(function, values):
    """`function` (math.log, math.cos, ...) of each float64 in `values`, computed by the C
    library exactly as PyTorch's kernels compute it."""
    values = np.asarray(values, _f64)
    out = np.fromiter(map(function, values.ravel().tolist()), _f64, values.size)
    return out.reshape(values.shape)


def _two_sum(a, b):
    """s = fl(a + b) and the exact error e, a + b = s + e (Knuth)."""
    s = a + b
    b_virtual = s - a
    return s, (a - (s - b_virtual)) + (b - b_virtual)


def _round_to_odd_sum(a, b):
    """a + b rounded to odd: fl(a + b) unless inexact and even, then its odd neighbour
    towards the exact sum. Rounding that once more to a format at least two bits narrower
    gives the correctly rounded sum (Boldo and Melquiond)."""
    s, e = _two_sum(a, b)
    fix = (e != 0) & ((s.view(np.int64) & 1) == 0)
    if fix.any():
        s = np.where(fix, np.nextafter(s, np.where(e > 0, np.inf, -np.inf)), s)
    return s


def fma32(a, b, c):
    """fmaf(a, b, c) for float32 operands: a * b + c with a single rounding to float32."""
    if np.ndim(b) == 0 and b == 1:
        return np.add(a, c, dtype=_f32)  # one rounding already (and -0 + +0 is +0)
    if np.ndim(c) == 0 and c == 0 and not np.signbit(c):
        return _product_plus_zero(np.multiply(a, b, dtype=_f32), a, b)
    total = np.multiply(a, b, dtype=_f64) + np.asarray(c, _f64)  # the product is exact
    out = total.astype(_f32)
    # Rounding twice (to float64, then float32) can only differ from rounding once when the
    # float64 sum lands exactly halfway between two float32s, or below float32's normal
    # range; recompute those few with round-to-odd.
    halfway = (total.view(np.uint64) & np.uint64(0x1FFFFFFF)) == np.uint64(0x10000000)
    if halfway.any() or (np.abs(total) < 2.0 ** -125).any():
        suspect = halfway | (np.abs(total) < 2.0 ** -125)
        product = np.multiply(a, b, dtype=_f64)
        product, c = np.broadcast_arrays(product, np.asarray(c, _f64))
        exact = _round_to_odd_sum(product[suspect], c[suspect]).astype(_f32)
        out = np.array(out, copy=True)
        out[suspect] = exact
    return out


def _product_plus_zero(product, a, b):
    """fma(a, b, +0) from the rounded product: the product itself, except that an exactly
    zero product gives +0 (a product that only rounds to -0 keeps its sign)."""
    exact_zero = (np.asarray(a) == 0) | (np.asarray(b) == 0)
    return np.where(exact_zero, product + product.dtype.type(0), product)


_SPLITTER = 2.0 ** 27 + 1  # Veltkamp: splits a double into two 26-bit halves


def _two_product(a, b):
    """p = fl(a * b) and the exact error e, a * b = p + e (Dekker), for operands far from
    overflow and products far from underflow."""
    p = a * b
    a_big = _SPLITTER * a
    a_hi = a_big - (a_big - a)
    a_lo = a - a_hi
    b_big = _SPLITTER * b
    b_hi = b_big - (b_big - b)
    b_lo = b - b_hi
    return p, ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo


def fma64(a, b, c):
    """fma(a, b, c) for float64: a * b + c with a single rounding.

    Shortcuts where one rounding is what plain arithmetic does (c == +0: a * b; b == 1:
    a + c); otherwise Boldo and Melquiond's emulation: a * b = u_h + u_l exactly,
    c + u_h = t_h + t_l exactly, result = fl(t_h + RO(t_l + u_l)). Operands near the ends of
    the exponent range are computed with exact rationals instead.
    """
    a, b, c = np.broadcast_arrays(np.asarray(a, _f64), np.asarray(b, _f64),
                                  np.asarray(c, _f64))
    with np.errstate(over="ignore", invalid="ignore"):  # infinities are results too
        if not c.any() and not np.signbit(c).any():
            return _product_plus_zero(a * b, a, b)
        if (b == 1).all():
            return a + c
        product_hi, product_lo = _two_product(a, b)
        sum_hi, sum_lo = _two_sum(c, product_hi)
        out = sum_hi + _round_to_odd_sum(sum_lo, product_lo)
        # Non-finite operands, and zero products (where the sum is exact, signed zeros
        # included), are plain arithmetic.
        finite = np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
        zero_product = (a == 0) | (b == 0)
        out = np.where(~finite | zero_product, a * b + c, out)
        in_range = ((np.maximum(np.abs(a), np.abs(b)) < 2.0 ** 500) & (np.abs(c) < 2.0 ** 1000)
                    & ((np.abs(product_hi) > 2.0 ** -900) | zero_product))
    rational = finite & ~in_range
    if rational.any():
        out = np.array(out, copy=True)
        for index in zip(*np.nonzero(rational)):
            out[index] = _exact_fma(float(a[index]), float(b[index]), float(c[index]))
    return out


def _exact_fma(a, b, c):
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:  # -0 only when both terms are negative zeros
        negative_zeros = a * b == 0 and copysign(1.0, a * b) < 0 and copysign(1.0, c) < 0
        return -0.0 if negative_zeros and c == 0 else 0.0
    try:
        return float(exact)
    except OverflowError:
        return float("inf") if exact > 0 else float("-inf")
