"""The base of compat's distributions: shapes, argument and sample validation with
PyTorch's messages, and `sample` as `rsample` without history; and the shapes that
several families share (location-scale families, a parameter given as probabilities or
logits, functions of a base distribution's draws)."""
import functools
import numbers

import numpy as np

from .. import _dtypes
from .._factories import tensor
from .._grad_mode import no_grad
from .._tensor import Size, Tensor
from .._torch_names import FUNCTIONS
from . import constraints
from ._logits import logits_to_probs, probs_to_logits

_broadcast_tensors = FUNCTIONS["broadcast_tensors"]


def broadcast_all(*values):
    """The values (tensors and numbers) as tensors of one shape; numbers take the dtype of
    the first tensor, or the default float dtype."""
    if not all(isinstance(v, (Tensor, numbers.Number)) for v in values):
        raise ValueError("Input arguments must all be instances of Number, torch.Tensor or "
                         "objects implementing __torch_function__.")
    dtype = next((v.dtype for v in values if isinstance(v, Tensor)),
                 _dtypes.get_default_dtype())
    return _broadcast_tensors(*[v if isinstance(v, Tensor) else tensor(v, dtype=dtype)
                                for v in values])


def broadcast_parameters(*values):
    """`broadcast_all` of the parameters, and the batch shape PyTorch gives them: () when
    all are Python numbers, else their broadcast shape."""
    tensors = broadcast_all(*values)
    numbers_only = all(isinstance(v, numbers.Number) for v in values)
    return tensors, Size() if numbers_only else tensors[0].size()


class Distribution:
    """A batch of probability distributions of `batch_shape`, each over events of
    `event_shape`. Subclasses set `arg_constraints` and `support` and define `rsample` or
    `sample`, `log_prob` and `entropy`."""

    has_rsample = False
    arg_constraints = {}
    _validate_default = True

    @staticmethod
    def set_default_validate_args(value):
        """Whether new distributions check their arguments (True by default)."""
        if value not in (True, False):
            raise ValueError
        Distribution._validate_default = value

    def __init__(self, batch_shape=Size(), event_shape=Size(), validate_args=None):
        self._batch_shape = Size(batch_shape)
        self._event_shape = Size(event_shape)
        self._validate_args = (Distribution._validate_default if validate_args is None
                               else validate_args)
        if self._validate_args:
            self._validate_parameters()

    def _validate_parameters(self):
        for name, constraint in self.arg_constraints.items():
            if name not in vars(self) and isinstance(getattr(type(self), name, None),
                                                     functools.cached_property):
                continue  # a parameter given the other way (probs for logits)
            value = getattr(self, name)  # may be a property, as HalfNormal's scale
            with np.errstate(invalid="ignore"):  # NaN parameters fail the check, quietly
                valid = bool(constraint.check(value).all())
            if not valid:
                raise ValueError(
                    f"Expected parameter {name} ({type(value).__name__} of shape "
                    f"{tuple(value.shape)}) of distribution {self!r} to satisfy the "
                    f"constraint {constraint!r}, but found invalid values:\n{value}")

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def event_shape(self):
        return self._event_shape

    @property
    def stddev(self):
        return self.variance.sqrt()

    @property
    def mode(self):
        raise NotImplementedError(f"{type(self)} does not implement mode")

    def cdf(self, value):
        raise NotImplementedError

    def icdf(self, value):
        raise NotImplementedError

    def perplexity(self):
        return self.entropy().exp()

    def expand(self, batch_shape, _instance=None):
        """This distribution with its batch broadcast to `batch_shape`: each parameter (and
        base distribution) expanded over the new batch dimensions, without copies."""
        batch_shape = Size(batch_shape)
        kept = len(self._batch_shape)
        new = object.__new__(type(self))
        for name, value in vars(self).items():
            if isinstance(value, Tensor):
                value = value.expand(batch_shape + value.shape[kept:])
            elif isinstance(value, Distribution):
                value = value.expand(batch_shape + value.batch_shape[kept:])
            vars(new)[name] = value
        new._batch_shape = batch_shape
        return new

    def _extended_shape(self, sample_shape=Size()):
        return Size(tuple(sample_shape) + self._batch_shape + self._event_shape)

    def sample(self, sample_shape=Size()):
        with no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=Size()):
        raise NotImplementedError(f"{type(self).__name__} has no reparameterized sampler; "
                                  f"use sample()")

    def _validate_sample(self, value):
        if not isinstance(value, Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        start = value.dim() - len(self._event_shape)
        if value.size()[start:] != self._event_shape:
            raise ValueError(f"The right-most size of value must match event_shape: "
                             f"{value.size()} vs {self._event_shape}.")
        expected = self._batch_shape + self._event_shape
        for i, j in zip(reversed(value.size()), reversed(expected)):
            if i != 1 and j != 1 and i != j:
                raise ValueError(f"Value is not broadcastable with batch_shape+event_shape: "
                                 f"{value.size()} vs {Size(expected)}.")
        if not bool(self.support.check(value).all()):
            raise ValueError(
                f"Expected value argument ({type(value).__name__} of shape "
                f"{tuple(value.shape)}) to be within the support ({self.support!r}) of the "
                f"distribution {self!r}, but found invalid values:\n{value}")

    def __repr__(self):
        shown = []
        for name in self.arg_constraints:
            if name in vars(self):
                value = vars(self)[name]
                shown.append(f"{name}: {value if value.numel() == 1 else value.size()}")
        return f"{type(self).__name__}({', '.join(shown)})"


class LocationScale(Distribution):
    """A family of real distributions with parameters `loc` and `scale` > 0 (Normal,
    Laplace, Cauchy), reparameterized."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        (self.loc, self.scale), batch_shape = broadcast_parameters(loc, scale)
        super().__init__(batch_shape, validate_args=validate_args)


class ProbsOrLogits(Distribution):
    """A family with one parameter, a probability given as `probs` or as `logits`
    (Bernoulli, Geometric), the other computed when asked."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        (value,), batch_shape = broadcast_parameters(probs if probs is not None else logits)
        vars(self)["probs" if probs is not None else "logits"] = value
        super().__init__(batch_shape, validate_args=validate_args)

    @functools.cached_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=True)

    @functools.cached_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)


class OfBase(Distribution):
    """The distribution of `_from_base` of a draw of `base_dist` (PyTorch's
    TransformedDistributions: HalfNormal, LogNormal, Gumbel): the base draws the numbers."""

    def sample(self, sample_shape=Size()):
        with no_grad():
            return self._from_base(self.base_dist.sample(sample_shape))

    def rsample(self, sample_shape=Size()):
        return self._from_base(self.base_dist.rsample(sample_shape))


__all__ = ["Distribution", "LocationScale", "ProbsOrLogits", "OfBase", "broadcast_all",
           "broadcast_parameters"]
