"""UninitializedTensorMixin: what makes a lazy module's parameter or buffer, before its
first forward gives it a shape, refuse every use but those that need no values (its dtype,
device, requires_grad, size(), a dtype conversion, materialize()), with PyTorch's errors.

Tensor methods and operators are refused by name; a compat function given one meets its
storage, an empty array that NumPy refuses to compute with (so it raises rather than
computing on nothing)."""
import numpy as np

from .._factories import empty
from .._tensor import Tensor

# The Tensor methods PyTorch still lets an uninitialized tensor call.
_ALLOWED_METHODS = frozenset({"size", "copy_", "is_complex", "is_floating_point", "half",
                              "float", "double", "char", "short", "int", "long", "cuda", "cpu",
                              "to", "get_device"})

# How PyTorch's error names the function an operator reaches: a TensorBase method by this
# name, by the operator's own name, a slot wrapper, or a Python function (with its address).
_OPERATORS_BY_METHOD = {
    "__abs__": "abs", "__add__": "add", "__radd__": "add", "__sub__": "sub", "__mul__": "mul",
    "__rmul__": "mul", "__truediv__": "div", "__matmul__": "matmul", "__mod__": "remainder",
    "__neg__": "neg", "__pos__": "positive", "__lt__": "lt", "__le__": "le", "__gt__": "gt",
    "__ge__": "ge", "__ne__": "ne", "__iadd__": "add_", "__isub__": "sub_", "__imul__": "mul_",
    "__itruediv__": "div_", "__rand__": "bitwise_and", "__ror__": "bitwise_or",
    "__rxor__": "bitwise_xor", "__iter__": "dim",
}
_OPERATORS_BY_OWN_NAME = ("__eq__", "__and__", "__or__", "__xor__", "__lshift__", "__rshift__",
                          "__iand__", "__ior__", "__ixor__", "__ilshift__", "__irshift__",
                          "__invert__", "__bool__", "__float__", "__int__", "__index__")
_OPERATORS_BY_SLOT = ("__getitem__", "__setitem__")
_OPERATORS_BY_FUNCTION = {
    "__contains__": "Tensor.__contains__", "__len__": "Tensor.__len__",
    "__floordiv__": "Tensor.__floordiv__", "__rfloordiv__": "Tensor.__rfloordiv__",
    "__rsub__": "Tensor.__rsub__", "__rtruediv__": "Tensor.__rdiv__",
    "__rmatmul__": "Tensor.__rmatmul__", "__rmod__": "Tensor.__rmod__",
    "__rpow__": "Tensor.__rpow__", "__rlshift__": "Tensor.__rlshift__",
    "__rrshift__": "Tensor.__rrshift__", "__format__": "Tensor.__format__",
    "__array__": "Tensor.__array__", "__pow__": "TensorBase.pow", "__ipow__": "TensorBase.pow_",
}


def _method_text(name):
    return f"<method '{name}' of 'torch._C.TensorBase' objects>"


def uninitialized_use(kind, function_text):
    """PyTorch's error for computing with an uninitialized tensor of class name `kind`."""
    return ValueError(
        f"Attempted to use an uninitialized parameter in {function_text}. This error happens "
        f"when you are using a `LazyModule` or explicitly manipulating "
        f"`torch.nn.parameter.{kind}` objects. When using LazyModules Call `forward` with a "
        f"dummy batch to initialize the parameters before calling torch functions")


class Unmaterialized(np.ndarray):
    """The empty storage of an uninitialized tensor of class name `kind`: any NumPy
    computation with it raises PyTorch's error, naming the NumPy function."""

    kind = None

    def __array_finalize__(self, source):
        self.kind = getattr(source, "kind", None)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        raise uninitialized_use(self.kind, repr(ufunc))

    def __array_function__(self, function, types, args, kwargs):
        raise uninitialized_use(self.kind, f"<function {function.__name__}>")


def unmaterialized_storage(tensor, kind):
    """`tensor`'s (empty) storage as an Unmaterialized array of `kind`."""
    storage = tensor._data.view(Unmaterialized)
    storage.kind = kind
    return storage


class UninitializedTensorMixin:
    """What UninitializedParameter and UninitializedBuffer share: no shape until
    `materialize(shape)` turns the tensor, in place, into a `cls_to_become` of that shape."""

    __slots__ = ()
    cls_to_become = None

    def materialize(self, shape, device=None, dtype=None):
        """Give the tensor an (uninitialized) storage of `shape`, in its dtype unless
        `dtype` is given, and make it a `cls_to_become`."""
        blank = empty(shape, dtype=self.dtype if dtype is None else dtype, device=device)
        object.__setattr__(self, "__class__", self.cls_to_become)
        self.data = blank

    @property
    def shape(self):
        raise RuntimeError(
            "Can't access the shape of an uninitialized parameter or buffer. This error "
            "usually happens in `load_state_dict` when trying to load an uninitialized "
            "parameter into an initialized one. Call `forward` to initialize the parameters "
            "before accessing their attributes.")

    def share_memory_(self):
        raise RuntimeError(
            "Can't share memory on an uninitialized parameter or buffer. Call `forward` to "
            "initialize the parameters before calling `module.share_memory()`.")

    def __repr__(self):
        return f"<{type(self).__name__}>"

    __str__ = __repr__

    def __reduce_ex__(self, protocol):
        return (type(self), (self.requires_grad,))

    def __getattribute__(self, name):
        if (name not in _ALLOWED_METHODS and not name.startswith("_")
                and name not in vars(UninitializedTensorMixin)  # (its own refusals)
                and callable(vars(Tensor).get(name))):
            return _refusing(self, _method_text(name))
        return object.__getattribute__(self, name)


def _refusing(tensor, function_text):
    def refuse(*args, **kwargs):
        raise uninitialized_use(type(tensor).__name__, function_text)
    return refuse


def _refusing_operator(function_text):
    """An operator that refuses; `{address}` in the text stands for its own address."""
    def refuse(self, *args):
        raise uninitialized_use(type(self).__name__,
                                function_text.format(address=f"0x{id(refuse):x}"))
    return refuse


def _install_operators():
    texts = {name: _method_text(method) for name, method in _OPERATORS_BY_METHOD.items()}
    texts.update((name, _method_text(name)) for name in _OPERATORS_BY_OWN_NAME)
    texts.update((name, f"<slot wrapper '{name}' of 'torch._C.TensorBase' objects>")
                 for name in _OPERATORS_BY_SLOT)
    texts.update((name, f"<function {qualified} at {{address}}>")
                 for name, qualified in _OPERATORS_BY_FUNCTION.items())
    for name, text in texts.items():
        setattr(UninitializedTensorMixin, name, _refusing_operator(text))
    UninitializedTensorMixin.__hash__ = object.__hash__


_install_operators()
