"""Views PyTorch does not let follow an in-place update because of the way they were made
(its CreationMeta other than DEFAULT): views made in no_grad mode or in inference_mode (of
a tensor that is not an inference tensor), pieces (chunk, split, unbind: the views of a
function that returns several), and the outputs of an autograd.Function that are its
inputs or views of them (`note_function_output`).

A recorded in-place update of a piece raises "Output 0 of Split is a view and is being
modified inplace. ..."; after an update of its storage, every use of its history raises
"... its base or another view of its base has been modified inplace. ...".

A view made in no_grad mode of a tensor that requires grad has no history, yet requires
grad as its base does: it is a leaf whose gradient goes nowhere (`leaf_node(None)`: no
.grad, None in next_functions). A recorded in-place update of such a view raises at once
("... is being modified inplace with grad mode enabled"); after an update of its storage
that leaves its base requiring grad (recorded or not, through any alias), every use of its
history raises ("... its base or another view of its base has been modified inplace"): its
box becomes an `InvalidatedBox`. Its values stay readable. A view of such a view inherits
its mode, unless made in another mode (inference_mode's is never replaced), as PyTorch's
propagate_creation_meta. A view made in inference_mode behaves as one made in no_grad
mode, with its own texts ("... modified inplace in normal mode").

The storage's version counter holds under `CREATED` a (weak reference, mode) entry for each
such view: an update of any other storage costs one dict lookup here.
"""
import re
import weakref

from funcgrad.core import tuple_get

from ._grad_mode import STATE
from ._tape import INFERENCE, TAPE, InvalidatedBox, leaf_node

CREATED = "views made in a mode"  # a version counter's key
NO_GRAD = "no_grad"
INFERENCE_MODE = "inference_mode"
SEVERAL = "several"  # one of several views (pieces, a Function's outputs) made in grad mode
IN_FUNCTION = "custom Function"  # an autograd.Function's output that views an input

_UNCLEAR = ("Given that this use case is ambiguous and error-prone, it is forbidden. You can "
            "clarify your code by moving both the view and the inplace either both inside the "
            "{} block (if you don't want the inplace to be tracked) or both outside (if you "
            "want the inplace to be tracked).")
_ADVICE = {
    NO_GRAD: _UNCLEAR.format("no_grad"),
    INFERENCE_MODE: _UNCLEAR.format("inference_mode"),
    SEVERAL: ("This view is the output of a function that returns multiple views. Such "
              "functions do not allow the output views to be modified inplace. You should "
              "replace the inplace operation by an out-of-place one."),
    IN_FUNCTION: ("This view was created inside a custom Function (or because an input was "
                  "returned as-is) and the autograd logic to handle view+inplace would "
                  "override the custom backward associated with the custom Function, leading "
                  "to incorrect gradients. This behavior is forbidden. You can fix this by "
                  "cloning the output of the custom Function.")}


def note_view(input, view, several=False):
    """`view` of tensor `input` was made (`several`: as one of the pieces of a function
    that returns several views): note its mode, if not the default."""
    if STATE.enabled:
        made = SEVERAL if several else None
    elif STATE.inference:
        if INFERENCE in view._version_counter:  # (an inference tensor's: never updated
            return                               # outside inference_mode, `_grad_mode`)
        made = INFERENCE_MODE
    else:
        made = NO_GRAD
    mode = _mode_of(input)
    if mode is None:
        mode = made
    elif made is not None and mode is not INFERENCE_MODE:
        mode = made
    if mode is None or view._data.dtype.kind not in "fc":  # (the common case: a view made in
        return  # grad mode of a plain tensor; and views that can never require grad)
    if view._box is None and view._base._box is not None:
        view._box = TAPE.box(view._data, leaf_node(None))
    _note(view, mode)


def note_function_output(output, several):
    """`output`, a view of an input of the autograd.Function whose node is its history,
    was made (PyTorch's IN_CUSTOM_FUNCTION; MULTI_OUTPUT_NODE among `several` outputs)."""
    _note(output, SEVERAL if several else IN_FUNCTION)


def _note(view, mode):
    counter = view._version_counter
    entries = counter.get(CREATED)
    if entries is None:
        entries = counter[CREATED] = []
    entries.append((weakref.ref(view), mode))
    if len(entries) >= 32 and len(entries) & (len(entries) - 1) == 0:  # amortized pruning
        entries[:] = [entry for entry in entries if entry[0]() is not None]


def _mode_of(t):
    entries = t._version_counter.get(CREATED)
    for ref, mode in entries or ():
        if ref() is t:
            return mode
    return None


def refuse_update(t):
    """PyTorch's refusal of a recorded in-place update of view `t` made in a mode."""
    mode = _mode_of(t)
    if mode is not None:
        raise RuntimeError(_message(t, mode, "is being"))


def after_update(t):
    """Tensor `t`'s storage was modified in place: the views made in a mode whose base
    requires grad can no longer be used for their history."""
    entries = t._version_counter.get(CREATED)
    for ref, mode in entries or ():
        view = ref()
        if (view is not None and view._base._box is not None
                and type(view._box) is not InvalidatedBox):
            message = _message(view, mode, "its base or another view of its base has been")
            view._box = InvalidatedBox(view._data, message, _name(view))


def _name(view):
    """"Output 0 of View" for a view with history, else None."""
    box = view._box
    if type(box) is InvalidatedBox:
        return box.name
    if box is not None and box.node.parents:
        return output_name(box.node)
    return None


def _message(view, mode, modified):
    """PyTorch's text: a view without history, or made in no_grad or inference mode, is
    named by the way it was made; any other by its node."""
    name = _name(view)
    if mode is NO_GRAD or mode is INFERENCE_MODE or name is None:
        made = (f"{name} is a view of a view which was created in" if name
                else "A view was created in")
        if mode is INFERENCE_MODE:
            return (f"{made} inference mode and {modified} modified inplace in normal mode. "
                    f"{_ADVICE[mode]}")
        return (f"{made} no_grad mode and {modified} modified inplace with grad mode "
                f"enabled. {_ADVICE[mode]}")
    return f"{name} is a view and {modified} modified inplace. {_ADVICE[mode]}"


_SUFFIX = re.compile(r"Backward\d*$")


def output_name(node):
    """"Output 1 of Split": the node's name as PyTorch's errors give it (a piece's names
    its place among the results and the node that made them)."""
    place = 0
    label = node.label
    if node.primitive is tuple_get:
        place = node.params["index"]
        if label is None:  # (a custom Function's result: named by its node)
            label = node.parents[0].label
    return f"Output {place} of {_SUFFIX.sub('', label or '')}"


def is_dropped_leaf(node):
    """Whether `node` is the history of a view made in no_grad mode: a leaf whose gradient
    goes nowhere."""
    return not node.parents and node.sink is None


__all__ = ["CREATED", "note_view", "note_function_output", "refuse_update", "after_update",
           "output_name", "is_dropped_leaf"]
