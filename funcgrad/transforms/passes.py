"""Passes over a traced `Graph`, run by jit before code generation. Each takes a graph and
returns a new one (equations that change are new objects: the input graph is left as is).

- `eliminate_dead_code`: drop equations no output or guard needs (a gradient never used).
- `eliminate_common_subexpressions`: one equation per (primitive, inputs, params).
- `fold_constants`: run equations whose inputs are all constants once, now.
- `drop_identities`: an equation that returns its input unchanged (a product with ones,
  a transpose or reshape that moves nothing, an astype to the same dtype) is dropped.
- `square_powers`: ``power(x, 2)`` of a float32 or float64 x is ``square(x)``, which NumPy
  (2.2 on) computes alike, x * x, with a vectorized loop.
- `fill_scalar_operands`: maximum, minimum, fmax or fmin of an array and a number compares
  against an array of that number, filled once (NumPy vectorizes them over arrays only).
- `ufunc_products`: a matmul becomes NumPy's matmul ufunc, or, for an outer product of
  real floats, its multiply (as the primitive's implementation chooses when called): ufuncs
  take ``out=``, so the next pass can give them buffers.
- `reuse_buffers`: a ufunc equation (elementwise, or matmul) writes into the buffer of an
  intermediate that is dead by then (``out=``), instead of allocating.

Each gives results bit for bit equal to the graph's: NumPy computes an operation the same
way on the same inputs, in place or not, now or later.
"""
import math

import numpy as np

from ..core import Primitive, is_array, registry
from .graph import Constant, Graph, Literal, Var, vars_in
from .staging import guard_p

__all__ = ["allocates", "drop_identities", "eliminate_common_subexpressions",
           "eliminate_dead_code", "fill_scalar_operands", "fold_constants", "optimize",
           "reuse_buffers", "square_powers", "ufunc_products"]

# Below this many elements an output buffer saves less than passing ``out=`` costs.
MIN_REUSE_SIZE = 256


def _rebuilt(graph, equations, outputs=None, constants=None):
    return Graph(graph.inputs, graph.input_names, equations,
                 graph.constants if constants is None else constants,
                 graph.outputs if outputs is None else outputs, graph.output_names,
                 graph.in_tree, graph.out_tree, graph.out)


def _substitute(atoms, replacement):
    """`atoms` (an equation's inputs: a tuple, maybe of tuples) with their vars replaced as
    `replacement` says; the same tuple when nothing is replaced (so passes over a graph
    that has nothing to replace build no new equations)."""
    if not replacement:
        return atoms
    substituted = tuple([_substitute(atom, replacement) if type(atom) is tuple
                         else replacement.get(atom, atom) for atom in atoms])
    return atoms if substituted == atoms else substituted


def _with_inputs(eq, inputs):
    return eq if inputs is eq.inputs else eq.replace(inputs=inputs)


def _has_var(atoms):
    """Whether a Var is among `atoms` (nested tuples included)."""
    for atom in atoms:
        if type(atom) is Var or (type(atom) is tuple and _has_var(atom)):
            return True
    return False


# ---- dead code ----------------------------------------------------------------------


def eliminate_dead_code(graph):
    """Keep the equations an output or a guard depends on (guards are always kept)."""
    live = set(vars_in(graph.outputs))
    kept = []
    for eq in reversed(graph.equations):
        if eq.primitive is guard_p or not live.isdisjoint(eq.outputs):
            kept.append(eq)
            live.update(vars_in(eq.inputs))
    kept.reverse()
    return _rebuilt(graph, kept)


# ---- common subexpressions ----------------------------------------------------------


def _key(value):
    """A hashable stand-in for a literal or parameter: equal keys mean identical values
    (repr tells -0.0 from 0.0 and float32 from float64; anything else by identity)."""
    if value is None or isinstance(value, (bool, int, float, complex, str, np.generic)):
        return type(value), repr(value)
    if isinstance(value, tuple):
        return tuple, tuple(map(_key, value))
    if isinstance(value, (np.dtype, type)):
        return type(value), value
    return id, id(value)


def _atoms_key(atoms):
    """A hashable stand-in for an equation's inputs (a Var stands for itself)."""
    return tuple([atom if type(atom) is Var
                  else _atoms_key(atom) if type(atom) is tuple
                  else (id, id(atom.value)) if type(atom) is Constant
                  else _key(atom.value) for atom in atoms])


def eliminate_common_subexpressions(graph):
    """Compute each (primitive, inputs, params, errstate) once; later copies use the first
    result. (The NumPy error handling is part of the key: an application that must raise on
    overflow is not the same as one that may not.)"""
    seen = {}
    replacement = {}
    kept = []
    for eq in graph.equations:
        eq = _with_inputs(eq, _substitute(eq.inputs, replacement))
        key = (eq.primitive, _atoms_key(eq.inputs),
               tuple([(name, _key(value)) for name, value in eq.params.items()]),
               None if eq.errstate is None else tuple(eq.errstate.items()))
        first = seen.get(key)
        if first is not None:
            replacement.update(zip(eq.outputs, first.outputs))
            continue
        seen[key] = eq
        kept.append(eq)
    return _rebuilt(graph, kept, _substitute(tuple(graph.outputs), replacement))


# ---- constants ----------------------------------------------------------------------


def _constant_value(atom):
    if isinstance(atom, tuple):
        return tuple(map(_constant_value, atom))
    return atom.value


def fold_constants(graph):
    """Run each equation whose inputs are all constants or literals, and use its value."""
    constants = list(graph.constants)
    replacement = {}
    kept = []
    for eq in graph.equations:
        inputs = _substitute(eq.inputs, replacement)
        if eq.primitive is guard_p or _has_var(inputs):
            kept.append(_with_inputs(eq, inputs))
            continue
        values = eq.primitive.impl(*map(_constant_value, inputs), **eq.params)
        results = values if eq.primitive.multiple_results else (values,)
        for var, value in zip(eq.outputs, results):
            if (isinstance(value, np.ndarray) or is_array(value)) and value.ndim:
                atom = Constant(len(constants), value)
                constants.append(atom)
            else:
                atom = Literal(value)
            replacement[var] = atom
    return _rebuilt(graph, kept, _substitute(tuple(graph.outputs), replacement), constants)


# ---- identities ---------------------------------------------------------------------


def _is_one(atom):
    """Whether `atom` is a real literal or constant holding only ones."""
    if isinstance(atom, Literal) and type(atom.value) in (bool, int, float):
        return atom.value == 1  # the common case (x * 1.01): no NumPy call
    if isinstance(atom, (Literal, Constant)):
        value = atom.value
        if is_array(value) and type(value) is not np.ndarray:
            return False  # reading a Dask constant's values would compute it
        kind = np.asarray(value).dtype.kind
        return kind in "biuf" and bool(np.all(np.equal(value, 1)))
    return False


# The primitives `_unchanged_input` may find returning their input.
_MAYBE_IDENTITY = frozenset({"multiply", "transpose", "reshape", "astype"})


def _unchanged_input(eq):
    """The Var an equation returns unchanged (same shape, dtype and values), or None.
    A product with ones is exact for real numbers only (complex: 0 * inf is NaN)."""
    if eq.primitive.multiple_results or not eq.inputs:
        return None
    out = eq.outputs[0]
    name = eq.primitive.name
    if name == "multiply" and len(eq.inputs) == 2:
        x, y = eq.inputs
        candidate = y if _is_one(x) else x if _is_one(y) else None
    elif name == "transpose":
        candidate = eq.inputs[0]
        if eq.params.get("axes") != tuple(range(len(out.shape))):
            return None
    elif name in ("reshape", "astype"):
        candidate = eq.inputs[0]
    else:
        return None
    if (isinstance(candidate, Var) and candidate.shape == out.shape
            and candidate.dtype == out.dtype and out.dtype.kind in "biuf"):
        return candidate
    return None


def _reshape_source(eq, reshaped):
    """For a reshape of a reshape (in one order), the equation reshaping the first one's
    input instead: reshapes compose (vmap's rules leave such pairs: (B, 1, N) and back)."""
    if not isinstance(eq.inputs[0], Var):
        return eq
    source = reshaped.get(eq.inputs[0])
    if source is None or source.params.get("order") != eq.params.get("order"):
        return eq
    return _with_inputs(eq, (source.inputs[0],) + tuple(eq.inputs[1:]))


def drop_identities(graph):
    """Drop each equation whose result is one of its inputs, unchanged; its uses read the
    input instead (an output that becomes an input is copied for the caller by jit). A
    reshape of a reshape reshapes the first one's input (dropped if it ends where it
    began; the first is then dead code if nothing else reads it)."""
    replacement = {}
    reshaped = {}  # the result of each reshape -> its equation
    kept = []
    for eq in graph.equations:
        eq = _with_inputs(eq, _substitute(eq.inputs, replacement))
        name = eq.primitive.name
        if name not in _MAYBE_IDENTITY:  # most equations: nothing else to look at
            kept.append(eq)
            continue
        if name == "reshape":
            eq = _reshape_source(eq, reshaped)
            if isinstance(eq.inputs[0], Var):
                reshaped[eq.outputs[0]] = eq
        same = _unchanged_input(eq)
        if same is not None:
            replacement[eq.outputs[0]] = same
        else:
            kept.append(eq)
    return _rebuilt(graph, kept, _substitute(tuple(graph.outputs), replacement))


# ---- squares ------------------------------------------------------------------------

# From NumPy 2.2, power's float loops compute a power of 2 as x * x (square's result, bit
# for bit), element by element: square's vectorized loop takes half the time (0.5 against
# 1.0 us on 640 float32 values). Earlier NumPy calls the C library's pow: not the same bits.
_POWER_OF_2_IS_SQUARE = np.lib.NumpyVersion(np.__version__) >= "2.2.0"
_SQUARED_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def square_powers(graph):
    """Rewrite ``power(x, 2)`` (a literal 2 or 2.0) of a float32 or float64 x of the
    result's dtype into ``square(x)``: NumPy computes both as x * x."""
    if not _POWER_OF_2_IS_SQUARE:
        return graph
    power, square = registry["power"], registry["square"]
    equations = []
    changed = False
    for eq in graph.equations:
        if eq.primitive is power and len(eq.inputs) == 2 and not eq.params:
            x, exponent = eq.inputs
            if (type(x) is Var and x.dtype == eq.outputs[0].dtype
                    and x.dtype in _SQUARED_DTYPES and type(exponent) is Literal
                    and type(exponent.value) in (int, float) and exponent.value == 2):
                eq = eq.replace(primitive=square, inputs=(x,))
                changed = True
        equations.append(eq)
    return _rebuilt(graph, equations) if changed else graph


# ---- arrays for scalar operands ------------------------------------------------------

# NumPy's maximum, minimum, fmax and fmin have vectorized loops for two arrays only: against
# a number they go element by element (3.0 against 1.1 us on a float32 (64, 100), 400
# against 190 us on 2**20 elements). An array of the number costs memory for the
# program's life: made for results of up to this many bytes.
MAX_FILLED_BYTES = 1 << 20


def _against_filled(ufunc, number_first):
    """A primitive computing ``ufunc(x, number)`` (``ufunc(number, x)`` if `number_first`)
    from x, `filled` (an array of x's shape and dtype holding the number) and the number.
    The result is NumPy's bit for bit (the same loop per element, in the same order of
    operands) and of x's layout: `filled` is C-contiguous, so it stands in for the number
    only where x is too; elsewhere the number is passed."""
    if number_first:
        def impl(x, filled, number):
            return ufunc(filled, x) if x.flags.c_contiguous else ufunc(number, x)
    else:
        def impl(x, filled, number):
            return ufunc(x, filled) if x.flags.c_contiguous else ufunc(x, number)
    side = "filled_first" if number_first else "filled"
    return Primitive(f"{ufunc.__name__}_{side}", impl, register=False, allocates=True)


_FILLED = {(ufunc, number_first): _against_filled(ufunc, number_first)
           for ufunc in (np.maximum, np.minimum, np.fmax, np.fmin)
           for number_first in (False, True)}


def _fillable_number(atom, dtype):
    """The number of the literal `atom`, if `dtype` holds it exactly (so an array of it
    holds what NumPy converts it to in the operation), else None."""
    if type(atom) is not Literal:
        return None
    value = atom.value
    if not (type(value) in (int, float) or (isinstance(value, np.generic)
                                             and value.dtype == dtype)):
        return None
    with np.errstate(over="ignore"):  # (an int beyond the dtype's range: infinity)
        held = np.array(value, dtype=dtype).item()
    # Compared as Python numbers, exactly (NaN is not equal to itself: not filled).
    return value if held == value else None


def fill_scalar_operands(graph, max_bytes=MAX_FILLED_BYTES):
    """Rewrite ``maximum(x, 2.0)`` (and minimum, fmax, fmin, with the number on either
    side) of a real floating x into a primitive comparing x against a constant array of
    the number, where the result has x's shape and dtype and at most `max_bytes` bytes."""
    constants = list(graph.constants)
    filled = {}  # (shape, dtype, number's key) -> its Constant, shared by equations
    equations = []
    for eq in graph.equations:
        ufunc = eq.primitive.impl
        if type(ufunc) is np.ufunc and (ufunc, False) in _FILLED and len(eq.inputs) == 2:
            out = eq.outputs[0]
            first, second = eq.inputs
            number_first = type(second) is Var
            x, number = (second, first) if number_first else (first, second)
            value = None
            if (type(x) is Var and x.shape == out.shape and x.dtype == out.dtype
                    and out.dtype.kind == "f" and out.shape
                    and 0 < math.prod(out.shape) * out.dtype.itemsize <= max_bytes):
                value = _fillable_number(number, out.dtype)
            if value is not None:
                key = (out.shape, out.dtype, _key(value))
                if key not in filled:
                    filled[key] = Constant(len(constants), np.full(out.shape, value, out.dtype))
                    constants.append(filled[key])
                eq = eq.replace(primitive=_FILLED[ufunc, number_first],
                                inputs=(x, filled[key], number))
        equations.append(eq)
    if len(constants) == len(graph.constants):
        return graph
    return _rebuilt(graph, equations, constants=constants)


# ---- products as ufuncs --------------------------------------------------------------

# matmul's primitive runs a Python function (`funcgrad.numpy.products._matmul_impl`) that
# picks NumPy's matmul or, for an outer product, its multiply: in a program the choice is
# made once, here, and the equation calls the ufunc itself.
_MATMUL_UFUNC = Primitive("matmul", np.matmul, register=False)


def _shape_and_kind(atom):
    if type(atom) is Var:
        return atom.shape, atom.dtype.kind
    if type(atom) is Constant and type(atom.value) is np.ndarray:
        return atom.value.shape, atom.value.dtype.kind
    return None, None


def ufunc_products(graph):
    """Rewrite each matmul into NumPy's matmul ufunc, or, where both operands are real
    float arrays of shapes ``(..., M, 1)`` and ``(..., 1, N)``, into its multiply, as
    the primitive's implementation computes them when called (one product an element, in
    a fraction of matmul's time)."""
    matmul, multiply = registry["matmul"], registry["multiply"]
    equations = []
    changed = False
    for eq in graph.equations:
        if eq.primitive is matmul and len(eq.inputs) == 2 and not eq.params:
            (a_shape, a_kind), (b_shape, b_kind) = map(_shape_and_kind, eq.inputs)
            outer = (a_shape is not None and b_shape is not None and len(a_shape) > 1
                     and len(b_shape) > 1 and a_shape[-1] == 1 and b_shape[-2] == 1
                     and a_kind == "f" and b_kind == "f")
            eq = eq.replace(primitive=multiply if outer else _MATMUL_UFUNC)
            changed = True
        equations.append(eq)
    return _rebuilt(graph, equations) if changed else graph


# ---- buffer reuse -------------------------------------------------------------------


def allocates(eq):
    """Whether the equation's result is memory it allocated, never an input or a view of
    one: a NumPy ufunc's single result (without ``out=``), or a primitive's that declares
    it (`Primitive.allocates`)."""
    primitive = eq.primitive
    return (isinstance(primitive.impl, np.ufunc) or primitive.allocates) \
        and not primitive.multiple_results


def _takes_out(eq):
    """A NumPy ufunc of one result: it takes ``out=`` (any buffer of the result's shape
    and dtype), and an elementwise one (no gufunc signature, unlike matmul's) may write
    into one of its own inputs (each element is read before it is written)."""
    return isinstance(eq.primitive.impl, np.ufunc) and not eq.primitive.multiple_results


def reuse_buffers(graph, min_size=MIN_REUSE_SIZE, donated=()):
    """Mark each ufunc equation (elementwise, or matmul) that can write its result into a
    dead buffer instead of allocating one (``out=``): an intermediate of the same shape
    and dtype that some allocating equation made in this run (so it is memory of its
    own) or a `donated` input, that no equation that might return a view of it read,
    that is not an output, and whose last use is this equation (an elementwise one: one
    of its inputs) or came before it. Arrays of fewer than `min_size` elements are left
    alone."""
    fresh = set(donated)  # results of allocating equations, donated inputs
    shared = set(vars_in(graph.outputs))  # outputs, and what a view might alias
    last_use = {}
    for index, eq in enumerate(graph.equations):
        alloc = allocates(eq)
        for var in vars_in(eq.inputs):
            last_use[var] = index
            if not alloc:
                shared.add(var)
        if alloc:
            fresh.add(eq.outputs[0])
    # (and not a buffer an equation already writes into: a graph optimized before)
    reusable = fresh - shared - {eq.overwrites for eq in graph.equations}
    dead = {}  # (shape, dtype) -> buffers whose last use has passed, not yet written into
    equations = []
    for index, eq in enumerate(graph.equations):
        if _takes_out(eq) and eq.overwrites is None:
            out = eq.outputs[0]
            if len(out.shape) and math.prod(out.shape) >= min_size:
                buffer = None
                if eq.primitive.impl.signature is None:  # elementwise: one of its inputs
                    for atom in eq.inputs:
                        if (type(atom) is Var and atom in reusable
                                and last_use[atom] == index and atom.shape == out.shape
                                and atom.dtype == out.dtype):
                            buffer = atom
                            break
                if buffer is None and dead.get((out.shape, out.dtype)):
                    buffer = dead[(out.shape, out.dtype)].pop()
                if buffer is not None:
                    eq = eq.replace(overwrites=buffer)
                    reusable.discard(buffer)  # its memory is the result's now
        equations.append(eq)
        for var in vars_in(eq.inputs):
            if last_use[var] == index and var in reusable:
                dead.setdefault((var.shape, var.dtype), []).append(var)
                reusable.discard(var)
    return _rebuilt(graph, equations)


def optimize(graph, donated=(), numpy_only=True):
    """The passes jit runs, in order; `donated` are the inputs whose buffers the program
    may overwrite; `numpy_only` False for programs over other libraries' arrays (Dask's
    are immutable: no ``out=``; what the rewrites rely on is NumPy's loops, not theirs)."""
    graph = fold_constants(graph)
    graph = drop_identities(graph)
    graph = eliminate_common_subexpressions(graph)
    graph = eliminate_dead_code(graph)
    if not numpy_only:
        return graph
    graph = square_powers(graph)
    graph = fill_scalar_operands(graph)
    graph = ufunc_products(graph)
    return reuse_buffers(graph, donated=donated)
