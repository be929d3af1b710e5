"""Boxes and traces: how a transform marks the values it is watching.

Every transform call opens a `Trace` with a fresh, higher `level`. The values it
watches are wrapped in `Box`es that point back at that trace. A box's `value` may
itself be a box of an outer (lower-level) trace, so nested transforms form an
onion of boxes, outermost transform innermost.
"""
import itertools

# Level 0 is kept for compat's persistent eager tape, which must sit below every
# functional transform (DESIGN.md, decision 4).
EAGER_LEVEL = 0
_next_level = itertools.count(1).__next__


class Trace:
    """One transform invocation. Subclasses say how a primitive is processed."""

    __slots__ = ("level", "active")

    def __init__(self, level=None):
        self.level = _next_level() if level is None else level
        self.active = True

    def process_primitive(self, primitive, args, params):
        raise NotImplementedError

    def __repr__(self):
        return f"<{type(self).__name__} level={self.level}>"


class Box:
    """A value watched by `trace`; `node` is whatever that trace records for it.
    Made only by `new_box`."""

    __slots__ = ("value", "_trace", "node")

    def __repr__(self):
        return f"Box({self.value!r}, level={self._trace.level})"


# The box class for each kind of value (an ndarray box with operators, say);
# filled in by the layers that know those kinds. Anything else gets a plain Box.
_box_class_for_type = {}


def register_box_class(value_type, box_class):
    _box_class_for_type[value_type] = box_class


# Boxes and nodes are made with object.__new__ and their slots filled by the caller: a
# class call with a Python __init__ costs a second frame (~0.2 us per object, two objects
# per primitive).
new_object = object.__new__


def new_box(value, trace, node):
    box_class = _box_class_for_type.get(type(value))
    if box_class is None:
        box_class = _box_class_for_subclass(type(value))
    box = new_object(box_class)
    box.value = value
    box._trace = trace
    box.node = node
    return box


def _box_class_for_subclass(value_type):
    """Subclasses (of ndarray, say) get their base's box class; remembered for next time."""
    for base in value_type.__mro__[1:]:
        if base in _box_class_for_type:
            _box_class_for_type[value_type] = _box_class_for_type[base]
            return _box_class_for_type[base]
    return Box


def find_top_trace(args):
    """The trace of highest level among the boxed `args`, or None if none is boxed."""
    top = None
    for arg in args:
        if isinstance(arg, Box):
            trace = arg._trace
            if top is None or trace.level > top.level:
                top = trace
    return top


def unbox_all(x):
    """Strip every level of boxing: the raw value underneath."""
    while isinstance(x, Box):
        x = x.value
    return x
