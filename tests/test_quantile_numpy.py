"""funcgrad.numpy's quantile, percentile and median against NumPy's own, bit for bit.

The oracle tests compare with JAX to a tolerance; NumPy users expect NumPy's exact values:
its two-sided lerp (from the nearer of the two places), the dtype its promotion gives a
Python-float q or an array q, median as the mean of the middle two.
"""
import warnings

import numpy as np
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import funcgrad.numpy as fnp

_DTYPES = st.sampled_from([np.float32, np.float64, np.int32, np.int64])
_METHODS = st.sampled_from(["linear", "midpoint", "lower", "higher", "nearest"])


@st.composite
def _samples(draw):
    dtype = draw(_DTYPES)
    n = draw(st.integers(1, 9))
    if np.dtype(dtype).kind == "f":
        elements = st.floats(-1e6, 1e6, width=np.dtype(dtype).itemsize * 8)
    else:
        elements = st.integers(-1000, 1000)
    return draw(hnp.arrays(dtype, (3, n), elements=elements))


@st.composite
def _qs(draw):
    kind = draw(st.sampled_from(["python", "float64", "float32"]))
    if kind == "python":
        return draw(st.floats(0, 1))
    return draw(hnp.arrays(np.dtype(kind), draw(st.integers(1, 3)),
                           elements=st.floats(0, 1, width=32)))


def _same(ours, theirs):
    assert np.asarray(ours).dtype == np.asarray(theirs).dtype
    np.testing.assert_array_equal(ours, theirs, strict=False)


@given(_samples(), _qs(), _METHODS)
def test_quantile_is_numpys(x, q, method):
    _same(fnp.quantile(x, q, axis=1, method=method), np.quantile(x, q, axis=1, method=method))


@given(_samples(), _qs())
def test_percentile_and_median_are_numpys(x, q):
    _same(fnp.percentile(x, np.multiply(q, 100), axis=1),
          np.percentile(x, np.multiply(q, 100), axis=1))
    _same(fnp.median(x, axis=1), np.median(x, axis=1))


def test_an_infinite_upper_place_gives_nan_past_the_middle():
    """NumPy's and PyTorch's lerp from the nearer end: inf - (inf - a) * (1 - w) is NaN."""
    x = np.array([-0.0, np.inf, 1e30])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's inf - inf
        for q in (0.25, 0.75):
            _same(fnp.quantile(x, q), np.quantile(x, q))


def test_a_whole_position_takes_its_element():
    """At a whole position the place below and above are one (as JAX and PyTorch take it):
    NumPy lerps toward the next place with weight 0 instead, NaN when that one is infinite."""
    assert fnp.quantile(np.array([1.0, 2.0, np.inf]), 0.5) == 2.0
