"""Draws per second of compat's random functions next to PyTorch's, which compat matches
value for value (tests/compat/test_random_streams.py).

Each case runs interleaved with its PyTorch twin, round after round, so machine noise hits
both alike; the table gives millions of values per second and the ratio.

Run:  python -m benchmarks.random_streams [--size 1000000] [--rounds 7]
"""
import argparse

import torch

import compat

from .timing import interleaved_medians

CASES = {
    "rand float32": lambda lib, n: lib.rand(n),
    "rand float64": lambda lib, n: lib.rand(n, dtype=lib.float64),
    "randn float32": lambda lib, n: lib.randn(n),
    "randn float64": lambda lib, n: lib.randn(n, dtype=lib.float64),
    "uniform_(-a, a) float32": lambda lib, n: lib.empty(n).uniform_(-0.1, 0.1),
    "normal_(0, 0.02) float32": lambda lib, n: lib.empty(n).normal_(0.0, 0.02),
    "randint(0, 10)": lambda lib, n: lib.randint(0, 10, (n,)),
    "randperm": lambda lib, n: lib.randperm(n),
    "bernoulli_(0.5) float32": lambda lib, n: lib.empty(n).bernoulli_(0.5),
    "exponential_ float32": lambda lib, n: lib.empty(n).exponential_(),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--threads", type=int, default=1, help="PyTorch's thread count")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    size = args.size
    print(f"{size:,} values per call, median of {args.rounds} interleaved rounds, "
          f"PyTorch {torch.__version__} on {args.threads} thread(s)\n")
    print(f"{'case':<26}{'compat Mvalues/s':>18}{'torch Mvalues/s':>17}"
          f"{'compat time / torch':>21}")
    for name, case in CASES.items():
        seconds = interleaved_medians({"compat": lambda: case(compat, size),
                                       "torch": lambda: case(torch, size)}, args.rounds)
        rate = {lib: size / t / 1e6 for lib, t in seconds.items()}
        print(f"{name:<26}{rate['compat']:>18.1f}{rate['torch']:>17.1f}"
              f"{seconds['compat'] / seconds['torch']:>20.1f}x")


if __name__ == "__main__":
    main()
