"""Geometric(probs=... or logits=...): the number of failures before the first success of
Bernoulli trials."""
from .._factories import zeros_like
from .._grad_mode import no_grad
from .._info import finfo
from .._tensor import Size
from . import constraints
from ._logits import binary_cross_entropy_with_logits
from .distribution import ProbsOrLogits, broadcast_all


class Geometric(ProbsOrLogits):
    """k = 0, 1, ... with probability (1 - p)^k p, for p = `probs` (or sigmoid(`logits`))."""

    support = constraints.nonnegative_integer

    def __init__(self, probs=None, logits=None, validate_args=None):
        super().__init__(probs, logits, validate_args=validate_args)
        if self._validate_args and probs is not None:
            value = self.probs
            valid = value > 0  # unit_interval admits 0, which has no geometric law
            if not bool(valid.all()):
                raise ValueError(
                    f"Expected parameter probs ({type(value).__name__} of shape "
                    f"{tuple(value.shape)}) of distribution {self!r} to be positive but "
                    f"found invalid values:\n{value.data[~valid]}")

    mean = property(lambda self: 1.0 / self.probs - 1.0)
    mode = property(lambda self: zeros_like(self.probs))
    variance = property(lambda self: (1.0 / self.probs - 1.0) / self.probs)

    def sample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        tiny = finfo(self.probs.dtype).tiny  # probs from logits, with history, as PyTorch
        with no_grad():
            u = self.probs.new(shape).uniform_(tiny, 1)
            return (u.log() / (-self.probs).log1p()).floor()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value, probs = broadcast_all(value, self.probs)
        probs = probs.clone()
        probs[(probs == 1) & (value == 0)] = 0  # k = 0 at p = 1: log P is 0, not 0 * log(0)
        return value * (-probs).log1p() + self.probs.log()

    def entropy(self):
        return binary_cross_entropy_with_logits(self.logits, self.probs) / self.probs


__all__ = ["Geometric"]
