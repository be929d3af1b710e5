"""Oracle cases: NumPy functions composed from funcgrad's primitives (joining, selecting,
scans, differences, vector products, functional scatters and whole-array comparisons)."""
import hypothesis.strategies as st
import jax.numpy as jnp
import numpy

from oracle import Case, array, dtypes, shapes


@st.composite
def one_array(draw, min_dims=1, max_dims=3, min_side=1, axis=True, **kwargs):
    """One array, and (``axis``) a valid axis of it, negative too."""
    dtype = draw(dtypes())
    shape = draw(shapes(min_dims, max_dims, min_side=min_side))
    static = {"axis": draw(st.integers(-len(shape), len(shape) - 1))} if axis else {}
    return (draw(array(shape, dtype, **kwargs)),), static


@st.composite
def two_arrays(draw, first, second):
    """Two arrays of the given shapes, of independently drawn dtypes."""
    return (draw(array(first, draw(dtypes()))), draw(array(second, draw(dtypes())))), {}


@st.composite
def vector_pairs(draw):
    shape = draw(shapes(1, 3))
    other = shape[draw(st.integers(0, len(shape) - 1)):]
    # A negative axis names the same dimension of both operands.
    axis = draw(st.integers(-len(other), -1))
    return (draw(array(shape, draw(dtypes()))), draw(array(other, draw(dtypes())))), \
        {"axis": axis}


@st.composite
def matvec_args(draw, vector_first):
    batch = draw(shapes(0, 1))
    m, n = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    if vector_first:
        return (draw(array((n,), draw(dtypes()))),
                draw(array(batch + (n, m), draw(dtypes())))), {}
    return (draw(array(batch + (m, n), draw(dtypes()))),
            draw(array((n,), draw(dtypes())))), {}


@st.composite
def cumulative(draw):
    # 1-d at least: NumPy treats a 0-d array as 1-d, JAX rejects it.
    (x,), static = draw(one_array(min_dims=1, max_dims=2, axis=False))
    if x.ndim > 1 or draw(st.booleans()):
        static["axis"] = draw(st.integers(-x.ndim, x.ndim - 1))
    static["include_initial"] = draw(st.booleans())
    return (x,), static


@st.composite
def select_args(draw):
    dtype = draw(dtypes())
    shape = draw(shapes(0, 2))
    count = draw(st.integers(1, 3))
    conditions = tuple(numpy.array(draw(array(shape, bool, elements=st.booleans())))
                       for _ in range(count))
    return tuple(draw(array(shape, dtype)) for _ in range(count + 1)), \
        {"conditions": conditions}


@st.composite
def choose_args(draw):
    dtype = draw(dtypes())
    shape = draw(shapes(1, 2))
    count = draw(st.integers(1, 3))
    mode = draw(st.sampled_from(["raise", "clip", "wrap"]))
    low, high = (0, count - 1) if mode == "raise" else (-2, count + 1)
    picks = numpy.array(draw(array(shape, numpy.int64, elements=st.integers(low, high))))
    return tuple(draw(array(shape[draw(st.integers(0, len(shape))):], dtype))
                 for _ in range(count)), {"picks": picks, "mode": mode}


@st.composite
def with_mask(draw, axis_none=True):
    (x,), static = draw(one_array(min_dims=1, max_dims=2))
    if axis_none and draw(st.booleans()):
        static["axis"] = None
    length = x.size if static["axis"] is None else x.shape[static["axis"]]
    static["mask"] = numpy.array(draw(st.lists(st.booleans(), min_size=1,
                                               max_size=length)))
    return (x,), static


@st.composite
def delete_args(draw):
    (x,), static = draw(one_array(min_dims=1, max_dims=2))
    if draw(st.booleans()):
        static["axis"] = None
    length = x.size if static["axis"] is None else x.shape[static["axis"]]
    static["obj"] = draw(st.one_of(
        st.integers(-length, length - 1),
        st.builds(slice, st.integers(-length, length), st.none(), st.sampled_from([1, 2])),
        st.lists(st.integers(-length, length - 1), max_size=3).map(
            lambda picks: numpy.array(picks, numpy.intp))))
    return (x,), static


@st.composite
def insert_args(draw):
    (x,), static = draw(one_array(min_dims=1, max_dims=2))
    if draw(st.booleans()):
        static["axis"] = None
    length = x.size if static["axis"] is None else x.shape[static["axis"]]
    kind = draw(st.sampled_from(["int", "one", "many"]))
    if kind == "int":
        obj = draw(st.integers(-length, length))
        values_shape = draw(st.sampled_from([(), (1,), (2,)]))
    else:
        count = 1 if kind == "one" else draw(st.integers(2, 3))
        obj = numpy.array(draw(st.lists(st.integers(-length, length), min_size=count,
                                        max_size=count)))
        values_shape = draw(st.sampled_from([(), (count,)]))
    if static["axis"] is not None and x.ndim == 2 and values_shape == (2,) and kind == "int":
        values_shape = ()  # a scalar index puts values' first axis along ``axis``
    if (static["axis"] is not None and x.ndim == 2 and static["axis"] % 2 == 0
            and kind != "int" and values_shape == (count,)):
        # One value per index along axis 0 is a column: NumPy refuses (count,) there
        # unless it matches the other axis (JAX accepts it).
        values_shape = (count, 1)
    static["obj"] = obj
    return (x, draw(array(values_shape, draw(dtypes())))), static


@st.composite
def gradient_args(draw):
    edge_order = draw(st.sampled_from([1, 2]))
    dtype = draw(dtypes())
    shape = draw(shapes(1, 2, min_side=edge_order + 1))
    static = {"edge_order": edge_order, "axis": draw(st.one_of(
        st.none(), st.integers(-len(shape), len(shape) - 1)))}
    spacing = draw(st.sampled_from([(), (0.5,)]))
    return (draw(array(shape, dtype)),), dict(static, spacing=spacing)


@st.composite
def bincount_args(draw):
    picks = numpy.array(draw(st.lists(st.integers(0, 3), min_size=1, max_size=4)))
    weights = draw(array(picks.shape, draw(dtypes())))
    return (weights,), {"picks": picks, "minlength": draw(st.integers(0, 5))}


@st.composite
def put_along_axis_args(draw):
    dtype = draw(dtypes())
    shape = draw(shapes(1, 2))
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    length = shape[axis]
    count = draw(st.integers(1, length))
    # Distinct indices along each line: which of repeated writes wins is unspecified.
    lines = [draw(st.permutations(range(length)))[:count]
             for _ in range(int(numpy.prod(shape)) // length)]
    other = shape[:axis % len(shape)] + shape[axis % len(shape) + 1:]
    indices = numpy.moveaxis(numpy.array(lines).reshape(other + (count,)), -1, axis)
    values_shape = draw(st.sampled_from([(), indices.shape]))
    return (draw(array(shape, dtype)), draw(array(values_shape, dtype))), \
        {"indices": indices, "axis": axis}


@st.composite
def fill_diagonal_args(draw):
    dtype = draw(dtypes())
    if draw(st.booleans()):
        shape = draw(st.tuples(st.integers(1, 3), st.integers(1, 3)))
    else:
        shape = (draw(st.integers(1, 2)),) * 3
    val_shape = draw(st.sampled_from([(), (1,), (2,), (4,)]))
    return (draw(array(shape, dtype)), draw(array(val_shape, dtype))), {}


@st.composite
def block_args(draw):
    dtype = draw(dtypes())
    rows, cols, extra = draw(st.integers(1, 2)), draw(st.integers(1, 2)), draw(st.integers(1, 2))
    return (draw(array((rows, cols), dtype)), draw(array((rows, extra), dtype)),
            draw(array((cols + extra,), dtype)), draw(array((), dtype))), {}


@st.composite
def trim_args(draw):
    dtype = draw(dtypes())
    n = draw(st.integers(1, 3))
    core = draw(array((n,), dtype))
    zeros = numpy.zeros(draw(st.integers(0, 2)), dtype)
    x = numpy.concatenate([zeros, core, zeros[:draw(st.integers(0, zeros.size))]])
    trim = draw(st.sampled_from(["f", "b", "fb"]))
    # Where the zeros end, for JAX, which cannot read a traced array's values.
    nonzero = numpy.flatnonzero(x)
    start = nonzero[0] if nonzero.size and "f" in trim else (0 if nonzero.size else 0)
    stop = nonzero[-1] + 1 if nonzero.size and "b" in trim else (x.size if nonzero.size else 0)
    return (x,), {"trim": trim, "bounds": (int(start), int(stop))}


@st.composite
def compare_args(draw):
    shape = draw(shapes(0, 2))
    (a, b), _ = draw(two_arrays(shape, shape[draw(st.integers(0, len(shape))):]))
    if draw(st.booleans()):
        b = a + numpy.asarray(1e-9, a.dtype)
    return (a, b), {}


def _gradient(np, f, spacing, **static):
    result = np.gradient(f, *spacing, **static)
    return tuple(result) if isinstance(result, (list, tuple)) else result


def _gradient_jax(f, spacing, axis, edge_order):
    """NumPy's gradient is linear: along each axis, its matrix applied with JAX (which
    has no edge_order)."""
    axes = range(f.ndim) if axis is None else [axis % f.ndim]
    results = []
    for ax in axes:
        n = f.shape[ax]
        matrix = numpy.gradient(numpy.eye(n), *spacing, axis=0, edge_order=edge_order)
        results.append(jnp.moveaxis(jnp.tensordot(matrix.astype(f.dtype), f, axes=(1, ax)),
                                    0, ax))
    return tuple(results) if len(results) > 1 else results[0]


def _bincount_jax(weights, picks, minlength):
    return jnp.bincount(picks, weights.astype(jnp.float64), minlength=minlength,
                        length=max(int(picks.max()) + 1, minlength))


def _comparisons(np, a, b):
    return (np.isclose(a, b), np.allclose(a, b), np.array_equal(a, b), np.array_equiv(a, b))


CASES = [
    Case("concat", lambda np, a, b: np.concat([a, b, a], axis=-1),
         two_arrays((2, 1), (2, 3)), order=2),
    Case("block", lambda np, a, b, c, d: np.block([[a, b], [np.reshape(c, (1, -1))]]) * d,
         block_args(), order=2),
    Case("vecdot", lambda np, x, y, axis: np.vecdot(x, y, axis=axis), vector_pairs(),
         order=2),
    Case("matvec", lambda np, x, y: np.matvec(x, y), matvec_args(False), order=2),
    Case("vecmat", lambda np, x, y: np.vecmat(x, y), matvec_args(True), order=2),
    Case("cumulative_sum", lambda np, x, **s: np.cumulative_sum(x, **s), cumulative(),
         order=2),
    Case("cumulative_prod", lambda np, x, **s: np.cumulative_prod(x, **s), cumulative(),
         order=2),
    Case("select", lambda np, *a, conditions: np.select(list(conditions), list(a[1:]),
                                                        default=a[0]),
         select_args(), order=2),
    Case("choose", lambda np, *c, picks, mode: np.choose(picks, list(c), mode=mode),
         choose_args(), jax_fun=lambda *c, picks, mode: jnp.choose(
             picks, list(c), mode="clip" if mode == "raise" else mode), order=2),
    Case("compress", lambda np, x, mask, axis: np.compress(mask, x, axis=axis),
         with_mask(), jax_fun=lambda x, mask, axis: jnp.take(x, numpy.flatnonzero(mask),
                                                            axis=axis), order=2),
    Case("extract", lambda np, x, mask, axis: np.extract(numpy.resize(mask, x.shape), x),
         with_mask(), jax_fun=lambda x, mask, axis: jnp.take(
             x, numpy.flatnonzero(numpy.resize(mask, x.shape))), order=2),
    Case("delete", lambda np, x, obj, axis: np.delete(x, obj, axis=axis), delete_args(),
         order=2),
    Case("insert", lambda np, x, v, obj, axis: np.insert(x, obj, v, axis=axis),
         insert_args(), order=2),
    Case("ediff1d", lambda np, x, b, e: np.ediff1d(x, to_end=e, to_begin=b),
         st.tuples(dtypes(), shapes(0, 2), shapes(0, 1)).flatmap(
             lambda t: st.tuples(array(t[1], t[0]), array(t[2], t[0]), array((), t[0])))
         .map(lambda a: (a, {})), order=2),
    Case("gradient", _gradient, gradient_args(), jax_fun=_gradient_jax, order=2),
    Case("unwrap", lambda np, p, axis: np.unwrap(3.0 * p, axis=axis, period=5.0),
         one_array(), order=2),
    Case("rollaxis", lambda np, x, axis: np.rollaxis(x, axis, start=1) * 2.0,
         one_array(min_dims=2), order=2),
    Case("resize", lambda np, x, shape: np.resize(x, shape),
         st.tuples(one_array(min_dims=0, axis=False), shapes(0, 2))
         .map(lambda t: (t[0][0], {"shape": t[1]})), order=2),
    Case("apply_along_axis", lambda np, x, axis: np.apply_along_axis(
        lambda v: np.sum(v * v) * v[:2], axis, x), one_array(min_dims=1, max_dims=2),
        order=2),
    Case("piecewise", lambda np, x: np.piecewise(
        x, [x < -1.0, x > 1.0], [lambda v: np.sqrt(-v), lambda v: np.log(v), 0.5]),
        one_array(min_dims=0, axis=False), order=2),
    Case("bincount", lambda np, w, picks, minlength: np.bincount(picks, w, minlength),
         bincount_args(), jax_fun=_bincount_jax, order=2),
    Case("bincount_counts", lambda np, picks, minlength: np.bincount(picks,
                                                                     minlength=minlength),
         bincount_args().map(lambda a: ((a[1]["picks"],), {"minlength": a[1]["minlength"]})),
         jax_fun=lambda picks, minlength: jnp.bincount(
             picks, minlength=minlength, length=max(int(picks.max()) + 1, minlength)),
         differentiable=False),
    Case("put_along_axis", lambda np, x, v, indices, axis: np.put_along_axis(
        x, indices, v, axis, inplace=False), put_along_axis_args(), order=2,
        jax_fun=lambda x, v, indices, axis: jnp.put_along_axis(x, indices, v, axis,
                                                               inplace=False)),
    Case("fill_diagonal", lambda np, x, v: np.fill_diagonal(x, v, inplace=False),
         fill_diagonal_args(), order=2,
         jax_fun=lambda x, v: jnp.fill_diagonal(x, v, inplace=False)),
    Case("trim_zeros", lambda np, x, trim, bounds: np.trim_zeros(x, trim) * 2.0,
         trim_args(), jax_fun=lambda x, trim, bounds: x[bounds[0]:bounds[1]] * 2.0,
         order=2),
    Case("whole_array_comparisons", _comparisons, compare_args(), differentiable=False),
]
