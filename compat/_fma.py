"""``a * b + c`` rounded once, as a fused multiply-add instruction computes it.

PyTorch's CPU kernels are compiled with floating-point contraction, so expressions such as
linspace's ``start + step * index`` round once where NumPy's two operations round twice
(a last-bit difference in most float32 values). NumPy has no FMA: it is emulated exactly,
float32 in float64 (where the product is exact) with rounding to odd where rounding twice
could differ, float64 with error-free transformations (Dekker's product, Knuth's sum) and
rounding to odd; large arrays block by block."""
import numpy as np


def fused_multiply_add(a, b, c):
    """``a * b + c`` with one rounding, elementwise, for float32 or float64 arrays of one
    dtype (for float64, infinities and NaN as the plain expression gives them)."""
    return _in_blocks(_through_float64 if a.dtype == np.float32 else _error_free, a, b, c)


def _error_free(a, b, c):
    """`fused_multiply_add` by error-free transformations in the dtype itself."""
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


_BLOCK = 1 << 14  # elements: a block's float64 temporaries stay in cache (and off mmap)


def _in_blocks(compute, *arrays):
    """`compute` of elementwise operands, block by block along the flattened result where
    every operand is a whole array or one number (temporaries as large as the result
    would cost more in memory traffic and page faults than the arithmetic itself)."""
    size = max(x.size for x in arrays)
    if size <= 2 * _BLOCK:  # the common case, decided without a broadcast (~5 us)
        return compute(*arrays)
    shape = np.broadcast_shapes(*(x.shape for x in arrays))
    if any(x.size not in (1, size) for x in arrays) or size != int(np.prod(shape)):
        return compute(*arrays)
    flat = [np.ravel(x) if np.size(x) == size else np.reshape(x, ()) for x in arrays]
    first = compute(*(x[:_BLOCK] if x.ndim else x for x in flat))
    out = np.empty(size, first.dtype)
    out[:_BLOCK] = first
    for start in range(_BLOCK, size, _BLOCK):
        out[start:start + _BLOCK] = compute(*(x[start:start + _BLOCK] if x.ndim else x
                                              for x in flat))
    return out.reshape(shape)


_FLOAT32_TIE = 1 << 28  # the low 29 bits of a float64 halfway between two float32 values
_FLOAT32_TINY = float(np.finfo(np.float32).tiny)


def _through_float64(a, b, c):
    """float32 ``a * b + c`` computed in float64, where the product is exact and the sum
    rounds once; rounding that again to float32 gives the once-rounded float32 result
    unless the float64 sum lies halfway between two float32 values (an exact value off
    the tie rounded onto it), or below float32's normal range: those few sums are rounded
    to odd instead (toward the sum's rounding error), which the second rounding cannot
    spoil. Several times faster than the error-free transformations in float32."""
    with np.errstate(invalid="ignore", over="ignore"):  # inf * 0, inf - inf: NaN, as the hardware
        product = np.multiply(a, b, dtype=np.float64)
        total = np.asarray(np.add(product, c, dtype=np.float64))
        suspect = np.flatnonzero(((total.view(np.int64) & (2 * _FLOAT32_TIE - 1))
                                  == _FLOAT32_TIE) | (np.abs(total) < _FLOAT32_TINY))
        if suspect.size:
            product, addend = (np.broadcast_to(v, total.shape).ravel()[suspect]
                               for v in (product, c))
            addend = addend.astype(np.float64)
            flat = total.reshape(-1)  # a view of total: written through
            near, error = _two_sum(product, addend)
            needs_odd = (error != 0) & (near.view(np.int64) & 1 == 0)
            toward = np.where(error > 0, np.inf, -np.inf)
            flat[suspect] = np.where(needs_odd, np.nextafter(near, toward), near)
        return total.astype(np.float32)
