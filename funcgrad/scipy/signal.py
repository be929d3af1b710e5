"""funcgrad.scipy.signal: ``scipy.signal``'s convolutions, differentiable.

One primitive computes them all: a convolution along paired axes of two arrays that may
also contract other paired axes (``dot_axes``) and keep paired batch axes, HIPS autograd's
generalised ``convolve(A, B, axes=..., dot_axes=...)``. Its result holds the batch axes,
then the other axes of ``A``, then those of ``B``, then the convolved ones. ``'same'`` is a
slice of ``'full'``; correlations convolve with the reversed, conjugated kernel; the
boundaries of ``convolve2d`` pad the first input.
"""
import numpy as np
import scipy.signal

from ..core import Box, defjvp, dtype_of, shape_of
from ..numpy import conjugate, getitem, multiply, pad, subtract, add
from ..numpy import sum as _sum
from ..numpy._base import astype, unbroadcast
from ..numpy._batching import physical
from ..numpy._rules import ArgVJP, aval, defbatch, defvjp, primitive
from ..numpy.creation import asarray
from ..numpy.shape_ops import transpose

_MODES = ("full", "same", "valid")
_METHODS = ("auto", "direct", "fft")
_BOUNDARIES = {"fill": "constant", "wrap": "wrap", "symm": "symmetric"}


# ---- the primitive -------------------------------------------------------------------


def _other_axes(ndim, *used):
    taken = {axis for axes in used for axis in axes}
    return [axis for axis in range(ndim) if axis not in taken]


def _is_plain(ndim_a, ndim_b, conv_axes, dot_axes, batch_axes):
    """Whether the call is SciPy's: every axis convolved with the same-numbered one."""
    return (not dot_axes[0] and not batch_axes[0] and ndim_a == ndim_b
            and conv_axes == (tuple(range(ndim_a)),) * 2)


def _direct(a, b, conv_axes, dot_axes, batch_axes, mode):
    """The convolution as one einsum over the sliding windows of the operand that is the
    larger along the convolved axes (``a`` padded to the full size first in 'full')."""
    (ca, cb), (da, db), (ba, bb) = conv_axes, dot_axes, batch_axes
    if mode == "full":
        widths = [(0, 0)] * a.ndim
        for i, j in zip(ca, cb):
            widths[i] = (b.shape[j] - 1,) * 2
        a = np.pad(a, widths)
    labels = iter(range(52))
    batch, dots = [next(labels) for _ in ba], [next(labels) for _ in da]
    outputs, windows = [next(labels) for _ in ca], [next(labels) for _ in ca]
    a_sub, b_sub = [None] * a.ndim, [None] * b.ndim
    ignored = {}
    for key, sub, ndim, own in (("a", a_sub, a.ndim, (ca, da, ba)),
                                ("b", b_sub, b.ndim, (cb, db, bb))):
        conv, dot, kept = own
        ignored[key] = [next(labels) for _ in _other_axes(ndim, conv, dot, kept)]
        for axis, label in zip(kept + dot + tuple(_other_axes(ndim, conv, dot, kept)),
                               batch + dots + ignored[key]):
            sub[axis] = label
    # The operand larger along the convolved axes gives the windows.
    if all(a.shape[i] >= b.shape[j] for i, j in zip(ca, cb)):
        x, x_sub, xc, y, y_sub, yc = a, a_sub, ca, b, b_sub, cb
    else:
        x, x_sub, xc, y, y_sub, yc = b, b_sub, cb, a, a_sub, ca
    for k in range(len(ca)):
        x_sub[xc[k]], y_sub[yc[k]] = outputs[k], windows[k]
    views = np.lib.stride_tricks.sliding_window_view(x, [y.shape[j] for j in yc], axis=xc)
    flip = [slice(None)] * y.ndim
    for j in yc:
        flip[j] = slice(None, None, -1)
    out = np.einsum(views, x_sub + windows, y[tuple(flip)], y_sub,
                    batch + ignored["a"] + ignored["b"] + outputs, optimize=True)
    return np.asarray(out, np.result_type(a, b))


def _convolve_impl(a, b, conv_axes, dot_axes, batch_axes, mode, method):
    if _is_plain(a.ndim, b.ndim, conv_axes, dot_axes, batch_axes):
        return scipy.signal.convolve(a, b, mode=mode, method=method)
    return _direct(a, b, conv_axes, dot_axes, batch_axes, mode)


_convolve = primitive(_convolve_impl, "scipy.signal.convolve")


def _flipped(x, axes):
    index = [slice(None)] * len(shape_of(x))
    for axis in axes:
        index[axis] = slice(None, None, -1)
    return getitem(x, tuple(index))


def _convolve_pull(argnum):
    """The cotangent of operand ``argnum`` (X) convolves the output's cotangent with the
    other operand (Y) reversed, contracting Y's own axes and keeping the batch, then
    puts the axes back in X's order."""
    def save(ans, a, b, conv_axes, dot_axes, batch_axes, mode, method):
        x, y = (a, b) if argnum == 0 else (b, a)
        return (y, conv_axes, dot_axes, batch_axes, mode, method, *aval(x))

    def pull(g, y, conv_axes, dot_axes, batch_axes, mode, method, shape, dtype):
        mine, other = (0, 1) if argnum == 0 else (1, 0)
        ndim_x, ndim_y = len(shape), len(shape_of(y))
        ignored_a = _other_axes(len(shape) if argnum == 0 else ndim_y, conv_axes[0],
                                dot_axes[0], batch_axes[0])
        n_batch, n_ignored_a = len(batch_axes[0]), len(ignored_a)
        n_ignored_b = len(shape_of(g)) - n_batch - n_ignored_a - len(conv_axes[0])
        g_ignored_y = (range(n_batch + n_ignored_a, n_batch + n_ignored_a + n_ignored_b)
                       if argnum == 0 else range(n_batch, n_batch + n_ignored_a))
        y_ignored = _other_axes(ndim_y, conv_axes[other], dot_axes[other], batch_axes[other])
        g_conv = tuple(range(len(shape_of(g)) - len(conv_axes[0]), len(shape_of(g))))
        if mode == "full":
            inner_mode = "valid"
        else:   # 'valid': back to X's size
            x_larger = all(shape[i] >= shape_of(y)[j]
                           for i, j in zip(conv_axes[mine], conv_axes[other]))
            inner_mode = "full" if x_larger else "valid"
        ct = _convolve(g, _flipped(y, conv_axes[other]),
                       conv_axes=(g_conv, conv_axes[other]),
                       dot_axes=(tuple(g_ignored_y), tuple(y_ignored)),
                       batch_axes=(tuple(range(n_batch)), batch_axes[other]),
                       mode=inner_mode, method=method)
        # ct holds: batch, X's ignored axes, Y's dot partners (X's dot axes in Y's order),
        # the convolved axes.
        y_dots = sorted(dot_axes[other])
        source = (list(batch_axes[mine])
                  + _other_axes(ndim_x, conv_axes[mine], dot_axes[mine], batch_axes[mine])
                  + [dot_axes[mine][dot_axes[other].index(j)] for j in y_dots]
                  + list(conv_axes[mine]))
        return unbroadcast(transpose(ct, list(np.argsort(source))), shape, dtype)
    return ArgVJP(save, pull)


defvjp(_convolve, _convolve_pull(0), _convolve_pull(1))
defjvp(_convolve, lambda t, ans, a, b, **params: _convolve(t, b, **params),
       lambda t, ans, a, b, **params: _convolve(a, t, **params))


def _convolve_batch(primitive, size, values, axes, params):
    """A batched operand's batch is one of its own axes (kept, in the result's block of
    that operand's axes); batched together, the two batches pair as batch axes."""
    (a, b), (axis_a, axis_b) = values, axes
    renumbered = {}
    for name in ("conv_axes", "dot_axes", "batch_axes"):
        pair = params[name]
        renumbered[name] = (
            pair[0] if axis_a is None else tuple(physical(i, axis_a) for i in pair[0]),
            pair[1] if axis_b is None else tuple(physical(j, axis_b) for j in pair[1]))
    if axis_a is not None and axis_b is not None:
        renumbered["batch_axes"] = ((axis_a,) + renumbered["batch_axes"][0],
                                    (axis_b,) + renumbered["batch_axes"][1])
        out_axis = 0
    else:
        n_batch = len(params["batch_axes"][0])
        ignored_a = _other_axes(len(shape_of(a)), renumbered["conv_axes"][0],
                                renumbered["dot_axes"][0], renumbered["batch_axes"][0])
        if axis_a is not None:
            out_axis = n_batch + ignored_a.index(axis_a)
        else:
            ignored_b = _other_axes(len(shape_of(b)), renumbered["conv_axes"][1],
                                    renumbered["dot_axes"][1], renumbered["batch_axes"][1])
            out_axis = n_batch + len(ignored_a) + ignored_b.index(axis_b)
    params = dict(params, **renumbered)
    return primitive(a, b, **params), out_axis


defbatch(_convolve, _convolve_batch)


# ---- argument checks -----------------------------------------------------------------


def _as_array(x, name, argument):
    x = asarray(x)
    if dtype_of(x).kind not in "biufc":
        raise TypeError(f"funcgrad.scipy.signal.{name}: {argument} must hold numbers, got "
                        f"dtype {dtype_of(x)}")
    return astype(x, np.float64) if dtype_of(x).kind == "b" else x


def _axis_list(axes, ndim, name, what):
    try:
        axes = tuple(int(axis) for axis in axes)
    except TypeError:
        raise TypeError(f"funcgrad.scipy.signal.{name}: {what} must be a sequence of "
                        f"axis numbers, got {axes!r}") from None
    for axis in axes:
        if not -ndim <= axis < ndim:
            raise ValueError(f"funcgrad.scipy.signal.{name}: {what} names axis {axis}, out "
                             f"of range for an array of {ndim} dimensions")
    axes = tuple(axis % ndim for axis in axes)
    if len(set(axes)) != len(axes):
        raise ValueError(f"funcgrad.scipy.signal.{name}: {what} repeats an axis: {axes}")
    return axes


def _axis_pair(pair, shapes, name, what):
    try:
        first, second = pair
    except (TypeError, ValueError):
        raise TypeError(f"funcgrad.scipy.signal.{name}: {what} must be a pair (axes of "
                        f"in1, axes of in2), got {pair!r}") from None
    first = _axis_list(first, len(shapes[0]), name, f"{what}[0]")
    second = _axis_list(second, len(shapes[1]), name, f"{what}[1]")
    if len(first) != len(second):
        raise ValueError(f"funcgrad.scipy.signal.{name}: {what} pairs {len(first)} axes of "
                         f"in1 with {len(second)} of in2; give as many of each")
    return first, second


def _check_mode(mode, name, modes=_MODES):
    if not isinstance(mode, str):
        raise TypeError(f"funcgrad.scipy.signal.{name}: mode must be one of {modes}, got "
                        f"{mode!r}; autograd's axes and dot_axes are keyword arguments here "
                        f"(axes=..., dot_axes=...)")
    if mode not in modes:
        raise ValueError(f"funcgrad.scipy.signal.{name}: mode must be one of {modes}, got "
                         f"{mode!r}")


def _normalized_axes(shapes, axes, dot_axes, name):
    """(conv_axes, dot_axes) as pairs of tuples of non-negative axes, checked."""
    if dot_axes is None:
        dot_axes = ((), ())
    dot_axes = _axis_pair(dot_axes, shapes, name, "dot_axes")
    if axes is None:
        conv_axes = tuple(_other_axes(len(shape), dots) for shape, dots in zip(shapes, dot_axes))
        if len(conv_axes[0]) != len(conv_axes[1]):
            raise ValueError(f"funcgrad.scipy.signal.{name}: in1 and in2 should have the "
                             f"same dimensionality, got shapes {shapes[0]} and {shapes[1]} "
                             f"(pass axes=(axes of in1, axes of in2) to convolve some axes)")
    else:
        conv_axes = _axis_pair(axes, shapes, name, "axes")
    for k, (conv, dots) in enumerate(zip(conv_axes, dot_axes)):
        if set(conv) & set(dots):
            raise ValueError(f"funcgrad.scipy.signal.{name}: axes {sorted(set(conv) & set(dots))}"
                             f" of in{k + 1} are both convolved and contracted (dot_axes)")
    for i, j in zip(*dot_axes):
        if shapes[0][i] != shapes[1][j]:
            raise ValueError(f"funcgrad.scipy.signal.{name}: dot_axes pair axis {i} of in1 "
                             f"(length {shapes[0][i]}) with axis {j} of in2 (length "
                             f"{shapes[1][j]}); paired axes must have equal lengths")
    return conv_axes, dot_axes


def _check_valid_sizes(shapes, conv_axes, name):
    pairs = [(shapes[0][i], shapes[1][j]) for i, j in zip(*conv_axes)]
    if not (all(m >= n for m, n in pairs) or all(m <= n for m, n in pairs)):
        raise ValueError(f"funcgrad.scipy.signal.{name}: for 'valid' mode, one must be at "
                         f"least as large as the other in every convolved dimension, got "
                         f"shapes {shapes[0]} and {shapes[1]}")


def _same_slice(full, shapes, conv_axes, ndim_out):
    """The 'same' output: the centre of the 'full' one, as long as in1 along each axis."""
    index = [slice(None)] * ndim_out
    first_conv = ndim_out - len(conv_axes[0])
    for k, (i, j) in enumerate(zip(*conv_axes)):
        length = shapes[0][i]
        start = (shapes[1][j] - 1) // 2
        index[first_conv + k] = slice(start, start + length)
    return getitem(full, tuple(index))


# ---- the public functions ------------------------------------------------------------


def convolve(in1, in2, mode="full", method="auto", *, axes=None, dot_axes=None):
    """``scipy.signal.convolve``: the n-dimensional convolution of ``in1`` and ``in2``
    (``mode`` 'full', 'same' or 'valid'; ``method`` 'auto', 'direct' or 'fft', as SciPy
    evaluates it). HIPS autograd's generalised form is spelt with keywords:
    ``axes=(axes of in1, axes of in2)`` convolves those pairs of axes (all axes by
    default), ``dot_axes=(...)`` sums products over those pairs; the result holds in1's
    other axes, then in2's, then the convolved ones."""
    _check_mode(mode, "convolve")
    if method not in _METHODS:
        raise ValueError(f"funcgrad.scipy.signal.convolve: method must be one of {_METHODS},"
                         f" got {method!r}")
    in1, in2 = _as_array(in1, "convolve", "in1"), _as_array(in2, "convolve", "in2")
    shapes = (shape_of(in1), shape_of(in2))
    conv_axes, dot_axes = _normalized_axes(shapes, axes, dot_axes, "convolve")
    if axes is None and dot_axes == ((), ()):
        if not shapes[0] and not shapes[1]:
            return multiply(in1, in2)
        if 0 in shapes[0] or 0 in shapes[1]:
            return np.array([])          # SciPy's answer for empty inputs
    elif any(shapes[0][i] == 0 for i in conv_axes[0]) or any(
            shapes[1][j] == 0 for j in conv_axes[1]):
        raise ValueError(f"funcgrad.scipy.signal.convolve: the convolved axes must not be "
                         f"empty, got shapes {shapes[0]} and {shapes[1]}")
    if mode == "valid":
        _check_valid_sizes(shapes, conv_axes, "convolve")
    params = dict(conv_axes=conv_axes, dot_axes=dot_axes, batch_axes=((), ()),
                  method=method)
    if mode == "same":
        full = _convolve(in1, in2, mode="full", **params)
        return _same_slice(full, shapes, conv_axes, len(shape_of(full)))
    return _convolve(in1, in2, mode=mode, **params)


def _reversed_conjugate(x):
    x = _flipped(x, range(len(shape_of(x))))
    return conjugate(x) if dtype_of(x).kind == "c" else x


def correlate(in1, in2, mode="full", method="auto"):
    """``scipy.signal.correlate``: the n-dimensional cross-correlation
    ``z[k] = sum_l in1[l + k] * conj(in2[l])``, in SciPy's modes and methods."""
    _check_mode(mode, "correlate")
    in2 = _as_array(in2, "correlate", "in2")
    return convolve(in1, _reversed_conjugate(in2), mode, method)


def _check_2d(in1, in2, name):
    if len(shape_of(in1)) != 2 or len(shape_of(in2)) != 2:
        raise ValueError(f"funcgrad.scipy.signal.{name}: inputs must both be 2-D arrays, "
                         f"got shapes {shape_of(in1)} and {shape_of(in2)}")


def convolve2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    """``scipy.signal.convolve2d``: the 2-D convolution, ``in1`` extended beyond its edges
    by ``boundary``: 'fill' (with ``fillvalue``), 'wrap' (periodic) or 'symm' (mirrored,
    edge repeated). Differentiable in ``in1`` and ``in2`` (``fillvalue`` is a constant)."""
    _check_mode(mode, "convolve2d")
    if boundary not in _BOUNDARIES:
        raise ValueError(f"funcgrad.scipy.signal.convolve2d: boundary must be one of "
                         f"{tuple(_BOUNDARIES)}, got {boundary!r}")
    in1, in2 = _as_array(in1, "convolve2d", "in1"), _as_array(in2, "convolve2d", "in2")
    _check_2d(in1, in2, "convolve2d")
    if mode == "valid":
        _check_valid_sizes((shape_of(in1), shape_of(in2)), ((0, 1), (0, 1)), "convolve2d")
    if isinstance(fillvalue, Box) or np.ndim(fillvalue) != 0:
        raise TypeError("funcgrad.scipy.signal.convolve2d: fillvalue must be a constant "
                        "number")
    if mode == "valid":       # the output never reaches past the edges
        return convolve(in1, in2, "valid")
    if boundary == "fill":
        out = convolve(in1, in2, mode)
        if fillvalue == 0:
            return out
        # The filled border adds fillvalue times the kernel's weights falling outside in1.
        ones = np.ones(shape_of(in1), np.result_type(dtype_of(in1), np.float64))
        outside = subtract(_sum(in2), convolve(ones, in2, mode))
        return add(out, multiply(fillvalue, outside))
    widths = [(n - 1, n - 1) for n in shape_of(in2)]
    full = convolve(pad(in1, widths, mode=_BOUNDARIES[boundary]), in2, "valid")
    if mode == "full":
        return full
    shapes = (shape_of(in1), shape_of(in2))
    return _same_slice(full, shapes, ((0, 1), (0, 1)), 2)


def correlate2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    """``scipy.signal.correlate2d``: the 2-D cross-correlation, boundaries as in
    `convolve2d`. As SciPy, 'same' centres on ``in2.shape // 2`` (not ``correlate``'s
    ``(in2.shape - 1) // 2``), and 'valid' with the larger ``in2`` gives the conjugate of
    ``correlate``'s result."""
    _check_mode(mode, "correlate2d")
    in1, in2 = _as_array(in1, "correlate2d", "in1"), _as_array(in2, "correlate2d", "in2")
    _check_2d(in1, in2, "correlate2d")
    if mode == "valid":
        _check_valid_sizes((shape_of(in1), shape_of(in2)), ((0, 1), (0, 1)), "correlate2d")
    kernel = _reversed_conjugate(in2)
    if mode != "same":
        out = convolve2d(in1, kernel, mode, boundary, fillvalue)
        swapped = mode == "valid" and any(
            m < n for m, n in zip(shape_of(in1), shape_of(in2)))
        return conjugate(out) if swapped and dtype_of(out).kind == "c" else out
    full = convolve2d(in1, kernel, "full", boundary, fillvalue)
    index = tuple(slice(n // 2, n // 2 + m) for m, n in zip(shape_of(in1), shape_of(in2)))
    return getitem(full, index)


__all__ = ["convolve", "correlate", "convolve2d", "correlate2d"]
