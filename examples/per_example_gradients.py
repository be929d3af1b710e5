"""Per-example gradients with vmap, and DP-SGD's clipping of their norms, plotted to a PNG.

A small MLP classifies two interleaved spirals (synthetic: nothing downloaded). Each step
of DP-SGD computes every example's gradient at once with ``vmap(grad(loss))``, clips each
to norm at most CLIP, adds Gaussian noise and averages (Abadi et al., 2016). The plot shows
the distribution of the per-example gradient norms before and after training.

Run:  python examples/per_example_gradients.py [output.png] [--steps 150]
(default: per_example_gradients.png in the system's temporary directory; needs matplotlib
for the plot, and says so and stops when it is not installed).
"""
import argparse
import os
import sys
import tempfile
import time

import numpy as np

import funcgrad as fg
import funcgrad.numpy as fnp

CLIP = 1.0           # largest norm an example's gradient may keep
NOISE = 0.5          # noise standard deviation, in units of CLIP
LEARNING_RATE = 1.0


def spirals(count, rng):
    """Two interleaved spirals in the plane, labels 0 and 1."""
    t = np.sqrt(rng.uniform(0.05, 1, count)) * 2 * np.pi
    labels = rng.integers(0, 2, count)
    sign = np.where(labels == 1, 1.0, -1.0)
    points = sign[:, None] * np.stack([t * np.cos(t), t * np.sin(t)], axis=1) / 10
    return points + rng.normal(0, 0.03, points.shape), labels.astype(np.float64)


def init(rng, sizes=(2, 32, 32, 1)):
    return [(rng.normal(0, 1 / np.sqrt(m), (m, n)), np.zeros(n))
            for m, n in zip(sizes[:-1], sizes[1:])]


def logit(params, x):
    for w, b in params[:-1]:
        x = fnp.tanh(x @ w + b)
    w, b = params[-1]
    return (x @ w + b)[0]


def loss(params, x, y):
    """The logistic loss of one example."""
    z = logit(params, x)
    return fnp.logaddexp(0.0, z) - y * z


# Every example's gradient at once: the parameters are shared, the examples mapped.
per_example_grads = fg.vmap(fg.grad(loss), in_axes=(None, 0, 0))


def norms(grads):
    """The norm of each example's whole gradient (all parameters together)."""
    leaves = fg.tree_util.tree_leaves(grads)
    return np.sqrt(sum(np.sum(g.reshape(len(g), -1) ** 2, axis=1) for g in leaves))


def dp_sgd_step(params, x, y, rng):
    grads = per_example_grads(params, x, y)
    scale = np.minimum(1.0, CLIP / np.maximum(norms(grads), 1e-12))  # clip each example
    noisy_mean = fg.tree_util.tree_map(
        lambda g: (np.tensordot(scale, g, axes=1)
                   + rng.normal(0, NOISE * CLIP, g.shape[1:])) / len(x), grads)
    return fg.tree_util.tree_map(lambda p, g: p - LEARNING_RATE * g, params, noisy_mean)


def accuracy(params, x, y):
    predictions = fg.vmap(logit, in_axes=(None, 0))(params, x) > 0
    return np.mean(predictions == (y == 1))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", nargs="?", default=os.path.join(
        tempfile.gettempdir(), "per_example_gradients.png"))
    parser.add_argument("--steps", type=int, default=150)
    parser.add_argument("--batch", type=int, default=64)
    args = parser.parse_args(argv)
    try:
        import matplotlib
        matplotlib.use("Agg")  # draw to a file; no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        print("skipped: this example needs matplotlib (pip install matplotlib)")
        return 0

    rng = np.random.default_rng(0)
    x, y = spirals(1024, rng)
    params = init(rng)

    # vmap gives what a loop of grad gives, for the whole batch at once.
    batch_x, batch_y = x[:args.batch], y[:args.batch]
    start = time.perf_counter()
    batched = per_example_grads(params, batch_x, batch_y)
    vmap_seconds = time.perf_counter() - start
    start = time.perf_counter()
    looped = [fg.grad(loss)(params, xi, yi) for xi, yi in zip(batch_x, batch_y)]
    loop_seconds = time.perf_counter() - start
    for i, example in enumerate(looped):
        for a, b in zip(fg.tree_util.tree_leaves(example), fg.tree_util.tree_leaves(batched)):
            np.testing.assert_allclose(a, b[i], rtol=1e-10, atol=1e-12)
    print(f"per-example gradients of {args.batch} examples: vmap(grad) equals a loop of grad "
          f"({vmap_seconds * 1e3:.1f} ms against {loop_seconds * 1e3:.1f} ms)")

    before = norms(batched)
    print(f"before training: accuracy {accuracy(params, x, y):.2f}, median gradient norm "
          f"{np.median(before):.3f}, clipped: {np.mean(before > CLIP):.0%}")
    for _ in range(args.steps):
        chosen = rng.choice(len(x), args.batch, replace=False)
        params = dp_sgd_step(params, x[chosen], y[chosen], rng)
    after = norms(per_example_grads(params, batch_x, batch_y))
    print(f"after {args.steps} DP-SGD steps: accuracy {accuracy(params, x, y):.2f}, median "
          f"gradient norm {np.median(after):.3f}, clipped: {np.mean(after > CLIP):.0%}")

    figure, axes = plt.subplots(figsize=(7, 4))
    bins = np.linspace(0, max(before.max(), after.max(), CLIP) * 1.05, 30)
    axes.hist(before, bins=bins, alpha=0.6, label="before training")
    axes.hist(after, bins=bins, alpha=0.6, label=f"after {args.steps} DP-SGD steps")
    axes.axvline(CLIP, color="black", linestyle="--", label=f"clipping norm {CLIP}")
    axes.set_xlabel("norm of an example's gradient")
    axes.set_ylabel(f"examples (of {args.batch})")
    axes.set_title("Per-example gradient norms (funcgrad.vmap(grad(loss)))")
    axes.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(args.output, dpi=80)
    plt.close(figure)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
