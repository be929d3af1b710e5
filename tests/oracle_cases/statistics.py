"""Oracle cases: statistics (var, std, ptp, average, median, quantiles and NaN forms)."""
import math

import hypothesis.strategies as st
import jax.numpy as jnp

import funcgrad.numpy as fnp
import funcgrad.numpy.statistics
from oracle import Case, array, dtypes, shapes, with_axis
from oracle_cases.reductions import with_nans


def _stats(np):
    """The namespace with the statistics functions: funcgrad's module until funcgrad.numpy
    re-exports it, any other namespace as it is."""
    if np is fnp and not hasattr(fnp, "median"):
        return funcgrad.numpy.statistics
    return np


def _slice_size(shape, axis):
    if axis is None:
        return math.prod(shape)
    axes = (axis,) if isinstance(axis, int) else axis
    return math.prod(shape[a] for a in axes)


@st.composite
def with_ddof(draw, too_large=False):
    """`with_axis` and a ``ddof`` below the number of elements per slice (or, with
    ``too_large``, at least that number)."""
    (x,), static = draw(with_axis())
    size = _slice_size(x.shape, static["axis"])
    ddof = draw(st.integers(size, size + 1) if too_large else st.integers(0, max(size - 1, 0)))
    return (x,), dict(static, ddof=ddof)


def _numpy_style_var(x, axis, keepdims, ddof):
    """NumPy's variance for ddof >= n in JAX: the sum of squares over 0, so inf (NaN if
    it is 0), a constant (JAX's own var gives NaN or negative values there)."""
    deviation = x - jnp.mean(x, axis=axis, keepdims=True)
    total = jnp.sum(deviation * deviation, axis=axis, keepdims=keepdims)
    return jnp.where(total == 0, jnp.nan, jnp.inf).astype(total.dtype)


@st.composite
def with_quantiles(draw):
    """`with_axis` and a 1-d array argument ``q`` in [0, 1] of x's dtype."""
    (x,), static = draw(with_axis(min_dims=1))
    q = draw(array((draw(st.integers(1, 3)),), x.dtype, 0.0, 1.0))
    return (x, q), static


@st.composite
def averages(draw):
    """An array, ``axis`` and weights: none, of x's shape, or 1-d along one axis; the
    weights are positive, so no sum of them is zero."""
    dtype = draw(dtypes())
    shape = draw(shapes())
    x = draw(array(shape, dtype))
    kind = draw(st.sampled_from(["none", "full"] + (["along_axis"] if shape else [])))
    if kind == "none":
        return (x,), {"axis": draw(st.none() | st.just(0)) if shape else None}
    if kind == "full":
        return (x, draw(array(shape, dtype, 0.5, 2.0))), {"axis": None}
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    return (x, draw(array((shape[axis],), dtype, 0.5, 2.0))), {"axis": axis}


def _average(np, x, weights=None, axis=None):
    return _stats(np).average(x, axis=axis, weights=weights, returned=True)


def _quantile_methods(np, x, **k):
    # q = 0.35 and 0.8 never fall halfway between two elements here, where NumPy's
    # "nearest" rounds to even and JAX's rounds down.
    stats = _stats(np)
    return (stats.quantile(x, 0.35, method="lower", **k),
            stats.quantile(x, 0.8, method="higher", **k),
            stats.quantile(x, 0.35, method="nearest", **k),
            stats.percentile(x, 35.0, **k))


def _nan_quantiles(np, x, **k):
    # A static q: on all-NaN slices JAX's jvp in a traced q is NaN (its vjp 0; ours 0).
    stats = _stats(np)
    return stats.nanmedian(x, **k), stats.nanpercentile(x, 30.0, method="higher", **k)


# Quantiles of 0-d arrays are left out: with keepdims, JAX gives shape (1,), NumPy ().
CASES = [
    Case("var", lambda np, x, **k: _stats(np).var(x, **k), with_ddof(), order=2),
    Case("std", lambda np, x, **k: _stats(np).std(x, **k), with_ddof(), order=2),
    Case("var_ddof_too_large", lambda np, x, **k: _stats(np).var(x, **k),
         with_ddof(too_large=True), jax_fun=_numpy_style_var),
    Case("var_std_where", lambda np, x, **k: (_stats(np).var(x, where=x != 0, **k),
                                             _stats(np).std(x, where=x != 1, **k)),
         with_axis()),
    Case("nanvar_nanstd", lambda np, x, **k: (_stats(np).nanvar(x, **k),
                                              _stats(np).nanstd(x, **k)),
         with_nans()),
    Case("ptp", lambda np, x, **k: _stats(np).ptp(x, **k), with_axis()),
    Case("average", _average, averages()),
    Case("median", lambda np, x, **k: _stats(np).median(x, **k), with_axis(min_dims=1)),
    Case("quantile", lambda np, x, q, **k: _stats(np).quantile(x, q, **k), with_quantiles()),
    Case("quantile_methods", _quantile_methods, with_axis(min_dims=1)),
    Case("nan_quantiles", _nan_quantiles, with_nans(min_dims=1)),
]
