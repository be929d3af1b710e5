"""Checks shared by the transforms: argnums, inputs and outputs, with messages that say how to fix them."""
import math
import operator

import numpy as np

from ..core import Box, dtype_of, float0, is_array, is_differentiable, library_array, shape_of
from ..tree_util import keystr, tree_flatten_with_path

_ARRAYS_OR_BOXES = (Box, float, complex, int, bool, np.ndarray, np.generic)
_ALLOW_INT_TRANSFORMS = ("grad", "value_and_grad", "jacrev")


def check_callable(fun, transform, role="function"):
    """A transform takes a function: ``grad(f(x))`` passes a value. Refused at once, as in
    JAX, not at the first call."""
    if callable(fun):
        return
    shown = repr(fun)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    fix = "pass the function itself (f, not f(x))" if role == "function" else "pass a function"
    raise TypeError(f"funcgrad.{transform}: expected a callable {role}, got a "
                    f"{type(fun).__name__}: {shown}; {fix}.")


def normalize_argnums(argnums, transform):
    """argnums as a tuple of ints, plus whether the caller gave a single int."""
    if isinstance(argnums, (int, np.integer)) and not isinstance(argnums, bool):
        return (operator.index(argnums),), True
    try:
        argnums = tuple(operator.index(a) for a in argnums)
    except TypeError:
        raise TypeError(f"funcgrad.{transform}: argnums must be an int or a tuple of ints, "
                        f"got {argnums!r}") from None
    if len(set(argnums)) != len(argnums):
        raise ValueError(f"funcgrad.{transform}: argnums {argnums} repeats an argument")
    return argnums, False


def resolve_argnums(argnums, nargs, transform):
    """Check argnums against the call and make negative entries positive."""
    for argnum in argnums:
        if not 0 <= argnum < nargs:
            break
    else:
        return argnums  # the common case, checked first: nothing to resolve
    resolved = []
    for argnum in argnums:
        if not -nargs <= argnum < nargs:
            raise TypeError(
                f"funcgrad.{transform}: argnums={argnum} asks to differentiate with respect to "
                f"positional argument {argnum}, but the function was called with only {nargs} "
                f"positional argument{'s' if nargs != 1 else ''}. Pass that argument "
                f"positionally, or change argnums.")
        resolved.append(argnum % nargs)
    if len(set(resolved)) != len(resolved):  # (0, -2) of two arguments: 0 twice
        raise ValueError(f"funcgrad.{transform}: argnums {tuple(argnums)} repeats an argument: "
                         f"with {nargs} positional arguments it names {tuple(resolved)}.")
    return tuple(resolved)


def is_array_or_box(x):
    """Whether a transform accepts `x` as an input or output leaf: a box, a scalar, an
    ndarray (tested first: the common case) or another library's array (`is_array`)."""
    return isinstance(x, _ARRAYS_OR_BOXES) or is_array(x)


def _paths(tree, prefix):
    return [prefix + keystr(path) for path, _ in tree_flatten_with_path(tree)[0]]


# What an ndarray subclass may override and still mean what an ndarray means: a subclass
# that overrides none of these (one carrying metadata, say) is traced like an ndarray.
# np.memmap overrides indexing and wrapping only to hand back plain ndarrays.
_SEMANTIC_MEMBERS = frozenset({
    "__array_ufunc__", "__array_function__", "__array_wrap__", "__getitem__",
    "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
    "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pow__",
    "__rpow__", "__matmul__", "__rmatmul__", "__neg__", "__abs__", "sum", "mean", "prod",
    "max", "min", "dot", "var", "std", "cumsum", "cumprod", "all", "any",
})
_ACCEPTED_SUBCLASSES = (np.memmap,)
_refusal_by_type = {}


def refused_array_type(x):
    """Whether `x` is an ndarray subclass whose semantics funcgrad's rules do not follow."""
    kind = type(x)
    if kind is np.ndarray or not isinstance(x, np.ndarray):
        return False
    refused = _refusal_by_type.get(kind)
    if refused is None:
        own = kind.__mro__[:kind.__mro__.index(np.ndarray)]
        refused = not issubclass(kind, _ACCEPTED_SUBCLASSES) and any(
            _SEMANTIC_MEMBERS.intersection(vars(cls)) for cls in own)
        _refusal_by_type[kind] = refused
    return refused


def check_array_types(flat, tree, transform, prefix="args"):
    """Refuse ndarray subclasses whose semantics funcgrad's rules do not follow: a masked
    array's mask, np.matrix's `*` (a matrix product) and 2-D results, and any subclass
    that overrides operators, ufunc dispatch, indexing or reductions. Silently dropping
    those semantics would give wrong answers."""
    for i, x in enumerate(flat):
        if type(x) is np.ndarray or not refused_array_type(x):  # (ndarray first: common)
            continue
        where = _paths(tree, prefix)[i]
        if isinstance(x, np.ma.MaskedArray):
            fix = ("funcgrad does not honour masks: fill the masked entries first "
                   "(x.filled(value)), or compress them away (x.compressed()).")
        elif isinstance(x, np.matrix):
            fix = ("funcgrad follows ndarray semantics, where * is elementwise and results "
                   "keep their rank: convert it with np.asarray(x) (and write @ for the "
                   "matrix product).")
        else:
            fix = ("it overrides what operations on it mean, and funcgrad's rules follow "
                   "ndarray's: convert it with np.asarray(x).")
        raise TypeError(f"funcgrad.{transform}: {where} is a {type(x).__module__}."
                        f"{type(x).__name__}, an ndarray subclass funcgrad does not support. "
                        + fix)


def check_differentiable_inputs(flat, tree, transform, prefix="args", allow_int=False,
                                holomorphic=False):
    """Differentiated inputs must be float or complex arrays (or boxes of them); integer
    and boolean ones too with ``allow_int``; only complex ones with ``holomorphic``."""
    check_array_types(flat, tree, transform, prefix)
    for i, x in enumerate(flat):
        if not is_array_or_box(x):
            where = _paths(tree, prefix)[i]
            raise TypeError(
                f"funcgrad.{transform}: the differentiated input {where} is a "
                f"{type(x).__name__}, which is not an array. Differentiated inputs must be "
                f"arrays or scalars, or pytrees (tuples, lists, dicts, ...) of them; pass other "
                f"values as arguments outside argnums, or close over them.")
        kind = dtype_of(x).kind
        if holomorphic and kind != "c":
            where = _paths(tree, prefix)[i]
            raise TypeError(
                f"funcgrad.{transform}: holomorphic=True needs complex inputs, but {where} has "
                f"dtype {dtype_of(x)}. Convert it (e.g. x.astype(complex)), or drop "
                f"holomorphic=True.")
        if kind not in "fc" and not allow_int:
            where = _paths(tree, prefix)[i]
            raise TypeError(
                f"funcgrad.{transform}: can only differentiate with respect to float or complex "
                f"inputs, but {where} has dtype {dtype_of(x)}. Convert it (e.g. "
                f"x.astype(float) or 1.0 instead of 1), or leave it out of argnums so it is "
                f"treated as a constant"
                + (" (or pass allow_int=True to get float0 zeros for it)."
                   if transform in _ALLOW_INT_TRANSFORMS else "."))


def check_output_leaf(x, index, transform):
    if not is_array_or_box(x):
        raise TypeError(f"funcgrad.{transform}: output leaf {index} of the function is a "
                        f"{type(x).__name__}, not an array; transformed functions must return "
                        f"arrays or pytrees of arrays (return other values through has_aux).")


def check_scalar_output(out, transform, holomorphic=False):
    """grad needs a real scalar output (a complex one with ``holomorphic``). An array
    holding exactly one element, such as shape (1,) or (1, 1), counts as the scalar it holds,
    as in autograd and PyTorch (JAX refuses it)."""
    if not is_array_or_box(out):
        raise TypeError(
            f"funcgrad.{transform}: the function must return a scalar array, but it returned "
            f"a {type(out).__name__}. If it returns auxiliary data too, pass has_aux=True and "
            f"return (scalar, aux).")
    shape, dtype = shape_of(out), dtype_of(out)
    if shape != () and math.prod(shape) != 1:
        raise TypeError(
            f"funcgrad.{transform}: the function must return a scalar (shape (), or one "
            f"element in any shape), but it returned an array of shape {shape} and dtype "
            f"{dtype}. For a non-scalar output "
            f"use vjp(f, x) to pull back a cotangent of that shape or jacrev(f) for the whole "
            f"Jacobian; to differentiate the sum of the outputs, use "
            f"{transform}(lambda x: f(x).sum()).")
    if holomorphic:
        if dtype.kind != "c":
            raise TypeError(
                f"funcgrad.{transform}: holomorphic=True needs a complex output, but the "
                f"function returned a value of dtype {dtype}.")
        return
    if dtype.kind != "f":
        kind = "complex" if dtype.kind == "c" else "non-float"
        raise TypeError(
            f"funcgrad.{transform}: the function must return a real floating-point scalar, but "
            f"it returned a {kind} value of dtype {dtype}. "
            + ("Pass holomorphic=True if the function is holomorphic, or differentiate its "
               "real part, imaginary part or abs instead."
               if dtype.kind == "c" else
               "Integer and boolean outputs are constants and have no gradient."))


def check_cotangent(ct, primal, index, transform):
    """A cotangent passed in by the user must match its output's shape and dtype (or be
    float0 zeros, JAX's cotangent of an integer or boolean output, which is a constant)."""
    if isinstance(ct, (float, int)) and not isinstance(ct, bool) and shape_of(primal) == ():
        return np.asarray(ct, dtype_of(primal), like=library_array(primal))
    if dtype_of(ct) == float0 and not is_differentiable(primal) \
            and shape_of(ct) == shape_of(primal):
        return ct
    if shape_of(ct) != shape_of(primal) or dtype_of(ct) != dtype_of(primal):
        raise ValueError(
            f"funcgrad.{transform}: the cotangent for output {index} has shape "
            f"{shape_of(ct)} and dtype {dtype_of(ct)}, but that output has shape "
            f"{shape_of(primal)} and dtype {dtype_of(primal)}; they must match.")
    return ct
