"""The workloads, written once per peer in that peer's own idiom.

Each ``make_*`` takes a peer name and returns a zero-argument callable that does one
unit of work (or None where the workload has no meaning for that peer).
"""
import os

import numpy as np

from . import bare_tape

OVERHEAD_CHAIN = 100                 # primitives per timed call
NET = dict(N=64, D_in=1000, H=100, D_out=10)
LEARNING_RATE = 1e-6


# ---- per-primitive overhead: a chain of sin on a (3,) array, forward + backward -----------

def make_overhead(peer):
    x = np.linspace(0.1, 0.3, 3)
    if peer == "numpy":
        def run():
            y = x
            for _ in range(OVERHEAD_CHAIN):
                y = np.sin(y)
            return y
        return run
    if peer in ("funcgrad", "autograd"):
        if peer == "funcgrad":
            import funcgrad as ad
            import funcgrad.numpy as anp
        else:
            import autograd as ad
            import autograd.numpy as anp

        def chain(y):
            for _ in range(OVERHEAD_CHAIN):
                y = anp.sin(y)
            return anp.sum(y)
        grad = ad.grad(chain)
        return lambda: grad(x)
    torch = _torch_like(peer)
    leaf = torch.tensor(x, requires_grad=True)

    def run():
        y = leaf
        for _ in range(OVERHEAD_CHAIN):
            y = torch.sin(y)
        y.sum().backward()
        leaf.grad = None
    return run


# ---- issue 16's chain: sin(x) * 1.01 + 0.1 on a (3,) float64 array, forward + backward ----
# Three recorded operations a link, two of them with a Python number: what compat's
# operand handling costs shows here, not in the sin-only chain.

LINKS = 1000                         # links per timed call: 3,000 recorded operations
LINK_OPS = 3


def make_links(peer):
    x = np.linspace(0.1, 0.3, 3)
    if peer == "numpy":
        def run():
            y = x
            for _ in range(LINKS):
                y = np.sin(y) * 1.01 + 0.1
            return y
        return run
    if peer in ("funcgrad", "autograd"):
        if peer == "funcgrad":
            import funcgrad as ad
            import funcgrad.numpy as anp
        else:
            import autograd as ad
            import autograd.numpy as anp

        def chain(y):
            for _ in range(LINKS):
                y = anp.sin(y) * 1.01 + 0.1
            return anp.sum(y)
        grad = ad.grad(chain)
        return lambda: grad(x)
    torch = _torch_like(peer)
    leaf = torch.tensor(x, requires_grad=True)

    def run():
        y = leaf
        for _ in range(LINKS):
            y = torch.sin(y) * 1.01 + 0.1
        y.sum().backward()
        leaf.grad = None
    return run


# ---- the seed network: N=64, 1000-100-10, float32, relu, squared loss, one SGD step -------

def network_data(seed=0):
    rng = np.random.default_rng(seed)
    n, d_in, h, d_out = NET["N"], NET["D_in"], NET["H"], NET["D_out"]
    return tuple(rng.standard_normal(shape).astype(np.float32)
                 for shape in [(n, d_in), (n, d_out), (d_in, h), (h, d_out)])


def numpy_step(x, y, w1, w2):
    """The hand-written floor: forward, gradients by hand, update in place."""
    h = x @ w1
    h_relu = np.maximum(h, 0)
    y_pred = h_relu @ w2
    loss = np.square(y_pred - y).sum()
    grad_y_pred = 2.0 * (y_pred - y)
    grad_w2 = h_relu.T @ grad_y_pred
    grad_h = grad_y_pred @ w2.T
    grad_h[h < 0] = 0
    grad_w1 = x.T @ grad_h
    w1 -= LEARNING_RATE * grad_w1
    w2 -= LEARNING_RATE * grad_w2
    return loss


# The network step's extra row: the least a Python eager tape can do (benchmarks/bare_tape.py).
BARE_TAPE = "bare Python tape (floor)"


def make_network_step(peer):
    x, y, w1, w2 = network_data()
    if peer == "numpy":
        return lambda: numpy_step(x, y, w1, w2)
    if peer == BARE_TAPE:
        return bare_tape.network_step(x, y, w1, w2, LEARNING_RATE)
    if peer in ("funcgrad", "autograd"):
        value_and_grad, loss = _functional_network(peer)
        # autograd differentiates one argument, so both peers take the weights as a tuple.
        vg = value_and_grad(lambda weights, x, y: loss(*weights, x, y))

        def run():
            nonlocal w1, w2
            value, (g1, g2) = vg((w1, w2), x, y)
            # The gradients are plain arrays and nothing holds on to the weights once vg
            # returns, so the update is in place, as in numpy_step.
            w1 -= LEARNING_RATE * g1
            w2 -= LEARNING_RATE * g2
            return value
        return run
    torch = _torch_like(peer)
    return torch_network_step(torch, torch.from_numpy(x), torch.from_numpy(y),
                              torch.from_numpy(w1.copy()), torch.from_numpy(w2.copy()))


def torch_network_step(torch, x, y, w1, w2):
    """The step in PyTorch's idiom (PyTorch or compat) on tensors of any device; w1 and w2
    become leaves that require grad."""
    w1.requires_grad_()
    w2.requires_grad_()

    def run():
        loss = (x.mm(w1).clamp(min=0).mm(w2) - y).pow(2).sum()
        loss.backward()
        with torch.no_grad():
            w1.sub_(LEARNING_RATE * w1.grad)
            w2.sub_(LEARNING_RATE * w2.grad)
        w1.grad = None
        w2.grad = None
        return loss
    return run


def _functional_network(peer):
    if peer == "funcgrad":
        import funcgrad as ad
        import funcgrad.numpy as anp
    else:
        import autograd as ad
        import autograd.numpy as anp

    def loss(w1, w2, x, y):
        y_pred = anp.maximum(x @ w1, 0.0) @ w2
        return anp.sum((y_pred - y) ** 2)
    return ad.value_and_grad, loss


def make_network_forward(peer):
    """funcgrad's loss on plain arrays: the denominator of the cheap-gradient ratio."""
    if peer != "funcgrad":
        return None
    x, y, w1, w2 = network_data()
    _, loss = _functional_network("funcgrad")
    return lambda: loss(w1, w2, x, y)


def make_network_gradient(peer):
    if peer != "funcgrad":
        return None
    x, y, w1, w2 = network_data()
    value_and_grad, loss = _functional_network("funcgrad")
    vg = value_and_grad(loss, argnums=(0, 1))
    return lambda: vg(w1, w2, x, y)


def _torch_like(peer):
    if peer == "torch":
        import torch
        torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "1")))
        return torch
    import compat
    return compat
