"""Tensor methods and operators: each is one of the operations in `_ops`."""
import numbers

import numpy as np

from funcgrad.core import tuple_get

from . import _device, _dtypes, _indexing, _inplace, _ops, _pieces, _python_maps, _strided
from . import _random, _storage_methods
from ._factories import empty, empty_strided, full, legacy_new, ones, tensor, zeros
from ._memory_formats import preserve_format
from ._printing import format_tensor
from ._record import with_number
from ._runtime import warn_once
from ._tape import InvalidatedBox
from ._tensor import Tensor, require_tensor

# Methods that are the operation of the same name.
_SAME_NAME = (
    "add", "sub", "mul", "div", "floor_divide", "remainder", "reciprocal", "pow", "square",
    "neg", "exp",
    "positive", "conj", "conj_physical",
    "log", "sin", "cos", "tanh", "sqrt", "abs", "sigmoid", "relu", "clamp", "clamp_min",
    "clamp_max", "maximum", "minimum", "eq", "ne", "lt", "le", "gt", "ge", "logical_not",
    "isnan", "equal", "allclose", "bitwise_not", "argmax", "argmin", "any", "all", "sum",
    "mean", "prod",
    "max", "min", "amax", "amin", "var", "std", "norm", "cumsum", "mm", "mv", "dot", "bmm",
    "matmul", "view", "view_as", "reshape", "reshape_as", "flatten", "t", "transpose",
    "permute", "expand", "expand_as", "unsqueeze", "squeeze", "softmax", "log_softmax",
    "masked_fill", "clone", "contiguous", "sum_to_size", "bitwise_and", "bitwise_or",
    "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift",
    "add_", "sub_", "mul_", "div_", "pow_", "neg_", "exp_", "log_", "sqrt_", "tanh_",
    "sigmoid_", "relu_", "abs_", "clamp_", "clamp_min_", "clamp_max_", "fill_", "zero_",
    "copy_", "masked_fill_", "sin_", "cos_", "square_", "reciprocal_", "remainder_",
    "floor_divide_", "bitwise_and_", "bitwise_or_", "bitwise_xor_", "bitwise_not_",
    "bitwise_left_shift_", "bitwise_right_shift_", "t_", "transpose_", "swapaxes_",
    "swapdims_", "unsqueeze_", "squeeze_", "eq_", "ne_", "lt_", "le_", "gt_", "ge_",
    "logical_not_", "cumsum_", "fill_diagonal_", "conj_physical_",
)
_ALIASES = {
    "multiply": "mul", "divide": "div", "true_divide": "div", "subtract": "sub",
    "negative": "neg", "absolute": "abs", "clip": "clamp", "clip_": "clamp_", "greater": "gt",
    "less": "lt", "greater_equal": "ge", "less_equal": "le", "not_equal": "ne",
    "multiply_": "mul_", "divide_": "div_", "subtract_": "sub_", "true_divide_": "div_",
    "negative_": "neg_", "absolute_": "abs_", "greater_": "gt_", "less_": "lt_",
    "greater_equal_": "ge_", "less_equal_": "le_", "not_equal_": "ne_",
}


# float and int ahead of the Number ABC, whose isinstance check runs Python code: a
# Python number operand is matched in ~80 ns instead of ~330 ns.
_OPERAND_TYPES = (Tensor, float, int, numbers.Number, np.generic)


def _operator(op):
    """A binary operator: NotImplemented for operands that are not tensors or numbers."""
    def method(self, other):
        # isinstance inline rather than in a helper: one call fewer per operator (~0.1 us)
        return op(self, other) if isinstance(other, _OPERAND_TYPES) else NotImplemented
    return method


def _arithmetic_operator(op, by_number):
    """A binary operator (`_operator`) that records a float tensor and a Python number
    straight away (`by_number`: what `op` records for them, see `_ops.ADD_NUMBER`): one
    call instead of three (~0.2 us)."""
    def method(self, other):
        if _ops._float_and_number(self, other):
            return with_number(by_number, self, other)
        return op(self, other) if isinstance(other, _OPERAND_TYPES) else NotImplemented
    return method


def _install():
    for name in _SAME_NAME + tuple(_ALIASES):
        target = _ALIASES.get(name, name)
        module = _inplace if target.endswith("_") else _ops
        setattr(Tensor, name, getattr(module, target))
    for name in _pieces.__all__:
        setattr(Tensor, name, getattr(_pieces, name))
    binary = {
        "pow": _ops.pow, "matmul": _ops.matmul, "mod": _ops.remainder,
        "and": _ops.bitwise_and, "or": _ops.bitwise_or, "xor": _ops.bitwise_xor,
        "eq": _ops.eq, "ne": _ops.ne, "lt": _ops.lt, "le": _ops.le, "gt": _ops.gt,
        "ge": _ops.ge, "lshift": _ops.bitwise_left_shift, "rshift": _ops.bitwise_right_shift,
    }
    for name, op in binary.items():
        setattr(Tensor, f"__{name}__", _operator(op))
    # Arithmetic: a float tensor and a Python number recorded at once. (Reflected add and
    # mul keep the tensor first, as PyTorch does.)
    for names, op, by_number in ((("add", "radd"), _ops.add, _ops.ADD_NUMBER),
                                 (("sub",), _ops.sub, _ops.SUB_NUMBER),
                                 (("mul", "rmul"), _ops.mul, _ops.MUL_NUMBER),
                                 (("truediv",), _ops.div, _ops.DIV_NUMBER)):
        for name in names:
            setattr(Tensor, f"__{name}__", _arithmetic_operator(op, by_number))
    # `number op tensor`: commutative operators keep the tensor first, as PyTorch does.
    reflected = {
        "rsub": _ops.rsub, "rtruediv": _ops.rdiv,
        "rpow": lambda self, other: _ops.pow(other, self),
        "rmatmul": lambda self, other: _ops.matmul(other, self),
        "rand": _ops.bitwise_and, "ror": _ops.bitwise_or, "rxor": _ops.bitwise_xor,
        "rmod": lambda self, other: _ops.remainder(other, self),
        "rlshift": lambda self, other: _ops.bitwise_left_shift(other, self),
        "rrshift": lambda self, other: _ops.bitwise_right_shift(other, self),
    }
    for name, op in reflected.items():
        setattr(Tensor, f"__{name}__", _operator(op))
    inplace = {"iadd": _inplace.add_, "isub": _inplace.sub_, "imul": _inplace.mul_,
               "itruediv": _inplace.div_, "ipow": _inplace.pow_, "iand": _inplace.bitwise_and_,
               "ior": _inplace.bitwise_or_, "ixor": _inplace.bitwise_xor_,
               "ilshift": _inplace.bitwise_left_shift_,
               "irshift": _inplace.bitwise_right_shift_}
    for name, op in inplace.items():
        setattr(Tensor, f"__{name}__", _operator(op))
    Tensor.__floordiv__ = _operator(_ops.floor_divide)
    Tensor.__rfloordiv__ = _operator(lambda self, other: _ops.floor_divide(other, self))
    Tensor.__neg__ = _ops.neg
    Tensor.__pos__ = _ops.positive
    Tensor.__abs__ = _ops.abs
    Tensor.__invert__ = _ops.invert
    Tensor.__repr__ = Tensor.__str__ = _repr
    Tensor.__getitem__ = _indexing.getitem
    Tensor.__setitem__ = _indexing.setitem
    Tensor.T = property(_reversed_dims)
    Tensor.mT = property(_matrix_transpose)
    Tensor.mH = property(_adjoint)
    Tensor.adjoint = adjoint
    Tensor.H = property(_conjugate_transpose)
    # compat conjugates and negates eagerly: there is no lazy bit to resolve.
    Tensor.resolve_conj = Tensor.resolve_neg = lambda self: self
    Tensor.where = lambda self, condition, other: _ops.where(condition, self, other)
    Tensor.to = _to
    Tensor.type = _type
    Tensor.type_as = _type_as
    for name, d in (("float", _dtypes.float32), ("double", _dtypes.float64),
                    ("half", _dtypes.float16), ("long", _dtypes.int64), ("int", _dtypes.int32),
                    ("short", _dtypes.int16), ("char", _dtypes.int8), ("byte", _dtypes.uint8),
                    ("bool", _dtypes.bool), ("bfloat16", _dtypes.bfloat16),
                    ("cfloat", _dtypes.complex64), ("cdouble", _dtypes.complex128)):
        setattr(Tensor, name, _caster(d))
    Tensor.new_ones = _new_factory(ones)
    Tensor.new_zeros = _new_factory(zeros)
    Tensor.new_empty = _new_factory(empty)
    Tensor.new_full = _new_full
    Tensor.new_empty_strided = _new_empty_strided
    Tensor.as_strided = _strided.as_strided_method
    Tensor.as_strided_ = _strided.as_strided_
    Tensor.as_strided_scatter = _strided.as_strided_scatter
    Tensor.new_tensor = _new_tensor
    Tensor.new = _new
    Tensor.output_nr = property(_output_nr)
    _random.install_tensor_methods()
    _python_maps.install_tensor_methods()
    _storage_methods.install_tensor_methods()


def _reversed_dims(self):
    if self.dim() not in (0, 2):
        warn_once("The use of `x.T` on tensors of dimension other than 2 to reverse their "
                  "shape is deprecated and it will throw an error in a future release. "
                  "Consider `x.mT` to transpose batches of matrices or `x.permute(*torch."
                  "arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.",
                  stacklevel=2)
    return _ops.permute(self, *reversed(range(self.dim())))


def _matrix_transpose(self):
    if not self.dim():
        return _deprecated_on_scalars(self, "Tensor.mT", "This function is the identity in "
                                                         "these cases.")
    if self.dim() < 2:
        raise RuntimeError(f"tensor.mT is only supported on matrices or batches of matrices. "
                           f"Got {self.dim()}-D tensor.")
    return _ops.transpose(self, -2, -1)


def _adjoint(self):
    return _conjugate_transposed(self, "Tensor.mH", "tensor.mH")


def adjoint(input):
    """torch.adjoint and Tensor.adjoint: the conjugate transpose of the last two dimensions."""
    return _conjugate_transposed(input, "adjoint()", "tensor.adjoint()")


def _conjugate_transposed(self, deprecated, name):
    if not self.dim():
        return _deprecated_on_scalars(self, deprecated, "Consider using x.conj().", 4)
    if self.dim() < 2:
        raise RuntimeError(f"{name} is only supported on matrices or batches of matrices. "
                           f"Got {self.dim()}-D tensor.")
    return _ops.conj(_ops.transpose(self, -2, -1))


def _conjugate_transpose(self):
    if not self.dim():
        return _deprecated_on_scalars(self, "Tensor.H", "Consider using x.conj().")
    if self.dim() != 2:
        advice = (" For batches of matrices, consider using tensor.mH" if self.dim() > 2
                  else "")
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got "
                           f"{self.dim()}-D tensor.{advice}")
    return _adjoint(self)


def _deprecated_on_scalars(self, subject, advice, stacklevel=3):
    warn_once(f"{subject} is deprecated on 0-D tensors. {advice}", stacklevel=stacklevel)
    return _ops.conj(self)


def _repr(self):
    if type(self._box) is InvalidatedBox:  # (its history is an error; PyTorch prints this)
        grad_fn_name = "Invalid"
    else:
        grad_fn = self.grad_fn
        grad_fn_name = None if grad_fn is None else type(grad_fn).__name__
    return format_tensor(self._data, self.dtype.name, requires_grad=self._box is not None,
                         grad_fn_name=grad_fn_name,
                         default_dtype=_dtypes.get_default_dtype().name)


def _caster(d):
    def cast(self, memory_format=preserve_format):
        return _ops.to_dtype(self, d, memory_format)
    cast.__name__ = d.name
    cast.__doc__ = f"This tensor as {d!r} (itself if it already is)."
    return cast


def _to(self, *args, **kwargs):
    """``to(dtype)``, ``to(device)``, ``to(device, dtype)`` or ``to(other_tensor)``, and
    `memory_format=`."""
    dtype = kwargs.pop("dtype", None)
    kwargs.pop("non_blocking", None)
    copy = kwargs.pop("copy", False)
    device = kwargs.pop("device", None)
    memory_format = kwargs.pop("memory_format", preserve_format)
    if kwargs:
        raise TypeError(f"to() got unexpected keyword arguments {sorted(kwargs)}")
    for arg in args:
        if isinstance(arg, Tensor):
            dtype = arg.dtype
        elif _device.is_device(arg):
            device = arg
        elif arg is not None:
            dtype = arg
    _device.check(device)
    result = _ops.to_dtype(self, self.dtype if dtype is None else dtype, memory_format)
    return _ops.clone(result) if copy and result is self else result


def _type_as(self, other):
    require_tensor(other, "type_as", "other", 1)
    return _ops.to_dtype(self, other.dtype)


def _type(self, dtype=None, non_blocking=False):
    """The legacy type name (``'torch.FloatTensor'``), or this tensor converted to `dtype`
    (a dtype, a legacy type class such as compat.DoubleTensor, or its name)."""
    if dtype is None:
        return f"torch.{self.dtype.legacy_name}"
    return _ops.to_dtype(self, dtype)


def _new_factory(factory):
    def new(self, *size, dtype=None, requires_grad=False, device=None):
        if not size:  # (PyTorch's message names the method)
            raise TypeError(f'new_{factory.__name__}() missing 1 required positional '
                            f'arguments: "size"')
        return factory(*size, dtype=dtype or self.dtype, requires_grad=requires_grad,
                       device=device)
    new.__name__ = "new_" + factory.__name__
    return new


def _new_empty_strided(self, size, stride, *, dtype=None, requires_grad=False, device=None):
    """An uninitialized tensor of `size` whose steps between elements are `stride`."""
    return empty_strided(size, stride, dtype=dtype or self.dtype, requires_grad=requires_grad,
                         device=device)


def _new_full(self, size, fill_value, *, dtype=None, requires_grad=False, device=None):
    return full(size, fill_value, dtype=dtype or self.dtype, requires_grad=requires_grad,
                device=device)


def _new_tensor(self, data, *, dtype=None, requires_grad=False, device=None):
    return tensor(data, dtype=dtype or self.dtype, requires_grad=requires_grad, device=device)



# PyTorch's C++ names of the dtypes, in its error for new() given a tensor of another dtype.
_CPP_NAMES = {"float32": "float", "float64": "double", "int64": "long int", "int32": "int",
              "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
              "bool": "bool", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
              "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}


def _tensor_options(dtype):
    return (f"TensorOptions(dtype={_CPP_NAMES[dtype.name]}, device=cpu, layout=Strided, "
            f"requires_grad=false (default), pinned_memory=false (default), "
            f"memory_format=(nullopt))")


def _new(self, *args, **kwargs):
    """The legacy constructor of this tensor's dtype: ``new()`` empty, ``new(2, 3)``
    uninitialised, ``new(sequence)`` a copy, ``new(tensor)`` an alias of a tensor of this
    dtype."""
    if args and isinstance(args[0], Tensor) and args[0].dtype is not self.dtype:
        raise TypeError(f"expected {_tensor_options(self.dtype)} (got "
                        f"{_tensor_options(args[0].dtype)})")
    return legacy_new(self.dtype, args, kwargs, "new")


def _output_nr(self):
    """Which output of its grad_fn this tensor is (0 for a leaf and most results; a piece's
    index for split's and unbind's)."""
    box = self._box
    if box is None or box.node.primitive is not tuple_get:
        return 0
    return box.node.params["index"]


_install()
