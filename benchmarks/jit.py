"""jit's workloads, each timed side by side with its reference in one process.

- the seed network step: ``jit(value_and_grad(loss))`` and an in-place SGD update, against
  the hand-written NumPy step (and eager funcgrad);
- a 3,000-primitive ``sin(x) * 1.01 + 0.1`` chain on a (3,) array: ``jit(grad(f))`` per
  primitive, against NumPy running the same 3,000 operations forward only, and PyTorch
  eager's forward and backward;
- ``jit(hessian(f))`` and ``jit(jacrev(g))`` for ``f(x) = sum(tanh(A @ x) ** 2)`` and
  ``g(x) = tanh(A @ x) * x``, n = 200, against ``jax.jit`` of the same;
- the first call (tracing, the issue's first-call figure) against one eager call; then
  jit's tiers: how many calls run before the program is compiled, what the call that
  compiles it costs, and an interpreted and a compiled call.

``python -m benchmarks.jit`` prints the table; ``python -m benchmarks`` includes it.
"""
import argparse
import gc
import statistics
import sys
import time

import numpy as np

from . import workloads
from .peers import available
from .timing import interleaved_medians

CHAIN_LINKS = 1000  # three primitives each
FIRST_CALL = "jit first call (tracing: the issue's first-call figure)"
BUILD = "the first interpreted call (builds the interpreter, then runs it)"
INTERPRETED = "a later interpreted call (median)"
TIER_UP = "the call that compiles (passes + codegen + compile() + a compiled run)"
TIER_UP_COST = "tier-up cost (that call less a compiled call)"
COMPILE = "of which CPython's compile() of the program's text"
COMPILED = "a compiled call (median)"
CALLS_BEFORE = "calls before the compiling one (tracing + interpreted)"
HESSIAN_N = 200
MAX_CALLS = 1000  # a program not compiled after this many calls is reported, not waited for


def until_compiled(call, jitted):
    """Call `call` (which calls `jitted`) until jit has compiled its program."""
    for _ in range(MAX_CALLS):
        call()
        if jitted.compile_count:
            return
    raise RuntimeError(f"benchmarks.jit: not compiled after {MAX_CALLS} calls")


def _chain(namespace):
    def f(x):
        for _ in range(CHAIN_LINKS):
            x = namespace.sin(x) * 1.01 + 0.1
        return namespace.sum(x)
    return f


def network(rounds):
    import funcgrad as fg
    import funcgrad.numpy as fnp

    def loss(w1, w2, x, y):
        return fnp.sum((fnp.maximum(x @ w1, 0.0) @ w2 - y) ** 2)

    # Every peer steps the same arrays: the same values (ReLU ties take a slower path in
    # funcgrad's VJP) at the same addresses, whatever order the peers were made in.
    data = workloads.network_data()
    jitted = fg.jit(fg.value_and_grad(loss, argnums=(0, 1)))
    runs = {"numpy": lambda: workloads.numpy_step(*data),
            "funcgrad jit": _in_place_step(jitted, data),
            "funcgrad eager": _in_place_step(fg.value_and_grad(loss, argnums=(0, 1)), data)}
    for run in runs.values():
        run()
    until_compiled(runs["funcgrad jit"], jitted)
    return {name: t * 1e3 for name, t in interleaved_medians(runs, rounds).items()}


def _in_place_step(value_and_grad, data):
    """A step of SGD on `data` (x, y, w1, w2), updating the weights in place as
    `workloads.numpy_step` does."""
    x, y, w1, w2 = data

    def step():
        value, (g1, g2) = value_and_grad(w1, w2, x, y)
        np.subtract(w1, workloads.LEARNING_RATE * g1, out=w1)
        np.subtract(w2, workloads.LEARNING_RATE * g2, out=w2)
        return value
    return step


def chain(rounds):
    import funcgrad as fg
    import funcgrad.numpy as fnp
    x = np.linspace(0.1, 0.3, 3)
    jitted = fg.jit(fg.grad(_chain(fnp)))
    numpy_forward = _chain(np)
    runs = {"numpy forward": lambda: numpy_forward(x), "funcgrad jit(grad)": lambda: jitted(x),
            "funcgrad grad": lambda: fg.grad(_chain(fnp))(x)}
    if available("torch"):
        import torch
        torch.set_num_threads(1)

        def torch_step():
            leaf = torch.tensor(x, requires_grad=True)
            _chain(torch)(leaf).backward()
            return leaf.grad
        runs["torch eager"] = torch_step
    for run in runs.values():
        run()
    until_compiled(runs["funcgrad jit(grad)"], jitted)
    primitives = 3 * CHAIN_LINKS
    return {name: t / primitives * 1e6 for name, t in interleaved_medians(runs, rounds).items()}


def hessians(rounds):
    import funcgrad as fg
    import funcgrad.numpy as fnp
    rng = np.random.default_rng(0)
    a = rng.standard_normal((HESSIAN_N, HESSIAN_N)) / np.sqrt(HESSIAN_N)
    x = rng.standard_normal(HESSIAN_N)
    cases = {"hessian": (fg.hessian, lambda np_: lambda v: np_.sum(np_.tanh(a @ v) ** 2)),
             "jacrev": (fg.jacrev, lambda np_: lambda v: np_.tanh(a @ v) * v)}
    results = {}
    for name, (transform, make) in cases.items():
        jitted = fg.jit(transform(make(fnp)))
        runs = {"funcgrad jit": lambda jitted=jitted: jitted(x),
                "funcgrad eager": lambda transform=transform, make=make: transform(make(fnp))(x)}
        if available("jax"):
            import jax
            import jax.numpy as jnp
            jax.config.update("jax_enable_x64", True)
            jax_transform = getattr(jax, name)
            compiled = jax.jit(jax_transform(make(jnp)))
            runs["jax.jit"] = lambda compiled=compiled: compiled(x).block_until_ready()
        for run in runs.values():
            run()
            run()
        until_compiled(runs["funcgrad jit"], jitted)
        results[name] = {peer: t * 1e3 for peer, t in interleaved_medians(runs, rounds).items()}
    return results


def first_calls(repeats=5):
    """Median milliseconds, over `repeats` fresh jitted functions, of: one eager call; the
    jitted function's first call (tracing, which computes the result); its first
    interpreted call (which builds the interpreter) and the later ones; the call that compiles the program (jit's passes, code generation and
    CPython's compile(), then a compiled run) and that call less a compiled one; CPython's
    compile() of the program's text alone; a compiled call. Also how many calls came
    before the compiling one (the first included)."""
    import funcgrad as fg
    import funcgrad.numpy as fnp
    x = np.linspace(0.1, 0.3, 3)
    net = workloads.network_data()

    def loss(x, y, w1, w2):
        return fnp.sum((fnp.maximum(x @ w1, 0.0) @ w2 - y) ** 2)

    workloads_ = {"3,000-primitive chain, grad": (lambda: fg.grad(_chain(fnp)), (x,)),
                  "seed network, value_and_grad": (
                      lambda: fg.value_and_grad(loss, argnums=(2, 3)), net)}
    results = {}
    for name, (make, args) in workloads_.items():
        samples = {"eager call": [], FIRST_CALL: [], BUILD: [], INTERPRETED: [], TIER_UP: [],
                   TIER_UP_COST: [], COMPILE: [], COMPILED: [], CALLS_BEFORE: []}
        for _ in range(repeats):
            eager = make()
            samples["eager call"].append(_seconds(lambda: eager(*args)))
            jitted = fg.jit(make())
            samples[FIRST_CALL].append(_seconds(lambda: jitted(*args)))
            calls = 1
            while True:
                seconds = _seconds(lambda: jitted(*args))
                if jitted.compile_count:
                    break
                samples[BUILD if calls == 1 else INTERPRETED].append(seconds)
                calls += 1
                if calls > MAX_CALLS:
                    raise RuntimeError(f"benchmarks.jit: {name} not compiled after "
                                       f"{MAX_CALLS} calls")
            compiled = statistics.median(_seconds(lambda: jitted(*args)) for _ in range(5))
            samples[TIER_UP].append(seconds)
            samples[TIER_UP_COST].append(seconds - compiled)
            samples[COMPILED].append(compiled)
            samples[CALLS_BEFORE].append(calls)
        text = fg.jit(make()).lower(*args).as_text()
        samples[COMPILE] = [_seconds(lambda: compile(text, "<program>", "exec"))
                            for _ in range(repeats)]
        results[name] = {k: statistics.median(v) * (1 if k == CALLS_BEFORE else 1e3)
                         for k, v in samples.items() if v}
    return results


def _without_older_objects(measure):
    """``measure()`` with every object alive before it kept out of garbage collection.

    First calls are single samples: a full collection landing in one scans everything this
    process holds (the peers' libraries and earlier sections' results: millions of objects
    in `python -m benchmarks`, ~100 ms), which a user's process importing only funcgrad
    does not have. Objects made during the measurement are collected as usual."""
    gc.collect()
    gc.freeze()
    try:
        return measure()
    finally:
        gc.unfreeze()


def _seconds(call):
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def memory():
    """Peak bytes NumPy allocates during one gradient of the seed network (tracemalloc):
    the jitted program with and without buffer reuse, eager funcgrad, hand-written NumPy."""
    import tracemalloc

    import funcgrad as fg
    import funcgrad.numpy as fnp
    from funcgrad.transforms.codegen import Program
    from funcgrad.transforms.graph import Graph

    def loss(w1, w2, x, y):
        return fnp.sum((fnp.maximum(x @ w1, 0.0) @ w2 - y) ** 2)

    x, y, w1, w2 = workloads.network_data()
    transform = fg.value_and_grad(loss, argnums=(0, 1))
    graph = fg.jit(transform).lower(w1, w2, x, y).graph
    plain = Graph(graph.inputs, graph.input_names,
                  [eq.replace(overwrites=None) for eq in graph.equations], graph.constants,
                  graph.outputs, graph.output_names, graph.in_tree, graph.out_tree, None)
    copies = [np.copy(a) for a in (x, y, w1, w2)]
    reusing, allocating = Program(graph).function(), Program(plain).function()
    runs = {"numpy": lambda: workloads.numpy_step(*copies),
            "funcgrad jit": lambda: reusing(w1, w2, x, y),
            "funcgrad jit without buffer reuse": lambda: allocating(w1, w2, x, y),
            "funcgrad eager": lambda: transform(w1, w2, x, y)}
    peaks = {}
    for name, run in runs.items():
        run()
        tracemalloc.start()
        tracemalloc.reset_peak()
        run()
        peaks[name] = tracemalloc.get_traced_memory()[1] / 1024
        tracemalloc.stop()
    return peaks


def run_all(rounds):
    return {"network_ms": network(rounds), "network_peak_kib": memory(),
            "chain_us": chain(rounds), "hessians_ms": hessians(rounds),
            "first_call_ms": _without_older_objects(first_calls)}


def _ratio(value, reference):
    return f"{value / reference:.2f}x" if reference else "n/a"


def render(results):
    lines = ["## jit", "",
             "### Seed network step (`jit(value_and_grad(loss))` + in-place SGD)", "",
             "| peer | ms per step | vs hand-written NumPy |", "| --- | --- | --- |"]
    net = results["network_ms"]
    for peer, ms in net.items():
        lines.append(f"| {peer} | {ms:.3f} | {_ratio(ms, net.get('numpy'))} |")
    peaks = results["network_peak_kib"]
    lines += ["", "Peak memory NumPy allocates during one step (tracemalloc):", "",
              "| peer | peak KiB | vs hand-written NumPy |", "| --- | --- | --- |"]
    for peer, kib in peaks.items():
        lines.append(f"| {peer} | {kib:.0f} | {_ratio(kib, peaks.get('numpy'))} |")
    chain_us = results["chain_us"]
    lines += ["", f"### {3 * CHAIN_LINKS:,}-primitive `sin(x) * 1.01 + 0.1` chain, (3,) array",
              "", "| peer | µs per primitive | vs NumPy forward | vs PyTorch eager |",
              "| --- | --- | --- | --- |"]
    for peer, us in chain_us.items():
        lines.append(f"| {peer} | {us:.2f} | {_ratio(us, chain_us.get('numpy forward'))} | "
                     f"{_ratio(us, chain_us.get('torch eager'))} |")
    lines += ["", f"### Hessian and Jacobian, n = {HESSIAN_N}", "",
              "| function | peer | ms | vs jax.jit |", "| --- | --- | --- | --- |"]
    for name, peers in results["hessians_ms"].items():
        for peer, ms in peers.items():
            lines.append(f"| {name} | {peer} | {ms:.2f} | {_ratio(ms, peers.get('jax.jit'))} |")
    lines += ["", "### First calls and tiers", "",
              "jit traces on the first call (computing the result as it goes): the issue's "
              "first-call figure. Later calls interpret the traced program until the time "
              "spent interpreting reaches the estimated cost of compiling it (15 µs per "
              "equation); the next call runs the passes, generates the code, compiles it "
              "and runs it, and later calls run the compiled program. Medians over fresh "
              "jitted functions; the compile() row times CPython's `compile` of the "
              "optimized program's text alone.", "",
              "| workload | call | ms | vs one eager call |", "| --- | --- | --- | --- |"]
    for name, calls in results["first_call_ms"].items():
        for call, ms in calls.items():
            if call == CALLS_BEFORE:
                lines.append(f"| {name} | {call} | {ms:.0f} calls | |")
            else:
                lines.append(f"| {name} | {call} | {ms:.2f} | "
                             f"{_ratio(ms, calls['eager call'])} |")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rounds", nargs="?", type=int, default=7,
                        help="interleaved rounds per workload (default 7)")
    print("\n".join(render(run_all(parser.parse_args(argv).rounds))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
