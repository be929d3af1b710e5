"""The errors every layer raises for the same mistakes, each worded once.

Each function builds (does not raise) the exception, so the caller's `raise` line is where
the traceback points.
"""
import numpy as np

from .values import is_array, unboxed


class LeakedValueError(RuntimeError):
    """A value traced by a transform was used after that transform returned."""


class ConversionError(TypeError):
    """A traced value was converted to a Python scalar that cannot carry its derivative."""


def leaked_value(what, transform):
    return LeakedValueError(
        f"funcgrad: {what} was applied to a value traced by {transform}, which has already "
        f"returned (the value leaked out of the function, e.g. through a global, a closure "
        f"or a list it appended to). Return it from the transformed function instead.")


def leaked_output(transform):
    return LeakedValueError(
        f"funcgrad.{transform}: the function returned a value traced by an inner transform "
        f"that has already returned (it leaked out through a side effect). Return it from "
        f"the inner transformed function instead.")


def missing_vjp_rule(name, argnum):
    return NotImplementedError(
        f"funcgrad: primitive '{name}' has no VJP rule for argument {argnum}, so it cannot "
        f"be differentiated with respect to that argument. Pass that argument as a constant "
        f"(wrap it in stop_gradient), or give the primitive a rule with defvjp.")


def out_argument(function):
    return TypeError(
        f"{function}: out= is not supported (funcgrad arrays are immutable, and an output "
        f"buffer would hold values out of the derivative's reach); use the returned array.")


def conversion(kind, transform):
    name = getattr(kind, "__name__", str(kind))
    return ConversionError(
        f"funcgrad: {name}() of a value traced by {transform} would drop its derivative (a "
        f"Python {name} carries none). Compute with funcgrad.numpy functions instead of "
        f"Python's math/cmath functions or {name}(...), or wrap the value in "
        f"funcgrad.stop_gradient(...) if a constant is what you mean. (bool(), int() and "
        f"comparisons work on traced values: their results are piecewise constant.)")


def freed_graph(name):
    return RuntimeError(
        f"funcgrad: trying to pull a cotangent through '{name}' a second time, but the values "
        f"it saved were freed by the first backward pass. Pass retain_graph=True to the "
        f"first backward pass to keep them.")


def batched_conversion(kind):
    name = getattr(kind, "__name__", str(kind))
    return ConversionError(
        f"funcgrad.vmap: {name}() of a batched value: it has one value per batch element, so "
        f"Python control flow (if, while, and/or, int(), indexing with it) cannot depend on "
        f"it inside vmap. Write the choice with funcgrad.numpy.where (or select, clip, "
        f"piecewise), which computes both branches and picks per element.")


_OTHER_LIBRARY = "whose library raised this while running the primitive"


def note_other_library(error, what, values):
    """Add to `error` (raised by `what`, e.g. "primitive 'fft'") which other library's
    array it met, when one of `values` (boxed or not) is one: that library may lack what
    the primitive calls (DESIGN.md decision 16)."""
    if any(_OTHER_LIBRARY in note for note in getattr(error, "__notes__", ())):
        return  # noted where it was raised, in a primitive applied inside a rule
    for value in values:
        array = unboxed(value)
        if type(array) is not np.ndarray and is_array(array):
            kind = type(array)
            error.add_note(
                f"funcgrad: {what} was applied to a {kind.__module__}.{kind.__name__}, "
                f"{_OTHER_LIBRARY} (docs/dask.md lists, for each function, whether it "
                f"works on Dask arrays). Where the library lacks what the primitive "
                f"needs, convert that argument to NumPy first if it fits in memory "
                f"(x.compute() for Dask, x.get() for CuPy), or follow the message above.")
            return
