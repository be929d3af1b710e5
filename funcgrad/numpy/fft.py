"""funcgrad.numpy.fft: differentiable discrete Fourier transforms (``numpy.fft``).

Four primitives carry every transform: ``fftn``, ``ifftn``, ``rfftn`` and ``irfftn`` over
a tuple of axes, on input already cut or zero-padded to the transform's length (``n``/``s``
is applied by the wrappers, so padding and truncation are differentiated by their own
rules). Cotangents follow JAX's convention for complex values: the VJP of a complex-linear
map is its transpose (not its conjugate transpose), and a real input keeps the real part.
"""
import operator

import numpy as np

from ..core import constant_like, zeros_in_library_of
from ._axes import axes_in_order
from ._base import unbroadcast
from ._batching import over_axes as batch_over_axes
from ._rules import ArgVJP, aval, defbatch, defjvp, defvjp, primitive
from .creation import asarray
from .elementwise import conjugate, multiply, real
from .indexing import getitem
from .shape_ops import concatenate, roll

_NORMS = ("backward", "ortho", "forward")
# Scaling by 1/n on the way in is the transpose of scaling by 1/n on the way out.
_DUAL_NORM = {"backward": "forward", "ortho": "ortho", "forward": "backward"}


def _impl(transform):
    return lambda a, axes, norm: transform(a, axes=axes, norm=norm)


_fftn = primitive(_impl(np.fft.fftn), "fft.fftn")
_ifftn = primitive(_impl(np.fft.ifftn), "fft.ifftn")
_rfftn = primitive(_impl(np.fft.rfftn), "fft.rfftn")
# `n` is the length of the real output along the last axis, which the input cannot tell.
_irfftn = primitive(
    lambda a, axes, norm, n: np.fft.irfftn(
        a, s=[np.shape(a)[ax] for ax in axes[:-1]] + [n], axes=axes, norm=norm),
    "fft.irfftn")
for _primitive in (_fftn, _ifftn, _rfftn, _irfftn):
    defbatch(_primitive, batch_over_axes)


# ---- VJP and JVP rules ---------------------------------------------------------------

def _complex_linear_vjp(transform):
    # The DFT matrix is symmetric, so each transform is its own transpose.
    def pull(g, axes, norm, shape, dtype):
        return unbroadcast(transform(g, axes=axes, norm=norm), shape, dtype)
    return ArgVJP(lambda ans, a, axes, norm: (axes, norm, *aval(a)), pull)


def _rfftn_pull(g, axes, norm, shape, dtype):
    # rfftn keeps the first n//2 + 1 outputs of fftn along the last axis: the transpose
    # pads the cotangent back to n with zeros, and the real input keeps the real part.
    last = axes[-1]
    return unbroadcast(real(_fftn(_fit(g, last, shape[last]), axes=axes, norm=norm)),
                       shape, dtype)


def _hermitian_weights(n, axis, ndim, dtype):
    """How often each half-spectrum entry counts in a real signal of length ``n``: once for
    the zero frequency (and the Nyquist one when n is even), twice for the others."""
    weights = np.full(n // 2 + 1, 2.0, dtype)
    weights[0] = 1.0
    if n % 2 == 0:
        weights[-1] = 1.0
    return weights.reshape([-1 if i == axis else 1 for i in range(ndim)])


def _irfftn_save(ans, a, axes, norm, n):
    # irfftn(a) = c * sum_k w_k Re(a_k e^{2 pi i k t / n}) (with the complex transform over the
    # other axes), so the cotangent of a_k is w_k conj(c * sum_t g_t e^{-2 pi i k t / n}):
    # the weighted conjugate of rfftn under the dual normalization.
    shape, dtype = aval(a)
    weights = constant_like(_hermitian_weights(n, axes[-1], len(shape), aval(ans)[1]), ans)
    return axes, _DUAL_NORM[norm], weights, shape, dtype


def _irfftn_pull(g, axes, dual_norm, weights, shape, dtype):
    return unbroadcast(multiply(conjugate(_rfftn(g, axes=axes, norm=dual_norm)), weights),
                       shape, dtype)


defvjp(_fftn, _complex_linear_vjp(_fftn))
defvjp(_ifftn, _complex_linear_vjp(_ifftn))
defvjp(_rfftn, ArgVJP(lambda ans, a, axes, norm: (axes, norm, *aval(a)), _rfftn_pull))
defvjp(_irfftn, ArgVJP(_irfftn_save, _irfftn_pull))

# Every transform is (real-)linear: the tangent goes through the same transform.
defjvp(_fftn, lambda t, ans, a, axes, norm: _fftn(t, axes=axes, norm=norm))
defjvp(_ifftn, lambda t, ans, a, axes, norm: _ifftn(t, axes=axes, norm=norm))
defjvp(_rfftn, lambda t, ans, a, axes, norm: _rfftn(t, axes=axes, norm=norm))
defjvp(_irfftn, lambda t, ans, a, axes, norm, n: _irfftn(t, axes=axes, norm=norm, n=n))


# ---- argument handling ---------------------------------------------------------------

def _fit(a, axis, length):
    """Cut ``a`` to ``length`` along ``axis``, or pad it with zeros at the end."""
    shape = np.shape(a)
    if shape[axis] == length:
        return a
    if shape[axis] > length:
        return getitem(a, (slice(None),) * axis + (slice(0, length),))
    pad_shape = shape[:axis] + (length - shape[axis],) + shape[axis + 1:]
    return concatenate([a, zeros_in_library_of(a, pad_shape, aval(a)[1])], axis=axis)


def _check_norm(norm, function):
    if norm is None:
        return "backward"
    if norm not in _NORMS:
        raise ValueError(f"funcgrad.numpy.fft.{function}: norm must be None, 'backward', "
                         f"'ortho' or 'forward', got {norm!r}")
    return norm


def _check_length(n, function, what="n"):
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"funcgrad.numpy.fft.{function}: {what} must be an integer, got "
                        f"{n!r}") from None
    if n < 1:
        raise ValueError(f"funcgrad.numpy.fft.{function}: invalid number of FFT data points "
                         f"({what}={n}); it must be at least 1")
    return n


def _axes_and_lengths(a, s, axes, function, what="s"):
    """Normalized axes and the transform length along each (``s``, or the array's);
    ``what`` names ``s`` in errors (``n`` for the 1-D functions)."""
    ndim = np.ndim(a)
    if axes is None:
        axes = range(ndim) if s is None else range(ndim - len(s), ndim)
    elif isinstance(axes, (int, np.integer)):
        raise TypeError(f"funcgrad.numpy.fft.{function}: axes must be a sequence of ints, "
                        f"got {axes!r}")
    axes = axes_in_order(tuple(axes), ndim, function, "funcgrad.numpy.fft", "axes")
    if s is None:
        return axes, tuple(np.shape(a)[ax] for ax in axes)
    s = tuple(_check_length(length, function, what) for length in s)
    if len(s) != len(axes):
        raise ValueError(f"funcgrad.numpy.fft.{function}: s {s} and axes {axes} must have "
                         f"the same length")
    return axes, s


def _fit_all(a, axes, lengths):
    for axis, length in zip(axes, lengths):
        a = _fit(a, axis, length)
    return a


# ---- public functions ----------------------------------------------------------------

def _prepare(function, a, s, axes, norm, what):
    """The array, the checked norm, and the axes with their transform lengths."""
    a = asarray(a)
    norm = _check_norm(norm, function)
    return (a, norm) + _axes_and_lengths(a, s, axes, function, what)


def _complex_transform(transform, function, a, s, axes, norm, what="s"):
    a, norm, axes, lengths = _prepare(function, a, s, axes, norm, what)
    if not axes:  # NumPy returns the input unchanged when there is nothing to transform
        return a
    return transform(_fit_all(a, axes, lengths), axes=axes, norm=norm)


def _real_forward(function, a, s, axes, norm, what="s"):
    a, norm, axes, lengths = _prepare(function, a, s, axes, norm, what)
    if not axes:
        raise ValueError(f"funcgrad.numpy.fft.{function}: needs at least one axis")
    if aval(a)[1].kind == "c":
        raise TypeError(f"funcgrad.numpy.fft.{function}: input must be real, got dtype "
                        f"{aval(a)[1]}; use fft/fftn for complex input")
    return _rfftn(_fit_all(a, axes, lengths), axes=axes, norm=norm)


def _real_inverse(function, a, s, axes, norm, what="s"):
    a, norm, axes, lengths = _prepare(function, a, s, axes, norm, what)
    if not axes:
        raise ValueError(f"funcgrad.numpy.fft.{function}: needs at least one axis")
    n = lengths[-1]
    if s is None:  # the half spectrum of an even-length signal, as in NumPy
        n = 2 * (n - 1)
        if n < 1:
            raise ValueError(f"funcgrad.numpy.fft.{function}: the input has length 1 along "
                             f"axis {axes[-1]}, so the default output length 2 * (1 - 1) is "
                             f"0; pass the output length ({what})")
    a = _fit_all(a, axes[:-1], lengths[:-1])
    a = _fit(a, axes[-1], n // 2 + 1)
    return _irfftn(a, axes=axes, norm=norm, n=n)


def _one_axis(n, axis):
    return None if n is None else (n,), (axis,)


def fft(a, n=None, axis=-1, norm=None):
    """``numpy.fft.fft``: the 1-D discrete Fourier transform along ``axis``."""
    s, axes = _one_axis(n, axis)
    return _complex_transform(_fftn, "fft", a, s, axes, norm, what="n")


def ifft(a, n=None, axis=-1, norm=None):
    """``numpy.fft.ifft``: the 1-D inverse discrete Fourier transform along ``axis``."""
    s, axes = _one_axis(n, axis)
    return _complex_transform(_ifftn, "ifft", a, s, axes, norm, what="n")


def rfft(a, n=None, axis=-1, norm=None):
    """``numpy.fft.rfft``: the non-negative frequencies of the DFT of a real signal."""
    s, axes = _one_axis(n, axis)
    return _real_forward("rfft", a, s, axes, norm, what="n")


def irfft(a, n=None, axis=-1, norm=None):
    """``numpy.fft.irfft``: the real signal of length ``n`` (default 2 * (m - 1)) whose
    half spectrum is ``a``."""
    s, axes = _one_axis(n, axis)
    return _real_inverse("irfft", a, s, axes, norm, what="n")


def hfft(a, n=None, axis=-1, norm=None):
    """``numpy.fft.hfft``: the real spectrum (length ``n``, default 2 * (m - 1)) of a
    signal with Hermitian symmetry, given by its first half ``a``."""
    if n is None:
        n = (np.shape(a)[axis] - 1) * 2
    return irfft(conjugate(asarray(a)), n, axis, norm=_DUAL_NORM[_check_norm(norm, "hfft")])


def ihfft(a, n=None, axis=-1, norm=None):
    """``numpy.fft.ihfft``: the inverse of ``hfft``; the half spectrum of a real signal."""
    norm = _DUAL_NORM[_check_norm(norm, "ihfft")]
    return conjugate(rfft(a, n, axis, norm=norm))


def fftn(a, s=None, axes=None, norm=None):
    """``numpy.fft.fftn``: the N-D discrete Fourier transform over ``axes``."""
    return _complex_transform(_fftn, "fftn", a, s, axes, norm)


def ifftn(a, s=None, axes=None, norm=None):
    """``numpy.fft.ifftn``: the N-D inverse discrete Fourier transform over ``axes``."""
    return _complex_transform(_ifftn, "ifftn", a, s, axes, norm)


def rfftn(a, s=None, axes=None, norm=None):
    """``numpy.fft.rfftn``: the N-D DFT of a real array, halved along the last axis."""
    return _real_forward("rfftn", a, s, axes, norm)


def irfftn(a, s=None, axes=None, norm=None):
    """``numpy.fft.irfftn``: the inverse of ``rfftn``."""
    return _real_inverse("irfftn", a, s, axes, norm)


def fft2(a, s=None, axes=(-2, -1), norm=None):
    """``numpy.fft.fft2``: ``fftn`` over the last two axes."""
    return _complex_transform(_fftn, "fft2", a, s, axes, norm)


def ifft2(a, s=None, axes=(-2, -1), norm=None):
    """``numpy.fft.ifft2``: ``ifftn`` over the last two axes."""
    return _complex_transform(_ifftn, "ifft2", a, s, axes, norm)


def rfft2(a, s=None, axes=(-2, -1), norm=None):
    """``numpy.fft.rfft2``: ``rfftn`` over the last two axes."""
    return _real_forward("rfft2", a, s, axes, norm)


def irfft2(a, s=None, axes=(-2, -1), norm=None):
    """``numpy.fft.irfft2``: ``irfftn`` over the last two axes."""
    return _real_inverse("irfft2", a, s, axes, norm)


def _shift(x, axes, function, inverse):
    x = asarray(x)
    ndim = np.ndim(x)
    if axes is None:
        axes = range(ndim)
    elif isinstance(axes, (int, np.integer)):
        axes = (axes,)
    axes = axes_in_order(tuple(axes), ndim, function, "funcgrad.numpy.fft", "axes")
    halves = [np.shape(x)[axis] // 2 for axis in axes]
    return roll(x, [-half for half in halves] if inverse else halves, axes)


def fftshift(x, axes=None):
    """``numpy.fft.fftshift``: move the zero frequency to the centre."""
    return _shift(x, axes, "fftshift", inverse=False)


def ifftshift(x, axes=None):
    """``numpy.fft.ifftshift``: the inverse of ``fftshift``."""
    return _shift(x, axes, "ifftshift", inverse=True)


# Sample frequencies depend only on lengths: constants, NumPy's own.
fftfreq = np.fft.fftfreq
rfftfreq = np.fft.rfftfreq

__all__ = ["fft", "ifft", "rfft", "irfft", "fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn",
           "rfftn", "irfftn", "hfft", "ihfft", "fftshift", "ifftshift", "fftfreq", "rfftfreq"]
