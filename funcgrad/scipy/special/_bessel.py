"""Bessel functions of the first and second kind (J, Y) and the modified ones of the first
kind (I) of any order, differentiable in the argument; the order is a constant. Each
derivative is the recurrence C'_v = (C_{v-1} - C_{v+1}) / 2 (I'_v = (I_{v-1} + I_{v+1}) / 2),
which, unlike C_{v-1} - v C_v / x, has no 0 / 0 at x = 0."""
import numpy as np
import scipy.special as _scipy

from ... import numpy as fnp
from ._rules import elementwise, in_precision_of


def _orders_around(n):
    return np.subtract(n, 1), np.add(n, 1)


def _first_kind_slope(ans, n, x):
    below, above = _orders_around(n)
    return 0.5 * (jn(below, x) - jn(above, x))


def _second_kind_slope(ans, n, x):
    below, above = _orders_around(n)
    return 0.5 * (yn(below, x) - yn(above, x))


def _modified_slope(ans, v, x):
    below, above = _orders_around(v)
    return 0.5 * (iv(below, x) + iv(above, x))


def _scaled_modified_slope(ans, v, x):
    """ive = e**-|x| iv: its slope is that of iv, scaled, less sign(x) ive."""
    below, above = _orders_around(v)
    return 0.5 * (ive(below, x) + ive(above, x)) - fnp.sign(x) * ans


jn = elementwise(in_precision_of(_scipy.jv, 1), "jn", None, _first_kind_slope)
yn = elementwise(in_precision_of(_scipy.yn, 1), "yn", None, _second_kind_slope)
iv = elementwise(in_precision_of(_scipy.iv, 1), "iv", None, _modified_slope)
ive = elementwise(in_precision_of(_scipy.ive, 1), "ive", None, _scaled_modified_slope)
j0 = elementwise(_scipy.j0, "j0", lambda ans, x: -j1(x))
j1 = elementwise(_scipy.j1, "j1", lambda ans, x: 0.5 * (j0(x) - jn(2, x)))
y0 = elementwise(_scipy.y0, "y0", lambda ans, x: -y1(x))
y1 = elementwise(_scipy.y1, "y1", lambda ans, x: 0.5 * (y0(x) - yn(2, x)))
