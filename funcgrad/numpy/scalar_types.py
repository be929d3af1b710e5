"""NumPy's scalar types and dtype names (float64, longdouble, intp, complexfloating, ...),
so that code written against ``numpy`` finds every one of them in ``funcgrad.numpy``.

Taken from NumPy itself rather than listed, so each NumPy version's own names are here
(platform-dependent ones such as float128 included where NumPy has them).

The numeric ones that can be called to convert (``float32``, ``int64``, ``bool``, ...)
also convert traced values, as JAX's ``jnp.float32(x)`` and autograd's ``np.int64(x)``
do: ``fnp.float64(fnp.sum(x))`` inside a transformed function is ``asarray(x, float64)``,
differentiable (an integer or boolean result carries no derivative). A Dask or CuPy array
stays in its library. Otherwise the call is NumPy's, with NumPy's result. Each is a
subclass of NumPy's type that compares and hashes equal to it and counts its instances
as its own, so it works wherever NumPy takes a dtype (``np.zeros(3, fnp.float32)``,
``np.dtype(fnp.int64)``, ``x.dtype == fnp.float32``, ``isinstance(v, fnp.float32)``);
only identity differs: ``x.dtype.type is fnp.float32`` is False, as in JAX.
Abstract types (``floating``, ``integer``, ...) and non-numeric ones are NumPy's own.
"""
import numpy as np

from ._base import asarray, is_array, is_traced


class _ConvertingScalarType(type):
    """The metaclass of funcgrad.numpy's numeric scalar types: calling one converts as
    NumPy's type does, traced values and other libraries' arrays included; otherwise each
    stands for NumPy's type (`numpy_type`)."""

    def __call__(cls, *args):
        if len(args) == 1 and (is_traced(args[0]) or (type(args[0]) is not np.ndarray
                                                         and is_array(args[0]))):
            return asarray(args[0], cls.numpy_type)
        return cls.numpy_type(*args)

    def __instancecheck__(cls, instance):
        return isinstance(instance, cls.numpy_type)

    def __subclasscheck__(cls, subclass):
        return issubclass(subclass, cls.numpy_type)

    def __eq__(cls, other):
        return cls.numpy_type is getattr(other, "numpy_type", other)

    def __hash__(cls):
        return hash(cls.numpy_type)


def _converting(numpy_type):
    return _ConvertingScalarType(numpy_type.__name__, (numpy_type,), {
        "numpy_type": numpy_type, "__module__": __name__.rpartition(".")[0],
        "__doc__": f"NumPy's ``{numpy_type.__name__}``, which also converts traced values "
                   f"(see funcgrad.numpy.scalar_types)."})


# The types a dtype can be made of (sctypeDict's; abstract ones are not), numeric ones.
_NUMERIC = {t for t in np.sctypeDict.values() if np.dtype(t).kind in "biufc"}
_NUMPY_SCALAR_TYPES = {name: obj for name, obj in vars(np).items()
                       if not name.startswith("_") and isinstance(obj, type)
                       and issubclass(obj, np.generic)}
# One subclass per NumPy type, shared by its aliases (intp and int64 are one type).
_CONVERTING = {numpy_type: _converting(numpy_type)
               for numpy_type in set(_NUMPY_SCALAR_TYPES.values()) if numpy_type in _NUMERIC}
_SCALAR_TYPES = {name: _CONVERTING.get(obj, obj) for name, obj in _NUMPY_SCALAR_TYPES.items()}
globals().update(_SCALAR_TYPES)

# Tables and lookups of those types (names in, names or types out).
from numpy import (  # noqa: E402 -- after the types they describe
    False_, ScalarType, True_, mintypecode, sctypeDict, typecodes, typename)

__all__ = sorted(_SCALAR_TYPES) + ["False_", "ScalarType", "True_", "mintypecode",
                                   "sctypeDict", "typecodes", "typename"]
