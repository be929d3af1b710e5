"""Oracle cases: shape manipulation, creation from traced values, sorting, array methods.

JAX compiles once per case, shape and static arguments, and that is what costs time, so
most strategies draw from a few shapes (SHAPE_POOL) and a few static values; integer
index arrays are passed as (non-differentiated) arguments rather than static ones.
"""
import hypothesis.strategies as st
import jax.numpy as jnp
import numpy

from oracle import Case, array, broadcasting, dtypes

SHAPE_POOL = ((), (3,), (2, 3), (2, 1, 3))


def _one(x, static=None):
    return (x,), static or {}


@st.composite
def an_array(draw, min_dims=0, max_dims=3, dtype=numpy.float64, pool=SHAPE_POOL):
    """An array of a pooled shape; ``dtype=None`` draws float32 or float64."""
    shape = draw(st.sampled_from([s for s in pool if min_dims <= len(s) <= max_dims]))
    return draw(array(shape, draw(dtypes()) if dtype is None else dtype))


@st.composite
def pooled(draw, min_dims=0, max_dims=3, dtype=numpy.float64):
    return _one(draw(an_array(min_dims, max_dims, dtype)))


def _axis_of(draw, ndim):
    return draw(st.sampled_from(sorted({0, ndim - 1, -1})))


def _axes_of(draw, ndim):
    return draw(st.sampled_from([None, -1, tuple(range(0, ndim, 2))]))


@st.composite
def reshapeable(draw):
    x = draw(an_array(dtype=None))
    size = x.size
    target = draw(st.sampled_from([(size,), (-1, 1), (1, size, 1)]))
    return _one(x, {"shape": target})


@st.composite
def permutation(draw):
    x = draw(an_array())
    axes = draw(st.permutations(range(x.ndim)))
    return _one(x, {"axes": tuple(a - x.ndim if i == 0 else a for i, a in enumerate(axes))})


@st.composite
def broadcastable_to(draw):
    x = draw(an_array(max_dims=2, pool=((), (3,), (1, 3), (2, 1))))
    target = draw(st.sampled_from([(2,) + tuple(2 if n == 1 else n for n in x.shape),
                                   x.shape]))
    return _one(x, {"shape": target})


@st.composite
def joinable(draw, count=3, same_shape=False, min_dims=1):
    """Arrays to join; of one shape and float64, or of mixed lengths and dtypes."""
    base = list(draw(st.sampled_from([s for s in ((), (2,), (2, 3)) if len(s) >= min_dims])))
    axis = draw(st.sampled_from([0, -1])) if base else 0
    arrays = []
    for _ in range(draw(st.integers(1, count))):
        shape = list(base)
        if not same_shape:
            shape[axis] = draw(st.integers(1, 2))
        dtype = numpy.float64 if same_shape else draw(dtypes())
        arrays.append(draw(array(tuple(shape), dtype)))
    return tuple(arrays), {"axis": axis}


@st.composite
def squeezable(draw):
    x = draw(an_array(pool=((1,), (2, 1, 3), (1, 3, 1))))
    ones = [i for i, n in enumerate(x.shape) if n == 1]
    return _one(x, {"axis": draw(st.sampled_from([None, ones[0], tuple(ones)]))})


@st.composite
def expandable(draw):
    x = draw(an_array(max_dims=2))
    return _one(x, {"axis": draw(st.sampled_from([0, -1, (0, -1)]))})


@st.composite
def moveable(draw):
    x = draw(an_array(min_dims=2))
    return _one(x, draw(st.sampled_from([{"source": 0, "destination": -1},
                                         {"source": [0, -1], "destination": [-1, 0]}])))


@st.composite
def flippable(draw):
    x = draw(an_array(min_dims=1))
    return _one(x, {"axis": _axes_of(draw, x.ndim)})


@st.composite
def rotatable(draw):
    x = draw(an_array(min_dims=2))
    return _one(x, {"k": draw(st.sampled_from([1, 2, -1])),
                    "axes": draw(st.sampled_from([(0, 1), (-1, 0)]))})


@st.composite
def rollable(draw):
    x = draw(an_array(min_dims=1))
    return _one(x, draw(st.sampled_from([{"shift": 4, "axis": None},
                                         {"shift": -1, "axis": -1},
                                         {"shift": (1, 5), "axis": (0, -1)}])))


@st.composite
def tileable(draw):
    x = draw(an_array(max_dims=2))
    return _one(x, {"reps": draw(st.sampled_from([2, (2, 1, 2), (0,)]))})


@st.composite
def repeatable(draw):
    x = draw(an_array(min_dims=1, max_dims=2))
    axis = draw(st.sampled_from([None, 0]))
    length = x.size if axis is None else x.shape[0]
    repeats = draw(st.one_of(st.sampled_from([0, 2]),
                             st.lists(st.integers(0, 2), min_size=length, max_size=length)
                             .map(numpy.array)))
    return _one(x, {"repeats": repeats, "axis": axis})


@st.composite
def paddable(draw):
    x = draw(an_array(min_dims=1, max_dims=2))
    mode = draw(st.sampled_from(["constant", "edge", "reflect", "symmetric", "wrap"]))
    widths = draw(st.sampled_from([2, ((0, 4),) * x.ndim]))
    static = {"pad_width": widths, "mode": mode}
    if mode == "constant":
        static["constant_values"] = draw(st.sampled_from([0, 1.5, ((1, 2),) * x.ndim]))
    return _one(x, static)


@st.composite
def paddable_from_values(draw):
    """pad in the modes that compute the padding from the values, axis after axis."""
    x = draw(an_array(min_dims=1, max_dims=2))
    mode = draw(st.sampled_from(["maximum", "minimum", "mean", "median", "linear_ramp",
                                 "reflect", "symmetric"]))
    widths = draw(st.sampled_from([2, ((0, 4),) * x.ndim, 7]))
    static = {"pad_width": widths, "mode": mode}
    if mode in ("reflect", "symmetric"):
        static["reflect_type"] = "odd"
    elif mode == "linear_ramp":
        static["end_values"] = draw(st.sampled_from([0, 1.5, ((1, -2),) * x.ndim]))
    else:
        static["stat_length"] = draw(st.sampled_from([None, 1, ((2, 1),) * x.ndim]))
    return _one(x, static)


@st.composite
def with_offset(draw, min_dims, max_dims=3):
    x = draw(an_array(min_dims=min_dims, max_dims=max_dims))
    return _one(x, {"k": draw(st.sampled_from([0, -1, 2]))})


@st.composite
def diagonal_input(draw):
    x = draw(an_array(min_dims=2))
    return _one(x, draw(st.sampled_from([{}, {"offset": 1, "axis1": -1, "axis2": 0}])))


@st.composite
def splittable(draw):
    x = draw(an_array(min_dims=1, pool=((4,), (2, 4))))
    return _one(x, {"indices_or_sections": draw(st.sampled_from([2, [1, 1, 3]])),
                    "axis": -1})


@st.composite
def unstackable(draw):
    x = draw(an_array(min_dims=1))
    return _one(x, {"axis": _axis_of(draw, x.ndim)})


@st.composite
def grids(draw):
    count = draw(st.integers(1, 3))
    vectors = tuple(draw(array((n,), numpy.float64)) for n in (2, 3, 1)[:count])
    return vectors, {"indexing": draw(st.sampled_from(["xy", "ij"])),
                     "sparse": draw(st.booleans())}


@st.composite
def spaced(draw):
    start = draw(an_array(max_dims=1))
    stop = draw(array(draw(st.sampled_from([(), start.shape])), numpy.float64))
    static = draw(st.sampled_from([
        {"num": 5}, {"num": 4, "endpoint": False, "retstep": True},
        {"num": 1, "axis": -1}, {"num": 3, "axis": -1, "retstep": True}]))
    return (start, stop), static


@st.composite
def fillable(draw):
    return (draw(an_array(dtype=None)), draw(array((), draw(dtypes())))), {}


@st.composite
def takeable(draw):
    x = draw(an_array(min_dims=1))
    static = draw(st.sampled_from([{"axis": None, "mode": "raise"}, {"axis": -1, "mode": "wrap"},
                                   {"axis": 0, "mode": "clip"}]))
    length = x.size if static["axis"] is None else x.shape[static["axis"]]
    low, high = {"raise": (-length, length - 1), "wrap": (-2 * length, 2 * length),
                 "clip": (0, 2 * length)}[static["mode"]]
    shape = draw(st.sampled_from([(4,), (2, 2)]))
    indices = draw(array(shape, numpy.int64, elements=st.integers(low, high)))
    return (x, indices), static


def _jax_take(x, indices, axis, mode):
    return jnp.take(x, indices, axis=axis, mode="fill" if mode == "raise" else mode)


@st.composite
def along_axis(draw):
    x = draw(an_array(min_dims=1))
    axis = _axis_of(draw, x.ndim)
    shape = list(x.shape)
    shape[axis] = 4
    n = x.shape[axis]
    return (x, draw(array(tuple(shape), numpy.int64, elements=st.integers(-n, n - 1)))), \
        {"axis": axis}


@st.composite
def sortable(draw):
    shape = draw(st.sampled_from([(5,), (2, 3)]))
    # Few distinct values, so ties are common.
    x = draw(array(shape, draw(dtypes()), elements=st.sampled_from([-1.0, 0.0, 0.5, 2.0])))
    return _one(x, {"axis": draw(st.sampled_from([None, 0, -1]))})


@st.composite
def partitionable(draw):
    # Distinct values: which of tied elements NumPy's and JAX's partitions move differs.
    shape = draw(st.sampled_from([(6,), (2, 3)]))
    x = numpy.array([0.5, -1.0, 2.0, 0.0, 1.5, 3.0]).reshape(shape)
    x = x * draw(st.sampled_from([1.0, -1.0]))
    axis = draw(st.sampled_from([0, -1]))
    return _one(x, {"axis": axis, "kth": draw(st.sampled_from([0, x.shape[axis] - 1]))})


def _kth(np, x, kth, axis):
    return np.take(np.partition(x, kth, axis=axis), kth, axis=axis)


def _methods(np, x):
    """ndarray methods and properties that funcgrad's ArrayBox provides."""
    return [x.reshape(-1), x.reshape(3, 4), x.flatten(), x.ravel(), x.T, x.mT, x.transpose(),
            x.transpose(1, 0, 2), np.transpose(x), x.swapaxes(0, -1), x[:1].squeeze(),
            x.copy(), x.astype(np.complex128), x.diagonal(), x.trace(), x.take(0, axis=-1),
            x.repeat(2, axis=0), x.real, x.imag, x.conj(), x.sum(0), x.mean(-1), x.max(1),
            x.min(), x.prod(0), x.clip(-1.0, 1.0), x.dot(x[0, 0]), x.argsort(axis=0),
            x.argmax(), x.argmin(axis=1)]


CASES = [
    Case("reshape", lambda np, x, shape: np.reshape(x, shape), reshapeable(), order=2),
    Case("reshape_ravel", lambda np, x, shape: [x.reshape(shape), np.ravel(x, order="F")],
         reshapeable()),
    Case("transpose", lambda np, x, axes: np.transpose(x, axes), permutation()),
    Case("moveaxis_swapaxes",
         lambda np, x, source, destination: [np.moveaxis(x, source, destination),
                                             np.swapaxes(x, 0, -1)], moveable()),
    Case("broadcast_to", lambda np, x, shape: np.broadcast_to(x, shape), broadcastable_to()),
    Case("broadcast_arrays", lambda np, *xs: list(np.broadcast_arrays(*xs)),
         broadcasting(count=3)),
    Case("concatenate", lambda np, *xs, axis: np.concatenate(xs, axis=axis), joinable(),
         order=2),
    Case("stack", lambda np, *xs, axis: np.stack(xs, axis=axis), joinable(same_shape=True)),
    Case("stack_family",
         lambda np, *xs, axis: [np.hstack(xs), np.vstack(xs), np.dstack(xs),
                                np.column_stack(xs), np.append(xs[0], xs[-1])],
         joinable(same_shape=True, min_dims=0)),
    Case("squeeze", lambda np, x, axis: np.squeeze(x, axis), squeezable()),
    Case("expand_dims", lambda np, x, axis: np.expand_dims(x, axis), expandable()),
    Case("atleast_nd", lambda np, x: [np.atleast_1d(x), np.atleast_2d(x), np.atleast_3d(x)],
         pooled()),
    Case("astype", lambda np, x: x.astype(np.float32) * 2 + x.astype(np.float64),
         pooled(dtype=None)),
    # float64 only: NumPy makes [float32, 1.0] float64 where JAX keeps float32.
    Case("array_of_traced",
         lambda np, x: [np.array([x, 2 * x, np.sin(x)]),
                        np.array([[x[0], 1.0], [x[-1] * x[0], np.sum(x)]]) + np.asarray(x[0])],
         pooled(min_dims=1, max_dims=1)),
    Case("flip", lambda np, x, axis: [np.flip(x, axis), np.flipud(x)], flippable()),
    Case("rot90_fliplr", lambda np, x, k, axes: [np.rot90(x, k, axes), np.fliplr(x)],
         rotatable()),
    Case("roll", lambda np, x, shift, axis: np.roll(x, shift, axis), rollable()),
    Case("tile", lambda np, x, reps: np.tile(x, reps), tileable()),
    Case("repeat", lambda np, x, repeats, axis: np.repeat(x, repeats, axis), repeatable()),
    Case("pad", lambda np, x, pad_width, **kw: np.pad(x, pad_width, **kw), paddable(),
         order=2),
    Case("pad_from_values", lambda np, x, pad_width, **kw: np.pad(x, pad_width, **kw),
         paddable_from_values()),
    Case("tril_triu", lambda np, x, k: [np.tril(x, k), np.triu(x, k)], with_offset(2)),
    Case("diag", lambda np, x, k: [np.diag(x, k), np.diagflat(x, k)], with_offset(1, 2),
         order=2),
    Case("diagonal_trace",
         lambda np, x, **kw: [np.diagonal(x, **kw), np.trace(x, **kw)], diagonal_input()),
    Case("split", lambda np, x, **kw: np.split(x, **kw), splittable()),
    Case("array_hsplit_vsplit_dsplit",
         lambda np, x: (np.array_split(x, 2, axis=-1) + np.hsplit(x, 1) + np.vsplit(x, [1])
                        + np.dsplit(x, [0, 1])), pooled(min_dims=3)),
    Case("unstack_iterate", lambda np, x, axis: list(np.unstack(x, axis=axis)) + list(x),
         unstackable()),
    Case("meshgrid", lambda np, *xs, **kw: list(np.meshgrid(*xs, **kw)), grids()),
    Case("linspace", lambda np, start, stop, **kw: np.linspace(start, stop, **kw), spaced()),
    Case("full_traced", lambda np, x, fill: [np.full_like(x, fill), np.full((2, 1), fill)],
         fillable()),
    Case("take", lambda np, x, indices, **kw: np.take(x, indices, **kw), takeable(),
         jax_fun=_jax_take),
    Case("take_along_axis", lambda np, x, indices, axis: np.take_along_axis(x, indices, axis),
         along_axis()),
    Case("sort", lambda np, x, axis: np.sort(x, axis=axis), sortable(), order=2),
    Case("argsort_searchsorted",
         lambda np, x, axis: [np.argsort(x, axis=axis),
                              np.searchsorted(np.sort(x, axis=None), x.ravel())],
         sortable()),
    Case("partition_kth", lambda np, x, kth, axis: _kth(np, x, kth, axis), partitionable()),
    Case("array_methods", _methods, array((2, 2, 3)).map(_one)),
]
