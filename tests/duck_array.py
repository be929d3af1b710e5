"""A test-only array library: an ndarray wrapper that is not an ndarray (subclass), speaking
only NumPy's protocols, as CuPy does, so that funcgrad's path for arrays other than NumPy's
(DESIGN.md decision 16) runs in CI without a GPU.

Like CuPy's arrays it refuses implicit conversion to NumPy (``np.asarray(x)`` raises), so
a conversion hidden in funcgrad is an error here, not a silent copy; ``x.get()`` is the
explicit one. As in CuPy, a NumPy array among the operands of a ufunc or NumPy function is
an error (so a constant funcgrad makes with NumPy instead of ``like=`` the value is found),
and so is NumPy's ``device=`` keyword, which NumPy's creation functions pass on with
``like=`` and CuPy's do not take; and ``zeros_like(a, shape=())`` has ``a``'s shape, as in
CuPy, whose ``*_like`` read an empty shape as none given. Its memory (``base``,
``flags``) is the wrapped ndarray's.
"""
import numpy as np
from numpy.lib.mixins import NDArrayOperatorsMixin


def _unwrap(value):
    if isinstance(value, DuckArray):
        return value.data
    if isinstance(value, (list, tuple)):
        return type(value)(_unwrap(v) for v in value)
    if isinstance(value, dict):
        return {k: _unwrap(v) for k, v in value.items()}
    return value


def _wrap(value):
    if isinstance(value, np.ndarray):
        return DuckArray(value)
    if isinstance(value, np.generic) and not isinstance(value, (np.str_, np.bytes_)):
        return DuckArray(np.asarray(value))  # a reduction gives a 0-d array, as in CuPy
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return type(value)(_wrap(v) for v in value)
    if isinstance(value, tuple):  # a named tuple (slogdet's, eigh's result)
        return type(value)(*(_wrap(v) for v in value))
    return value


def _refuse_numpy(values):
    """CuPy's TypeError for a NumPy array among the operands (lists and tuples included)."""
    for value in values:
        if type(value) is np.ndarray:
            raise TypeError(f"Unsupported type {type(value)}")
        if isinstance(value, (list, tuple)):
            _refuse_numpy(value)


class DuckArray(NDArrayOperatorsMixin):
    """An array of its own type: NumPy functions and ufuncs on it compute on the wrapped
    ndarray and return DuckArrays."""

    __slots__ = ("data",)

    def __init__(self, data):
        if not isinstance(data, np.ndarray):
            raise TypeError(f"DuckArray wraps an ndarray, got {type(data).__name__}")
        self.data = data

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        # Values of other types that take part in NumPy's protocols (funcgrad's boxes)
        # get their turn, as Dask and CuPy give it: NotImplemented.
        if not all(isinstance(x, _KNOWN) for x in inputs + kwargs.get("out", ())):
            return NotImplemented
        # (ufunc.at's index may hold NumPy integer arrays: CuPy's indexing takes them.)
        _refuse_numpy(inputs if method != "at" else inputs[:1] + inputs[2:])
        if "out" in kwargs:
            kwargs["out"] = _unwrap(kwargs["out"])
        return _wrap(getattr(ufunc, method)(*_unwrap(inputs), **kwargs))

    def __array_function__(self, func, types, args, kwargs):
        if not all(issubclass(t, (DuckArray, np.ndarray)) for t in types):
            return NotImplemented
        if func not in _CONVERSIONS:
            _refuse_numpy(args)
        if "device" in kwargs:
            raise TypeError(f"{func.__name__}() got an unexpected keyword argument 'device'")
        if func in _LIKE and kwargs.get("shape") == ():
            kwargs = {**kwargs, "shape": None}  # CuPy's *_like read shape=() as "a's shape"
        return _wrap(func(*_unwrap(args), **_unwrap(kwargs)))

    def __array__(self, dtype=None, copy=None):
        raise TypeError("DuckArray: implicit conversion to a NumPy array is not allowed "
                        "(as in CuPy); call .get()")

    def get(self):
        return self.data.copy()

    shape = property(lambda self: self.data.shape)
    dtype = property(lambda self: self.data.dtype)
    ndim = property(lambda self: self.data.ndim)
    size = property(lambda self: self.data.size)
    base = property(lambda self: self.data.base)
    flags = property(lambda self: self.data.flags)
    T = property(lambda self: DuckArray(self.data.T))
    real = property(lambda self: _wrap(self.data.real))
    imag = property(lambda self: _wrap(self.data.imag))

    def __len__(self):
        return len(self.data)

    def __getitem__(self, index):
        return _wrap(self.data[_unwrap(index)])

    def __setitem__(self, index, value):
        self.data[_unwrap(index)] = _unwrap(value)

    def __bool__(self):
        return bool(self.data)

    def __float__(self):
        return float(self.data)

    def __int__(self):
        return int(self.data)

    def __index__(self):
        return self.data.__index__()

    def __complex__(self):
        return complex(self.data)

    def item(self, *args):
        return self.data.item(*args)

    def __repr__(self):
        return f"DuckArray({self.data!r})"

    def _method(name):
        def method(self, *args, **kwargs):
            return _wrap(getattr(self.data, name)(*_unwrap(args), **_unwrap(kwargs)))
        method.__name__ = name
        return method

    for _name in ("astype", "copy", "reshape", "transpose", "sum", "mean", "max", "min",
                  "prod", "ravel", "conj", "conjugate", "swapaxes", "squeeze", "any", "all",
                  "dot", "cumsum", "cumprod", "var", "std", "argmax", "argmin", "nonzero",
                  "flatten", "clip", "round", "repeat", "take", "diagonal", "trace",
                  "argsort", "sort"):
        locals()[_name] = _method(_name)
    del _name, _method


_LIKE = (np.zeros_like, np.ones_like, np.empty_like, np.full_like)
# The explicit moves from NumPy (cupy.asarray and its kin).
_CONVERSIONS = (np.asarray, np.array, np.asanyarray, np.ascontiguousarray)
# What the ufuncs may meet: arrays, numbers, and ufunc.at's index.
_KNOWN = (DuckArray, np.ndarray, np.generic, bool, int, float, complex, tuple, list, slice,
          type(None), type(Ellipsis))
