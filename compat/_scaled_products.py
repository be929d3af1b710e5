"""PyTorch's products with a beta and an alpha (addmm, addmv, addr, baddbmm, addbmm), rounded
as its CPU build's kernels (MKL) rounded them on the machine this was fitted on (on other
CPUs MKL takes other kernels, which round other last bits: docs/guide-compat.md): gemm
scales mat1 by alpha before the product and adds beta * input to it; gemv (a product of one
column) scales the vector, or the product where the product is a gemm of one column; small
batched products (contraction * rows * columns < 400) add alpha times the product; addr is
one fused multiply-add per element. beta = 0 ignores input (even NaN)."""
import numpy as np

import funcgrad.numpy as fnp
from funcgrad.core import dtype_of

from . import _fused
from ._ops import expanded_shape


def _check_input(input, shape):
    """PyTorch's errors for an `input` that does not expand to the product's `shape`."""
    expanded_shape(fnp.shape(input), shape, dtype_of(input))


def _plus_scaled_input(input, product, beta):
    """beta * input + product (beta = 0: the product, input's gradient zero)."""
    if beta == 0:
        return fnp.where(True, product, input)
    return (input if beta == 1 else input * beta) + product


def _scaled(x, alpha):
    return x if alpha == 1 else x * alpha


def _gemm(mat1, mat2, alpha):
    """alpha * mat1 @ mat2 as gemm rounds it (matrices, or stacks of them)."""
    if fnp.shape(mat2)[-1] == 1:  # one column: gemv, which scales the product
        return _scaled(fnp.matmul(mat1, mat2), alpha)
    return fnp.matmul(_scaled(mat1, alpha), mat2)


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    for name, matrix in (("mat1", mat1), ("mat2", mat2)):
        if fnp.ndim(matrix) != 2:
            raise RuntimeError(f"{name} must be a matrix, got {fnp.ndim(matrix)}-D tensor")
    (rows, contraction), (length, columns) = fnp.shape(mat1), fnp.shape(mat2)
    if contraction != length:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{contraction} "
                           f"and {length}x{columns})")
    _check_input(input, (rows, columns))
    return _plus_scaled_input(input, _gemm(mat1, mat2, alpha), beta)


def addmv(input, mat, vec, *, beta=1, alpha=1):
    (rows, columns), length = fnp.shape(mat), fnp.shape(vec)[0]
    if fnp.ndim(input) == 1 and (columns != length or fnp.shape(input)[0] not in (1, rows)):
        raise RuntimeError(f"size mismatch, got input ({fnp.shape(input)[0]}), mat "
                           f"({rows}x{columns}), vec ({length})")
    return _plus_scaled_input(input, fnp.matmul(mat, _scaled(vec, alpha)), beta)


def addr(input, vec1, vec2, *, beta=1, alpha=1):
    _check_input(input, (fnp.size(vec1), fnp.size(vec2)))
    column, row = fnp.expand_dims(vec1, 1), fnp.expand_dims(vec2, 0)
    if beta == 0:
        return _plus_scaled_input(input, _scaled(column, alpha) * row, beta)
    if not _fused.is_fused(dtype_of(input)):
        return _scaled(input, beta) + _scaled(column, alpha) * row
    return _fused.addcmul(_scaled(input, beta), column, row, alpha)


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    if fnp.ndim(batch1) != 3 or fnp.ndim(batch2) != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    (batch, rows, contraction), columns = fnp.shape(batch1), fnp.shape(batch2)[2]
    _check_input(input, (batch, rows, columns))
    if contraction * rows * fnp.shape(batch2)[2] < 400:  # PyTorch's own loop
        return _plus_scaled_input(input, _scaled(fnp.matmul(batch1, batch2), alpha), beta)
    return _plus_scaled_input(input, _gemm(batch1, batch2, alpha), beta)


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """addmm of each pair of matrices in turn, into beta * input (PyTorch's loop)."""
    _check_input(input, (fnp.shape(batch1)[1], fnp.shape(batch2)[2]))
    if fnp.shape(batch1)[0] == 0:
        return _plus_scaled_input(input, fnp.zeros(np.broadcast_shapes(
            fnp.shape(input), (fnp.shape(batch1)[1], fnp.shape(batch2)[2])),
            dtype_of(input)), beta)
    out = input
    for i in range(fnp.shape(batch1)[0]):
        out = _plus_scaled_input(out, _gemm(batch1[i], batch2[i], alpha), beta if i == 0 else 1)
    return out
