"""``ufunc.at`` (``np.add.at``, ``np.maximum.at``, ``np.minimum.at``) for every array
library: values combined into an array at an index whose repeated positions all take part
(the transpose of indexing with integer arrays, and ``x.at[i].add/max/min(v)``). NumPy's
own for NumPy; libraries whose arrays cannot be written in place, or whose ufuncs have no
``at``, get their own formulation here."""
import math

import numpy as np


def ufunc_at(ufunc, out, index, values):
    """``out`` with ``values`` combined in at ``index`` as ``ufunc.at(out, index, values)``
    combines them (``np.add``, ``np.maximum``, ``np.minimum``). NumPy's ``out`` (and a
    library's whose ufuncs implement ``at``) is changed in place and returned; Dask's is
    not (its arrays are immutable): use the result."""
    if type(out) is not np.ndarray:
        combine = _LIBRARY_AT.get(type(out).__module__.partition(".")[0])
        if combine is not None:
            return combine(ufunc, out, index, values)
    ufunc.at(out, index, values)
    return out


def added_at(out, index, values):
    """`ufunc_at` of ``np.add``: repeated positions accumulate."""
    return ufunc_at(np.add, out, index, values)


def _dask_at(ufunc, out, index, values):
    """Lazily: the flat position in ``out`` of each element of ``out[index]`` (NumPy's
    indexing of an arange, so its rules for negative, sliced, broadcast and repeated
    indices), then, per chunk of the values, NumPy's ``ufunc.at`` into a flat array of
    ``out``'s size holding the ufunc's identity, those partial results combined in pairs
    (a tree: each holds ``out``'s size), and the result combined with ``out``. An index
    array that is itself a Dask array is computed first (Dask's lazy fancy indexing gets
    the shape of a one-element index wrong)."""
    import dask.array as da
    size = math.prod(out.shape)
    parts = index if isinstance(index, tuple) else (index,)
    parts = tuple(part.compute() if isinstance(part, da.Array) else part for part in parts)
    positions = np.arange(size).reshape(out.shape)[parts]
    positions = da.asarray(positions.reshape(-1) if positions.ndim == 0 else positions)
    values = da.broadcast_to(da.asarray(values), positions.shape)
    positions = positions.rechunk(values.chunks)
    partials = da.map_blocks(
        _block_at, positions, values, ufunc=ufunc, start=_identity(ufunc, out.dtype),
        size=size, dtype=out.dtype, new_axis=values.ndim,
        chunks=tuple((1,) * len(c) for c in values.chunks) + ((size,),))
    pending = [partials.blocks[block].reshape(size)
               for block in np.ndindex(partials.numblocks[:-1])]
    while len(pending) > 1:  # ufunc itself, not Dask's sum, which turns -0.0 into 0.0
        pending = [ufunc(*pending[i:i + 2]) if i + 1 < len(pending) else pending[i]
                   for i in range(0, len(pending), 2)]
    return ufunc(out, pending[0].reshape(out.shape))


def _identity(ufunc, dtype):
    """What ``ufunc`` leaves every value unchanged with (-0.0 for add, so -0.0 stays)."""
    if ufunc is np.add:
        return np.array(-0.0).astype(dtype) if dtype.kind in "fc" else np.zeros((), dtype)
    lowest = ufunc is np.maximum
    if dtype.kind == "b":
        return np.array(not lowest)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return np.array(info.min if lowest else info.max, dtype)
    infinity = -np.inf if lowest else np.inf
    return np.array(complex(infinity, infinity) if dtype.kind == "c" else infinity, dtype)


def _block_at(positions, values, ufunc, start, size):
    partial = np.full(size, start)
    ufunc.at(partial, positions.ravel(), values.ravel())
    return partial.reshape((1,) * positions.ndim + (size,))


def _cupy_at(ufunc, out, index, values):
    """CuPy's ufuncs take no ``at`` through NumPy's protocol; cupyx's scatter functions
    are its in-place ``add.at``, ``maximum.at`` and ``minimum.at``. They take no complex
    values (CuPy 14), so a complex sum is scattered as its real and imaginary parts."""
    import cupy
    import cupyx
    if ufunc is np.add and out.dtype.kind == "c":
        values = cupy.asarray(values)
        parts = [cupy.zeros(out.shape, out.real.dtype) for _ in range(2)]
        cupyx.scatter_add(parts[0], index, values.real)
        cupyx.scatter_add(parts[1], index, values.imag)
        out += parts[0] + 1j * parts[1]
        return out
    scatter = {np.add: cupyx.scatter_add, np.maximum: cupyx.scatter_max,
               np.minimum: cupyx.scatter_min}[ufunc]
    scatter(out, index, values)
    return out


# The libraries with a ufunc.at of their own, by the top-level module of their array type.
_LIBRARY_AT = {"dask": _dask_at, "cupy": _cupy_at}
