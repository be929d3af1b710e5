"""F.linear: input @ weight.T + bias, recorded under the name of PyTorch's kernel."""
import numpy as np

import funcgrad.numpy as fnp

from .._quiet import quiet
from .._record import float_operand, wrap
from .._tensor import Tensor
from .._typename import typename


def linear(input, weight, bias=None):
    """input @ weight.T + bias, over the last dimension of `input`."""
    for position, (name, value) in enumerate((("input", input), ("weight", weight)), 1):
        if not isinstance(value, Tensor):
            raise TypeError(f"linear(): argument '{name}' (position {position}) must be "
                            f"Tensor, not {typename(value)}")
    if not input.dim() or not weight.dim():
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are "
                           f"{input.dim()}D and {weight.dim()}D")
    if input.dtype is not weight.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got "
                           f"{input.dtype.scalar_name} and {weight.dtype.scalar_name}")
    shape = input._data.shape
    rows = int(np.prod(shape[:-1], dtype=np.int64)) if shape else 1
    out_features, in_features = weight._data.shape
    if not shape or shape[-1] != in_features:
        columns = shape[-1] if shape else 1
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{columns} and "
                           f"{in_features}x{out_features})")
    edges = (input, weight) if bias is None else (bias, input, weight)
    out = quiet().run(_affine, float_operand(input), float_operand(weight),
                      None if bias is None else float_operand(bias))
    if len(shape) == 2:
        label = "MmBackward0" if bias is None else "AddmmBackward0"
    elif len(shape) == 1 and bias is None:
        label = "SqueezeBackward4"
    else:
        label = "UnsafeViewBackward0" if bias is None else "ViewBackward0"
    return wrap(out, label, edges)


def _affine(x, w, b):
    out = fnp.matmul(x, fnp.transpose(w))
    return out if b is None else fnp.add(out, b)
