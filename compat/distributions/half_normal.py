"""HalfNormal(scale): |X| for X ~ Normal(0, scale), as PyTorch's TransformedDistribution of
a Normal by the absolute value."""
import math

from .._factories import zeros_like
from .._ops import where
from . import constraints
from .distribution import OfBase
from .normal import Normal


class HalfNormal(OfBase):
    """The half-normal distribution: the absolute value of Normal(0, `scale`)."""

    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, scale, validate_args=None):
        self.base_dist = Normal(0, scale, validate_args=False)
        super().__init__(self.base_dist.batch_shape, validate_args=validate_args)

    scale = property(lambda self: self.base_dist.scale)
    mean = property(lambda self: self.scale * math.sqrt(2 / math.pi))
    mode = property(lambda self: zeros_like(self.scale))
    variance = property(lambda self: self.scale.pow(2) * (1 - 2 / math.pi))

    @staticmethod
    def _from_base(x):
        return x.abs()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return where(value >= 0, self.base_dist.log_prob(value) + math.log(2), -math.inf)

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, prob):
        return self.base_dist.icdf((prob + 1) / 2)

    def entropy(self):
        return self.base_dist.entropy() - math.log(2)


__all__ = ["HalfNormal"]
