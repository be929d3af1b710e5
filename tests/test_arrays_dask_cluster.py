"""funcgrad's Dask results computed by a distributed cluster of two worker processes: the
task graphs funcgrad builds pickle (no closure of funcgrad's leaks into a task) and
compute to NumPy's values there. Few and fast: starting the cluster takes seconds."""
import numpy as np
import pytest

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402


@pytest.fixture(scope="module")
def client():
    # No dashboard (it would need bokeh, and a port); workers of one thread each.
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        yield client


def _data(n=200, d=5):
    rng = np.random.default_rng(0)
    X, y, w = rng.normal(size=(n, d)), np.sign(rng.normal(size=n)), rng.normal(size=d)
    return X, y, w, da.from_array(X, chunks=(50, d)), da.from_array(y, chunks=50)


def logistic_loss(w, X, y):
    return fnp.sum(fnp.log1p(fnp.exp(-y * (X @ w))))


def test_grad_computed_on_worker_processes(client):
    X, y, w, dX, dy = _data()
    lazy = fg.grad(logistic_loss)(w, dX, dy)
    assert isinstance(lazy, da.Array)
    np.testing.assert_allclose(client.compute(lazy).result(),
                               fg.grad(logistic_loss)(w, X, y), rtol=1e-12)


def test_jitted_gradient_descent_steps_on_worker_processes(client):
    X, y, w, dX, dy = _data()
    step = fg.jit(lambda w, X, y: w - 1e-3 * fg.grad(logistic_loss)(w, X, y))
    expected, lazy = w, da.from_array(w, chunks=5)
    for _ in range(3):  # one graph of three steps, computed once
        expected, lazy = step(expected, X, y), step(lazy, dX, dy)
    assert step.trace_count == 2  # NumPy's program and Dask's
    np.testing.assert_allclose(client.compute(lazy).result(), expected, rtol=1e-12)


def test_repeated_picks_and_products_computed_on_worker_processes(client):
    """The graphs funcgrad builds by hand (ufunc.at block by block, for the gradient of
    repeated picks) and prod's rolled VJP pickle and compute on the workers."""
    X, y, w, dX, dy = _data()
    picks = np.array([3, 3, 199, -1, 50, 3])

    def loss(X, w):
        return fnp.sum(X[picks] @ w) + fnp.sum(fnp.prod(X * w, axis=1))
    lazy = fg.grad(loss, argnums=(0, 1))(dX, w)
    assert all(isinstance(part, da.Array) for part in lazy)
    for computed, expected in zip(client.gather(client.compute(list(lazy))),
                                  fg.grad(loss, argnums=(0, 1))(X, w)):
        np.testing.assert_allclose(computed, expected, rtol=1e-12)
