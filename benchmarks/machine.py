"""The machine's balance between the interpreter and BLAS, measured beside the benchmarks.

The ratios against hand-written NumPy are Python overhead over array work, so they move
with the machine: where the interpreter is slower relative to BLAS, the same code gives a
higher ratio. Two figures let runs on different machines be compared: the time of a fixed
piece of pure Python (a method call and an attribute store per iteration, the kind of work
a recorded operation does) and of the seed network's first matrix product.
"""
import platform
import statistics
import time

import numpy as np

from . import workloads

PYTHON_ITERATIONS = 100_000
ROUNDS = 7


class _Node:
    __slots__ = ("value",)

    def set(self, value):
        self.value = value


def _python_loop():
    node = _Node()
    for i in range(PYTHON_ITERATIONS):
        node.set(i)


def cpu_model():
    """The processor's name as the kernel gives it (Linux), else what `platform` knows."""
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def measure():
    """{"python_ns": ns per iteration of the pure-Python loop, "gemm_us": us per product
    of the seed network's (64, 1000) and (1000, 100) float32 arrays, both medians of ROUNDS
    interleaved rounds, "cpu": `cpu_model()`}."""
    x, _, w1, _ = workloads.network_data()
    python, gemm = [], []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        _python_loop()
        python.append((time.perf_counter() - start) / PYTHON_ITERATIONS * 1e9)
        start = time.perf_counter()
        for _ in range(20):
            x @ w1
        gemm.append((time.perf_counter() - start) / 20 * 1e6)
    return {"python_ns": statistics.median(python), "gemm_us": statistics.median(gemm),
            "cpu": cpu_model()}


def describe(balance):
    """One sentence for the report's header."""
    return (f"Machine balance (`benchmarks/machine.py`): {balance['cpu']}; a Python method "
            f"call and attribute store {balance['python_ns']:.0f} ns, the network's first "
            f"product (64x1000 @ 1000x100 float32, NumPy {np.__version__}'s BLAS) "
            f"{balance['gemm_us']:.0f} us. The ratios against hand-written NumPy rise "
            f"where the first figure is larger relative to the second.")
