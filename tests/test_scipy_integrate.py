"""funcgrad.scipy.integrate.odeint: values against SciPy's odeint, gradients (adjoint
method) with respect to the initial state, the output times and the arguments against
JAX's odeint and finite differences, autograd's way of passing arguments, and errors."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.integrate
from jax.experimental.ode import odeint as jax_odeint

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.scipy.integrate import odeint
from funcgrad.test_util import check_grads

jax.config.update("jax_enable_x64", True)

TOLERANCES = {"rtol": 1e-10, "atol": 1e-10}


def field(np):
    return lambda y, t, a, b: np.tanh(np.dot(y, a)) + b * np.sin(t)


def _problem(seed, times):
    rng = np.random.default_rng(seed)
    return rng.normal(size=3), np.asarray(times), rng.normal(size=(3, 3)), rng.normal(size=3)


PROBLEMS = [_problem(0, [0.0, 0.3, 0.7, 1.2]), _problem(1, [0.5, 1.5]),
            _problem(2, [2.0, 1.0, 0.2])]    # backwards in time


@pytest.mark.parametrize("problem", PROBLEMS, ids=["forward", "two_times", "backward"])
def test_values_are_scipys(problem):
    y0, t, a, b = problem
    expected = scipy.integrate.odeint(lambda y, t: field(np)(y, t, a, b), y0, t, **TOLERANCES)
    np.testing.assert_array_equal(odeint(field(fnp), y0, t, (a, b), **TOLERANCES), expected)


# JAX's odeint integrates forward in time only (backwards it returns NaN).
@pytest.mark.parametrize("problem", PROBLEMS[:2], ids=["forward", "two_times"])
def test_gradients_match_jax(problem):
    y0, t, a, b = problem
    weights = np.random.default_rng(5).normal(size=(len(t), 3))

    def ours(y0, t, a, b):
        return fnp.sum(odeint(field(fnp), y0, t, (a, b), **TOLERANCES) * weights)

    def theirs(y0, t, a, b):
        return jnp.sum(jax_odeint(field(jnp), y0, t, a, b, **TOLERANCES) * weights)

    got = fg.grad(ours, argnums=(0, 1, 2, 3))(y0, t, a, b)
    expected = jax.grad(theirs, argnums=(0, 1, 2, 3))(y0, t, a, b)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-7, atol=1e-8)


@pytest.mark.parametrize("problem", PROBLEMS, ids=["forward", "two_times", "backward"])
def test_gradients_match_finite_differences(problem):
    y0, t, a, b = problem
    check_grads(lambda y0, t, a, b: odeint(field(fnp), y0, t, (a, b), **TOLERANCES),
                (y0, t, a, b), order=1, modes=("rev",))


def test_autograd_style_arguments():
    """ode_net's call: odeint(f, y0, t, tuple((params,)), rtol=...), params a list of
    (weights, bias) pairs; a single argument not in a tuple; tfirst."""
    y0, t, a, b = PROBLEMS[0]
    params = [(a, b)]

    def net(y, t, params):
        for w, bias in params:
            y = fnp.tanh(fnp.dot(y, w) + bias)
        return y

    grads = fg.grad(lambda p: fnp.sum(odeint(net, y0, t, (p,), **TOLERANCES)))(params)
    (ga, gb), = grads
    expected = jax.grad(lambda a, b: jnp.sum(jax_odeint(
        lambda y, t, a, b: jnp.tanh(jnp.dot(y, a) + b), y0, t, a, b, **TOLERANCES)),
        argnums=(0, 1))(a, b)
    np.testing.assert_allclose(ga, expected[0], rtol=1e-7, atol=1e-8)
    np.testing.assert_allclose(gb, expected[1], rtol=1e-7, atol=1e-8)
    single = odeint(lambda y, t, a: fnp.dot(y, a), y0, t, a)
    np.testing.assert_allclose(single, odeint(lambda t, y, a: fnp.dot(y, a), y0, t, (a,),
                                              tfirst=True))


def test_closing_over_a_traced_value_is_an_error():
    y0, t, a, b = PROBLEMS[0]
    with pytest.raises(TypeError, match="closes over.*args="):
        fg.grad(lambda a: fnp.sum(odeint(lambda y, t: fnp.dot(y, a), y0, t)))(a)


def _second_derivatives(argnum):
    def loss(*values):
        return fnp.sum(odeint(field(fnp), *values[:2], values[2:]) ** 2)
    gradient = fg.grad(loss, argnums=argnum)
    return {"hessian": fg.hessian(loss, argnums=argnum),
            "grad of grad": fg.grad(lambda *v: fnp.sum(gradient(*v)), argnums=argnum),
            "jacrev of grad": fg.jacrev(gradient, argnums=argnum)}


@pytest.mark.parametrize("argnum", [0, 1, 2], ids=["y0", "t", "args"])
def test_second_derivatives_are_a_clear_error(argnum):
    """SciPy solves the system and its adjoint: no derivative of the derivative (JAX's
    and autograd's adjoint solves are their own odeint, differentiable again)."""
    for name, second in _second_derivatives(argnum).items():
        with pytest.raises(NotImplementedError, match="only first derivatives"):
            second(*PROBLEMS[0])


def test_jit_of_the_gradient_runs_the_solves_on_its_inputs():
    y0, t, a, b = PROBLEMS[0]
    loss = lambda y0: fnp.sum(odeint(field(fnp), y0, t, (a, b)) ** 2)  # noqa: E731
    np.testing.assert_allclose(fg.jit(fg.grad(loss))(y0), fg.grad(loss)(y0), rtol=1e-12)


@pytest.mark.parametrize("call, error, message", [
    (lambda: odeint(lambda y, t: y, np.ones(2), np.array([0.0, 1.0, 0.5])), ValueError,
     "monotonic"),
    (lambda: odeint(lambda y, t: y, np.ones((2, 2)), np.array([0.0, 1.0])), ValueError,
     "scalar or a vector"),
    (lambda: odeint(lambda y, t: y, np.ones(2), np.array([0.0, 1.0]), full_output=1),
     NotImplementedError, "full_output"),
    (lambda: odeint(lambda y, t: y, np.ones(2) * 1j, np.array([0.0, 1.0])), TypeError,
     "real"),
    (lambda: odeint("f", np.ones(2), np.array([0.0, 1.0])), TypeError, "callable"),
])
def test_bad_arguments_are_named(call, error, message):
    with pytest.raises(error, match=message):
        call()
