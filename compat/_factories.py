"""Making tensors: tensor(), ones/zeros/..., from_numpy, and the legacy constructors
(``Tensor(3, 4)``, ``FloatTensor([1.0, 2.0])``). Random tensors are in `_random`."""
import math
import numbers
import operator
import warnings

import numpy as np

from . import _device, _dtypes, _memory_formats
from ._fma import fused_multiply_add
from ._record import alias
from ._runtime import warn_once
from ._tensor import Size, Tensor, make, make_leaf, typename


def shape_argument(shape, name, argument="size"):
    """A shape given as varargs (``ones(2, 3)``) or as one sequence (``ones((2, 3))``), with
    PyTorch's type errors naming the function `name` and its `argument`."""
    if len(shape) == 1 and not _is_int(shape[0]):
        shape = shape[0]
        if isinstance(shape, (str, bool)) or not hasattr(shape, "__iter__"):
            raise TypeError(f"{name}(): argument '{argument}' (position 1) must be tuple of "
                            f"ints, not {type(shape).__name__}")
    if all(type(n) is int for n in shape):  # the common case, quickly (~1 us)
        return tuple(shape)
    if not all(map(_is_int, shape)):
        position, bad = next((i, n) for i, n in enumerate(shape, 1) if not _is_int(n))
        raise TypeError(f"{name}(): argument '{argument}' failed to unpack the object at pos "
                        f"{position} with error \"type must be tuple of ints,but got "
                        f"{type(bad).__name__}\"")
    return tuple(map(operator.index, shape))


def _is_int(x):
    """Whether `x` is an int as PyTorch's sizes take them (bools are not)."""
    return hasattr(type(x), "__index__") and not isinstance(x, bool)


def _size(size, name):
    """The shape of a new tensor, with PyTorch's errors for negative lengths."""
    shape = shape_argument(size, name)
    negative = [n for n in shape if n < 0]
    if negative:
        if name == "zeros":
            raise RuntimeError("zeros: Dimension size must be non-negative.")
        raise RuntimeError(f"Trying to create tensor with negative dimension {negative[0]}: "
                           f"{list(shape)}")
    return shape


def _dtype(dtype, default=None):
    if dtype is None:
        return default or _dtypes.get_default_dtype()
    return _dtypes.as_dtype(dtype)


def _finish(data, requires_grad):
    return make_leaf(data, requires_grad)


def _filled(fill, name):
    def factory(*size, dtype=None, requires_grad=False, device=None, out=None, layout=None,
                pin_memory=False, memory_format=None):
        _device.check(device)
        if out is not None:
            raise TypeError(f"compat.{name}(): out= is not supported")
        if not size:  # (an empty sequence is a shape, of a 0-d tensor; no argument is none)
            raise TypeError(f'{name}() missing 1 required positional arguments: "size"')
        d = _dtype(dtype)
        return _finish(fill(_size(size, name), d.numpy), requires_grad)
    factory.__name__ = name
    factory.__doc__ = f"A new tensor of the given size filled as numpy.{fill.__name__} does."
    return factory


ones = _filled(np.ones, "ones")
zeros = _filled(np.zeros, "zeros")
empty = _filled(np.empty, "empty")


def full(size, fill_value, *, dtype=None, requires_grad=False, device=None):
    """A tensor of `size` filled with `fill_value` (its dtype follows the value's kind)."""
    _device.check(device)
    d = _dtype(dtype, _dtypes.scalar_dtype(fill_value))
    value = _dtypes.cast_number(fill_value, d)
    return _finish(np.full(_size((size,), "full"), value, d.numpy), requires_grad)


def eye(n, m=None, *, dtype=None, requires_grad=False, device=None):
    _device.check(device)
    for label, length in (("n", n), ("m", m)):
        if length is not None and length < 0:
            raise RuntimeError(f"{label} must be greater or equal to 0, got {length}")
    return _finish(np.eye(n, m, dtype=_dtype(dtype).numpy), requires_grad)


def arange(start, end=None, step=1, *, dtype=None, requires_grad=False, device=None):
    """start, start + step, ... below end; int64 when every argument is an integer."""
    _device.check(device)
    if end is None:
        start, end = 0, start
    numbers_given = (start, end, step)
    integral = all(isinstance(x, numbers.Integral) for x in numbers_given)
    d = _dtype(dtype, _dtypes.int64 if integral else None)
    if d.is_complex or d is _dtypes.bool:
        raise _dtypes.not_implemented_for("arange_cpu", d)
    _check_range(start, end, step)
    values = np.arange(start, end, step, dtype=np.int64 if integral else np.float64)
    return _finish(values.astype(d.numpy), requires_grad)


def _check_range(start, end, step):
    """PyTorch's checks of arange's arguments."""
    if not step or math.isnan(step):
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(f"unsupported range: {start:g} -> {end:g}")
    if (step > 0 and end < start) or (step < 0 and end > start):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if (end - start) / step >= 2 ** 63:
        raise RuntimeError("invalid size, possible overflow?")


def linspace(start, end, steps, *, dtype=None, requires_grad=False, device=None):
    _device.check(device)
    if not isinstance(steps, numbers.Integral) or isinstance(steps, bool):
        got = ", ".join(type(a).__name__ for a in (start, end, steps))
        raise TypeError(f"linspace() received an invalid combination of arguments - got "
                        f"({got}), but expected (Number start, Number end, int steps, *, "
                        f"torch.dtype dtype = None, bool requires_grad = False)")
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    d = _spaced_dtype("linspace", start, end, dtype)
    start, end = (x.item() if isinstance(x, Tensor) else x for x in (start, end))
    if d is _dtypes.bool:
        raise _dtypes.not_implemented_for("linspace_cpu", d)
    for bound in (start, end):
        _dtypes.check_convertible(bound, d)
    return _finish(_linspace(start, end, steps, d.numpy), requires_grad)


def _spaced_dtype(name, start, end, dtype):
    """linspace's dtype: the given one, else the default complex dtype for a complex end
    (PyTorch infers it whatever the end's precision) or the default float dtype; a real
    dtype given with a complex end is PyTorch's error."""
    if not any(_is_complex_number(bound) for bound in (start, end)):
        return _dtype(dtype)
    inferred = _dtypes.default_complex()
    if dtype is None:
        return inferred
    given = _dtype(dtype)
    if not given.is_complex:
        raise RuntimeError(f"torch.{name}(): inferred dtype {inferred.cpp_name} can't be "
                           f"safely cast to passed dtype {given.scalar_name}")
    return given


def _is_complex_number(x):
    if isinstance(x, Tensor):
        return x.dtype.is_complex
    return isinstance(x, (complex, np.complexfloating))


def _linspace(start, end, steps, dtype):
    """PyTorch's CPU linspace: the step computed in `dtype` itself (for integers in float64,
    then truncated), the first half of the values counted up from `start` and the second
    down from `end` (so both ends are exact), each ``start + step * i`` rounded once in
    float32 and float64 (PyTorch's kernel is compiled to a fused multiply-add) and after
    each operation in float16. NumPy's linspace, from start only and in float64, differs in
    the last bit of most float32 values."""
    if np.dtype(dtype).kind == "c":  # real and imaginary parts apart, as PyTorch's complex
        ends = np.asarray([start, end]).astype(dtype)
        values = np.empty(steps, dtype)
        values.real = _linspace(*ends.real, steps, ends.real.dtype)
        values.imag = _linspace(*ends.imag, steps, ends.imag.dtype)
        return values
    arithmetic = np.dtype(np.float64) if np.issubdtype(dtype, np.integer) else np.dtype(dtype)
    first = np.asarray(start).astype(dtype).astype(arithmetic)
    last = np.asarray(end).astype(dtype).astype(arithmetic)
    if steps == 1:
        return np.full(1, first, dtype)
    halfway = steps // 2
    counts = np.concatenate([np.arange(halfway), np.arange(steps - halfway - 1, -1, -1)])
    counts = counts.astype(arithmetic)
    first_half = np.arange(steps) < halfway
    origins = np.where(first_half, first, last)
    with np.errstate(over="ignore", invalid="ignore"):  # PyTorch's inf and nan, silently
        step = (last - first) / np.asarray(steps - 1).astype(arithmetic)
        steps_taken = np.where(first_half, step, -step)
        if arithmetic == np.float16:
            values = origins + steps_taken * counts
        else:
            values = fused_multiply_add(steps_taken, counts, origins)
    return values.astype(dtype)


def _like(factory, name):
    def like(input, *, dtype=None, requires_grad=False, device=None, **kwargs):
        return factory(input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad,
                       device=device, **kwargs)
    like.__name__ = name
    return like


ones_like = _like(ones, "ones_like")
zeros_like = _like(zeros, "zeros_like")


def empty_like(input, *, dtype=None, layout=None, device=None, requires_grad=False,
               memory_format=_memory_formats.preserve_format):
    """An uninitialized tensor of input's shape (and dtype), laid out in `memory_format`
    (preserve_format: with the strides of a dense input, as PyTorch's)."""
    _device.check(device)
    d = _dtype(dtype) if dtype is not None else input.dtype
    return _finish(_memory_formats.empty_in(input._data, memory_format, "empty_like", d.numpy),
                   requires_grad)


def empty_strided(size, stride, *, dtype=None, layout=None, device=None, requires_grad=False,
                  pin_memory=False):
    """An uninitialized tensor of `size` whose steps between elements (in elements) are
    `stride`: a view of new memory just long enough."""
    _device.check(device)
    size = _size((size,), "empty_strided")
    stride = shape_argument((stride,), "empty_strided", "stride")
    if len(size) != len(stride):
        raise RuntimeError(f"dimensionality of sizes ({len(size)}) must match dimensionality "
                           f"of strides ({len(stride)})")
    if any(step < 0 for step in stride):
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and "
                           f"strides={list(stride)}")
    memory = np.empty(1 + sum((n - 1) * step for n, step in zip(size, stride))
                      if all(size) else 0, _dtype(dtype).numpy)
    data = np.lib.stride_tricks.as_strided(memory, size, [step * memory.itemsize
                                                          for step in stride])
    return _finish(data, requires_grad)


def full_like(input, fill_value, *, dtype=None, requires_grad=False, device=None):
    return full(input.shape, fill_value, dtype=dtype or input.dtype,
                requires_grad=requires_grad, device=device)


def _leaves(data):
    """Yield the leaves of nested lists/tuples, in order (iteratively)."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(reversed(item))
        else:
            yield item


def _replace_tensors(data):
    if isinstance(data, Tensor):
        return data._data
    if isinstance(data, (list, tuple)):
        return [_replace_tensors(item) for item in data]
    return data


def _array_of(data, dtype, where):
    """The values of `data` (numbers, nested sequences, arrays, tensors) as a new array of
    PyTorch's inferred dtype (Python floats -> the default float dtype, ints -> int64)."""
    if isinstance(data, np.ndarray):
        _check_strides(data)
        array = np.array(data, copy=True)
        inferred = _dtypes.from_numpy_dtype(array.dtype, where)
    else:
        holds_arrays = any(isinstance(x, (Tensor, np.ndarray, np.generic))
                           for x in _leaves(data))
        try:
            array = np.array(_replace_tensors(data))
        except ValueError:  # ragged
            array = None
        if array is None or array.dtype.kind in "OUS":
            raise _data_error(data, where, dtype)
        if holds_arrays and array.dtype.kind in "biufc":
            inferred = _dtypes.from_numpy_dtype(array.dtype, where)
        else:
            kind = array.dtype.kind
            inferred = (_dtypes.bool if kind == "b" else _dtypes.int64 if kind in "iu"
                        else _dtypes.default_complex() if kind == "c" else _dtypes.get_default_dtype())
    d = _dtypes.as_dtype(dtype) if dtype is not None else inferred
    if dtype is not None and d.category == _dtypes.INTEGER and not isinstance(data, np.ndarray):
        for x in _leaves(data):  # (PyTorch checks each Python number against the range)
            if isinstance(x, (int, float)) and not isinstance(x, bool):
                _dtypes.check_convertible(x, d, _dtypes.TYPE_NAMES)
    if array.dtype.kind == "c" and not (d.is_complex or d is _dtypes.bool):
        if not isinstance(data, np.ndarray):
            _check_complex_to_real(data, d)
    return array.astype(d.numpy, copy=False)  # (NumPy warns of dropped imaginary parts)


_ELEMENTS = (numbers.Number, np.generic, np.ndarray, Tensor)  # what PyTorch takes as elements


def _check_complex_to_real(data, d):
    """PyTorch's TypeError for a complex number asked for in a real dtype `d`: Python's
    always, NumPy's for an integer dtype (a float dtype drops their imaginary parts, with
    a warning)."""
    for x in _leaves(data):
        error = _conversion_error(x, d)
        if error:
            raise error


def _conversion_error(x, d):
    """PyTorch's TypeError for element `x` that it cannot convert to dtype `d`, or None: a
    non-number, or a complex number in a real dtype other than bool (Python's always,
    NumPy's to an integer dtype: a float dtype drops their imaginary parts, with a
    warning)."""
    if isinstance(x, (complex, np.complexfloating)):
        if d.is_complex or d is _dtypes.bool or (d.is_floating_point and type(x) is not complex):
            return None
    elif isinstance(x, _ELEMENTS):
        return None
    if d.is_floating_point or d.is_complex:
        return TypeError(f"must be real number, not {typename(x)}")
    return TypeError(f"'{typename(x)}' object cannot be interpreted as an integer")


def _check_strides(array):
    """PyTorch's refusal of an ndarray with a negative stride (a reversed view)."""
    if any(stride < 0 for stride in array.strides):
        raise ValueError(
            "At least one stride in the given numpy array is negative, and tensors with "
            "negative strides are not currently supported. (You can probably work around "
            "this by making a copy of your array  with array.copy().) ")


def _data_error(data, where, dtype):
    """PyTorch's error for nested data that holds something other than numbers, or that is
    ragged (lengths compared with the first element's at each depth). Without a `dtype`,
    PyTorch infers one from every element first; with one, it converts them in order."""
    for leaf in _leaves(data):
        if isinstance(leaf, str):
            return TypeError(f"new(): invalid data type '{type(leaf).__name__}'")
        if not isinstance(leaf, _ELEMENTS):
            if dtype is None:
                return RuntimeError(f"Could not infer dtype of {type(leaf).__name__}")
            break  # converted in order below, with the shape checked on the way
    shape, first = [], data
    while isinstance(first, (list, tuple)) and first:
        shape.append(len(first))
        first = first[0]
    d = None if dtype is None else _dtypes.as_dtype(dtype)
    return _ragged_error(data, shape, 0, d) or ValueError(
        f"{where}: could not convert {type(data).__name__} to a tensor (ragged data)")


def _ragged_error(item, shape, dim, d):
    if dim == len(shape):  # an element, converted to dtype `d` (None: any number is)
        return None if d is None else _conversion_error(item, d)
    if not isinstance(item, (list, tuple)):
        return TypeError("not a sequence")
    if len(item) != shape[dim]:
        return ValueError(f"expected sequence of length {shape[dim]} at dim {dim} "
                          f"(got {len(item)})")
    for part in item:
        error = _ragged_error(part, shape, dim + 1, d)
        if error:
            return error
    return None


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new leaf tensor holding a copy of `data` (numbers, nested lists, arrays)."""
    _device.check(device)
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use "
                      "sourceTensor.detach().clone() or sourceTensor.detach().clone()."
                      "requires_grad_(True), rather than torch.tensor(sourceTensor).",
                      UserWarning, stacklevel=2)
    return _finish(_array_of(data, dtype, "compat.tensor"), requires_grad)


def as_tensor(data, dtype=None, device=None):
    """`data` as a tensor, sharing memory with an ndarray or tensor where the dtype allows."""
    _device.check(device)
    if isinstance(data, Tensor):
        return data if dtype is None else data.to(dtype)
    if isinstance(data, np.ndarray) and (dtype is None or
                                         _dtypes.as_dtype(dtype).numpy == data.dtype):
        return from_numpy(data)
    return tensor(data, dtype=dtype, device=device)


def scalar_tensor(s, *, dtype=None, layout=None, device=None, pin_memory=False,
                  requires_grad=False):
    """A 0-d tensor holding the number `s`, in the default float dtype unless `dtype`."""
    _device.check(device)
    value = s.item() if isinstance(s, Tensor) else s
    return _finish(np.asarray(value, _dtype(dtype).numpy), requires_grad)


_UNSPECIFIED = object()


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=_UNSPECIFIED):
    """`obj` as a tensor: a tensor itself (its history kept), or one sharing the memory of
    an ndarray, where `dtype` allows and unless `copy`; else a copy (``copy=False`` refuses
    to copy). A given `requires_grad` is set on the result, a leaf then."""
    _device.check(device)
    d = None if dtype is None else _dtypes.as_dtype(dtype)
    if isinstance(obj, Tensor):
        result = _tensor_as_array(obj, d, copy)
    elif isinstance(obj, np.ndarray):
        if copy is False and d is not None and d.numpy != obj.dtype:
            raise ValueError(f"can't alias tensor with dtype "
                             f"'{_dtypes.from_numpy_dtype(obj.dtype).scalar_name}' into dtype "
                             f"'{d.scalar_name}'.")
        result = as_tensor(obj.copy() if copy else obj, d)
    elif copy is False:
        raise ValueError("can't alias arbitrary sequence into a tensor.")
    else:
        result = make(_array_of(obj, d, "compat.asarray"))
    if requires_grad is _UNSPECIFIED:
        if result is obj and obj.requires_grad:
            warn_once("torch.asarray: unspecified requires_grad now defaults to "
                      "obj.requires_grad instead of False. Pass requires_grad=False "
                      "explicitly to get the old behavior and silence this warning.",
                      stacklevel=2)
        return result
    if not (requires_grad or result.is_leaf):
        result = result.detach()
    return result._require_grad(requires_grad, "Only Tensors of floating point and complex "
                                               "dtype can require gradients")


def _tensor_as_array(t, d, copy):
    """A tensor as asarray gives it: itself, or converted (recorded) to `d`, or copied."""
    if d is not None and d is not t.dtype:
        if copy is False:
            raise ValueError(f"can't alias tensor with dtype '{t.dtype.scalar_name}' into "
                             f"dtype '{d.scalar_name}'.")
        return t.to(d)
    return t.clone() if copy else t


_FROM_NUMPY = {d.numpy for d in _dtypes.ALL}
# Their names in the order PyTorch's error lists them (then "and bool").
_FROM_NUMPY_NAMES = ["float64", "float32", "float16", "complex64", "complex128", "int64",
                     "int32", "int16", "int8", "uint8"]


def from_numpy(array):
    """A tensor sharing memory with the ndarray `array` (changes show in both)."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    if array.dtype not in _FROM_NUMPY:
        raise TypeError(f"can't convert np.ndarray of type numpy.{array.dtype.type.__name__}. "
                        f"The only supported types are: {', '.join(_FROM_NUMPY_NAMES)}, and bool.")
    _check_strides(array)
    return make(array)


def legacy_new(dtype, args, kwargs, name):
    """PyTorch's legacy constructors: ``Tensor()`` (empty), ``Tensor(2, 3)`` / ``Tensor(size)``
    (uninitialised), ``Tensor(sequence or ndarray)`` (a copy), ``Tensor(tensor)`` (an alias
    of it, AliasBackward0 where it requires grad, which must have this dtype)."""
    _device.check(kwargs.pop("device", None))
    if kwargs:
        raise TypeError(f"compat.{name}(): unexpected keyword arguments {sorted(kwargs)}")
    if not args:
        return make(np.empty((0,), dtype.numpy))
    data = args[0]
    if len(args) > 1 or isinstance(data, Size) or (isinstance(data, numbers.Integral)
                                                   and not isinstance(data, bool)):
        # sizes, the ones after the first as PyTorch's sizes take them (one-element integer
        # tensors too), with its error for the first that is not an int
        return make(np.empty(_size(args, "new"), dtype.numpy))
    if isinstance(data, Tensor):
        if data.dtype is not dtype:
            raise TypeError(f"expected {dtype.scalar_name} (got {data.dtype.scalar_name})")
        return alias(data)
    if isinstance(data, numbers.Number):
        raise TypeError(f"new(): data must be a sequence (got {type(data).__name__})")
    return make(_array_of(data, dtype, f"compat.{name}"))


class TensorType(type):
    """The legacy type classes: ``FloatTensor(...)`` constructs, ``isinstance(t,
    FloatTensor)`` checks the dtype, and ``t.type(FloatTensor)`` converts."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype is cls._compat_dtype

    def __call__(cls, *args, **kwargs):
        return legacy_new(cls._compat_dtype, args, kwargs, cls.__name__)

    def __repr__(cls):
        return f"<class 'torch.{cls.__name__}'>"

    @property
    def dtype(cls):
        return cls._compat_dtype


def _tensor_type(d):
    return TensorType(d.legacy_name, (), {"_compat_dtype": d, "__module__": "compat"})


FloatTensor = _tensor_type(_dtypes.float32)
DoubleTensor = _tensor_type(_dtypes.float64)
HalfTensor = _tensor_type(_dtypes.float16)
LongTensor = _tensor_type(_dtypes.int64)
IntTensor = _tensor_type(_dtypes.int32)
ShortTensor = _tensor_type(_dtypes.int16)
CharTensor = _tensor_type(_dtypes.int8)
ByteTensor = _tensor_type(_dtypes.uint8)
BoolTensor = _tensor_type(_dtypes.bool)

__all__ = [
    "ones", "zeros", "empty", "full", "eye", "arange", "linspace", "ones_like", "zeros_like",
    "empty_like", "empty_strided", "full_like", "tensor", "as_tensor", "from_numpy",
    "scalar_tensor", "asarray",
    "FloatTensor", "DoubleTensor", "HalfTensor", "LongTensor", "IntTensor", "ShortTensor",
    "CharTensor", "ByteTensor", "BoolTensor",
]


def _legacy_tensor(cls, *args, **kwargs):
    return legacy_new(_dtypes.get_default_dtype(), args, kwargs, "Tensor")


Tensor.__new__ = _legacy_tensor
