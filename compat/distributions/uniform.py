"""Uniform(low, high)."""
import numpy as np

from .._ops import log
from .._random import rand
from .._tensor import Size
from . import constraints
from .distribution import Distribution, broadcast_parameters


class Uniform(Distribution):
    """The uniform distribution on [low, high)."""

    has_rsample = True

    def __init__(self, low, high, validate_args=None):
        (self.low, self.high), batch_shape = broadcast_parameters(low, high)
        super().__init__(batch_shape, validate_args=validate_args)

    @property
    def arg_constraints(self):
        return {"low": constraints.less_than(self.high),
                "high": constraints.greater_than(self.low)}

    @property
    def support(self):
        return constraints.interval(self.low, self.high)

    mean = property(lambda self: (self.high + self.low) / 2)
    mode = property(lambda self: self.high * float("nan"))  # (every point is a mode)
    stddev = property(lambda self: (self.high - self.low) / 12 ** 0.5)
    variance = property(lambda self: (self.high - self.low).pow(2) / 12)

    def rsample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        return self.low + rand(shape, dtype=self.low.dtype) * (self.high - self.low)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        inside = self.low.le(value).type_as(self.low) * self.high.gt(value).type_as(self.low)
        with np.errstate(divide="ignore"):  # log(0) = -inf outside the support, as intended
            return log(inside) - log(self.high - self.low)

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return ((value - self.low) / (self.high - self.low)).clamp(min=0, max=1)

    def icdf(self, value):
        return value * (self.high - self.low) + self.low

    def entropy(self):
        return log(self.high - self.low)


__all__ = ["Uniform"]
