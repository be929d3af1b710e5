"""funcgrad.scipy.signal where JAX has no counterpart: SciPy's values for the boundaries
'wrap' and 'symm', a non-zero fillvalue, inputs neither of which is the larger in every
dimension, integer inputs; finite-difference derivatives there; and the argument errors.
(tests/oracle_cases/scipy_signal.py checks the rest against JAX.)"""
import numpy as np
import pytest
import scipy.signal

import funcgrad.scipy.signal as signal
from funcgrad.test_util import check_grads

_RNG = np.random.default_rng(7)
# in2 larger, smaller, and larger in one dimension only (not for 'valid').
_SHAPES_2D = [((4, 5), (2, 3)), ((2, 3), (4, 4)), ((2, 5), (3, 2))]


def _pair(shapes, complex_):
    arrays = [_RNG.normal(size=shape) for shape in shapes]
    if complex_:
        arrays = [x + 1j * _RNG.normal(size=x.shape) for x in arrays]
    return arrays


@pytest.mark.parametrize("complex_", [False, True], ids=["real", "complex"])
@pytest.mark.parametrize("shapes", _SHAPES_2D, ids=str)
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("boundary, fillvalue", [("fill", 1.5), ("wrap", 0), ("symm", 0)])
@pytest.mark.parametrize("name", ["convolve2d", "correlate2d"])
def test_2d_boundaries_match_scipy(name, boundary, fillvalue, mode, shapes, complex_):
    a, b = _pair(shapes, complex_)
    ours, theirs = getattr(signal, name), getattr(scipy.signal, name)
    if mode == "valid" and shapes == _SHAPES_2D[2]:
        with pytest.raises(ValueError, match=f"{name}.*at least as large"):
            ours(a, b, mode, boundary, fillvalue)
        return
    expected = theirs(a, b, mode, boundary, fillvalue)
    np.testing.assert_allclose(ours(a, b, mode, boundary, fillvalue), expected, rtol=1e-12,
                               atol=1e-12)
    check_grads(lambda a, b: ours(a, b, mode, boundary, fillvalue), (a, b), order=1)


@pytest.mark.parametrize("mode", ["full", "same"])
@pytest.mark.parametrize("name", ["convolve", "correlate"])
def test_neither_larger_everywhere(name, mode):
    # JAX refuses these shapes; SciPy does not.
    a, b = _pair(((2, 5, 3), (3, 2, 3)), complex_=False)
    np.testing.assert_allclose(getattr(signal, name)(a, b, mode),
                               getattr(scipy.signal, name)(a, b, mode), rtol=1e-12)
    check_grads(lambda a, b: getattr(signal, name)(a, b, mode), (a, b), order=2)


@pytest.mark.parametrize("method", ["auto", "direct", "fft"])
def test_integers_and_methods_as_scipy(method):
    a, b = np.arange(6).reshape(2, 3), np.array([[1, -2], [3, 1]])
    ours, theirs = signal.convolve(a, b, method=method), scipy.signal.convolve(a, b, method=method)
    assert ours.dtype == theirs.dtype
    np.testing.assert_allclose(ours, theirs)


def test_scalars_and_empty_as_scipy():
    assert signal.convolve(2.0, 3.0) == scipy.signal.convolve(2.0, 3.0)
    assert signal.convolve(np.zeros(0), np.ones(2)).shape == (0,)


@pytest.mark.parametrize("call, message", [
    (lambda: signal.convolve(np.ones(3), np.ones(2), "middle"), "mode must be one of"),
    (lambda: signal.convolve(np.ones(3), np.ones(2), ([0], [0])), "keyword arguments"),
    (lambda: signal.convolve(np.ones(3), np.ones(2), method="fast"), "method must be"),
    (lambda: signal.convolve(np.ones(3), np.ones((2, 2))), "same dimensionality"),
    (lambda: signal.convolve(np.ones((2, 3)), np.ones((3, 2)), "valid"), "at least as large"),
    (lambda: signal.convolve(np.ones((2, 3)), np.ones((3, 2)), axes=([0], [0, 1])),
     "pairs 1 axes of in1 with 2"),
    (lambda: signal.convolve(np.ones((2, 3)), np.ones((3, 2)), axes=([0], [2])),
     "out of range"),
    (lambda: signal.convolve(np.ones((2, 3)), np.ones((3, 2)), axes=([1], [1]),
                             dot_axes=([1], [0])), "both convolved and contracted"),
    (lambda: signal.convolve(np.ones((2, 3)), np.ones((3, 4)), axes=([1], [0]),
                             dot_axes=([0], [1])), "equal lengths"),
    (lambda: signal.convolve2d(np.ones(3), np.ones(2)), "must both be 2-D"),
    (lambda: signal.convolve2d(np.ones((3, 3)), np.ones((2, 2)), boundary="reflect"),
     "boundary must be one of"),
    (lambda: signal.correlate2d(np.ones((3, 3)), np.ones((2, 2)), "nearest"),
     "mode must be one of"),
])
def test_bad_arguments_are_named(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()
