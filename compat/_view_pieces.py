"""Views made by a function that returns several views (chunk, split, unbind: "pieces"),
and views of those: PyTorch does not let their history follow an in-place update.

A single view whose storage is modified in place gets a new history (AsStridedBackward0:
`_inplace._rebase_views`). PyTorch cannot rebuild one output of a node with several, so it
refuses instead: a recorded in-place update of such a view ("... is being modified
inplace"), and, after any update of its storage (its base, itself under no_grad, another
view), every use of the view that needs its history: an operation recorded on it, grad_fn,
is_leaf, a hook, retain_grad ("... its base or another view of its base has been modified
inplace"). The values stay readable (detach, .data, printing, no_grad).

`pieces` notes, under the storage's version counter's `MULTI_OUTPUT` key, weak references
to the tensors whose views the pieces are (an update of any other storage costs one dict
lookup here; the counter is shared by every alias of the storage, `detach()`'s too); a
view of one of those is a piece, or a view of one, when its history leads back to a
piece's node before the base's. After an update of the storage, each such view that
requires grad gets an `InvalidatedBox`, whose node raises PyTorch's error wherever compat
reads a tensor's history.
"""
import re
import weakref

from funcgrad.core import ReverseBox, tuple_get

from ._tape import InvalidatedBox
from ._tensor import views_of

MULTI_OUTPUT = "multi-output views"  # a version counter's mark
_SUFFIX = re.compile(r"Backward\d*$")
_ADVICE = ("This view is the output of a function that returns multiple views. Such "
           "functions do not allow the output views to be modified inplace. You should "
           "replace the inplace operation by an out-of-place one.")


def note_pieces(input):
    """Views of `input` that one function returned were recorded (see `pieces`)."""
    base = input._base if input._base is not None else input
    bases = input._version_counter.setdefault(MULTI_OUTPUT, [])
    if not any(ref() is base for ref in bases):
        bases.append(weakref.ref(base))


def refuse_update(t):
    """PyTorch's refusal of a recorded in-place update of `t`, if it is a piece."""
    if MULTI_OUTPUT in t._version_counter and t._base is not None:
        box = t._box
        if type(box) is InvalidatedBox:
            name = box.name
        elif box is not None and _from_pieces(box.node, t._base):
            name = output_name(box.node)
        else:
            return
        raise RuntimeError(f"{name} is a view and is being modified inplace. {_ADVICE}")


def after_update(t):
    """Tensor `t`'s storage was modified in place: its pieces can no longer be used."""
    bases = t._version_counter.get(MULTI_OUTPUT)
    if bases is None:
        return
    for base in [ref() for ref in bases]:
        for view in views_of(base) if base is not None else ():
            box = view._box
            if type(box) is ReverseBox and _from_pieces(box.node, base):
                name = output_name(box.node)
                view._box = InvalidatedBox(
                    view._data, f"{name} is a view and its base or another view of its base "
                                f"has been modified inplace. {_ADVICE}", name)


def _from_pieces(node, base):
    """Whether a view of `base` whose history is `node` is a piece or a view of one: its
    view nodes lead to a piece's before they reach base's (a piece's node is the
    `tuple_get` of one of several results)."""
    stop = base._box.node if base._box is not None else None
    while node is not stop:
        if node.primitive is tuple_get:
            return True
        if not node.parents:
            return False
        node = node.parents[0]
    return False


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
