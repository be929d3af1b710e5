"""Converting a traced value to a Python value (issue 21): float and complex conversions
would drop a derivative that exists, so transforms that differentiate refuse them;
conversions whose result is piecewise constant (bool, int, index, round, comparisons) keep
working, since the derivative through them really is zero."""
import cmath
import math
import operator

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.core import ConversionError

DROPPING = {
    "math.sin": lambda x: math.sin(x),
    "math.exp times x": lambda x: math.exp(x) * x,
    "float(x) times x": lambda x: float(x) * x,
    "complex(x)": lambda x: complex(x).real * x,
    "cmath.exp": lambda x: cmath.exp(x).real * x,
    "item()": lambda x: x.item() * x,
    "tolist()": lambda x: fnp.reshape(x, (1,)).tolist()[0] * x,
}
TRANSFORMS = {
    "grad": lambda f: fg.grad(f)(1.0),
    "value_and_grad": lambda f: fg.value_and_grad(f)(1.0),
    "vjp": lambda f: fg.vjp(f, 1.0),
    "jvp": lambda f: fg.jvp(f, (1.0,), (1.0,)),
    "hessian": lambda f: fg.hessian(f)(1.0),
}


@pytest.mark.parametrize("transform", TRANSFORMS)
@pytest.mark.parametrize("name", DROPPING)
def test_conversions_that_drop_the_derivative_raise(name, transform):
    with pytest.raises(ConversionError) as info:
        TRANSFORMS[transform](DROPPING[name])
    message = str(info.value)
    assert "would drop its derivative" in message
    assert "funcgrad.numpy" in message and "stop_gradient" in message


def test_the_issues_examples_were_silently_wrong_and_now_raise():
    # grad(math.sin) returned 0, grad(math.exp(x) * x) 2.718, grad(float(x) * x) 1.
    for f in (lambda x: math.sin(x), lambda x: math.exp(x) * x, lambda x: float(x) * x):
        with pytest.raises(TypeError, match=r"float\(\) of a value traced by"):
            fg.grad(f)(1.0)
    # What the message says to do gives the derivative.
    assert fg.grad(lambda x: fnp.sin(x))(1.0) == pytest.approx(math.cos(1.0))
    assert fg.grad(lambda x: fg.stop_gradient(x) * x)(1.0) == 1.0


PIECEWISE_CONSTANT = {
    "if x > 0": lambda x: x * 2.0 if x > 0 else x,
    "bool(x)": lambda x: x * 3.0 if bool(x) else x,
    "int(x) as a loop count": lambda x: sum(x for _ in range(int(x) + 1)),
    "operator.index of an integer result": lambda x: x * operator.index(fnp.argmax(
        fnp.stack([x, 2.0 * x]))),
    "round(x)": lambda x: x * round(x),
    "comparison": lambda x: x * (x < 2.0),
}


@pytest.mark.parametrize("name", PIECEWISE_CONSTANT)
def test_piecewise_constant_conversions_work(name):
    f, x, step = PIECEWISE_CONSTANT[name], 1.3, 1e-6  # (away from the steps)
    numeric = (f(x + step) - f(x - step)) / (2 * step)
    assert fg.grad(f)(x) == pytest.approx(float(numeric), rel=1e-6)


def test_conversions_of_untraced_and_integer_values_are_unchanged():
    assert fg.grad(lambda x: x * float(np.float64(2.0)))(1.0) == 2.0
    x = np.array([3.0, 1.0, 2.0])
    assert fg.grad(lambda x: fnp.sum(x) * int(fnp.argmax(x)))(x).tolist() == [0.0, 0.0, 0.0]
    # .item() and .tolist() of an integer array (never traced) are plain Python values.
    assert fg.grad(lambda x: x * fnp.argmax(fnp.stack([x, x + 1])).item())(1.0) == 1.0


def test_make_graph_converts_values_freely():
    # Not a derivative: converting a value there loses nothing.
    graph = fg.make_graph(lambda x: x * float(x))(2.0)
    assert graph.out == 4.0
