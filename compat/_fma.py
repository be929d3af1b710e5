"""``a * b + c`` rounded once, as a fused multiply-add instruction computes it.

PyTorch's CPU kernels are compiled with floating-point contraction, so expressions such as
linspace's ``start + step * index`` round once where NumPy's two operations round twice
(a last-bit difference in most float32 values). NumPy has no FMA: it is emulated exactly
with error-free transformations (Dekker's product, Knuth's sum) and rounding to odd."""
import numpy as np


def fused_multiply_add(a, b, c):
    """``a * b + c`` with one rounding, elementwise, for float32 or float64 arrays of one
    dtype (infinities and NaN as the plain expression gives them)."""
    # Non-finite operands make NaN among the error terms, which the last line discards.
    with np.errstate(invalid="ignore", over="ignore"):
        product, product_error = _two_product(a, b)
        total, total_error = _two_sum(c, product)
        tail, tail_error = _two_sum(total_error, product_error)
        # Rounded to odd (toward the remaining error, onto an odd last bit), the tail
        # carries what one rounding of `total + tail` needs to round as the exact sum would.
        integer = np.int64 if tail.dtype.itemsize == 8 else np.int32
        needs_odd = (tail_error != 0) & (tail.view(integer) & 1 == 0)
        toward = np.where(tail_error > 0, np.inf, -np.inf).astype(tail.dtype)
        tail = np.where(needs_odd, np.nextafter(tail, toward), tail)
        result = total + tail
        return np.where(np.isfinite(result) & np.isfinite(product), result, product + c)


def _split(x):
    """``x`` as high + low parts of half its significand each (Dekker)."""
    factor = np.asarray(2.0 ** ((np.finfo(x.dtype).nmant + 2) // 2) + 1, x.dtype)
    scaled = factor * x
    high = scaled - (scaled - x)
    return high, x - high


def _two_product(a, b):
    """``a * b`` rounded, and its rounding error exactly."""
    product = a * b
    a_high, a_low = _split(a)
    b_high, b_low = _split(b)
    error = ((a_high * b_high - product) + a_high * b_low + a_low * b_high) + a_low * b_low
    return product, error


def _two_sum(a, b):
    """``a + b`` rounded, and its rounding error exactly."""
    total = a + b
    b_part = total - a
    return total, (a - (total - b_part)) + (b - b_part)
