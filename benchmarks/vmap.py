"""vmap's workloads against torch.func, in one run (issue 14).

    python -m benchmarks.vmap [--rounds 7] [--cpu-time]

1. Hessians and Jacobians: ``hessian`` of ``sum(tanh(A @ x) ** 2)`` and ``jacrev`` of
   ``tanh(A @ x) * x`` for n = 50 and 200 (A is n x n), funcgrad against
   ``torch.func.hessian``/``jacrev`` (float64 both), against the Python loops over the basis
   they replaced, and (jacrev) against its floor: the NumPy operations its batched program
   executes, without funcgrad around them.
2. Per-example gradients of the seed network's loss (the tutorials' two-layer ReLU net,
   D_in=1000, H=100, D_out=10) over a batch of 64: ``vmap(grad(loss), in_axes=(None, None,
   0, 0))`` against ``torch.func.vmap(torch.func.grad(...))`` and a Python loop of `grad`,
   and the memory floor: allocating and writing the 51 MB of the output.

Prints the median time of each (interleaved rounds, so machine noise hits all alike) and
the ratios. To time an older funcgrad, run this file from outside the repository with
that funcgrad on the path: ``cd /tmp && PYTHONPATH=/old/checkout:/this/checkout python -m
benchmarks.vmap`` (an old funcgrad without vmap skips that row).
"""
import argparse
import os
import platform
import time

# One BLAS thread: on a shared machine OpenBLAS's threads make matmul times swing widely.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import numpy as np  # noqa: E402 -- after the thread settings

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402

from .peers import available  # noqa: E402
from .timing import interleaved_medians  # noqa: E402

BATCH, D_IN, H, D_OUT = 64, 1000, 100, 10


def jacobian_workloads(n, rng):
    """{name: {peer: callable}} for the Hessian and Jacobian workloads at size n."""
    a = rng.standard_normal((n, n)) / np.sqrt(n)
    x = rng.standard_normal(n)
    scalar = lambda x: fnp.sum(fnp.tanh(a @ x) ** 2)  # noqa: E731
    vector = lambda x: fnp.tanh(a @ x) * x  # noqa: E731
    basis = np.eye(n)
    value_and_pullback = lambda: fg.vjp(vector, x)  # noqa: E731
    gradient = fg.grad(scalar)

    def jacrev_loop():  # what jacrev did before vmap: one backward pass per output
        pullback = value_and_pullback()[1]
        return np.stack([pullback(row)[0] for row in basis])

    def hessian_loop():  # forward over reverse, one tangent per input
        return np.stack([fg.jvp(gradient, (x,), (row,))[1] for row in basis])

    def numpy_operations():
        """jacrev's floor: the NumPy operations its batched program executes, bare (the
        forward pass, the identity's rows, and the backward pass of each primitive on all
        rows at once, the one n x n x n product among them)."""
        t = np.tanh(a @ x)
        _ = t * x
        rows = np.eye(n)
        return rows * t + (rows * x * (1.0 - np.square(t))) @ a

    work = {f"hessian n={n}": {"funcgrad loop of jvp(grad)": hessian_loop,
                               "funcgrad": lambda: fg.hessian(scalar)(x)},
            f"jacrev n={n}": {"funcgrad loop of vjp": jacrev_loop,
                              "floor: its NumPy operations": numpy_operations,
                              "funcgrad": lambda: fg.jacrev(vector)(x)}}
    np.testing.assert_allclose(numpy_operations(), fg.jacrev(vector)(x), rtol=1e-12,
                               atol=1e-14)
    np.testing.assert_allclose(jacrev_loop(), fg.jacrev(vector)(x), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(hessian_loop(), fg.hessian(scalar)(x), rtol=1e-10, atol=1e-12)
    if available("torch"):
        import torch
        import torch.func
        ta, tx = torch.from_numpy(a), torch.from_numpy(x)
        t_scalar = lambda x: torch.sum(torch.tanh(ta @ x) ** 2)  # noqa: E731
        t_vector = lambda x: torch.tanh(ta @ x) * x  # noqa: E731
        work[f"hessian n={n}"]["torch.func"] = lambda: torch.func.hessian(t_scalar)(tx)
        work[f"jacrev n={n}"]["torch.func"] = lambda: torch.func.jacrev(t_vector)(tx)
        check = {"hessian": (fg.hessian(scalar)(x), torch.func.hessian(t_scalar)(tx)),
                 "jacrev": (fg.jacrev(vector)(x), torch.func.jacrev(t_vector)(tx))}
        for name, (ours, theirs) in check.items():
            np.testing.assert_allclose(ours, theirs.numpy(), rtol=1e-10, atol=1e-12,
                                       err_msg=f"{name} n={n} differs from torch.func")
    return work


def loss(w1, w2, x, y):
    hidden = fnp.maximum(x @ w1, 0.0)
    return fnp.sum((hidden @ w2 - y) ** 2)


def per_example_workloads(rng):
    w1 = rng.standard_normal((D_IN, H)) * 0.03
    w2 = rng.standard_normal((H, D_OUT)) * 0.1
    x = rng.standard_normal((BATCH, D_IN))
    y = rng.standard_normal((BATCH, D_OUT))
    one = fg.grad(loss, argnums=(0, 1))

    def loop():
        grads = [one(w1, w2, x[i], y[i]) for i in range(BATCH)]
        return np.stack([g[0] for g in grads]), np.stack([g[1] for g in grads])

    # The floor: the first layer's per-example gradients are BATCH x D_IN x H float64
    # numbers (51 MB) that any method must write into new memory.
    work = {"funcgrad loop of grad": loop,
            "floor: write the output": lambda: np.ones((BATCH, D_IN, H))}
    ours = looped = loop()
    if hasattr(fg, "vmap"):  # (an older funcgrad, timed for comparison, has none)
        per_example = fg.vmap(one, in_axes=(None, None, 0, 0))
        work["funcgrad vmap(grad)"] = lambda: per_example(w1, w2, x, y)
        ours = per_example(w1, w2, x, y)
        for a, b in zip(ours, looped):
            np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)
    if available("torch"):
        import torch
        import torch.func

        def t_loss(w1, w2, x, y):
            hidden = torch.clamp(x @ w1, min=0.0)
            return torch.sum((hidden @ w2 - y) ** 2)

        tensors = [torch.from_numpy(v) for v in (w1, w2, x, y)]
        t_per_example = torch.func.vmap(torch.func.grad(t_loss, argnums=(0, 1)),
                                        in_dims=(None, None, 0, 0))
        work["torch.func vmap(grad)"] = lambda: t_per_example(*tensors)
        for a, b in zip(ours, t_per_example(*tensors)):
            np.testing.assert_allclose(a, b.numpy(), rtol=1e-10, atol=1e-12)
    return {"per-example grads (batch 64)": work}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--sizes", type=int, nargs="*", default=[50, 200])
    parser.add_argument("--cpu-time", action="store_true",
                        help="time by this thread's CPU time (time.thread_time), not wall "
                             "time: for a machine loaded by other processes")
    args = parser.parse_args()
    if available("torch"):
        import torch
        torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    print(f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"NumPy {np.__version__}, funcgrad from {os.path.dirname(fg.__file__)}")
    workloads = {}
    for n in args.sizes:
        workloads.update(jacobian_workloads(n, rng))
    workloads.update(per_example_workloads(rng))
    for name, runs in workloads.items():
        medians = interleaved_medians(runs, args.rounds,
                                      time.thread_time if args.cpu_time else time.perf_counter)
        reference = medians.get("torch.func") or medians.get("torch.func vmap(grad)")
        loop = next((seconds for peer, seconds in medians.items()
                     if peer.startswith("funcgrad loop")), None)
        print(f"{name}:")
        for peer, seconds in medians.items():
            ratio = f"  {seconds / reference:5.2f}x torch.func" if reference else ""
            if loop:
                ratio += f"  {loop / seconds:5.1f}x faster than the loop"
            print(f"  {peer:30s} {seconds * 1e3:9.3f} ms{ratio}")


if __name__ == "__main__":
    main()
