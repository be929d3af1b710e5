"""nn.Parameter (a tensor that a Module registers as one of its parameters), nn.Buffer (one
it registers as a buffer) and their uninitialized forms, which lazy modules hold until their
first forward gives them shapes."""
from .. import _dtypes
from .._factories import empty
from .._tensor import Tensor, make
from ._uninitialized import UninitializedTensorMixin, unmaterialized_storage


def _sharing(cls, data):
    """A new `cls` leaf over `data`'s storage (and version counter), without history."""
    t = object.__new__(cls)
    t._data = data._data
    t._box = None
    t._version_counter = data._version_counter
    t._grad = None
    t._base = None
    t._views = None
    t._retains_grad = False
    return t


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
        p = _sharing(cls, data)
        if requires_grad:
            Tensor.requires_grad_(p, True)
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


class Buffer(Tensor):
    """A tensor that assigning to a Module attribute registers as a buffer, persistent
    (saved in the state_dict) or not. It shares `data`'s storage, detached; PyTorch's is
    a plain Tensor marked as a buffer, compat's this subclass of Tensor."""

    __slots__ = ("persistent",)

    def __new__(cls, data=None, *, persistent=True):
        if data is None:
            data = empty(0)
        buffer = _sharing(cls, data.detach())
        if data.requires_grad:
            Tensor.requires_grad_(buffer, True)
        buffer.persistent = persistent
        return buffer


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A parameter without a shape yet (a lazy module's, until its first forward): it
    refuses to compute until `materialize(shape)` makes it a Parameter of that shape."""

    __slots__ = ()
    cls_to_become = Parameter

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        blank = empty(0, dtype=dtype, device=device)
        return Parameter.__new__(cls, make(unmaterialized_storage(blank, cls.__name__)),
                                 requires_grad)

    def __deepcopy__(self, memo):
        copy = memo.get(id(self))
        if copy is None:
            copy = memo[id(self)] = type(self)(self.requires_grad, dtype=self.dtype)
        return copy


class UninitializedBuffer(UninitializedTensorMixin, Buffer):
    """A buffer without a shape yet: it refuses to compute until `materialize(shape)`
    makes it a (Buffer) tensor of that shape."""

    __slots__ = ()
    cls_to_become = Buffer

    def __new__(cls, requires_grad=False, device=None, dtype=None, persistent=True):
        blank = empty(0, dtype=dtype, device=device)
        buffer = Buffer.__new__(cls, make(unmaterialized_storage(blank, cls.__name__)),
                                persistent=persistent)
        if requires_grad:
            Tensor.requires_grad_(buffer, True)
        return buffer

    def __deepcopy__(self, memo):
        copy = memo.get(id(self))
        if copy is None:
            copy = memo[id(self)] = type(self)(self.requires_grad, dtype=self.dtype,
                                               persistent=self.persistent)
        return copy


def is_lazy(tensor):
    """Whether `tensor` is an UninitializedParameter or UninitializedBuffer."""
    return isinstance(tensor, UninitializedTensorMixin)
