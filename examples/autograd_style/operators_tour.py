"""A tour of autograd's differential operators and of defining a primitive with its own
derivative rules, each result printed.

Written against funcgrad.autograd; runs unchanged on HIPS autograd once
``funcgrad.autograd`` reads ``autograd`` (tests/test_examples_autograd_style.py checks).

Run:  python examples/autograd_style/operators_tour.py
"""
import funcgrad.autograd.numpy as np
from funcgrad.autograd import (checkpoint, deriv, elementwise_grad, grad, grad_named, hessian,
                               hessian_vector_product, holomorphic_grad, jacobian, make_hvp,
                               make_vjp, value_and_grad)
from funcgrad.autograd.extend import defjvp, defvjp, primitive
from funcgrad.autograd.misc.fixed_points import fixed_point
from funcgrad.autograd.test_util import check_grads


@primitive
def softplus(x):
    """log(1 + exp(x)), computed stably; transforms see only its rules."""
    return np.logaddexp(0.0, x)


def sigmoid(x):
    return 0.5 * (np.tanh(x / 2.0) + 1.0)


defvjp(softplus, lambda ans, x: lambda g: g * sigmoid(x))
defjvp(softplus, lambda g, ans, x: g * sigmoid(x))


def show(label, value):
    print(f"{label:34s}", np.round(value, 6))


def newton_sqrt(a):
    return lambda x: 0.5 * (x + a / x)


def sqrt(a):
    return fixed_point(newton_sqrt, a, 1.0, lambda x, y: np.abs(x - y), 1e-12)


def energy(position, stiffness, damping=0.1):
    return np.sum(stiffness * position ** 2) + damping * np.sum(np.sin(position))


if __name__ == "__main__":
    x = np.array([-1.5, 0.0, 0.5, 2.0])

    show("elementwise_grad(tanh)", elementwise_grad(np.tanh)(x))
    show("second derivative of tanh", elementwise_grad(elementwise_grad(np.tanh))(x))
    show("deriv(sin) at 0.3", deriv(np.sin)(0.3))
    show("grad(softplus) = sigmoid", elementwise_grad(softplus)(x))
    show("deriv(softplus) at 0.5 (own JVP)", deriv(softplus)(0.5))
    show("hessian(softplus sum) diagonal", np.diag(hessian(lambda x: np.sum(softplus(x)))(x)))
    check_grads(lambda x: np.sum(softplus(x) * x), modes=["fwd", "rev"])(x)
    print("check_grads of softplus: ok")

    value, gradient = value_and_grad(energy, 1)(x, 3.0)
    show("energy, d energy / d stiffness", [value, gradient])
    show("grad_named(energy, 'damping')", grad_named(energy, "damping")(x, 3.0, 0.2))
    show("jacobian of outer(x, x) row 1", jacobian(lambda x: np.outer(x, x))(x)[1])
    vjp, ans = make_vjp(lambda x: np.cumsum(x ** 2))(x)
    show("make_vjp of cumsum(x**2), ones", vjp(np.ones(4)))
    hvp, g = make_hvp(energy)(x, 3.0)
    show("make_hvp: H v with v = e_0", hvp(np.array([1.0, 0.0, 0.0, 0.0])))
    show("hessian_vector_product", hessian_vector_product(energy)(x, 3.0, np.ones(4)))
    show("holomorphic_grad(z**3) at 1+1j", holomorphic_grad(lambda z: z ** 3)(1.0 + 1.0j))
    show("fixed-point sqrt(2), derivative", [sqrt(2.0), grad(sqrt)(2.0), 0.5 / np.sqrt(2.0)])
    block = checkpoint(lambda x: np.sin(np.exp(x / 4.0)))
    show("grad through checkpointed blocks", grad(lambda x: np.sum(block(block(x))))(x))
