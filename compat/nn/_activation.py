"""The activations' common recording (one node under PyTorch's name, PyTorch's refusal of
integer inputs), leaky ReLU's values (shared with RReLU's mean slope) and log-sigmoid,
which the activations and the logistic losses share."""
import numpy as np

import funcgrad.numpy as fnp
from funcgrad.core import unbox_all

from .. import _dtypes
from .._quiet import quiet
from .._record import engine, wrap


def activation(input, kernel, compute, label, complex_too=False):
    """`compute`(input's value) recorded as PyTorch's node `label`, which saves the input
    (updating it in place before backward is an error, as in PyTorch); integer inputs are
    refused as PyTorch's CPU `kernel` refuses them, and complex ones unless `complex_too`
    (a kernel PyTorch has for complex numbers: silu's)."""
    if not (input.dtype.is_floating_point or complex_too and input.dtype.is_complex):
        raise _dtypes.not_implemented_for(kernel, input.dtype)
    return wrap(quiet().run(compute, engine(input)), label, (input,), saves_inputs=True)


def leaky_relu_values(x, negative_slope):
    """x where it is positive, else negative_slope * x."""
    slope = np.asarray(negative_slope, unbox_all(x).dtype)
    # The comparison is made on the plain values: the slope's side gets negative_slope as
    # its derivative at 0 and at NaN, as PyTorch's kernel gives.
    return fnp.where(unbox_all(x) > 0, x, fnp.multiply(x, slope))


def logsigmoid(input):
    """log(sigmoid(input)), computed without overflow."""
    return activation(input, "log_sigmoid_cpu", log_sigmoid_values, "LogSigmoidBackward0")


def log_sigmoid_values(x):
    """log(sigmoid(x)), finite everywhere: each branch sees only the inputs it is used for,
    so neither overflows (nor sends a NaN into the other's derivative)."""
    positive = unbox_all(x) >= 0
    zero = np.zeros((), np.result_type(unbox_all(x)))
    above = fnp.where(positive, x, zero)
    below = fnp.where(positive, zero, x)
    return fnp.where(positive, fnp.negative(fnp.log1p(fnp.exp(fnp.negative(above)))),
                     fnp.subtract(below, fnp.log1p(fnp.exp(below))))
