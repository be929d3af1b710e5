"""Oracle cases: histograms, differentiable in the weights and, through bin edges computed
from the data, in the samples. JAX's counts are float (NumPy's unweighted 1-d counts are
integers, its densities float64): its side is cast to NumPy's dtypes."""
import hypothesis.strategies as st
import jax.numpy as jnp
import numpy

from oracle import Case, array, dtypes, shapes


@st.composite
def histogram_args(draw):
    """Samples, maybe weights of their shape, ``bins`` (a number or increasing edges),
    maybe a ``range`` and ``density``."""
    dtype = draw(dtypes())
    shape = draw(shapes(1, 2, max_side=4))
    x = draw(array(shape, dtype))
    args = (x, draw(array(shape, draw(dtypes()), low=0.125, high=2.0))) \
        if draw(st.booleans()) else (x,)
    if draw(st.booleans()):
        bins = draw(st.integers(1, 4))
    else:
        bins = tuple(sorted(set(draw(st.lists(st.sampled_from(
            (-3.0, -1.5, -0.25, 0.75, 2.0, 3.0)), min_size=2, max_size=4, unique=True)))))
    static = {"bins": bins, "density": draw(st.booleans())}
    if isinstance(bins, int) and draw(st.booleans()):
        static["range"] = draw(st.sampled_from([(-2.0, 2.0), (0.0, 1.0), (-1.0, -1.0)]))
    return args, static


def _histogram(np, x, w=None, bins=10, **options):
    bins = np.asarray(bins) if isinstance(bins, tuple) else bins
    return np.histogram(x, bins, weights=w, **options)


def _histogram_jax(x, w=None, density=False, bins=10, **options):
    counts, edges = _histogram(jnp, x, w, density=density, bins=bins, **options)
    dtype = numpy.float64 if density else numpy.int64 if w is None else w.dtype
    # NumPy's edges: the given ones (float64 here), or in x's dtype (JAX promotes x with w)
    edges = edges.astype(numpy.float64 if isinstance(bins, tuple) else x.dtype)
    return counts.astype(dtype), edges


@st.composite
def points_args(draw, dims):
    """N points in ``dims`` dimensions (one array per coordinate), weights, bins per
    dimension and ``density``."""
    n = draw(st.integers(1, 5))
    coordinates = tuple(draw(array((n,), draw(dtypes()))) for _ in range(dims))
    weights = draw(array((n,), draw(dtypes()), low=0.125, high=2.0))
    bins = tuple(draw(st.integers(1, 3)) for _ in range(dims))
    return (*coordinates, weights), {"bins": bins, "density": draw(st.booleans())}


def _histogram2d(np, x, y, w, **options):
    return np.histogram2d(x, y, weights=w, **options)


def _histogramdd(np, x, y, z, w, **options):
    counts, edges = np.histogramdd(np.stack([x, y, z], axis=-1), weights=w, **options)
    return counts, tuple(edges)


def _numpy_dtypes(results, coordinates):
    """JAX's counts and edges in NumPy's dtypes for histogram2d and histogramdd: counts in
    float64, edges in the samples' float dtype (float64 for integer samples)."""
    sample = numpy.result_type(*coordinates)
    edges_dtype = sample if sample.kind == "f" else numpy.dtype(numpy.float64)

    def edges(e):
        return tuple(edges(part) for part in e) if isinstance(e, tuple) else e.astype(edges_dtype)
    counts, *rest = results
    return (counts.astype(numpy.float64), *(edges(e) for e in rest))


CASES = [
    Case("histogram", _histogram, histogram_args(), jax_fun=_histogram_jax,
         costly_oracle=True),
    Case("histogram_bin_edges",
         lambda np, x, bins: np.histogram_bin_edges(x, bins), histogram_args().map(
             lambda a: ((a[0][0],), {"bins": a[1]["bins"] if isinstance(a[1]["bins"], int)
                                     else 3})), order=2, costly_oracle=True),
    Case("histogram2d", _histogram2d, points_args(2),
         jax_fun=lambda *a, **s: _numpy_dtypes(_histogram2d(jnp, *a, **s), a[:2]),
         costly_oracle=True),
    Case("histogramdd", _histogramdd, points_args(3),
         jax_fun=lambda *a, **s: _numpy_dtypes(_histogramdd(jnp, *a, **s), a[:3]),
         costly_oracle=True),
]
