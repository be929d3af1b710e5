"""The scatters of PyTorch's views: slice_scatter, select_scatter and diagonal_scatter
(and `_strided`'s as_strided_scatter) return a copy of the input whose elements that the
view would select are `src`'s. Each is written as funcgrad's ``at(x)[positions].set(src)``
on the flat input, so the gradient is the input's outside the view and src's inside it
(funcgrad's rule).

The computes take the tensors' values (boxes or arrays), as the table's rows give them.
"""
import numpy as np

import funcgrad.numpy as fnp
from funcgrad.core import Box, dtype_of, unbox_all

from . import _gathering, _layout
from ._dim_args import checked_dims


def _element_numbers(x):
    """Each element's flat (row-major) number, in x's shape."""
    return np.arange(fnp.size(x)).reshape(fnp.shape(x))


def written(x, src, positions):
    """x with `src` written at the flat `positions` (an array of the view's shape)."""
    if tuple(fnp.shape(src)) != positions.shape:
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size "
                           f"= {list(fnp.shape(src))}, slice size = {list(positions.shape)}")
    flat = fnp.at(fnp.reshape(x, (-1,)))[positions].set(fnp.astype(src, dtype_of(x)))
    return fnp.reshape(flat, fnp.shape(x))


def slice_index(x, dim, start, end, step):
    """The index of PyTorch's slice of x (an array or a box) along `dim`, with its errors."""
    if not fnp.shape(x):
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    axis = checked_dims(x, dim)
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    return (slice(None),) * axis + (slice(start, end, step),)


def slice_scatter(x, src, dim=0, start=None, end=None, step=1):
    return written(x, src, _element_numbers(x)[slice_index(x, dim, start, end, step)])


def select_scatter(x, src, dim, index):
    return written(x, src, _gathering.select(_element_numbers(x), dim, index))


def diagonal(x, offset=0, dim1=0, dim2=1):
    """fnp.diagonal (its derivative) with PyTorch's errors, its values a view of x's: as
    PyTorch's diagonal, the result shares its input's storage (writes go through)."""
    first, second = checked_dims(x, dim1), checked_dims(x, dim2)
    if first == second:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    out = fnp.diagonal(x, offset, first, second)
    view = _layout.diagonal_view(unbox_all(x), offset, first, second)
    if isinstance(out, Box):
        out.value = view
        return out
    return view


def diagonal_scatter(x, src, offset=0, dim1=0, dim2=1):
    return written(x, src, np.asarray(diagonal(_element_numbers(x), offset, dim1, dim2)))
