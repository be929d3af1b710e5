"""Gaussian-process regression whose kernel hyperparameters are fitted by maximizing the
marginal likelihood with SciPy's optimizer, given autograd's ``value_and_grad``.

Written against funcgrad.autograd; runs unchanged on HIPS autograd once
``funcgrad.autograd`` reads ``autograd`` (tests/test_examples_autograd_style.py checks).

Run:  python examples/autograd_style/gaussian_process.py
"""
from scipy.optimize import minimize

import funcgrad.autograd.numpy as np
import funcgrad.autograd.numpy.random as npr
import funcgrad.autograd.scipy.stats.multivariate_normal as mvn
from funcgrad.autograd import value_and_grad


def squared_exponential(log_scale, log_length, a, b):
    distances = (a[:, None, :] - b[None, :, :]) / np.exp(log_length)
    return np.exp(log_scale) * np.exp(-0.5 * np.sum(distances ** 2, axis=2))


def unpack(params):
    log_noise, log_scale, log_length = params[0], params[1], params[2:]
    return np.exp(log_noise) + 1e-6, log_scale, log_length


def log_marginal_likelihood(params, x, y):
    noise, log_scale, log_length = unpack(params)
    cov = squared_exponential(log_scale, log_length, x, x) + noise * np.eye(len(y))
    return mvn.logpdf(y, np.zeros(len(y)), cov)


def predict(params, x, y, x_new):
    noise, log_scale, log_length = unpack(params)
    cov = squared_exponential(log_scale, log_length, x, x) + noise * np.eye(len(y))
    cross = squared_exponential(log_scale, log_length, x_new, x)
    mean = np.dot(cross, np.linalg.solve(cov, y))
    variance = np.exp(log_scale) - np.sum(cross * np.linalg.solve(cov, cross.T).T, axis=1)
    return mean, variance


if __name__ == "__main__":
    rs = npr.RandomState(0)
    x = np.sort(rs.uniform(-3, 3, (25, 1)), axis=0)
    y = np.sin(2 * x[:, 0]) + 0.1 * rs.randn(25)
    objective = lambda params: -log_marginal_likelihood(params, x, y)

    start = np.array([0.0, 0.0, 0.5])
    print(f"start: log likelihood {-objective(start):.6f}")
    result = minimize(value_and_grad(objective), start, jac=True, method="L-BFGS-B")
    noise, log_scale, log_length = unpack(result.x)
    print(f"fitted: log likelihood {-result.fun:.6f}, noise {noise:.5f}, "
          f"scale {np.exp(log_scale):.5f}, length {np.exp(log_length[0]):.5f}")
    mean, variance = predict(result.x, x, y, np.array([[-2.0], [0.0], [2.5]]))
    for point, m, v in zip([-2.0, 0.0, 2.5], mean, variance):
        print(f"f({point:+.1f}) = {m:+.4f} +- {1.96 * np.sqrt(v):.4f}  "
              f"(sin(2x): {np.sin(2 * point):+.4f})")
