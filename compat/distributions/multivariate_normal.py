"""MultivariateNormal(loc, covariance_matrix | precision_matrix | scale_tril): computed
from the lower Cholesky factor of the covariance, as PyTorch computes it."""
import functools
import math

from .._factories import empty, eye
from .._ops import broadcast_shapes, log, matmul
from .._torch_names import FUNCTIONS
from . import constraints
from .distribution import Distribution

_cholesky = FUNCTIONS["linalg.cholesky"]
_solve_triangular = FUNCTIONS["linalg.solve_triangular"]
_cholesky_inverse, _flip = FUNCTIONS["cholesky_inverse"], FUNCTIONS["flip"]


def _precision_to_scale_tril(precision):
    """The lower Cholesky factor of the inverse of `precision`, without inverting it: the
    flipped matrix's factor, flipped and transposed, is an upper factor of `precision`
    whose triangular inverse is the covariance's lower factor."""
    flipped_factor = _cholesky(_flip(precision, (-2, -1)))
    inverse_factor = _flip(flipped_factor, (-2, -1)).transpose(-2, -1)
    identity = eye(precision.shape[-1], dtype=precision.dtype)
    return _solve_triangular(inverse_factor, identity, upper=False)


def mahalanobis(factor, x):
    """x^T (L L^T)^-1 x for the lower factors L in `factor` and vectors x, whose batch
    shape `factor`'s broadcasts to: |L^-1 x|^2."""
    n = x.shape[-1]
    factor = factor.expand(x.shape[:-1] + (n, n))
    solved = _solve_triangular(factor, x.unsqueeze(-1), upper=False)
    return solved.squeeze(-1).pow(2).sum(-1)


def half_log_det(factor):
    """log det(L L^T) / 2 for lower factors L: the sum of the logs of their diagonals."""
    return log(factor.diagonal(dim1=-2, dim2=-1)).sum(-1)


class MultivariateNormal(Distribution):
    """The normal distribution over vectors with mean `loc` and a covariance given as
    itself, its inverse (`precision_matrix`) or its lower Cholesky factor (`scale_tril`),
    exactly one of them."""

    arg_constraints = {"loc": constraints.real_vector,
                       "covariance_matrix": constraints.positive_definite,
                       "precision_matrix": constraints.positive_definite,
                       "scale_tril": constraints.lower_cholesky}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None,
                 validate_args=None):
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        given = {name: matrix for name, matrix in (
            ("covariance_matrix", covariance_matrix), ("precision_matrix", precision_matrix),
            ("scale_tril", scale_tril)) if matrix is not None}
        if len(given) != 1:
            raise ValueError("Exactly one of covariance_matrix or precision_matrix or "
                             "scale_tril may be specified.")
        ((name, matrix),) = given.items()
        if matrix.dim() < 2:
            what = "scale_tril matrix" if name == "scale_tril" else name
            raise ValueError(f"{what} must be at least two-dimensional, with optional leading "
                             f"batch dimensions")
        batch_shape = broadcast_shapes(matrix.shape[:-2], loc.shape[:-1])
        self.__dict__[name] = matrix.expand(batch_shape + (-1, -1))
        self.loc = loc.expand(batch_shape + (-1,))
        super().__init__(batch_shape, self.loc.shape[-1:], validate_args=validate_args)
        if scale_tril is not None:
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self._unbroadcasted_scale_tril = _cholesky(covariance_matrix)
        else:
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(precision_matrix)

    def _matrix_shape(self):
        return self._batch_shape + self._event_shape + self._event_shape

    @functools.cached_property
    def scale_tril(self):
        return self._unbroadcasted_scale_tril.expand(self._matrix_shape())

    @functools.cached_property
    def covariance_matrix(self):
        factor = self._unbroadcasted_scale_tril
        return matmul(factor, factor.mT).expand(self._matrix_shape())

    @functools.cached_property
    def precision_matrix(self):
        return _cholesky_inverse(self._unbroadcasted_scale_tril).expand(self._matrix_shape())

    mean = mode = property(lambda self: self.loc)

    @property
    def variance(self):
        return (self._unbroadcasted_scale_tril.pow(2).sum(-1)
                .expand(self._batch_shape + self._event_shape))

    def rsample(self, sample_shape=()):
        eps = empty(self._extended_shape(sample_shape), dtype=self.loc.dtype).normal_()
        return self.loc + matmul(self._unbroadcasted_scale_tril, eps.unsqueeze(-1)).squeeze(-1)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        distance = mahalanobis(self._unbroadcasted_scale_tril, value - self.loc)
        return (-0.5 * (self._event_shape[0] * math.log(2 * math.pi) + distance)
                - half_log_det(self._unbroadcasted_scale_tril))

    def entropy(self):
        entropy = (0.5 * self._event_shape[0] * (1.0 + math.log(2 * math.pi))
                   + half_log_det(self._unbroadcasted_scale_tril))
        return entropy if len(self._batch_shape) == 0 else entropy.expand(self._batch_shape)


__all__ = ["MultivariateNormal", "half_log_det", "mahalanobis"]
