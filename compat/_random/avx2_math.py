"""log, sin and cos in float32, step for step as PyTorch's AVX2 normal kernel computes them.

PyTorch fills large float32 tensors with normals using 8-lane AVX2 versions of log and
sincos (Cephes' single-precision algorithms, as ported to AVX by Pommier and Garberoglio)
compiled with FMA contraction. The results differ from libm's in the last bit for about a
third of the values, so the arithmetic is repeated here operation by operation in float32,
with `fma32` wherever the compiler fused a multiply and an add. Inputs are the kernel's:
log of (0, 1], sin and cos of [0, 2*pi).
"""
import numpy as np

from .exact import fma32

_f32 = np.float32

# log: x = m * 2**e with m in [sqrt(1/2), sqrt(2)); log(1 + t) ~ t - t**2/2 + t**3 P(t).
_SQRT_HALF = _f32(0.707106781186547524)
_LOG_POLY = tuple(_f32(c) for c in (
    7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1,
    -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1))
_LN2_LO = _f32(-2.12194440e-4)  # ln 2 = _LN2_HI + _LN2_LO, _LN2_HI exact in 9 bits
_LN2_HI = _f32(0.693359375)

# sin and cos: reduce by multiples of pi/4 (pi/4 in three parts), then a polynomial each.
_FOUR_OVER_PI = _f32(1.27323954473516)
_PI_4_PARTS = tuple(_f32(c) for c in (
    -0.78515625, -2.4187564849853515625e-4, -3.77489497744594108e-8))
_SIN_POLY = tuple(_f32(c) for c in (-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1))
_COS_POLY = tuple(_f32(c) for c in (2.443315711809948e-5, -1.388731625493765e-3,
                                   4.166664568298827e-2))

_ONE, _HALF = _f32(1.0), _f32(0.5)


def log_unit(x):
    """log(x) for float32 x in (0, 1], as PyTorch's AVX2 log256_ps computes it."""
    bits = x.view(np.int32)
    exponent = ((bits >> 23) - 126).astype(_f32)
    mantissa = ((bits & 0x007FFFFF) | 0x3F000000).view(_f32)  # in [0.5, 1)
    small = mantissa < _SQRT_HALF
    exponent = exponent - np.where(small, _ONE, _f32(0))
    t = (mantissa - _ONE) + np.where(small, mantissa, _f32(0))
    t2 = t * t
    poly = np.full_like(t, _LOG_POLY[0])
    for coefficient in _LOG_POLY[1:]:
        poly = fma32(poly, t, coefficient)
    poly = fma32(poly * t, t2, exponent * _LN2_LO)
    poly = poly - t2 * _HALF
    return (t + poly) + exponent * _LN2_HI


def sincos(x):
    """(sin x, cos x) for float32 x in [0, 2*pi), as PyTorch's AVX2 sincos256_ps computes
    them."""
    octant = (x * _FOUR_OVER_PI).astype(np.int32)
    octant = (octant + 1) & ~1
    multiple = octant.astype(_f32)
    for part in _PI_4_PARTS:
        x = fma32(multiple, part, x)
    x2 = x * x
    cos_poly = fma32(fma32(_COS_POLY[0], x2, _COS_POLY[1]), x2, _COS_POLY[2]) * x2
    cos_poly = fma32(cos_poly, x2, -(x2 * _HALF)) + _ONE
    sin_poly = fma32(fma32(_SIN_POLY[0], x2, _SIN_POLY[1]), x2, _SIN_POLY[2]) * x2
    sin_poly = fma32(sin_poly, x, x)
    swapped = (octant & 2) != 0
    sin = np.where(swapped, cos_poly, sin_poly)
    cos = np.where(swapped, sin_poly, cos_poly)
    sin = np.where((octant & 4) != 0, -sin, sin)
    cos = np.where(((octant - 2) & 4) == 0, -cos, cos)
    return sin, cos
