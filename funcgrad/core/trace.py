"""Traces and boxes: how a transform marks the values it is watching.

Every transform call opens a `Trace` with its own `level` (``with new_trace(Kind) as
trace``). The values it watches are wrapped in boxes that point back at that trace; a
primitive applied to boxes is handed to the trace of the highest level among them
(`find_top_trace`), which processes it and lowers the application one level. A box's
`value` may itself be a box of an outer (lower-level) trace, so nested transforms form an
onion of boxes, outermost transform innermost (DESIGN.md, decision 4).

Each kind of trace has its own box class, which names what the trace keeps for a value:
a reverse trace's box carries its `node`, a forward trace's its `tangent`, a graph trace's
its `var`. `funcgrad.numpy` gives the base class `Box` NumPy's operators and methods.
"""
import gc
import itertools
import operator

# Level 0 is kept for a stateful API's persistent tape (compat's), which must sit below
# every functional transform (DESIGN.md, decision 4).
EAGER_LEVEL = 0
_next_level = itertools.count(1).__next__


class Trace:
    """One transform invocation. Subclasses say how a primitive is processed (and which
    `box_class` wraps the values they watch)."""

    __slots__ = ("level", "active")
    # The transform's name, for error messages.
    transform = "a transform"
    # Whether a box's value holds a whole batch (vmap's), which `unbox_all` must keep boxed.
    batches = False

    def __init__(self, level):
        self.level = level
        self.active = True

    def process_primitive(self, primitive, args, params):
        raise NotImplementedError

    def to_python(self, box, kind):
        """``kind(box)`` for a Python conversion (bool, int, float, complex, index).

        The value is concrete, so the conversion can be made; whether it may be depends on
        the trace. Here it may: conversions that are piecewise constant (bool, int, index)
        lose no derivative. Traces that differentiate refuse float and complex."""
        return kind(box.value)

    def concretize(self, box):
        """The raw value of `box`, read by NumPy code (only staging traces override it)."""
        return box.value

    def __repr__(self):
        return f"<{type(self).__name__} level={self.level}>"


class new_trace:
    """``with new_trace(ReverseTrace) as trace:``: a trace at a new level, active for the
    block and retired after it, so a value that leaks out of the block is reported when it is
    used (`errors.leaked_value`). The cyclic garbage collector is paused meanwhile: a
    recorded graph is acyclic and freed by reference counting, but its many nodes and
    boxes made the collector rescan it as it grew (~45% of the time of a 200,000-primitive
    chain's grad). A class rather than a generator-based context manager: every transform
    call enters one."""

    __slots__ = ("trace", "collector_was_on")

    def __init__(self, trace_class, *args):
        self.trace = trace_class(_next_level(), *args)

    def __enter__(self):
        self.collector_was_on = gc.isenabled()
        gc.disable()
        return self.trace

    def __exit__(self, *exc_info):
        self.trace.active = False
        if self.collector_was_on:  # (paused by an enclosing transform: leave it paused)
            gc.enable()


class collector_paused:
    """The collector pause of `new_trace` alone, for backward passes run after the trace
    that recorded the graph has closed."""

    __slots__ = ("was_on",)

    def __enter__(self):
        self.was_on = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc_info):
        if self.was_on:
            gc.enable()


class Box:
    """A value watched by a trace. Subclassed once per kind of trace, each adding the slot
    that holds what that trace keeps for the value."""

    __slots__ = ("value", "_trace")
    # A staging trace's (jit's) boxes hold the value of one run of a program that will be
    # replayed: reading the raw value is a guard on it (see `unbox_all`).
    staged = False

    def __init__(self, value, trace):
        self.value = value
        self._trace = trace

    # Python conversions ask the trace (see Trace.to_python).
    def __bool__(self):
        return self._trace.to_python(self, bool)

    def __int__(self):
        return self._trace.to_python(self, int)

    def __index__(self):
        return self._trace.to_python(self, operator.index)

    def __float__(self):
        return self._trace.to_python(self, float)

    def __complex__(self):
        return self._trace.to_python(self, complex)

    def __repr__(self):
        return f"{type(self).__name__}({self.value!r}, level={self._trace.level})"


def find_top_trace(values):
    """The trace of highest level among the boxed `values`, or None if none is boxed."""
    top = None
    for value in values:
        if isinstance(value, Box):
            trace = value._trace
            if top is None or trace.level > top.level:
                top = trace
    return top


def unbox_all(x):
    """Strip every level of boxing that carries a derivative: the raw value underneath.

    A batch trace's box (vmap's) is kept, around its stripped value: that value holds the
    whole batch, and only the box says which of its axes is the batch's, so dropping it
    would make a mask or a constant computed from the raw value silently misshapen. Under
    a staging trace (jit) the raw value is that of one run only, so reading it records a
    guard on it (`Trace.concretize`): the program is re-traced when a later run's value
    differs."""
    while isinstance(x, Box):
        trace = x._trace
        if trace.batches:
            return trace.rebox(x, unbox_all(x.value))
        x = trace.concretize(x) if x.staged else x.value
    return x


def every_value(x):
    """The raw value under every box, a vmap batch's included: for checks that look at
    every element (NaN, accuracy) and their messages. Never for results."""
    while isinstance(x, Box):
        x = x._trace.concretize(x) if x.staged else x.value
    return x


def strip_derivatives(x):
    """`x` without the boxes of transforms that differentiate: the value a derivative sees
    as a constant. A staging trace's box is kept, since it stands for every run's value,
    and so is a batch trace's, since it says which axis is the batch's."""
    while isinstance(x, Box) and not x.staged:
        trace = x._trace
        if trace.batches:
            return trace.rebox(x, strip_derivatives(x.value))
        x = x.value
    return x


class Instruments:
    """Debugging hooks, set by `funcgrad.debug` and None while every switch is off (one
    test of an attribute per primitive is all they cost then).

    on_result(trace, primitive, out): after `trace` processed an application of
        `primitive` (whose result is `out`): checks values, notes where nodes were made.
    pull(node, residuals, cotangent): replaces the call of a node's backward rule in
        backward passes (to check the cotangents it gives).
    """

    __slots__ = ("on_result", "pull")

    def __init__(self):
        self.on_result = None
        self.pull = None


instruments = Instruments()

