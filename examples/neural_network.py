"""A small neural network (a multilayer perceptron) learns to tell two interleaved moons
apart. Its parameters are a pytree (a list of dicts of arrays); value_and_grad returns a
gradient of the same shape, and tree_map applies the Adam update leaf by leaf.

Run:  python examples/neural_network.py [--epochs 30]
"""
import argparse
import sys

import numpy as np

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.tree_util import tree_map


def two_moons(count, noise=0.1, seed=0):
    """Points on two interleaved half circles, labelled 0 and 1, with Gaussian noise."""
    rng = np.random.default_rng(seed)
    angles = rng.uniform(0, np.pi, count)
    labels = rng.integers(0, 2, count)
    x = np.where(labels == 0, np.cos(angles), 1 - np.cos(angles))
    y = np.where(labels == 0, np.sin(angles), 0.5 - np.sin(angles))
    points = np.stack([x, y], axis=1) + noise * rng.normal(size=(count, 2))
    return points, labels.astype(np.float64)


def init_params(sizes, seed=0):
    """One {"w", "b"} dict per layer, scaled so activations keep their size."""
    rng = np.random.default_rng(seed)
    return [{"w": rng.normal(size=(n_in, n_out)) / np.sqrt(n_in), "b": np.zeros(n_out)}
            for n_in, n_out in zip(sizes[:-1], sizes[1:])]


def predict(params, inputs):
    """Logits: tanh hidden layers, then a linear output layer."""
    activations = inputs
    for layer in params[:-1]:
        activations = fnp.tanh(activations @ layer["w"] + layer["b"])
    last = params[-1]
    return (activations @ last["w"] + last["b"])[:, 0]


def loss(params, inputs, labels):
    """Binary cross-entropy of the logits, in a form that cannot overflow."""
    logits = predict(params, inputs)
    return fnp.mean(fnp.logaddexp(0.0, logits) - labels * logits)


class Adam:
    """Adam on pytrees of parameters: every step is a tree_map over the leaves."""

    def __init__(self, params, rate=0.01, beta1=0.9, beta2=0.999, eps=1e-8):
        self.rate, self.beta1, self.beta2, self.eps = rate, beta1, beta2, eps
        self.mean = tree_map(np.zeros_like, params)
        self.square = tree_map(np.zeros_like, params)
        self.steps = 0

    def update(self, params, grads):
        self.steps += 1
        b1, b2 = self.beta1, self.beta2
        self.mean = tree_map(lambda m, g: b1 * m + (1 - b1) * g, self.mean, grads)
        self.square = tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, self.square, grads)
        rate = self.rate * np.sqrt(1 - b2 ** self.steps) / (1 - b1 ** self.steps)
        return tree_map(lambda p, m, v: p - rate * m / (np.sqrt(v) + self.eps),
                        params, self.mean, self.square)


def accuracy(params, inputs, labels):
    return np.mean((predict(params, inputs) > 0) == (labels == 1))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args(argv)

    inputs, labels = two_moons(256)
    params = init_params([2, 16, 16, 1])
    optimizer = Adam(params)
    loss_and_grad = fg.value_and_grad(loss)
    rng = np.random.default_rng(1)
    for epoch in range(1, args.epochs + 1):
        order = rng.permutation(len(labels))
        losses = []
        for start in range(0, len(labels), args.batch_size):
            batch = order[start:start + args.batch_size]
            value, grads = loss_and_grad(params, inputs[batch], labels[batch])
            params = optimizer.update(params, grads)
            losses.append(value)
        print(f"epoch {epoch:3d}/{args.epochs}  loss {np.mean(losses):.4f}  "
              f"accuracy {accuracy(params, inputs, labels):6.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
