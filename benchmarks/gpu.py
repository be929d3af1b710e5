"""The GPU workloads of issue 17: funcgrad on CuPy arrays against hand-written CuPy, PyTorch
on the same GPU, and the same code on NumPy (CPU).

    python -m benchmarks.gpu [--rounds 7] [--size 4096] [--out docs/gpu.md]

Two workloads, each one loss-and-gradient evaluation (float32, no TF32: CuPy's and
PyTorch's default single-precision products):
- the seed network step (N=64, 1000-100-10, relu, squared loss, SGD update in place);
- a product-heavy loss of ``size`` x ``size`` matrices, ``sum((tanh(x @ w1) @ w2) ** 2)``
  and its gradient in ``w1`` and ``w2`` (five products of size**3 each).
Every timed call ends with a device synchronisation, so GPU times are whole evaluations.
Needs CuPy and a CUDA GPU; PyTorch rows appear where torch sees the GPU.
"""
import argparse
import datetime
import os
import platform
import sys

import numpy as np

from .timing import interleaved_medians
from .workloads import (LEARNING_RATE, _functional_network, network_data, numpy_step,
                        torch_network_step)


def _product_data(size, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((size, size), dtype=np.float32)
    w1, w2 = (rng.standard_normal((size, size), dtype=np.float32) / np.float32(np.sqrt(size))
              for _ in range(2))
    return x, w1, w2


def _product_loss(fnp):
    def loss(w1, w2, x):
        return fnp.sum((fnp.tanh(x @ w1) @ w2) ** 2)
    return loss


def _hand_product(x, w1, w2):
    """The product-heavy loss and its gradient written by hand (any NumPy-like library)."""
    h = np.tanh(x @ w1)
    y = h @ w2
    grad_y = 2 * y
    grad_w2 = h.T @ grad_y
    grad_w1 = x.T @ ((grad_y @ w2.T) * (1 - h * h))
    return (y * y).sum(), grad_w1, grad_w2


def _funcgrad_runs(xp_name, move, sync, size):
    import funcgrad as fg
    import funcgrad.numpy as fnp
    value_and_grad, loss = _functional_network("funcgrad")
    step_vg = value_and_grad(lambda weights, x, y: loss(*weights, x, y))
    jit_vg = fg.jit(step_vg)
    x, y, w1, w2 = map(move, network_data())

    def step(vg):
        def run():
            value, (g1, g2) = vg((w1, w2), x, y)
            w1[...] -= LEARNING_RATE * g1
            w2[...] -= LEARNING_RATE * g2
            sync()
        return run
    px, pw1, pw2 = map(move, _product_data(size))
    product_vg = fg.value_and_grad(_product_loss(fnp), argnums=(0, 1))
    jit_product_vg = fg.jit(product_vg)

    def product(vg):
        def run():
            vg(pw1, pw2, px)
            sync()
        return run
    nx, ny, nw1, nw2 = map(move, network_data())

    def hand_step():
        numpy_step(nx, ny, nw1, nw2)
        sync()

    def hand_product():
        _hand_product(px, pw1, pw2)
        sync()
    return ({f"funcgrad on {xp_name}": step(step_vg),
             f"funcgrad jit on {xp_name}": step(jit_vg),
             f"hand-written {xp_name}": hand_step},
            {f"funcgrad on {xp_name}": product(product_vg),
             f"funcgrad jit on {xp_name}": product(jit_product_vg),
             f"hand-written {xp_name}": hand_product})


def _torch_runs(size):
    try:
        import torch
    except ImportError:
        return {}, {}
    if not torch.cuda.is_available():
        return {}, {}
    torch.backends.cuda.matmul.allow_tf32 = False
    device = torch.device("cuda")
    step_once = torch_network_step(
        torch, *(torch.from_numpy(a).to(device) for a in network_data()))

    def step():
        step_once()
        torch.cuda.synchronize()
    px, pw1, pw2 = (torch.from_numpy(a).to(device) for a in _product_data(size))
    pw1.requires_grad_()
    pw2.requires_grad_()

    def product():
        loss = (torch.tanh(px @ pw1) @ pw2).pow(2).sum()
        torch.autograd.grad(loss, (pw1, pw2))
        torch.cuda.synchronize()
    return {"PyTorch (CUDA)": step}, {"PyTorch (CUDA)": product}


def run_all(rounds, size):
    import cupy as cp
    gpu_step, gpu_product = _funcgrad_runs("CuPy", cp.asarray,
                                           cp.cuda.get_current_stream().synchronize, size)
    cpu_step, cpu_product = _funcgrad_runs("NumPy (CPU)", np.array, lambda: None, size)
    torch_step, torch_product = _torch_runs(size)
    results = {}
    for name, runs in (("step", {**gpu_step, **torch_step, **cpu_step}),
                       ("product", {**gpu_product, **torch_product, **cpu_product})):
        for run in runs.values():
            run()  # compile kernels, trace jit programs, warm caches
            run()
        results[name] = interleaved_medians(runs, rounds)
        for peer, seconds in results[name].items():
            print(f"{name}: {peer}: {seconds * 1e3:.3f} ms", flush=True)
    return results


def render(results, size, rounds):
    import cupy as cp
    device = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["name"].decode()
    try:
        import torch
        torch_version = f", PyTorch {torch.__version__}"
    except ImportError:
        torch_version = ""
    lines = ["# funcgrad on a GPU (CuPy)", "",
             f"Measured {datetime.date.today()} on one {device} and {os.cpu_count()} CPU cores "
             f"({platform.machine()}), Python {platform.python_version()}, NumPy "
             f"{np.__version__}, CuPy {cp.__version__}{torch_version}, with "
             f"`python -m benchmarks.gpu --rounds {rounds} --size {size}`: medians of "
             f"{rounds} interleaved rounds, each call ending with a device synchronisation. "
             f"float32 without TF32 throughout.", ""]
    titles = {"step": "Seed network step (N=64, 1000-100-10, relu, squared loss, SGD)",
              "product": f"Product-heavy loss: sum((tanh(x @ w1) @ w2) ** 2) and its gradient "
                         f"in w1, w2, {size}x{size} matrices"}
    for name, title in titles.items():
        measured = results[name]
        hand, torch_time = measured.get("hand-written CuPy"), measured.get("PyTorch (CUDA)")
        lines += [f"## {title}", "", "| peer | ms | vs hand-written CuPy | vs PyTorch (CUDA) |",
                  "| --- | --- | --- | --- |"]
        for peer, seconds in measured.items():
            lines.append(f"| {peer} | {seconds * 1e3:.3f} | {_ratio(seconds, hand)} | "
                         f"{_ratio(seconds, torch_time)} |")
        lines.append("")
    return "\n".join(lines)


def _ratio(value, reference):
    return f"{value / reference:.2f}x" if reference else "n/a"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--size", type=int, default=4096)
    parser.add_argument("--out", default=None, help="write the markdown table here")
    args = parser.parse_args(argv)
    try:
        import cupy as cp
        cp.cuda.runtime.getDeviceCount()
    except Exception as error:  # noqa: BLE001 -- no CuPy or no GPU: say which
        sys.exit(f"benchmarks.gpu needs CuPy and a CUDA GPU: {type(error).__name__}: {error}")
    results = run_all(args.rounds, args.size)
    page = render(results, args.size, args.rounds)
    print(page)
    if args.out:
        with open(args.out, "w") as file:
            file.write(page)


if __name__ == "__main__":
    main()
