"""Bad or unusual input behaves the same traced as untraced, with NumPy as the oracle.

Each case is a function ``f(module, x)`` run with ``numpy`` and with ``funcgrad.numpy``,
untraced and under grad, jvp, vmap (a batch of two) and jit. Where NumPy raises, every
call raises the same exception type, with a message that names the function (or NumPy's
own, where it names what is wrong); where NumPy
answers, every call gives NumPy's shape, dtype and values (vmap: for each element).
"""
import warnings

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

V = np.array([0.5, 1.0, 2.0])
A = np.arange(6.0).reshape(2, 3) + 0.5
S = np.array(1.5)
Z = np.array([1 + 2j, -1j, 0j])
EMPTY = np.zeros((0, 0))


def _real_sum(out):
    """A scalar of every floating-point output (grad needs one)."""
    if isinstance(out, (tuple, list)):
        return sum((_real_sum(part) for part in out), start=0.0)
    kind = np.dtype(fnp.result_type(out)).kind
    if kind not in "fc":
        return 0.0
    return fnp.sum(fnp.real(out) if kind == "c" else out)


def _traced_calls(f, x):
    """(transform, call) for each transform that applies to x."""
    module = fnp
    calls = [("untraced", lambda: f(module, x)),
             ("jit", lambda: fg.jit(lambda y: f(module, y))(x)),
             ("vmap", lambda: fg.vmap(lambda y: f(module, y))(np.stack([x, x])))]
    if np.asarray(x).dtype.kind in "fc":
        calls += [("grad", lambda: fg.grad(lambda y: _real_sum(f(module, y)))(x)),
                  ("jvp", lambda: fg.jvp(lambda y: f(module, y), (x,), (np.ones_like(x),))[0])]
    return calls


def _assert_same(ours, numpy_result):
    if isinstance(numpy_result, (tuple, list)):
        assert len(ours) == len(numpy_result)
        for mine, theirs in zip(ours, numpy_result):
            _assert_same(mine, theirs)
        return
    ours, numpy_result = np.asarray(ours), np.asarray(numpy_result)
    assert (ours.shape, ours.dtype) == (numpy_result.shape, numpy_result.dtype)
    np.testing.assert_allclose(ours, numpy_result, rtol=1e-12)


def _element(out, i):
    """Element i of a vmap's (possibly multiple) output."""
    if isinstance(out, (tuple, list)):
        return [_element(part, i) for part in out]
    return np.asarray(out)[i]


def _check(f, x, function):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        # (a histogram's bins read the samples' values: vmap loops over them, and says so)
        warnings.simplefilter("ignore", fg.core.BatchingFallbackWarning)
        try:
            expected = f(np, x)
        except Exception as error:  # noqa: BLE001 -- NumPy's exception is the oracle
            expected_error = type(error)
        else:
            expected_error = None
        for transform, call in _traced_calls(f, x):
            if expected_error is not None:
                with pytest.raises(expected_error, match=function):
                    call()
                continue
            out = call()
            if transform == "vmap":
                for i in range(2):
                    _assert_same(_element(out, i), expected)
            elif transform == "grad":
                assert np.shape(out) == np.shape(x)
            else:
                _assert_same(out, expected)


def _at_set(value):
    def f(module, x):
        if module is np:
            y = x.copy()
            y[0] = value
            return y
        return fnp.at(x)[0].set(value)
    return f


# name: (f(module, x), x, a pattern the error message holds, if NumPy raises)
CASES = {
    # fixed in this branch
    "split at out-of-order indices": (lambda m, x: m.split(x, [2, 1]), V, "split"),
    "array_split at indices past the end": (lambda m, x: m.array_split(x, [5, 1]), V, None),
    "array_split at a negative index": (lambda m, x: m.array_split(x, [1, -5], axis=1), A,
                                        None),
    "at[].set of a complex value into a real array": (_at_set(1j), V, "at"),
    "matmul of 0-d operands": (lambda m, x: m.matmul(x, x), S, "matmul"),
    "matmul of a 0-d operand and a vector": (lambda m, x: m.matmul(x, m.ones(2)), S,
                                             "matmul"),
    "cond of an empty matrix": (lambda m, x: m.linalg.cond(x), EMPTY, "cond"),
    "eigvals of an empty matrix": (lambda m, x: m.real(m.linalg.eigvals(x)), EMPTY, None),
    "max of empty slices with initial": (lambda m, x: m.max(x, axis=0, initial=1.0),
                                         np.zeros((0, 3)), None),
    "min of an empty array with initial": (lambda m, x: m.min(x, initial=-2.0),
                                           np.zeros(0), None),
    "mean with an integer dtype": (lambda m, x: m.mean(x, axis=0, dtype=int), A, None),
    "quantile of complex values": (lambda m, x: m.quantile(x, 0.5), Z, "quantile"),
    "percentile of complex values": (lambda m, x: m.percentile(x, 50), Z, "percentile"),
    "transpose with an axis out of range": (lambda m, x: m.transpose(x, (0, 2)), A,
                                            "transpose"),
    "ravel with an unknown order": (lambda m, x: m.ravel(x, order="Q"), A, "ravel"),
    # found by sweeping funcgrad.numpy against NumPy over odd arguments
    "sum over an array passed as the axis": (lambda m, x: m.sum(x, np.zeros((0, 2))), A,
                                             "sum"),
    "count_nonzero over an array of axes": (lambda m, x: m.count_nonzero(x, np.array([0])),
                                            A, "count_nonzero"),
    "trapezoid along axis None": (lambda m, x: m.trapezoid(x, axis=None), A, "trapezoid"),
    "unwrap along axis None": (lambda m, x: m.unwrap(x, axis=None), A, "unwrap"),
    "vecdot along axis None": (lambda m, x: m.vecdot(x, x, axis=None), A, "vecdot"),
    "rollaxis of axis None": (lambda m, x: m.rollaxis(x, None), A, "rollaxis"),
    "roll by a 2-D shift": (lambda m, x: m.roll(x, np.ones((2, 2), int)), A, "roll"),
    "ediff1d of booleans": (lambda m, x: m.ediff1d(x > 1), V, "ediff1d"),
    "gradient of booleans": (lambda m, x: m.gradient(x > 1), V, "gradient"),
    "median of empty rows": (lambda m, x: m.median(x, axis=-1), np.zeros((0, 4)), None),
    "quantiles of empty rows": (lambda m, x: m.quantile(x, [0.2, 0.5], axis=-1,
                                                        keepdims=True), np.zeros((0, 4)), None),
    "tile by an array of reps": (lambda m, x: m.tile(x, np.array([2, 1])), A, None),
    "broadcast_to an array shape": (lambda m, x: m.broadcast_to(x, np.array([2, 3])), V,
                                    None),
    "trapezoid of uint8 samples, which wrap": (lambda m, x: m.trapezoid(x, x),
                                               np.array([[200, 10, 90], [7, 250, 3]],
                                                        np.uint8), None),
    "trapezoid at sample points": (lambda m, x: m.trapezoid(x, x ** 2), V, None),
    "vecdot of uint8 vectors, which wrap": (lambda m, x: m.vecdot(x, x),
                                            np.array([[200, 10], [7, 250]], np.uint8), None),
    "vecdot of booleans": (lambda m, x: m.vecdot(x > 1, x > 0.7), V, None),
    "vecdot keeping the axis": (lambda m, x: m.vecdot(x, x, axis=0, keepdims=True), A, None),
    "histogramdd of float32 samples": (lambda m, x: m.histogramdd(x, bins=3),
                                       A.astype(np.float32), None),
    "histogramdd over a range": (lambda m, x: m.histogramdd(x, bins=2, range=[(0, 6)] * 3),
                                 A.astype(np.float32), None),
    "fftshift of an empty array": (lambda m, x: m.fft.fftshift(x), np.zeros((0, 3)), None),
    "max of int8 with a NumPy int64 initial": (lambda m, x: m.max(x, initial=np.int64(5)),
                                               np.array([1, 7], np.int8), None),
    "sum of float32 with a float64 initial": (lambda m, x: m.sum(x, initial=np.float64(2.5)),
                                              V.astype(np.float32), None),
    "max of booleans with initial 1": (lambda m, x: m.max(x > 1, initial=1), V, None),
    "prod of int8 with a whole float initial": (lambda m, x: m.prod(x, initial=2.0),
                                                np.array([3, -2], np.int8), None),
    # already consistent: kept so they stay so
    "sum over an axis out of range": (lambda m, x: m.sum(x, axis=2), A, "sum"),
    "mean over a repeated axis": (lambda m, x: m.mean(x, axis=(0, -2)), A, "mean"),
    "reshape to the wrong size": (lambda m, x: m.reshape(x, (4, 2)), A, "reshape"),
    "squeeze of an axis longer than 1": (lambda m, x: m.squeeze(x, axis=0), A, "squeeze"),
    "concatenate of mismatched shapes": (
        lambda m, x: m.concatenate([x, m.ones((2, 2))], axis=0), A, "concatenate"),
    "stack of mismatched shapes": (lambda m, x: m.stack([x, m.ones((3, 2))]), A, "stack"),
    "split into unequal sections": (lambda m, x: m.split(x, 2), V, "split"),
    "repeat a negative count": (lambda m, x: m.repeat(x, -1), V, "repeat"),
    "broadcast_to an incompatible shape": (lambda m, x: m.broadcast_to(x, (2, 2)), V,
                                           "broadcast"),
    "take_along_axis with an axis out of range": (
        lambda m, x: m.take_along_axis(x, np.zeros((2, 3), int), axis=2), A,
        "take_along_axis"),
    "inv of a non-square matrix": (lambda m, x: m.linalg.inv(x), A, "inv"),
    "solve with a mismatched b": (lambda m, x: m.linalg.solve(x, np.ones(3)),
                                  np.eye(2) + 0.5, "solve"),
    "einsum with too many subscripts": (lambda m, x: m.einsum("ijk->i", x), A, "einsum"),
    "tensordot over mismatched axes": (lambda m, x: m.tensordot(x, x, axes=1), A,
                                       "tensordot"),
    # (NumPy's own message, which names the shapes, as for every elementwise function)
    "where with unbroadcastable shapes": (lambda m, x: m.where(x > 1, x, np.ones(2)), V,
                                          "could not be broadcast together with shapes"),
    "partition with kth out of range": (lambda m, x: m.partition(x, 3), V, "partition"),
    "diff with a negative order": (lambda m, x: m.diff(x, n=-1), V, "diff"),
    "fft with n=0": (lambda m, x: m.fft.fft(x, n=0), V, "fft"),
    "trim_zeros of a 0-d array": (lambda m, x: m.trim_zeros(x), S, None),
    # the axes in the order given: NumPy pairs them with the spacings and returns them so
    "gradient along axes out of order": (lambda m, x: m.gradient(x * x, 1.0, 2.0, axis=(1, 0)),
                                         A, None),
    "gradient along a repeated axis": (lambda m, x: m.gradient(x, axis=(0, -2)), A, "gradient"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_traced_like_untraced(name):
    f, x, function = CASES[name]
    _check(f, x, function)


def test_split_gradient_counts_overlapping_pieces():
    # np.split slices a[b[k-1]:b[k]]: with bounds out of order, pieces overlap, and each
    # element's gradient counts the pieces that hold it.
    for bounds in ([2, 1], [5, 1], [1, -5], [0, 0, 3]):
        def loss(x):
            return sum(fnp.sum(piece * piece) for piece in fnp.array_split(x, bounds))
        held = np.concatenate(np.array_split(np.arange(V.size), bounds))
        counts = np.bincount(held, minlength=V.size)
        np.testing.assert_allclose(fg.grad(loss)(V), 2 * V * counts)
