"""Bernoulli(probs=... or logits=...)."""
from .._grad_mode import no_grad
from .._random import bernoulli
from .._tensor import Size
from . import constraints
from ._logits import binary_cross_entropy_with_logits
from .distribution import ProbsOrLogits, broadcast_all


class Bernoulli(ProbsOrLogits):
    """1 with probability `probs` (or sigmoid(`logits`)), else 0."""

    support = constraints.boolean

    mean = property(lambda self: self.probs)

    @property
    def mode(self):
        """1 where probs > 1/2, 0 below, NaN at 1/2 (as PyTorch's)."""
        mode = (self.probs >= 0.5).to(self.probs.dtype)
        mode[self.probs == 0.5] = float("nan")
        return mode

    variance = property(lambda self: self.probs * (1 - self.probs))

    def sample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        with no_grad():
            return bernoulli(self.probs.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -binary_cross_entropy_with_logits(logits, value)

    def entropy(self):
        return binary_cross_entropy_with_logits(self.logits, self.probs)


__all__ = ["Bernoulli"]
