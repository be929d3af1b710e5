"""Maximum-likelihood fit of a negative binomial distribution to counts, using
``gammaln`` from scipy.special, the gradient with respect to two arguments at once
(``argnum=(0, 1)``), and SciPy's optimizer on an unconstrained parametrization.

Written against funcgrad.autograd; runs unchanged on HIPS autograd once
``funcgrad.autograd`` reads ``autograd`` (tests/test_examples_autograd_style.py checks).

Run:  python examples/autograd_style/count_regression.py
"""
import scipy.optimize

import funcgrad.autograd.numpy as np
import funcgrad.autograd.numpy.random as npr
from funcgrad.autograd import grad
from funcgrad.autograd.scipy.special import expit, gammaln


def log_likelihood(r, p, counts):
    """Negative binomial: failures before the r-th success, success probability 1 - p."""
    return np.sum(gammaln(counts + r) - gammaln(counts + 1) - gammaln(r)
                  + counts * np.log(p) + r * np.log1p(-p))


def fit(counts):
    def objective(theta):  # r = exp(theta[0]) > 0 and p = expit(theta[1]) in (0, 1)
        return -log_likelihood(np.exp(theta[0]), expit(theta[1]), counts) / len(counts)

    result = scipy.optimize.minimize(objective, np.zeros(2), jac=grad(objective),
                                     method="BFGS")
    return np.exp(result.x[0]), expit(result.x[1])


if __name__ == "__main__":
    rs = npr.RandomState(0)
    counts = rs.negative_binomial(5, 0.4, size=400).astype(float)  # NumPy's p: success
    r, p = fit(counts)
    print(f"fitted r = {r:.4f}, p = {p:.4f}  (sampled with r = 5, p = 0.6)")
    d_r, d_p = grad(log_likelihood, (0, 1))(r, p, counts)
    print(f"gradient at the optimum: d/dr {d_r:.2e}, d/dp {d_p:.2e}")
    mean = r * p / (1 - p)
    print(f"model mean {mean:.4f}, sample mean {np.mean(counts):.4f}")
