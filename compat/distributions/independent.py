"""Independent(base_distribution, reinterpreted_batch_ndims): batch dimensions of a
distribution read as event dimensions (a diagonal Normal over vectors)."""
from . import constraints
from .distribution import Distribution


def sum_rightmost(value, count):
    """`value` summed over its `count` rightmost dimensions."""
    if count == 0:
        return value
    return value.reshape(value.shape[:-count] + (-1,)).sum(-1)


class Independent(Distribution):
    """`base_distribution` with its `reinterpreted_batch_ndims` rightmost batch dimensions
    made part of each event: log_prob and entropy sum over them."""

    arg_constraints = {}

    def __init__(self, base_distribution, reinterpreted_batch_ndims, validate_args=None):
        batch_ndims = len(base_distribution.batch_shape)
        if reinterpreted_batch_ndims > batch_ndims:
            raise ValueError(f"Expected reinterpreted_batch_ndims <= "
                             f"len(base_distribution.batch_shape), actual "
                             f"{reinterpreted_batch_ndims} vs {batch_ndims}")
        shape = base_distribution.batch_shape + base_distribution.event_shape
        event_ndims = reinterpreted_batch_ndims + len(base_distribution.event_shape)
        self.base_dist = base_distribution
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims
        super().__init__(shape[:len(shape) - event_ndims], shape[len(shape) - event_ndims:],
                         validate_args=validate_args)

    has_rsample = property(lambda self: self.base_dist.has_rsample)
    mean = property(lambda self: self.base_dist.mean)
    mode = property(lambda self: self.base_dist.mode)
    variance = property(lambda self: self.base_dist.variance)

    @property
    def support(self):
        support = self.base_dist.support
        if self.reinterpreted_batch_ndims:
            support = constraints.independent(support, self.reinterpreted_batch_ndims)
        return support

    def sample(self, sample_shape=()):
        return self.base_dist.sample(sample_shape)

    def rsample(self, sample_shape=()):
        return self.base_dist.rsample(sample_shape)

    def log_prob(self, value):
        return sum_rightmost(self.base_dist.log_prob(value), self.reinterpreted_batch_ndims)

    def entropy(self):
        return sum_rightmost(self.base_dist.entropy(), self.reinterpreted_batch_ndims)

    def __repr__(self):
        return f"{type(self).__name__}({self.base_dist}, {self.reinterpreted_batch_ndims})"


__all__ = ["Independent"]
