"""Complex tensors built from real ones: torch.complex, torch.polar, torch.view_as_complex
(computed on funcgrad values, for the rows of `_torch_names`), with PyTorch's checks."""
import numpy as np

import funcgrad.numpy as fnp
from funcgrad.core import unbox_all

from . import _dtypes
from ._record import broadcast_error
from ._tensor import Tensor

_COMPLEX = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128}
_NAMES = {"float16": "Half", "float32": "Float", "float64": "Double", "int64": "Long",
          "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool",
          "complex64": "ComplexFloat", "complex128": "ComplexDouble"}


def complex_from_parts(real, imag):
    """real + i imag, exactly (``imag * 1j`` would make NaN real parts of infinite imaginary
    ones): the infinite or NaN imaginary parts are added as a constant, so the gradient
    reaches every real part and the finite imaginary ones."""
    kind = _COMPLEX[unbox_all(real).dtype]
    imag_values = unbox_all(imag)
    finite = np.isfinite(imag_values)
    rest = np.zeros(np.broadcast_shapes(np.shape(imag_values), np.shape(unbox_all(real))),
                    kind)
    rest.imag = np.where(finite, 0, imag_values)
    return real + fnp.where(finite, imag, 0) * kind(1j) + rest


def polar(abs, angle):
    """abs (cos angle + i sin angle). PyTorch's node saves the result alone (its gradient
    is computed from it), so updating abs or angle in place before backward is no error:
    the parts are computed from copies of them, which the rules keep instead."""
    abs, angle = fnp.positive(abs), fnp.positive(angle)
    return complex_from_parts(abs * fnp.cos(angle), abs * fnp.sin(angle))


def view_as_complex(x):
    return complex_from_parts(x[..., 0], x[..., 1])


def check_polar(abs, angle, **kwargs):
    """polar's checks: complex's, but PyTorch's polar has no float16 kernel."""
    if abs.dtype.numpy == np.float16 == angle.dtype.numpy:
        raise _dtypes.not_implemented_for("polar_cpu", abs.dtype)
    check_parts(abs, angle)


def check_parts(first, second, **kwargs):
    """complex's and polar's checks: two float32 or float64 tensors of one dtype."""
    a, b = first.dtype.numpy, second.dtype.numpy
    if a.kind != "f" or b.kind != "f":
        raise RuntimeError(f"Expected both inputs to be Half, Float or Double tensors but got "
                           f"{_NAMES[a.name]} and {_NAMES[b.name]}")
    if a != b:
        raise RuntimeError(f"Expected object of scalar type {_NAMES[a.name]} but got scalar "
                           f"type {_NAMES[b.name]} for second argument")
    _refuse_half(a)
    clash = broadcast_error(tuple(first.shape), tuple(second.shape))
    if clash:
        raise RuntimeError(clash)


def _refuse_half(dtype):
    if dtype == np.float16:
        raise TypeError("compat has no complex32 (chalf): build complex tensors from float32 "
                        "or float64 ones")


def check_view_as_real(x):
    """PyTorch's condition for reading complex numbers as pairs of floats."""
    if isinstance(x, Tensor) and not x.dtype.is_complex:
        raise RuntimeError("view_as_real is only supported for complex tensors")


def check_imag(x):
    """PyTorch's imag is of complex tensors only (real's is of any)."""
    if isinstance(x, Tensor) and not x.dtype.is_complex:
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")


def check_view_as_complex(x):
    """PyTorch's conditions for reading pairs of floats as complex numbers in place."""
    if not isinstance(x, Tensor):
        raise TypeError(f"view_as_complex(): argument 'input' must be Tensor, not "
                        f"{type(x).__name__}")
    dtype = x.dtype.numpy
    if dtype.kind != "f":
        raise RuntimeError(f"view_as_complex is only supported for half, float and double "
                           f"tensors, but got a tensor of scalar type: {_NAMES[dtype.name]}")
    if x.dim() == 0:
        raise RuntimeError("Input tensor must have one or more dimensions")
    if x.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    strides = x.stride()
    if strides[-1] != 1:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    # (A dim of one element is never stepped along: its stride is free.)
    if any(stride % 2 for size, stride in zip(x.shape[:-1], strides[:-1]) if size != 1):
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last "
                           "dimension")
    if x.storage_offset() % 2:
        raise RuntimeError("Tensor must have a storage_offset divisible by 2")
    _refuse_half(dtype)
