"""The base layer of funcgrad.numpy: the primitives every derivative rule builds on.

Whatever its family, a rule needs to give a cotangent its argument's shape and dtype
(`unbroadcast`: a sum, a reshape, a cast, a real part), to spread or pick values
(broadcast, index, transpose) and to join pieces (concatenate, stack). Those primitives
live here, beneath the modules of NumPy-signature functions, so that every module of the
package imports downward: `_rules` and `_axes` below this one, the families above.

Primitives are named with a `_p` suffix where a public function of the same name (with
NumPy's signature and checks) is defined above; a primitive takes arrays positionally
and normalized keyword parameters.
"""
import numpy as np

from ..core import (PYTHON_NUMBERS, Box, as_dtype, dtype_of, is_array, shape_of, unboxed,
                    zeros_in_library_of)
from ._add_at import added_at
from ._axes import kept_shape
from ._rules import ArgVJP, aval, defjvp, defjvp_any_arg, defvjp, defvjp_any_arg, primitive

# ---- casts and real parts ----------------------------------------------------------------

# A Python number becomes a NumPy scalar, not a 0-d array: CuPy refuses NumPy arrays (0-d
# too) beside its own, and takes scalars.
astype = primitive(lambda x, dtype: x.astype(dtype) if is_array(x)
                   else np.asarray(x).astype(dtype)[()], name="astype")
real = primitive(np.real)


def unbroadcast(g, shape, dtype):
    """Turn ``g`` into the cotangent of a primal with ``shape`` and ``dtype``.

    The single place where broadcasting is undone (DESIGN.md, decision 8): it sums over
    the axes NumPy broadcast, then casts to the primal's dtype (dropping the imaginary
    part for a real primal, as JAX does).
    """
    try:  # arrays and boxes: attribute loads (shape_of and dtype_of, inlined)
        g_shape, g_dtype = g.shape, g.dtype
    except AttributeError:
        g_shape, g_dtype = shape_of(g), dtype_of(g)
    if g_shape == shape and g_dtype == dtype:  # nothing to undo: the common case
        return g
    if g_shape != shape:
        extra = len(g_shape) - len(shape)
        axes = tuple(range(extra)) + tuple(
            extra + i for i, n in enumerate(shape) if n == 1 and g_shape[extra + i] != 1)
        g = sum_p(g, axes=axes, keepdims=False)
        if shape_of(g) != shape:
            g = reshape_p(g, shape=shape, order="C")
        g_dtype = dtype_of(g)
    if g_dtype != dtype:
        if g_dtype.kind == "c" and dtype.kind != "c":
            g = real(g)
        g = astype(g, dtype)
    return g


# The floating and complex dtypes by kind and precision (1: half, 2: single, 3: double).
_PRECISION = {np.dtype(t): (np.dtype(t).kind, p) for p, kinds in enumerate(
    ((np.float16,), (np.float32, np.complex64), (np.float64, np.complex128)), 1) for t in kinds}
_OF_KIND_AND_PRECISION = {kind_and_precision: dtype
                          for dtype, kind_and_precision in _PRECISION.items()}


def as_computed(ans, args):
    """`args` as NumPy computed with them: a list or tuple as an array, and each floating
    or complex argument of lower precision than the result `ans` cast up to it, keeping
    its kind. A derivative rule must see them so: log of a float32 base beside a float64
    exponent would otherwise round to single precision in a double-precision gradient.
    The cast is a primitive, so derivatives of the rule still reach the argument; the
    cotangent is cast back to the argument's dtype by `unbroadcast`."""
    target = dtype_of(ans)
    # The common case: every argument a Python number (double precision: never below the
    # result's), an array of the result's dtype (decided by identity), or one that is not
    # floating or complex (where's condition), which is never cast.
    for arg in args:
        if type(arg) not in PYTHON_NUMBERS:
            dtype = getattr(arg, "dtype", None)
            if dtype is not target and (dtype is None or dtype.kind in "fc"):
                break
    else:
        return args
    target = _PRECISION.get(target)
    computed = list(args)
    for i, arg in enumerate(args):
        if type(arg) in (list, tuple):
            computed[i] = arg = np.asarray(arg)
        own = _PRECISION.get(getattr(arg, "dtype", None))
        if target is not None and own is not None and own[1] < target[1]:
            computed[i] = astype(arg, _OF_KIND_AND_PRECISION[own[0], target[1]])
    return tuple(computed)


# A cast's cotangent is cast back (integer targets are constants and never get here).
defvjp(astype, ArgVJP(lambda ans, x, dtype: aval(x), unbroadcast))
# A complex x gets g + 0j.
defvjp(real, ArgVJP(lambda ans, x: aval(x), unbroadcast))
defjvp(real, lambda t, ans, x: real(t) if dtype_of(x).kind == "c" else t)

# ---- reshape, transpose, broadcast ---------------------------------------------------------


def _reshape(a, shape, order):
    # The method for order="C", as in _transpose (np.reshape's wrapper costs ~0.6 us a
    # call); order="C" is left out: Dask's reshape takes no order.
    if order == "C":
        try:
            return a.reshape(shape)
        except AttributeError:  # Python scalars
            return np.reshape(a, shape)
    return np.reshape(a, shape, order=order)


def _transpose(a, axes):
    # The method rather than np.transpose, whose Python wrapper costs ~0.7 us per call (the
    # matmul VJPs transpose on every backward step); np.asanyarray only for Python scalars,
    # since it would compute a Dask array.
    try:
        return a.transpose(axes)
    except AttributeError:
        return np.asanyarray(a).transpose(axes)


reshape_p = primitive(_reshape, "reshape")
transpose_p = primitive(_transpose, "transpose")


def _broadcast_view(a, shape):
    """``np.broadcast_to(a, shape)``: a read-only view. A 0-d array (the cotangent of every
    scalar loss, spread by sum's VJP) is viewed with zero strides directly: 1.2 us where
    ``np.broadcast_to`` builds an nditer for 3.4 us."""
    if type(a) is np.ndarray and not a.ndim:
        view = np.ndarray(shape, a.dtype, a, 0, (0,) * len(shape))
        view.flags.writeable = False
        return view
    return np.broadcast_to(a, shape)


broadcast_to_p = primitive(_broadcast_view, "broadcast_to")


def _reshape_pull(g, a_shape, order):
    return reshape_p(g, shape=a_shape, order=order)


def _transpose_save(ans, a, axes):
    return (tuple(int(i) for i in np.argsort(axes)),)


def _transpose_pull(g, inverse):
    return transpose_p(g, axes=inverse)


defvjp(reshape_p, ArgVJP(lambda ans, a, shape, order: (shape_of(a), order), _reshape_pull))
defvjp(transpose_p, ArgVJP(_transpose_save, _transpose_pull))
defvjp(broadcast_to_p, ArgVJP(lambda ans, a, shape: aval(a), unbroadcast))
defjvp(reshape_p, lambda t, ans, a, shape, order: reshape_p(t, shape=shape, order=order))
defjvp(transpose_p, lambda t, ans, a, axes: transpose_p(t, axes=axes))
defjvp(broadcast_to_p, lambda t, ans, a, shape: broadcast_to_p(t, shape=shape))

# ---- sum -------------------------------------------------------------------------------------


def ufunc_reduction(ufunc, function):
    """The impl of a reduction over normalized ``axes`` (a sorted tuple of non-negative
    ints): the ufunc's own reduce rather than np.sum and friends, the same results without
    their Python wrapper (1.3 us against 3 us per call). Other libraries' arrays take
    `function` (np.sum, ...): Dask's __array_ufunc__ has no reduce. Either returns a new
    array or scalar, never its argument or a view of it (axes=() included): its primitive
    is declared `allocates`, so jit neither copies its result for the caller nor checks
    it on each run."""
    reduce = ufunc.reduce

    def impl(x, axes, keepdims):
        if type(x) is np.ndarray or not is_array(x):
            return reduce(x, axis=axes, keepdims=keepdims)
        return function(x, axis=axes, keepdims=keepdims)
    impl.__name__ = impl.__qualname__ = f"{ufunc.__name__}_reduce"
    return impl


sum_p = primitive(ufunc_reduction(np.add, np.sum), "sum", allocates=True)


def chunked_like(x):
    """x's array if it is chunked (Dask's), for a reduction's VJP to spread its cotangent
    in those chunks; None for every other array (nothing more is kept)."""
    if type(x) is np.ndarray:
        return None
    base = unboxed(x)
    if type(base) is np.ndarray or not hasattr(base, "chunks"):
        return None
    # Under vmap the array holds the whole batch, and x is one element of it.
    return base if shape_of(base) == shape_of(x) else None


def spread(g, shape, axes, chunked=None):
    """Broadcast the cotangent of a reduction over ``axes`` back to the input's shape
    (``chunked``: the input, where it is a Dask array; see `chunked_like`)."""
    g_shape = shape_of(g)
    if g_shape and g_shape != shape:  # a 0-d cotangent broadcasts as it is
        kept = kept_shape(shape, axes)
        if g_shape != kept:
            g = reshape_p(g, shape=kept, order="C")
    if g_shape == shape:
        return g
    if chunked is not None:
        # Ones in the input's chunks times g, which Dask fuses into each chunk's task. Dask's
        # broadcast_to feeds every chunk from one task, and Dask's ordering then ran the
        # whole forward pass before the backward one, holding every forward block (7.5
        # chunks against the hand-written gradient's 2 in examples/out_of_core.py).
        return g * np.ones_like(chunked, dtype=dtype_of(g))
    # The primitive itself: the shapes are ours and need none of broadcast_to's checks.
    return broadcast_to_p(g, shape=shape)


defvjp(sum_p, ArgVJP(lambda ans, x, axes, keepdims: (shape_of(x), axes, chunked_like(x)),
                     spread))
defjvp(sum_p, lambda t, ans, x, axes, keepdims: sum_p(t, axes=axes, keepdims=keepdims))

# ---- indexing and its transpose ----------------------------------------------------------


def _index_into(x, index, unique):
    if type(x) is float or type(x) is complex:  # a traced Python scalar
        x = np.asarray(x)
    return x[index]


# `index` is canonical (see indexing.canonical_index); `unique` says that it picks each
# element at most once (no integer arrays, or ones known to be free of repeats), so its
# transpose can assign instead of accumulate.
getitem_p = primitive(_index_into, "getitem")


def without_new_axes(index, values, shape):
    """The same write into an array of `shape` as ``out[index] = values`` with `index`
    free of None: the new axes an index adds have length 1, so they leave the index, and
    `values` (broadcast to what the full index selects) is reshaped to match, which keeps
    its elements' order. Dask's setitem takes no None."""
    if not any(entry is None for entry in index):
        return index, values
    selection = np.broadcast_to(np.empty((), np.int8), shape)  # (no memory: shapes only)
    kept = tuple([entry for entry in index if entry is not None])
    values = broadcast_to_p(values, shape=selection[index].shape)
    return kept, reshape_p(values, shape=selection[kept].shape, order="C")


def _add_at(g, index, unique, shape, dtype):
    out = zeros_in_library_of(g, shape, dtype)
    index, g = without_new_axes(index, g, shape)
    if unique:
        out[index] = g
        return out
    return added_at(out, index, g)  # repeated integer indices accumulate


# The transpose of indexing: g added into zeros of the indexed array's shape.
add_at_zeros = primitive(_add_at, "add_at_zeros")


def gather(x, index, unique):
    """``x[index]`` for an index already canonical, with ``unique`` known by the caller
    (sort, diagonal, pad...), so that a permutation's VJP assigns instead of accumulating."""
    return getitem_p(x, index=index, unique=unique)


def _getitem_pull(g, index, unique, shape, dtype):
    return add_at_zeros(g, index=index, unique=unique, shape=shape, dtype=dtype)


defvjp(getitem_p, ArgVJP(lambda ans, x, index, unique: (index, unique, *aval(x)),
                         _getitem_pull, saves=()))  # (the index is a parameter)
defvjp(add_at_zeros, ArgVJP(lambda ans, g, index, unique, shape, dtype: (index, unique),
                            gather))
defjvp(getitem_p, lambda t, ans, x, index, unique: gather(t, index, unique))
defjvp(add_at_zeros, lambda t, ans, g, index, unique, shape, dtype:
       add_at_zeros(t, index=index, unique=unique, shape=shape, dtype=dtype))

# ---- joining -----------------------------------------------------------------------------

concatenate_p = primitive(lambda *arrays, axis: np.concatenate(arrays, axis=axis),
                          "concatenate")
stack_p = primitive(lambda *arrays, axis: np.stack(arrays, axis=axis), "stack")


def _concatenate_save(argnum, ans, *arrays, axis):
    sizes = [np.shape(a)[axis] for a in arrays]
    start = sum(sizes[:argnum])
    index = (slice(None),) * axis + (slice(start, start + sizes[argnum]),)
    return (index, *aval(arrays[argnum]))


def _gather_unbroadcast(g, index, shape, dtype):
    return unbroadcast(gather(g, index, unique=True), shape, dtype)


def _concatenate_jvp(argnum, t, ans, *arrays, axis):
    dtype = ans.dtype
    return concatenate_p(*[t if i == argnum else zeros_in_library_of(ans, np.shape(a), dtype)
                           for i, a in enumerate(arrays)], axis=axis)


def _stack_save(argnum, ans, *arrays, axis):
    return ((slice(None),) * axis + (argnum,), *aval(arrays[argnum]))


def _stack_jvp(argnum, t, ans, *arrays, axis):
    dtype = ans.dtype
    return stack_p(*[t if i == argnum else zeros_in_library_of(ans, np.shape(a), dtype)
                     for i, a in enumerate(arrays)], axis=axis)


defvjp_any_arg(concatenate_p, ArgVJP(_concatenate_save, _gather_unbroadcast))
defvjp_any_arg(stack_p, ArgVJP(_stack_save, _gather_unbroadcast))
defjvp_any_arg(concatenate_p, _concatenate_jvp)
defjvp_any_arg(stack_p, _stack_jvp)

# ---- arrays from (nested) lists of traced values ------------------------------------------


def _holds_box(obj):
    pending = [obj]
    while pending:
        item = pending.pop()
        if isinstance(item, Box):
            return True
        if isinstance(item, (list, tuple)):
            pending.extend(item)
    return False


def is_traced(obj):
    """Whether ``obj`` is a traced value or a (nested) list or tuple holding one."""
    return isinstance(obj, Box) or (isinstance(obj, (list, tuple)) and _holds_box(obj))


def cast(x, dtype):
    """``x`` as ``dtype`` (None: as it is)."""
    return x if dtype is None or np.dtype(dtype) == x.dtype else astype(x, dtype)


def array(object, dtype=None, *, copy=True, order="K", subok=False, ndmin=0, ndmax=0,
          like=None):
    """``numpy.array``; lists may hold traced values (they are stacked, not copied out)."""
    if isinstance(object, Box):
        result = object
    elif isinstance(object, (list, tuple)) and _holds_box(object):
        items = [array(item) for item in object]
        shapes = {np.shape(item) for item in items}
        if len(shapes) > 1:
            raise ValueError(f"funcgrad.numpy.array: the elements of a list holding traced "
                             f"values must have one shape, got {sorted(shapes)}")
        result = stack_p(*items, axis=0)
    else:
        kwargs = {"ndmax": ndmax} if ndmax else {}
        if like is not None:
            return np.array(object, like=like, **_given(
                dtype=(dtype, None), copy=(copy, True), order=(order, "K"),
                subok=(subok, False), ndmin=(ndmin, 0)), **kwargs)
        return np.array(object, dtype=dtype, copy=copy, order=order, subok=subok,
                        ndmin=ndmin, **kwargs)
    result = cast(result, dtype)
    if result.ndim < ndmin:
        result = reshape_p(result, shape=(1,) * (ndmin - result.ndim) + result.shape,
                           order="C")
    return result


def _given(**values_and_defaults):
    """The keywords given other values than their defaults: another library's function,
    reached through like=, may take fewer of NumPy's (Dask's asarray has no copy)."""
    return {name: value for name, (value, default) in values_and_defaults.items()
            if value != default}


def asarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    """``numpy.asarray``: traced values pass through unchanged, and so do other libraries'
    arrays (Dask's, CuPy's: np.asarray would convert them to NumPy, computing a Dask
    array), cast to `dtype` in their own library."""
    if dtype is None and isinstance(a, Box):  # the common case, first: many functions start here
        return a
    if is_traced(a):
        return array(a, dtype=dtype)
    if like is None and type(a) is not np.ndarray and is_array(a):
        result = a if dtype is None else as_dtype(a, np.dtype(dtype))
        return result.copy() if copy and result is a else result
    if like is not None:
        return np.asarray(a, like=like, **_given(dtype=(dtype, None), order=(order, None),
                                                 copy=(copy, None)))
    return np.asarray(a, dtype=dtype, order=order, copy=copy)


def as_array(a):
    """Traced values and arrays as they are; anything else (lists, scalars) as an array,
    through `asarray`, so that lists may hold traced values."""
    if isinstance(a, (Box, np.ndarray)) or is_array(a):
        return a
    return asarray(a)
