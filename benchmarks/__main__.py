"""``python -m benchmarks``: run every workload for every installed peer, interleaved, and
write the medians and ratios to docs/benchmarks.md with a bar chart of the ratios."""
import argparse
import datetime
import os
import platform
import statistics
import sys

import numpy as np

from . import chain, jit, machine, out_of_core, vmap, workloads
from .peers import available, installed_peers
from .timing import interleaved_medians

CHAIN_ROUNDS = 3
OUT_OF_CORE_SIZE, OUT_OF_CORE_CHUNK, OUT_OF_CORE_ROUNDS = 256 * 2**20, 16 * 2**20, 5

DOCS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs")


def _time_workload(make, peers, rounds):
    runs = {}
    for peer in peers:
        try:
            run = make(peer)
            if run is not None:
                run()  # warm up, and fail here rather than mid-round
                runs[peer] = run
        except Exception as error:  # noqa: BLE001 -- a broken peer is reported, not fatal
            print(f"  {peer}: skipped ({type(error).__name__}: {error})", file=sys.stderr)
    return interleaved_medians(runs, rounds) if runs else {}


def run_all(rounds, chain_peers):
    peers, missing = installed_peers()
    results = {"peers": peers, "missing": missing, "machine": machine.measure()}
    print(f"peers: {', '.join(peers)}" + (f" (not installed: {', '.join(missing)})"
                                          if missing else ""))
    overhead = _time_workload(workloads.make_overhead, peers, rounds)
    results["overhead_us"] = {p: t / workloads.OVERHEAD_CHAIN * 1e6 for p, t in overhead.items()}
    links = _time_workload(workloads.make_links, peers, rounds)
    results["links_us"] = {p: t / (workloads.LINKS * workloads.LINK_OPS) * 1e6
                           for p, t in links.items()}
    step = _time_workload(workloads.make_network_step, peers + [workloads.BARE_TAPE], rounds)
    results["step_ms"] = {p: t * 1e3 for p, t in step.items()}
    cheap = _time_workload(
        lambda peer: {"forward": workloads.make_network_forward("funcgrad"),
                      "gradient": workloads.make_network_gradient("funcgrad")}[peer],
        ["forward", "gradient"], rounds)
    results["grad_over_forward"] = (cheap["gradient"] / cheap["forward"]
                                    if len(cheap) == 2 else None)
    results["chain"] = _time_chain([p for p in peers if p != "numpy" and p in chain_peers])
    results["jit"] = jit.run_all(rounds)
    results["vmap"] = vmap.run_all(rounds)
    results["out_of_core"] = _time_out_of_core(rounds)
    return results


def _time_out_of_core(rounds):
    """The Dask workload at a size that fits in memory (each round costs about 3 s here);
    `python -m benchmarks.out_of_core --size 40GB` is the run larger than memory."""
    if not available("dask"):
        print("  out of core: skipped (Dask is not installed)", file=sys.stderr)
        return None
    return out_of_core.run_all(OUT_OF_CORE_SIZE, OUT_OF_CORE_CHUNK,
                               rounds=min(rounds, OUT_OF_CORE_ROUNDS))


def _time_chain(peers):
    """Median seconds and peak MiB of CHAIN_ROUNDS fresh processes per peer, peers taking
    turns: one run of a 200,000-primitive chain swings by +-30% on a shared machine."""
    runs = {peer: [] for peer in peers}
    for _ in range(CHAIN_ROUNDS):
        for peer in [p for p in peers if p in runs]:
            measured, error = chain.measure(peer)
            if measured is None:
                print(f"  chain {peer}: skipped ({error})", file=sys.stderr)
                del runs[peer]
            else:
                runs[peer].append(measured)
    return {peer: (statistics.median(s for s, _ in done), max(m for _, m in done))
            for peer, done in runs.items()}


def _ratio(value, reference):
    return f"{value / reference:.2f}x" if reference else "n/a"


def _overhead_table(title, unit, microseconds):
    """A per-primitive (or per-operation) table: each peer's time and its ratios."""
    lines = [title, "", f"| peer | µs per {unit} | vs HIPS autograd | vs PyTorch eager |",
             "| --- | --- | --- | --- |"]
    for peer, us in microseconds.items():
        note = " (forward only: the floor)" if peer == "numpy" else ""
        lines.append(f"| {peer}{note} | {us:.2f} | {_ratio(us, microseconds.get('autograd'))} | "
                     f"{_ratio(us, microseconds.get('torch'))} |")
    return lines


def render_markdown(results, command):
    lines = ["# Benchmarks", "",
             f"Measured {datetime.date.today()} on {platform.machine()} "
             f"({os.cpu_count()} cores), Python {platform.python_version()}, "
             f"NumPy {np.__version__}, with `{command}`. Medians of interleaved rounds in "
             f"one process (the 200,000-primitive chain: the median of {CHAIN_ROUNDS} fresh "
             f"processes per peer, peers taking turns). "
             f"Machines are shared and noisy: compare the ratios, not the absolute times.", "",
             machine.describe(results["machine"]), ""]
    if results["missing"]:
        lines += [f"Not installed, so skipped: {', '.join(results['missing'])}.", ""]
    lines += _overhead_table(
        "## Per-primitive overhead (forward + backward, a chain of `sin` on a (3,) array)",
        "primitive", results["overhead_us"])
    lines += [""] + _overhead_table(
        f"## Per-operation overhead on issue 16's chain (forward + backward, "
        f"`sin(x) * 1.01 + 0.1` on a (3,) float64 array, "
        f"{workloads.LINKS * workloads.LINK_OPS:,} operations)", "operation", results["links_us"])
    step = results["step_ms"]
    lines += ["", "## Seed network step (N=64, 1000-100-10, float32, relu, squared loss, SGD)",
              "", "| peer | ms per step | vs hand-written NumPy |", "| --- | --- | --- |"]
    for peer, ms in step.items():
        lines.append(f"| {peer} | {ms:.3f} | {_ratio(ms, step.get('numpy'))} |")
    lines += ["", "## Cheap-gradient ratio on the network (funcgrad)", ""]
    ratio = results["grad_over_forward"]
    lines.append(f"value_and_grad / forward = {ratio:.2f}" if ratio else "not measured")
    lines += ["", f"## {chain.LENGTH:,}-primitive chain (forward + backward)", "",
              "| peer | seconds | vs autograd | peak MiB above baseline | vs autograd |",
              "| --- | --- | --- | --- | --- |"]
    measured = results["chain"]
    reference = measured.get("autograd", (None, None))
    for peer, (seconds, mib) in measured.items():
        lines.append(f"| {peer} | {seconds:.2f} | {_ratio(seconds, reference[0])} | "
                     f"{mib:.0f} | {_ratio(mib, reference[1])} |")
    lines += [""] + jit.render(results["jit"])
    lines += [""] + vmap.render(results["vmap"])
    if results["out_of_core"] is not None:
        lines += [""] + out_of_core.render(results["out_of_core"], command)
    lines += ["", "![ratios](benchmarks.png)", ""]
    return "\n".join(lines)


def draw_chart(results, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no chart (pip install matplotlib)", file=sys.stderr)
        return False
    panels = [("overhead vs autograd", results["overhead_us"], "autograd"),
              ("issue 16 chain vs autograd", results["links_us"], "autograd"),
              ("network step vs NumPy", results["step_ms"], "numpy"),
              ("chain time vs autograd", {p: v[0] for p, v in results["chain"].items()},
               "autograd"),
              ("jit: network step vs NumPy", results["jit"]["network_ms"], "numpy"),
              ("jit: chain vs NumPy forward", results["jit"]["chain_us"], "numpy forward")]
    figure, axes = plt.subplots(1, len(panels), figsize=(4 * len(panels), 3.2))
    for axis, (title, values, reference) in zip(axes, panels):
        if reference not in values:
            axis.set_axis_off()
            continue
        names = list(values)
        axis.bar(names, [values[n] / values[reference] for n in names],
                 color=["tab:orange" if n.startswith(("funcgrad", "compat")) else "tab:gray"
                        for n in names])
        axis.axhline(1.0, color="black", linewidth=0.8)
        axis.set_title(title)
        axis.set_ylabel("ratio (lower is better)")
        axis.tick_params(axis="x", rotation=30)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    return True


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--rounds", type=int, default=15, help="interleaved rounds per workload")
    parser.add_argument("--no-chain", action="store_true", help="skip the 200,000 chain")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/ alone")
    args = parser.parse_args(argv)
    command = "python -m benchmarks" + (f" --rounds {args.rounds}" if args.rounds != 15 else "")
    try:
        results = run_all(args.rounds, set() if args.no_chain else
                          {"funcgrad", "compat", "autograd", "torch"})
    except Exception as error:  # noqa: BLE001 -- benchmarks never fail a build
        print(f"benchmarks failed: {type(error).__name__}: {error}", file=sys.stderr)
        return 0
    text = render_markdown(results, command)
    print(text)
    if not args.no_write:
        os.makedirs(DOCS, exist_ok=True)
        with open(os.path.join(DOCS, "benchmarks.md"), "w") as file:
            file.write(text)
        draw_chart(results, os.path.join(DOCS, "benchmarks.png"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
