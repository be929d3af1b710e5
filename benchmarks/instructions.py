"""``python -m benchmarks.instructions [--tree PATH ...] [WORKLOAD ...]``: machine
instructions per primitive (or per call) of funcgrad's and compat's engine, counted with
Valgrind's callgrind, for comparing two versions of the engine exactly.

Wall time on a shared machine swings by more than the few percent an engine change makes;
an instruction count does not. Each workload runs in a fresh process with N and 2N
repetitions and the figure is (I(2N) - I(N)) / N, which cancels start-up and imports.
Compare trees by checking a revision out (``git worktree add /tmp/old REV``) and passing
both with --tree. Needs `valgrind` on the PATH; Python files are compiled first, so no run
pays for writing .pyc files.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "instruction_workloads.py")
WORKLOADS = ("sin", "mul", "matvec", "compat_sin", "compat_mul", "compat_link", "net",
             "compat_net", "grad_call", "jit_net", "jit_call", "jit_seed_step", "numpy_seed_step",
             "jit_first_calls", "links_grad_call", "jacrev_call", "hessian_call",
             "per_example_call")
# Repetitions: chains of primitives are long enough that one primitive's cost dominates.
REPETITIONS = {"net": 50, "compat_net": 50, "grad_call": 50, "jit_net": 50, "jit_call": 200,
               "jit_seed_step": 20, "numpy_seed_step": 20,
               "jit_first_calls": 5, "links_grad_call": 5,
               "jacrev_call": 20, "hessian_call": 10, "per_example_call": 20}
CHAIN = 200


def count(tree, workload, repetitions):
    environment = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1",
                       OMP_NUM_THREADS="1")
    result = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         SCRIPT, tree, workload, str(repetitions)],
        capture_output=True, text=True, env=environment, check=True)
    return int(re.search(r"Collected : (\d+)", result.stderr).group(1))


def per_repetition(tree, workload):
    n = REPETITIONS.get(workload, CHAIN)
    return (count(tree, workload, 2 * n) - count(tree, workload, n)) / n


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("workloads", nargs="*", help=f"any of {', '.join(WORKLOADS)}")
    parser.add_argument("--tree", action="append",
                        help="a checkout to measure (repeatable); default: this one")
    args = parser.parse_args()
    unknown = set(args.workloads) - set(WORKLOADS)
    if unknown:
        parser.error(f"unknown workloads {sorted(unknown)}; choose from {WORKLOADS}")
    if shutil.which("valgrind") is None:
        sys.exit("benchmarks.instructions needs valgrind (apt-get install valgrind)")
    trees = args.tree or [os.path.dirname(HERE)]
    for tree in trees:
        subprocess.run([sys.executable, "-m", "compileall", "-q", tree], check=True)
    print("workload".ljust(12) + "".join(t[-24:].rjust(26) for t in trees))
    for workload in args.workloads or WORKLOADS:
        figures = [per_repetition(tree, workload) for tree in trees]
        ratios = [f" ({f / figures[0]:.3f}x)" if i else "" for i, f in enumerate(figures)]
        print(workload.ljust(12) + "".join(f"{f:,.0f}{r}".rjust(26)
                                           for f, r in zip(figures, ratios)))


if __name__ == "__main__":
    main()
