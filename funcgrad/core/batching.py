"""Batching: running a function on a whole batch at once, one trace level per `vmap`.

A `BatchTrace` watches values that carry a batch: a `BatchBox` holds the batched value and
`axis`, the position of the mapped axis in it; a value without one (a constant, or a value
of an outer transform) is simply not boxed by this trace. Seen from the function, a
box has its value's shape without the mapped axis (`shape`, `ndim`).

A primitive applied to batched values is handed to its batching rule (`defbatch`):

    rule(primitive, size, values, axes, params) -> (out, out_axis)

`values` are the arguments with this trace's boxes opened, `axes` the mapped axis of each
(None: not batched), `size` the batch size. The rule computes the whole batch with
primitives (so outer transforms record it, DESIGN.md decision 15) and says where the
batch sits in its result (`out_axis`: a tuple, one per part, for a primitive with several
results; None for a part that does not depend on the batch). A primitive without a rule
is run once per batch element and the results stacked: correct, slow, and reported once.

A `DiagonalBatchBox` is a batch known to be the identity's rows, as jacrev's and jacfwd's
bases are, or an elementwise function of them: it holds the diagonal and what is off it,
primitives with a diagonal rule (`defdiagonal`) compute on those alone, and any other
reader gets the dense batch.
"""
import warnings

import numpy as np

from . import errors
from .trace import Box, Trace
from .values import shape_of


_new = object.__new__


class BatchingFallbackWarning(UserWarning):
    """A primitive without a batching rule was run once per batch element."""


class BatchBox(Box):
    """A value watched by a batch trace: `value` holds the whole batch, mapped along
    `axis`. Its `shape` is that of one element of the batch."""

    __slots__ = ("axis",)

    def __init__(self, value, trace, axis):
        self.value = value
        self._trace = trace
        self.axis = axis

    @property
    def shape(self):
        shape = shape_of(self.value)
        return shape[:self.axis] + shape[self.axis + 1:]

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))


_dense_value = Box.value  # the slot that a DiagonalBatchBox fills when first read


class DiagonalBatchBox(BatchBox):
    """A batch of ``N = diagonal.size`` elements of ``diagonal``'s shape, element i equal
    to ``off_diagonal`` but at flat position i, which holds ``diagonal[i]`` (flat): the
    identity's rows, as jacrev's and jacfwd's bases are, and what elementwise functions
    make of them. Diagonal rules (`defdiagonal`) compute on the two arrays alone: O(N)
    for an elementwise function instead of O(N^2), and a matrix product by it is a scaling
    of the matrix instead of an O(N^3) product. Everything else reads `value`, the dense
    batch (batch axis 0), made on first read."""

    __slots__ = ("diagonal", "off_diagonal")

    @property
    def value(self):
        try:
            return _dense_value.__get__(self)
        except AttributeError:
            dense = _dense(self.diagonal, self.off_diagonal)
            _dense_value.__set__(self, dense)
            return dense

    shape = property(lambda self: self.diagonal.shape)
    dtype = property(lambda self: self.diagonal.dtype)


def _dense(diagonal, off_diagonal):
    """The batch a diagonal batch box stands for, batch axis 0."""
    count = diagonal.size
    if isinstance(diagonal, Box) or isinstance(off_diagonal, Box):
        # Traced arrays (jit's): a selection, recorded by their trace (np.where dispatches
        # to funcgrad.numpy's).
        identity = np.eye(count, dtype=bool).reshape((count,) + tuple(diagonal.shape))
        return np.where(identity, diagonal, off_diagonal)
    dense = np.empty((count, count), diagonal.dtype)
    dense[...] = off_diagonal.reshape(-1)
    dense.reshape(-1)[::count + 1] = diagonal.reshape(-1)
    return dense.reshape((count,) + diagonal.shape)


def diagonal_batch(trace, diagonal, off_diagonal):
    """The `DiagonalBatchBox` of arrays `diagonal` and `off_diagonal` (one shape and dtype;
    NumPy's, or a staging trace's boxes), watched by batch `trace`."""
    trace.diagonal = True
    box = _new(DiagonalBatchBox)
    box.diagonal = diagonal
    box.off_diagonal = off_diagonal
    box._trace = trace
    box.axis = 0
    return box


# The diagonal rule of each primitive that has one (see `defdiagonal`).
_diagonal_rules = {}


def defdiagonal(primitive, rule):
    """Give `primitive` a rule for diagonal batches: ``rule(primitive, trace, args,
    params)`` returns the result (a box of `trace`) computed from the arguments' two
    arrays, with the dense batch's values bit for bit, or None where it cannot (the
    structure does not survive, or the dense batch's bits depend on more than the rule
    knows): the batch is then computed dense, as any other."""
    _diagonal_rules[primitive] = rule


class BatchTrace(Trace):
    """One `vmap` call: a batch of `size` elements. `diagonal`: whether it watches a
    `DiagonalBatchBox`, whose rules are then tried first."""

    __slots__ = ("size", "diagonal")
    transform = "vmap"
    batches = True

    def __init__(self, level, size):
        super().__init__(level)
        self.size = size
        self.diagonal = False

    def process_primitive(self, primitive, args, params):
        if self.diagonal:
            rule = _diagonal_rules.get(primitive)
            out = None if rule is None else rule(primitive, self, args, params)
            if out is not None:
                return out
        values = []
        axes = []
        for arg in args:
            if isinstance(arg, BatchBox) and arg._trace is self:
                values.append(arg.value)
                axes.append(arg.axis)
            else:
                values.append(arg)
                axes.append(None)
        rule = primitive.batch_rule
        try:
            if rule is None:
                out, out_axis = loop_over_batch(primitive, self.size, values, axes, params)
            else:
                out, out_axis = rule(primitive, self.size, values, axes, params)
        except Exception as error:
            if not getattr(error, "_funcgrad_batch_noted", False):
                error.add_note(f"funcgrad: raised while batching '{primitive.name}' (vmap)")
                error._funcgrad_batch_noted = True
            raise
        if primitive.multiple_results:
            return tuple([part if axis is None else self.box(part, axis)
                          for part, axis in zip(out, out_axis)])
        return out if out_axis is None else self.box(out, out_axis)

    def box(self, value, axis):
        """`value` watched by this trace, batched along `axis`: built in place, without
        the __init__ frame (as `ReverseTrace.record`), once per batched primitive."""
        box = _new(BatchBox)
        box.value = value
        box._trace = self
        box.axis = axis
        return box

    def to_python(self, box, kind):
        raise errors.batched_conversion(kind)

    def rebox(self, box, value):
        """`box` with its value replaced by `value` (see `unbox_all`)."""
        return box if value is box.value else self.box(value, box.axis)


def defbatch(primitive, rule):
    """Give `primitive` its batching rule (see the module docstring)."""
    primitive.batch_rule = rule


# The names of the primitives already reported as run on the fallback loop.
_reported = set()


def loop_over_batch(primitive, size, values, axes, params):
    """The fallback: apply `primitive` to each element of the batch and stack the results
    along a new leading axis."""
    if primitive.name not in _reported:
        _reported.add(primitive.name)
        warnings.warn(
            f"funcgrad.vmap: primitive '{primitive.name}' has no batching rule, so it runs "
            f"once per batch element in a Python loop (correct but slow). Give it a rule with "
            f"funcgrad.core.defbatch.", BatchingFallbackWarning, stacklevel=4)
    if size == 0:
        raise ValueError(f"funcgrad.vmap: primitive '{primitive.name}' has no batching rule, "
                         f"and a batch of size 0 gives no element to run it on.")
    results = []
    for i in range(size):
        element = [value if axis is None else value[(slice(None),) * axis + (i,)]
                   for value, axis in zip(values, axes)]
        results.append(primitive(*element, **params))
    parts = results if primitive.multiple_results else [(r,) for r in results]
    if len({tuple(shape_of(part) for part in r) for r in parts}) > 1:
        raise ValueError(f"funcgrad.vmap: primitive '{primitive.name}' gives the elements of "
                         f"the batch results of different shapes, which cannot be stacked "
                         f"into one batched array.")
    if primitive.multiple_results:
        parts = tuple(np.stack([r[k] for r in results]) for k in range(len(results[0])))
        return parts, (0,) * len(parts)
    # np.stack dispatches to funcgrad.numpy's stack for traced values (__array_function__).
    return np.stack(results), 0
