"""Expectation-maximization for a hidden Markov model, where the E step is a gradient: the
expected counts of initial states, transitions and emissions are the gradient of the log
partition function with respect to the log parameters (the forward algorithm).

Written against funcgrad.autograd; runs unchanged on HIPS autograd once
``funcgrad.autograd`` reads ``autograd`` (tests/test_examples_autograd_style.py checks).

Run:  python examples/autograd_style/hmm_em.py
"""
import funcgrad.autograd.numpy as np
import funcgrad.autograd.numpy.random as npr
from funcgrad.autograd import value_and_grad
from funcgrad.autograd.scipy.special import logsumexp


def log_partition(log_params, sequences):
    """log p(sequences), summed; log_params = (log initial, log transition, log emission)."""
    log_initial, log_transition, log_emission = log_params
    total = 0.0
    for sequence in sequences:
        log_alpha = log_initial + log_emission[:, sequence[0]]
        for symbol in sequence[1:]:
            log_alpha = (logsumexp(log_alpha[:, None] + log_transition, axis=0)
                         + log_emission[:, symbol])
        total = total + logsumexp(log_alpha)
    return total


def normalize(counts):
    return counts / np.sum(counts, axis=-1, keepdims=True)


def em_step(params, sequences):
    log_params = tuple(np.log(p) for p in params)
    log_likelihood, expected_counts = value_and_grad(log_partition)(log_params, sequences)
    return log_likelihood, tuple(normalize(counts) for counts in expected_counts)


def sample(rs, params, length):
    initial, transition, emission = params
    state = rs.choice(len(initial), p=initial)
    symbols = []
    for _ in range(length):
        symbols.append(rs.choice(emission.shape[1], p=emission[state]))
        state = rs.choice(len(initial), p=transition[state])
    return np.array(symbols)


if __name__ == "__main__":
    rs = npr.RandomState(0)
    truth = (np.array([0.8, 0.2]), np.array([[0.9, 0.1], [0.2, 0.8]]),
             np.array([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6]]))
    sequences = [sample(rs, truth, 40) for _ in range(6)]

    params = (normalize(rs.rand(2)), normalize(rs.rand(2, 2)), normalize(rs.rand(2, 3)))
    for step in range(12):
        log_likelihood, params = em_step(params, sequences)
        print(f"EM step {step:2d}  log likelihood {log_likelihood:.6f}")
    print("transition matrix:\n", np.round(params[1], 3))
    print("emission matrix:\n", np.round(params[2], 3))
