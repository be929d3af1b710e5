"""Logistic regression on scikit-learn's bundled breast-cancer data, fitted by SciPy's
L-BFGS with funcgrad's gradient.

Run:  python examples/logistic_regression.py
(needs scikit-learn, whose copy of the data ships with it: no download; says so and
stops when it is not installed).
"""
import sys

import numpy as np
from scipy.optimize import minimize

import funcgrad as fg
import funcgrad.numpy as fnp


def load_data(seed=0):
    """Standardized features with a column of ones (the bias), labels, and a 70/30 split."""
    from sklearn.datasets import load_breast_cancer
    features, labels = load_breast_cancer(return_X_y=True)
    order = np.random.default_rng(seed).permutation(len(labels))
    features, labels = features[order], labels[order].astype(np.float64)
    train = int(0.7 * len(labels))
    mean, std = features[:train].mean(axis=0), features[:train].std(axis=0)
    features = (features - mean) / std  # scaled with the training half's statistics only
    features = np.hstack([features, np.ones((len(labels), 1))])
    return (features[:train], labels[:train]), (features[train:], labels[train:])


def loss(weights, features, labels, l2=1e-3):
    """Mean negative log-likelihood plus a small L2 penalty.

    log(1 + exp(-z)) for label 1 and log(1 + exp(z)) for label 0, written with logaddexp
    so that large |z| neither overflows nor loses the gradient.
    """
    logits = features @ weights
    signs = 2.0 * labels - 1.0
    return fnp.mean(fnp.logaddexp(0.0, -signs * logits)) + l2 * fnp.sum(weights ** 2)


def accuracy(weights, features, labels):
    return np.mean((features @ weights > 0) == (labels == 1))


def main():
    try:
        (x_train, y_train), (x_test, y_test) = load_data()
    except ImportError:
        print("skipped: this example needs scikit-learn (pip install scikit-learn)")
        return 0
    value_and_grad = fg.value_and_grad(loss)
    result = minimize(value_and_grad, np.zeros(x_train.shape[1]), args=(x_train, y_train),
                      jac=True, method="L-BFGS-B")  # jac=True: fun returns (value, gradient)
    print(f"L-BFGS: {result.nit} iterations, final loss {result.fun:.4f} ({result.message})")
    print(f"train accuracy {accuracy(result.x, x_train, y_train):.3f}")
    print(f"test accuracy  {accuracy(result.x, x_test, y_test):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
