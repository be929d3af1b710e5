"""Categorical(probs=... or logits=...)."""
import functools
import math

import numpy as np

from .._factories import full
from .._info import finfo
from .._random import multinomial
from .._tensor import Size
from .._torch_names import FUNCTIONS
from . import constraints
from ._logits import logits_to_probs, probs_to_logits
from .distribution import Distribution

_broadcast_tensors, _gather = FUNCTIONS["broadcast_tensors"], FUNCTIONS["gather"]


class Categorical(Distribution):
    """Category i in 0..K-1 with probability probs[..., i] (or softmax(logits)[..., i]);
    the last dimension of the parameter indexes the categories."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            with np.errstate(divide="ignore", invalid="ignore"):  # validation reports it
                self.probs = probs / probs.sum(-1, keepdim=True)
            self._param = self.probs
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
            self._param = self.logits
        self._num_events = self._param.size()[-1]
        batch = self._param.size()[:-1] if self._param.dim() > 1 else Size()
        super().__init__(batch, validate_args=validate_args)

    @functools.cached_property
    def probs(self):
        return logits_to_probs(self.logits)

    @functools.cached_property
    def logits(self):
        return probs_to_logits(self.probs)

    @property
    def support(self):
        return constraints.integer_interval(0, self._num_events - 1)

    @property
    def mean(self):
        return full(self._extended_shape(), math.nan, dtype=self.probs.dtype)

    variance = mean

    @property
    def mode(self):
        return self.probs.argmax(dim=-1)

    def sample(self, sample_shape=Size()):
        sample_shape = Size(sample_shape)
        rows = self.probs.reshape(-1, self._num_events)
        drawn = multinomial(rows, sample_shape.numel(), True).T
        return drawn.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value, log_pmf = _broadcast_tensors(value.long().unsqueeze(-1), self.logits)
        return _gather(log_pmf, -1, value[..., :1]).squeeze(-1)

    def entropy(self):
        logits = self.logits.clamp(min=finfo(self.logits.dtype).min)
        return -(logits * self.probs).sum(-1)


__all__ = ["Categorical"]
