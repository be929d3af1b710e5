"""Set routines and histograms beyond the JAX oracle (tests/oracle_cases): misuse gives an
error of NumPy's type that names the function and the argument, and what JAX cannot
compute (string bin estimators) equals NumPy."""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

X = np.array([3.0, 1.0, 3.0, 2.0, 0.5])


def _traced(function):
    """``function`` of a traced X (so funcgrad's own code runs, not NumPy's)."""
    return lambda: fg.grad(lambda x: fnp.sum(fnp.asarray(function(x)[0]) * 0.0))(X)


@pytest.mark.parametrize("call, numpy_call, error, words", [
    (lambda x: (fnp.histogram(x, bins=0),), lambda: np.histogram(X, bins=0), ValueError,
     ("histogram", "bins", "positive")),
    (lambda x: (fnp.histogram(x, bins=3, range=(2.0, 1.0)),),
     lambda: np.histogram(X, bins=3, range=(2.0, 1.0)), ValueError, ("histogram", "range")),
    (lambda x: (fnp.histogram(x, bins=[1.0, 0.0, 2.0]),),
     lambda: np.histogram(X, bins=[1.0, 0.0, 2.0]), ValueError,
     ("histogram", "bins", "monotonically")),
    (lambda x: (fnp.histogram(x, weights=np.ones(2)),),
     lambda: np.histogram(X, weights=np.ones(2)), ValueError, ("histogram", "weights")),
    (lambda x: (fnp.unique(x, size=-1),), None, ValueError, ("unique", "size")),
    (lambda x: (fnp.intersect1d(x, x, size=1.5),), None, TypeError, ("intersect1d", "size")),
    (lambda x: (fnp.unique(x[:0], size=2),), None, ValueError, ("unique", "fill_value")),
])
def test_misuse_names_the_function_and_argument(call, numpy_call, error, words):
    if numpy_call is not None:
        with pytest.raises(error):
            numpy_call()
    with pytest.raises(error) as raised:
        _traced(call)()
    assert all(word in str(raised.value) for word in words), str(raised.value)


@pytest.mark.parametrize("bins", ["auto", "fd", "sturges", "sqrt"])
def test_string_bins_are_numpys(bins):
    """NumPy's estimators (JAX has none) on traced samples: NumPy's counts and edges,
    constants; with weights, NumPy's refusal."""
    def counts_and_edges(x):
        counts, edges = fnp.histogram(x, bins=bins)
        return fnp.sum(x * 0.0) + fnp.sum(edges * 0.0), (counts, edges)

    (_, (counts, edges)), _ = fg.value_and_grad(counts_and_edges, has_aux=True)(X)
    expected_counts, expected_edges = np.histogram(X, bins=bins)
    np.testing.assert_array_equal(edges, expected_edges)
    np.testing.assert_array_equal(counts, expected_counts)
    with pytest.raises(TypeError):
        np.histogram(X, bins=bins, weights=X)
    with pytest.raises(TypeError):
        fg.grad(lambda w: fnp.sum(fnp.histogram(X, bins=bins, weights=w)[0]))(X)


@pytest.mark.parametrize("call", [
    lambda np_: np_.unique(X, return_index=True, return_inverse=True, return_counts=True),
    lambda np_: np_.unique(X.reshape(5, 1), axis=0, return_inverse=True),
    lambda np_: tuple(np_.unique_all(X)),
    lambda np_: np_.intersect1d(X, X[:2], return_indices=True),
    lambda np_: np_.setxor1d(X, np.array([1.0, 7.0])),
    lambda np_: np_.histogram(X.astype(np.float32), bins=3, range=(0, 4)),
    lambda np_: np_.histogram2d(X, X, bins=[2, 3]),
])
def test_untraced_calls_are_numpys(call):
    ours, theirs = call(fnp), call(np)
    for a, b in zip(ours if isinstance(ours, tuple) else (ours,),
                    theirs if isinstance(theirs, tuple) else (theirs,)):
        for x, y in zip(a if isinstance(a, list) else [a], b if isinstance(b, list) else [b]):
            assert np.result_type(x) == np.result_type(y)
            np.testing.assert_array_equal(x, y)
