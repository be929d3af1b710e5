"""Long runs: a training loop's memory stays flat, and no node of the graph a backward pass
used outlives it (nor, in compat, the tensors that refer to it, as in PyTorch)."""
import gc
import tracemalloc
import weakref

import numpy as np
import pytest

import compat
import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.core import ReverseBox, instruments

RNG = np.random.default_rng(0)
FEATURES = RNG.normal(size=(32, 8))
TARGETS = np.tanh(FEATURES @ RNG.normal(size=8))


def loss(params, x, y):
    hidden = fnp.tanh(x @ params["w1"] + params["b1"])
    return fnp.mean((hidden @ params["w2"] - y) ** 2)


def initial_params():
    return {"w1": RNG.normal(size=(8, 16)) * 0.3, "b1": np.zeros(16),
            "w2": RNG.normal(size=16) * 0.3}


def functional_step(params):
    value, grads = fg.value_and_grad(loss)(params, FEATURES, TARGETS)
    return {k: params[k] - 0.05 * grads[k] for k in params}, value


def compat_step(params):
    for p in params.values():
        p.grad = None
    out = compat.tanh(compat.from_numpy(FEATURES) @ params["w1"] + params["b1"])
    value = ((out @ params["w2"] - compat.from_numpy(TARGETS)) ** 2).mean()
    value.backward()
    with compat.no_grad():
        for p in params.values():
            p -= 0.05 * p.grad
    return params, value.item()


def compat_params():
    return {k: compat.tensor(v, requires_grad=True) for k, v in initial_params().items()}


def traced_memory_growth(step, params, steps, warmup=1000):
    """Bytes allocated (and still held) between step `warmup` and step `steps`."""
    for _ in range(warmup):
        params, _ = step(params)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        first = None
        for _ in range(steps - warmup):
            params, value = step(params)
            first = value if first is None else first
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert value < first  # it trained
    return after - before


@pytest.mark.slow
@pytest.mark.parametrize("step, params", [(functional_step, initial_params),
                                          (compat_step, compat_params)],
                         ids=["value_and_grad", "compat backward"])
def test_memory_stays_flat_over_20000_training_steps(step, params):
    growth = traced_memory_growth(step, params(), 20_000)
    # A leak of one array (or node) per step would be >= 19,000 x 100 bytes.
    assert growth < 64_000, f"{growth} bytes more after 19,000 more steps"


class _NodeWatch:
    """Weak references to the node of every primitive applied under a reverse trace
    while it is active (through the engine's `instruments.on_result` hook)."""

    def __enter__(self):
        self.nodes = []
        self.previous = instruments.on_result

        def note(trace, primitive, out):
            if isinstance(out, ReverseBox):
                self.nodes.append(weakref.ref(out.node))
            if self.previous is not None:
                self.previous(trace, primitive, out)

        instruments.on_result = note
        return self

    def __exit__(self, *exc_info):
        instruments.on_result = self.previous

    def alive(self):
        return [ref() for ref in self.nodes if ref() is not None]


X = np.array([0.3, -1.2, 0.8])

TRANSFORMS = {
    "grad": lambda f: fg.grad(f)(X),
    "value_and_grad": lambda f: fg.value_and_grad(f)(X),
    "hessian": lambda f: fg.hessian(f)(X),
    "hvp": lambda f: fg.hvp(f, (X,), (X,)),
    "jacrev": lambda f: fg.jacrev(f)(X),
    "checkpoint": lambda f: fg.grad(fg.checkpoint(f))(X),
    "vmap(grad)": lambda f: fg.vmap(fg.grad(f))(np.stack([X, -X])),
    "jit(grad)": lambda f: fg.jit(fg.grad(f))(X),
    "linearize": lambda f: fg.linearize(f, X)[1](X),
}


def scalar(x):
    h = fnp.sin(x) * x
    return fnp.sum(h * h[::-1]) + fnp.max(fnp.exp(h))


@pytest.mark.parametrize("transform", sorted(TRANSFORMS))
def test_no_node_outlives_its_transform(transform):
    """Freed by reference counting as the transform returns: no cycle keeps a node."""
    with _NodeWatch() as watch:
        TRANSFORMS[transform](scalar)
    assert watch.nodes
    assert not watch.alive(), f"{len(watch.alive())} nodes alive after {transform}"


def test_vjp_nodes_live_as_long_as_its_pullback():
    with _NodeWatch() as watch:
        _, pullback = fg.vjp(fnp.sin, X)
    assert watch.alive()
    pullback(X)
    pullback(X)  # may be called again: the graph is kept
    del pullback
    assert not watch.alive()


def test_compat_nodes_live_as_long_as_their_tensors():
    """As in PyTorch: backward frees what the nodes saved; the nodes themselves go with
    the last tensor whose grad_fn leads to them."""
    x = compat.tensor(X, requires_grad=True)
    h = compat.exp(compat.sin(x) * x)
    out = (h * h).sum()
    nodes = [weakref.ref(t._box.node) for t in (h, out)]
    out.backward()
    exp_node = nodes[0]()
    assert exp_node.frees and exp_node.residuals is None  # exp saved its result: freed
    del h, out
    del exp_node
    assert all(ref() is None for ref in nodes)
    assert x.grad is not None and x._box.node is not None  # the leaf keeps its own
