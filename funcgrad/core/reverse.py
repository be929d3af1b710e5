"""Reverse mode: recording nodes in the forward pass and pulling cotangents back.

A `Node` is plain data: the primitive applied, its params, its parents (one per argument:
the node of a traced argument, None for a constant) and the residuals its VJP saved. A
`ReverseTrace` keeps its nodes on a tape in creation order, which is a topological order
(a node's parents exist before it), and `backward_pass` walks a tape backwards: the one
backward loop, for funcgrad's transforms and compat's eager tape alike.
"""
from . import errors
from .trace import Box, Trace, instruments
from .values import add_cotangents, is_differentiable, quiet_floating_point


class Node:
    """One recorded primitive application (see the module docstring). `origin`, the
    user's line that applied the primitive, is set only while provenance is on
    (`funcgrad.config.provenance`): read it as ``getattr(node, "origin", None)``."""

    __slots__ = ("primitive", "params", "parents", "residuals", "origin", "__weakref__")

    def __init__(self, primitive, params, parents, residuals):
        self.primitive = primitive
        self.params = params
        self.parents = parents
        self.residuals = residuals

    def __repr__(self):
        name = self.primitive.name if self.primitive is not None else "leaf"
        return f"<{type(self).__name__} {name}>"


_new = object.__new__


def leaf_node():
    """The node of a transform's input: no primitive, no parents."""
    return Node(None, None, (), ())


class ReverseBox(Box):
    """A value watched by a reverse trace; `node` is its recorded history."""

    __slots__ = ("node",)

    def __init__(self, value, trace, node):
        self.value = value
        self._trace = trace
        self.node = node


class ReverseTrace(Trace):
    """Records every primitive applied to its boxes, for a later backward pass."""

    __slots__ = ("tape",)
    transform = "a reverse-mode transform (grad, vjp, ...)"

    def __init__(self, level):
        super().__init__(level)
        self.tape = []

    def process_primitive(self, primitive, args, params):
        if len(args) == 1:
            # The one fast path (sin, exp, sum, reshape, ...): the only argument is a box of
            # ours, since this trace was chosen as the highest among the boxed arguments.
            (box,) = args
            value = box.value
            values = (value,)
            parents = (box.node,)
            outer = isinstance(value, Box)
        else:
            values, parents, outer = self.open_args(args)
        # Lower the application one level: dispatch again while an outer transform's box
        # remains among the values, else call NumPy (without an empty `**params`, which
        # costs a ufunc call a third more).
        if outer:
            ans = primitive(*values, **params)
        elif params:
            ans = primitive.impl(*values, **params)
        else:
            ans = primitive.impl(*values)
        if not is_differentiable(ans):  # integer and boolean results are constants
            return ans
        vjp = primitive.vjp
        if vjp is None:
            raise errors.missing_vjp_rule(primitive.name, _first_traced(parents))
        return self.record(primitive, params, parents, vjp.save(ans, values, params, parents),
                           ans, values)

    def open_args(self, args):
        """The values of `args` with our boxes opened, one parent per argument (our box's
        node, else None), and whether an outer transform's box remains among the values."""
        values = []
        parents = []
        outer = False
        for arg in args:
            if isinstance(arg, Box):
                if arg._trace is self:
                    value = arg.value
                    values.append(value)
                    parents.append(arg.node)
                    if isinstance(value, Box):
                        outer = True
                    continue
                outer = True
            values.append(arg)
            parents.append(None)
        return values, parents, outer

    def record(self, primitive, params, parents, residuals, ans, values=None):
        """Box `ans` with a new node on the tape. The entry point for applications
        computed outside `process_primitive` too (custom_vjp, checkpoint); `values` are the
        arguments with this trace's boxes opened (each opened one's node is its parent), for
        traces that keep them (compat's)."""
        # Built in place, without the two __init__ frames: 1.2k of the ~33k instructions a
        # primitive costs forward and backward.
        node = _new(Node)
        node.primitive = primitive
        node.params = params
        node.parents = parents
        node.residuals = residuals
        self.tape.append(node)
        box = _new(ReverseBox)
        box.value = ans
        box._trace = self
        box.node = node
        return box

    def to_python(self, box, kind):
        if kind is float or kind is complex:
            raise errors.conversion(kind, self.transform)
        return kind(box.value)


def _first_traced(parents):
    return next(i for i, parent in enumerate(parents) if parent is not None)


class _ZeroReached:
    """The cotangent of a node reached only along paths whose rules gave None (see
    `backward_pass`)."""

    __slots__ = ()

    def __repr__(self):
        return "ZERO_REACHED"


ZERO_REACHED = _ZeroReached()


def backward_pass(tape, roots, root_cotangents, retain_graph=False, visit=None):
    """Pull cotangents from `roots` back through the nodes on `tape`, a topologically
    ordered list of nodes.

    Returns {node: cotangent} for the nodes reached that are not on the tape (a trace's
    leaves). Walking the tape backwards completes each node's cotangent before the node
    is pulled back; nodes off every path to the roots have none and are skipped; each
    cotangent is dropped once pulled back, and each node's residuals once used unless
    `retain_graph`.

    `visit(node, cotangent) -> (cotangent, residuals)`, if given, sees each reached
    node's complete cotangent first and says what to pull back with which residuals
    (compat's hooks, saved-value checks and gradient sinks). Nodes without parents (a
    stateful tape's leaves) are visited and not pulled back. With `visit`, a parent that a
    rule gives None (a symbolic zero) is still reached, as PyTorch's engine reaches it
    with zeros: visited with `ZERO_REACHED` if nothing else reaches it. `visit` returns
    the cotangent to pull back (zeros of the node's value, or whatever its rule takes for
    them), or `ZERO_REACHED` to skip the node's rule and reach its parents the same way.
    """
    cotangents = {}
    for root, ct in zip(roots, root_cotangents):
        cotangents[root] = add_cotangents(cotangents.get(root), ct)
    pop_cotangent = cotangents.pop
    pull = instruments.pull  # debugging's, or None
    with quiet_floating_point():
        for node in reversed(tape):
            ct = pop_cotangent(node, None)
            if ct is None:
                continue
            residuals = node.residuals
            if visit is not None:
                ct, residuals = visit(node, ct)
                if not node.parents:
                    continue
                if ct is ZERO_REACHED:
                    for parent in node.parents:
                        if parent is not None:
                            cotangents.setdefault(parent, ZERO_REACHED)
                    continue
            if residuals is None:
                raise errors.freed_graph(node.primitive.name)
            try:
                if pull is None:
                    parent_cts = node.primitive.vjp.backward(residuals, node.params, ct)
                else:
                    parent_cts = pull(node, residuals, ct)
            except Exception as error:
                error.add_note(f"funcgrad: raised by the VJP rule of '{node.primitive.name}'"
                               f"{origin_note(node)}")
                errors.note_other_library(error, f"the VJP rule of '{node.primitive.name}'",
                                          (ct,))
                raise
            for parent, parent_ct in zip(node.parents, parent_cts):
                if parent is None:
                    continue
                if parent_ct is not None:
                    previous = cotangents.get(parent)
                    cotangents[parent] = (
                        parent_ct if previous is None or previous is ZERO_REACHED
                        else add_cotangents(previous, parent_ct))
                elif visit is not None:
                    cotangents.setdefault(parent, ZERO_REACHED)
            if not retain_graph:
                node.residuals = None
    return cotangents


def origin_note(node):
    """Where `node` was created, for error messages: the user's line if it was recorded."""
    origin = getattr(node, "origin", None)
    if origin is None:
        return (" (set funcgrad.config.provenance = True to see the line of your code that "
                "applied it)")
    return f", applied at\n{origin}"
