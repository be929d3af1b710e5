"""Diagonal rules: primitives on jacrev's and jacfwd's basis that keep it diagonal.

A `DiagonalBatchBox` is a batch whose element i is the array ``off_diagonal`` but at flat
position i, where it holds ``diagonal[i]`` (see `funcgrad.core.batching`); the identity's
rows have ``off_diagonal`` zero and ``diagonal`` one. A rule computes a primitive from
those two arrays and plain operands (NumPy arrays and numbers, no trace's boxes) in NumPy
directly, and gives the dense batch's values bit for bit: an elementwise function computes
each element from the same operands either way, NaNs and signed zeros included (0 * inf
off the diagonal is in ``off_diagonal``). A rule returns None where it cannot; the batch is
then computed dense. Each primitive's rule is registered beside its batching rule.
"""
import cmath

import numpy as np

from ..core import PYTHON_NUMBERS, BatchBox, DiagonalBatchBox, diagonal_batch


def _diagonal_box(x, trace):
    return x if type(x) is DiagonalBatchBox and x._trace is trace else None


def elementwise(primitive, trace, args, params):
    """A broadcasting elementwise function (a ufunc, a cast, where): element i of the
    result is the function of element i of each operand. Of diagonal batches and
    constants that broadcast to the batch's element shape, the result is diagonal (the
    function of the diagonals, and of what is off them); of a diagonal batch and a dense
    one, it is dense, computed without making the diagonal batch dense first."""
    function = primitive.impl
    if len(args) == 2 and not params:  # the common case, first: a product by a constant
        a, b = args
        box_a, box_b = _diagonal_box(a, trace), _diagonal_box(b, trace)
        if box_a is not None and box_b is None:
            if _constant_within(b, box_a.diagonal.shape):
                return diagonal_batch(trace, function(box_a.diagonal, b),
                                      function(box_a.off_diagonal, b))
            return _with_dense(function, trace, box_a, b, True)
        if box_b is not None and box_a is None:
            if _constant_within(a, box_b.diagonal.shape):
                return diagonal_batch(trace, function(a, box_b.diagonal),
                                      function(a, box_b.off_diagonal))
            return _with_dense(function, trace, box_b, a, False)
    shape = None
    diagonals, off_diagonals = [], []
    for x in args:
        box = _diagonal_box(x, trace)
        if box is None:
            diagonals.append(x)
            off_diagonals.append(x)
        elif shape is None or box.diagonal.shape == shape:
            shape = box.diagonal.shape
            diagonals.append(box.diagonal)
            off_diagonals.append(box.off_diagonal)
        else:
            return None
    if shape is None or not all(_diagonal_box(x, trace) is not None
                                or _constant_within(x, shape) for x in args):
        return None
    return diagonal_batch(trace, function(*diagonals, **params),
                          function(*off_diagonals, **params))


def _constant_within(x, shape):
    """Whether `x` is a constant (a NumPy array or number, no trace's box) that broadcasts
    to `shape` without enlarging it."""
    if type(x) is np.ndarray:
        return x.shape == shape or _fits(x.shape, shape)
    return type(x) in PYTHON_NUMBERS or isinstance(x, np.generic)


def _fits(shape, into):
    """Whether an operand of `shape` broadcasts to `into` without enlarging it."""
    return len(shape) <= len(into) and all(
        n == 1 or n == m for n, m in zip(shape[::-1], into[::-1]))


def _with_dense(function, trace, box, dense, first):
    """Ufunc `function` of a diagonal batch and a dense batch of the same element shape
    (in that order if `first`): what is off the diagonal against the dense values, then
    the diagonal against theirs, into one new array (batch axis 0)."""
    if not (isinstance(dense, BatchBox) and dense._trace is trace) \
            or dense.shape != box.diagonal.shape or type(function) is not np.ufunc:
        return None
    values = dense.value
    if type(values) is not np.ndarray:
        return None
    if dense.axis:
        values = np.moveaxis(values, dense.axis, 0)
    count = box.diagonal.size
    diagonal = box.diagonal.reshape(-1)
    theirs = np.diagonal(values.reshape(count, count))  # element i's value at position i
    operands = (box.off_diagonal, values) if first else (values, box.off_diagonal)
    out = function(*operands, order="C")
    # Element i's position i, a view: out is a new C-order array.
    out.reshape(-1)[::count + 1] = function(diagonal, theirs) if first else function(
        theirs, diagonal)
    return trace.box(out, 0)


def reshape(primitive, trace, args, params):
    """A C-order reshape keeps each element's flat positions: both arrays reshaped."""
    box = _diagonal_box(args[0], trace)
    if box is None or params["order"] != "C":
        return None
    shape = params["shape"]
    if np.prod(shape, dtype=np.int64) != box.diagonal.size:
        return None
    return diagonal_batch(trace, box.diagonal.reshape(shape), box.off_diagonal.reshape(shape))


def matrix_product(primitive, trace, args, params):
    """A diagonal batch of vectors with zeros off the diagonal, times a plain matrix or
    vector (or a plain matrix times it): element i is diagonal[i] times row i (column i)
    of the matrix, without the O(N^3) product. The dense product sums that product and
    zeros, which leave it as it is unless it is zero (then the sign of the zero sum is
    the BLAS kernel's to choose) or not finite (an infinite entry of the matrix times
    the other rows' zeros is NaN): both are declined."""
    a, b = args
    box_a, box_b = _diagonal_box(a, trace), _diagonal_box(b, trace)
    if box_a is not None and box_b is None and box_a.diagonal.ndim == 1 \
            and type(b) is np.ndarray and 1 <= b.ndim <= 2 and b.shape[0] == box_a.diagonal.size:
        box = box_a
        out = box.diagonal[:, None] * b if b.ndim == 2 else box.diagonal * b
    elif box_b is not None and box_a is None and box_b.diagonal.ndim == 1 \
            and type(a) is np.ndarray and a.ndim == 2 and a.shape[1] == box_b.diagonal.size:
        box = box_b
        out = a.T * box.diagonal[:, None]
    else:
        return None
    # (count_nonzero: NumPy's cheapest test for any nonzero element)
    if np.count_nonzero(box.off_diagonal) or not _finite_and_nonzero(out):
        return None
    return trace.box(out, 0)


def _finite_and_nonzero(x):
    flat = x.reshape(-1)
    return cmath.isfinite(flat.dot(flat)) and np.count_nonzero(flat) == flat.size
