"""Gumbel(loc, scale): loc - scale * log(-log(U)) for U ~ Uniform(tiny, 1 - eps), as
PyTorch's TransformedDistribution of that Uniform."""
import math
import numbers

from .._factories import full_like
from .._info import finfo
from . import constraints
from .distribution import OfBase, broadcast_all
from .uniform import Uniform

EULER_CONSTANT = 0.57721566490153286060


class Gumbel(OfBase):
    """The Gumbel (type I extreme value) distribution with location `loc` and scale
    `scale`."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        info = finfo(self.loc.dtype)
        if isinstance(loc, numbers.Number) and isinstance(scale, numbers.Number):
            self.base_dist = Uniform(info.tiny, 1 - info.eps, validate_args=validate_args)
        else:
            self.base_dist = Uniform(full_like(self.loc, info.tiny),
                                     full_like(self.loc, 1 - info.eps),
                                     validate_args=validate_args)
        super().__init__(self.base_dist.batch_shape, validate_args=validate_args)

    mean = property(lambda self: self.loc + self.scale * EULER_CONSTANT)
    mode = property(lambda self: self.loc)
    stddev = property(lambda self: (math.pi / math.sqrt(6)) * self.scale)
    variance = property(lambda self: self.stddev.pow(2))

    def _from_base(self, u):
        return self.loc + -self.scale * (-u.log()).log()

    def _to_uniform(self, value):
        return (-((value - self.loc) / -self.scale).exp()).exp()

    def _monotonize_cdf(self, value):
        # PyTorch multiplies by the product of its transforms' signs (-1 * sign(-scale))
        sign = -(-self.scale).sign()
        return sign * (value - 0.5) + 0.5

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        y = (self.loc - value) / self.scale
        return (y - y.exp()) - self.scale.log()

    def cdf(self, value):
        value = self._to_uniform(value)
        if self._validate_args:
            self.base_dist._validate_sample(value)
        return self._monotonize_cdf(self.base_dist.cdf(value))

    def icdf(self, value):
        return self._from_base(self.base_dist.icdf(self._monotonize_cdf(value)))

    def entropy(self):
        return self.scale.log() + (1 + EULER_CONSTANT)


__all__ = ["Gumbel"]
