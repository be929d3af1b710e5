"""Oracle cases: the numpy.poly* functions, roots, vander, logspace and geomspace.

NumPy computes some of these in float64 for float32 input (it multiplies by int64
arrays), where JAX keeps float32; those results are cast back to the input's dtype so
the two can be compared. Roots come in an order that LAPACK chooses, so the roots case
compares symmetric functions of them.
"""
import hypothesis.strategies as st
import jax.numpy as jnp
import numpy as np

from oracle import Case, array, dtypes, floats, well_scaled


def _like(values, x):
    return tuple(v.astype(x.dtype) for v in values)


def _arithmetic(np, a, b, k):
    k = np.asarray(k)
    return _like((np.polyadd(a, b), np.polysub(b, a), np.polysub(a, a[:1]), np.polymul(a, b),
                  np.polyder(b), np.polyder(b, 2), np.polyder(a, 0), np.polyint(a),
                  np.polyint(b, 2, k=k), np.polyint(a, 3, k=2.0 * k[0])), a)


@st.composite
def arithmetic_args(draw):
    dtype = draw(dtypes())
    k = draw(st.lists(floats(-2.0, 2.0), min_size=2, max_size=2))
    return (draw(array((3,), dtype)), draw(array((4,), dtype))), {"k": k}


def _poly(np, zeros, matrix):
    # A real matrix's characteristic polynomial is real; JAX returns it as complex.
    return np.poly(zeros), np.real(np.poly(matrix))


@st.composite
def poly_args(draw):
    dtype = draw(dtypes())
    # Eigenvalues near 3, 0 and -3 (disjoint Gershgorin discs): distinct.
    matrix = np.diag([3.0, 0.0, -3.0]) + well_scaled(draw(array((3, 3), dtype, -0.6, 0.6)))
    return (draw(array((3,), dtype)), matrix.astype(dtype)), {}


def _symmetric(np, found):
    return np.sum(found), np.sum(found * found), np.prod(found), np.sum(np.exp(found))


@st.composite
def roots_args(draw):
    """Coefficients with distinct, well-separated roots: real, or a complex pair."""
    dtype = draw(dtypes())
    lead = draw(st.sampled_from([1.0, -1.5, 2.0]))
    if draw(st.booleans()):
        found = np.array([-2.0, 0.0, 2.0]) + draw(array((3,), np.float64, -0.5, 0.5))
    else:
        pair = draw(floats(-1.0, 1.0)) + 1j * draw(floats(0.5, 1.5))
        found = np.array([pair, np.conj(pair), draw(floats(-2.0, 2.0))])
    # A root near 0 but not at it would make a coefficient like 1e-45.
    return (np.real(lead * np.poly(well_scaled(found))).astype(dtype),), {}


def _polydiv(np, u, v):
    # Untrimmed (JAX's default), the remainder keeps len(u) coefficients. NumPy has no such
    # form: tests/test_polynomial.py checks the trimmed one against NumPy and this one.
    return np.polydiv(u, v, trim_leading_zeros=False)


@st.composite
def polydiv_args(draw):
    dtype = draw(dtypes())
    v = draw(array((3,), dtype))
    v[0] = draw(st.sampled_from([1.0, -1.5, 2.5]))
    return (draw(array((5,), dtype)), v), {}


def _polyfit(np, x, y, ys, w):
    return _like((np.polyfit(x, y, 2), np.polyfit(x, ys, 1), np.polyfit(x, y, 1, w=w),
                  np.vander(x), np.vander(x, 3, increasing=True), np.vander(x, 1)), x)


@st.composite
def polyfit_args(draw):
    """Points near -1.5, -0.5, 0.5, 1.5 and 2.5 (distinct), weights within [0.5, 2]."""
    dtype = draw(dtypes())
    x = np.linspace(-1.5, 2.5, 5) + draw(array((5,), np.float64, -0.3, 0.3))
    return (x.astype(dtype), draw(array((5,), dtype)), draw(array((5, 2), dtype)),
            draw(array((5,), dtype, 0.5, 2.0))), {}


def _spaces(np, a, b, base, ends):
    # geomspace needs start and stop of one sign: a and b are positive.
    return _like((np.logspace(a, b, 5), np.logspace(a, b, 4, endpoint=False, base=base),
                  np.logspace(ends, b, 3, axis=1), np.geomspace(a, b, 5),
                  np.geomspace(-b, -a, 4, endpoint=False), np.geomspace(a, b, 1),
                  np.geomspace(ends, b, 3, axis=-1)), a)


@st.composite
def spaces_args(draw):
    dtype = draw(dtypes())
    return (draw(array((), dtype, 0.25, 2.0)), draw(array((), dtype, 0.25, 2.0)),
            draw(array((), dtype, 1.5, 3.0)), draw(array((2,), dtype, 0.25, 2.0))), {}


CASES = [
    Case("polynomial_arithmetic", _arithmetic, arithmetic_args(), order=2),
    Case("polynomial_poly", _poly, poly_args()),
    Case("polynomial_roots", lambda np, p: _symmetric(np, np.roots(p)), roots_args(),
         jax_fun=lambda p: _symmetric(jnp, jnp.roots(p, strip_zeros=False))),
    Case("polynomial_polydiv", _polydiv, polydiv_args(), jnp.polydiv, order=2),
    Case("polynomial_polyfit_vander", _polyfit, polyfit_args()),
    Case("polynomial_logspace_geomspace", _spaces, spaces_args(), order=2),
]
