"""Histograms: `histogram`, `histogram_bin_edges`, `histogram2d` and `histogramdd`.

Which bin each sample falls in is read from the plain values (a constant, as a bin
number carries no derivative); counts are then a scatter-add of ones or of ``weights``,
which is differentiable in the weights, as JAX's. Bin edges computed from the data (an
integer ``bins``) are ``linspace(min, max)``, so the edges, and a density divided by their
widths, are differentiable in the samples too (as in JAX). Edges named by a string
estimator ('auto', 'fd', ...) are NumPy's, constants.
"""
import operator

import numpy as np

from ..core import Box
from ._batching import computed, holds_anywhere, plain_value, read_values
from ._base import astype
from .creation import asarray, linspace, zeros_like
from .elementwise import isfinite, where
from .index_update import at
from .indexing import getitem
from .reductions import diff, max, min, sum
from .shape_ops import ravel, reshape, stack

_builtin_range = range


# ---- bin edges ---------------------------------------------------------------------------


def _bin_count(bins, function):
    try:
        count = operator.index(bins)
    except TypeError:
        raise TypeError(f"funcgrad.numpy.{function}: bins must be an integer, a sequence of "
                        f"edges or a string, got {type(bins).__name__}") from None
    if count < 1:
        raise ValueError(f"funcgrad.numpy.{function}: bins must be positive, when an "
                         f"integer; got {count}")
    return count


def _outer_edges(a, range, function):
    """The first and last edge: ``range``, or the samples' minimum and maximum (traced:
    the edges' derivative), widened by 0.5 on each side where they are equal (NumPy's)."""
    if range is None and a.size:
        return _data_edges(a, function)
    first, last = (0.0, 1.0) if range is None else range
    if first > last:
        raise ValueError(f"funcgrad.numpy.{function}: range must be (min, max) with min "
                         f"<= max, got {tuple(range)}")
    if not (np.isfinite(first) and np.isfinite(last)):
        raise ValueError(f"funcgrad.numpy.{function}: range {tuple(range)} is not finite")
    if first == last:
        first, last = first - 0.5, last + 0.5
    return first, last


def _data_edges(a, function):
    """The samples' minimum and maximum, differentiable (per batch element under vmap)."""
    first, last = min(a), max(a)
    if holds_anywhere(~isfinite(plain_value(first)) | ~isfinite(plain_value(last))):
        raise ValueError(f"funcgrad.numpy.{function}: the samples' range is not finite; "
                         f"pass range=(min, max) or drop the NaN and infinite samples")
    same = plain_value(first) == plain_value(last)
    return where(same, first - 0.5, first), where(same, last + 0.5, last)


def _real(samples, function):
    """The samples, refused if complex: bins order them, and complex numbers have no order
    (NumPy bins a mix of their parts, with a ComplexWarning)."""
    if samples.dtype.kind == "c":
        raise TypeError(f"funcgrad.numpy.{function}: complex samples have no order to bin "
                        f"them by; pass their real part, imaginary part or abs")
    return samples


def _edges(a, bins, range, weights, dtype, function):
    """Bin edges of the flat samples ``a`` (dtype: that of computed ones, None: NumPy's)."""
    if isinstance(bins, str):
        return read_values(np.histogram_bin_edges, a, bins, range, weights)
    if np.ndim(bins) == 1:
        edges = asarray(bins)
        if np.any(np.diff(plain_value(edges)) < 0):
            raise ValueError(f"funcgrad.numpy.{function}: bins must increase monotonically, "
                             f"when an array")
        return edges
    if np.ndim(bins) != 0:
        raise ValueError(f"funcgrad.numpy.{function}: bins must be 1-dimensional, when an "
                         f"array")
    count = _bin_count(bins, function)
    first, last = _outer_edges(a, range, function)
    if dtype is None:  # (edges from the data have its dtype; a range's numbers are weak)
        computed = isinstance(first, (Box, np.ndarray))
        dtype = a.dtype if computed else np.result_type(first, last, a.dtype)
        dtype = dtype if dtype.kind in "fc" else np.dtype(np.float64)
    return linspace(first, last, count + 1, dtype=dtype)


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """``numpy.histogram_bin_edges``: the edges `histogram` would use."""
    a = _real(ravel(asarray(a)), "histogram_bin_edges")
    return _edges(a, bins, range, weights, None, "histogram_bin_edges")


# ---- counting ----------------------------------------------------------------------------


def _bin_numbers(samples, edges):
    """Each sample's bin, 1 to len(edges) - 1; 0 below the first edge, len(edges) above
    the last (which closes the last bin, as in NumPy)."""
    numbers = np.searchsorted(edges, samples, side="right")
    return np.where(samples == edges[-1], len(edges) - 1, numbers)


def _flat_bins(sample, edges):
    """Each sample's bin in the flattened grid with an outlier bin on each side of each
    dimension (``sample``: one column per dimension)."""
    sample = computed(sample)
    numbers = [_bin_numbers(sample[:, i], computed(e)) for i, e in enumerate(edges)]
    return np.ravel_multi_index(numbers, tuple(len(e) + 1 for e in edges))


def _counted(flat, grid_shape, weights, dtype):
    """Counts (or sums of ``weights``) in the grid, without the outlier bins."""
    if weights is None:
        counts = read_values(_unweighted_counts, flat, size=int(np.prod(grid_shape)),
                             dtype=dtype)
    else:
        counts = at(zeros_like(weights, shape=(int(np.prod(grid_shape)),)))[flat].add(weights)
    inner = tuple(slice(1, -1) for _ in grid_shape)
    return getitem(reshape(counts, grid_shape), inner)


def _unweighted_counts(flat, size, dtype):
    return np.bincount(flat, minlength=size).astype(dtype)


def _check_weights(weights, shape, function):
    if weights is None:
        return None
    weights = asarray(weights)
    if weights.shape != shape:
        raise ValueError(f"funcgrad.numpy.{function}: weights (shape {weights.shape}) must "
                         f"have the samples' shape {shape}")
    return weights


def histogram(a, bins=10, range=None, density=None, weights=None):
    """``numpy.histogram``: counts (or sums of ``weights``, differentiable) of the
    flattened ``a`` in ``bins``, and the edges; ``density`` divides by the total and the
    bins' widths."""
    a = _real(asarray(a), "histogram")
    weights = _check_weights(weights, a.shape, "histogram")
    a = ravel(a)
    weights = None if weights is None else ravel(weights)
    edges = _edges(a, bins, range, weights, None, "histogram")
    flat = read_values(_flat_bins, reshape(plain_value(a), (-1, 1)), [plain_value(edges)])
    dtype = np.dtype(np.intp) if weights is None else weights.dtype
    counts = _counted(flat, (edges.shape[0] + 1,), weights, dtype)
    if density:
        widths = astype(diff(edges), np.result_type(edges.dtype, np.float64))
        return counts / widths / sum(counts), edges
    return counts, edges


def _as_columns(sample):
    """``sample`` as an (N, D) array: NumPy's reading of an array or of D sequences."""
    if isinstance(sample, (list, tuple)):
        return stack([asarray(column) for column in sample], axis=-1)
    sample = asarray(sample)
    return reshape(sample, (-1, 1)) if sample.ndim == 1 else sample


def _per_dimension(value, count, what, function):
    if value is None or np.ndim(value) == 0 and not isinstance(value, Box):
        return [value] * count
    if len(value) != count:
        raise ValueError(f"funcgrad.numpy.{function}: {what} must have one entry per "
                         f"dimension ({count}), got {len(value)}")
    return list(value)


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """``numpy.histogramdd``: counts (float64; or sums of ``weights``, differentiable) of
    the N points of ``sample`` (an (N, D) array, or D sequences of N coordinates) in a
    grid of bins, and the D arrays of edges."""
    sample = _real(_as_columns(sample), "histogramdd")
    points, dims = sample.shape
    weights = _check_weights(weights, (points,), "histogramdd")
    if weights is not None:
        weights = astype(weights, np.result_type(weights.dtype, np.float64))
    all_bins = _per_dimension(bins, dims, "bins", "histogramdd")
    ranges = [None] * dims if range is None else _per_dimension(range, dims, "range",
                                                                "histogramdd")
    edges = []
    for d in _builtin_range(dims):
        if isinstance(all_bins[d], str):
            raise TypeError("funcgrad.numpy.histogramdd: bins cannot be a string (NumPy's "
                            "estimators are for one dimension); pass a number or edges")
        column = getitem(sample, (slice(None), d))
        edges.append(_edges(column, all_bins[d], ranges[d], None,
                            _computed_edges_dtype(column, ranges[d]), "histogramdd"))
    flat = read_values(_flat_bins, plain_value(sample), [plain_value(e) for e in edges])
    grid = tuple(e.shape[0] + 1 for e in edges)
    counts = _counted(flat, grid, weights, np.dtype(np.float64))
    if density:
        total = sum(counts)
        for d, e in enumerate(edges):
            shape = [1] * dims
            shape[d] = -1
            counts = counts / reshape(diff(e), tuple(shape))
        counts = counts / total
    return counts, edges


def _computed_edges_dtype(column, range):
    """The dtype of histogramdd's edges computed for a column, as NumPy's linspace gives
    them: the samples' float dtype when they span the edges, else that of the range's
    numbers (Python floats: float64); float64 for integers."""
    if range is None:
        dtype = column.dtype if column.shape[0] else np.dtype(np.float64)
    else:
        dtype = np.result_type(*range)
    return dtype if dtype.kind == "f" else np.dtype(np.float64)


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """``numpy.histogram2d``: `histogramdd` of the points (x, y); returns the counts and the
    x and y edges. ``bins``: a number or edges for both, or a pair of them."""
    try:
        count = len(bins)
    except TypeError:
        count = 1
    if count not in (1, 2):
        bins = [bins, bins]
    counts, edges = histogramdd([x, y], bins, range, density, weights)
    return counts, edges[0], edges[1]


__all__ = ["histogram", "histogram_bin_edges", "histogram2d", "histogramdd"]
