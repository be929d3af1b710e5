"""Bernoulli(probs=... or logits=...)."""
import functools
import numbers

from .._grad_mode import no_grad
from .._random import bernoulli
from .._tensor import Size
from . import constraints
from ._logits import binary_cross_entropy_with_logits, logits_to_probs, probs_to_logits
from .distribution import Distribution, broadcast_all


class Bernoulli(Distribution):
    """1 with probability `probs` (or sigmoid(`logits`)), else 0."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.boolean

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        given = probs if probs is not None else logits
        (value,) = broadcast_all(given)
        vars(self)["probs" if probs is not None else "logits"] = value
        self._param = value
        super().__init__(Size() if isinstance(given, numbers.Number) else value.size(),
                         validate_args=validate_args)

    @functools.cached_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=True)

    @functools.cached_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    mean = property(lambda self: self.probs)
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
