"""Normal(loc, scale)."""
import math

from .._factories import empty
from .._grad_mode import no_grad
from .._ops import log
from .._random import normal
from .._tensor import Size
from .._torch_names import FUNCTIONS
from .distribution import LocationScale

_erf, _erfinv = FUNCTIONS["erf"], FUNCTIONS["erfinv"]


class Normal(LocationScale):
    """The normal distribution with mean `loc` and standard deviation `scale`."""

    mean = mode = property(lambda self: self.loc)
    stddev = property(lambda self: self.scale)
    variance = property(lambda self: self.scale.pow(2))

    def sample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        with no_grad():
            return normal(self.loc.expand(shape), self.scale.expand(shape))

    def rsample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        eps = empty(shape, dtype=self.loc.dtype).normal_()
        return self.loc + eps * self.scale

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return (-((value - self.loc) ** 2) / (2 * self.scale ** 2) - log(self.scale)
                - math.log(math.sqrt(2 * math.pi)))

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 * (1 + _erf((value - self.loc) * self.scale.reciprocal() / math.sqrt(2)))

    def icdf(self, value):
        return self.loc + self.scale * _erfinv(2 * value - 1) * math.sqrt(2)

    def entropy(self):
        return 0.5 + 0.5 * math.log(2 * math.pi) + log(self.scale)


__all__ = ["Normal"]
