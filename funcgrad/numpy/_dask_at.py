"""NumPy's ``ufunc.at`` on a Dask array, lazily and block by block: each block of the
output receives, in turn, the chunks of the values that fall into it, each combined in by
NumPy's own ``ufunc.at`` on a copy of the block. No task holds more than one block of the
output and one chunk of the values, and the host holds only what the index holds (never
an array of the output's size), so a gradient into a large table picked at a few places
stays out of core. Blocks that nothing falls into are the output's own."""
import itertools
import math

import numpy as np


def dask_at(ufunc, out, index, values):
    """``ufunc.at(out, index, values)`` as a new Dask array (Dask's are immutable). An
    index array that is itself a Dask array is computed first (Dask's lazy fancy indexing
    gets the shape of a one-element index wrong)."""
    import dask.array as da
    from dask.base import tokenize
    from dask.highlevelgraph import HighLevelGraph
    for name, array in (("the array's", out), ("the values'", values)):
        if isinstance(array, da.Array) and any(math.isnan(side) for chunks in array.chunks
                                               for side in chunks):
            raise ValueError(
                f"funcgrad.numpy: {ufunc.__name__}.at on Dask arrays: {name} chunks are of "
                f"unknown size (after a boolean mask, say); call .compute_chunk_sizes() on "
                f"it first")
    index = index if isinstance(index, tuple) else (index,)
    index = tuple(part.compute() if isinstance(part, da.Array) else part for part in index)
    coordinates, selected = _coordinates(out.shape, index)
    values = _chunked_values(values, selected)
    ends = [np.cumsum(chunks) for chunks in out.chunks]
    writers = {}  # a block of out -> the chunks of the values that fall into it, in order
    for chunk, region in _chunk_regions(values.chunks):
        mine = tuple(_within(c, region) for c in coordinates)
        numbers = [np.searchsorted(e, c, side="right") for e, c in zip(ends, mine)]
        for block in _touched_blocks(numbers):
            writers.setdefault(block, []).append((chunk, mine))
    name = "ufunc-at-" + tokenize(ufunc, out, index, values)
    layer = {}
    for block in np.ndindex(*out.numblocks):
        current = (out.name,) + block
        starts = tuple(int(e[b] - n[b]) for e, n, b in zip(ends, out.chunks, block))
        for step, (chunk, mine) in enumerate(writers.get(block, ())):
            key = (name + "-step",) + block + (step,)
            layer[key] = (_combine_chunk, current, (values.name,) + chunk, mine, starts,
                          ufunc)
            current = key
        layer[(name,) + block] = current
    graph = HighLevelGraph.from_collections(name, layer, dependencies=[out, values])
    return da.Array(graph, name, out.chunks, dtype=out.dtype, meta=out._meta)


class _Along:
    """The coordinates a slice picks: ``start + step * i`` along axis ``dim`` of the
    selection (kept as a formula: a sliced axis may be as long as the output)."""

    __slots__ = ("start", "step", "dim")

    def __init__(self, start, step, dim):
        self.start, self.step, self.dim = start, step, dim

    def within(self, region):
        """The coordinates of the part of the selection in ``region`` (its slices)."""
        part = region[self.dim]
        values = self.start + self.step * np.arange(part.start, part.stop)
        return values.reshape((1,) * self.dim + (-1,) + (1,) * (len(region) - self.dim - 1))


def _coordinates(shape, index):
    """For each axis of an array of ``shape``, the coordinate along that axis of each
    element of ``array[index]``, in a form that broadcasts to the selection's shape: an
    array the size of the index arrays (for an integer or integer array), or an `_Along`
    (for a slice); and the selection's shape. Where the selection's axes go is NumPy's own
    answer: each coordinate comes from NumPy's indexing of a small grid, with the parts
    that pick along other axes made neutral (same kind and shape, on axes of length one)."""
    parts = _explicit(index, len(shape))
    neutral = [_neutral(part) for part in parts]
    owners, axis = [], 0  # the axis each part picks along (None: it picks along none)
    for part in parts:
        owners.append(axis if _picks_an_axis(part) else None)
        axis += _picks_an_axis(part)
    if axis != len(shape):
        raise IndexError(f"too many indices for array: array is {len(shape)}-dimensional, "
                         f"but {axis} were indexed")
    frame = _picked((1,) * len(shape), neutral).shape
    selected, coordinates = list(frame), []
    for position, (part, axis) in enumerate(zip(parts, owners)):
        if axis is None:
            continue
        length = shape[axis]
        ones = (1,) * len(shape)
        if isinstance(part, slice):
            stretched = ones[:axis] + (2,) + ones[axis + 1:]
            probe = _picked(stretched, neutral).shape
            dim = next(d for d, (a, b) in enumerate(zip(probe, frame)) if a != b)
            start, stop, step = part.indices(length)
            picked = range(start, stop, step)
            selected[dim] = len(picked)
            coordinates.append(_Along(start, step, dim))
            continue
        fixed = _in_bounds(np.asarray(part), length, axis)
        grid = fixed.reshape((1,) * axis + (-1,) + (1,) * (len(shape) - axis - 1))
        numbering = np.arange(fixed.size).reshape(fixed.shape)
        coordinates.append(grid[tuple(numbering if p == position else n
                                      for p, n in enumerate(neutral))])
    return coordinates, tuple(selected)


def _explicit(index, ndim):
    """``index`` with boolean masks as the integer arrays of their nonzeros, and the
    axes an Ellipsis or the end of the index leaves out as explicit full slices."""
    parts = []
    for part in index:
        if getattr(part, "dtype", None) == bool and np.ndim(part):
            parts.extend(np.nonzero(part))
        else:
            parts.append(part)
    left = ndim - sum(_picks_an_axis(part) for part in parts)
    if any(part is Ellipsis for part in parts):
        at = next(i for i, part in enumerate(parts) if part is Ellipsis)
        return parts[:at] + [slice(None)] * max(left, 0) + parts[at + 1:]
    return parts + [slice(None)] * max(left, 0)


def _picks_an_axis(part):
    """Whether a part of an index (masks expanded) picks along an axis of the array:
    None and booleans add one, Ellipsis stands for others."""
    return not (part is None or part is Ellipsis or getattr(part, "dtype", type(part))
                in (bool, np.bool_))


def _neutral(part):
    """A part that picks the one element of an axis of length one, of the kind and shape
    of ``part``: the selection keeps the shape and order of its other axes."""
    if isinstance(part, slice):
        return slice(None)
    if isinstance(part, np.ndarray) and part.dtype != bool:
        return np.zeros(part.shape, np.intp)
    return 0 if _picks_an_axis(part) else part


def _picked(shape, index):
    """The selection of ``index`` in an array of ``shape`` (a view of one element: memory
    only for what integer arrays pick)."""
    return np.broadcast_to(np.zeros((), bool), shape)[tuple(index)]


def _in_bounds(indices, length, axis):
    """Integer ``indices`` into an axis of ``length``, negative ones counted from its end;
    NumPy's IndexError for one outside it."""
    if indices.dtype.kind not in "iu":
        raise IndexError("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis "
                         "(`None`) and integer or boolean arrays are valid indices")
    outside = (indices < -length) | (indices >= length)
    if outside.any():
        raise IndexError(f"index {indices[outside].flat[0]} is out of bounds for axis "
                         f"{axis} with size {length}")
    return np.where(indices < 0, indices + length, indices).astype(np.intp)


def _chunked_values(values, shape):
    """``values`` as a Dask array of ``shape``: broadcast, in chunks of Dask's size along
    the axes broadcasting adds or stretches (a scalar spread over a large selection)."""
    import dask.array as da
    values = da.asarray(values)
    if values.shape == shape:
        return values
    leading = len(shape) - values.ndim
    empty = 0 in shape  # (Dask cannot size chunks of nothing)
    chunks = tuple((side if empty else "auto") if axis < leading
                   or values.shape[axis - leading] != side
                   else values.chunks[axis - leading] for axis, side in enumerate(shape))
    chunks = da.core.normalize_chunks(chunks, shape, dtype=values.dtype)
    return da.broadcast_to(values, shape, chunks=chunks)


def _within(coordinate, region):
    """The part of ``coordinate`` (of `_coordinates`) in ``region`` of the selection."""
    if isinstance(coordinate, _Along):
        return coordinate.within(region)
    return coordinate[tuple(part if n != 1 else slice(None)
                            for part, n in zip(region, coordinate.shape))]


def _chunk_regions(chunks):
    """Each non-empty chunk of an array with ``chunks``: its block index and its slices."""
    starts = [np.cumsum((0,) + sides[:-1]) for sides in chunks]
    for chunk in np.ndindex(*(len(sides) for sides in chunks)):
        region = tuple(slice(int(s[i]), int(s[i]) + sides[i])
                       for s, sides, i in zip(starts, chunks, chunk))
        if all(part.start < part.stop for part in region):
            yield chunk, region


def _touched_blocks(numbers):
    """The blocks of the output a chunk of the values falls into, from each axis's block
    number of each value (arrays that broadcast together). Axes are combined only where
    their numbers vary together (those integer arrays pick along), so the work is the
    size of the index, not of the chunk."""
    groups = []  # (the selection's axes the group varies along, its axes of the output)
    for axis, along in enumerate(numbers):
        varies = {d for d, n in enumerate(along.shape) if n != 1}
        axes = [axis]
        for group in [g for g in groups if g[0] & varies]:
            groups.remove(group)
            varies |= group[0]
            axes = group[1] + axes
        groups.append((varies, axes))
    choices = []
    for _, axes in groups:
        together = np.broadcast_arrays(*(numbers[axis] for axis in axes))
        rows = np.unique(np.stack([n.ravel() for n in together], axis=1), axis=0)
        choices.append([dict(zip(axes, row)) for row in rows.tolist()])
    for picked in itertools.product(*choices):
        block = {}
        for part in picked:
            block.update(part)
        yield tuple(block[axis] for axis in range(len(numbers)))


def _combine_chunk(block, values, coordinates, starts, ufunc):
    """A copy of ``block`` (of the output, beginning at ``starts``) with the values of one
    chunk that fall into it combined in by NumPy's ``ufunc.at``, in their order."""
    inside = np.ones((), bool)
    flat = np.zeros((), np.intp)
    for coordinate, start, length in zip(coordinates, starts, block.shape):
        inside = inside & (coordinate >= start) & (coordinate < start + length)
        flat = flat * length + (coordinate - start)
    inside = np.broadcast_to(inside, values.shape)
    result = block.copy()
    ufunc.at(result.reshape(-1), np.broadcast_to(flat, values.shape)[inside],
             values[inside])
    return result
