"""Transforms on CuPy arrays (GPU): results are CuPy arrays on the inputs' device and equal
NumPy's. Skipped where CuPy or a GPU is absent (CI); tests/test_arrays_duck.py runs the
same path on the CPU with an array type that, like CuPy's, refuses implicit conversion."""
import numpy as np
import pytest

cp = pytest.importorskip("cupy", reason="CuPy is not installed (the tests need a GPU)")
try:
    _GPUS = cp.cuda.runtime.getDeviceCount()
except cp.cuda.runtime.CUDARuntimeError:
    _GPUS = 0
pytestmark = pytest.mark.skipif(_GPUS == 0, reason="no CUDA GPU visible to CuPy")

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
from funcgrad.tree_util import tree_flatten, tree_map  # noqa: E402
from like_calls import CREATION, SAMPLERS, assert_created_as_numpy_would, draw  # noqa: E402
from test_arrays_duck import FUNCTIONS  # noqa: E402
from test_arrays_duck import _data as _family_data  # noqa: E402


def logistic_loss(w, X, y):
    return fnp.sum(fnp.log1p(fnp.exp(-y * (X @ w))))


def _data(seed=0, n=64, d=8):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, d)), np.sign(rng.normal(size=n)), rng.normal(size=d)


def _assert_on_gpu_equal(result, expected, device):
    assert isinstance(result, cp.ndarray), type(result)
    assert result.device == device
    np.testing.assert_allclose(result.get(), expected, rtol=1e-10, atol=1e-12)


def test_grad_value_and_grad_vjp_jvp():
    X, y, w = _data()
    gX, gy, gw = cp.asarray(X), cp.asarray(y), cp.asarray(w)
    device = gX.device
    _assert_on_gpu_equal(fg.grad(logistic_loss)(gw, gX, gy),
                         fg.grad(logistic_loss)(w, X, y), device)
    value, grads = fg.value_and_grad(logistic_loss, argnums=(0, 1))(gw, gX, gy)
    expected_value, expected_grads = fg.value_and_grad(logistic_loss, argnums=(0, 1))(w, X, y)
    _assert_on_gpu_equal(value, expected_value, device)
    for ours, theirs in zip(grads, expected_grads):
        _assert_on_gpu_equal(ours, theirs, device)
    out, pullback = fg.vjp(lambda w: fnp.tanh(gX @ w), gw)
    expected_out, expected_pullback = fg.vjp(lambda w: fnp.tanh(X @ w), w)
    _assert_on_gpu_equal(out, expected_out, device)
    _assert_on_gpu_equal(pullback(cp.ones_like(out))[0],
                         expected_pullback(np.ones_like(expected_out))[0], device)
    primal, tangent = fg.jvp(lambda w: fnp.tanh(gX @ w), (gw,), (cp.ones_like(gw),))
    expected_primal, expected_tangent = fg.jvp(lambda w: fnp.tanh(X @ w), (w,),
                                               (np.ones_like(w),))
    _assert_on_gpu_equal(tangent, expected_tangent, device)


def test_jit_and_vmap():
    X, y, w = _data(1)
    gX, gy, gw = cp.asarray(X), cp.asarray(y), cp.asarray(w)
    step = fg.jit(lambda w, X, y: w - 0.1 * fg.grad(logistic_loss)(w, X, y))
    _assert_on_gpu_equal(step(gw, gX, gy), step(w, X, y), gX.device)
    per_row = fg.vmap(fg.grad(lambda x, w: fnp.sin(x @ w)), in_axes=(0, None))
    _assert_on_gpu_equal(per_row(gX, gw), per_row(X, w), gX.device)


def _gpu(tree):
    return tree_map(lambda x: cp.asarray(x) if isinstance(x, np.ndarray) else x, tree)


def _assert_tree_on_gpu_equal(result, expected):
    ours, _ = tree_flatten(result)
    theirs, _ = tree_flatten(expected)
    assert len(ours) == len(theirs)
    device = cp.cuda.Device()
    for a, b in zip(ours, theirs):
        _assert_on_gpu_equal(a, b, device)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_every_family_vjp_jvp_and_jacobians_on_the_gpu(name):
    """The families of tests/test_arrays_duck.py (elementwise, products, reductions,
    indexing, shapes, linear algebra, where) on CuPy arrays."""
    fun = FUNCTIONS[name]
    args = _family_data(1)
    out, pullback = fg.vjp(fun, *args)
    gpu_out, gpu_pullback = fg.vjp(fun, *_gpu(args))
    _assert_tree_on_gpu_equal(gpu_out, out)
    ct = np.ones_like(out)
    _assert_tree_on_gpu_equal(gpu_pullback(cp.asarray(ct)), pullback(ct))
    tangents = tuple(np.full_like(a, 0.5) for a in args)
    _assert_tree_on_gpu_equal(fg.jvp(fun, _gpu(args), _gpu(tangents)),
                              fg.jvp(fun, args, tangents))
    _assert_tree_on_gpu_equal(fg.jacrev(fun, argnums=1)(*_gpu(args)),
                              fg.jacrev(fun, argnums=1)(*args))
    _assert_tree_on_gpu_equal(fg.jit(fg.jacfwd(fun, argnums=1))(*_gpu(args)),
                              fg.jacfwd(fun, argnums=1)(*args))


def test_hessian_and_float32_stay_on_the_gpu():
    X, y, w = _data(2)
    hess = fg.hessian(logistic_loss)
    _assert_on_gpu_equal(hess(cp.asarray(w), cp.asarray(X), cp.asarray(y)), hess(w, X, y),
                         cp.cuda.Device())
    single = fg.grad(logistic_loss)(*_gpu((w.astype(np.float32), X.astype(np.float32),
                                           y.astype(np.float32))))
    assert single.dtype == np.float32
    np.testing.assert_allclose(single.get(), fg.grad(logistic_loss)(w, X, y), rtol=1e-4)


def test_gradients_own_their_memory_on_the_gpu():
    w = cp.arange(3.0)
    g1, g2 = fg.grad(lambda a, b: fnp.sum(a + b), argnums=(0, 1))(w, w)
    g1[0] = 100.0
    assert float(g2[0]) == 1.0 and float(w[0]) == 0.0
    out = fg.jit(lambda x: x)(w)
    out[1] = -5.0
    assert float(w[1]) == 1.0


def test_a_second_gpu_keeps_its_device():
    if _GPUS < 2:
        pytest.skip("one GPU: the device-placement check needs two")
    X, y, w = _data(3)
    with cp.cuda.Device(1):
        args = _gpu((w, X, y))
        result = fg.grad(logistic_loss)(*args)
    _assert_on_gpu_equal(result, fg.grad(logistic_loss)(w, X, y), args[0].device)


def test_mixing_numpy_and_cupy_is_cupys_error():
    X, y, w = _data(4)
    with pytest.raises(TypeError):
        fg.grad(logistic_loss)(w, cp.asarray(X), cp.asarray(y))


@pytest.mark.parametrize("name", sorted(CREATION))
def test_creation_like_a_cupy_array(name):
    like = cp.zeros(2)
    made = CREATION[name](like)
    assert_created_as_numpy_would(name, made, cp.ndarray, cp.asnumpy)
    assert made.device == like.device


@pytest.mark.parametrize("name", sorted(SAMPLERS))
@pytest.mark.filterwarnings("ignore:This function is deprecated. Please call randint")
# CuPy marks its multivariate_normal experimental; funcgrad passes the call on as NumPy's.
@pytest.mark.filterwarnings("ignore:cupy.random.RandomState.multivariate_normal is experimental")
def test_random_like_a_cupy_array_is_drawn_on_its_device_seeded_by_numpy(name):
    like = cp.zeros((2, 3))
    made = draw(fnp.random, name, 5, like=like)
    assert isinstance(made, cp.ndarray), type(made)
    assert made.device == like.device
    assert made.shape == draw(np.random, name, 5).shape
    # funcgrad.numpy.random.seed makes CuPy's draws (cupy.random.RandomState) reproducible.
    np.testing.assert_array_equal(made.get(), draw(fnp.random, name, 5, like=like).get())


def test_random_like_a_cupy_array_draws_curands_stream():
    like = cp.zeros(1000)
    fnp.random.seed(0)
    made = fnp.random.standard_normal(1000, like=like)
    fnp.random.seed(0)
    seed = np.random.randint(0, 2 ** 32, dtype=np.int64)
    np.testing.assert_array_equal(made.get(),
                                  cp.random.RandomState(int(seed)).standard_normal(1000).get())


def test_repeated_indices_accumulate_through_cupyx_scatter():
    """The VJP of indexing with repeated integers, and x.at[].add/max/min with repeated
    indices, go through cupyx.scatter_add/scatter_max/scatter_min."""
    picks = np.array([0, 2, 0])

    def f(x, v):
        return fnp.sum(fnp.sin(x[picks]) + x.at[:, picks].add(v).max()
                       + fnp.at(x)[picks, 1].max(v[0]).sum()
                       + fnp.at(x)[picks, 3].min(v[1]).sum())
    x = np.arange(12.0).reshape(3, 4)
    v = np.linspace(-1.0, 1.0, 9).reshape(3, 3)
    gx, gv = cp.asarray(x), cp.asarray(v)
    fun = fg.value_and_grad(f, argnums=(0, 1))
    value, grads = fun(gx, gv)
    expected_value, expected_grads = fun(x, v)
    _assert_on_gpu_equal(value, expected_value, gx.device)
    for ours, theirs in zip(grads, expected_grads):
        _assert_on_gpu_equal(ours, theirs, gx.device)


def test_repeated_indices_of_a_complex_array_accumulate_on_the_gpu():
    """cupyx.scatter_add takes no complex values (CuPy 14): the real and imaginary parts
    are scattered apart."""
    x = np.arange(6.0).reshape(2, 3) * (1.0 - 0.5j)
    picks = np.array([2, 0, 2, 2])
    f = fg.vjp(lambda x: x[:, picks] * (2.0 + 1.0j), x)[1]
    gf = fg.vjp(lambda x: x[:, picks] * (2.0 + 1.0j), cp.asarray(x))[1]
    ct = np.arange(8.0).reshape(2, 4) + 1j
    _assert_on_gpu_equal(gf(cp.asarray(ct))[0], f(ct)[0], cp.asarray(x).device)
