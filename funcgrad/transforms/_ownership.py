"""Arrays a transform returns belong to the caller.

Every array a transform hands back (values, gradients, cotangents, tangents, Jacobians,
aux data) is writable and has memory of its own: it shares none with another array of the
same result, with the caller's inputs, cotangents or tangents, or with an array seen
earlier in the call. A backward pass can produce arrays that fail this (a sum's
cotangent is a read-only broadcast view; `x + y` hands both inputs the same cotangent; an
identity function returns its input; a function may return one of its constants), so
those are copied here; arrays that are already the caller's alone are returned as they
are.

Other libraries' arrays (DESIGN.md decision 16) follow the same rules when they expose
memory as NumPy does, through a ``base`` attribute (CuPy). Arrays without one (Dask's) are
values of a task graph: writing into one (``x[i] = v``) gives that Python object a new
graph and changes no other array, so they are never copied.
"""
import numpy as np

from ..core import has_memory
from ..tree_util import tree_flatten, tree_map, tree_unflatten


_SCALARS = (np.generic, float, int, complex, bool)


def _owner(array):
    """The id of the array whose memory `array` views (its own if it owns its memory)."""
    while array.base is not None and has_memory(array.base):
        array = array.base
    return id(array)


def copy_constant(value):
    """An output that does not depend on the transform's inputs, for the caller: a copy if
    it is an array (it may be one of the function's constants, which the caller must not
    be able to modify)."""
    return value.copy() if has_memory(value) else value


def private_copies(primals):
    """``primals`` with each array copied, for transforms whose result keeps the graph and
    reads its saved values later (vjp's pullback, linearize's f_jvp): an input the
    caller modifies in place afterwards (``w -= lr * g``) must not change them. A copy
    keeps the array's class, so refused subclasses are still refused by name."""
    return tuple(tree_map(lambda x: x.copy() if has_memory(x) else x, p)
                 for p in primals)


class Owners:
    """The memory already spoken for in one call: the caller's arrays (flat lists of
    them), then each array handed back. `claim` returns an array the caller may keep and
    modify."""

    __slots__ = ("_taken",)

    def __init__(self, *given):
        self._taken = {_owner(leaf) for leaves in given for leaf in leaves
                       if has_memory(leaf)}

    def claim(self, leaf):
        if isinstance(leaf, np.ndarray):  # (the common case first, with no call)
            writeable = leaf.flags.writeable
        elif not isinstance(leaf, _SCALARS) and has_memory(leaf):
            # CuPy's flags have no writeable: all its arrays are.
            writeable = getattr(leaf.flags, "writeable", True)
        else:  # scalars and Dask arrays are immutable; boxes are not ours
            return leaf
        owner = _owner(leaf)
        if owner in self._taken or not writeable:
            leaf = leaf.copy()
            owner = id(leaf)
        self._taken.add(owner)
        return leaf

    def claim_all(self, leaves):
        return [self.claim(leaf) for leaf in leaves]

    def claim_tree(self, tree):
        leaves, structure = tree_flatten(tree)
        return tree_unflatten(structure, self.claim_all(leaves))
