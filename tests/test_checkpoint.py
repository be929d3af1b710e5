"""checkpoint (remat): same derivatives, intermediates recomputed instead of kept."""
import tracemalloc

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

RNG = np.random.default_rng(2)


def block(x):
    """Eight elementwise steps: eight intermediates a VJP would keep."""
    for _ in range(8):
        x = fnp.sin(x) * 1.01
    return x


def chain(b):
    def f(x):
        for _ in range(8):
            x = b(x)
        return fnp.sum(x)
    return f


def test_same_derivatives_in_every_mode():
    x = RNG.standard_normal(5)
    plain, remat = chain(block), chain(fg.checkpoint(block))
    np.testing.assert_allclose(fg.grad(remat)(x), fg.grad(plain)(x), rtol=1e-12)
    np.testing.assert_allclose(fg.jvp(remat, (x,), (x,))[1], fg.jvp(plain, (x,), (x,))[1])
    np.testing.assert_allclose(fg.hessian(remat)(x), fg.hessian(plain)(x), rtol=1e-10)
    np.testing.assert_allclose(fg.grad(fg.grad(lambda x: remat(x * x)))(0.3),
                               fg.grad(fg.grad(lambda x: plain(x * x)))(0.3), rtol=1e-10)


def test_pytrees_keywords_constants_and_integer_outputs():
    @fg.remat
    def layer(params, x, *, scale):
        h = fnp.tanh(x @ params["w"]) * scale
        return {"h": h, "count": np.sum(np.asarray(fg.stop_gradient(h)) > 0)}

    def loss(params, x, scale):
        out = layer(params, x, scale=scale)
        return fnp.sum(out["h"] ** 2) + out["count"]

    params = {"w": RNG.standard_normal((3, 2))}
    x, scale = RNG.standard_normal((4, 3)), 1.5
    expected = fg.grad(lambda p, x, s: fnp.sum((fnp.tanh(x @ p["w"]) * s) ** 2),
                       argnums=(0, 1, 2))(params, x, scale)
    got = fg.grad(loss, argnums=(0, 1, 2))(params, x, scale)
    for a, b in zip(fg.tree_util.tree_leaves(got), fg.tree_util.tree_leaves(expected)):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_backward_pass_runs_the_function_again():
    calls = []

    @fg.checkpoint
    def f(x):
        calls.append(1)
        return fnp.exp(x)

    fg.grad(lambda x: f(x) * 2.0)(1.0)
    assert len(calls) == 2
    f(1.0)  # no transform: just a call
    assert len(calls) == 3


def _memory(f, x):
    """Bytes held by the VJP after the forward pass, and the peak during vjp + pullback."""
    tracemalloc.start()
    try:
        _, pullback = fg.vjp(f, x)
        held = tracemalloc.get_traced_memory()[0]
        pullback(1.0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return held, peak


def test_checkpoint_keeps_fewer_intermediates():
    x = np.linspace(0.0, 1.0, 20_000)  # 160 kB per intermediate
    held, peak = _memory(chain(block), x)
    held_remat, peak_remat = _memory(chain(fg.checkpoint(block)), x)
    # 64 intermediates kept without remat; with it, the 8 block inputs (and, during the
    # backward pass, one block's intermediates at a time).
    assert held_remat < held / 4, (held_remat, held)
    assert peak_remat < peak / 2, (peak_remat, peak)


def test_forward_mode_just_calls_the_function():
    f = fg.checkpoint(lambda x: fnp.sin(x) ** 2)
    out, tangent = fg.jvp(f, (0.5,), (1.0,))
    assert tangent == pytest.approx(np.sin(1.0))
