"""F.linear: input @ weight.T + bias, built from compat's products and views as PyTorch
composes it, so that its graph (grad_fn and next_functions) and saved tensors are PyTorch's."""
import numpy as np

import funcgrad.numpy as fnp

from .. import _dtypes, _ops, _scaled_products
from .._quiet import quiet
from .._record import engine, wrap
from .._tensor import require_tensor
from .._torch_names import FUNCTIONS


def linear(input, weight, bias=None):
    """input @ weight.T + bias, over the last dimension of `input`."""
    require_tensor(input, "linear", "input", 1)
    require_tensor(weight, "linear", "weight", 2)
    if not input.dim() or not weight.dim():
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are "
                           f"{input.dim()}D and {weight.dim()}D")
    if input.dtype is not weight.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got "
                           f"{input.dtype.scalar_name} and {weight.dtype.scalar_name}")
    if weight.dim() != 2:  # a vector (or PyTorch's t() error): PyTorch's composition
        weight_t = _ops.t(weight)
        if bias is not None and (input.dim() == 2 or (input.is_contiguous()
                                                      and bias.dim() == 1)):
            return FUNCTIONS["addmm"](bias, input.reshape(-1, input.shape[-1]), weight_t)
        out = _ops.matmul(input, weight_t)
        return out if bias is None else _ops.add(out, bias)
    shape = input._data.shape
    rows = int(np.prod(shape[:-1], dtype=np.int64)) if shape else 1
    out_features, in_features = weight._data.shape
    if not shape or shape[-1] != in_features:
        columns = shape[-1] if shape else 1
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{columns} and "
                           f"{in_features}x{out_features})")
    weight_t = _ops.t(weight)
    if len(shape) == 2 and bias is not None:
        return _addmm(bias, input, weight_t)
    if bias is not None and input.is_contiguous():
        # PyTorch's fused path: the rows flattened into one matrix, one addmm, a view back.
        flat = _ops.view(input, rows, in_features)
        return _ops.view(_addmm(bias, flat, weight_t), *shape[:-1], out_features)
    # Otherwise PyTorch's matmul, then the bias added.
    out = _matmul_folded(input, weight_t, rows) if len(shape) > 2 else \
        _ops.matmul(input, weight_t)
    return out if bias is None else _ops.add(out, bias)


def _addmm(bias, matrix, weight_t):
    """torch.addmm(bias, matrix, weight_t), recorded directly where the dtypes agree: the
    table's dispatch would cost a small layer's forward and backward a tenth more."""
    if bias.dtype is not matrix.dtype or matrix.dtype is _dtypes.bool:  # (the table
        return FUNCTIONS["addmm"](bias, matrix, weight_t)  # raises PyTorch's errors)
    out = quiet().run(_scaled_products.addmm, engine(bias), engine(matrix), engine(weight_t))
    return wrap(out, "AddmmBackward0", (bias, matrix, weight_t))


def _matmul_folded(input, matrix, rows):
    """input @ matrix for an input of 3 or more dimensions as PyTorch's matmul records it:
    the batch folded into the rows of one matrix (a reshape), one mm, and an unsafe view
    back (no view of the product)."""
    product = _ops.mm(_ops.reshape(input, rows, input._data.shape[-1]), matrix)
    shape = input._data.shape[:-1] + product._data.shape[-1:]
    return wrap(quiet().run(fnp.reshape, engine(product), shape), "UnsafeViewBackward0",
                (product,))
