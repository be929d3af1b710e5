"""PyTorch's refusals of complex operands, for the operations it has no complex kernel for
(orderings, comparisons by size, rounding, most special functions): one check at each such
operation's entry, so that NumPy's lexicographic order of complex numbers (or a NumPy
TypeError) never stands where PyTorch raises.

A refusal is either the name of PyTorch's missing kernel (``"lt_cpu"``: its message then
names the operands' complex dtype) or an exception to raise as it is (`fixed`)."""
import numbers

import numpy as np

from . import _dtypes
from ._grad_mode import STATE
from ._record import result_type
from ._tensor import Tensor


def fixed(error_type, text):
    """A refusal with PyTorch's own sentence, whatever the dtype."""
    return lambda dtype: error_type(text)


def complex_dtype(operands):
    """The complex dtype PyTorch computes `operands` in (tensors and numbers; anything else
    is left out), or None where none of them is complex."""
    for x in operands:  # (a loop, not any(): the common case, none, is kept quick)
        if isinstance(x, Tensor) and x._data.dtype.kind == "c" or isinstance(
                x, (complex, np.complexfloating)):
            break
    else:
        return None
    return result_type(*[x for x in operands if isinstance(x, Tensor)
                         or isinstance(x, numbers.Number) and not isinstance(x, bool)])


def refuse_complex(refusal, *operands):
    """Raise PyTorch's error where `operands` compute in a complex dtype."""
    dtype = complex_dtype(operands)
    if dtype is None:
        return
    if isinstance(refusal, str):
        raise _dtypes.not_implemented_for(refusal, dtype)
    raise refusal(dtype)


def no_complex(refusal):
    """A torch-name row's check: `refuse_complex` over the call's arguments."""
    def check(*args, **kwargs):
        refuse_complex(refusal, *args, *kwargs.values())
    return check


# Shared by clamp and the functions PyTorch builds on it (relu, hardtanh, relu6, ...).
CLAMP = fixed(NotImplementedError, "clamp is not supported for complex types")


def refuse_complex_derivative(name, *tensors):
    """PyTorch's refusal to record `name` (a kernel without a complex derivative, such as
    embedding's) where its complex result would require grad."""
    if not STATE.enabled or not any(t is not None and t.requires_grad for t in tensors):
        return
    if complex_dtype(tensors) is not None:
        raise RuntimeError(f"{name} does not support automatic differentiation for outputs "
                           f"with complex dtype.")


def refuse_complex_into(output_dtype, *operands):
    """PyTorch's refusal to write the complex result of `operands` into an output of the
    real `output_dtype` (a loss that computes into its real input's dtype)."""
    dtype = complex_dtype(operands)
    if dtype is not None and not output_dtype.is_complex:
        raise RuntimeError(f"result type {dtype.scalar_name} can't be cast to the desired "
                           f"output type {output_dtype.scalar_name}")
