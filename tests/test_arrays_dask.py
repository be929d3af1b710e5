"""Transforms on Dask arrays (DESIGN.md decision 16): values and derivatives equal NumPy's,
and come back as Dask arrays, lazy until computed.

Run with Dask's threaded scheduler; `test_arrays_dask_cluster.py` repeats a few on a
distributed cluster of worker processes.
"""
import numpy as np
import pytest

da = pytest.importorskip("dask.array")
import dask  # noqa: E402

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
from dask_helpers import counting_computes  # noqa: E402


@pytest.fixture(autouse=True, scope="module")
def _threaded_scheduler():
    with dask.config.set(scheduler="threads"):
        yield


def _data(seed=0, n=60, d=4):
    rng = np.random.default_rng(seed)
    X, y, w = rng.normal(size=(n, d)), np.sign(rng.normal(size=n)), rng.normal(size=d)
    return X, y, w, da.from_array(X, chunks=(15, d)), da.from_array(y, chunks=15), \
        da.from_array(w, chunks=2)


def logistic_loss(w, X, y):
    return fnp.sum(fnp.log1p(fnp.exp(-y * (X @ w))))


def _assert_lazy_equal(lazy, expected):
    assert isinstance(lazy, da.Array), type(lazy)
    np.testing.assert_allclose(lazy.compute(), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dask_w", [False, True], ids=["numpy-w", "dask-w"])
def test_grad_of_logistic_loss_is_lazy_and_equals_numpy(dask_w):
    X, y, w, dX, dy, dw = _data()
    expected = fg.grad(logistic_loss)(w, X, y)
    with counting_computes() as computes:
        lazy = fg.grad(logistic_loss)(dw if dask_w else w, dX, dy)
    assert computes == [], "grad computed a Dask array while tracing"
    _assert_lazy_equal(lazy, expected)


def test_value_and_grad_and_grad_with_respect_to_the_data():
    X, y, w, dX, dy, dw = _data(1)
    (value, grads) = fg.value_and_grad(logistic_loss, argnums=(0, 1))(w, X, y)
    with counting_computes() as computes:
        lazy_value, lazy_grads = fg.value_and_grad(logistic_loss, argnums=(0, 1))(dw, dX, dy)
    assert computes == []
    _assert_lazy_equal(lazy_value, value)
    for lazy, expected in zip(lazy_grads, grads):
        _assert_lazy_equal(lazy, expected)


def test_vjp_and_jvp():
    X, y, w, dX, dy, dw = _data(2)

    def margins(w, X):
        return fnp.tanh(X @ w) * fnp.sin(w).sum()

    out, pullback = fg.vjp(margins, w, X)
    lazy_out, lazy_pullback = fg.vjp(margins, dw, dX)
    ct = np.linspace(-1, 1, X.shape[0])
    _assert_lazy_equal(lazy_out, out)
    for lazy, expected in zip(lazy_pullback(da.from_array(ct, chunks=15)), pullback(ct)):
        _assert_lazy_equal(lazy, expected)
    primal, tangent = fg.jvp(margins, (w, X), (w[::-1].copy(), X * 0.5))
    lazy_primal, lazy_tangent = fg.jvp(margins, (dw, dX), (dw[::-1], dX * 0.5))
    _assert_lazy_equal(lazy_primal, primal)
    _assert_lazy_equal(lazy_tangent, tangent)
