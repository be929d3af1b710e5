"""Sorting and the statistics read off a sort (topk, kthvalue, median, nanmedian, mode,
cummax and cummin), with PyTorch's values and indices: stable order, NaN sorting last, and
the index PyTorch's CPU kernels pick among ties."""
import numpy as np

import funcgrad.numpy as fnp
from funcgrad.core import unbox_all

from ._dim_args import empty_dim, keep_dim, one_dim


def sort(x, dim=-1, descending=False, stable=False):
    """Values and indices sorted along `dim`, ties in their original order (always stable;
    NaN sorts as the largest value, as in PyTorch)."""
    dim = one_dim(x, dim, "sort")
    if fnp.ndim(x) == 0:
        return x, np.zeros((), np.int64)
    raw = unbox_all(x)
    if descending:  # a stable ascending sort of the reversed values, reversed back
        reversed_order = np.argsort(np.flip(raw, axis=dim), axis=dim, kind="stable")
        order = np.flip(raw.shape[dim] - 1 - reversed_order, axis=dim)
    else:
        order = np.argsort(raw, axis=dim, kind="stable")
    return fnp.take_along_axis(x, order, axis=dim), order.astype(np.int64)


def argsort(x, dim=-1, descending=False, stable=False):
    return sort(unbox_all(x), dim, descending)[1]


def topk(x, k, dim=-1, largest=True, sorted=True):
    values, indices = sort(x, dim, descending=largest)
    n = fnp.shape(x)[dim] if fnp.ndim(x) else 1
    if not 0 <= k <= n:
        raise RuntimeError("selected index k out of range")
    part = [slice(None)] * fnp.ndim(x)
    if part:
        part[dim] = slice(0, k)
    return fnp.getitem(values, tuple(part)), indices[tuple(part)]


def kthvalue(x, k, dim=-1, keepdim=False, name="kthvalue", position=3):
    """The k-th smallest element along `dim` (k from 1) and its index (`name`: the function
    PyTorch's errors name, whose argument `dim` is at `position`)."""
    axis = one_dim(x, dim, name, position)
    size = fnp.shape(x)[axis] if fnp.ndim(x) else 1
    if size == 0:
        raise empty_dim(f"{name}()", axis)
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {axis}")
    if fnp.ndim(x) == 0:
        return x, np.zeros((), np.int64)
    values, indices = sort(x, axis)
    picked = [slice(None)] * fnp.ndim(x)
    picked[axis] = k - 1
    value, index = fnp.getitem(values, tuple(picked)), indices[tuple(picked)]
    return keep_dim(value, x, axis, keepdim), keep_dim(index, x, axis, keepdim)


def _median_of_nothing(x):
    """PyTorch's median of an empty tensor: NaN, cast to x's dtype as its kernel casts it
    (the smallest int32 or int64, 0 for smaller integers, True)."""
    with np.errstate(invalid="ignore"):
        nan = np.array(np.nan).astype(fnp.result_type(x))
    return fnp.reshape(fnp.sum(x), ()) * 0 + nan if fnp.result_type(x).kind in "fc" else nan


def median(x, dim=None, keepdim=False):
    """The lower median (PyTorch's: an element, not a mean of two), or the first NaN of a
    slice that holds one (PyTorch's median propagates NaN); with `dim`, also its index."""
    if dim is None:
        if fnp.size(x) == 0:
            return _median_of_nothing(x)
        return median(fnp.reshape(x, (-1,)), 0)[0]
    n = fnp.shape(x)[one_dim(x, dim, "median")] if fnp.ndim(x) else 1
    value, index = kthvalue(x, (n + 1) // 2, dim, keepdim, "median", 2)
    raw = unbox_all(x)
    if raw.ndim == 0 or raw.dtype.kind != "f":
        return value, index
    nan = np.isnan(raw)
    if not nan.any():
        return value, index
    axis = dim % raw.ndim
    index = np.where(nan.any(axis=axis, keepdims=True), np.argmax(nan, axis=axis, keepdims=True),
                     index if keepdim else np.expand_dims(index, axis))
    value = fnp.take_along_axis(x, index, axis=axis)
    if keepdim:
        return value, index
    return fnp.squeeze(value, axis), np.squeeze(index, axis)


def nanmedian(x, dim=None, keepdim=False):
    """The lower median of the non-NaN elements (NaN where all are NaN); with `dim`, also
    its index."""
    if dim is None:
        if fnp.size(x) == 0:
            return _median_of_nothing(x)
        x = fnp.reshape(x, (-1,))
    elif fnp.ndim(x) == 0:
        one_dim(x, dim, "nanmedian")
        return x, np.zeros((), np.int64)
    axis = 0 if dim is None else one_dim(x, dim, "nanmedian")
    if not fnp.shape(x)[axis]:
        raise empty_dim("median()", axis)  # (PyTorch's message names median)
    values, indices = sort(x, axis)  # NaN sorts last
    numbers = np.sum(~np.isnan(unbox_all(x)), axis=axis, keepdims=True)
    middle = np.maximum(numbers - 1, 0) // 2
    value = fnp.take_along_axis(values, middle, axis=axis)
    index = np.take_along_axis(indices, middle, axis=axis)
    if dim is None:
        return fnp.reshape(value, ())
    if not keepdim:
        value, index = fnp.squeeze(value, axis), np.squeeze(index, axis)
    return value, index


def mode(x, dim=-1, keepdim=False):
    """The most frequent value along `dim` (the smallest of equally frequent ones) and the
    index of its last occurrence, as PyTorch's CPU kernel gives them."""
    axis = one_dim(x, dim, "mode")
    if fnp.ndim(x) == 0:
        return x, np.zeros((), np.int64)
    if fnp.shape(x)[axis] == 0:
        raise empty_dim("mode()", axis)
    rows = np.moveaxis(unbox_all(x), axis, -1)
    ordered = np.sort(rows, axis=-1)
    positions = np.broadcast_to(np.arange(rows.shape[-1]), rows.shape)
    starts = np.concatenate([np.ones(rows.shape[:-1] + (1,), bool),
                             ordered[..., 1:] != ordered[..., :-1]], axis=-1)
    run_start = np.maximum.accumulate(np.where(starts, positions, 0), axis=-1)
    run_length = positions - run_start + 1  # at a run's last element: the run's length
    best = np.take_along_axis(ordered, np.argmax(run_length, axis=-1)[..., None], axis=-1)
    index = np.max(np.where(rows == best, positions, -1), axis=-1, keepdims=True)
    index = np.moveaxis(index, -1, axis)
    value = fnp.take_along_axis(x, index, axis=axis)
    if not keepdim:
        value, index = fnp.squeeze(value, axis), np.squeeze(index, axis)
    return value, index


def cummax(x, dim):
    return _running_best(x, dim, np.maximum, "cummax")


def cummin(x, dim):
    return _running_best(x, dim, np.minimum, "cummin")


def _running_best(x, dim, which, name):
    """The running maximum or minimum (`which`, the function `name`) along `dim`, with the
    index of its element."""
    dim = one_dim(x, dim, name)
    if fnp.ndim(x) == 0:  # (the element itself)
        return x, np.zeros((), np.int64)
    raw = unbox_all(x)
    best = which.accumulate(raw, axis=dim)
    positions = np.indices(raw.shape)[dim % raw.ndim]
    # The last position reaching the running best, or the last NaN (PyTorch's best is NaN
    # from the first one on, as NumPy's accumulate makes it, and each NaN takes its place).
    hit = np.where((raw == best) | (raw != raw), positions, -1)
    indices = np.maximum.accumulate(hit, axis=dim).astype(np.int64)
    return fnp.take_along_axis(x, indices, axis=dim), indices
