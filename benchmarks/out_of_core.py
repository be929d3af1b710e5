"""The out-of-core workload of examples/out_of_core.py (issue 17): one loss-and-gradient
evaluation of logistic regression on a chunked Dask design matrix generated block by block,
funcgrad's `value_and_grad` against the same gradient written by hand in Dask.

    python -m benchmarks.out_of_core [--size 1GB] [--chunk 64MB] [--features 100] [--rounds 5]

Each round times, in turn on Dask's threaded scheduler: funcgrad (tracing the loss into a
task graph, then computing loss and gradient in one `dask.compute`), the hand-written graph
computed the same way, and one pass that only generates the data (the floor: every
evaluation makes each block once). Prints the medians, the ratio, and each one's peak
resident memory (Linux: VmHWM, reset before each run), which a few chunks bound whatever the
size. `python -m benchmarks` runs it at a size that fits in memory; the size larger than
memory is a separate command (docs/out-of-core.md has the figures).
"""
import argparse
import importlib.util
import os
import statistics
import sys
import time

import numpy as np

EXAMPLE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       "examples", "out_of_core.py")
PEERS = ("funcgrad", "hand-written Dask", "data only")


def _load_example():
    spec = importlib.util.spec_from_file_location("out_of_core_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _reset_peak_memory():
    """Sets Linux's VmHWM to the current resident size; False where that is not possible
    (then the peaks are the process's own since it started)."""
    try:
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")
        return True
    except OSError:
        return False


def _runs(example, features, labels, weights):
    import dask

    def data_only():
        dask.compute(features.sum(), labels.sum())
    return {"funcgrad": lambda: example.evaluate(example.funcgrad_value_and_grad, weights,
                                                  features, labels),
            "hand-written Dask": lambda: example.evaluate(example.hand_value_and_grad, weights,
                                                           features, labels),
            "data only": data_only}


def run_all(size, chunk, n_features=100, rounds=5, workers=2, out=print):
    """{"seconds": {peer: median}, "peak_mib": {peer: max}, and the sizes}: interleaved
    rounds, one evaluation per peer per round, after one untimed warm-up each."""
    import dask
    example = _load_example()
    n_rows, rows_per_chunk = example.shape_for(size, chunk, n_features)
    features, labels = example.make_data(n_rows, n_features, rows_per_chunk)
    weights = 0.1 * np.random.default_rng(0).standard_normal(n_features)
    runs = _runs(example, features, labels, weights)
    seconds = {peer: [] for peer in runs}
    peaks = {peer: 0.0 for peer in runs}
    above = {peer: 0.0 for peer in runs}
    with dask.config.set(scheduler="threads", num_workers=workers):
        ours, theirs = runs["funcgrad"](), runs["hand-written Dask"]()  # warm-up and check
        np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-9, atol=1e-12,
                                   err_msg="funcgrad's gradient differs from the hand-written")
        runs["data only"]()
        resets = _reset_peak_memory()
        for round_ in range(1, rounds + 1):
            for peer, run in runs.items():
                _reset_peak_memory()
                before = example.peak_resident_mib()  # the resident size, after a reset
                start = time.perf_counter()
                run()
                seconds[peer].append(time.perf_counter() - start)
                peak = example.peak_resident_mib()
                peaks[peer] = max(peaks[peer], peak)
                above[peer] = max(above[peer], peak - before)
            out(f"  round {round_}/{rounds}: " + ", ".join(
                f"{peer} {times[-1]:.2f} s" for peer, times in seconds.items()))
    return {"seconds": {peer: statistics.median(times) for peer, times in seconds.items()},
            "peak_mib": peaks, "above_mib": above, "peaks_reset": resets, "rows": n_rows, "features": n_features,
            "chunks": features.numblocks[0], "chunk_bytes": rows_per_chunk * n_features * 8,
            "virtual_bytes": features.nbytes, "rounds": rounds, "workers": workers,
            "gradient_difference": float(np.max(np.abs(ours[1] - theirs[1])))}


def render(results, command):
    """The markdown section of docs/benchmarks.md (and of this module's printout)."""
    from dask.utils import format_bytes
    seconds, peaks, above = results["seconds"], results["peak_mib"], results["above_mib"]
    hand = seconds["hand-written Dask"]
    peak_note = ("peak RSS of the process during the run, MiB (VmHWM reset before each) | "
                 "above the RSS before it" if results["peaks_reset"] else
                 "peak RSS of the process since it started, MiB | (no reset: not measured)")
    lines = [f"## Out-of-core logistic regression on Dask ({results['rows']:,} x "
             f"{results['features']} float64, {format_bytes(results['virtual_bytes'])} virtual, "
             f"{results['chunks']} chunks of {format_bytes(results['chunk_bytes'])})", "",
             f"One loss-and-gradient evaluation, threaded scheduler with {results['workers']} "
             f"workers, median of {results['rounds']} interleaved rounds, `{command}`. "
             f"Max |funcgrad - hand-written| gradient: {results['gradient_difference']:.1e}.",
             "", f"| run | seconds | vs hand-written Dask | {peak_note} |",
             "| --- | --- | --- | --- | --- |"]
    for peer in PEERS:
        lines.append(f"| {peer} | {seconds[peer]:.2f} | {seconds[peer] / hand:.2f}x | "
                     f"{peaks[peer]:.0f} | {above[peer]:.0f} |")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks.out_of_core",
                                     description=__doc__.split("\n\n")[0])
    example = _load_example()
    parser.add_argument("--size", type=example.byte_size, default="1GB",
                        help="virtual size of the design matrix (default 1GB)")
    parser.add_argument("--chunk", type=example.byte_size, default="64MB",
                        help="bytes per block of rows (default 64MB)")
    parser.add_argument("--features", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2, help="threads (default 2)")
    argv = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(argv)
    if importlib.util.find_spec("dask") is None:
        print('skipped: this benchmark needs Dask (pip install "dask[array]")')
        return 0
    if min(args.features - 1, args.rounds, args.workers) < 1:
        parser.error("--features must be at least 2, --rounds and --workers at least 1")
    try:
        results = run_all(args.size, args.chunk, args.features, args.rounds, args.workers)
    except ValueError as error:
        parser.error(str(error))
    command = " ".join(["python -m benchmarks.out_of_core", *argv])
    print("\n".join(render(results, command)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
