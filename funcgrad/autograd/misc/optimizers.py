"""autograd's one-call optimizers: ``sgd``, ``rmsprop`` and ``adam``.

Each runs ``num_iters`` steps from ``x0`` (an array or any pytree of arrays) and returns
the final parameters, with ``x0``'s structure. ``grad(x, i)`` gives the gradient at x for
iteration i (a minibatch index, say); ``callback(x, i, g)``, if given, is called at every
iteration before the step. The updates are written with funcgrad.numpy, so a whole run can
itself be differentiated (with respect to the step size, for instance).
"""
import functools

from ... import numpy as fnp
from .flatten import flatten


def _on_flat_vectors(optimize):
    """Run ``optimize``, written for 1-D arrays, on pytrees: the parameters, gradients and
    callback arguments are flattened and rebuilt around it."""

    @functools.wraps(optimize)
    def optimize_tree(grad, x0, callback=None, *args, **kwargs):
        flat_x0, unflatten = flatten(x0)

        def flat_grad(x, i):
            return flatten(grad(unflatten(x), i))[0]

        flat_callback = None
        if callback is not None:
            def flat_callback(x, i, g):
                callback(unflatten(x), i, unflatten(g))

        return unflatten(optimize(flat_grad, flat_x0, flat_callback, *args, **kwargs))

    return optimize_tree


@_on_flat_vectors
def sgd(grad, x, callback=None, num_iters=200, step_size=0.1, mass=0.9):
    """Stochastic gradient descent with momentum: ``v = mass v - (1 - mass) g; x += step v``."""
    velocity = fnp.zeros_like(x)
    for i in range(num_iters):
        g = grad(x, i)
        if callback:
            callback(x, i, g)
        velocity = mass * velocity - (1.0 - mass) * g
        x = x + step_size * velocity
    return x


@_on_flat_vectors
def rmsprop(grad, x, callback=None, num_iters=100, step_size=0.1, gamma=0.9, eps=1e-8):
    """RMSProp: steps scaled by a running root mean square of the gradients (started at 1)."""
    mean_sq = fnp.ones_like(x)
    for i in range(num_iters):
        g = grad(x, i)
        if callback:
            callback(x, i, g)
        mean_sq = mean_sq * gamma + g ** 2 * (1 - gamma)
        x = x - step_size * g / (fnp.sqrt(mean_sq) + eps)
    return x


@_on_flat_vectors
def adam(grad, x, callback=None, num_iters=100, step_size=0.001, b1=0.9, b2=0.999, eps=1e-8):
    """Adam (Kingma and Ba, 2015): steps from bias-corrected running moments of g and g**2."""
    m = fnp.zeros_like(x)
    v = fnp.zeros_like(x)
    for i in range(num_iters):
        g = grad(x, i)
        if callback:
            callback(x, i, g)
        m = (1 - b1) * g + b1 * m
        v = (1 - b2) * g ** 2 + b2 * v
        m_hat = m / (1 - b1 ** (i + 1))
        v_hat = v / (1 - b2 ** (i + 1))
        x = x - step_size * m_hat / (fnp.sqrt(v_hat) + eps)
    return x


__all__ = ["sgd", "rmsprop", "adam"]
