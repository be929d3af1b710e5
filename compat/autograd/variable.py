"""Variable: the pre-0.4 wrapper class, kept as a constructor of tensors."""
import warnings

from .._factories import empty
from .._tensor import Tensor, make


class _VariableMeta(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor)


class Variable(metaclass=_VariableMeta):
    """``Variable(t, requires_grad=False)`` returns a Tensor sharing t's storage (without t's
    history), as PyTorch does since Variable and Tensor merged; every tensor is an instance
    of Variable. `volatile` has no effect (use ``with compat.no_grad():``)."""

    def __new__(cls, data=None, requires_grad=False, volatile=False):
        if volatile and requires_grad:
            raise ValueError("Variable can't be volatile and require_grad at the same time!")
        if volatile:
            warnings.warn("Variable(volatile=True) has no effect since volatile was removed; "
                          "use `with compat.no_grad():` instead", DeprecationWarning,
                          stacklevel=2)
        if data is None:
            data = empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got "
                            f"{type(data).__name__}")
        alias = make(data._data, None, data._version_counter)
        if requires_grad:
            alias.requires_grad_(True)
        return alias


__all__ = ["Variable"]
