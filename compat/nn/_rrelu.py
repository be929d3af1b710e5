"""The randomized leaky ReLU (rrelu): in training each non-positive element's slope is drawn
from the uniform distribution on [lower, upper) as PyTorch's CPU kernel draws it (one
53-bit double per such element, in the elements' order, none for the others); otherwise
every slope is their mean."""
import math

import numpy as np

import funcgrad.numpy as fnp

from .. import _dtypes
from .._inplace import inplace
from .._quiet import quiet
from .._random.continuous import standard_float64
from .._random.generator import generator_or_default
from .._record import engine, wrap
from ._activation import activation, leaky_relu_values


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False, *,
          generator=None):
    """(`generator`: torch.rrelu's, whose slopes it draws; nn.functional's has none.)"""
    if inplace:
        return _rrelu_(input, lower, upper, training, generator)
    return _rrelu(input, lower, upper, training, "RreluWithNoiseBackward0", generator)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    return _rrelu_(input, lower, upper, training, generator)


def _rrelu(input, lower, upper, training, label, generator=None):
    for name, bound in (("lower", lower), ("upper", upper)):
        if not math.isfinite(bound):
            raise RuntimeError(f"rrelu: {name} bound must be finite, got {bound}")
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    if not training:
        mean = (lower + upper) / 2
        return activation(input, "leaky_relu_cpu", lambda x: leaky_relu_values(x, mean), label)
    if input.dtype not in (_dtypes.float32, _dtypes.float64):
        raise _dtypes.not_implemented_for("rrelu_with_noise_out_cpu", input.dtype)
    slopes = _drawn_slopes(input._data, lower, upper, generator)
    return wrap(quiet().run(fnp.multiply, engine(input), slopes), label, (input,))


_rrelu_ = inplace(lambda input, lower, upper, training, generator: _rrelu(
    input, lower, upper, training, "RreluWithNoiseBackward1", generator))


def _drawn_slopes(values, lower, upper, generator):
    """Each element's slope: 1 where it is positive (or NaN), else a uniform draw from
    `generator` (None: the default one) between the bounds as the tensor's dtype holds
    them (PyTorch's kernel rounds them so)."""
    lower, upper = (float(np.asarray(bound, values.dtype)) for bound in (lower, upper))
    drawn = np.ascontiguousarray(values) <= 0
    source = generator_or_default(generator, "rrelu")
    with source.lock:
        uniforms = standard_float64(source, int(drawn.sum()))
    slopes = np.ones(values.shape, values.dtype)
    slopes[drawn] = uniforms * (upper - lower) + lower  # (two roundings, not a fused one)
    return slopes
