"""Tensor dtypes (`compat.float32`, ...) and PyTorch's type promotion rules.

NumPy and PyTorch disagree on promotion: PyTorch keeps ``int64 + float32`` as float32,
divides integers into the default float dtype, and lets a dimensioned tensor win over a
0-d tensor or a Python number of the same category (``float32 * float64 0-d`` is float32).
Every compat operation asks `result_type` for its dtype and casts its operands to it.
"""
import numpy as np

_BOOL, INTEGER, FLOAT, COMPLEX = 0, 1, 2, 3
_py_bool = type(True)  # `bool` below is the tensor dtype, as in torch


class dtype:
    """A tensor element type; prints as PyTorch's does (``torch.float32``)."""

    __slots__ = ("name", "numpy", "category", "legacy_name")

    def __init__(self, name, numpy_type, category, legacy_name):
        self.name = name
        self.numpy = np.dtype(numpy_type)
        self.category = category
        self.legacy_name = legacy_name

    @property
    def is_floating_point(self):
        return self.category == FLOAT

    @property
    def is_complex(self):
        return self.category == COMPLEX

    @property
    def is_signed(self):
        return self.numpy.kind != "u" and self.category != _BOOL

    @property
    def scalar_name(self):
        """PyTorch's name of the element type in its messages: Float, Long, Bool, ..."""
        return self.legacy_name.removesuffix("Tensor")

    @property
    def type_string(self):
        """PyTorch's name of a CPU tensor type in its C++ messages: torch.FloatTensor, or
        CPUBoolType, CPUComplexFloatType for bool and complex dtypes (which have no legacy
        tensor class there)."""
        if self.category in (_BOOL, COMPLEX):
            return f"CPU{self.scalar_name}Type"
        return f"torch.{self.legacy_name}"

    @property
    def cpp_name(self):
        """The C++ name of the element type, which some of PyTorch's messages give."""
        return _CPP_NAMES[self.name]

    @property
    def itemsize(self):
        return self.numpy.itemsize

    def __repr__(self):
        return f"torch.{self.name}"

    def __reduce__(self):
        return self.name


_CPP_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half",
              "bfloat16": "c10::BFloat16", "int64": "long int", "int32": "int",
              "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
              "bool": "bool", "complex64": "c10::complex<float>",
              "complex128": "c10::complex<double>"}

bool = dtype("bool", np.bool_, _BOOL, "BoolTensor")  # noqa: A001 -- torch's name
uint8 = dtype("uint8", np.uint8, INTEGER, "ByteTensor")
int8 = dtype("int8", np.int8, INTEGER, "CharTensor")
int16 = dtype("int16", np.int16, INTEGER, "ShortTensor")
int32 = dtype("int32", np.int32, INTEGER, "IntTensor")
int64 = dtype("int64", np.int64, INTEGER, "LongTensor")
float16 = dtype("float16", np.float16, FLOAT, "HalfTensor")
float32 = dtype("float32", np.float32, FLOAT, "FloatTensor")
float64 = dtype("float64", np.float64, FLOAT, "DoubleTensor")
# Complex tensors: compat computes what PyTorch computes on them and raises its errors
# where it has no complex kernel (`_complex_refusals`; docs/guide-compat.md).
complex64 = dtype("complex64", np.complex64, COMPLEX, "ComplexFloatTensor")
complex128 = dtype("complex128", np.complex128, COMPLEX, "ComplexDoubleTensor")


class UnsupportedDtype(dtype):
    """A PyTorch dtype that NumPy, which holds compat's tensors, has no type for: it exists,
    prints and compares as PyTorch's does, and every use that needs its element type
    (a factory, a cast, a default) raises its error, which says what to use instead."""

    __slots__ = ("size", "advice")

    def __init__(self, name, category, legacy_name, size, advice):  # (no NumPy type to set)
        self.name = name
        self.category = category
        self.legacy_name = legacy_name
        self.size = size
        self.advice = advice

    @property
    def numpy(self):
        raise self.error()

    def error(self):
        return TypeError(f"compat: torch.{self.name} is not supported: NumPy, which holds "
                         f"compat's tensors, has no {self.name} type; {self.advice}")

    @property
    def itemsize(self):
        return self.size


bfloat16 = UnsupportedDtype("bfloat16", FLOAT, "BFloat16Tensor", 2,
                            "use torch.float32, or torch.float16 for 16-bit storage")

ALL = (bool, uint8, int8, int16, int32, int64, float16, float32, float64, complex64,
       complex128)
BY_NUMPY_DTYPE = {d.numpy: d for d in ALL}
BY_NAME = {d.name: d for d in ALL}
_BY_LEGACY_NAME = {d.legacy_name: d for d in ALL}
BY_NAME.update(bfloat16=bfloat16, float=float32, double=float64, half=float16, long=int64,
               int=int32, short=int16, cfloat=complex64, cdouble=complex128)


class _Defaults:
    float = float32


DEFAULTS = _Defaults()


def get_default_dtype():
    """The dtype of floating tensors made from Python floats (float32 unless changed)."""
    return DEFAULTS.float


def set_default_dtype(d):
    """Make `d` (compat.float32 or compat.float64) the default floating dtype."""
    message = "only floating-point types are supported as the default type"
    if not isinstance(d, dtype):
        raise TypeError(f"invalid dtype object: {message}")
    if isinstance(d, UnsupportedDtype):
        raise d.error()
    if d.category != FLOAT:
        raise TypeError(message)
    DEFAULTS.float = d


def differentiable(d):
    """Whether tensors of dtype `d` can require grad: floating point and complex ones."""
    return d.category >= FLOAT


def default_complex():
    """The dtype of Python complex numbers: the default float's complex type."""
    return complex128 if DEFAULTS.float is float64 else complex64


def from_numpy_dtype(np_dtype, where="compat"):
    """The compat dtype of a NumPy dtype (an error for types tensors cannot hold)."""
    try:
        return BY_NUMPY_DTYPE[np.dtype(np_dtype)]
    except (KeyError, TypeError):
        raise TypeError(f"{where}: can't convert an array of type {np_dtype}; the supported "
                        f"types are {', '.join(d.name for d in ALL)}.") from None


def as_dtype(d, where="compat"):
    """A compat dtype from a compat dtype, a NumPy dtype, a Python type or a name."""
    if isinstance(d, dtype):
        return d
    legacy = getattr(d, "_compat_dtype", None)
    if legacy is not None:
        return legacy
    if d is float:
        return DEFAULTS.float
    if d is int:
        return int64
    if d is _py_bool:
        return bool
    if isinstance(d, str):
        name = d.removeprefix("torch.")
        if name in BY_NAME:
            return BY_NAME[name]
        if name in _BY_LEGACY_NAME:
            return _BY_LEGACY_NAME[name]
    return from_numpy_dtype(d, where)


def promote_types(a, b):
    """PyTorch's promotion of two dtypes: a floating type beats any integer or bool type;
    within a category the wider type wins (as in NumPy)."""
    if a is b:
        return a
    if a.category != b.category and not (a.category >= FLOAT and b.category >= FLOAT):
        return a if a.category > b.category else b
    return BY_NUMPY_DTYPE[np.promote_types(a.numpy, b.numpy)]


def combine(higher, lower):
    """The result of a higher-priority group (dimensioned tensors over 0-d tensors over
    Python numbers) with a lower one: the lower one only counts if its category is higher."""
    if higher is None:
        return lower
    if lower is None or (higher.category == FLOAT and lower.category <= FLOAT):
        return higher
    if higher.category == _BOOL or lower.category > higher.category:
        return promote_types(higher, lower)
    return higher


def scalar_dtype(x):
    """The dtype PyTorch gives a Python number taking part in an operation."""
    if isinstance(x, _py_bool) or isinstance(x, np.bool_):
        return bool
    if isinstance(x, (int, np.integer)):
        return int64
    if isinstance(x, (float, np.floating)):
        return DEFAULTS.float
    if isinstance(x, (complex, np.complexfloating)):
        return default_complex()
    raise TypeError(f"compat: expected a tensor or a number, got {type(x).__name__}")


def can_cast(source, target):
    """Whether an in-place result of dtype `source` may be written into a `target` tensor."""
    return source.category <= target.category


def of_array(array):
    return BY_NUMPY_DTYPE[array.dtype]


__all__ = ["dtype", "bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
           "float64", "bfloat16", "complex64", "complex128", "get_default_dtype",
           "set_default_dtype", "promote_types"]


def not_implemented_for(kernel, dtype):
    """PyTorch's error for an operation without a kernel for `dtype`."""
    return NotImplementedError(f'"{kernel}" not implemented for \'{dtype.scalar_name}\'')


def require_floating(kernel, dtype):
    """PyTorch's refusal of `dtype` (an integer, bool or complex one) by a `kernel` that
    has floating loops only."""
    if not dtype.is_floating_point:
        raise not_implemented_for(kernel, dtype)


# PyTorch's spelling of each type in its overflow message (its C++ scalar type list).
_SCALAR_NAMES = {**_CPP_NAMES, "int64": "int64_t", "int16": "int16_t", "int8": "int8_t",
                 "uint8": "uint8_t"}
# torch.tensor's spelling of the integer types in the same message.
TYPE_NAMES = {name: name for name in ("uint8", "int8", "int16", "int32", "int64")}


def converted_number(number, to):
    """`number` as a value of dtype `to` (a fill value): PyTorch's check, then a complex
    number's real part where `to` is real (its imaginary part is 0 once checked)."""
    check_convertible(number, to)
    if isinstance(number, (complex, np.complexfloating)) and to.category != COMPLEX:
        return number.real
    return number


def cast_number(number, to):
    """`number` (a fill value) checked and cast to dtype `to` as C++ casts it (2.5 into an
    integer dtype is 2, -1 into uint8 is 255): a 0-d array."""
    return np.asarray(converted_number(number, to)).astype(to.numpy)


def check_convertible(number, to, names=_SCALAR_NAMES):
    """PyTorch's check before it converts the Python `number` to dtype `to` (a factory's
    bounds, an alpha, a clamp bound): values beyond the type's range are an error (inf and
    NaN stay for floating types; a negative integer wraps into an unsigned type if its
    magnitude fits)."""
    if to is bool:
        return
    if isinstance(number, np.generic):  # (a NumPy scalar, compared as the Python number)
        number = number.item()
    if isinstance(number, complex):
        if number.imag and to.category != COMPLEX:  # (its imaginary part would be lost)
            raise RuntimeError(f"value cannot be converted to type {names[to.name]} "
                               f"without overflow")
        parts = (number.real, number.imag)
    else:
        parts = (number,)
    real = np.dtype(to.numpy.char.lower()) if to.category == COMPLEX else to.numpy
    limits = np.finfo(real) if real.kind == "f" else np.iinfo(real)
    # As Python numbers: compared with a float16 limit, 65519.0 would round to it first.
    lowest, highest = (float(limits.min), float(limits.max)) if real.kind == "f" else (
        limits.min, limits.max)
    for part in parts:
        if isinstance(part, float) and (part != part or part in (np.inf, -np.inf)):
            overflows = real.kind != "f"
        elif real.kind == "u" and isinstance(part, int) and part < 0:
            overflows = -part > highest
        else:
            overflows = not lowest <= part <= highest
        if overflows:
            raise RuntimeError(f"value cannot be converted to type {names[to.name]} "
                               f"without overflow")
