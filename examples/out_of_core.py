"""Logistic regression on a design matrix larger than this machine's memory: a chunked Dask
array, generated chunk by chunk from a seed and never held whole, fitted by gradient
descent with funcgrad's gradient. Each step builds one Dask task graph for the loss and its
gradient and runs it; only a few chunks are in memory at a time.

Run:  python examples/out_of_core.py [--size 40GB] [--features 100] [--chunk 64MB]
                                     [--steps 3] [--scheduler threads|distributed]

--size is the virtual size of the float64 design matrix (rows = size / (8 * features)),
--chunk the size of one block of rows. Each step prints the loss, the seconds it took and
the process's peak resident memory so far; with --check, the first step also runs the
same gradient written by hand in Dask and prints how far apart the two are. Needs Dask
(pip install "dask[array]"; "distributed" too for --scheduler distributed): says so and
stops when it is not installed.
"""
import argparse
import os
import sys
import time

# One BLAS thread per Dask worker thread: BLAS's own threads would fight Dask's for the cores.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import numpy as np  # noqa: E402 -- after the thread settings

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402

MIB = 1 << 20


def true_weights(n_features, seed):
    """The weights the labels are drawn from (the last feature is the intercept)."""
    return 3.0 * np.random.default_rng([seed, 0]).standard_normal(n_features) / np.sqrt(
        n_features)


def _feature_block(n_features, seed, block_info=None):
    """Standard normal features and a column of ones; block i always comes from seed (seed, 1, i)."""
    rows, _ = block_info[None]["chunk-shape"]
    index = block_info[None]["chunk-location"][0]
    block = np.empty((rows, n_features))
    block[:, :-1] = np.random.default_rng([seed, 1, index]).standard_normal(
        (rows, n_features - 1))
    block[:, -1] = 1.0
    return block


def _label_block(features, weights, seed, block_info=None):
    """Labels drawn as Bernoulli(sigmoid(features @ weights)), from seed (seed, 2, i)."""
    index = block_info[0]["chunk-location"][0]
    chance = 1.0 / (1.0 + np.exp(-(features @ weights)))
    draws = np.random.default_rng([seed, 2, index]).random(len(features))
    return (draws < chance).astype(np.float64)


def make_data(n_rows, n_features, rows_per_chunk, seed=0):
    """Features (n_rows, n_features) and labels (n_rows,) as lazy Dask arrays.

    Nothing is generated here: each task makes its block of rows from a seed derived from
    (seed, block index), so every computation sees the same data without storing it.
    """
    import dask.array as da
    if n_features < 2:
        raise ValueError(f"make_data: n_features must be at least 2 (features and the "
                         f"intercept column), got {n_features}")
    if n_rows < 1 or rows_per_chunk < 1:
        raise ValueError(f"make_data: n_rows and rows_per_chunk must be positive, got "
                         f"n_rows={n_rows}, rows_per_chunk={rows_per_chunk}")
    full, rest = divmod(n_rows, rows_per_chunk)
    row_chunks = (rows_per_chunk,) * full + ((rest,) if rest else ())
    features = da.map_blocks(_feature_block, n_features, seed, chunks=(row_chunks, (n_features,)),
                             dtype=np.float64, meta=np.empty((0, 0)), name=f"features-{seed}")
    labels = da.map_blocks(_label_block, features, true_weights(n_features, seed), seed,
                           drop_axis=1, dtype=np.float64, meta=np.empty(0),
                           name=f"labels-{seed}")
    return features, labels


def loss(weights, features, labels, l2=1e-4):
    """Mean negative log-likelihood plus a small L2 penalty, written with logaddexp so that
    large logits neither overflow nor lose the gradient (as examples/logistic_regression.py)."""
    logits = features @ weights
    signs = 2.0 * labels - 1.0
    return fnp.mean(fnp.logaddexp(0.0, -signs * logits)) + l2 * fnp.sum(weights ** 2)


def hand_value_and_grad(weights, features, labels, l2=1e-4):
    """The same loss and its gradient written by hand in NumPy calls that Dask dispatches:
    features.T @ (sigmoid(logits) - labels) / n + 2 * l2 * weights. The baseline."""
    from scipy.special import expit
    logits = features @ weights
    value = np.mean(np.logaddexp(0.0, -(2.0 * labels - 1.0) * logits)) + l2 * np.sum(weights ** 2)
    gradient = features.T @ (expit(logits) - labels) / len(labels) + 2.0 * l2 * weights
    return value, gradient


funcgrad_value_and_grad = fg.value_and_grad(loss)


def evaluate(value_and_grad, weights, features, labels):
    """Run one (loss, gradient) graph: both in one compute, so each block is made once."""
    import dask
    value, gradient = dask.compute(*value_and_grad(weights, features, labels))
    return float(value), np.asarray(gradient)


def peak_resident_mib():
    """This process's peak resident memory so far (Linux's VmHWM; elsewhere ru_maxrss)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / MIB if sys.platform == "darwin" else peak / 1024  # bytes on macOS, else KiB


def available_memory_bytes():
    """Memory the system could still give (MemAvailable), or None where it is not known."""
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def fit(weights, features, labels, steps, learning_rate, check=False, out=print):
    """Gradient descent; prints the loss, the time and the peak memory of each step."""
    for step in range(1, steps + 1):
        start = time.perf_counter()
        value, gradient = evaluate(funcgrad_value_and_grad, weights, features, labels)
        seconds = time.perf_counter() - start
        out(f"step {step:3d}  loss {value:.6f}  {seconds:7.2f} s  "
            f"peak RSS {peak_resident_mib():7.0f} MiB")
        if check and step == 1:
            start = time.perf_counter()
            hand_value, hand_gradient = evaluate(hand_value_and_grad, weights, features, labels)
            out(f"  hand-written Dask gradient: {time.perf_counter() - start:.2f} s, "
                f"max |difference| {np.max(np.abs(gradient - hand_gradient)):.2e}, "
                f"loss difference {abs(value - hand_value):.2e}")
        weights = weights - learning_rate * gradient
    return weights


def byte_size(text):
    """argparse type: '40GB', '64MiB', '1e9' -> bytes."""
    from dask.utils import parse_bytes
    try:
        size = parse_bytes(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a size: write a number of bytes with a unit, e.g. 40GB or 64MiB")
    if size <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: a size must be positive")
    return size


def shape_for(size, chunk, n_features):
    """(rows, rows per chunk) for a float64 matrix of about `size` bytes in `chunk`-byte blocks."""
    row_bytes = 8 * n_features
    if chunk < row_bytes or size < row_bytes:
        raise ValueError(f"--size and --chunk must each hold at least one row of "
                         f"{n_features} float64 features ({row_bytes} bytes); got "
                         f"--size {size} and --chunk {chunk} bytes")
    return size // row_bytes, chunk // row_bytes


def scheduler(name, workers):
    """A context in which dask.compute runs on the named scheduler; returns (context, memory
    reporter): the reporter gives the workers' peak MiB where they are other processes."""
    import contextlib

    import dask
    if name == "threads":
        return dask.config.set(scheduler="threads", num_workers=workers), None
    from dask.distributed import Client, LocalCluster
    stack = contextlib.ExitStack()
    cluster = stack.enter_context(LocalCluster(n_workers=workers, threads_per_worker=1,
                                               processes=True, dashboard_address=None))
    client = stack.enter_context(Client(cluster))
    return stack, lambda: client.run(peak_resident_mib)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=byte_size, default="40GB",
                        help="virtual size of the design matrix (default 40GB)")
    parser.add_argument("--features", type=int, default=100, help="columns (default 100)")
    parser.add_argument("--chunk", type=byte_size, default="64MB",
                        help="bytes per block of rows (default 64MB)")
    parser.add_argument("--steps", type=int, default=3, help="gradient steps (default 3)")
    parser.add_argument("--learning-rate", type=float, default=4.0,
                        help="step size (default 4: 1 / the loss's curvature bound 1/4)")
    parser.add_argument("--scheduler", choices=("threads", "distributed"), default="threads")
    parser.add_argument("--workers", type=int, default=2,
                        help="threads, or worker processes for distributed (default 2)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--check", action="store_true",
                        help="compare the first gradient with the hand-written Dask one")
    args = parser.parse_args(argv)
    if args.steps < 1 or args.workers < 1 or args.features < 2:
        parser.error(f"--steps and --workers must be at least 1 and --features at least 2 "
                     f"(features and the intercept column), got --steps {args.steps}, "
                     f"--workers {args.workers} and --features {args.features}")
    try:
        import dask.array  # noqa: F401 -- only to learn whether Dask is installed
    except ImportError:
        print('skipped: this example needs Dask (pip install "dask[array]")')
        return 0
    try:
        n_rows, rows_per_chunk = shape_for(args.size, args.chunk, args.features)
        features, labels = make_data(n_rows, args.features, rows_per_chunk, args.seed)
    except ValueError as error:
        parser.error(str(error))
    from dask.utils import format_bytes
    available = available_memory_bytes()
    print(f"design matrix {n_rows:,} x {args.features} float64: "
          f"{format_bytes(features.nbytes)} virtual"
          + (f" ({format_bytes(available)} of memory available)" if available else "")
          + f", {features.numblocks[0]} chunks of {rows_per_chunk:,} rows "
          f"({format_bytes(rows_per_chunk * args.features * 8)}), "
          f"{args.scheduler} scheduler with {args.workers} workers")
    context, worker_peaks = scheduler(args.scheduler, args.workers)
    with context:
        start = time.perf_counter()
        weights = fit(np.zeros(args.features), features, labels, args.steps,
                      args.learning_rate, check=args.check)
        seconds = time.perf_counter() - start
        if worker_peaks is not None:
            peaks = ", ".join(f"{mib:.0f}" for mib in worker_peaks().values())
            print(f"workers' peak RSS: {peaks} MiB")
    truth = true_weights(args.features, args.seed)
    cosine = weights @ truth / (np.linalg.norm(weights) * np.linalg.norm(truth))
    print(f"{args.steps} steps in {seconds:.1f} s ({seconds / args.steps:.1f} s per step); "
          f"cosine(fitted, true weights) = {cosine:.4f}; "
          f"peak RSS of this process {peak_resident_mib():.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
