"""LogNormal(loc, scale): exp(X) for X ~ Normal(loc, scale), as PyTorch's
TransformedDistribution of a Normal by exp."""
from . import constraints
from .distribution import OfBase
from .normal import Normal


class LogNormal(OfBase):
    """The distribution whose logarithm is Normal(`loc`, `scale`)."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.base_dist = Normal(loc, scale, validate_args=validate_args)
        super().__init__(self.base_dist.batch_shape, validate_args=validate_args)

    loc = property(lambda self: self.base_dist.loc)
    scale = property(lambda self: self.base_dist.scale)
    mean = property(lambda self: (self.loc + self.scale.pow(2) / 2).exp())
    mode = property(lambda self: (self.loc - self.scale.square()).exp())

    @property
    def variance(self):
        scale_sq = self.scale.pow(2)
        return scale_sq.expm1() * (2 * self.loc + scale_sq).exp()

    @staticmethod
    def _from_base(x):
        return x.exp()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        x = value.log()
        # log |dx/dy| = -x, added first as PyTorch's TransformedDistribution does
        return (0.0 - x) + self.base_dist.log_prob(x)

    def cdf(self, value):
        value = value.log()
        if self._validate_args:
            self.base_dist._validate_sample(value)
        return self.base_dist.cdf(value)

    def icdf(self, value):
        return self.base_dist.icdf(value).exp()

    def entropy(self):
        return self.base_dist.entropy() + self.loc


__all__ = ["LogNormal"]
