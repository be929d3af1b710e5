"""The eager tape: one persistent reverse trace at the lowest level, for stateful APIs.

Functional transforms open a trace per call and drop it when the call returns. A
PyTorch-style API (compat) instead records every operation on values that require
gradients as the program runs, and pulls cotangents back later, on demand, possibly
several times. `EAGER_TRACE` is that tape: a `ReverseTrace` at `EAGER_LEVEL` (0), below
every functional transform (DESIGN.md, decision 4), so transforms see eager values as
constants and the tape never sees a transform's boxes.

An `EagerNode` keeps, on top of what every reverse node has:

* its *recipe* (the arguments as passed, boxed ones included, and the output) while its
  staged VJPs hold values; `backward(..., create_graph=True)` re-stages the primitive's
  rule on the boxed arguments, so the backward computation is itself recorded on the tape
  (decision 3: a node is a recipe that can be replayed);
* `captured`: the values its staged VJPs hold, which the layer above ties to version
  counters; and `frees`: whether a backward pass frees the node (its VJPs and recipe)
  once used, unless `retain_graph` (decision 7). By default a node that holds values is
  freed and one that holds none (a sum, a reshape) can be pulled through any number of
  times; the layer above may decide otherwise (PyTorch also frees a product by a number);
* `saved`: ``(counter, version, what, replay_only)`` checks made before the node is used,
  which catch values modified in place after they were saved;
* `hooks` (functions of the node's complete cotangent), a `sink` (a callable returning
  the object that accumulates the node's cotangent, e.g. a leaf tensor), and `label`,
  `edges` and `meta`, which the layer above uses to present the graph.

Nothing here is recursive: graphs of any depth are traversed with explicit stacks.
"""
import types

import numpy as np

from .box import EAGER_LEVEL, Box, Trace, new_box
from .reverse import Node, ReverseTrace
from .values import add_cotangents, is_differentiable


class VersionCounter:
    """How many times a stored value was modified in place (shared by aliases of it)."""

    __slots__ = ("value",)

    def __init__(self):
        self.value = 0


class EagerNode(Node):
    """A node of the eager tape (see the module docstring for the extra fields)."""

    __slots__ = ("args", "ans", "captured", "frees", "saved", "hooks", "sink", "label", "edges",
                 "meta")

    def __init__(self, primitive, params, parents, argnums, vjps):
        self.primitive = primitive
        self.params = params
        self.parents = parents
        self.argnums = argnums
        self.vjps = vjps
        self.args = None
        self.ans = None
        self.captured = ()
        self.frees = False
        self.saved = ()
        self.hooks = None
        self.sink = None
        self.label = None
        self.edges = None
        self.meta = None

    @classmethod
    def leaf(cls, sink=None):
        node = cls(None, None, (), (), ())
        node.sink = sink
        return node

    def __repr__(self):
        name = self.label or (self.primitive.name if self.primitive is not None else "leaf")
        return f"<EagerNode {name}>"


_SAVED_TYPES = (np.ndarray, np.generic, Box)
_FUNCTION = types.FunctionType
# The types of contents that hold no saved value: plain values, and every type met in a
# closure that is not a saved type, a function or a container (dtypes, say), learned as
# they are met, so that one hash lookup skips such a cell (a chain of `is` tests and an
# isinstance otherwise).
_IGNORED = {int, float, bool, str, type(None)}


def captured_values(vjps):
    """The array values (and boxes) that staged VJP closures hold, found by looking inside
    the closures, the functions they close over (two levels deep), and the tuples and lists
    among their contents (one level deep). A VJP that is some other callable is counted as
    a captured value itself (what it holds is unknown)."""
    # This runs for every recorded primitive: the pending stack holds closures, so that
    # functions without one (module-level rules) are never pushed, and the array case is
    # tested first (0.85 -> 0.45 us for sin's VJP).
    found = []
    pending = []
    for vjp in vjps:
        if type(vjp) is not _FUNCTION:
            found.append(vjp)
        elif vjp.__closure__ is not None:
            pending.append((vjp.__closure__, 0))
    while pending:
        closure, depth = pending.pop()
        for cell in closure:
            try:
                value = cell.cell_contents
            except ValueError:  # a cell not filled yet
                continue
            kind = type(value)
            if kind is np.ndarray:
                found.append(value)
            elif kind in _IGNORED:
                continue
            elif kind is _FUNCTION:
                if depth < 2 and value.__closure__ is not None:
                    pending.append((value.__closure__, depth + 1))
            elif kind is tuple or kind is list:
                found.extend([item for item in value if type(item) not in _IGNORED
                              and isinstance(item, _SAVED_TYPES)])
            elif isinstance(value, _SAVED_TYPES):
                found.append(value)
            else:
                _IGNORED.add(kind)
    return tuple(found)


def privatize(node, value):
    """Give `node` a copy of `value` wherever its staged VJPs or its recipe hold `value`
    itself, so that `value` may then be modified in place without changing the node's
    derivatives (copy-on-write for a value about to be overwritten)."""
    if not any(v is value for v in node.captured):
        return
    copy = value.copy()
    pending = [(vjp, 0) for vjp in node.vjps or () if type(vjp) is _FUNCTION]
    while pending:
        function, depth = pending.pop()
        for cell in function.__closure__ or ():
            try:
                contents = cell.cell_contents
            except ValueError:
                continue
            kind = type(contents)
            if contents is value:
                cell.cell_contents = copy
            elif kind is _FUNCTION and depth < 2:
                pending.append((contents, depth + 1))
            elif (kind is tuple or kind is list) and any(item is value for item in contents):
                cell.cell_contents = kind(copy if item is value else item for item in contents)
    node.captured = tuple(copy if v is value else v for v in node.captured)
    if node.ans is value:
        node.ans = copy
    if node.args is not None:
        node.args = tuple(_with_value(arg, value, copy) for arg in node.args)


def _with_value(arg, old, new):
    if arg is old:
        return new
    if isinstance(arg, Box) and arg.value is old:
        return new_box(new, arg._trace, arg.node)
    return arg


class EagerTrace(ReverseTrace):
    """The persistent trace at EAGER_LEVEL; records EagerNodes with replayable recipes."""

    __slots__ = ()

    def __init__(self):
        # No tape: this trace lives as long as the program, so eager `backward` finds the
        # graph from its roots instead.
        Trace.__init__(self, EAGER_LEVEL)

    def record(self, ans, node):
        return new_box(ans, self, node)

    def process_primitive(self, primitive, args, params):
        # This is the lowest level, so once our boxes are opened every value is raw.
        if len(args) == 1:
            # The hot path (unary functions), with open_args and is_differentiable inlined
            # and the rule staged by stage_unary_vjp: the one argument is a box of ours,
            # since this trace was chosen as the highest among the boxed arguments.
            box = args[0]
            value = box.value
            ans = primitive.impl(value, **params) if params else primitive.impl(value)
            try:
                if ans.dtype.kind not in "fc":
                    return ans
            except AttributeError:
                if not is_differentiable(ans):
                    return ans
            vjps = (primitive.stage_unary_vjp(ans, value, params),)
            node = EagerNode(primitive, params, (box.node,), (0,), vjps)
        else:
            values, parents, argnums, _ = self.open_args(args)
            ans = primitive.impl(*values, **params)
            if not is_differentiable(ans):
                return ans
            rules = primitive.vjp_rules  # stage_vjp's common case inlined (~0.1 us a VJP)
            vjps = tuple([rules[i](ans, *values, **params)
                          if i < len(rules) and rules[i] is not None
                          else primitive.stage_vjp(i, ans, values, params) for i in argnums])
            node = EagerNode(primitive, params, parents, argnums, vjps)
        captured = captured_values(vjps)
        if captured:
            node.captured = captured
            node.frees = True
            node.args = args
            node.ans = ans
        return new_box(ans, self, node)


EAGER_TRACE = EagerTrace()


def _count_consumers(roots):
    """How many times each reachable node is used as a parent (iteratively: no recursion)."""
    consumers = {}
    stack = []
    for root in roots:
        if root not in consumers:
            consumers[root] = 0
            stack.append(root)
    while stack:
        for parent in stack.pop().parents:
            if parent in consumers:
                consumers[parent] += 1
            else:
                consumers[parent] = 1
                stack.append(parent)
    return consumers


def _kept_nodes(consumers, wanted):
    """The reachable nodes from which some node in `wanted` can be reached (the wanted
    nodes and everything computed from them), with consumer counts among those nodes."""
    children = {}
    for node in consumers:
        for parent in node.parents:
            children.setdefault(parent, []).append(node)
    kept = set()
    stack = [node for node in wanted if node in consumers]
    while stack:
        node = stack.pop()
        if node not in kept:
            kept.add(node)
            stack.extend(children.get(node, ()))
    counts = {node: 0 for node in kept}
    for node in kept:
        for parent in node.parents:
            if parent in kept:
                counts[parent] += 1
    return counts


def _freed_error(node):
    name = node.label or node.primitive.name
    return RuntimeError(
        f"trying to backward through the graph a second time: the values saved by "
        f"{name} were freed by an earlier backward pass (or autograd.grad). Specify "
        f"retain_graph=True in the earlier call if you need to backward through the graph "
        f"again, or to read its saved values after calling backward.")


def _check_saved(node, replaying):
    for counter, version, what, replay_only in node.saved:
        if counter.value != version and (replaying or not replay_only):
            raise RuntimeError(
                f"one of the values needed to compute gradients was modified by an in-place "
                f"operation: {what} is at version {counter.value}, but {version} was expected "
                f"(it was saved for the backward pass of {node.label or node.primitive.name}). "
                f"Compute on a copy (clone()) instead of modifying it in place, or modify it "
                f"after calling backward.")


def _vjps_for(node, create_graph):
    """The node's VJPs; with create_graph, re-staged on the boxed arguments it recorded, so
    that pulling a cotangent through them is recorded on the tape too."""
    if node.vjps is None:
        raise _freed_error(node)
    replaying = create_graph and node.args is not None
    if node.saved:
        _check_saved(node, replaying)
    if not replaying:
        return node.vjps
    ans = new_box(node.ans, EAGER_TRACE, node)
    return tuple(node.primitive.stage_vjp(i, ans, node.args, node.params)
                 for i in node.argnums)


def _run_hooks(node, ct):
    for hook in tuple(node.hooks.values()):
        new_ct = hook(ct)
        if new_ct is not None:
            ct = new_ct
    return ct


def backward(roots, root_cotangents, retain_graph=False, create_graph=False, wanted=None):
    """Pull cotangents from `roots` back through the eager tape.

    Returns {node: cotangent}: for the nodes in `wanted` (then only the part of the graph
    that leads to them is visited), or, when `wanted` is None, for every node reached that
    has a `sink`; None for such a node reached only along paths whose VJPs gave None
    (symbolic zeros). Each node's hooks see its complete cotangent, and may replace it,
    before it is recorded or pulled further. Nodes whose `frees` is set are freed once used
    unless `retain_graph`. With `create_graph`, cotangents may be boxes of this tape and
    the computation is recorded on it (double backward).
    """
    cotangents = {}
    for root, ct in zip(roots, root_cotangents):
        cotangents[root] = add_cotangents(cotangents.get(root), ct)
    consumers = _count_consumers(cotangents)
    if wanted is not None:
        consumers = _kept_nodes(consumers, wanted)
    ready = [node for node in cotangents if consumers.get(node) == 0]
    results = {}
    pop_cotangent = cotangents.pop
    while ready:
        node = ready.pop()
        ct = pop_cotangent(node, None)
        parents = node.parents
        if wanted is None:
            wanted_here = node.sink is not None
        else:
            wanted_here = node in wanted
        if ct is None:
            if wanted_here:  # reached, but every path to it contributes zero
                results[node] = None
        else:
            if node.hooks:
                ct = _run_hooks(node, ct)
            if wanted_here:
                results[node] = ct
            if parents:
                vjps = node.vjps
                if vjps is None or create_graph:
                    vjps = _vjps_for(node, create_graph)
                else:
                    # _vjps_for's check, inlined (~0.2 us a node): test the versions here,
                    # let _check_saved decide whether a change is an error.
                    for counter, version, _, _ in node.saved:
                        if counter.value != version:
                            _check_saved(node, False)
                for parent, argnum, vjp in zip(parents, node.argnums, vjps):
                    if parent not in consumers:
                        continue
                    try:
                        parent_ct = vjp(ct)
                    except Exception as error:
                        error.add_note(f"funcgrad: raised by the VJP of "
                                       f"'{node.label or node.primitive.name}' for argument "
                                       f"{argnum}")
                        raise
                    if parent_ct is not None:
                        previous = cotangents.get(parent)
                        cotangents[parent] = (parent_ct if previous is None
                                              else add_cotangents(previous, parent_ct))
        if node.frees and not retain_graph:
            node.vjps = None
            node.args = node.ans = None
            node.captured = ()
        for parent in parents:
            remaining = consumers.get(parent)
            if remaining is not None:  # None: a parent that leads to no wanted node
                consumers[parent] = remaining - 1
                if remaining == 1:
                    ready.append(parent)
    return results


__all__ = ["EAGER_TRACE", "EagerNode", "EagerTrace", "VersionCounter", "backward",
           "captured_values", "privatize"]
