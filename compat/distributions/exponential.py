"""Exponential(rate)."""
from .._factories import zeros_like
from .._tensor import Size
from . import constraints
from .distribution import Distribution, broadcast_parameters


class Exponential(Distribution):
    """The exponential distribution with rate `rate` (mean 1 / rate)."""

    arg_constraints = {"rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, rate, validate_args=None):
        (self.rate,), batch_shape = broadcast_parameters(rate)
        super().__init__(batch_shape, validate_args=validate_args)

    mean = stddev = property(lambda self: self.rate.reciprocal())
    mode = property(lambda self: zeros_like(self.rate))
    variance = property(lambda self: self.rate.pow(-2))

    def rsample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        return self.rate.new(shape).exponential_() / self.rate

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self.rate.log() - self.rate * value

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 1 - (-self.rate * value).exp()

    def icdf(self, value):
        return -(-value).log1p() / self.rate

    def entropy(self):
        return 1.0 - self.rate.log()


__all__ = ["Exponential"]
