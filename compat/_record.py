"""Recording one compat operation: its operands, and the tensor of its result.

An operation casts its operands to PyTorch's result dtype (`operand`), calls funcgrad.numpy
on their boxes (recorded on the eager tape) or arrays (when nothing requires grad or
recording is off), and wraps the result (`wrap`): the result's node gets PyTorch's name
and its inputs as edges, and the versions of the tensors its VJPs saved are noted, for the
in-place checks of the backward pass.

Elementwise primitives whose rules declare what they save skip the boxes when applied to
one float tensor (`unary`), a float tensor and a Python number (`with_number`) or two
tensors of one float dtype (`binary`): the node and the result tensor are built in one
step from the tensors' arrays (`_recorded`). So do the views that are pieces of one tensor
(`pieces`: chunk's, split's, unbind's; `recorded_view`: tensor_split's slices).
"""
import numbers

import numpy as np

import funcgrad.numpy as fnp
from funcgrad.numpy._base import reshape_p
from funcgrad.core import (NO_PARAMS, Box, Primitive, ReverseBox, instruments, tuple_get,
                           unbox_all)

from . import _dtypes, _layout
from ._dtypes import DEFAULTS
from ._grad_mode import STATE, refuse_saving_inference
from ._quiet import quiet
from ._runtime import warn_once
from ._tape import TAPE, VERSION, TapeNode, _creation_numbers
from ._tensor import Tensor, make
from ._view_modes import note_view

_float = _dtypes.FLOAT
_new = object.__new__


def engine(x):
    """What funcgrad computes with for tensor `x`: its box when recording, else its array."""
    box = x._box
    return box if box is not None and STATE.enabled else x._data


_PYTHON_NUMBERS = (float, int, bool)


def operand(x, dtype):
    """Operand `x` (a tensor or a Python number) for a computation in `dtype`."""
    if type(x) is Tensor:
        box = x._box
        value = box if box is not None and STATE.enabled else x._data
        if x._data.dtype != dtype.numpy:
            value = _promoted(value, dtype)
        return value
    if type(x) in _PYTHON_NUMBERS:
        return x
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, numbers.Number):
        return x
    if isinstance(x, Tensor):  # a subclass (nn.Parameter): off the fast path above
        value = engine(x)
        return value if x._data.dtype == dtype.numpy else _promoted(value, dtype)
    raise TypeError(f"compat: expected a Tensor or a number, got {type(x).__name__}")


# The label of the cast of an operand to an operation's dtype (`_promoted`): PyTorch's
# kernels promote as they compute and save the input itself, so a node holding the cast
# saves the input (`_holds_cast`). Casts an operation makes itself (float_power's, as
# PyTorch's .to(double)) save the copy, which no later update of the input touches.
PROMOTION = "(promotion)"


def _promoted(value, dtype):
    if dtype.category in (_dtypes.INTEGER, _dtypes.FLOAT) and \
            np.result_type(unbox_all(value)).kind == "c":  # (bool is z != 0: nothing lost)
        value = discard_imaginary(value)
    cast = fnp.astype(value, dtype.numpy)
    if type(cast) is ReverseBox:
        cast.node.label = PROMOTION
    return cast


def discard_imaginary(value):
    """The real part of complex `value`, cast to a real dtype, with PyTorch's warning
    (NumPy's would be a ComplexWarning)."""
    warn_once("Casting complex values to real discards the imaginary part", 4)
    return fnp.real(value)


def elementwise(fn, a, b):
    """fn(a, b), laid out as PyTorch's, with NumPy's broadcasting error raised as PyTorch's
    RuntimeError."""
    try:
        out = quiet().run(fn, a, b)
    except ValueError as error:
        raise RuntimeError(broadcast_error(np.shape(a), np.shape(b)) or str(error)) from None
    return _layout.laid_out_as_iterator(out, (a.value if isinstance(a, Box) else a,
                                              b.value if isinstance(b, Box) else b))


def broadcast_error(a, b):
    """PyTorch's message for shapes `a` and `b` that do not broadcast (its first clash
    counting from the last dimension), or None if they do."""
    ndim = max(len(a), len(b))
    for offset in range(1, ndim + 1):
        size_a = a[-offset] if offset <= len(a) else 1
        size_b = b[-offset] if offset <= len(b) else 1
        if size_a != size_b and size_a != 1 and size_b != 1:
            return (f"The size of tensor a ({size_a}) must match the size of tensor b "
                    f"({size_b}) at non-singleton dimension {ndim - offset}")
    return None


def float_operand(x):
    """Tensor `x` as the operand of a float-only operation (integers are cast to the default
    float dtype)."""
    if type(x) is Tensor and x._data.dtype.kind == "f":
        # The common case, with no dtype objects looked up (one call instead of four: ~0.4 us).
        box = x._box
        return box if box is not None and STATE.enabled else x._data
    return operand(x, float_dtype(x))


def float_dtype(x):
    """The dtype of a float-only operation on tensor `x` (integers compute in the default
    float dtype)."""
    d = x.dtype
    return d if d.category >= _float else DEFAULTS.float


def result_type(*operands):
    """The dtype of an operation on `operands` (tensors and Python numbers), as in PyTorch."""
    common = _common_float(operands)
    if common is not None:
        return common
    dims = zeros = numbers = None
    for x in operands:
        if isinstance(x, Tensor):
            d = x.dtype
            if x._data.ndim:
                dims = d if dims is None else _dtypes.promote_types(dims, d)
            else:
                zeros = d if zeros is None else _dtypes.promote_types(zeros, d)
        else:
            d = _dtypes.scalar_dtype(x)
            numbers = d if numbers is None else _dtypes.promote_types(numbers, d)
    return _dtypes.combine(dims, _dtypes.combine(zeros, numbers))


def _common_float(operands):
    """The fast path: tensors all of one floating dtype, and Python numbers."""
    common = None
    for x in operands:
        kind = type(x)
        if kind is Tensor:
            d = _dtypes.BY_NUMPY_DTYPE[x._data.dtype]
            if common is None:
                common = d
            elif d is not common:
                return None
        elif kind is not float and kind is not int and kind is not bool:
            return None
    return common if common is not None and common.category == _float else None


def new_nodes(node, inputs):
    """The nodes one operation recorded: those reachable from its result's node without
    passing through its inputs' nodes."""
    return _recorded_nodes(node, [edge(x) for x in inputs])


def _recorded_nodes(node, input_nodes):
    """`new_nodes`, given the inputs' nodes (None for an input without one)."""
    for parent in node.parents:
        if parent is not None and parent not in input_nodes:  # nodes compare by identity
            break
    else:  # one primitive on the inputs: the common case, with no set built (~0.3 us)
        return [node]
    stop = set(input_nodes)
    found = []
    stack = [node]
    while stack:
        n = stack.pop()
        found.append(n)
        for parent in n.parents:
            if parent is not None and parent not in stop:
                stop.add(parent)
                stack.append(parent)
    return found


def _note_saved(new_nodes, inputs, out, saves_result, saves_inputs):
    """Record on the result's node the version of every input tensor whose storage the new
    nodes' VJPs hold, or whose cast to another dtype they hold (PyTorch saves the input
    itself: `x * w` of a complex x and a real w saves w), and of those PyTorch saves
    (`saves_inputs`: every input if True, else a tuple of some), checked before backward
    uses them.
    Inputs they do not hold are checked only when create_graph replays the nodes on their
    inputs, and only if a node's rule does not declare what it saves: a declared rule's
    replay reads no value but those it holds."""
    if len(new_nodes) == 1:
        captured = new_nodes[0].held
    else:
        captured = [value for n in new_nodes for value in n.held]
    entries = ()
    if captured or saves_inputs:
        replay_reads_inputs = None  # (asked once, for the first input not held)
        for x in inputs:
            if isinstance(x, Tensor):
                if (saves_inputs is True or any(x is saved for saved in saves_inputs or ())
                        or _holds(captured, x._data) or _holds_cast(new_nodes, x)):
                    entries += _saved_entry(x, False)
                    continue
                if replay_reads_inputs is None:
                    replay_reads_inputs = not all(map(_declares_saves, new_nodes))
                if replay_reads_inputs:
                    entries += _saved_entry(x, True)
    if saves_result:
        entries += _saved_entry(out, False, output=True)
    if entries:
        new_nodes[0].saved = entries


def _holds_cast(new_nodes, x):
    """Whether a new node holds tensor `x` promoted to another dtype (an argument of the
    node whose parent is `_promoted`'s cast of x)."""
    box = x._box
    if box is None:
        return False
    for node in new_nodes:
        if node.recipe is not None:
            for value, parent in zip(node.recipe, node.parents):
                if (parent is not None and parent.label is PROMOTION
                        and parent.parents[0] is box.node
                        and any(value is held for held in node.held)):
                    return True
    return False


def _declares_saves(node):
    """Whether `node`'s rule declares the arrays it saves (`ArgVJP.saves`)."""
    kinds = tuple([parent is not None for parent in node.parents])
    return _declared_saves(node.primitive, kinds) is not None


def _holds(captured, data):
    """Whether a captured value is `data`, or a view of its memory (a composite's
    primitives hold the reshapes and slices of an input that they computed with)."""
    for value in captured:  # by identity first (`in` would compare arrays)
        if value is data:
            return True
    return any(type(value) is np.ndarray and value.base is not None
               and np.may_share_memory(value, data) for value in captured)


def _saved_entry(x, replay_only, output=False):
    """The check of tensor `x`'s version that a node saving it makes before backward
    (its values in `TapeNode.saved`; `replay_only`: made only when create_graph replays
    the node; `output`: `x` is the node's own result). PyTorch's error names a saved input
    by its creator when the check fails, after the in-place operations that failed it
    (Add after ``a.add_(1)``, CopySlices after an update of a view of it): the entry keeps
    the creator's label now and, for an input that is not a view, the key under which
    `_inplace.set_history` notes x's later ones in its version counter (x's id). Not the
    tensor itself: that would keep a dropped intermediate, and its box, alive and on the
    cyclic collector's lists for as long as the node lives. A view is named
    AsStridedBackward0, as PyTorch names a view once its storage was updated; a result by
    its node, with its place among the node's outputs past the first ((label, place))."""
    version = x._version_counter
    if not (output or replay_only):
        refuse_saving_inference(version)
    data = x._data
    box = x._box
    creator = None
    if box is not None:
        node = box.node
        creator = node.label
        if node.primitive is tuple_get and node.params["index"]:
            creator = (creator, node.params["index"])
    follows = None
    if not (output or replay_only):
        if x._base is None:
            follows = id(x)
        elif box is not None:
            creator = "AsStridedBackward0"
    return (version, version[VERSION], data.dtype, data.shape, creator, replay_only, follows)


def edge(x):
    return x._box.node if isinstance(x, Tensor) and x._box is not None else None


def wrap(out, label, edges, others=(), saves_result=False, saves_inputs=False, view_of=None,
         frees=None):
    """The tensor for a funcgrad result `out`.

    `edges` are the inputs PyTorch lists in next_functions, `others` further tensors the
    computation read (e.g. a condition); `saves_result` says PyTorch saves the result for
    backward (modifying it in place is then an error), `saves_inputs` that it saves its
    inputs (True), or those in a tuple, where funcgrad's rule keeps something else (max's,
    a mask; a convolution's padded copy); `view_of` is the
    tensor the result may be a view of (it then shares that tensor's version counter).
    `frees` overrides the tape's default for whether backward frees the operation (PyTorch
    frees exactly the operations that saved something, numbers included).
    """
    boxed = isinstance(out, Box)
    if boxed and _is_an_input(out, edges):
        # An input returned as it is (a squeeze with nothing to squeeze): PyTorch's result is
        # a new tensor with a node of its own, not the input's node renamed.
        out = reshape_p(out, shape=out.value.shape, order="C")
    data = out.value if boxed else out
    if type(data) is not np.ndarray:
        data = np.asarray(data)
        if boxed:
            out.value = data
    version = base = None
    # (A view of no elements shares no memory, but is a view in PyTorch all the same.)
    if view_of is not None and (not data.size or np.may_share_memory(data, view_of._data)):
        version = view_of._version_counter
        base = view_of._base if view_of._base is not None else view_of
    t = make(data, out if boxed else None, version, base)
    if base is not None:
        note_view(view_of, t)
    if not boxed:
        return t
    node = out.node
    node.label = label
    # One or two inputs, the common cases: the tuple built directly, not by a comprehension
    # or map (~0.4 us an operation).
    if len(edges) == 1:
        edge_nodes = (edge(edges[0]),)
    elif len(edges) == 2:
        edge_nodes = (edge(edges[0]), edge(edges[1]))
    else:
        edge_nodes = tuple(map(edge, edges))
    inputs = edges + others if others else edges
    parents = node.parents
    if edge_nodes == parents:  # nodes compare by identity
        # The common case, one primitive on the inputs: its parents are its edges (one tuple
        # kept instead of two), and no search for the nodes it recorded.
        node.edges = parents
        recorded = (node,)
        if node.held or saves_result or saves_inputs:  # else nothing saved to check
            _note_saved(recorded, inputs, t, saves_result, saves_inputs)
    else:
        node.edges = edge_nodes
        recorded = _recorded_nodes(
            node, edge_nodes + tuple([edge(x) for x in others]) if others else edge_nodes)
        _note_saved(recorded, inputs, t, saves_result, saves_inputs)
    if frees is not None:
        for n in recorded:
            n.frees = frees
    return t


def _is_an_input(box, edges):
    for x in edges:
        if isinstance(x, Tensor) and x._box is box:
            return True
    return False


def _declared_saves(primitive, kinds):
    """The saved values of `primitive`'s rule applied to arguments of `kinds` (True: a
    tensor that requires grad, False: one that does not, None: a Python number): their
    positions in ``(ans, *args)``, numbers left out (None: the rule does not declare
    them). Asked once per primitive and kinds."""
    key = (primitive, kinds)
    saves = _DECLARED.get(key, _UNKNOWN)
    if saves is _UNKNOWN:
        positions = None
        if (isinstance(primitive, Primitive) and primitive.vjp is not None
                and not primitive.multiple_results and primitive.nin in (None, len(kinds))):
            positions = primitive.vjp.saved_positions(tuple([True if k else None
                                                             for k in kinds]))
        saves = _DECLARED[key] = (None if positions is None else tuple(
            [i for i in positions if i == 0 or kinds[i - 1] is not None]))
    return saves


_DECLARED = {}
# _DECLARED's entries for `unary` and `with_number`, by function alone (no key to build)
_UNARY_SAVES = {}
_NUMBER_SAVES = {}
_UNKNOWN = object()
_ONE_TENSOR = (True,)
_TENSOR_AND_NUMBER = (True, None)


def unary(fn, label, input, saves_result=False, frees=None):
    """`fn` (a float-only function of one array) of tensor `input`: recorded directly if
    `fn` is a primitive whose rule declares what it saves, else through boxes (a
    composite's primitives, found by `wrap`)."""
    box = input._box if type(input) is Tensor else None
    if box is not None and STATE.enabled and input._data.dtype.kind == "f":
        saves = _UNARY_SAVES.get(fn, _UNKNOWN)
        if saves is _UNKNOWN:
            saves = _UNARY_SAVES[fn] = _declared_saves(fn, _ONE_TENSOR)
        if saves is not None:
            return _recorded(fn, label, (input,), (input._data,), (box.node,), saves, frees,
                             saves_result)
    return wrap(quiet().run(fn, float_operand(input)), label, (input,),
                saves_result=saves_result, frees=frees)


def with_number(operation, input, number):
    """`operation` (``(primitive, label, frees)``: an elementwise primitive, its node's
    label and `wrap`'s frees) of a float32 or float64 tensor `input` and a Python float or
    int `number`: computed in `input`'s dtype (PyTorch's promotion)."""
    primitive, label, frees = operation
    box = input._box
    if box is None or not STATE.enabled:
        # Nothing to record: NumPy alone (an SGD step's lr * grad: 2.0 -> 0.7 us over NumPy).
        ans = quiet().run(primitive.impl, input._data, number)
        return make(ans if type(ans) is np.ndarray else np.asarray(ans))
    saves = _NUMBER_SAVES.get(primitive, _UNKNOWN)
    if saves is _UNKNOWN:
        saves = _NUMBER_SAVES[primitive] = _declared_saves(primitive, _TENSOR_AND_NUMBER)
    if saves is not None:
        return _recorded(primitive, label, (input, number), (input._data, number),
                         (box.node, None), saves, frees)
    return wrap(quiet().run(primitive, box, number), label, (input, number), frees=frees)


def binary(primitive, label, a, b, frees=None, saves_result=False, saves_inputs=False,
           product=False):
    """`primitive` (elementwise, or a matrix `product` whose shapes the caller checked) of
    tensors `a` and `b` of one dtype, which the result has; both are its edges.
    `saves_inputs`: PyTorch saves both (their versions are checked before backward) where
    the rule may keep something else."""
    box_a = a._box
    box_b = b._box
    if STATE.enabled and (box_a is not None or box_b is not None):
        saves = _declared_saves(primitive, (box_a is not None, box_b is not None))
        if saves is not None:
            ans = None
            if not (product or _layout.all_row_major((a._data, b._data))):
                ans = elementwise(primitive.impl, a._data, b._data)  # (laid out as PyTorch's)
            return _recorded(primitive, label, (a, b), (a._data, b._data),
                             (None if box_a is None else box_a.node,
                              None if box_b is None else box_b.node),
                             saves, frees, saves_result, ans=ans, saves_inputs=saves_inputs)
    if product:
        return wrap(quiet().run(primitive, engine(a), engine(b)), label, (a, b), frees=frees,
                    saves_result=saves_result, saves_inputs=saves_inputs)
    return wrap(elementwise(primitive, engine(a), engine(b)), label, (a, b), frees=frees,
                saves_result=saves_result, saves_inputs=saves_inputs)


def selected(where, label, condition, input, other, ans=None):
    """``where(condition, input, other)`` (funcgrad's where primitive) of a boolean array
    `condition`, a recording tensor `input` and an array `other` of its dtype, both arrays
    constants computed from input's values (a clamp's), recorded directly; `ans` is its
    result where the caller has it. PyTorch's node saves the input where where's rule
    holds the condition: the input's version is checked before backward, as PyTorch's."""
    parent = input._box.node
    t = _recorded(where, label, (input,), (condition, input._data, other),
                  (None, parent, None), _CONDITION, frees=True, ans=ans, saves_inputs=True)
    t._box.node.edges = (parent,)  # next_functions: the input alone
    return t


_CONDITION = (1,)  # where's rule holds its condition, position 1 of (ans, *args)


def reduced(primitive, label, input, **params):
    """`primitive` (a reduction whose rule holds no array of a NumPy input: sum's keeps
    the input's shape) of a recording tensor `input`, with `params`: recorded directly,
    with nothing saved to check (PyTorch's node saves no tensor either)."""
    return _recorded(primitive, label, (input,), (input._data,), (input._box.node,), (),
                     params=params)


def _recorded(primitive, label, edges, values, parents, saves, frees=None,
              saves_result=False, params=NO_PARAMS, ans=None, saves_inputs=False):
    """The tensor of `primitive` applied to `values` (with `params`), recorded on the tape:
    what ``wrap(primitive(*engine values), ...)`` makes, without boxing the arguments and
    dispatching to the tape, or searching the residuals for the values they hold: they
    are those at positions `saves` of ``(ans, *values)``, as the rule declares. `values`
    are the arrays of the tensors in `edges` (the first is one), whose nodes are
    `parents` (None for a tensor that does not require grad), and Python numbers;
    recording is on. `ans`, where the caller has it, is the primitive's result on them."""
    if ans is None:
        try:
            ans = (quiet().run(primitive.impl, *values, **params) if params
                   else quiet().run(primitive.impl, *values))
        except ValueError as error:  # two shapes that do not broadcast
            raise RuntimeError(broadcast_error(*[np.shape(v) for v in values]) or str(error)
                               ) from None
    residuals = primitive.vjp.save(ans, values, params, parents)
    data = ans if type(ans) is np.ndarray else np.asarray(ans)
    # The node, box and tensor built in place (~0.25 us an operation less than their
    # constructors' calls): TapeNode.__init__, Tape.record and `make` set the same fields.
    node = _new(TapeNode)
    node.primitive = primitive
    node.params = params
    node.parents = node.edges = parents
    node.residuals = residuals
    node.number = next(_creation_numbers)
    if saves:
        recipe = node.recipe = (*values, ans)
        # Position i of (ans, *values) is recipe[i - 1] (ans last, at -1): no tuple built
        # for each held value (a product's two, ~0.2 us).
        node.held = (values[:1] if saves == _INPUT  # `values` itself when one array
                     else tuple([recipe[i - 1] for i in saves]))
        node.frees = True if frees is None else frees
    else:
        node.held = ()
        node.recipe = None
        node.frees = bool(frees)
    node.saved = ()
    node.hooks = node.sink = node.meta = None
    node.label = label
    box = _new(ReverseBox)
    box.value = data
    box._trace = TAPE
    box.node = node
    if instruments.on_result is not None:  # debugging (as Primitive.__call__ calls it)
        instruments.on_result(TAPE, primitive, box)
    t = _new(Tensor)
    t._data = data
    t._box = box
    t._version_counter = {VERSION: 0}
    t._grad = t._base = t._views = None
    t._retains_grad = False
    if saves or saves_result or saves_inputs:
        # The version of each input tensor whose array is saved or that PyTorch saves,
        # then the result's if PyTorch saves it. No other input's: the rule declares what
        # it saves, so its replay under create_graph reads no other.
        entries = ()
        if saves_inputs or 1 in saves:
            entries = _saved_entry(edges[0], False)
        if len(edges) == 2 and isinstance(edges[1], Tensor) and (saves_inputs or 2 in saves):
            entries += _saved_entry(edges[1], False)  # (a tensor, not a number)
        if saves_result:
            entries += _saved_entry(t, False, output=True)
        node.saved = entries
    return t


_INPUT = (1,)  # the rule saves the first tensor's array (sin's)


def pieces(primitive, label, input, params, view=True):
    """The results of `primitive` (split's or unstack's: one node for all the pieces, whose
    rule keeps only their shapes) on tensor `input` with `params`, as views of it (or, not
    `view`, as tensors sharing its memory that PyTorch does not track as views).

    Recorded as `Primitive.__call__` records them through the tape, one node for the
    primitive (named `label`) and a `tuple_get` node a piece, but straight from the input's
    array: dispatching each `tuple_get` and wrapping each piece through the tape were most
    of the cost of a chunk."""
    data = input._data
    values = primitive.impl(data, **params)
    box = input._box
    if box is None or not STATE.enabled:
        return tuple([_view(input, value, view=view, several=True) for value in values])
    whole = _node(primitive, label, values, data, box.node, params)
    if instruments.on_result is not None:  # debugging (as Primitive.__call__ calls it)
        instruments.on_result(TAPE, primitive, ReverseBox(values, TAPE, whole))
    return tuple([_view(input, value, _node(tuple_get, label, value, values, whole,
                                             {"index": index}), view, several=True)
                  for index, value in enumerate(values)])


def recorded_view(primitive, label, input, params):
    """`primitive` (a view of one array whose rule keeps no array: getitem's slice) of
    tensor `input` with `params`, as a view of it, recorded straight from its array."""
    data = input._data
    value = primitive.impl(data, **params)
    box = input._box
    if box is None or not STATE.enabled:
        return _view(input, value)
    return _view(input, value, _node(primitive, label, value, data, box.node, params))


def _node(primitive, label, ans, value, parent, params):
    """The tape's node, named `label`, of `primitive` applied to `value`, whose node is
    `parent`, giving `ans`."""
    parents = (parent,)
    return TapeNode(primitive, params, parents,
                    primitive.vjp.save(ans, (value,), params, parents), label=label)


def _view(input, value, node=None, view=True, several=False):
    """A tensor over `value`, a view of tensor `input`'s storage (its version counter and
    base; neither if not `view`), whose history is `node` (None: it does not require grad);
    `several`: one of the views a function returns."""
    box = None
    if node is not None:
        box = ReverseBox(value, TAPE, node)
        if instruments.on_result is not None:
            instruments.on_result(TAPE, node.primitive, box)
    if not view:
        return make(value, box)
    base = input._base
    t = make(value, box, input._version_counter, input if base is None else base)
    note_view(input, t, several)
    return t


def check_tensor(x, name):
    if not isinstance(x, Tensor):
        raise TypeError(f"compat.{name}: expected a Tensor, got {type(x).__name__}")


def wrap_view(input, fn, label, **params):
    return wrap(fn(engine(input), **params), label, (input,), view_of=input)


def alias(input):
    """A view of all of tensor `input` with a node of its own, PyTorch's AliasBackward0
    (``x[...]``, ``Tensor(x)``): the reshape primitive itself, as funcgrad's reshape
    returns an input of the same shape unrecorded."""
    return wrap_view(input, reshape_p, "AliasBackward0", shape=input._data.shape, order="C")
