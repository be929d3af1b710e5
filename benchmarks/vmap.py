"""vmap's workloads against torch.func, in one run (issue 14).

    python -m benchmarks.vmap [--rounds 7] [--cpu-time]

(`python -m benchmarks` runs them too, into docs/benchmarks.md.)

1. Hessians and Jacobians: ``hessian`` of ``sum(tanh(A @ x) ** 2)`` and ``jacrev`` of
   ``tanh(A @ x) * x`` for n = 50 and 200 (A is n x n), funcgrad against
   ``torch.func.hessian``/``jacrev`` (float64 both), against the Python loops over the basis
   they replaced, and (jacrev) against its floor: the NumPy operations its batched program
   executes, without funcgrad around them.
2. Per-example gradients of the seed network's loss (the tutorials' two-layer ReLU net,
   D_in=1000, H=100, D_out=10) over a batch of 64, in float32 (the tutorials' dtype) and
   float64: ``vmap(grad(loss), in_axes=(None, None, 0, 0))`` against
   ``torch.func.vmap(torch.func.grad(...))`` and a Python loop of `grad`, and three floors:
   writing the output (26 or 51 MB, ``np.ones``), computing its outer products alone
   (``np.einsum``, NumPy's fastest loop for them), and the whole computation written by
   hand in NumPy (forward, cotangents, both layers' outer products); and the same outer
   products computed by torch (``torch.einsum``), whose kernel sets torch.func's pace.

Prints the median time of each (interleaved rounds, so machine noise hits all alike) and
the ratios. To time an older funcgrad, run this file from outside the repository with
that funcgrad on the path: ``cd /tmp && PYTHONPATH=/old/checkout:/this/checkout python -m
benchmarks.vmap`` (an old funcgrad without vmap skips that row).
"""
import argparse
import multiprocessing
import os
import platform
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

import funcgrad as fg
import funcgrad.numpy as fnp

from .peers import available
from .timing import interleaved_medians

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
        forward pass, then the backward pass on the identity's rows held as their scales:
        products by the residuals, the product with `a` as a scaling of a's rows, and the
        sum of the two paths to x into the diagonal), less the checks that the constants
        are finite."""
        t = np.tanh(a @ x)
        _ = t * x
        ones = np.ones(n)
        jacobian = a * (ones * x * (1.0 - np.square(t)))[:, None]
        diagonal = jacobian.reshape(-1)[::n + 1]
        diagonal += ones * t
        return jacobian

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


def per_example_workloads(rng, dtype):
    w1 = (rng.standard_normal((D_IN, H)) * 0.03).astype(dtype)
    w2 = (rng.standard_normal((H, D_OUT)) * 0.1).astype(dtype)
    x = rng.standard_normal((BATCH, D_IN)).astype(dtype)
    y = rng.standard_normal((BATCH, D_OUT)).astype(dtype)
    one = fg.grad(loss, argnums=(0, 1))

    def loop():
        grads = [one(w1, w2, x[i], y[i]) for i in range(BATCH)]
        return np.stack([g[0] for g in grads]), np.stack([g[1] for g in grads])

    # The first layer's per-example gradients are the outer products x_i g_i of each input
    # and its hidden layer's cotangent: BATCH x D_IN x H numbers that any method must write
    # into new memory, and that NumPy computes fastest with einsum.
    hidden = x @ w1
    cotangent = 2 * ((np.maximum(hidden, 0) @ w2 - y) @ w2.T) * (hidden > 0)

    def by_hand():
        """The whole computation written out in NumPy: what vmap(grad) can at best match."""
        hidden = x @ w1
        relu = np.maximum(hidden, 0)
        out_cotangent = 2 * (relu @ w2 - y)
        hidden_cotangent = (out_cotangent @ w2.T) * (hidden > 0)
        return (np.einsum("bi,bj->bij", x, hidden_cotangent),
                np.einsum("bi,bj->bij", relu, out_cotangent))

    work = {"funcgrad loop of grad": loop,
            "floor: write the output": lambda: np.ones((BATCH, D_IN, H), dtype),
            "floor: its outer products": lambda: np.einsum("bi,bj->bij", x, cotangent),
            "floor: written by hand in NumPy": by_hand}
    ours = looped = loop()
    rtol, atol = (1e-4, 1e-5) if dtype == np.float32 else (1e-10, 1e-12)
    np.testing.assert_allclose(work["floor: its outer products"](), looped[0], rtol=rtol,
                               atol=atol)
    for a, b in zip(by_hand(), looped):
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)
    if hasattr(fg, "vmap"):  # (an older funcgrad, timed for comparison, has none)
        per_example = fg.vmap(one, in_axes=(None, None, 0, 0))
        work["funcgrad vmap(grad)"] = lambda: per_example(w1, w2, x, y)
        ours = per_example(w1, w2, x, y)
        for a, b in zip(ours, looped):
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)
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
        t_x, t_cotangent = torch.from_numpy(x), torch.from_numpy(cotangent)
        work["torch's outer products"] = lambda: torch.einsum("bi,bj->bij", t_x, t_cotangent)
        for a, b in zip(ours, t_per_example(*tensors)):
            np.testing.assert_allclose(a, b.numpy(), rtol=rtol, atol=atol)
    return {f"per-example grads (batch 64, {np.dtype(dtype).name})": work}


def _measure(kind, argument, rounds, cpu_time):
    """The medians of one group of workloads, in the process that calls it."""
    if available("torch"):
        import torch
        torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    work = (jacobian_workloads(argument, rng) if kind == "jacobian"
            else per_example_workloads(rng, np.dtype(argument)))
    clock = time.thread_time if cpu_time else time.perf_counter
    return {name: interleaved_medians(runs, rounds, clock) for name, runs in work.items()}


def run_all(rounds, sizes=(50, 200), cpu_time=False):
    """{workload: {peer: median seconds}}, each workload's peers interleaved, and each
    group of workloads in a fresh process. The per-example gradients' 26-51 MB arrays are
    as fast as the memory allocator's state lets them be (heap memory reused, or fresh
    pages faulted in), and that state is whatever the workloads before left behind:
    torch.func's float32 call took 6.4 ms in a fresh process and 11.7 ms after the
    n = 200 Jacobians."""
    groups = [("jacobian", n) for n in sizes] + [("per-example", "float32"),
                                                  ("per-example", "float64")]
    results = {}
    for kind, argument in groups:
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as fresh:
            results.update(fresh.submit(_measure, kind, argument, rounds, cpu_time).result())
    return results


def _reference(medians):
    return medians.get("torch.func") or medians.get("torch.func vmap(grad)")


def _loop(medians):
    return next((seconds for peer, seconds in medians.items()
                 if peer.startswith("funcgrad loop")), None)


def render(results):
    """docs/benchmarks.md's vmap section."""
    lines = ["## vmap (issue 14)", "",
             "`hessian` of `sum(tanh(A @ x) ** 2)` and `jacrev` of `tanh(A @ x) * x` (float64), "
             "and per-example gradients of the seed network's loss over a batch of 64. "
             "The loop rows are funcgrad's own Python loops over the basis or the "
             "batch, what these replaced.", "",
             "| workload | peer | ms | vs torch.func | faster than the loop |",
             "| --- | --- | --- | --- | --- |"]
    for name, medians in results.items():
        reference, loop = _reference(medians), _loop(medians)
        for peer, seconds in medians.items():
            lines.append(f"| {name} | {peer} | {seconds * 1e3:.3f} | "
                         f"{f'{seconds / reference:.2f}x' if reference else 'n/a'} | "
                         f"{f'{loop / seconds:.1f}x' if loop else 'n/a'} |")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--sizes", type=int, nargs="*", default=[50, 200])
    parser.add_argument("--cpu-time", action="store_true",
                        help="time by this thread's CPU time (time.thread_time), not wall "
                             "time: for a machine loaded by other processes")
    args = parser.parse_args()
    print(f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"NumPy {np.__version__}, funcgrad from {os.path.dirname(fg.__file__)}")
    results = run_all(args.rounds, args.sizes, args.cpu_time)
    for name, medians in results.items():
        reference, loop = _reference(medians), _loop(medians)
        print(f"{name}:")
        for peer, seconds in medians.items():
            ratio = f"  {seconds / reference:5.2f}x torch.func" if reference else ""
            if loop:
                ratio += f"  {loop / seconds:5.1f}x faster than the loop"
            print(f"  {peer:30s} {seconds * 1e3:9.3f} ms{ratio}")


if __name__ == "__main__":
    main()
