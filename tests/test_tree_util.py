"""Tests for funcgrad.tree_util."""

import collections
import re
from collections import OrderedDict, defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from funcgrad.tree_util import (
    DictKey,
    FlattenedIndexKey,
    GetAttrKey,
    PyTreeDef,
    SequenceKey,
    keystr,
    register_pytree_node,
    register_pytree_node_class,
    tree_flatten,
    tree_flatten_with_path,
    tree_leaves,
    tree_map,
    tree_structure,
    tree_unflatten,
)

Point = collections.namedtuple("Point", ["x", "y"])
Empty = collections.namedtuple("Empty", [])


class Pair:
    """Registered with register_pytree_node; ``name`` is aux data."""

    def __init__(self, a, b, name="pair"):
        self.a, self.b, self.name = a, b, name

    def __eq__(self, other):
        return type(other) is Pair and (self.a, self.b, self.name) == (other.a, other.b, other.name)

    def __repr__(self):
        return f"Pair({self.a!r}, {self.b!r}, {self.name!r})"


register_pytree_node(Pair, lambda p: ((p.a, p.b), p.name), lambda name, ch: Pair(*ch, name=name))


@register_pytree_node_class
class Box:
    """Registered with the decorator; holds a variable number of children."""

    def __init__(self, items, tag):
        self.items, self.tag = list(items), tag

    def tree_flatten(self):
        return self.items, self.tag

    @classmethod
    def tree_unflatten(cls, tag, children):
        return cls(children, tag)

    def __eq__(self, other):
        return type(other) is Box and (self.items, self.tag) == (other.items, other.tag)


class BadAux:
    def __init__(self, x):
        self.x = x


register_pytree_node(BadAux, lambda b: ((b.x,), [1, 2]), lambda aux, ch: BadAux(ch[0]))


def _same(a, b):
    """Equality that also checks container types, which == ignores for dicts."""
    return type(a) is type(b) and a == b


# ---------------------------------------------------------------------------
# Round trips


ROUND_TRIP_CASES = [
    1,
    "leaf",
    None,
    (),
    [],
    {},
    (1,),
    [1, 2, 3],
    {"b": 1, "a": 2},
    (1, [2, (3, None)], {"k": [4, {"z": 5, "y": ()}]}),
    Point(1, 2),
    Point(Point(1, [2]), {"a": None}),
    Empty(),
    OrderedDict([("z", 1), ("a", 2)]),
    defaultdict(list, {"b": 1, "a": [2, 3]}),
    Pair(1, (2, 3), name="p"),
    Box([1, Pair(2, 3), None], tag=("t", 1)),
    Box([], tag=None),
    [None, [None], {"n": None}],
    {"a": Point(OrderedDict(b=1), Box([2], "x")), "b": [defaultdict(int), ()]},
]


def _case_id(tree):
    """The tree's repr without object addresses: the same test names in every process
    (pytest-xdist's workers must collect the same tests)."""
    return re.sub(r" at 0x[0-9a-f]+", "", repr(tree))


@pytest.mark.parametrize("tree", ROUND_TRIP_CASES, ids=_case_id)
def test_round_trip(tree):
    leaves, treedef = tree_flatten(tree)
    rebuilt = tree_unflatten(treedef, leaves)
    assert _same(rebuilt, tree)
    assert tree_structure(rebuilt) == treedef
    assert treedef.num_leaves == len(leaves)
    assert _same(tree_map(lambda x: x, tree), tree)


@pytest.mark.parametrize("tree", ROUND_TRIP_CASES + [(1, (2, [3, None]), [])], ids=_case_id)
def test_unflattener_rebuilds_as_unflatten_does(tree):
    # Compiled for trees of tuples, lists and None; unflatten itself for the others.
    leaves, treedef = tree_flatten(tree)
    rebuilt = treedef.unflattener()(leaves)
    assert _same(rebuilt, tree)
    assert _same(rebuilt, treedef.unflatten(leaves))


def test_leaf_order():
    tree = {"b": [1, 2], "a": (3, {"d": 4, "c": 5}), "e": None}
    assert tree_leaves(tree) == [3, 5, 4, 1, 2]
    assert tree_leaves(OrderedDict([("z", 1), ("a", 2)])) == [1, 2]
    assert tree_leaves(defaultdict(list, {"z": 1, "a": 2})) == [2, 1]
    assert tree_leaves(Point(y=1, x=2)) == [2, 1]
    assert tree_leaves(Pair(1, 2)) == [1, 2]


def test_dict_rebuilt_in_sorted_order():
    rebuilt = tree_map(lambda x: x, {"b": 1, "a": 2})
    assert list(rebuilt) == ["a", "b"]


def test_none_is_an_empty_node():
    assert tree_leaves(None) == []
    assert tree_leaves([None, 1, (None,)]) == [1]
    treedef = tree_structure(None)
    assert treedef.num_leaves == 0 and treedef.num_nodes == 1
    assert tree_unflatten(treedef, []) is None
    assert treedef != tree_structure(1)


def test_empty_containers():
    for empty in [(), [], {}, OrderedDict(), defaultdict(int), Empty()]:
        leaves, treedef = tree_flatten(empty)
        assert leaves == [] and treedef.num_nodes == 1
        assert _same(treedef.unflatten([]), empty)


def test_namedtuple_is_not_a_plain_tuple():
    rebuilt = tree_map(lambda v: v * 10, Point(1, 2))
    assert type(rebuilt) is Point and rebuilt == Point(10, 20)
    assert tree_structure(Point(1, 2)) != tree_structure((1, 2))
    Other = collections.namedtuple("Other", ["x", "y"])
    assert tree_structure(Point(1, 2)) != tree_structure(Other(1, 2))


def test_ordereddict_and_defaultdict_keep_their_type():
    od = tree_map(lambda v: v + 1, OrderedDict([("z", 1), ("a", 2)]))
    assert type(od) is OrderedDict and list(od.items()) == [("z", 2), ("a", 3)]
    dd = tree_map(lambda v: v + 1, defaultdict(list, {"a": 1}))
    assert type(dd) is defaultdict and dd.default_factory is list and dd == {"a": 2}
    assert tree_structure(defaultdict(list, a=1)) != tree_structure(defaultdict(set, a=1))
    assert tree_structure(defaultdict(list, a=1)) != tree_structure({"a": 1})
    assert tree_structure(OrderedDict(a=1)) != tree_structure({"a": 1})
    # Insertion order is part of an OrderedDict's structure.
    assert tree_structure(OrderedDict(a=1, b=2)) != tree_structure(OrderedDict(b=2, a=1))


def test_unregistered_subclasses_are_leaves():
    class MyTuple(tuple):
        pass

    class MyDict(dict):
        pass

    assert tree_leaves(MyTuple((1, 2))) == [MyTuple((1, 2))]
    assert tree_leaves([MyDict(a=1)]) == [MyDict(a=1)]


def test_registered_classes():
    p = Pair([1, 2], None, name="n")
    assert tree_leaves(p) == [1, 2]
    doubled = tree_map(lambda v: v * 2, p)
    assert doubled == Pair([2, 4], None, name="n")
    box = Box([1, (2, 3)], tag="t")
    assert tree_leaves(box) == [1, 2, 3]
    assert tree_map(lambda v: -v, box) == Box([-1, (-2, -3)], tag="t")
    # Aux data takes part in equality.
    assert tree_structure(Pair(1, 2, "a")) != tree_structure(Pair(1, 2, "b"))
    assert tree_structure(Box([1], "t")) != tree_structure(Box([1, 2], "t"))


def test_register_twice_raises():
    class Twice:
        pass

    register_pytree_node(Twice, lambda t: ((), None), lambda aux, ch: Twice())
    with pytest.raises(ValueError, match="already registered"):
        register_pytree_node(Twice, lambda t: ((), None), lambda aux, ch: Twice())
    with pytest.raises(ValueError, match="already registered"):
        register_pytree_node(tuple, lambda t: (t, None), lambda aux, ch: tuple(ch))
    with pytest.raises(TypeError):
        register_pytree_node("not a type", None, None)


def test_registration_overrides_cached_classification():
    class Late:
        pass

    assert tree_leaves([Late()])[0].__class__ is Late  # cached as a leaf type
    register_pytree_node(Late, lambda t: ((1, 2), None), lambda aux, ch: Late())
    assert tree_leaves([Late()]) == [1, 2]


def test_unhashable_aux_data_raises():
    with pytest.raises(TypeError, match=r"BadAux.*aux_data.*hashable.*tuple"):
        tree_flatten([BadAux(1)])


def test_unsortable_dict_keys_raise():
    with pytest.raises(TypeError, match="sorted"):
        tree_flatten({1: "a", "b": 2})
    with pytest.raises(TypeError, match="sorted"):
        tree_flatten(defaultdict(list, {1: "a", "b": 2}))
    # Insertion-ordered dicts need no sorting.
    assert tree_leaves(OrderedDict([(1, "a"), ("b", 2)])) == ["a", 2]


# ---------------------------------------------------------------------------
# PyTreeDef


def test_treedef_equality_and_hash():
    a = tree_structure({"x": [1, 2], "y": None})
    b = tree_structure({"x": ["p", "q"], "y": None})
    assert a == b and hash(a) == hash(b)
    assert {a: "ok"}[b] == "ok"
    assert a != tree_structure({"x": [1, 2], "z": None})
    assert a != tree_structure({"x": (1, 2), "y": None})
    assert a != tree_structure({"x": [1, 2, 3], "y": None})
    assert a != tree_structure({"x": [1, 2], "y": 3})
    assert a != "not a treedef"
    assert tree_structure([[1], 2]) != tree_structure([1, [2]])
    assert isinstance(a, PyTreeDef)


def test_treedef_repr():
    assert repr(tree_structure((1, {"a": 2, "b": [3, 4]}))) == "PyTreeDef((*, {'a': *, 'b': [*, *]}))"
    assert repr(tree_structure(1)) == "PyTreeDef(*)"
    assert repr(tree_structure(None)) == "PyTreeDef(None)"
    assert repr(tree_structure((1,))) == "PyTreeDef((*,))"
    assert repr(tree_structure([(), [], {}])) == "PyTreeDef([(), [], {}])"
    assert repr(tree_structure(Point(1, None))) == "PyTreeDef(Point(x=*, y=None))"
    assert repr(tree_structure(OrderedDict(b=1, a=2))) == "PyTreeDef(OrderedDict({'b': *, 'a': *}))"
    assert repr(tree_structure(defaultdict(list, a=1))) == "PyTreeDef(defaultdict(list, {'a': *}))"
    assert repr(tree_structure(Pair(1, [2], "n"))) == "PyTreeDef(CustomNode(Pair['n'], [*, [*]]))"


def test_num_leaves_and_nodes():
    treedef = tree_structure((1, {"a": 2, "b": [3, None]}))
    assert treedef.num_leaves == 3
    # tuple, leaf, dict, leaf, list, leaf, None
    assert treedef.num_nodes == 7


def test_treedef_unflatten_method_and_iterables():
    treedef = tree_structure([1, (2, 3)])
    assert treedef.unflatten([4, 5, 6]) == [4, (5, 6)]
    assert tree_unflatten(treedef, iter([4, 5, 6])) == [4, (5, 6)]
    assert tree_unflatten(treedef, (4, 5, 6)) == [4, (5, 6)]


def test_wrong_leaf_count():
    treedef = tree_structure([1, (2, 3)])
    with pytest.raises(ValueError, match=r"expects 3 leaves, got 2"):
        tree_unflatten(treedef, [1, 2])
    with pytest.raises(ValueError, match=r"expects 3 leaves, got 4"):
        treedef.unflatten([1, 2, 3, 4])
    with pytest.raises(TypeError):
        tree_unflatten([1, 2, 3], treedef)


# ---------------------------------------------------------------------------
# tree_map


def test_tree_map_multiple_trees():
    a = {"w": [1, 2], "b": (3,)}
    b = {"w": [10, 20], "b": (30,)}
    c = {"w": [100, 200], "b": (300,)}
    assert tree_map(lambda x, y, z: x + y + z, a, b, c) == {"w": [111, 222], "b": (333,)}


def test_tree_map_mismatch_message():
    a = {"a": 1, "b": ((1, 2), 3)}
    b = {"a": 1, "b": ([1, 2, 3], 3)}
    with pytest.raises(ValueError) as info:
        tree_map(lambda x, y: x, a, b)
    assert str(info.value) == (
        "tree_map: argument 1 differs from argument 0 at ['b'][0]: "
        "expected a tuple of 2 children, got a list of 3"
    )


@pytest.mark.parametrize(
    "other, fragment",
    [
        ([1, 2], "argument 2 differs from argument 0 at the root: expected a tuple of 2 children, got a list of 2"),
        ((1, 2, 3), "at the root: expected a tuple of 2 children, got a tuple of 3"),
        ((1, None), "at [1]: expected a dict with keys ['a'], got None"),
        ((1, {"b": 2}), "at [1]: expected a dict with keys ['a'], got a dict with keys ['b']"),
        ((1, 5), "at [1]: expected a dict with keys ['a'], got a leaf of type int"),
    ],
)
def test_tree_map_mismatch_variants(other, fragment):
    tree = (1, {"a": 2})
    with pytest.raises(ValueError) as info:
        tree_map(lambda x, y, z: x, tree, tree, other)
    assert fragment in str(info.value)


def test_tree_map_mismatch_in_custom_and_none_nodes():
    with pytest.raises(ValueError, match=r"at \[0\]: expected None, got a leaf of type int"):
        tree_map(lambda x, y: x, [None], [1])
    with pytest.raises(ValueError, match=r"at \.y: expected a Pair node .*'a'.*got a Pair node .*'b'"):
        tree_map(lambda x, y: x, Point(1, Pair(1, 2, "a")), Point(1, Pair(1, 2, "b")))
    with pytest.raises(ValueError, match=r"expected a namedtuple Point, got a tuple of 2"):
        tree_map(lambda x, y: x, Point(1, 2), (1, 2))


def test_tree_map_rest_may_have_subtrees_at_leaves():
    # Like JAX: the first tree fixes the structure; a subtree in another tree
    # where the first has a leaf is passed to f whole.
    assert tree_map(lambda x, y: (x, y), [1, 2], [(3, 4), None]) == [(1, (3, 4)), (2, None)]


def test_is_leaf():
    tree = {"a": (1, 2), "b": [(3, 4), 5]}
    is_pair = lambda x: type(x) is tuple  # noqa: E731
    assert tree_leaves(tree, is_leaf=is_pair) == [(1, 2), (3, 4), 5]
    total = lambda x: sum(x) if type(x) is tuple else x  # noqa: E731
    assert tree_map(total, tree, is_leaf=is_pair) == {"a": 3, "b": [7, 5]}
    # is_leaf sees None too, so None can be made a leaf.
    assert tree_leaves([None, 1], is_leaf=lambda x: x is None) == [None, 1]
    # The whole tree can be a leaf.
    assert tree_leaves(tree, is_leaf=lambda x: True) == [tree]
    treedef = tree_structure(tree, is_leaf=is_pair)
    assert treedef.num_leaves == 3
    # Other trees in tree_map follow the first tree's structure.
    assert tree_map(lambda p, q: p[0] + q, {"x": (1, 2)}, {"x": 10}, is_leaf=is_pair) == {"x": 11}


# ---------------------------------------------------------------------------
# Paths


def test_flatten_with_path_and_keystr():
    tree = {"a": [Point(1, 2)], "b": None, "c": Pair(3, (4,))}
    pairs, treedef = tree_flatten_with_path(tree)
    assert [leaf for _, leaf in pairs] == tree_leaves(tree)
    assert treedef == tree_structure(tree)
    assert [keystr(path) for path, _ in pairs] == [
        "['a'][0].x",
        "['a'][0].y",
        "['c'][0]",
        "['c'][1][0]",
    ]
    assert pairs[0][0] == (DictKey("a"), SequenceKey(0), GetAttrKey("x"))
    assert pairs[3][0] == (DictKey("c"), FlattenedIndexKey(1), SequenceKey(0))


def test_keystr_examples():
    assert keystr(()) == ""
    assert keystr((DictKey("a"), SequenceKey(0), GetAttrKey("field"))) == "['a'][0].field"
    assert keystr((DictKey(1),)) == "[1]"
    pairs, _ = tree_flatten_with_path(OrderedDict(z=defaultdict(int, q=[7])))
    assert keystr(pairs[0][0]) == "['z']['q'][0]"


def test_flatten_with_path_root_leaf_and_is_leaf():
    assert tree_flatten_with_path(5)[0] == [((), 5)]
    pairs, treedef = tree_flatten_with_path({"a": (1, 2)}, is_leaf=lambda x: isinstance(x, tuple))
    assert pairs == [((DictKey("a"),), (1, 2))]
    assert treedef.num_leaves == 1


# ---------------------------------------------------------------------------
# Deep nesting: nothing may recurse.

DEPTH = 100_000


def _deep_list(depth, leaf):
    tree = leaf
    for _ in range(depth):
        tree = [tree]
    return tree


def _deep_bottom(tree, depth):
    """Walk down a _deep_list iteratively and return its innermost value."""
    for _ in range(depth):
        assert type(tree) is list and len(tree) == 1
        tree = tree[0]
    return tree


def test_deep_nesting():
    deep = _deep_list(DEPTH, 1)

    leaves, treedef = tree_flatten(deep)
    assert leaves == [1]
    assert treedef.num_nodes == DEPTH + 1
    assert _deep_bottom(tree_unflatten(treedef, [7]), DEPTH) == 7

    mapped = tree_map(lambda x: x + 1, deep)
    assert _deep_bottom(mapped, DEPTH) == 2
    assert _deep_bottom(tree_map(lambda x, y: x + y, deep, mapped), DEPTH) == 3

    assert tree_structure(mapped) == treedef
    assert hash(tree_structure(mapped)) == hash(treedef)
    assert repr(treedef) == "PyTreeDef(" + "[" * DEPTH + "*" + "]" * DEPTH + ")"

    [(path, leaf)], path_treedef = tree_flatten_with_path(deep)
    assert leaf == 1 and len(path) == DEPTH and path_treedef == treedef
    assert keystr(path) == "[0]" * DEPTH


def test_deep_mismatch_reports_path():
    deep = _deep_list(DEPTH, 1)
    other = _deep_list(DEPTH, (1, 2))
    with pytest.raises(ValueError) as info:
        tree_map(lambda x, y: x, other, deep)
    assert str(info.value).endswith(
        "at " + "[0]" * DEPTH + ": expected a tuple of 2 children, got a leaf of type int"
    )


def test_deep_dicts_and_tuples():
    tree = 0
    for i in range(DEPTH):
        tree = {"k": tree} if i % 2 else (tree,)
    leaves, treedef = tree_flatten(tree)
    assert leaves == [0]
    rebuilt = tree_unflatten(treedef, [5])
    for i in reversed(range(DEPTH)):
        rebuilt = rebuilt["k"] if i % 2 else rebuilt[0]
    assert rebuilt == 5


# ---------------------------------------------------------------------------
# Property tests

_keys = st.text(alphabet="abcdef", min_size=1, max_size=3)

pytrees = st.recursive(
    st.none() | st.integers(-100, 100),
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.lists(children, max_size=4).map(tuple),
        st.dictionaries(_keys, children, max_size=4),
    ),
    max_leaves=30,
)


def _reference_leaves(tree):
    """Straightforward recursive flattening to check leaf order against."""
    if tree is None:
        return []
    if isinstance(tree, (list, tuple)):
        return [leaf for child in tree for leaf in _reference_leaves(child)]
    if isinstance(tree, dict):
        return [leaf for key in sorted(tree) for leaf in _reference_leaves(tree[key])]
    return [tree]


def _get(tree, path):
    for key in path:
        if isinstance(key, DictKey):
            tree = tree[key.key]
        elif isinstance(key, SequenceKey):
            tree = tree[key.idx]
        else:
            raise AssertionError(key)
    return tree


@settings(max_examples=300, deadline=None)
@given(pytrees)
def test_property_round_trip(tree):
    leaves, treedef = tree_flatten(tree)
    assert tree_unflatten(treedef, leaves) == tree
    assert tree_map(lambda x: x, tree) == tree
    assert leaves == _reference_leaves(tree)
    assert treedef.num_leaves == len(leaves)
    assert tree_structure(tree_map(lambda x: x * 2, tree)) == treedef
    # Paths lead back to their leaves.
    pairs, path_treedef = tree_flatten_with_path(tree)
    assert path_treedef == treedef
    assert [leaf for _, leaf in pairs] == leaves
    for path, leaf in pairs:
        assert _get(tree, path) == leaf


@settings(max_examples=200, deadline=None)
@given(pytrees, pytrees)
def test_property_treedef_equality_matches_structure(a, b):
    ta, tb = tree_structure(a), tree_structure(b)
    assert (ta == tb) == (_shape(a) == _shape(b))
    if ta == tb:
        assert hash(ta) == hash(tb)


def _shape(tree):
    """Recursive structural signature, distinguishing tuples from lists."""
    if tree is None:
        return "None"
    if isinstance(tree, (list, tuple)):
        return (type(tree).__name__, [_shape(c) for c in tree])
    if isinstance(tree, dict):
        return ("dict", sorted((k, _shape(v)) for k, v in tree.items()))
    return "*"


# ---------------------------------------------------------------------------
# Optional cross-check against JAX (skipped when JAX is not installed).

try:
    import jax.tree_util as jtu
except Exception:  # pragma: no cover - depends on the environment
    jtu = None


@pytest.mark.skipif(jtu is None, reason="jax is not installed")
@settings(max_examples=200, deadline=None)
@given(pytrees)
def test_matches_jax(tree):
    ours, treedef = tree_flatten_with_path(tree)
    theirs, jax_treedef = jtu.tree_flatten_with_path(tree)
    assert [leaf for _, leaf in ours] == [leaf for _, leaf in theirs]
    assert [keystr(p) for p, _ in ours] == [jtu.keystr(p) for p, _ in theirs]
    assert treedef.num_leaves == jax_treedef.num_leaves
    assert treedef.num_nodes == jax_treedef.num_nodes
    # For plain containers the printed form is the same too.
    assert repr(treedef) == repr(jax_treedef)
