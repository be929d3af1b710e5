"""Oracle cases: reductions and scans (values mix in small integers, so ties and zeros occur)."""
import hypothesis.strategies as st
import numpy

from oracle import Case, array, dtypes, shapes, with_axis


@st.composite
def with_nans(draw, **with_axis_options):
    """`with_axis`, with some elements (sometimes whole slices) replaced by NaN."""
    (x,), static = draw(with_axis(**with_axis_options))
    nans = draw(st.lists(st.booleans(), min_size=x.size, max_size=x.size))
    x = numpy.where(numpy.reshape(nans, x.shape), numpy.nan, x).astype(x.dtype)
    return (x,), static


@st.composite
def with_one_axis(draw, low=-3.0, high=3.0, allow_none=True):
    """One array and ``axis``: an int (negative too) or, if allowed, None."""
    dtype = draw(dtypes())
    shape = draw(shapes())
    options = [st.integers(-len(shape), len(shape) - 1)] if shape else []
    if allow_none or not shape:
        options.append(st.none())
    return (draw(array(shape, dtype, low, high)),), {"axis": draw(st.one_of(*options))}


@st.composite
def diffs(draw):
    """An array of at least one dimension, ``n`` and ``axis``, and arrays to prepend and
    append (traced arguments), or scalars to (static), or neither."""
    dtype = draw(dtypes())
    shape = draw(shapes(min_dims=1))
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    static = {"n": draw(st.integers(0, 3)), "axis": axis}
    args = (draw(array(shape, dtype)),)
    edges = draw(st.sampled_from(["traced", "scalars", "none"]))
    if edges == "traced":
        edge = list(shape)
        edge[axis] = draw(st.integers(1, 2))
        args += (draw(array(tuple(edge), dtype)), draw(array(tuple(edge), dtype)))
    elif edges == "scalars":
        # Scalars of x's dtype: JAX keeps x's dtype for Python floats, NumPy promotes.
        static["prepend"] = numpy.dtype(dtype).type(1.5)
        static["append"] = numpy.dtype(dtype).type(-0.5)
    return args, static


def _diff(np, x, *edges, **static):
    if edges:
        static = dict(static, prepend=edges[0], append=edges[1])
    return np.diff(x, **static)


def _options(np, x, axis, keepdims):
    """NumPy's dtype=, where= and initial= arguments."""
    k = {"axis": axis, "keepdims": keepdims}
    return (np.sum(x, dtype=np.float64, **k) + np.mean(x, dtype=np.float32, **k),
            np.sum(x, where=x != 1, initial=0.5, **k),
            np.prod(x, where=x > -1, initial=2.0, **k),
            np.mean(x, where=x != 0, **k),
            np.amax(x, where=x < 2, initial=-0.5, **k) + np.amin(x, initial=1.0, **k))


def _constants(np, x, axis):
    """Boolean and integer results, used as constants in a differentiable result (cast:
    NumPy and JAX promote int * float32 differently)."""
    signs = np.where(np.any(x > 0, axis=axis, keepdims=True), x, -x)
    counts = np.count_nonzero(x, axis=axis, keepdims=True) + np.all(x < 2, axis=axis,
                                                                     keepdims=True)
    picks = (np.argmax(x, axis=axis, keepdims=True) - np.argmin(x, axis=axis, keepdims=True)
             + np.nanargmax(x, axis=axis, keepdims=True)
             - np.nanargmin(x, axis=axis, keepdims=True))
    return signs * counts.astype(x.dtype) + x * picks.astype(x.dtype)


def _nan_reductions(np, x, **k):
    return np.nansum(x, **k), np.nanmean(x, **k), np.nanmax(x, **k), np.nanmin(x, **k)


CASES = [
    Case("sum", lambda np, x, **k: np.sum(x, **k), with_axis(), order=2),
    Case("mean", lambda np, x, **k: np.mean(x, **k), with_axis(min_dims=1), order=2),
    Case("prod", lambda np, x, **k: np.prod(x, **k), with_axis(low=-2.0, high=2.0), order=2),
    Case("max_min", lambda np, x, **k: (np.max(x, **k), np.min(x, **k)), with_axis()),
    Case("sum_method", lambda np, x: x.sum() + x.mean() + x.max() + x.min() + x.prod(),
         with_axis(keepdims=False, allow_none=False).map(lambda a: (a[0], {}))),
    # mean(dtype=float32) of float64 input: its cotangent is rounded to float32 (JAX and
    # funcgrad round 0.625 / 3 differently by an ulp, 1.5e-8).
    Case("dtype_where_initial", _options, with_axis(low=-2.0, high=2.0), atol=1e-6),
    Case("nan_reductions", _nan_reductions, with_nans()),
    Case("nan_products", lambda np, x, axis: (np.nanprod(x, axis=axis), np.nancumsum(x, axis),
                                              np.nancumprod(x, axis)),
         with_nans(low=-2.0, high=2.0, allow_tuple=False, keepdims=False)),
    Case("cumsum", lambda np, x, axis: np.cumsum(x, axis), with_one_axis(), order=2),
    Case("cumprod", lambda np, x, axis: np.cumprod(x, axis=axis), with_one_axis(-2.0, 2.0),
         order=2),
    Case("diff", _diff, diffs()),
    Case("constants", _constants, with_one_axis()),
]
