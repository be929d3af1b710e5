"""What the rules share: declaring primitives, and cotangents shaped like their primals."""
# The rule declarations are re-exported so each rule module imports from one place.
from ..core import (ZERO, ArgVJP, Primitive, defjvp, defjvp_any_arg, defvjp,  # noqa: F401
                    defvjp_any_arg, defvjp_rule, dtype_of, shape_of)


def primitive(impl, name=None, multiple_results=False):
    """Declare ``impl`` (a NumPy function) as a funcgrad primitive."""
    return Primitive(name or impl.__name__, impl, multiple_results)


def aval(x):
    """What a rule remembers of an argument whose value it does not need: shape and dtype."""
    try:  # arrays and boxes (shape_of and dtype_of, inlined: every binary rule calls this)
        return x.shape, x.dtype
    except AttributeError:
        return shape_of(x), dtype_of(x)


def unbroadcast(g, shape, dtype):
    """Turn ``g`` into the cotangent of a primal with ``shape`` and ``dtype``.

    The single place where broadcasting is undone (DESIGN.md, decision 8): it sums
    over the axes NumPy broadcast, then casts to the primal's dtype (dropping the
    imaginary part for a real primal, as JAX does).
    """
    try:  # arrays and boxes: attribute loads (shape_of and dtype_of, inlined)
        g_shape, g_dtype = g.shape, g.dtype
    except AttributeError:
        g_shape, g_dtype = shape_of(g), dtype_of(g)
    if g_shape == shape and g_dtype == dtype:  # nothing to undo: the common case
        return g
    # Imported here: these modules declare their primitives with this one's helpers.
    from . import casting, elementwise, reductions, shape_ops
    if g_shape != shape:
        extra = len(g_shape) - len(shape)
        axes = tuple(range(extra)) + tuple(
            extra + i for i, n in enumerate(shape) if n == 1 and g_shape[extra + i] != 1)
        g = reductions.sum(g, axis=axes)
        if shape_of(g) != shape:
            g = shape_ops.reshape(g, shape)
        g_dtype = dtype_of(g)
    if g_dtype != dtype:
        if g_dtype.kind == "c" and dtype.kind != "c":
            g = elementwise.real(g)
        g = casting.astype(g, dtype)
    return g
