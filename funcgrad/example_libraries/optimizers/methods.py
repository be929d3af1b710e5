"""The optimizers, each written for one array and lifted to pytrees by `optimizer`.

Written with funcgrad.numpy, so an update can itself be differentiated (for instance with
respect to the step size, to tune it by gradient descent).
"""
import functools

from ... import numpy as fnp
from .schedules import make_schedule
from .state import optimizer


def _params_only(state):
    return state[0]


def _safe_inverse_sqrt(x):
    """``1 / sqrt(x)`` where x > 0, else 0; no division by zero on either pass."""
    positive = x > 0
    return fnp.where(positive, 1.0 / fnp.sqrt(fnp.where(positive, x, 1.0)), 0.0)


@optimizer
def sgd(step_size):
    """Stochastic gradient descent: ``x -= step_size(i) * g``."""
    schedule = make_schedule(step_size)
    return (lambda x0: x0,
            lambda i, g, x: x - schedule(i) * g,
            lambda x: x)


@optimizer
def momentum(step_size, mass):
    """Heavy-ball momentum: ``v = mass * v + g; x -= step_size(i) * v``."""
    schedule = make_schedule(step_size)

    def update(i, g, state):
        x, velocity = state
        velocity = mass * velocity + g
        return x - schedule(i) * velocity, velocity

    return (lambda x0: (x0, fnp.zeros_like(x0)), update, _params_only)


@optimizer
def nesterov(step_size, mass):
    """Nesterov momentum: ``v = mass * v + g; x -= step_size(i) * (mass * v + g)``."""
    schedule = make_schedule(step_size)

    def update(i, g, state):
        x, velocity = state
        velocity = mass * velocity + g
        return x - schedule(i) * (mass * velocity + g), velocity

    return (lambda x0: (x0, fnp.zeros_like(x0)), update, _params_only)


@optimizer
def adagrad(step_size, momentum=0.9):
    """Adagrad (Duchi et al., 2011) with momentum on the scaled gradient."""
    schedule = make_schedule(step_size)

    def update(i, g, state):
        x, sum_sq, m = state
        sum_sq = sum_sq + fnp.square(g)
        m = (1.0 - momentum) * (g * _safe_inverse_sqrt(sum_sq)) + momentum * m
        return x - schedule(i) * m, sum_sq, m

    return (lambda x0: (x0, fnp.zeros_like(x0), fnp.zeros_like(x0)), update, _params_only)


@optimizer
def rmsprop(step_size, gamma=0.9, eps=1e-8):
    """RMSProp: divide the gradient by a running root mean square of past gradients."""
    schedule = make_schedule(step_size)

    def update(i, g, state):
        x, mean_sq = state
        mean_sq = mean_sq * gamma + fnp.square(g) * (1.0 - gamma)
        return x - schedule(i) * g / fnp.sqrt(mean_sq + eps), mean_sq

    return (lambda x0: (x0, fnp.zeros_like(x0)), update, _params_only)


@optimizer
def rmsprop_momentum(step_size, gamma=0.9, eps=1e-8, momentum=0.9):
    """RMSProp whose scaled steps are accumulated with momentum."""
    schedule = make_schedule(step_size)

    def update(i, g, state):
        x, mean_sq, velocity = state
        mean_sq = mean_sq * gamma + fnp.square(g) * (1.0 - gamma)
        velocity = momentum * velocity + schedule(i) * g / fnp.sqrt(mean_sq + eps)
        return x - velocity, mean_sq, velocity

    return (lambda x0: (x0, fnp.zeros_like(x0), fnp.zeros_like(x0)), update, _params_only)


def _bias_correction(beta, step, like):
    """``1 - beta ** (step + 1)`` in the dtype of ``like``, so float32 state stays float32."""
    return 1 - fnp.asarray(beta, fnp.result_type(like)) ** (step + 1)


@optimizer
def adam(step_size, b1=0.9, b2=0.999, eps=1e-8):
    """Adam (Kingma and Ba, 2015): bias-corrected running moments of g and g**2."""
    schedule = make_schedule(step_size)

    def update(i, g, state):
        x, m, v = state
        m = (1 - b1) * g + b1 * m
        v = (1 - b2) * fnp.square(g) + b2 * v
        m_hat = m / _bias_correction(b1, i, m)
        v_hat = v / _bias_correction(b2, i, m)
        return x - schedule(i) * m_hat / (fnp.sqrt(v_hat) + eps), m, v

    return (lambda x0: (x0, fnp.zeros_like(x0), fnp.zeros_like(x0)), update, _params_only)


@optimizer
def adamax(step_size, b1=0.9, b2=0.999, eps=1e-8):
    """AdaMax: Adam with the second moment replaced by a decaying infinity norm."""
    schedule = make_schedule(step_size)

    def update(i, g, state):
        x, m, u = state
        m = (1 - b1) * g + b1 * m
        u = fnp.maximum(b2 * u, fnp.abs(g))
        return x - (schedule(i) / _bias_correction(b1, i, m)) * m / (u + eps), m, u

    return (lambda x0: (x0, fnp.zeros_like(x0), fnp.zeros_like(x0)), update, _params_only)


@optimizer
def sm3(step_size, momentum=0.9):
    """SM3 (Anil et al., 2019): Adagrad whose accumulator is stored as one vector per axis
    (the maxima over the other axes), with momentum."""
    schedule = make_schedule(step_size)

    def init(x0):
        shape = fnp.shape(x0)
        x = fnp.atleast_1d(x0)
        per_axis = [fnp.zeros(n, fnp.result_type(x)) for n in fnp.shape(x)]
        return x, fnp.zeros_like(x), per_axis, shape

    def update(i, g, state):
        x, m, per_axis, shape = state
        g = fnp.reshape(g, fnp.shape(x))
        ndim = len(per_axis)
        along = [fnp.reshape(v, [-1 if axis == j else 1 for axis in range(ndim)])
                 for j, v in enumerate(per_axis)]
        accumulator = functools.reduce(fnp.minimum, along) + fnp.square(g)
        m = (1.0 - momentum) * (g * _safe_inverse_sqrt(accumulator)) + momentum * m
        per_axis = [fnp.max(accumulator, axis=tuple(a for a in range(ndim) if a != j))
                    for j in range(ndim)]
        return x - schedule(i) * m, m, per_axis, shape

    def get_params(state):
        x, _, _, shape = state
        return fnp.reshape(x, shape)

    return init, update, get_params
