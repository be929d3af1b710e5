"""Black-box variational inference: fit a diagonal Gaussian to an unnormalized 2-D
density (a funnel) by stochastic gradients of the evidence lower bound, with the
reparameterization trick; first with Adam, then with natural-gradient SGD.

Written against funcgrad.autograd; runs unchanged on HIPS autograd once
``funcgrad.autograd`` reads ``autograd`` (tests/test_examples_autograd_style.py checks).

Run:  python examples/autograd_style/variational_inference.py
"""
import funcgrad.autograd.numpy as np
import funcgrad.autograd.numpy.random as npr
from funcgrad.autograd import grad
from funcgrad.autograd.misc.optimizers import adam, sgd
from funcgrad.autograd.scipy.stats import norm


def log_density(z):
    """A funnel: the spread of z[:, 0] depends on z[:, 1]."""
    return norm.logpdf(z[:, 1], 0.0, 1.35) + norm.logpdf(z[:, 0], 0.0, np.exp(z[:, 1]))


def make_objective(num_samples, seed):
    rs = npr.RandomState(seed)

    def negative_elbo(params, t):
        mean, log_std = params[:2], params[2:]
        samples = rs.randn(num_samples, 2) * np.exp(log_std) + mean
        entropy = np.sum(log_std) + 0.5 * 2 * (1.0 + np.log(2 * np.pi))
        return -(entropy + np.mean(log_density(samples)))

    return negative_elbo


def fisher_diagonal(params):
    """The Fisher information of (mean, log_std) for a diagonal Gaussian."""
    return np.concatenate([np.exp(-2.0 * params[2:]), 2.0 * np.ones(2)])


def reporter(name, objective):
    def report(params, t, gradient):
        if t % 20 == 0:
            print(f"{name:5s} step {t:3d}  elbo {-objective(params, t):9.4f}")
    return report


if __name__ == "__main__":
    start = np.array([-1.0, -1.0, -3.0, -3.0])

    objective = make_objective(num_samples=200, seed=0)
    fitted = adam(grad(objective), start, step_size=0.1, num_iters=100,
                  callback=reporter("adam", objective))
    print("adam  mean", np.round(fitted[:2], 3), "std", np.round(np.exp(fitted[2:]), 3))

    objective = make_objective(num_samples=200, seed=0)
    natural = lambda params, t: grad(objective)(params, t) / fisher_diagonal(params)
    fitted = sgd(natural, start, step_size=0.2, mass=0.001, num_iters=100,
                 callback=reporter("sgd", objective))
    print("sgd   mean", np.round(fitted[:2], 3), "std", np.round(np.exp(fitted[2:]), 3))
