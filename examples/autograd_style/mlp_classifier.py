"""A two-layer classifier in HIPS autograd's style: parameters as a list of (W, b) pairs,
minibatch gradients for autograd's one-call Adam, a callback that reports accuracy.

Written against funcgrad.autograd; with ``funcgrad.autograd`` replaced by ``autograd`` it
runs on HIPS autograd and prints the same (tests/test_examples_autograd_style.py checks).

Run:  python examples/autograd_style/mlp_classifier.py
"""
import funcgrad.autograd.numpy as np
import funcgrad.autograd.numpy.random as npr
from funcgrad.autograd import grad
from funcgrad.autograd.misc import flatten
from funcgrad.autograd.misc.optimizers import adam
from funcgrad.autograd.scipy.special import logsumexp


def make_blobs(rs, num_per_class=60, num_classes=3):
    """Points around one centre per class, and one-hot labels."""
    centres = 2.5 * rs.randn(num_classes, 2)
    points = np.concatenate([c + rs.randn(num_per_class, 2) for c in centres])
    classes = np.repeat(np.arange(num_classes), num_per_class)
    return points, np.eye(num_classes)[classes]


def init_params(rs, sizes, scale=0.3):
    return [(scale * rs.randn(m, n), scale * rs.randn(n)) for m, n in zip(sizes[:-1], sizes[1:])]


def log_probabilities(params, inputs):
    for W, b in params[:-1]:
        inputs = np.tanh(np.dot(inputs, W) + b)
    W, b = params[-1]
    logits = np.dot(inputs, W) + b
    return logits - logsumexp(logits, axis=1, keepdims=True)


def objective(params, inputs, targets, l2=1e-3):
    flat, _ = flatten(params)
    return -np.sum(log_probabilities(params, inputs) * targets) + l2 * np.dot(flat, flat)


def accuracy(params, inputs, targets):
    guesses = np.argmax(log_probabilities(params, inputs), axis=1)
    return np.mean(guesses == np.argmax(targets, axis=1))


if __name__ == "__main__":
    rs = npr.RandomState(0)
    inputs, targets = make_blobs(rs)
    params = init_params(rs, [2, 16, 3])
    batch_size, num_batches = 30, len(inputs) // 30

    def batch_objective(params, i):
        batch = slice((i % num_batches) * batch_size, (i % num_batches + 1) * batch_size)
        return objective(params, inputs[batch], targets[batch])

    def report(params, i, gradient):
        if i % num_batches == 0:
            print(f"epoch {i // num_batches}  loss {objective(params, inputs, targets):10.5f}  "
                  f"accuracy {accuracy(params, inputs, targets):.3f}  "
                  f"|grad| {np.sqrt(np.sum(flatten(gradient)[0] ** 2)):.5f}")

    params = adam(grad(batch_objective), params, step_size=0.05, num_iters=6 * num_batches,
                  callback=report)
    print(f"final accuracy {accuracy(params, inputs, targets):.3f}")
