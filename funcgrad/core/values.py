"""What the engine needs to know about values: differentiable or not, zeros, ones, sums.

The engine builds no derivative here; these are value-space utilities (seeds, symbolic
zeros made concrete, accumulation), so NumPy is used only for array creation.
"""
import numpy as np

from .trace import Box

_INEXACT_KINDS = frozenset("fc")
PYTHON_NUMBERS = frozenset([float, int, bool, complex])
_array_types = {np.ndarray: True}


def is_array(x):
    """Whether `x` is an array funcgrad traces (DESIGN.md decision 16): an ndarray, or an
    object that says it is an array through NumPy's protocols, with ``shape`` and ``dtype``
    and both ``__array_function__`` and ``__array_ufunc__`` (Dask, CuPy and other
    duck arrays), so that every NumPy function an impl or rule calls dispatches to its own
    library. Boxes are not arrays (they hold one); NumPy and Python scalars are not either.
    Decided once per type: the protocols are class attributes."""
    kind = type(x)
    known = _array_types.get(kind)
    if known is None:
        known = _array_types[kind] = not issubclass(kind, (Box, np.generic)) and all(
            hasattr(kind, name) for name in ("__array_function__", "__array_ufunc__")) and (
            hasattr(x, "shape") and hasattr(x, "dtype"))
    return known


def has_memory(value):
    """Whether `value` is an array with memory of its own or another's (NumPy's, CuPy's),
    not a lazy one (Dask's): memory another array may share, values that are concrete."""
    return isinstance(value, np.ndarray) or (is_array(value) and hasattr(value, "base"))


def as_dtype(value, dtype):
    """``np.asarray(value, dtype)`` that keeps another library's array in its library
    (np.asarray would convert a Dask array to NumPy: compute it)."""
    if type(value) is np.ndarray or not is_array(value):
        return np.asarray(value, dtype)
    return value if value.dtype == dtype else value.astype(dtype)


def unboxed(x):
    """The array (or scalar) under any number of boxes."""
    while isinstance(x, Box):
        x = x.value
    return x


def _filled_like(filled_like, like, x):
    """Zeros or ones of x's shape and dtype in `like`'s library: with `like`'s chunks
    (Dask) where the shapes agree; under vmap a box's shape is one batch element's.
    Otherwise filled like an empty array of x's shape: np.ones(..., like=) would pass
    NumPy's device= on, which CuPy does not take, and CuPy's *_like read shape=() as
    "like's shape"."""
    shape, dtype = shape_of(x), dtype_of(x)
    if shape_of(like) == shape:
        return filled_like(like, dtype=dtype)
    return filled_like(np.empty(shape, dtype=dtype, like=like))


def zeros_in_library_of(like, shape, dtype):
    """Zeros of ``shape`` and ``dtype``: NumPy's, or in the library of ``like`` (maybe
    boxed) when it is another library's array (Dask, CuPy), which refuse NumPy operands."""
    library = library_array(like)
    if library is None:
        return np.zeros(shape, dtype)
    return np.zeros(shape, dtype=dtype, like=library)  # (Dask ignores a positional dtype)


def constant_like(constant, like):
    """A NumPy constant a rule built (a mask, an identity) in the library of ``like``
    (maybe boxed): moved there (np.asarray(like=)) when that is Dask or CuPy."""
    library = library_array(like)
    return constant if library is None else np.asarray(constant, like=library)


def full_of_part(x, index, shape, fill, dtype):
    """``fill`` in the ``shape`` of ``x[index]`` (x may be boxed), in x's library: for a
    Dask x in the chunks of that part of x, where NumPy's constant would be one host
    array as long as x's axes (as large as the data along an out-of-core axis)."""
    like = library_array(x)
    if like is None:
        return np.full(shape, fill, dtype)
    if shape_of(like) == shape_of(x):  # (under vmap, like holds the whole batch)
        return np.full_like(like[index], fill, dtype=dtype)
    return np.full_like(np.empty(shape, dtype=dtype, like=like), fill)


def library_array(x):
    """The array under x's boxes if it is another library's (Dask's, CuPy's), to create
    new arrays ``like=``; None for NumPy values."""
    base = unboxed(x)
    return base if type(base) is not np.ndarray and is_array(base) else None


def dtype_of(x):
    try:  # arrays, NumPy scalars and boxes: an attribute load, cheaper than getattr()
        return x.dtype
    except AttributeError:  # Python scalars and sequences
        return np.result_type(x)


def shape_of(x):
    try:
        return x.shape
    except AttributeError:  # Python numbers (a scalar operand: np.shape costs 1.3 us more)
        return () if type(x) in PYTHON_NUMBERS else np.shape(x)


def is_differentiable(x):
    """Floating and complex values carry derivatives; integers and booleans are constants."""
    try:  # arrays, NumPy scalars and boxes: the common case, checked first
        return x.dtype.kind in _INEXACT_KINDS
    except AttributeError:
        kind = type(x)
        return kind is float or kind is complex or kind is tuple


def zeros_like_value(x):
    """A constant zero cotangent with x's shape and dtype (x may be boxed)."""
    if type(x) is tuple:
        return tuple(zeros_like_value(part) for part in x)
    like = library_array(x)
    if like is not None:  # a Dask or CuPy value gets a Dask or CuPy zero
        return _filled_like(np.zeros_like, like, x)
    return np.zeros(shape_of(x), dtype_of(x))


def ones_like_value(x):
    like = library_array(x)
    if like is not None:
        return _filled_like(np.ones_like, like, x)
    shape, dtype = shape_of(x), dtype_of(x)
    # np.array for the seed of every scalar loss: np.ones is a Python wrapper (2x the cost).
    return np.array(1, dtype) if shape == () else np.ones(shape, dtype)


def add_cotangents(a, b):
    """Sum two cotangents of one value; None stands for a symbolic zero."""
    if a is None:
        return b
    if b is None:
        return a
    if type(a) is tuple:
        return tuple(add_cotangents(x, y) for x, y in zip(a, b))
    return a + b


def quiet_floating_point():
    """NumPy's floating-point warnings off, for the whole of a transform call (forward,
    backward and rules), as JAX never warns: rules compute both branches of a where() and
    the limits at poles (sqrt's 0.5 / sqrt(0)), where inf and nan are results, not
    mistakes. `funcgrad.debug_nans` tests values, not warnings, so it still finds them.
    Entered once per call or pass, not per primitive: entering costs microseconds."""
    return np.errstate(divide="ignore", invalid="ignore", over="ignore")
