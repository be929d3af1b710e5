"""Complex-valued special functions: Faddeeva's w (holomorphic) and the spherical harmonics
(differentiable in their real angles)."""
import math

import numpy as np
import scipy.special as _scipy

from ... import numpy as fnp
from ._rules import elementwise

_TWO_I_OVER_SQRT_PI = 2j / math.sqrt(math.pi)


def _complex_of(*arrays):
    """complex64 for single precision arguments, complex128 otherwise: SciPy computes float32
    in double precision; JAX, and funcgrad, keep single precision."""
    single = np.result_type(*arrays) in (np.float32, np.complex64)
    return np.complex64 if single else np.complex128


def _wofz_impl(z):
    return _scipy.wofz(np.asarray(z, _complex_of(z)))


def _sph_harm_y_impl(n, m, theta, phi):
    return np.asarray(_scipy.sph_harm_y(n, m, theta, phi), _complex_of(theta, phi))


# w(z) = exp(-z**2) erfc(-iz) solves w' = -2 z w + 2i / sqrt(pi).
wofz = elementwise(_wofz_impl, "wofz",
                   lambda ans, z: -2.0 * z * ans + _TWO_I_OVER_SQRT_PI)


def _ladder_coefficients(n, m):
    """The coefficients of Y_n^(m+1) and Y_n^(m-1) in the theta derivative of Y_n^m (0 for
    orders beyond the degree, where Y is 0 and so are its derivatives)."""
    valid = np.abs(m) <= n
    up = np.where(valid, np.sqrt(np.maximum((n - m) * (n + m + 1), 0)), 0.0)
    down = np.where(valid, np.sqrt(np.maximum((n + m) * (n - m + 1), 0)), 0.0)
    return up, down


def _theta_slope(ans, n, m, theta, phi):
    """dY_n^m/dtheta = (c_up e^(-i phi) Y_n^(m+1) - c_down e^(i phi) Y_n^(m-1)) / 2: the
    ladder operators, free of the 1/sin(theta) of the form with cot(theta); the neighbours
    are this primitive again, so every order of derivative follows."""
    up, down = _ladder_coefficients(n, m)
    rotation = fnp.exp(1j * phi)
    return 0.5 * (up * sph_harm_y(n, np.minimum(m + 1, n), theta, phi) / rotation
                  - down * rotation * sph_harm_y(n, np.maximum(m - 1, -n), theta, phi))


sph_harm_y = elementwise(_sph_harm_y_impl, "sph_harm_y", None, None, _theta_slope,
                         lambda ans, n, m, theta, phi: ans * (1j * m))
