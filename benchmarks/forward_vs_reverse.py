"""Forward mode and second derivatives, timed against grad in one run.

The network is the seed tutorials' two-layer ReLU net: N=64 examples, D_in=1000,
H=100, D_out=10; loss = sum((relu(x @ w1) @ w2 - y) ** 2), relu as maximum(., 0).

    python benchmarks/forward_vs_reverse.py [--repeats 20]

Prints the best time of each transform over the repeats and its ratio to grad (with
respect to the same arguments). The full Hessian is taken with respect to w2 only
(1,000 parameters: a 1000 x 1000 matrix); with respect to w1 it would have 10^10 entries.
"""
import argparse
import os
import platform
import time

import numpy as np

import funcgrad as fg
import funcgrad.numpy as fnp

N, D_IN, H, D_OUT = 64, 1000, 100, 10


def loss(w1, w2, x, y):
    hidden = fnp.maximum(x @ w1, 0.0)
    return fnp.sum((hidden @ w2 - y) ** 2)


def best_times(funs, repeats):
    """The best time of each function over ``repeats`` rounds; each round runs every
    function once, so a slow spell on a busy machine hits them all alike."""
    best = {name: float("inf") for name in funs}
    for name, fun in funs.items():
        fun()  # warm up
    for _ in range(repeats):
        for name, fun in funs.items():
            start = time.perf_counter()
            fun()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    repeats = parser.parse_args().repeats

    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((N, D_IN)), rng.standard_normal((N, D_OUT))
    w1, w2 = rng.standard_normal((D_IN, H)), rng.standard_normal((H, D_OUT))
    t1, t2 = rng.standard_normal(w1.shape), rng.standard_normal(w2.shape)

    f = lambda a, b: loss(a, b, x, y)  # noqa: E731
    cheap = {
        "loss (no transform)": lambda: loss(w1, w2, x, y),
        "grad (w1, w2)": lambda: fg.grad(loss, (0, 1))(w1, w2, x, y),
        "jvp (w1, w2)": lambda: fg.jvp(f, (w1, w2), (t1, t2)),
        "hvp (w1, w2)": lambda: fg.hvp(f, (w1, w2), (t1, t2)),
        "grad (w2)": lambda: fg.grad(loss, 1)(w1, w2, x, y),
    }
    hessian = {"hessian (w2), 1000 x 1000": lambda: fg.hessian(loss, 1)(w1, w2, x, y)}
    hessian_repeats = max(repeats // 10, 1)
    print(f"funcgrad {fg.__version__}, numpy {np.__version__}, Python "
          f"{platform.python_version()}, OPENBLAS_NUM_THREADS="
          f"{os.environ['OPENBLAS_NUM_THREADS']}; best of {repeats} rounds "
          f"(hessian: {hessian_repeats})")
    results = best_times(cheap, repeats)
    results.update(best_times(hessian, hessian_repeats))
    baselines = {"jvp (w1, w2)": "grad (w1, w2)", "hvp (w1, w2)": "grad (w1, w2)",
                 "hessian (w2), 1000 x 1000": "grad (w2)"}
    for name, seconds in results.items():
        baseline = baselines.get(name)
        ratio = f"{seconds / results[baseline]:9.1f} x {baseline}" if baseline else ""
        print(f"  {name:28s} {seconds * 1e3:10.2f} ms {ratio}")
    column = results["hessian (w2), 1000 x 1000"] / w2.size
    print(f"  one Hessian column (w2)      {column * 1e3:10.2f} ms "
          f"{column / results['grad (w2)']:9.1f} x grad (w2)")

if __name__ == "__main__":
    main()
