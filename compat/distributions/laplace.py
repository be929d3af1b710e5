"""Laplace(loc, scale)."""

from .._info import finfo
from .._tensor import Size
from .distribution import LocationScale


class Laplace(LocationScale):
    """The Laplace (double exponential) distribution centred at `loc` with scale `scale`."""

    mean = mode = property(lambda self: self.loc)
    variance = property(lambda self: 2 * self.scale.pow(2))
    stddev = property(lambda self: (2 ** 0.5) * self.scale)

    def rsample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        # PyTorch draws u in [eps - 1, 1), so that log1p(-|u|) stays finite
        u = self.loc.new(shape).uniform_(finfo(self.loc.dtype).eps - 1, 1)
        return self.loc - self.scale * u.sign() * (-u.abs()).log1p()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return -(2 * self.scale).log() - (value - self.loc).abs() / self.scale

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        centred = value - self.loc
        return 0.5 - 0.5 * centred.sign() * (-centred.abs() / self.scale).expm1()

    def icdf(self, value):
        term = value - 0.5
        return self.loc - self.scale * term.sign() * (-2 * term.abs()).log1p()

    def entropy(self):
        return 1 + (2 * self.scale).log()


__all__ = ["Laplace"]
