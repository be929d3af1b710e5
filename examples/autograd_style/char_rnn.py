"""A character-level recurrent network (a GRU-like gated cell) trained to predict the next
character of a few short lines, with parameters in a dict, autograd's Adam and
``logsumexp``; then it completes a prompt greedily.

Written against funcgrad.autograd; runs unchanged on HIPS autograd once
``funcgrad.autograd`` reads ``autograd`` (tests/test_examples_autograd_style.py checks).

Run:  python examples/autograd_style/char_rnn.py
"""
import funcgrad.autograd.numpy as np
import funcgrad.autograd.numpy.random as npr
from funcgrad.autograd import grad
from funcgrad.autograd.misc.optimizers import adam
from funcgrad.autograd.scipy.special import logsumexp

LINES = ["gradients flow", "backwards through", "every step taken"]
ALPHABET = sorted(set("".join(LINES)))


def one_hot(text, length):
    """(length, len(ALPHABET)) one-hot rows, padded with spaces."""
    codes = [ALPHABET.index(c) for c in text.ljust(length)]
    return np.eye(len(ALPHABET))[codes]


def init_params(rs, hidden, scale=0.2):
    size = len(ALPHABET)
    return {name: scale * rs.randn(*shape) for name, shape in [
        ("gate", (size + hidden + 1, hidden)), ("update", (size + hidden + 1, hidden)),
        ("output", (hidden + 1, size)), ("h0", (1, hidden))]}


def with_bias(*parts):
    return np.concatenate(parts + (np.ones((parts[0].shape[0], 1)),), axis=1)


def log_predictions(params, inputs):
    """inputs: (time, batch, alphabet) one-hot; returns the log-probabilities of the next
    character at each step."""
    hidden = np.repeat(params["h0"], inputs.shape[1], axis=0)
    outputs = []
    for x in inputs:
        gate = 1.0 / (1.0 + np.exp(-np.dot(with_bias(x, hidden), params["gate"])))
        proposal = np.tanh(np.dot(with_bias(x, hidden), params["update"]))
        hidden = gate * hidden + (1 - gate) * proposal
        logits = np.dot(with_bias(hidden), params["output"])
        outputs.append(logits - logsumexp(logits, axis=1, keepdims=True))
    return outputs


def loss(params, inputs):
    predictions = log_predictions(params, inputs[:-1])
    return -sum(np.sum(p * target) for p, target in zip(predictions, inputs[1:]))


def complete(params, prompt, length):
    text = prompt
    for _ in range(length):
        last = log_predictions(params, one_hot(text, len(text))[:, None, :])[-1]
        text += ALPHABET[int(np.argmax(last))]
    return text


if __name__ == "__main__":
    width = max(len(line) for line in LINES) + 1
    inputs = np.stack([one_hot(line, width) for line in LINES], axis=1)
    params = init_params(npr.RandomState(0), hidden=24)

    def report(params, i, gradient):
        if i % 25 == 0:
            print(f"iteration {i:3d}  loss {loss(params, inputs):9.4f}")

    params = adam(lambda p, i: grad(loss)(p, inputs), params, step_size=0.05, num_iters=150,
                  callback=report)
    print(f"final loss {loss(params, inputs):.4f}")
    for line in LINES:
        print(repr(complete(params, line[:4], len(line) - 4)))
