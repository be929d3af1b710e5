"""Pytrees: nested containers whose leaves the transforms operate on.

A pytree is a tuple, list, dict, namedtuple, OrderedDict, defaultdict, None,
or an instance of a registered class, nested arbitrarily; anything else is a
leaf.  Flattening a pytree gives its leaves in a fixed order plus a hashable
``PyTreeDef`` describing the containers, from which the tree can be rebuilt.

Nothing in this module recurses: trees are walked with explicit stacks, so a
list nested 100,000 levels deep works like any other tree.
"""

from collections import OrderedDict, defaultdict
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Optional, Tuple

__all__ = [
    "PyTreeDef",
    "DictKey",
    "SequenceKey",
    "GetAttrKey",
    "FlattenedIndexKey",
    "register_pytree_node",
    "register_pytree_node_class",
    "tree_flatten",
    "tree_unflatten",
    "tree_leaves",
    "tree_structure",
    "tree_map",
    "tree_flatten_with_path",
    "keystr",
]

# ---------------------------------------------------------------------------
# Node kinds and records
#
# A treedef is the preorder sequence of its nodes.  Each node is a record
# ``(kind, arity, aux)``; ``aux`` holds whatever besides the children is needed
# to rebuild the container (dict keys, the namedtuple class, ...).  Records are
# plain tuples so treedef equality and hashing are plain tuple operations.

_LEAF, _NONE, _TUPLE, _LIST, _DICT, _NAMEDTUPLE, _ORDEREDDICT, _DEFAULTDICT, _CUSTOM = range(9)

_LEAF_NODE = (_LEAF, 0, None)
_NONE_NODE = (_NONE, 0, None)

# Container kinds by exact type.  Exact types (not isinstance) because a
# subclass may have a constructor we cannot call; unknown types are classified
# once in _classify and cached here.
_kinds = {
    tuple: _TUPLE,
    list: _LIST,
    dict: _DICT,
    type(None): _NONE,
    OrderedDict: _ORDEREDDICT,
    defaultdict: _DEFAULTDICT,
}
_BUILTIN_TYPES = frozenset(_kinds)

# Registered classes: type -> (flatten_fn, unflatten_fn).
_registry = {}


def _classify(cls):
    """Kind of a type not seen before; cached in _kinds."""
    if cls in _registry:
        kind = _CUSTOM
    elif issubclass(cls, tuple) and hasattr(cls, "_fields"):
        kind = _NAMEDTUPLE
    else:
        kind = _LEAF
    _kinds[cls] = kind
    return kind


def register_pytree_node(nodetype: type, flatten_fn: Callable, unflatten_fn: Callable) -> None:
    """Make ``nodetype`` a pytree container.

    ``flatten_fn(obj)`` returns ``(children, aux_data)`` where ``aux_data`` is
    hashable; ``unflatten_fn(aux_data, children)`` rebuilds the object.
    """
    if not isinstance(nodetype, type):
        raise TypeError(f"register_pytree_node: expected a type, got {nodetype!r}")
    if nodetype in _registry or nodetype in _BUILTIN_TYPES:
        raise ValueError(f"{nodetype.__qualname__} is already registered as a pytree node")
    _registry[nodetype] = (flatten_fn, unflatten_fn)
    # The type may already be cached as a leaf or a namedtuple.
    _kinds[nodetype] = _CUSTOM


def register_pytree_node_class(cls: type) -> type:
    """Class decorator: register ``cls`` via its ``tree_flatten`` method and
    ``tree_unflatten`` classmethod."""
    register_pytree_node(cls, lambda obj: obj.tree_flatten(), cls.tree_unflatten)
    return cls


def _sorted_keys(d):
    try:
        return tuple(sorted(d))
    except TypeError:
        raise TypeError(
            f"tree_flatten: cannot flatten a {type(d).__name__} whose keys cannot be "
            f"sorted ({sorted({type(k).__name__ for k in d})}); pytree dict keys "
            "are ordered by sorting, so they must be mutually comparable"
        ) from None


def _expand(x):
    """Return ``(node, children)`` for one level of ``x``."""
    cls = type(x)
    kind = _kinds.get(cls)
    if kind is None:
        kind = _classify(cls)
    if kind == _LEAF:
        return _LEAF_NODE, ()
    if kind == _TUPLE or kind == _LIST:
        return (kind, len(x), None), x
    if kind == _NONE:
        return _NONE_NODE, ()
    if kind == _DICT:
        keys = _sorted_keys(x)
        return (_DICT, len(keys), keys), [x[k] for k in keys]
    if kind == _NAMEDTUPLE:
        return (_NAMEDTUPLE, len(x), cls), x
    if kind == _ORDEREDDICT:
        keys = tuple(x)
        return (_ORDEREDDICT, len(keys), keys), [x[k] for k in keys]
    if kind == _DEFAULTDICT:
        keys = _sorted_keys(x)
        return (_DEFAULTDICT, len(keys), (x.default_factory, keys)), [x[k] for k in keys]
    # Registered class.
    children, aux = _registry[cls][0](x)
    children = tuple(children)
    try:
        hash(aux)
    except TypeError:
        raise TypeError(
            f"tree_flatten: the flatten function registered for {cls.__qualname__} returned "
            f"aux_data of unhashable type {type(aux).__name__}; aux_data must be hashable "
            "so that treedefs can be compared and hashed. Return a hashable value instead, "
            "e.g. a tuple rather than a list, a frozenset rather than a set, or a frozen "
            "dataclass."
        ) from None
    return (_CUSTOM, len(children), (cls, aux)), children


def _build(node, children):
    """Inverse of _expand: rebuild a container from its node and children."""
    kind, _, aux = node
    if kind == _TUPLE:
        return tuple(children)
    if kind == _LIST:
        return list(children)
    if kind == _NONE:
        return None
    if kind == _DICT:
        return dict(zip(aux, children))
    if kind == _NAMEDTUPLE:
        return aux(*children)
    if kind == _ORDEREDDICT:
        return OrderedDict(zip(aux, children))
    if kind == _DEFAULTDICT:
        return defaultdict(aux[0], zip(aux[1], children))
    cls, aux_data = aux
    return _registry[cls][1](aux_data, tuple(children))


# ---------------------------------------------------------------------------
# Key paths


@dataclass(frozen=True)
class DictKey:
    """Path entry for a dict value: renders as ``['a']``."""

    key: Hashable

    def __str__(self):
        return f"[{self.key!r}]"


@dataclass(frozen=True)
class SequenceKey:
    """Path entry for a tuple or list element: renders as ``[0]``."""

    idx: int

    def __str__(self):
        return f"[{self.idx}]"


@dataclass(frozen=True)
class GetAttrKey:
    """Path entry for a namedtuple field: renders as ``.name``."""

    name: str

    def __str__(self):
        return f".{self.name}"


@dataclass(frozen=True)
class FlattenedIndexKey:
    """Path entry for a child of a registered class: renders as ``[0]``."""

    key: int

    def __str__(self):
        return f"[{self.key}]"


def keystr(path: Iterable) -> str:
    """Render a key path, e.g. ``['a'][0].field``."""
    return "".join(map(str, path))


def _child_keys(node):
    kind, arity, aux = node
    if kind == _TUPLE or kind == _LIST:
        return [SequenceKey(i) for i in range(arity)]
    if kind == _DICT or kind == _ORDEREDDICT:
        return [DictKey(k) for k in aux]
    if kind == _DEFAULTDICT:
        return [DictKey(k) for k in aux[1]]
    if kind == _NAMEDTUPLE:
        return [GetAttrKey(f) for f in aux._fields]
    return [FlattenedIndexKey(i) for i in range(arity)]


def _path_to(nodes, target):
    """Key path of the node at preorder position ``target``."""
    path = []
    stack = []  # one [child_keys, next_child] frame per open container
    for i, node in enumerate(nodes):
        while stack and stack[-1][1] == len(stack[-1][0]):
            stack.pop()
        if stack:
            frame = stack[-1]
            del path[len(stack) - 1:]
            path.append(frame[0][frame[1]])
            frame[1] += 1
        if i == target:
            return tuple(path)
        if node[1]:
            stack.append([_child_keys(node), 0])
    raise IndexError(target)


# ---------------------------------------------------------------------------
# PyTreeDef


def _describe(node, children_word=True):
    """Human-readable node description for error messages."""
    kind, arity, aux = node
    if kind == _LEAF:
        return "a leaf"
    if kind == _NONE:
        return "None"
    if kind == _TUPLE or kind == _LIST:
        noun = "tuple" if kind == _TUPLE else "list"
        return f"a {noun} of {arity}" + (" children" if children_word else "")
    if kind == _DICT:
        return f"a dict with keys {list(aux)}"
    if kind == _NAMEDTUPLE:
        return f"a namedtuple {aux.__qualname__}"
    if kind == _ORDEREDDICT:
        return f"an OrderedDict with keys {list(aux)}"
    if kind == _DEFAULTDICT:
        return f"a defaultdict({aux[0]!r}) with keys {list(aux[1])}"
    cls, aux_data = aux
    return f"a {cls.__qualname__} node with {arity} children and aux_data {aux_data!r}"


def _delimiters(node):
    """``(opening, child_labels, closing)`` used when printing a treedef."""
    kind, arity, aux = node
    if kind == _TUPLE:
        return "(", None, ",)" if arity == 1 else ")"
    if kind == _LIST:
        return "[", None, "]"
    if kind == _DICT:
        return "{", [f"{k!r}: " for k in aux], "}"
    if kind == _NAMEDTUPLE:
        return f"{aux.__name__}(", [f"{f}=" for f in aux._fields], ")"
    if kind == _ORDEREDDICT:
        return "OrderedDict({", [f"{k!r}: " for k in aux], "})"
    if kind == _DEFAULTDICT:
        factory = getattr(aux[0], "__name__", repr(aux[0]))
        return f"defaultdict({factory}, {{", [f"{k!r}: " for k in aux[1]], "})"
    cls, aux_data = aux
    return f"CustomNode({cls.__name__}[{aux_data!r}], [", None, "])"


class PyTreeDef:
    """The container structure of a pytree, without its leaves.

    Two treedefs are equal when they have the same node types, the same aux
    data (dict keys, namedtuple class, ...) and the same shape.
    """

    __slots__ = ("_nodes", "_num_leaves", "_hash", "_flat")

    def __init__(self, nodes: Tuple, num_leaves: int):
        self._nodes = nodes  # preorder tuple of (kind, arity, aux) records
        self._num_leaves = num_leaves
        self._hash = None
        # The two structures every transform call rebuilds (its arguments, its gradients)
        # get a shortcut in unflatten: a lone leaf, or a tuple of leaves.
        if nodes == (_LEAF_NODE,):
            self._flat = _LEAF
        elif nodes[0] == (_TUPLE, num_leaves, None) and len(nodes) == num_leaves + 1 and (
                nodes.count(_LEAF_NODE) == num_leaves):
            self._flat = _TUPLE
        else:
            self._flat = None

    @property
    def num_leaves(self) -> int:
        """Number of leaves."""
        return self._num_leaves

    @property
    def num_nodes(self) -> int:
        """Number of nodes, counting leaves and None."""
        return len(self._nodes)

    def unflatten(self, leaves: Iterable) -> Any:
        """Rebuild a tree of this structure from ``leaves``."""
        if not isinstance(leaves, (list, tuple)):
            leaves = list(leaves)
        if len(leaves) != self._num_leaves:
            raise ValueError(
                f"tree_unflatten: treedef expects {self._num_leaves} leaves, "
                f"got {len(leaves)}"
            )
        if self._flat == _TUPLE:
            return tuple(leaves)
        if self._flat == _LEAF:
            return leaves[0]
        # Walk the nodes backwards: each container's children are then the
        # top entries of the stack, first child on top.
        stack = []
        i = len(leaves)
        for node in reversed(self._nodes):
            kind, arity, _ = node
            if kind == _LEAF:
                i -= 1
                stack.append(leaves[i])
            elif kind == _NONE:
                stack.append(None)
            else:
                children = stack[len(stack) - arity:]
                del stack[len(stack) - arity:]
                children.reverse()
                stack.append(_build(node, children))
        return stack[0]

    def unflattener(self) -> Callable[[list], Any]:
        """A function equal to `unflatten` for a list of exactly `num_leaves` leaves,
        compiled for this structure when it holds tuples, lists and None only (jit
        rebuilds its results with it on every call)."""
        kinds = {kind for kind, _, _ in self._nodes}
        if not kinds <= {_LEAF, _NONE, _TUPLE, _LIST}:
            return self.unflatten
        position = iter(range(self._num_leaves))

        def source(nodes):  # the expression of the subtree at nodes[0], and what follows
            kind, arity, _ = nodes[0]
            rest = nodes[1:]
            if kind == _LEAF:
                return f"leaves[{next(position)}]", rest
            if kind == _NONE:
                return "None", rest
            parts = []
            for _ in range(arity):
                part, rest = source(rest)
                parts.append(part + ", ")
            opening, closing = ("(", ")") if kind == _TUPLE else ("[", "]")
            return opening + "".join(parts) + closing, rest

        expression, _ = source(self._nodes)
        return eval(f"lambda leaves: {expression}")  # noqa: S307 (text built above)

    def flatten_up_to(self, tree: Any) -> list:
        """Leaves of ``tree`` cut off at this treedef's leaves.

        ``tree`` must match this structure down to its leaves; what sits in
        ``tree`` at a leaf position may be any subtree.
        """
        return self._flatten_up_to(tree, None)

    def _flatten_up_to(self, tree, arg_index):
        # arg_index: position of ``tree`` among tree_map's arguments, for the
        # error message; None when called as flatten_up_to.
        leaves = []
        stack = [tree]
        for i, node in enumerate(self._nodes):
            x = stack.pop()
            kind = node[0]
            if kind == _LEAF:
                leaves.append(x)
                continue
            # Fast path for plain tuples and lists of the right length.
            cls = type(x)
            if (cls is tuple and kind == _TUPLE or cls is list and kind == _LIST) and len(x) == node[1]:
                stack.extend(reversed(x))
                continue
            got, children = _expand(x)
            if got != node:
                path = _path_to(self._nodes, i)
                where = keystr(path) if path else "the root"
                if got[0] == _LEAF:
                    got_text = f"a leaf of type {type(x).__name__}"
                else:
                    got_text = _describe(got, children_word=False)
                if arg_index is None:
                    context = "flatten_up_to: tree does not match treedef"
                else:
                    context = f"tree_map: argument {arg_index} differs from argument 0"
                raise ValueError(f"{context} at {where}: expected {_describe(node)}, got {got_text}")
            stack.extend(reversed(children))
        return leaves

    def __eq__(self, other):
        if not isinstance(other, PyTreeDef):
            return NotImplemented
        return self._num_leaves == other._num_leaves and self._nodes == other._nodes

    def __hash__(self):
        if self._hash is None:
            self._hash = hash(self._nodes)
        return self._hash

    def __repr__(self):
        parts = ["PyTreeDef("]
        stack = []  # one [labels, next_child, arity, closing] frame per open container
        for node in self._nodes:
            if stack:
                frame = stack[-1]
                if frame[1]:
                    parts.append(", ")
                if frame[0] is not None:
                    parts.append(frame[0][frame[1]])
                frame[1] += 1
            kind, arity, _ = node
            if kind == _LEAF:
                parts.append("*")
            elif kind == _NONE:
                parts.append("None")
            else:
                opening, labels, closing = _delimiters(node)
                parts.append(opening)
                if arity:
                    stack.append([labels, 0, arity, closing])
                    continue
                parts.append(closing)
            while stack and stack[-1][1] == stack[-1][2]:
                parts.append(stack.pop()[3])
        parts.append(")")
        return "".join(parts)


# ---------------------------------------------------------------------------
# Public functions


def tree_flatten(tree: Any, is_leaf: Optional[Callable[[Any], bool]] = None):
    """Return ``(leaves, treedef)``.

    ``is_leaf(x)`` returning true makes ``x`` a leaf even if it is a container.
    """
    kinds = _kinds
    if is_leaf is None:
        # The two trees every transform call flattens: its arguments (a tuple of arrays)
        # and its output (an array). Their treedefs are shared, not rebuilt.
        if kinds.get(type(tree)) == _LEAF:
            return [tree], _LEAF_TREEDEF
        if type(tree) is tuple and len(tree) <= _SHARED_TUPLES:
            for x in tree:
                if kinds.get(type(x)) != _LEAF:
                    break
            else:
                return list(tree), _TUPLE_TREEDEFS[len(tree)]
    leaves = []
    nodes = []
    stack = [tree]
    # Otherwise plain tuples, lists and already-seen leaf types are handled inline;
    # everything else goes through _expand.
    while stack:
        x = stack.pop()
        if is_leaf is not None and is_leaf(x):
            leaves.append(x)
            nodes.append(_LEAF_NODE)
            continue
        cls = type(x)
        if cls is tuple:
            nodes.append((_TUPLE, len(x), None))
            stack.extend(reversed(x))
        elif cls is list:
            nodes.append((_LIST, len(x), None))
            stack.extend(reversed(x))
        elif kinds.get(cls) == _LEAF:
            leaves.append(x)
            nodes.append(_LEAF_NODE)
        else:
            node, children = _expand(x)
            nodes.append(node)
            if node is _LEAF_NODE:
                leaves.append(x)
            else:
                stack.extend(reversed(children))
    count = len(leaves)
    if count <= _SHARED_TUPLES and len(nodes) == count + 1 and nodes[0] == (_TUPLE, count, None):
        # A tuple of leaves of a type seen for the first time: the shared treedef, so
        # that caches keyed by it (jit's) find it again by identity.
        return leaves, _TUPLE_TREEDEFS[count]
    return leaves, PyTreeDef(tuple(nodes), count)


_LEAF_TREEDEF = PyTreeDef((_LEAF_NODE,), 1)
_SHARED_TUPLES = 8
_TUPLE_TREEDEFS = [PyTreeDef(((_TUPLE, n, None),) + (_LEAF_NODE,) * n, n)
                   for n in range(_SHARED_TUPLES + 1)]


def tree_unflatten(treedef: PyTreeDef, leaves: Iterable) -> Any:
    """Rebuild a tree from ``treedef`` and its leaves."""
    if not isinstance(treedef, PyTreeDef):
        raise TypeError(f"tree_unflatten: expected a PyTreeDef, got {type(treedef).__name__}")
    return treedef.unflatten(leaves)


def tree_leaves(tree: Any, is_leaf: Optional[Callable[[Any], bool]] = None) -> list:
    """The leaves of ``tree`` in flattening order."""
    return tree_flatten(tree, is_leaf)[0]


def tree_structure(tree: Any, is_leaf: Optional[Callable[[Any], bool]] = None) -> PyTreeDef:
    """The treedef of ``tree``."""
    return tree_flatten(tree, is_leaf)[1]


def tree_map(f: Callable, tree: Any, *rest: Any, is_leaf: Optional[Callable[[Any], bool]] = None) -> Any:
    """Apply ``f`` leafwise: ``f(leaf, *corresponding leaves of rest)``.

    Each tree in ``rest`` must have the structure of ``tree`` (as in JAX, a
    subtree of ``rest`` standing where ``tree`` has a leaf is passed whole).
    """
    leaves, treedef = tree_flatten(tree, is_leaf)
    if not rest:
        return treedef.unflatten(list(map(f, leaves)))
    others = []
    for i, r in enumerate(rest, 1):
        others.append(treedef._flatten_up_to(r, i))
    return treedef.unflatten(list(map(f, leaves, *others)))


def tree_flatten_with_path(tree: Any, is_leaf: Optional[Callable[[Any], bool]] = None):
    """Return ``([(path, leaf), ...], treedef)``; each path is a tuple of keys."""
    out = []
    nodes = []
    path = []  # keys from the root to the node being visited
    stack = [(tree, 0, None)]  # (subtree, depth, key in its parent)
    while stack:
        x, depth, key = stack.pop()
        if depth:
            del path[depth - 1:]
            path.append(key)
        if is_leaf is not None and is_leaf(x):
            node = _LEAF_NODE
        else:
            node, children = _expand(x)
        nodes.append(node)
        if node is _LEAF_NODE:
            out.append((tuple(path), x))
        elif node[1]:
            keys = _child_keys(node)
            for k, child in zip(reversed(keys), reversed(children)):
                stack.append((child, depth + 1, k))
    return out, PyTreeDef(tuple(nodes), len(out))
