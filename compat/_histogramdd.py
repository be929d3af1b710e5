"""torch.histogramdd: the histogram of points in D dimensions (the input's last dimension),
counted with NumPy's histogramdd; no derivative, as in PyTorch."""
import builtins
import numbers

import numpy as np

from . import _dtypes
from ._return_types import return_type
from ._tensor import Tensor, make

_HISTOGRAMDD = return_type("histogramdd", ("hist", "bin_edges"))


def _bins(bins, dimensions):
    """NumPy's bins: a count for every dimension, or each dimension's edges."""
    if isinstance(bins, numbers.Integral):
        bins = [bins] * dimensions
    bins = [b._data if isinstance(b, Tensor) else b for b in bins]
    for dim, b in enumerate(bins):
        if np.ndim(b) == 0 and b <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {b} for "
                               f"dimension {dim}")
    return bins


def histogramdd(input, bins=10, *, range=None, weight=None, density=False):  # noqa: A002
    """(hist, bin_edges): the (weighted) count, or density, of the points ``input[..., :]``
    in each bin, and the bins' edges along each dimension; `range` is
    ``[min0, max0, min1, max1, ...]`` (each dimension's extremes by default)."""
    if input.dtype.category != _dtypes.FLOAT:
        raise _dtypes.not_implemented_for("histogramdd", input.dtype)
    if input.dim() < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    dimensions = input.shape[-1]
    points = input._data.reshape(-1, dimensions)
    limits = None if range is None else [tuple(range[i:i + 2])
                                         for i in builtins.range(0, len(range), 2)]
    hist, edges = np.histogramdd(
        points, _bins(bins, dimensions), range=limits, density=density,
        weights=None if weight is None else weight._data.reshape(-1))
    dtype = input._data.dtype
    return _HISTOGRAMDD(make(hist.astype(dtype)),
                        tuple(make(np.asarray(e, dtype)) for e in edges))
