"""polydiv's trimmed remainder: NumPy's values and shapes, and derivatives that are not lost.

The oracle case compares the untrimmed form with JAX; here the default (trimmed) form is
checked against NumPy and against the untrimmed form's derivatives.
"""
import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import given

import funcgrad as fg
import funcgrad.numpy as fnp
from oracle import array, dtypes

divisions = st.tuples(st.integers(1, 6), dtypes()).flatmap(lambda m_dtype: st.tuples(
    array((m_dtype[0],), m_dtype[1]),
    st.integers(1, m_dtype[0]).flatmap(lambda n: array((n,), m_dtype[1], exclude_zero=True))))


@given(divisions)
def test_trimmed_polydiv_matches_numpy(u_v):
    u, v = u_v
    for ours, numpys in zip(fnp.polydiv(u, v), np.polydiv(u, v)):
        assert (ours.shape, ours.dtype) == (numpys.shape, numpys.dtype)
        tolerance = 1e-5 if ours.dtype == np.float32 else 1e-12
        np.testing.assert_allclose(ours, numpys, rtol=tolerance, atol=tolerance)


@given(divisions, array((3,)))
def test_trimmed_remainder_has_the_untrimmed_derivative_or_raises(u_v, x):
    u, v = (a.astype(np.float64) for a in u_v)

    def remainder_at_x(u, v, trim):
        return fnp.sum(fnp.polyval(fnp.polydiv(u, v, trim_leading_zeros=trim)[1], x))

    full = fg.grad(remainder_at_x, argnums=(0, 1))(u, v, False)
    try:
        trimmed = fg.grad(remainder_at_x, argnums=(0, 1))(u, v, True)
    except ValueError as error:
        # Raised only where NumPy drops a genuine remainder coefficient.
        assert "trim_leading_zeros=False" in str(error)
        assert np.polydiv(u, v)[1].shape[0] < max(len(v) - 1, 1)
        return
    for t, f in zip(trimmed, full):
        np.testing.assert_allclose(t, f, rtol=1e-9, atol=1e-9)


def test_dropping_a_remainder_coefficient_that_carries_a_derivative_raises():
    # The remainder of 0 / x**2 is 0 (NumPy: [0.]), but its linear coefficient moves with u[3].
    v, x = np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0])
    tangent = np.array([0.0, 0.0, 0.0, 1.0, 0.0])
    untrimmed = fg.jvp(lambda u: fnp.polyval(fnp.polydiv(u, v, trim_leading_zeros=False)[1], x),
                       (np.zeros(5),), (tangent,))[1]
    np.testing.assert_array_equal(untrimmed, x)
    with pytest.raises(ValueError, match=r"polydiv.*leading coefficient.*trim_leading_zeros"):
        fg.jvp(lambda u: fnp.polydiv(u, v)[1], (np.zeros(5),), (tangent,))
