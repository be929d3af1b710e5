"""The constraints a distribution's parameters and values satisfy, printed as PyTorch prints
them (their names appear in its error messages)."""
import numpy as np

from .._dtypes import bool as bool_
from .._factories import tensor
from .._ops import abs as _abs


class Constraint:
    """A set of valid values: `check(value)` is a bool tensor, True where `value` is in it."""

    is_discrete = False
    event_dim = 0

    def check(self, value):
        raise NotImplementedError

    def __repr__(self):
        return type(self).__name__.lstrip("_") + "()"


class _Real(Constraint):
    def check(self, value):
        return value == value  # False for NaN


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value):
        return (value == 0) | (value == 1)


class _GreaterThan(Constraint):
    def __init__(self, lower_bound):
        self.lower_bound = lower_bound

    def check(self, value):
        return self.lower_bound < value

    def __repr__(self):
        return f"GreaterThan(lower_bound={self.lower_bound})"


class _GreaterThanEq(_GreaterThan):
    def check(self, value):
        return self.lower_bound <= value

    def __repr__(self):
        return f"GreaterThanEq(lower_bound={self.lower_bound})"


class _IntegerGreaterThan(_GreaterThan):
    is_discrete = True

    def check(self, value):
        return (value % 1 == 0) & (value >= self.lower_bound)

    def __repr__(self):
        return f"IntegerGreaterThan(lower_bound={self.lower_bound})"


class _LessThan(Constraint):
    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, value):
        return value < self.upper_bound

    def __repr__(self):
        return f"LessThan(upper_bound={self.upper_bound})"


class _Interval(Constraint):
    def __init__(self, lower_bound, upper_bound):
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def check(self, value):
        return (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self):
        return f"Interval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _HalfOpenInterval(_Interval):
    def check(self, value):
        return (self.lower_bound <= value) & (value < self.upper_bound)

    def __repr__(self):
        return (f"HalfOpenInterval(lower_bound={self.lower_bound}, "
                f"upper_bound={self.upper_bound})")


class _IntegerInterval(_Interval):
    is_discrete = True

    def check(self, value):
        return (value % 1 == 0) & super().check(value)

    def __repr__(self):
        return (f"IntegerInterval(lower_bound={self.lower_bound}, "
                f"upper_bound={self.upper_bound})")


class _Simplex(Constraint):
    event_dim = 1

    def check(self, value):
        return (value >= 0).all(-1) & (_abs(value.sum(-1) - 1) < 1e-6)


class _Independent(Constraint):
    """`base` checked per event of its own and `ndims` more rightmost dimensions."""

    def __init__(self, base, ndims):
        self.base, self.ndims = base, ndims
        self.event_dim = base.event_dim + ndims

    def check(self, value):
        valid = self.base.check(value)
        return valid.reshape(valid.shape[:valid.dim() - self.ndims] + (-1,)).all(-1)

    def __repr__(self):
        return f"IndependentConstraint({self.base!r}, {self.ndims})"


class _LowerCholesky(Constraint):
    """Lower-triangular square matrices with a positive diagonal."""

    event_dim = 2

    def check(self, value):
        lower = (value.tril() == value).reshape(value.shape[:-2] + (-1,)).all(-1)
        return lower & (value.diagonal(dim1=-2, dim2=-1) > 0).all(-1)


class _PositiveDefinite(Constraint):
    """Symmetric matrices with a Cholesky factor (PyTorch's test of definiteness)."""

    event_dim = 2

    def check(self, value):
        matrices = value.detach().numpy().reshape((-1,) + tuple(value.shape[-2:]))
        valid = [_has_cholesky_factor(m) for m in matrices]
        return tensor(valid, dtype=bool_).reshape(value.shape[:-2])


def _has_cholesky_factor(matrix):
    if not np.allclose(matrix, matrix.T, rtol=0.0, atol=1e-6):
        return False
    try:
        np.linalg.cholesky(matrix)
    except np.linalg.LinAlgError:
        return False
    return True


real = _Real()
real_vector = _Independent(real, 1)
independent = _Independent
lower_cholesky = _LowerCholesky()
positive_definite = _PositiveDefinite()
boolean = _Boolean()
positive = _GreaterThan(0.0)
nonnegative = _GreaterThanEq(0.0)
nonnegative_integer = _IntegerGreaterThan(0)
unit_interval = _Interval(0.0, 1.0)
simplex = _Simplex()
interval = _Interval
half_open_interval = _HalfOpenInterval
integer_interval = _IntegerInterval
greater_than = _GreaterThan
greater_than_eq = _GreaterThanEq
less_than = _LessThan

__all__ = ["Constraint", "real", "real_vector", "boolean", "positive", "nonnegative",
           "nonnegative_integer", "unit_interval", "simplex", "interval", "half_open_interval",
           "integer_interval", "greater_than", "greater_than_eq", "less_than", "independent",
           "lower_cholesky", "positive_definite"]
