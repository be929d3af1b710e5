"""The eager tape: compat's persistent reverse trace, and backward passes over it.

funcgrad's transforms open a trace per call and drop it when the call returns. PyTorch's
API instead records every operation on tensors that require gradients as the program
runs, and pulls cotangents back later, on demand, possibly several times. `TAPE` is that
recording: a `funcgrad.core.ReverseTrace` at `EAGER_LEVEL` (0), below every functional
transform (DESIGN.md, decision 4), so transforms see tensors as constants and the tape
never sees a transform's boxes. compat reaches the engine through two public entry
points: `TAPE.process_primitive` (record a primitive) and `TAPE.record` (record a custom
call, autograd.Function's).

A `TapeNode` is a core node (primitive, params, parents, residuals) plus what PyTorch's
API needs of it (see its docstring). Backward passes find the graph from its roots, order
it by the nodes' creation numbers (a topological order) and run funcgrad's one backward
loop over it, with `_Visit` doing the PyTorch parts at each node: hooks, gradient sinks,
checks of saved values, freeing, and re-saving residuals on boxed arguments for
`create_graph`.
"""
import itertools
import operator
import re
import weakref

import numpy as np

from funcgrad.core import (EAGER_LEVEL, ZERO_REACHED, Box, Node, ReverseBox, ReverseTrace,
                           backward_pass)

from . import _dtypes

_creation_numbers = itertools.count()
_new = object.__new__


# A version counter: how many times a stored value was modified in place, as
# ``counter[VERSION]``, shared by the tensors that alias the value. A dict holding an int
# rather than an object with a slot: the cyclic collector does not track a dict of numbers,
# so a tensor's counter is not one more object on its lists. (A tuple holding a dict stays
# tracked, dict untracked or not: hence `TapeNode.saved` is one flat tuple.)
VERSION = "version"
# A counter's mark for storage made in inference_mode: the tensors sharing the counter (views,
# detach(), .data) are inference tensors, as PyTorch's, which keep no version.
INFERENCE = "inference"
# A counter's weak reference to the tensor that detach() or .data made an alias of (they
# share its array): a write through the alias must leave the values that tensor's node
# holds as they were (`_inplace.keep_held_values`).
ALIAS_OF = "alias of"
# The values of one check in `TapeNode.saved`.
CHECK_FIELDS = 7


def version_counter():
    """A new version counter, at version 0."""
    return {VERSION: 0}


class TapeNode(Node):
    """A node of the eager tape. Beyond the core node's data it keeps

    * `number`: its creation number; creation order is a topological order;
    * `held`: the arrays among its residuals (`saved_values`), the values PyTorch calls
      saved tensors: version checks and copy-on-write look at these;
    * `recipe`: ``(*values, ans)``, the arguments' values (a boxed argument's value, whose
      node is its parent) and the result, while its residuals hold arrays, so that
      `create_graph` can save residuals again on the arguments boxed anew and the backward
      computation is itself recorded (DESIGN.md, decision 3: a node is a recipe that can be
      replayed). Values rather than boxes, in one flat tuple: a tuple of arrays and numbers
      is one object the cyclic collector stops tracking at its first collection (a tuple
      of tuples, at one collection a level), where boxes would be tracked for the node's
      lifetime;
    * `frees`: whether a backward pass frees its residuals once used (unless
      `retain_graph`); by default a node frees exactly when its residuals hold arrays, as
      PyTorch frees exactly the nodes that saved tensors;
    * `saved`: checks made before the node is pulled back, which catch values modified in
      place after they were saved: ``(counter, version, dtype, shape, creator,
      replay_only, follows)`` each (the value's NumPy dtype, shape and creator's label name
      it in the error; `follows`: the key of the counter's entry that holds a later label
      of that creator, see `_record._saved_entry`), one after another in one flat tuple
      (`CHECK_FIELDS` values each): the counter keeps a tuple on the cyclic collector's
      lists for the node's lifetime, so one tuple a node rather than one a check and one
      of them;
    * `hooks` (functions of the node's complete cotangent, which may replace it), `sink`
      (a callable returning the tensor whose .grad receives the cotangent: a leaf, or a
      tensor that called retain_grad()), and `label`, `edges` and `meta` (grad_fn's name,
      next_functions and object; `edges` is `parents` itself where they are the same).

    What the tape keeps on a node (parents, held, recipe, saved) is a tuple, not a list:
    tuples of arrays and numbers drop out of the cyclic collector's scans, which the eager
    tape cannot pause (the program runs between its operations). Residuals stay as the rules
    made them: converting them cost more instructions than the collector saved.
    """

    __slots__ = ("number", "held", "recipe", "frees", "saved", "hooks", "sink", "label",
                 "edges", "meta")

    def __init__(self, primitive, params, parents, residuals, held=(), recipe=None,
                 frees=False, label=None, edges=None):
        # `_record._recorded` sets these fields in place (no constructor call): keep in step.
        self.primitive = primitive
        self.params = params
        self.parents = parents
        self.residuals = residuals
        self.number = next(_creation_numbers)
        self.held = held
        self.recipe = recipe
        self.frees = frees
        self.saved = ()
        self.hooks = None
        self.sink = None
        self.label = label
        self.edges = edges
        self.meta = None

    def __repr__(self):
        name = self.label or (self.primitive.name if self.primitive is not None else "leaf")
        return f"<TapeNode {name}>"


def leaf_node(sink):
    node = TapeNode(None, None, (), ())
    node.sink = sink
    return node


class Tape(ReverseTrace):
    """The persistent trace at EAGER_LEVEL. It keeps no list of its nodes (it lives as
    long as the program): backward passes find them from their roots."""

    __slots__ = ()
    transform = "compat's autograd tape"

    def record(self, primitive, params, parents, residuals, ans, values=None):
        if type(parents) is list:  # a tuple, which `wrap` can share as the node's edges
            parents = tuple(parents)
        node = TapeNode(primitive, params, parents, residuals)
        if values is not None:
            held = saved_values(residuals)
            if held:
                node.held = held
                node.frees = True
                node.recipe = (*values, ans)
        box = _new(ReverseBox)  # built in place, as ReverseTrace.record does: no __init__ frame
        box.value = ans
        box._trace = self
        box.node = node
        return box

    def box(self, value, node):
        """`value` watched by the tape with history `node` (a leaf's, or an alias's)."""
        return ReverseBox(value, self, node)

    def to_python(self, box, kind):
        return kind(box.value)  # eager values convert as plain arrays do


TAPE = Tape(EAGER_LEVEL)


class InvalidatedBox(ReverseBox):
    """The box of a view whose storage was modified in place where PyTorch forbids it (a
    piece's, one made in no_grad mode: `_view_modes`): its value is the
    view's, its history the error `message`; `name` is the view's name in the errors
    ("Output 0 of Split"), None for one that had no history (a leaf to retain_grad)."""

    __slots__ = ("message", "name")

    def __init__(self, value, message, name):
        self.value = value
        self._trace = TAPE
        self.message = message
        self.name = name

    @property
    def node(self):
        raise RuntimeError(self.message)


# ---- saved values --------------------------------------------------------------------------

_SAVED_TYPES = (np.ndarray, np.generic, Box)
# The types of the other values residuals hold (shapes' ints, flags, dtypes), told apart by
# one set lookup rather than an isinstance of three classes each (0.45 us a matmul).
_PLAIN_TYPES = frozenset([int, float, bool, str, type(None)]
                         + [type(np.dtype(code)) for code in np.typecodes["All"]])


def saved_values(residuals):
    """The arrays (and boxes) among a node's residuals: its saved values. Residuals are
    tuples of values, and of tuples and lists of them; three levels are read (a tuple per
    argument, holding the rule's values and tuples of values), into a tuple."""
    found = []
    for a in residuals or ():
        kind = type(a)
        if kind is tuple or kind is list:
            for b in a:
                kind = type(b)
                if kind is tuple or kind is list:
                    for c in b:
                        kind = type(c)
                        if kind is np.ndarray or (kind not in _PLAIN_TYPES
                                                  and isinstance(c, _SAVED_TYPES)):
                            found.append(c)
                elif kind is np.ndarray or (kind not in _PLAIN_TYPES
                                            and isinstance(b, _SAVED_TYPES)):
                    found.append(b)
        elif kind is np.ndarray or (kind not in _PLAIN_TYPES and isinstance(a, _SAVED_TYPES)):
            found.append(a)
    return tuple(found)


def privatize(node, value):
    """Give `node` a copy of `value` wherever its residuals or its recipe hold `value`
    itself, so that `value` may then be modified in place without changing the node's
    derivatives (copy-on-write for a value about to be overwritten)."""
    for saved in node.held:  # a loop, not any() of a generator: ~0.3 us a call
        if saved is value:
            break
    else:
        return
    copy = value.copy()
    node.residuals = _replaced(node.residuals, value, copy, 3)
    node.held = tuple([copy if saved is value else saved for saved in node.held])
    if node.recipe is not None:
        node.recipe = tuple([copy if v is value else v for v in node.recipe])


def retie_saved(nodes, counters, counter):
    """Make the version checks of `nodes` that watch one of `counters` (those of a result
    that one of them saved) watch `counter` at its present version: the result has become
    the storage `counter` counts the updates of."""
    for node in nodes:
        if node.saved:
            fields = list(node.saved)
            for start in range(0, len(fields), CHECK_FIELDS):
                if any(fields[start] is c for c in counters):
                    fields[start:start + 2] = counter, counter[VERSION]
            node.saved = tuple(fields)


def _replaced(value, old, new, depth):
    if value is old:
        return new
    if depth and (type(value) is tuple or type(value) is list):
        return type(value)(_replaced(item, old, new, depth - 1) for item in value)
    return value


# ---- backward passes -----------------------------------------------------------------------


def backward(roots, root_cotangents, retain_graph=False, create_graph=False, wanted=None):
    """Pull cotangents from `roots` back through the eager tape.

    Returns {node: cotangent} for the nodes reached that have a `sink` (leaves, and
    non-leaves that retain their gradient) or, when `wanted` is given, for the nodes in
    `wanted` and the non-leaves with a sink (then only the part of the graph that leads to
    the wanted nodes is visited: PyTorch's autograd.grad and backward(inputs=...) fill the
    .grad of the tensors that retain it on the way, and of no other leaf); None for such a
    node reached only along paths whose rules gave None (symbolic zeros). Each node's hooks
    see its complete cotangent, and may replace it, before it is recorded or pulled
    further. Nodes whose `frees` is set are freed once used unless `retain_graph`. With
    `create_graph`, cotangents may be boxes of the tape and the computation is recorded on
    it (double backward).
    """
    nodes = _reachable(roots)
    if wanted is not None:
        nodes = _leading_to(nodes, wanted)
    tape = sorted(nodes, key=_creation_number)
    visit = _Visit(wanted, retain_graph, create_graph)
    # The bound method, not the object: CPython calls a bound method faster than an object's
    # __call__ (~0.1 us a node)
    backward_pass(tape, roots, root_cotangents, retain_graph=True, visit=visit.reached)
    results = visit.results  # (every node on the tape is reached: its parents are)
    for node, ct in results.items():
        if ct is ZERO_REACHED:
            results[node] = None  # reached, but every path to it contributes zero
    return results


_creation_number = operator.attrgetter("number")


def _collected(node, wanted):
    """Whether `backward` returns `node`'s cotangent."""
    if node.sink is not None and (wanted is None or node.parents):
        return True
    return wanted is not None and node in wanted


def _reachable(roots):
    """Every node the roots depend on (iteratively: graphs of any depth)."""
    seen = set(roots)
    stack = list(seen)
    while stack:
        for parent in stack.pop().parents:
            if parent is not None and parent not in seen:
                seen.add(parent)
                stack.append(parent)
    return seen


def _leading_to(nodes, wanted):
    """The nodes from which some node in `wanted` can be reached (the wanted nodes and
    everything computed from them)."""
    children = {}
    for node in nodes:
        for parent in node.parents:
            if parent is not None:
                children.setdefault(parent, []).append(node)
    kept = set()
    stack = [node for node in wanted if node in nodes]
    while stack:
        node = stack.pop()
        if node not in kept:
            kept.add(node)
            stack.extend(children.get(node, ()))
    return kept


# The primitives whose rule a backward pass runs with None for a cotangent reached only as
# zeros: autograd.Function's, whose backward then gets zeros tensors, as PyTorch's does.
RULES_TAKING_NONE = weakref.WeakSet()


class _Visit:
    """What a backward pass does at each node it reaches, before pulling its cotangent
    back (`reached`, `funcgrad.core.backward_pass`'s `visit`), and the results it keeps."""

    __slots__ = ("wanted", "retain_graph", "create_graph", "results")

    def __init__(self, wanted, retain_graph, create_graph):
        self.wanted = wanted
        self.retain_graph = retain_graph
        self.create_graph = create_graph
        self.results = {}

    def reached(self, node, ct):
        if ct is ZERO_REACHED:
            # PyTorch's zeros: as arrays for a node that reads values (its recipe's), so
            # that its rule and checks run as PyTorch's do, and as None for the rules in
            # RULES_TAKING_NONE. Any other rule is linear: skipped, its parents reached the
            # same way. Hooks make their tensor's zeros; `backward` gives sinks None.
            if node.recipe is not None:
                ct = _zeros_of(node.recipe[-1])
            elif node.primitive in RULES_TAKING_NONE:
                ct = None
        if node.hooks:
            ct = _run_hooks(node, ct)
        if _collected(node, self.wanted):
            self.results[node] = ct
        residuals = node.residuals
        if not node.parents:
            return ct, residuals
        if residuals is None:
            raise _freed_error(node)
        replaying = self.create_graph and node.recipe is not None
        saved = node.saved
        if saved:
            for start in range(0, len(saved), CHECK_FIELDS):  # inline: no frame
                counter = saved[start]
                follows = saved[start + 6]
                # (a saved input that had a creator and has none now: detach_() since)
                if (follows is not None and saved[start + 4] is not None
                        and counter.get(follows, True) is None):
                    raise RuntimeError(_DETACHED)
                if counter[VERSION] != saved[start + 1] and (replaying or not saved[start + 5]):
                    raise _modified_error(*saved[start:start + 5], follows)
        if replaying:
            recipe = node.recipe  # (*values, ans); zip stops before ans
            args = tuple([value if parent is None else TAPE.box(value, parent)
                          for value, parent in zip(recipe, node.parents)])
            residuals = node.primitive.vjp.save(TAPE.box(recipe[-1], node), args,
                                                node.params, node.parents)
        if node.frees and not self.retain_graph:
            node.residuals = node.recipe = None
            node.held = node.saved = ()  # (saved inputs' tensors let go with their arrays)
        return ct, residuals


def _zeros_of(value):
    """Zeros of `value`'s shape and dtype (a tuple of them for a node's several results)."""
    if type(value) is tuple:
        return tuple([_zeros_of(v) for v in value])
    return np.zeros_like(value)


def _run_hooks(node, ct):
    for hook in tuple(node.hooks.values()):
        new_ct = hook(ct)
        if new_ct is not None:
            ct = new_ct
    return ct


_DETACHED = ("Trying to use a saved tensor that has been detached in-place, i.e. with "
             ".detach_().This is not supported, please use out-of-place `.detach()` instead")


def _freed_error(node):
    return RuntimeError(
        "Trying to backward through the graph a second time (or directly access saved "
        "tensors after they have already been freed). Saved intermediate values of the graph "
        "are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if "
        "you need to backward through the graph a second time or if you need to access saved "
        "tensors after calling backward.")


def _modified_error(counter, version, dtype, shape, creator, follows):
    if follows is not None:  # a saved input: its creator after the updates, if they made one
        creator = counter.get(follows, creator)
    return RuntimeError(
        f"one of the variables needed for gradient computation has been modified by an "
        f"inplace operation: {_describe(dtype, shape, creator)} is at version "
        f"{counter[VERSION]}; expected version {version} instead. Hint: enable anomaly "
        f"detection to find the operation that failed to compute its gradient, with "
        f"torch.autograd.set_detect_anomaly(True, check_nan=False).")


# The nodes PyTorch writes in C++ by hand, which grad_fn.name() and error texts give with
# their namespace.
CPP_NODE_NAMES = {"AccumulateGrad": "torch::autograd::AccumulateGrad",
                  "CopyBackwards": "torch::autograd::CopyBackwards",
                  "CopySlices": "torch::autograd::CopySlices",
                  "NotImplemented": "torch::autograd::NotImplemented"}
# "Backward" and a "0" after it: PowBackward1 is named Pow1, MulBackward0 Mul.
_BACKWARD_SUFFIX = re.compile(r"Backwards?0?$|Backward(?=\d+$)")


def _describe(dtype, shape, creator):
    """PyTorch's name for a saved tensor, from the NumPy dtype, shape and creator's label
    (and place among its outputs) that `saved` keeps (formatted only if the check fails)."""
    name = f"[{_dtypes.from_numpy_dtype(dtype).type_string} {list(shape)}]"
    if not creator:
        return name
    creator, place = creator if type(creator) is tuple else (creator, 0)
    # PyTorch names the creating node as name() does, without "Backward" (and its 0).
    creator = CPP_NODE_NAMES.get(creator, creator)
    return f"{name}, which is output {place} of {_BACKWARD_SUFFIX.sub('', creator)},"
