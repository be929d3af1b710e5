"""In-place operations: ``t.add_(...)``, ``t += ...``, fill_, copy_, zero_, ...

An in-place operation computes its out-of-place counterpart and writes the result into the
tensor's storage, which views and aliases share. When recorded, the tensor's history moves
to the new node; the update of a view is recorded as an update of its base (PyTorch's
CopySlices), from which the view is read back. Values saved for backward are protected
two ways: the node that made the tensor keeps a private copy of the values it holds
(copy-on-write), and every node that saved the tensor as an input notes its version, so
a backward pass through it after the modification raises PyTorch's error.
"""

import warnings

import numpy as np

import funcgrad
import funcgrad.numpy as fnp
from funcgrad.core import ZERO, ArgVJP, Primitive, ReverseBox, defvjp
from funcgrad.numpy._base import unbroadcast

from . import _dtypes, _record
from ._complex_refusals import fixed, refuse_complex
from ._grad_mode import STATE, refuse_inference_update
from ._layout import memory_owner, positions_in
from ._ops import (abs, add, bitwise_and, bitwise_left_shift, bitwise_not, bitwise_or,
                   bitwise_right_shift, bitwise_xor, clamp, clamp_max, clamp_min,
                   conj_physical_op, cos, cumsum, div, eq, exp, floor_divide, ge, gt, le, log,
                   logical_not, lt, masked_fill, mul, ne, neg, number_argument, pow,
                   reciprocal, relu, remainder, sigmoid, sin, sqrt, square, squeeze, sub, t,
                   tanh, to_dtype, transpose, unsqueeze)
from ._quiet import quiet
from ._record import broadcast_error, edge, engine, new_nodes, operand, wrap
from ._tape import ALIAS_OF, TAPE, VERSION, InvalidatedBox, privatize, retie_saved
from ._tensor import Tensor, make, views_of
from . import _view_modes


def check_inplace(t, recording, view_message=False):
    refuse_inference_update(t, view_message)
    if not recording:
        return
    _view_modes.refuse_update(t)
    if t._box is not None and not t._box.node.parents:
        what = "a view of a leaf Variable" if view_message else "a leaf Variable"
        raise RuntimeError(f"{what} that requires grad is being used in an in-place "
                           f"operation.")
    base = t._base
    if base is not None and base._box is not None and not base._box.node.parents:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an "
                           "in-place operation.")


def refuse_overlap(t, arrays):
    """PyTorch's refusals of an update of `t` from `arrays`: when elements of t share memory
    (an expand's), or one of the arrays partly overlaps t (the same memory laid out
    otherwise)."""
    data = t._data
    if _internally_overlaps(data):
        raise RuntimeError(SHARED_ELEMENTS)
    refuse_partial_overlap(data, arrays)


def warn_if_expanded(t, operation, example):
    """PyTorch's deprecation warning for `operation` writing a tensor whose elements share
    memory (an expand's), which it still writes."""
    if _internally_overlaps(t._data):
        warnings.warn(f"Use of {operation} on expanded tensors is deprecated. Please clone() "
                      f"the tensor before performing this operation. This also applies to "
                      f"advanced indexing e.g. {example}", UserWarning, stacklevel=3)


SHARED_ELEMENTS = ("unsupported operation: more than one element of the written-to tensor "
                    "refers to a single memory location. Please clone() the tensor before "
                    "performing the operation.")


def refuse_partial_overlap(data, arrays):
    for array in arrays:
        if array is not data and _partly_overlaps(data, array):
            raise RuntimeError("unsupported operation: some elements of the input tensor and "
                               "the written-to tensor refer to a single memory location. "
                               "Please clone() the tensor before performing the operation.")


def _internally_overlaps(array):
    """Whether elements of `array` share memory (none do when it has no elements, whose
    strides NumPy may give as 0)."""
    strides = array.strides
    if 0 not in strides:  # the common case, without a generator (~0.4 us)
        return False
    return array.size > 0 and any(stride == 0 and size > 1
                                  for size, stride in zip(array.shape, strides))


def _partly_overlaps(a, b):
    """Whether `a` and `b` (two array objects) share memory but not as the same elements in
    the same layout. As PyTorch, only dense arrays are compared (others are not refused)."""
    if a.flags.owndata and b.flags.owndata:  # two allocations (an SGD step's): ~0.2 us less
        return False
    if a.size == 0 or b.size == 0 or not np.may_share_memory(a, b):
        return False
    if not (_dense(a) and _dense(b)):
        return False
    a_start = a.__array_interface__["data"][0]
    b_start = b.__array_interface__["data"][0]
    if a_start == b_start and a.nbytes == b.nbytes:
        return a.ndim != b.ndim or any(
            x != y for size, x, y in zip(a.shape, a.strides, b.strides) if size > 1)
    return a_start < b_start + b.nbytes and b_start < a_start + a.nbytes


def _dense(array):
    """Whether `array`'s elements fill its memory without gaps or repeats, in some order."""
    expected = array.itemsize
    for stride, size in sorted((s, n) for n, s in zip(array.shape, array.strides) if n > 1):
        if stride != expected:
            return False
        expected *= size
    return True


def alias_of(t):
    """A stand-in for `t` as the input of its own in-place update: same values and
    history, but a version counter of its own (so the update does not invalidate itself).
    A view's values are read from its base's history, as PyTorch's CopySlices updates the
    base's part: the view's own node, and the hooks registered on it, are off the update's
    path (they see only the gradient of what used the view before the update)."""
    box = t._box
    base = t._base
    if box is not None and base is not None and base._box is not None:
        return _read_from_base(t, base, fnp.reshape(engine(base), (-1,)))
    return make(t._data, None if box is None else TAPE.box(t._data, box.node))


def _read_from_base(view, base, flat):
    """`view`'s elements read from `base`'s history, `flat` (PyTorch's
    AsStridedBackward0); the real or imaginary parts of a complex base's, for its .real
    and .imag."""
    positions = positions_in(view._data, base._data)
    values = fnp.getitem(flat, positions)
    if view._data.dtype.kind != "c" and base._data.dtype.kind == "c":
        values = fnp.imag(values) if _offset_in_element(view._data, base._data) \
            else fnp.real(values)
    return wrap(values, "AsStridedBackward0", (base,))


def _offset_in_element(view, base):
    """How many bytes into one of `base`'s elements `view` starts (an imaginary part's:
    half a complex element)."""
    start = view.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    return start % base.itemsize


def keep_held_values(t):
    """Before t's memory is written (copy-on-write): the nodes that hold it keep private
    copies of what they saw. They are t's node, its base's (a view writes the base's
    memory) and, for an alias made by detach() or .data, those of the tensor it shares its
    array with; what PyTorch also saves is then refused by the version checks, and what
    funcgrad's rule alone holds (a quotient, for the divisor's derivative) stays right."""
    holders = [t, t._base]
    source = t._version_counter.get(ALIAS_OF)
    if source is not None:
        source = source()
        if source is not None:
            holders += [source, source._base]
    for holder in holders:  # (an invalidated piece's node is out of reach, and holds nothing)
        if holder is not None and type(holder._box) is ReverseBox:
            privatize(holder._box.node, holder._data)


def count_update(t):
    """Count an in-place update of t's storage (its version), which ends the use of the
    history of its views made in a mode (`_view_modes`: pieces, views made in no_grad
    mode) if their base requires grad."""
    t._version_counter[VERSION] += 1
    _view_modes.after_update(t)


def write(t, values, index=None, written=None):
    """Overwrite t's storage (at `index`) and count the modification. Where t's array is a
    read-only view of an expand's (NumPy's broadcast views are; PyTorch writes them), the
    memory it views is written, the elements `written` marks (all if None) last."""
    keep_held_values(t)
    if isinstance(values, (int, float, complex)):  # (cast as C++ casts: -1 into uint8 is
        values = np.asarray(values)                 # 255, where NumPy refuses the number)
    if isinstance(values, np.ndarray) and values.dtype.kind == "c" and t._data.dtype.kind in "iuf":
        values = _record.discard_imaginary(values)
    try:
        if not t._data.flags.writeable:
            _write_through_owner(t._data, values, index, written)
        elif index is None:
            np.copyto(t._data, values, casting="unsafe")
        else:
            t._data[index] = values
    except ValueError as error:
        if not t._data.flags.writeable:
            raise RuntimeError(SHARED_ELEMENTS) from None
        raise RuntimeError(str(error)) from None
    count_update(t)


def _write_through_owner(data, values, index, written):
    """Write `values` into ``data[index]`` (all of data if `index` is None) through the
    array that owns data's memory (a detach()ed view has no base tensor to write through).
    Where the selected elements share memory, the last write of a position wins."""
    owner = memory_owner(data)
    if not owner.flags.writeable:
        raise ValueError("read-only memory")
    positions = positions_in(data, owner)
    if index is not None:
        positions = positions[index]
    values = np.broadcast_to(values, positions.shape).ravel()
    positions = positions.ravel()
    if written is not None:  # written elements last
        order = np.argsort(np.broadcast_to(written, data.shape).ravel(), kind="stable")
        positions, values = positions[order], values[order]
    np.put(owner, positions, values)


def refuse_shared_selection(t, index, basic):
    """Whether elements of t share memory (an expand's, whose memory PyTorch writes); a
    `basic` index (no index arrays) selecting elements that share memory is refused, as
    PyTorch refuses it."""
    data = t._data
    if not _internally_overlaps(data):
        return False
    targets = positions_in(data, memory_owner(data))[index]
    if basic and np.unique(targets).size < targets.size:
        raise RuntimeError(SHARED_ELEMENTS)
    return True


def _computed_in_place(ufunc, t, args, kwargs):
    """``ufunc(t, other, out=t)`` for an unrecorded ``t.op_(other)``, where other is a float
    tensor of t's shape and dtype or a float, so that the out-of-place result has t's shape
    and dtype and would only be copied into t (an SGD step's ``w.sub_(lr * grad)``: one pass
    over w instead of three, 35 -> 13 us for a 1000x100 float32 weight). Returns False,
    doing nothing, in every other case (the general path then raises what it raises).
    Called before the general path's checks, it makes those of its case itself: the
    refusals of overlapping memory (nothing recorded, there is no leaf to refuse)."""
    if kwargs or len(args) != 1:
        return False
    data = t._data
    if data.dtype.kind != "f" or not data.flags.writeable:
        return False
    (other,) = args
    if type(other) is Tensor:
        other = other._data
        if other.dtype != data.dtype or other.shape != data.shape:
            return False
        refuse_overlap(t, (other,))
    elif type(other) is not float or data.dtype.char == "e":
        return False  # float16 and a number: computed in float32 (see _ops._in_opmath)
    else:
        refuse_overlap(t, ())
    refuse_inference_update(t)
    keep_held_values(t)
    quiet().run(ufunc, data, other, out=data)
    count_update(t)
    return True


def check_written_shape(shape, value_shape):
    """PyTorch's errors for writing a value of `value_shape` into a tensor of `shape` in
    place: shapes that do not broadcast, or that broadcast to another shape than t's."""
    clash = broadcast_error(shape, value_shape)
    if clash:
        raise RuntimeError(clash)
    broadcast = np.broadcast_shapes(shape, value_shape)
    if broadcast != shape:
        raise RuntimeError(f"output with shape {list(shape)} doesn't match the broadcast shape "
                           f"{list(broadcast)}")


def assign(t, result, inputs, written=None, selected=False):
    """Make `result` (computed from `inputs`, one of them standing for t) t's new value and,
    if recorded, t's new history. `written`, for a view whose elements share memory (an
    expand's), marks the elements the update wrote: theirs are the shared memory's values;
    `selected`: PyTorch updates a view of t that basic indices select, not t itself."""
    if result._data.shape != t._data.shape:
        check_written_shape(t._data.shape, result._data.shape)
    made = result
    if result.dtype is not t.dtype:
        if not _dtypes.can_cast(result.dtype, t.dtype):
            raise RuntimeError(f"result type {result.dtype.scalar_name} can't be cast to the "
                               f"desired output type {t.dtype.scalar_name}")
        result = to_dtype(result, t.dtype)
    box = result._box
    if box is None:
        write(t, result._data, written=written)
        return t
    recorded = new_nodes(box.node, inputs)
    for node in recorded:
        privatize(node, t._data)
    if t._base is not None:
        _assign_through_base(t, result, written, selected)
    else:
        write(t, result._data, written=written)
        set_history(t, box.node)
        _rebase_views(t)
    # A rule that saved its result (sigmoid_'s) saved what t now is: a later update of t
    # must fail its backward, as PyTorch's does.
    retie_saved(recorded, (made._version_counter, result._version_counter),
                t._version_counter)
    return t


def take_history(t, box):
    """Tensor `t`, whose storage an autograd.Function's forward modified and marked dirty,
    takes `box`, the Function's recorded result, as its value's history, as a recorded
    in-place update gives it one (a view's through its base: CopySlices), its version
    counted once more (PyTorch's mark_dirty)."""
    node = t._box.node if t._box is not None else None
    if node is not None and not node.parents:
        raise RuntimeError("a leaf Variable that requires grad has been used in an in-place "
                           "operation.")
    check_inplace(t, True)
    if t._base is not None:
        _assign_through_base(t, make(t._data, box))
        return
    count_update(t)
    set_history(t, box.node)
    _rebase_views(t)


def set_history(t, node):
    """`node` is t's history from now on; a retained gradient is now that of t's new value.
    The version counter notes its name under t's id, for the errors of the nodes that saved
    t (`_record._saved_entry`)."""
    old = t._box
    t._box = TAPE.box(t._data, node)
    if t._base is None:
        t._version_counter[id(t)] = node.label
    if t._retains_grad and old is not None and old.node is not node:
        node.sink = old.node.sink
        old.node.sink = None


def _assign_through_base(view, result, written=None, selected=False):
    """A recorded update of a view is an update of its base (PyTorch's CopySlices): the base
    takes `result` at the view's positions (and the view is then read back from the base);
    where elements of the view share a position, a `written` one's value. An update of a
    whole view whose elements share memory (not `selected` from it) is recorded, but its
    backward raises, as PyTorch's CopySlices' (it writes the gradient into the view)."""
    base = view._base
    positions = positions_in(view._data, base._data)
    shape = base._data.shape
    mask = np.zeros(shape, np.bool_)
    mask.reshape(-1)[positions.ravel()] = True
    old = alias_of(base)
    values = engine(result)
    if written is not None:  # written elements last: placed_at keeps the last of a position
        order = np.argsort(written.ravel(), kind="stable")
        positions = positions.ravel()[order]
        values = fnp.getitem(fnp.reshape(values, (-1,)), order)
    placed = _completed(view, base, placed_at(values, positions, shape), engine(old))
    new = fnp.where(mask, placed, engine(old))
    if not selected and _internally_overlaps(view._data):
        new = _refused_in_backward(new)
    updated = wrap(new, "CopySlices", (old, result))
    # PyTorch lists the base's history, then the update's other inputs.
    updated._box.node.edges = (edge(old),) + result._box.node.edges[1:]
    assign(base, updated, (old, result))


@funcgrad.custom_vjp
def _refused_in_backward(values):
    return values


def _refuse_shared_elements(residuals, cotangent):
    raise RuntimeError(SHARED_ELEMENTS)


_refused_in_backward.defvjp(lambda values: (values, None), _refuse_shared_elements)


def _completed(view, base, placed, old):
    """`placed`, the new values of `view`'s elements at their places in `base`, as base's
    elements: a .real or .imag view of a complex base writes one part of each, the other
    part is the old one's."""
    if view._data.dtype.kind == "c" or base._data.dtype.kind != "c":
        return placed
    if _offset_in_element(view._data, base._data):
        return fnp.real(old) + placed * 1j
    return placed + fnp.imag(old) * 1j


def _rebase_views(base):
    """After a recorded update of `base`, each of its views reads its values back from the
    base's new history (PyTorch's AsStridedBackward0), so that a view taken before the
    update and used after it differentiates the values it now holds."""
    _view_modes.after_update(base)  # (the base requires grad now)
    views = views_of(base)
    if not views:
        return
    flat = fnp.reshape(engine(base), (-1,))
    for view in views:
        if type(view._box) is not InvalidatedBox:  # (a piece: no history to rebuild)
            set_history(view, _read_from_base(view, base, flat)._box.node)


def placed_at(values, positions, shape):
    """An array of `shape` holding `values` (of positions' shape) at the flat `positions`
    (the last write wins where they repeat); the other elements are arbitrary, for the
    caller to mask out."""
    if positions.size == 0:
        return 0
    source = np.zeros(int(np.prod(shape)), np.intp)
    source[positions.ravel()] = np.arange(positions.size)
    return fnp.reshape(fnp.getitem(fnp.reshape(values, (-1,)), source), shape)


def inplace(op, fill=None, ufunc=None, overlap=True, written=None, expanded=None):
    """The in-place form ``t.op_(...)`` of the out-of-place operation `op`. When nothing
    is recorded, `fill(t, *args)` (if given) gives the new values without computing `op`,
    and the binary `ufunc` (if given) computes into t's storage where that gives `op`'s
    result (see `_computed_in_place`). `overlap`: refuse t or an argument that overlaps
    (False for the fills PyTorch allows on an expanded tensor, whose backward pass it
    fails: `_assign_through_base`); `written(t, *args)` marks the elements such a fill
    writes, where not all (their values win in shared memory); `expanded`: the (operation,
    example) of PyTorch's deprecation warning for such a fill of an expanded tensor."""
    def update(t, *args, **kwargs):
        if expanded is not None:
            warn_if_expanded(t, *expanded)
        if kwargs and isinstance(kwargs.get("alpha"), Tensor):  # add_'s, sub_'s Number
            kwargs["alpha"] = number_argument(kwargs["alpha"], update.__name__)
        recording = STATE.enabled and (t._box is not None or any(
            isinstance(a, Tensor) and a._box is not None for a in args + tuple(kwargs.values())))
        if not recording and ufunc is not None and _computed_in_place(ufunc, t, args, kwargs):
            return t  # an SGD step's update, without the general checks (2.2 -> 1.6 us)
        check_inplace(t, recording)
        if overlap:
            refuse_overlap(t, [a._data for a in args + tuple(kwargs.values())
                               if isinstance(a, Tensor)])
        if not recording and fill is not None:
            write(t, fill(t, *args, **kwargs))
            return t
        current = alias_of(t) if recording else t
        result = op(current, *args, **kwargs)
        marks = None if written is None or not _internally_overlaps(t._data) else \
            written(t, *args, **kwargs)
        return assign(t, result, (current,) + args + tuple(kwargs.values()), marks)
    update.__name__ = op.__name__ + "_"
    return update


def _raw_value(t, value):
    """A fill value (a number or a tensor) as NumPy can write it into t."""
    return _fill_value(value)._data if isinstance(value, Tensor) else value


def _fill_value(value):
    if value.dim():
        raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                           f"{value.dim()} dimensions.")
    return value


def _overwrite_impl(old, value):
    # (a tensor value has old's dtype; a number, checked by PyTorch's rules, converts as
    # C++ converts it: 1.5 into an int64 tensor is 1)
    out = np.empty(np.shape(old), np.result_type(old))
    np.copyto(out, value, casting="unsafe")
    return out


def _overwrite_save(ans, old, value):
    return np.shape(value), np.result_type(value)


def _overwrite_pull(g, shape, dtype):
    return unbroadcast(g, shape, dtype)


# ``overwrite(old, value)``: `value` (of old's dtype) broadcast to every element of `old`.
# The old values get None, PyTorch's zeros_like(grad) of ZeroBackward0, FillBackward and
# CopyBackwards: a constant, so a create_graph gradient through them has no history.
overwrite_p = Primitive("compat.overwrite", _overwrite_impl, register=False)
defvjp(overwrite_p, ZERO, ArgVJP(_overwrite_save, _overwrite_pull, saves=()))


def _filled(t, value, label, edges):
    """Every element set to `value` (the old values get a zero gradient)."""
    return wrap(overwrite_p(engine(t), operand(value, t.dtype)), label, edges)


def _fill_op(t, value):
    if isinstance(value, Tensor):
        return _filled(t, _fill_value(value), "FillBackward3", (t, value))
    return _filled(t, value, "FillBackward2", (t,))


def _zero_op(t):
    return _filled(t, 0, "ZeroBackward0", (t,))


def _fill_with_wrapped_number(t, value):
    """``x[:] = number``: PyTorch fills with the number as a 0-d tensor."""
    return _filled(t, value, "FillBackward3", (t, value))


def _check_source(t, src):
    if not isinstance(src, Tensor):
        raise TypeError(f"copy_(): argument 'src' must be Tensor, not {type(src).__name__}")
    if src._data.shape != t._data.shape:
        check_written_shape(t._data.shape, src._data.shape)
    return src


def _copy_op(t, src):
    """`src` broadcast to t's shape and cast to t's dtype (t's old values get a zero
    gradient)."""
    _check_source(t, src)
    return wrap(overwrite_p(engine(t), operand(src, t.dtype)), "CopyBackwards", (t, src))


add_ = inplace(add, ufunc=np.add)
sub_ = inplace(sub, ufunc=np.subtract)
mul_ = inplace(mul, ufunc=np.multiply)
div_ = inplace(div, ufunc=np.true_divide)
pow_ = inplace(pow)
neg_ = inplace(neg)
exp_ = inplace(exp)
log_ = inplace(log)
sqrt_ = inplace(sqrt)
tanh_ = inplace(tanh)
sigmoid_ = inplace(sigmoid)
relu_ = inplace(relu)
_abs_ = inplace(abs)


def abs_(input):
    """In-place abs: PyTorch refuses it for complex tensors (whose abs is real)."""
    refuse_complex(fixed(RuntimeError, "In-place abs is not supported for complex tensors."),
                   input)
    return _abs_(input)


def _clamp_in_place(op):
    """The in-place clamp `op`: where every bound is a number, PyTorch's kernel names the
    tensor's C++ type when the result type cannot be cast back to it."""
    update = inplace(op)

    def clamp_(t, *bounds, **kwargs):
        given = [b for b in (*bounds, *kwargs.values()) if b is not None]
        if not any(isinstance(b, Tensor) for b in given):
            dtype = _record.result_type(t, *given)
            if dtype is not t.dtype and not _dtypes.can_cast(dtype, t.dtype):
                raise RuntimeError(f"result type {dtype.scalar_name} can't be cast to the "
                                   f"desired output type {t.dtype.cpp_name}")
        return update(t, *bounds, **kwargs)
    clamp_.__name__ = update.__name__
    return clamp_


clamp_ = _clamp_in_place(clamp)
clamp_min_ = _clamp_in_place(clamp_min)
clamp_max_ = _clamp_in_place(clamp_max)
_fill_any_ = inplace(_fill_op, fill=_raw_value, overlap=False)


def fill_(t, value):
    """PyTorch fills an expanded tensor (elements sharing memory) with a number only."""
    if isinstance(value, Tensor):
        _fill_value(value)  # (its error first)
        refuse_overlap(t, ())
    else:
        value = _dtypes.converted_number(value, t.dtype)
    return _fill_any_(t, value)


fill_with_wrapped_number_ = inplace(_fill_with_wrapped_number, fill=_raw_value)
copy_ = inplace(_copy_op, fill=lambda t, src: _check_source(t, src)._data)
_copy_unchecked_ = inplace(_copy_op, fill=lambda t, src: _check_source(t, src)._data,
                           overlap=False)


def copy_all_(t, src):
    """``t[:] = src``: copy_, but PyTorch's indexing compares src broadcast to t's shape
    with t (so an overlapping src that is broadcast is not refused)."""
    _check_source(t, src)
    try:
        source = np.broadcast_to(src._data, t._data.shape)
    except ValueError:  # copy_ raises PyTorch's error
        source = src._data
    refuse_overlap(t, [source])
    return _copy_unchecked_(t, src)


masked_fill_ = inplace(masked_fill, overlap=False,
                       written=lambda t, mask, value: mask._data,
                       expanded=("masked_fill_", "tensor[mask] = scalar"))


sin_ = inplace(sin)
cos_ = inplace(cos)
square_ = inplace(square)
reciprocal_ = inplace(reciprocal)
remainder_ = inplace(remainder)
floor_divide_ = inplace(floor_divide)


zero_ = inplace(_zero_op, fill=lambda t: 0, overlap=False)


def fill(input, value):
    """torch.fill: a new tensor of input's shape and dtype holding `value` (a number or a
    0-d tensor), of zero gradient to input."""
    if isinstance(value, Tensor):
        return _filled(input, _fill_value(value), "FillBackward1", (input, value))
    return _filled(input, _dtypes.converted_number(value, input.dtype), "FillBackward0",
                   (input,))


def reshaped(op, label):
    """The in-place form ``t.op_(...)`` of the view operation `op` (t_, unsqueeze_, ...):
    t itself takes the view's shape and strides, and its history the view's node, named
    `label` (or ``label(*args)``), as PyTorch's in-place views (TBackward1, ...)."""
    def update(t, *args, **kwargs):
        recording = STATE.enabled and t._box is not None
        check_inplace(t, recording)
        result = op(alias_of(t) if recording else t, *args, **kwargs)
        t._data = result._data
        if recording:
            result._box.node.label = label if type(label) is str else label(*args, **kwargs)
            set_history(t, result._box.node)
        count_update(t)
        return t
    update.__name__ = op.__name__ + "_"
    return update


def compared(op, stem):
    """The in-place form ``t.op_(other)`` of a comparison: t holds the results in its own
    dtype. Where t or a tensor `other` requires grad, PyTorch records the comparison's node
    (`stem` + ``Backward0`` for a number, ``Backward1`` for a tensor) of zero gradient to
    both."""
    def update(t, other):
        tensor = isinstance(other, Tensor)
        recording = STATE.enabled and (t._box is not None or tensor and other._box is not None)
        check_inplace(t, recording)
        refuse_overlap(t, [other._data] if tensor else [])
        values = op(t, other)
        if values._data.shape != t._data.shape:
            check_written_shape(t._data.shape, values._data.shape)
        if not recording:
            write(t, values._data)
            return t
        current = alias_of(t)
        old = engine(current)
        if tensor and other._box is not None:  # a zero gradient to other too
            old = old + 0 * engine(other)
        result = wrap(fnp.where(np.ones(t._data.shape, np.bool_), operand(values, t.dtype), old),
                      f"{stem}Backward{int(tensor)}", (current, other) if tensor else (current,))
        return assign(t, result, (current, other))
    update.__name__ = op.__name__ + "_"
    return update


logical_not_ = inplace(logical_not)
conj_physical_ = inplace(conj_physical_op)
cumsum_ = inplace(cumsum)


def _diagonal_filled(t, fill_value, wrap=False):
    """t with its main diagonal set to `fill_value` (PyTorch's CopySlices, of zero gradient
    there): the elements whose indices are all equal; of a tall matrix, with `wrap`, the
    diagonal starts again every ncols + 1 rows."""
    shape = t._data.shape
    if len(shape) < 2:
        raise RuntimeError("dimensions must larger than 1")
    if len(shape) > 2 and len(set(shape)) > 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    mask = np.zeros(shape, np.bool_)
    np.fill_diagonal(mask, True, wrap=wrap)
    value = _fill_value(fill_value) if isinstance(fill_value, Tensor) else fill_value
    return _record.wrap(fnp.where(mask, operand(value, t.dtype), engine(t)), "CopySlices", (t,))


_fill_diagonal_ = inplace(_diagonal_filled, overlap=False)


def fill_diagonal_(t, fill_value, wrap=False):
    # PyTorch fills a view of t: a leaf that requires grad is refused as a view's base.
    check_inplace(t, STATE.enabled and t._box is not None, view_message=True)
    return _fill_diagonal_(t, fill_value, wrap)
bitwise_and_ = inplace(bitwise_and)
bitwise_or_ = inplace(bitwise_or)
bitwise_xor_ = inplace(bitwise_xor)
bitwise_not_ = inplace(bitwise_not)
bitwise_left_shift_ = inplace(bitwise_left_shift)
bitwise_right_shift_ = inplace(bitwise_right_shift)
eq_, ne_, lt_ = compared(eq, "Eq"), compared(ne, "Ne"), compared(lt, "Lt")
le_, gt_, ge_ = compared(le, "Le"), compared(gt, "Gt"), compared(ge, "Ge")
t_ = reshaped(t, "TBackward1")
transpose_ = swapaxes_ = swapdims_ = reshaped(transpose, "TransposeBackward1")
unsqueeze_ = reshaped(unsqueeze, "UnsqueezeBackward1")
squeeze_ = reshaped(squeeze, lambda dim=None: "SqueezeBackward3" if dim is None else
                    "SqueezeBackward4" if isinstance(dim, int) else "SqueezeBackward5")


def initializer(fill):
    """An initializer such as normal_: fills t in place, outside of any history, with
    ``fill(t's array, ...)``, the values to write."""
    def update(t, *args, **kwargs):
        check_inplace(t, STATE.enabled and t._box is not None)
        refuse_overlap(t, ())
        write(t, fill(t._data, *args, **kwargs))
        return t
    update.__name__ = fill.__name__
    return update
