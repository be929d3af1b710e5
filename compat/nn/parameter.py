"""nn.Parameter: a tensor that a Module registers as one of its parameters."""
from .. import _dtypes
from .._factories import empty
from .._tensor import Tensor, make


class Parameter(Tensor):
    """A leaf tensor that requires grad (by default) and that assigning to a Module
    attribute registers in the module's parameters. It shares `data`'s storage, as
    PyTorch's does; operations on it give plain tensors."""

    __slots__ = ()

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"Parameter(): data must be a Tensor, got {type(data).__name__}")
        if requires_grad and not _dtypes.differentiable(data.dtype):
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        p = object.__new__(cls)
        p._data = data._data
        p._box = None
        p._version = data._version
        p._grad = None
        p._base = None
        p._views = None
        p._retains_grad = False
        if requires_grad:
            p.requires_grad_(True)
        return p

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__

    def __deepcopy__(self, memo):
        copy = memo.get(id(self))
        if copy is None:
            copy = type(self)(make(self._data.copy()), self.requires_grad)
            if self._grad is not None:
                copy._grad = self._grad.clone()
            memo[id(self)] = copy
        return copy

    def __reduce_ex__(self, protocol):
        return (_rebuild_parameter, (self._data.copy(), self.requires_grad))


def _rebuild_parameter(data, requires_grad):
    return Parameter(make(data), requires_grad)
