"""The array interface of traced values: operators, properties and ndarray methods.

Every trace's boxes derive from `funcgrad.core.Box`, which knows nothing about NumPy;
`attach_array_interface` gives that class what makes a traced value behave like an
ndarray, each operation calling the funcgrad.numpy function of the same meaning.
"""
import importlib
import math
import sys

import numpy as np

from ..core import Box, dtype_of, shape_of, unbox_all


def _namespace():
    return sys.modules["funcgrad.numpy"]


def _ufunc_module(ufunc):
    """Where a ufunc is public: 'numpy', or 'scipy.special' for SciPy's special functions."""
    special = sys.modules.get("scipy.special")
    if getattr(np, ufunc.__name__, None) is not ufunc and special is not None \
            and getattr(special, ufunc.__name__, None) is ufunc:
        return "scipy.special"
    return "numpy"


def _counterpart(module, name):
    """funcgrad's function for ``module.name`` (numpy.linalg.norm -> funcgrad.numpy.linalg's
    norm), or None when there is none. funcgrad.scipy builds on this package, so it is
    imported by name here, only when a SciPy function was called on a traced value."""
    ours = "funcgrad." + module
    if ours not in sys.modules:
        try:
            importlib.import_module(ours)
        except ImportError:
            return None
    return getattr(sys.modules[ours], name, None)


def _instead(module, name, ours):
    """The end of an error message: the function to call instead, or that there is none."""
    if ours is None:
        return ("funcgrad has no differentiable version of it (docs/primitives.md lists "
                "those it has; docs/adding-a-primitive.md shows how to add one).")
    return f"call funcgrad.{module}.{name} instead (without out=)."


def _python_type(dtype):
    return {"f": float, "c": complex, "b": bool}.get(dtype.kind, int)


# (module, funcgrad's function or None) of each ufunc met on a traced value, found once:
# `ndarray @ box` and `ndarray * box` come through here.
_ufunc_counterparts = {}


# The NumPy functions being dispatched to ours, with the box that asked (see
# ArrayInterface.__array_function__).
_dispatching = set()


def _no_batched_version(name):
    return TypeError(f"funcgrad.vmap: {name} reads the values of a batched array and has no "
                     f"batching rule; compute it with other funcgrad.numpy functions, or "
                     f"outside vmap.")


class ArrayInterface:
    """The methods and properties given to `Box` (see `attach_array_interface`)."""

    # Operators of NumPy arrays and scalars defer to ours (see __array_ufunc__), so
    # `ndarray * box` is traced like `box * ndarray`.
    __array_priority__ = 100.0

    shape = property(lambda self: shape_of(self.value))
    dtype = property(lambda self: dtype_of(self.value))
    ndim = property(lambda self: len(shape_of(self.value)))
    size = property(lambda self: math.prod(shape_of(self.value)))
    itemsize = property(lambda self: dtype_of(self.value).itemsize)
    nbytes = property(lambda self: self.size * self.itemsize)
    T = property(lambda self: _namespace().transpose(self))
    mT = property(lambda self: _namespace().matrix_transpose(self))
    real = property(lambda self: _namespace().real(self))
    imag = property(lambda self: _namespace().imag(self))
    # JAX's functional updates: x.at[idx].set(v), .add(v), ...
    at = property(lambda self: _namespace().at(self))

    def __len__(self):
        shape = self.shape
        if not shape:
            raise TypeError("len() of unsized object (a traced 0-d array)")
        return shape[0]

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a traced 0-d array")
        return iter(_namespace().unstack(self))  # one node for all rows

    def __getitem__(self, index):
        return _namespace().getitem(self, index)

    def __setitem__(self, index, value):
        raise TypeError(
            "funcgrad: traced arrays are immutable, so `x[idx] = v` cannot be differentiated. "
            "Write `x = x.at[idx].set(v)` instead (JAX's functional update; also .add, "
            ".multiply, .min, .max), or `funcgrad.numpy.at(x)[idx].set(v)` for any array.")

    def __array__(self, dtype=None, copy=None):
        if isinstance(unbox_all(self), Box):  # batched (vmap): a value per element
            raise TypeError(
                "funcgrad.vmap: a batched value was converted to a NumPy array (np.asarray, "
                "a NumPy function without a funcgrad.numpy version, or indexing a NumPy array "
                "with it), which would mix up the batch's elements. Use funcgrad.numpy "
                "functions on it (for a NumPy array a, write funcgrad.numpy.take(a, i, axis=0)).")
        raise TypeError(
            "funcgrad: a traced value was converted to a NumPy array, which would lose its "
            "derivative. Use funcgrad.numpy functions on it (e.g. funcgrad.numpy.array or "
            "stack to build arrays from traced values), or stop_gradient(x) if you want the "
            "plain value.")

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        # NumPy calls this for `ndarray + box` and for `numpy.sin(box)`: run ours instead.
        found = _ufunc_counterparts.get(ufunc)
        if found is None:
            origin = _ufunc_module(ufunc)
            found = _ufunc_counterparts[ufunc] = origin, _counterpart(origin, ufunc.__name__)
        origin, ours = found
        if ours is ufunc:  # re-exported as is (integer-only, no derivative): on the values
            values = [unbox_all(x) for x in inputs]
            if any(isinstance(v, Box) for v in values):
                raise _no_batched_version(f"numpy.{ufunc.__name__}")
            return ufunc(*values, **kwargs)
        if method != "__call__":
            raise TypeError(
                f"funcgrad: {origin}.{ufunc.__name__}.{method} was called on a traced value; "
                f"ufunc methods are not differentiable: use the funcgrad.numpy function that "
                f"computes the same (sum for add.reduce, cumsum for add.accumulate, outer for "
                f"multiply.outer, x.at[i].add(v) for add.at).")
        if ours is None or "out" in kwargs:
            raise TypeError(f"funcgrad: {origin}.{ufunc.__name__} was called on a traced "
                            f"value{' with out=' if 'out' in kwargs else ''}; "
                            f"{_instead(origin, ufunc.__name__, ours)}")
        return ours(*inputs, **kwargs)

    def __array_function__(self, func, types, args, kwargs):
        ours = _counterpart(func.__module__, func.__name__)
        if ours is func:  # a NumPy function we re-export as is (it only reads shapes)
            return func._implementation(*args, **kwargs)
        if ours is None:
            raise TypeError(f"funcgrad: {func.__module__}.{func.__name__} was called on a "
                            f"traced value; {_instead(func.__module__, func.__name__, None)}")
        # Ours reads plain values and calls NumPy's again; a batched value (vmap) comes back
        # here, as it stays boxed: refuse rather than recurse.
        key = (func, id(self))
        if key in _dispatching:
            raise _no_batched_version(f"{func.__module__}.{func.__name__}")
        _dispatching.add(key)
        try:
            return ours(*args, **kwargs)
        finally:
            _dispatching.discard(key)

    def __hash__(self):
        return id(self)

    def __format__(self, spec):
        # f"{x:.3f}" formats the value; a plain f"{x}" shows the box, as str(x) does.
        return format(self.value, spec) if spec else str(self)

    # Methods whose signatures differ from the funcgrad.numpy function of the same name.
    def reshape(self, *shape, order="C", copy=None):
        shape = shape[0] if len(shape) == 1 else shape
        return _namespace().reshape(self, shape, order=order)

    def transpose(self, *axes):
        axes = axes[0] if len(axes) == 1 else (axes or None)
        return _namespace().transpose(self, axes)

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        return _namespace().astype(self, dtype)

    def flatten(self, order="C"):
        return _namespace().ravel(self, order)

    def clip(self, min=None, max=None, out=None, **kwargs):
        return _namespace().clip(self, min, max, out=out, **kwargs)

    def __round__(self, ndigits=None):
        return _namespace().round(self, ndigits or 0)

    def item(self, *args):
        """The element as a Python scalar, as NumPy gives it. A Python float carries no
        derivative, so under a transform that differentiates this raises for float and
        complex values (see `funcgrad.core.Trace.to_python`)."""
        if len(args) == 1 and not isinstance(args[0], tuple):
            element = _namespace().ravel(self)[args[0]]
        elif args:
            element = self[args[0] if len(args) == 1 else args]
        elif math.prod(self.shape) != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        else:
            element = _namespace().reshape(self, ())
        return _python_type(dtype_of(self.value))(element)

    def tolist(self):
        """Nested lists of Python scalars, as NumPy gives them (and so raising, as `item`
        does, for float values under a transform that differentiates)."""
        if not self.shape:
            return self.item()
        return [row.tolist() for row in self]

    def _in_place(self, *args, **kwargs):
        raise TypeError("funcgrad: traced arrays are immutable, so in-place methods (fill, "
                        "put, resize, itemset, partition) are not available. Build a new "
                        "array, e.g. with x.at[idx].set(v) or funcgrad.numpy.full_like.")

    fill = put = resize = itemset = partition = setfield = byteswap = _in_place


# The special methods of ArrayInterface that Box takes (the rest are the class's own).
_DUNDERS = ("__array_priority__", "__len__", "__iter__", "__getitem__", "__setitem__",
            "__array__", "__array_ufunc__", "__array_function__", "__hash__", "__format__",
            "__round__")


def _method(name, function):
    """A Box method that is ``function`` with the box as first argument."""
    def method(self, *args, **kwargs):
        return function(self, *args, **kwargs)
    method.__name__ = name
    return method


def _operator(name, function, reflected=False):
    """A binary operator; no *args/**kwargs, for operators are the hot path of user code.
    The primitive's ``__call__`` is called as a function: calling the instance would go
    through Python's slot lookup for callable objects first."""
    call = type(function).__call__
    if reflected:
        def operator(self, other):
            return call(function, other, self)
    else:
        def operator(self, other):
            return call(function, self, other)
    operator.__name__ = name
    return operator


_OPERATORS = {
    "add": "add", "sub": "subtract", "mul": "multiply", "truediv": "true_divide",
    "floordiv": "floor_divide", "mod": "remainder", "pow": "power", "matmul": "matmul",
    "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor", "lshift": "left_shift",
    "rshift": "right_shift",
}
_UNARY_AND_COMPARISONS = {
    "__neg__": "negative", "__pos__": "positive", "__abs__": "absolute", "__invert__": "invert",
    "__lt__": "less", "__le__": "less_equal", "__gt__": "greater", "__ge__": "greater_equal",
    "__eq__": "equal", "__ne__": "not_equal",
}
# ndarray methods that are the funcgrad.numpy function of the same name.
# `sort` returns a sorted copy, as in JAX (NumPy's sorts in place: traced arrays cannot).
ARRAY_METHODS = (
    "all", "any", "argmax", "argmin", "argpartition", "argsort", "conj", "conjugate", "copy",
    "cumprod", "cumsum", "diagonal", "dot", "max", "mean", "min", "nonzero", "prod", "ptp",
    "ravel", "repeat", "round", "searchsorted", "sort", "squeeze", "std", "sum", "swapaxes",
    "take", "trace", "var",
)


def attach_array_interface(namespace):
    """Give `Box` the members of ArrayInterface, and operators and ndarray methods each
    calling the function of ``namespace`` (funcgrad.numpy, once complete) directly: no
    lookup per call."""
    for name, member in vars(ArrayInterface).items():
        if not (name.startswith("__") and name.endswith("__")) or name in _DUNDERS:
            setattr(Box, name, member)
    for dunder, name in _OPERATORS.items():
        function = getattr(namespace, name)
        setattr(Box, f"__{dunder}__", _operator(name, function))
        setattr(Box, f"__r{dunder}__", _operator(name, function, reflected=True))
    for dunder, name in _UNARY_AND_COMPARISONS.items():
        setattr(Box, dunder, _method(name, getattr(namespace, name)))
    for name in ARRAY_METHODS:
        setattr(Box, name, _method(name, getattr(namespace, name)))
