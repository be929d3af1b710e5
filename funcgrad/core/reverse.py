"""Reverse mode: recording nodes in the forward pass and pulling cotangents back."""
from .box import Box, Trace, new_box, new_object
from .primitive import NO_PARAMS
from .values import add_cotangents, is_differentiable


class Node:
    """One recorded primitive application.

    `vjps[k]` maps the cotangent of this node's output to the cotangent of
    `parents[k]`, which was argument `argnums[k]` of `primitive`. A leaf (an input
    of a transform) has no primitive and no parents. `origin` (the user's line that
    applied the primitive) is set only while `funcgrad.config.provenance` (or a NaN
    check) is on and is otherwise unset, so read it as `getattr(node, "origin", None)`.
    """

    __slots__ = ("primitive", "params", "parents", "argnums", "vjps", "origin", "__weakref__")

    def __init__(self, primitive, params, parents, argnums, vjps):
        self.primitive = primitive
        self.params = params
        self.parents = parents
        self.argnums = argnums
        self.vjps = vjps

    @classmethod
    def leaf(cls):
        node = new_object(cls)  # as in record_new: no __init__ frame
        node.primitive = node.params = None
        node.parents = node.argnums = node.vjps = ()
        return node

    def __repr__(self):
        name = self.primitive.name if self.primitive is not None else "leaf"
        return f"<Node {name}>"


def origin_note(node):
    """Where `node` was created, for error messages: the user's line if it was recorded."""
    origin = getattr(node, "origin", None)  # unset unless provenance was on (no cost when off)
    if origin is None:
        return (" (set funcgrad.config.provenance = True to see the line of your code that "
                "applied it)")
    return f", applied at\n{origin}"


class LeakedBoxError(RuntimeError):
    pass


# The argnums of nodes with one or two arguments, shared.
_FIRST = (0,)
_SECOND = (1,)
_BOTH = (0, 1)


class ReverseTrace(Trace):
    """Records every primitive applied to its boxes, for a later backward pass."""

    __slots__ = ("tape",)

    def __init__(self):
        super().__init__()
        # The nodes in creation order. That is a topological order (a node's parents exist
        # before it), so the backward pass walks it backwards instead of sorting the graph.
        self.tape = []

    def process_primitive(self, primitive, args, params):
        if not self.active:
            raise LeakedBoxError(
                f"funcgrad: '{primitive.name}' was applied to a value traced by a transform "
                f"that has already returned (it leaked out, e.g. through a global or a "
                f"closure). Return it from the transformed function instead.")
        if len(args) == 1:
            # The hot path (sin, exp, sum, reshape, ...): one argument, a box of ours (this
            # trace was chosen as the highest among the boxed arguments): no lists or tuples
            # to build, as open_args and stage_vjp would, and no `**params` when there are
            # none (sin's own path: 0.2 us less).
            (box,) = args
            value = box.value
            if isinstance(value, Box):  # an outer transform's box: dispatch again
                ans = primitive(value, **params)
            elif params:
                ans = primitive.impl(value, **params)
            else:
                ans = primitive.impl(value)
            if not is_differentiable(ans):
                return ans
            vjp = primitive.stage_unary_vjp(ans, value, params)
            return self.record_new(ans, primitive, params, (box.node,), _FIRST, (vjp,))
        if len(args) == 2 and not params and len(primitive.vjp_rules) == 2:
            return self._process_binary(primitive, args)
        values, parents, argnums, outer = self.open_args(args)
        # Whether any value is still boxed by an outer transform once ours are opened:
        # if none is, NumPy can be called directly instead of dispatching again.
        ans = primitive(*values, **params) if outer else primitive.impl(*values, **params)
        if not is_differentiable(ans):
            return ans
        if len(argnums) == 1:  # one traced argument: stage_vjp inlined
            i = argnums[0]
            rules = primitive.vjp_rules
            rule = rules[i] if i < len(rules) else None
            vjps = ((rule(ans, *values, **params) if rule is not None
                     else primitive.stage_vjp(i, ans, values, params)),)
        else:
            vjps = tuple([primitive.stage_vjp(i, ans, values, params) for i in argnums])
        return self.record_new(ans, primitive, params, parents, argnums, vjps)

    def _process_binary(self, primitive, args):
        """The binary operators' path: `open_args` and `stage_vjp` for two arguments and
        no params, with positional calls only (~2 us less than the general path)."""
        x_box, y_box = args
        x_ours = isinstance(x_box, Box) and x_box._trace is self
        y_ours = isinstance(y_box, Box) and y_box._trace is self
        x = x_box.value if x_ours else x_box
        y = y_box.value if y_ours else y_box
        if isinstance(x, Box) or isinstance(y, Box):  # an outer transform's box remains
            ans = primitive(x, y)
        else:
            ans = primitive.impl(x, y)
        if not is_differentiable(ans):
            return ans
        x_rule, y_rule = primitive.vjp_rules
        if x_ours:
            x_vjp = (x_rule(ans, x, y) if x_rule is not None
                     else primitive.stage_vjp(0, ans, (x, y), NO_PARAMS))
            if not y_ours:
                return self.record_new(ans, primitive, NO_PARAMS, (x_box.node,), _FIRST,
                                       (x_vjp,))
        y_vjp = (y_rule(ans, x, y) if y_rule is not None
                 else primitive.stage_vjp(1, ans, (x, y), NO_PARAMS))
        if not x_ours:
            return self.record_new(ans, primitive, NO_PARAMS, (y_box.node,), _SECOND, (y_vjp,))
        return self.record_new(ans, primitive, NO_PARAMS, (x_box.node, y_box.node), _BOTH,
                               (x_vjp, y_vjp))

    def open_args(self, args):
        """The raw values of `args` (our boxes opened), our boxes' nodes and positions, and
        whether an outer transform's box remains among the values."""
        values = list(args)
        parents = []
        argnums = []
        outer = False
        for i, arg in enumerate(args):
            if isinstance(arg, Box):
                if arg._trace is self:
                    value = values[i] = arg.value
                    parents.append(arg.node)
                    argnums.append(i)
                    outer = outer or isinstance(value, Box)
                else:
                    outer = True
        return values, tuple(parents), tuple(argnums), outer

    def record_new(self, ans, primitive, params, parents, argnums, vjps):
        """Box `ans` with a new node on the tape: `Node(...)` and `record`, inlined."""
        node = new_object(Node)
        node.primitive = primitive
        node.params = params
        node.parents = parents
        node.argnums = argnums
        node.vjps = vjps
        self.tape.append(node)
        return new_box(ans, self, node)

    def record(self, ans, node):
        """Box a value computed outside `process_primitive` (custom rules)."""
        self.tape.append(node)
        return new_box(ans, self, node)


def backward_pass(tape, roots, root_cotangents, retain_graph=False):
    """Pull cotangents from `roots` back through the nodes on `tape` (a trace's).

    Returns {node: cotangent} for the nodes reached that are not on the tape: the leaves.
    Walking the tape backwards finishes each node's cotangent before the node is pulled
    back; nodes off every path to the roots have none and are skipped. Each cotangent is
    dropped once pulled back, and each node's staged rules (and the values they hold)
    once used, unless `retain_graph`.
    """
    cotangents = {}
    for root, ct in zip(roots, root_cotangents):
        cotangents[root] = add_cotangents(cotangents.get(root), ct)
    pop_cotangent = cotangents.pop
    for node in reversed(tape):
        ct = pop_cotangent(node, None)
        if ct is None:
            continue
        vjps = node.vjps
        if vjps is None:
            raise RuntimeError(
                f"funcgrad: trying to pull a cotangent through '{node.primitive.name}' a "
                f"second time, but its saved values were freed by the first backward "
                f"pass. Pass retain_graph=True to the first backward pass to keep them.")
        for parent, argnum, vjp in zip(node.parents, node.argnums, vjps):
            try:
                parent_ct = vjp(ct)
            except Exception as error:
                error.add_note(f"funcgrad: raised by the VJP rule of '{node.primitive.name}' "
                               f"for argument {argnum}{origin_note(node)}")
                raise
            if parent_ct is not None:
                previous = cotangents.get(parent)
                cotangents[parent] = (parent_ct if previous is None
                                      else add_cotangents(previous, parent_ct))
        if not retain_graph:
            node.vjps = None
    return cotangents
