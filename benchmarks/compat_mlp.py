"""Time per training step of the seed tutorials' two-layer MLP (N=64, 1000-100-10, float32,
ReLU, squared error, hand-written SGD step) under compat, PyTorch and hand-written NumPy.

The three run interleaved, round after round, in one process on the same data, so machine
noise hits them alike; the report gives the median time per step and the ratios. A second
table times tiny operations (a chain of scalar multiplications, forward and backward),
where the per-operation overhead of compat, PyTorch and funcgrad.grad shows.

Run:  python benchmarks/compat_mlp.py [--rounds 7] [--steps 50] [--threads 1]

BLAS and PyTorch use --threads threads (default 1: steady timings on a shared machine;
set it to your core count to compare multi-threaded).
"""
import argparse
import os
import statistics
import sys
import time

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--rounds", type=int, default=7)
parser.add_argument("--steps", type=int, default=50, help="training steps per round")
parser.add_argument("--threads", type=int, default=1)
parser.add_argument("--chain", type=int, default=2000, help="operations in the tiny chain")
args = parser.parse_args()
for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[variable] = str(args.threads)  # before NumPy loads its BLAS

import numpy as np  # noqa: E402
import torch  # noqa: E402

import compat  # noqa: E402
import funcgrad  # noqa: E402

torch.set_num_threads(args.threads)
N, D_IN, H, D_OUT = 64, 1000, 100, 10
LEARNING_RATE = 1e-6


def data():
    rng = np.random.default_rng(0)
    return [rng.standard_normal(shape).astype(np.float32)
            for shape in ((N, D_IN), (N, D_OUT), (D_IN, H), (H, D_OUT))]


def autograd_trainer(library):
    """A step of the seed's training loop, written once against PyTorch's API."""
    x, y, w1, w2 = (library.from_numpy(a.copy()) for a in data())
    w1.requires_grad_()
    w2.requires_grad_()

    def step():
        y_pred = x.mm(w1).clamp(min=0).mm(w2)
        loss = (y_pred - y).pow(2).sum()
        loss.backward()
        w1.data -= LEARNING_RATE * w1.grad.data
        w2.data -= LEARNING_RATE * w2.grad.data
        w1.grad.data.zero_()
        w2.grad.data.zero_()
        return loss.item()
    return step


def numpy_trainer():
    """The same step with the gradients written out by hand."""
    x, y, w1, w2 = data()

    def step():
        h = x @ w1
        h_relu = np.maximum(h, 0)
        y_pred = h_relu @ w2
        diff = y_pred - y
        loss = float((diff * diff).sum())
        grad_y_pred = 2.0 * diff
        grad_w2 = h_relu.T @ grad_y_pred
        grad_h = grad_y_pred @ w2.T
        grad_h[h < 0] = 0
        grad_w1 = x.T @ grad_h
        w1[...] -= LEARNING_RATE * grad_w1
        w2[...] -= LEARNING_RATE * grad_w2
        return loss
    return step


def chain_runner(name):
    """Forward and backward of a chain of tiny multiplications."""
    if name == "funcgrad.grad":
        def chain(v):
            for _ in range(args.chain):
                v = v * 1.0001
            return v
        gradient = funcgrad.grad(chain)
        return lambda: gradient(np.float32(1.0))
    library = {"compat": compat, "torch": torch}[name]

    def run():
        x = library.tensor(1.0, requires_grad=True)
        v = x
        for _ in range(args.chain):
            v = v * 1.0001
        v.backward()
        return x.grad
    return run


def interleaved(runners, repeats):
    """Seconds per call of each runner: the median over rounds, run in turn."""
    times = {name: [] for name in runners}
    for _ in range(args.rounds):
        for name, run in runners.items():
            start = time.perf_counter()
            for _ in range(repeats):
                run()
            times[name].append((time.perf_counter() - start) / repeats)
    return {name: statistics.median(values) for name, values in times.items()}


def main():
    trainers = {"compat": autograd_trainer(compat), "torch": autograd_trainer(torch),
                "numpy": numpy_trainer()}
    losses = {name: [step() for _ in range(3)] for name, step in trainers.items()}
    for name, values in losses.items():  # all three compute the same thing
        assert np.allclose(values, losses["numpy"], rtol=1e-4), (name, values, losses)
    step_time = interleaved(trainers, args.steps)
    chains = {name: chain_runner(name) for name in ("compat", "torch", "funcgrad.grad")}
    chain_time = interleaved(chains, 1)

    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, torch {torch.__version__}, "
          f"{args.threads} thread(s), {args.rounds} rounds")
    print(f"\nseed MLP ({N}x{D_IN} -> {H} -> {D_OUT}, float32), {args.steps} steps per round:")
    for name, seconds in step_time.items():
        print(f"  {name:8s} {seconds * 1e3:8.3f} ms/step")
    print(f"  compat / torch = {step_time['compat'] / step_time['torch']:.2f}, "
          f"compat / numpy = {step_time['compat'] / step_time['numpy']:.2f}, "
          f"torch / numpy = {step_time['torch'] / step_time['numpy']:.2f}")
    print(f"\nchain of {args.chain} scalar multiplications, forward + backward:")
    for name, seconds in chain_time.items():
        print(f"  {name:14s} {seconds / args.chain * 1e6:8.2f} us/op")


if __name__ == "__main__":
    main()
