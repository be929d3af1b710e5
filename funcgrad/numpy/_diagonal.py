"""Diagonal rules: primitives on jacrev's and jacfwd's basis that keep it diagonal.

A `DiagonalBatchBox` is a batch whose element i is the array ``off_diagonal`` but at flat
position i, where it holds ``diagonal[i]`` (see `funcgrad.core.batching`); the identity's
rows have ``off_diagonal`` zero and ``diagonal`` one. A rule computes a primitive from
those two arrays and constants of the batch (NumPy arrays and numbers, computed with
NumPy directly; or values of an enclosing jit, computed with the primitive, which jit
records), and gives the dense batch's values bit for bit: an elementwise function computes
each element from the same operands either way, NaNs and signed zeros included (0 * inf
off the diagonal is in ``off_diagonal``). Under jit the two arrays are jit's values and
what a rule decides from them is a guard, so jit's program computes what eager funcgrad
does. A rule returns None where it cannot (the boxes of any other transform among the
operands); the batch is then computed dense. Each primitive's rule is registered beside
its batching rule.
"""
import cmath

import numpy as np

from ..core import PYTHON_NUMBERS, BatchBox, Box, DiagonalBatchBox, diagonal_batch


def _diagonal_box(x, trace):
    return x if type(x) is DiagonalBatchBox and x._trace is trace else None


def elementwise(primitive, trace, args, params):
    """A broadcasting elementwise function (a ufunc, a cast, where): element i of the
    result is the function of element i of each operand. Of diagonal batches and
    constants that broadcast to the batch's element shape, the result is diagonal (the
    function of the diagonals, and of what is off them); of a diagonal batch and a dense
    one, it is dense, computed without making the diagonal batch dense first."""
    if len(args) == 2 and not params:  # the common case, first: a product by a constant
        a, b = args
        box_a, box_b = _diagonal_box(a, trace), _diagonal_box(b, trace)
        if box_a is not None and box_b is None:
            if _constant_within(b, box_a.diagonal.shape):
                function = _applied(primitive, b, box_a.diagonal, box_a.off_diagonal)
                return diagonal_batch(trace, function(box_a.diagonal, b),
                                      function(box_a.off_diagonal, b))
            return _with_dense(primitive.impl, trace, box_a, b, True)
        if box_b is not None and box_a is None:
            if _constant_within(a, box_b.diagonal.shape):
                function = _applied(primitive, a, box_b.diagonal, box_b.off_diagonal)
                return diagonal_batch(trace, function(a, box_b.diagonal),
                                      function(a, box_b.off_diagonal))
            return _with_dense(primitive.impl, trace, box_b, a, False)
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
    function = _applied(primitive, *diagonals, *off_diagonals)
    return diagonal_batch(trace, function(*diagonals, **params),
                          function(*off_diagonals, **params))


def _applied(primitive, *arrays):
    """What computes `primitive` on `arrays`: NumPy's function where all are NumPy's,
    else the primitive (jit records it)."""
    for x in arrays:  # (a loop: any() of a generator would cost a call per primitive)
        if isinstance(x, Box):
            return primitive
    return primitive.impl


def _constant_within(x, shape):
    """Whether `x` is a constant of the batch (a NumPy array or number, or a value of an
    enclosing jit) that broadcasts to `shape` without enlarging it."""
    if type(x) is np.ndarray or (isinstance(x, Box) and x.staged):
        return x.shape == shape or _fits(tuple(x.shape), shape)
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
    if not (type(values) is type(box.diagonal) is type(box.off_diagonal) is np.ndarray):
        return None  # (jit's values: the dense path, which jit records)
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


def total(primitive, trace, args, params):
    """A sum over every axis of the element: element i sums diagonal[i] and zeros, which
    is diagonal[i] itself unless it is zero (then the zero sum's sign depends on the
    order of the summation): the diagonal, as a batch of numbers."""
    box = _diagonal_box(args[0], trace)
    if box is None or sorted(params["axes"]) != list(range(box.diagonal.ndim)) \
            or box.dtype.kind not in "fc":
        return None
    diagonal = box.diagonal
    if _any_nonzero(box.off_diagonal) or not _all_nonzero(diagonal):
        return None
    out = np.copy(diagonal.reshape(-1))  # (a result of its own, as the sum's)
    if params["keepdims"]:
        out = out.reshape((diagonal.size,) + (1,) * diagonal.ndim)
    return trace.box(out, 0)


def matrix_product(primitive, trace, args, params):
    """A diagonal batch of vectors with zeros off the diagonal, times a constant matrix or
    vector (or a constant matrix times it): element i is diagonal[i] times row i (column
    i) of the matrix, without the O(N^3) product. The dense product sums that product and
    zeros, which leave it as it is unless it is zero (then the sign of the zero sum is
    the BLAS kernel's to choose) or not finite (an infinite entry of the matrix times
    the other rows' zeros is NaN): both are declined."""
    a, b = args
    box_a, box_b = _diagonal_box(a, trace), _diagonal_box(b, trace)
    if box_a is not None and box_b is None and box_a.diagonal.ndim == 1 \
            and _constant(b) and 1 <= b.ndim <= 2 and b.shape[0] == box_a.diagonal.size:
        box = box_a
        out = box.diagonal[:, None] * b if b.ndim == 2 else box.diagonal * b
    elif box_b is not None and box_a is None and box_b.diagonal.ndim == 1 \
            and _constant(a) and a.ndim == 2 and a.shape[1] == box_b.diagonal.size:
        box = box_b
        out = a.T * box.diagonal[:, None]
    else:
        return None
    if _any_nonzero(box.off_diagonal) or not (_all_finite(out) and _all_nonzero(out)):
        return None
    return trace.box(out, 0)


def _constant(x):
    """Whether `x` is a NumPy array, or a value of an enclosing jit."""
    return type(x) is np.ndarray or (isinstance(x, Box) and x.staged)


# Tests of a rule's values. Of jit's values, each reduces them to a number, which jit
# records, and its answer is a guard on that number (NumPy's count_nonzero would read the
# whole array: a guard comparing all of it).

def _any_nonzero(x):
    """Whether an element of `x` is not zero (a NaN is not)."""
    if isinstance(x, Box):
        return bool(np.abs(x).max() != 0)
    return bool(np.count_nonzero(x))  # (NumPy's cheapest test for any nonzero element)


def _all_nonzero(x):
    """Whether no element of `x` is zero (of jit's values, a NaN counts as a zero: the
    rule declines, which costs only the dense computation)."""
    if isinstance(x, Box):
        return bool(np.abs(x).min() > 0)
    return np.count_nonzero(x) == x.size


def _all_finite(x):
    """Whether every element of `x` is finite: the sum of their squares is (one pass; an
    overflowing sum declines too, which only costs the dense computation)."""
    flat = x.reshape(-1)
    if isinstance(x, Box):
        return bool(np.isfinite(flat.dot(flat)))
    return cmath.isfinite(flat.dot(flat))
