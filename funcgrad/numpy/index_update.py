"""Functional index updates, as in JAX: ``x.at[idx].set(v)``, ``.add``, ``.multiply``, ...

Traced arrays have an ``.at`` property; for plain NumPy arrays write
``funcgrad.numpy.at(x)[idx].set(v)``. Each returns a new array and is differentiable in
both ``x`` and ``v``, with JAX's semantics where an index repeats:

- ``set``: the last update to a position wins, and only it receives a derivative;
- ``add``, ``subtract``: every update counts;
- ``multiply``, ``divide``, ``power``: applied in order (JAX only differentiates these for
  unique indices; here repeated ones are exact too);
- ``min``, ``max``: ties (between ``x`` and updates) share the derivative equally;
- ``apply(f)``: ``f`` applied at each indexed position, once per occurrence.

Out-of-bounds indices are an IndexError, as in NumPy, unless ``mode`` says otherwise
(JAX's 'clip', 'drop' and 'fill').
"""
import numpy as np

from ..core import Box, is_array, library_array, unbox_all, zeros_in_library_of
from ._add_at import added_at, ufunc_at
from ._base import add_at_zeros, asarray, gather, without_new_axes
from ._base import astype as _astype
from ._batching import scatter as batch_scatter
from ._rules import ArgVJP, aval, defbatch, defjvp, defvjp, primitive
from .indexing import (batched_indices, canonical_index, gather_p, has_integer_array, index_template,
                       scatter_last_p, scatter_zeros_p)
from .elementwise import where as where_
from .padding import pad
from .shape_ops import broadcast_to, ravel, reshape

# ---- primitives: updates at an index, which the front end makes unique where needed ------


def _copy(x, values):
    """A copy of x to write values into, in the library NumPy's dispatch gives both
    (values' where x is NumPy's and values another library's)."""
    other = library_array(values)
    if other is not None and library_array(x) is None:
        return np.asarray(x, like=other)  # (CuPy copies x to the device; Dask copies a
        # chunk before writing into it)
    return x.copy() if is_array(x) else np.array(x, copy=True)


def _set_impl(x, values, index):
    out = _copy(x, values)
    index, values = without_new_axes(index, values, out.shape)
    out[index] = values
    return out


def _add_impl(x, values, index, unique):
    out = _copy(x, values)
    index, values = without_new_axes(index, values, out.shape)
    if unique:
        out[index] += values
        return out
    return added_at(out, index, values)


def _extremum_impl(ufunc):
    def impl(x, values, index, unique):
        out = _copy(x, values)
        index, values = without_new_axes(index, values, out.shape)
        if unique:
            out[index] = ufunc(out[index], values)
            return out
        return ufunc_at(ufunc, out, index, values)
    return impl


# `index` picks each element at most once (set's front end keeps only the winners).
_scatter_set = primitive(_set_impl, "scatter_set")
_scatter_add = primitive(_add_impl, "scatter_add")
_scatter_max = primitive(_extremum_impl(np.maximum), "scatter_max")
_scatter_min = primitive(_extremum_impl(np.minimum), "scatter_min")
for _primitive in (_scatter_set, _scatter_add, _scatter_max, _scatter_min):
    defbatch(_primitive, batch_scatter)


def _set_x_pull(g, zero, index):
    return _scatter_set(g, zero, index=index)


def _gather_pull(g, index, unique):
    return gather(g, index, unique)


def _set_jvp_x(t, ans, x, values, index):
    return _scatter_set(t, np.zeros((), ans.dtype), index=index)


def _set_jvp_values(t, ans, x, values, index):
    return add_at_zeros(t, index=index, unique=True, shape=ans.shape, dtype=ans.dtype)


defvjp(_scatter_set,
       ArgVJP(lambda ans, x, values, index: (np.zeros((), aval(x)[1]), index), _set_x_pull),
       ArgVJP(lambda ans, x, values, index: (index, True), _gather_pull))
defjvp(_scatter_set, _set_jvp_x, _set_jvp_values)

defvjp(_scatter_add, ArgVJP(lambda ans, x, values, index, unique: (), lambda g: g),
       ArgVJP(lambda ans, x, values, index, unique: (index, unique), _gather_pull))
defjvp(_scatter_add, lambda t, ans, x, values, index, unique: t,
       lambda t, ans, x, values, index, unique: add_at_zeros(
           t, index=index, unique=unique, shape=ans.shape, dtype=ans.dtype))


def _extremum_shares(ans, x, values, index, unique):
    """How the derivative of each output element splits between x and the updates that
    reach it: equally among all that equal the result (JAX's convention)."""
    x_value, values_value = unbox_all(x), unbox_all(values)
    dtype = ans.dtype
    x_wins = (x_value == ans).astype(dtype)
    values_win = (values_value == ans[index]).astype(dtype)
    # The primitive rather than its impl: under vmap the masks are batched.
    zeros = zeros_in_library_of(ans, ans.shape, dtype)
    winners = x_wins + _scatter_add(zeros, values_win, index=index, unique=unique)
    return x_wins / winners, values_win / winners[index]


def _extremum_vjp(argnum):
    def save(ans, x, values, index, unique):
        return _extremum_shares(ans, x, values, index, unique)[argnum], index, unique

    def pull(g, share, index, unique):
        return (g if argnum == 0 else gather(g, index, unique)) * share
    return ArgVJP(save, pull)


def _extremum_jvp(argnum):
    def rule(t, ans, x, values, index, unique):
        share = _extremum_shares(ans, x, values, index, unique)[argnum]
        if argnum == 0:
            return t * share
        return add_at_zeros(t * share, index=index, unique=unique, shape=ans.shape,
                            dtype=ans.dtype)
    return rule


for _primitive in (_scatter_max, _scatter_min):
    defvjp(_primitive, _extremum_vjp(0), _extremum_vjp(1))
    defjvp(_primitive, _extremum_jvp(0), _extremum_jvp(1))


# ---- the front end -----------------------------------------------------------------------


class _Positions:
    """Where an index with integer arrays writes: the flat position of each update (in
    the order of the updates), and whether some position is written more than once."""

    __slots__ = ("flat", "repeated")

    def __init__(self, shape, index):
        # Each axis's coordinate grid, broadcast (a view) and indexed: this costs the size
        # of the result, not of x.
        flat = np.zeros((), np.intp)
        stride = 1
        for axis in reversed(range(len(shape))):
            coordinates = np.arange(shape[axis]).reshape((-1,) + (1,) * (len(shape) - axis - 1))
            flat = flat + np.broadcast_to(coordinates, shape)[index] * stride
            stride *= shape[axis]
        self.flat = np.ravel(flat)
        self.repeated = np.unique(self.flat).size != self.flat.size

    def last_writes(self):
        """The updates that win under 'last write wins': the last one at each position."""
        count = self.flat.size
        _, last_from_end = np.unique(self.flat[::-1], return_index=True)
        return np.sort(count - 1 - last_from_end)

    def rounds(self):
        """The updates split into rounds that each write a position at most once: the
        k-th update to each position goes into round k, so rounds keep the given order."""
        order = np.argsort(self.flat, kind="stable")
        ordered = self.flat[order]
        starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
        group_start = np.repeat(starts, np.diff(np.r_[starts, ordered.size]))
        occurrence = np.empty_like(order)
        occurrence[order] = np.arange(ordered.size) - group_start
        return [np.flatnonzero(occurrence == k) for k in range(occurrence.max() + 1)]


_MODES = (None, "promise_in_bounds", "clip", "drop", "fill")


class IndexUpdateRef:
    """``x.at[index]``: the functional update methods, each returning a new array.

    ``mode`` is JAX's: None or 'promise_in_bounds' (out-of-bounds indices are an
    IndexError, as in NumPy), 'clip' (clamp them), 'drop' or 'fill' (updates out of
    bounds are dropped; get fills with ``fill_value``).
    """

    __slots__ = ("array", "index")

    def __init__(self, array, index):
        self.array = array
        self.index = index

    def __repr__(self):
        return f"_IndexUpdateRef({self.array!r}, {self.index!r})"

    # -- helpers --

    def _update(self, values, method, mode, body, fill_value=None):
        """``body(x, index, values)``, with ``values`` cast to x's dtype and broadcast to
        the shape of ``x[index]`` (as JAX does), and out-of-bounds indices handled as
        ``mode`` says: sent to a padding slot that ``body`` may write and is then cut."""
        if mode not in _MODES:
            raise ValueError(f"funcgrad.numpy: x.at[...].{method}: mode must be one of "
                             f"{_MODES}, got {mode!r}")
        x = self.array
        index = canonical_index(self.index, f"at[...].{method}")
        if any(isinstance(part, Box) for part in index):
            # A staged (jit) index is read, with a guard; one that differs per batch
            # element (vmap) stays a box, for the scatters that take index arrays.
            index = tuple(unbox_all(part) if isinstance(part, Box) and
                          batched_indices(part) is None else part for part in index)
            if any(isinstance(part, Box) for part in index):
                return _batched_update(x, index, values, method, mode)
        padded = ()
        if mode in ("clip", "drop", "fill"):
            index, padded = _bounded_index(index, np.shape(x), mode == "clip")
        if padded:
            x = pad(x, [(0, int(axis in padded)) for axis in range(np.ndim(x))],
                    constant_values=0 if fill_value is None else fill_value)
        if values is not None:
            values = _updates_like(values, x, index, method)
        result = body(x, index, values)
        if padded and method != "get":  # cut the padding slot off again
            result = gather(result, tuple(slice(0, n) for n in np.shape(self.array)),
                            unique=True)
        return result

    def _in_rounds(self, values, method, mode, combine):
        """x[index] = combine(x[index], values), applied update after update (``values``
        may be None, for apply)."""
        def body(x, index, values):
            dtype = x.dtype

            def update(old, new):  # apply's func may change the dtype: keep x's
                result = combine(old, new)
                if result.dtype == dtype:
                    return result
                _refuse_complex_into_real(result.dtype, dtype, method)
                return _astype(result, dtype)

            positions = _positions(x, index)
            if positions is None or not positions.repeated:
                return _scatter_set(x, update(gather(x, index, unique=True), values),
                                    index=index)
            flat_x = ravel(x)
            flat_values = None if values is None else ravel(values)
            for selection in positions.rounds():
                written = (positions.flat[selection],)
                part = None if values is None else gather(flat_values, (selection,),
                                                          unique=True)
                flat_x = _scatter_set(flat_x, update(gather(flat_x, written, unique=True),
                                                     part), index=written)
            return reshape(flat_x, np.shape(x))
        return self._update(values, method, mode, body)

    # -- the updates --

    def get(self, *, indices_are_sorted=False, unique_indices=False, mode=None,
            fill_value=None):
        """``x[index]``; with mode='fill' (or 'drop'), out-of-bounds elements are
        ``fill_value`` (by default NaN, or the extreme integer, as in JAX)."""
        if mode in ("fill", "drop") and fill_value is None:
            fill_value = _default_fill(self.array.dtype)
        return self._update(None, "get", mode, lambda x, index, _: gather(
            x, index, unique=not has_integer_array(index)), fill_value=fill_value)

    def set(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """A copy of x with ``x[index] = values`` (the last of repeated updates wins)."""
        def body(x, index, values):
            positions = _positions(x, index)
            if positions is None or not positions.repeated:
                return _scatter_set(x, values, index=index)
            winners = positions.last_writes()
            flat_x = _scatter_set(ravel(x), gather(ravel(values), (winners,), unique=True),
                                  index=(positions.flat[winners],))
            return reshape(flat_x, np.shape(x))
        return self._update(values, "set", mode, body)

    def add(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """A copy of x with ``values`` added at ``index`` (repeated indices accumulate)."""
        return self._update(values, "add", mode, lambda x, index, values: _scatter_add(
            x, values, index=index, unique=_is_unique(x, index)))

    def subtract(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """A copy of x with ``values`` subtracted at ``index``."""
        return self.add(-asarray(values), mode=mode)

    def multiply(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """A copy of x multiplied by ``values`` at ``index`` (repeats multiply in turn)."""
        return self._in_rounds(values, "multiply", mode, lambda old, new: old * new)

    mul = multiply

    def divide(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """A copy of x divided by ``values`` at ``index`` (repeats divide in turn)."""
        return self._in_rounds(values, "divide", mode, lambda old, new: old / new)

    def power(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """A copy of x raised to ``values`` at ``index`` (repeats apply in turn)."""
        return self._in_rounds(values, "power", mode, lambda old, new: old ** new)

    def min(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """A copy of x with ``minimum(x[index], values)`` at ``index``."""
        return self._update(values, "min", mode, lambda x, index, values: _scatter_min(
            x, values, index=index, unique=_is_unique(x, index)))

    def max(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """A copy of x with ``maximum(x[index], values)`` at ``index``."""
        return self._update(values, "max", mode, lambda x, index, values: _scatter_max(
            x, values, index=index, unique=_is_unique(x, index)))

    def apply(self, func, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """A copy of x with ``func`` (a funcgrad.numpy function of one array) applied to
        the elements at ``index``, once per occurrence of an element in the index."""
        return self._in_rounds(None, "apply", mode, lambda old, _: func(old))


# ---- index arrays that differ per batch element (vmap) ------------------------------------

_BATCHED_METHODS = ("get", "set", "add")


def _batched_update(x, index, values, method, mode):
    """``x.at[index].method(values)`` where index arrays differ per batch element: a
    gather (get), or scatters that take the index arrays as arguments, batched by adding
    the batch to the index. Repeated indices as in `IndexUpdateRef`: updates accumulate
    (add), the last one wins (set)."""
    what = f"x.at[...].{method}"
    if method not in _BATCHED_METHODS:
        raise NotImplementedError(
            f"funcgrad.numpy: {what} with an index array that differs per batch element "
            f"(vmap) is not supported (get, set, add and subtract are); batch only x and the "
            f"values, or compute the update with funcgrad.numpy.where on a mask.")
    if mode not in (None, "promise_in_bounds", "clip"):
        raise NotImplementedError(
            f"funcgrad.numpy: {what} with mode={mode!r} and an index array that differs per "
            f"batch element (vmap) is not supported; use mode='clip' or keep indices in "
            f"bounds.")
    if mode == "clip":
        index, _ = _bounded_index(index, np.shape(x), clip=True)
    template, arrays = index_template(index, what)
    if method == "get":
        return gather_p(x, *arrays, template=template)
    x = asarray(x)
    values = _updates_like(values, x, index, method)
    shape, dtype = np.shape(x), x.dtype
    if method == "add":
        return x + scatter_zeros_p(values, *arrays, template=template, shape=shape,
                                   dtype=dtype)
    # set: number the updates; the largest number written at a position is the last
    # update there, the one kept.
    ids = np.arange(np.prod(np.shape(values), dtype=np.intp)).reshape(np.shape(values))
    last = scatter_last_p(ids, *arrays, template=template, shape=shape)
    kept = where_(gather_p(last, *arrays, template=template) == ids, values,
                  np.zeros((), dtype))
    written = scatter_zeros_p(kept, *arrays, template=template, shape=shape, dtype=dtype)
    return where_(last >= 0, written, x)


def _positions(x, index):
    """The written positions, if the index has integer arrays (which may repeat)."""
    return _Positions(np.shape(x), index) if has_integer_array(index) else None


def _is_unique(x, index):
    positions = _positions(x, index)
    return positions is None or not positions.repeated


def _bounded_index(index, shape, clip):
    """``index`` with its integers in bounds: clamped (``clip``), or else sent to one past
    the end of their axis, a slot the caller pads; returns it and the padded axes."""
    consumed = sum(_axes_taken(part) for part in index)
    bounded, padded, axis = [], set(), 0
    for part in index:
        if part is Ellipsis:
            axis += len(shape) - consumed
        elif isinstance(part, slice) or _is_mask(part) or part is None:
            axis += _axes_taken(part)
        elif axis < len(shape):  # an integer or an integer array
            length = shape[axis]
            fixed = np.where(np.less(part, 0), np.add(part, length), part)
            if clip:
                fixed = np.clip(fixed, 0, max(length - 1, 0))
            else:
                outside = (fixed < 0) | (fixed >= length)
                if outside.any():
                    fixed = np.where(outside, length, fixed)
                    padded.add(axis)
            part = int(fixed) if type(part) is int else fixed
            axis += 1
        bounded.append(part)
    return tuple(bounded), padded


def _is_mask(part):
    return type(part) is bool or (type(part) is np.ndarray and part.dtype == bool)


def _axes_taken(part):
    """How many axes of the indexed array an index part consumes."""
    if part is None or part is Ellipsis:
        return 0
    return np.ndim(part) if _is_mask(part) else 1


def _default_fill(dtype):
    """JAX's fill for out-of-bounds reads: NaN, or the extreme value of an integer type."""
    if dtype.kind in "fc":
        return np.nan
    if dtype.kind == "b":
        return True
    return np.iinfo(dtype).min if dtype.kind == "i" else np.iinfo(dtype).max


def _refuse_complex_into_real(values_dtype, x_dtype, method):
    """Casting the update to x's dtype would drop an imaginary part silently (NumPy
    refuses ``x[i] = 1j`` for a real x)."""
    if values_dtype.kind == "c" and x_dtype.kind != "c":
        raise TypeError(f"funcgrad.numpy: x.at[...].{method}: complex values cannot update "
                        f"an array of dtype {x_dtype}; cast x to a complex dtype first, "
                        f"or pass the values' real part")


def _updates_like(values, x, index, method):
    """``values`` cast to x's dtype and broadcast to the shape of ``x[index]`` (as JAX)."""
    values = asarray(values)
    _refuse_complex_into_real(values.dtype, x.dtype, method)
    if values.dtype != x.dtype:
        values = _astype(values, x.dtype)
    # The indexed shape, from a zero-stride view: no copy of x (an index array that
    # differs per batch element stands for one element's: zeros of its shape).
    index = tuple(np.zeros(np.shape(part), np.intp) if isinstance(part, Box) else part
                  for part in index)
    target = np.broadcast_to(np.empty((), bool), np.shape(x))[index].shape
    if np.shape(values) != target:
        try:
            values = broadcast_to(values, target)
        except ValueError:
            raise ValueError(
                f"funcgrad.numpy: x.at[...].{method}: values of shape {np.shape(values)} "
                f"cannot be broadcast to the indexed shape {target}") from None
    return values


class IndexUpdateHelper:
    """``x.at``: index it to choose where to update, ``x.at[index].set(v)``."""

    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array

    def __getitem__(self, index):
        return IndexUpdateRef(self.array, index)

    def __repr__(self):
        return f"_IndexUpdateHelper({self.array!r})"


def at(x):
    """JAX's ``x.at`` for any array: ``funcgrad.numpy.at(x)[idx].set(v)`` returns a copy of
    ``x`` with ``x[idx] = v``, differentiable in ``x`` and ``v`` (traced arrays also have
    ``x.at``). Methods: get, set, add, subtract, multiply, divide, power, min, max, apply."""
    if not isinstance(x, Box):
        x = asarray(x)
    return IndexUpdateHelper(x)


__all__ = ["at"]
