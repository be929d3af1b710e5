"""Staging: record the program a function runs, with concrete values, for jit to replay.

`StagingTrace` is `make_graph`'s trace with three differences. Every value the program
computes is boxed, integers and booleans too, so that integer arithmetic and masks are
recorded rather than computed once. Every place where a staged value leaves the program
for Python (``bool(x > 0)``, ``int(n)``, ``np.asarray(x)``, ``.item()``, NumPy code in a
rule reading raw values) records a *guard*: an equation that checks, on replay, that the
value converts to what it did while tracing, and makes the caller re-trace if not. And an
argument boxed by another transform (a value captured from an enclosing `grad`, say) stops
the staging (`CapturedValue`), since the program could not replay its derivative.
"""
import operator

import numpy as np

from ..core import Box, Primitive, is_array
from ..debug import user_origin
from .graph import Equation, GraphBox, GraphTrace

__all__ = ["CapturedValue", "GuardFailed", "StagingTrace", "guard_p"]


try:  # NumPy's error state is a context variable: a new object inside each np.errstate
    from numpy._core._ufunc_config import _extobj_contextvar
    _errstate_token = _extobj_contextvar.get
except ImportError:  # another NumPy: compare the settings themselves (slower)
    def _errstate_token():
        return tuple(sorted(np.geterr().items()))


class GuardFailed(Exception):
    """Raised by a replayed program whose guard `index` (into its equations) failed;
    `graph` is the graph the index is into when it is not the compiled program's."""

    def __init__(self, index):
        super().__init__(index)
        self.index = index
        self.graph = None


class CapturedValue(Exception):
    """The staged function used a value traced by another, enclosing transform."""


# The conversions of a value to Python that a guard can stand for, by name.
CONVERSIONS = {"bool": bool, "int": int, "float": float, "complex": complex,
               "index": operator.index}


def array_bits(value):
    """What an array guard compares: dtype, shape and bytes (so NaN equals itself)."""
    value = np.asarray(value)
    return value.dtype.str, value.shape, value.tobytes()


def passes_guard(value, kind, expected):
    """The check a guard makes (replayed programs inline it: see codegen)."""
    if kind == "array":
        return array_bits(value) == expected
    converted = CONVERSIONS[kind](value)
    return converted == expected or (converted != converted and expected != expected)


def _refuse_other_library(value):
    """A guard reads a value on every replay: on a Dask array, a compute each call."""
    if type(value) is not np.ndarray and is_array(value):
        kind = type(value)
        raise TypeError(
            f"funcgrad.jit: the function converts a traced {kind.__module__}.{kind.__name__} "
            f"to a Python or NumPy value (bool(x), float(x), np.asarray(x), x.item(), an if "
            f"on an array); jit would check that value on every call, computing the array "
            f"each time. Branch with funcgrad.numpy.where instead, pass the value as a "
            f"static argument, or call the function without jit.")


# A guard is an equation with no outputs: ``guard(a, kind=int, expected=3)``.
guard_p = Primitive("guard", passes_guard, register=False)


class StagingBox(GraphBox):
    """A value of the program being staged by jit."""

    __slots__ = ()
    staged = True

    def __array__(self, dtype=None, copy=None):
        value = self._trace.concretize(self)
        return np.array(value, dtype=dtype, copy=True) if copy else np.asarray(value, dtype)

    def __setitem__(self, index, value):
        name = self._trace.input_names.get(self.var.index)
        what = f"the argument {name!r}" if name else "a value computed inside it"
        raise TypeError(
            f"funcgrad.jit: the function assigns into {what} in place (x[...] = ...). A jitted "
            f"function must not modify its arguments or values: its recorded program is "
            f"replayed on later calls without running that Python code again. Return the "
            f"new value instead: x = x.at[index].set(value).")


class StagingTrace(GraphTrace):
    """Records the program and its guards while the function runs on concrete values."""

    __slots__ = ("input_names", "_guarded", "_errstate", "_block")
    transform = "jit"

    def __init__(self, level):
        super().__init__(level)
        self.input_names = {}  # Var index -> the argument's name, for error messages
        self._guarded = {}  # (Var index, kind) -> expected, so each check is made once
        self._errstate = _errstate_token()  # the caller's: replays run under theirs
        self._block = (self._errstate, None)  # the last np.errstate block seen, its settings

    def process_primitive(self, primitive, args, params):
        count = len(self.equations)
        result = super().process_primitive(primitive, args, params)
        token = _errstate_token()
        if len(self.equations) > count and token is not self._errstate \
                and token != self._errstate:
            # Applied inside an np.errstate block of the function (or of a transform in
            # it: grad's quiet one): the replay runs it in one with the same settings.
            if self._block[0] is not token:
                self._block = (token, np.geterr())
            for eq in self.equations[count:]:
                eq.errstate = self._block[1]
        return result

    box_class = StagingBox

    def watch(self, value, var):
        return StagingBox(value, self, var)  # integers and booleans too (module docstring)

    def outside_value(self, arg):
        if isinstance(arg, Box):
            raise CapturedValue(arg)
        return arg

    def to_python(self, box, kind):
        converted = kind(box.value)
        name = "index" if kind is operator.index else kind.__name__
        self.guard(box, name, converted)
        return converted

    def concretize(self, box):
        value = box.value
        self.guard(box, "array", array_bits(value))
        return value

    def guard(self, box, kind, expected):
        _refuse_other_library(box.value)
        key = (box.var.index, kind)
        if key in self._guarded:
            return
        self._guarded[key] = expected
        self.equations.append(Equation(guard_p, (box.var,), {"kind": kind, "expected": expected},
                                       (), user_origin()))
