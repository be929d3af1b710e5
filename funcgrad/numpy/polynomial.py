"""Polynomials as NumPy's legacy ``numpy.poly*`` functions write them: 1-D coefficient
arrays, highest power first (``polyval`` lives with the products). Every function is a
composition of differentiable ones, so derivatives come for free."""
import operator
import warnings

import numpy as np

from ..core import Box, dtype_of, shape_of, unbox_all
from . import linalg, reductions
from ._base import astype
from .creation import asarray
from .elementwise import add, multiply, negative, real, sqrt, subtract, true_divide
from .indexing import getitem
from .products import convolve
from .shape_ops import atleast_1d, concatenate, reshape, stack


def _leading_zeros(coefficients, dtype):
    return np.zeros((coefficients,), dtype)


def _as_coefficients(p, name):
    p = atleast_1d(asarray(p))
    if len(shape_of(p)) != 1:
        raise ValueError(f"funcgrad.numpy.{name}: coefficients must be a 1-D array, got "
                         f"shape {shape_of(p)}")
    return p


def poly(seq_of_zeros):
    """``numpy.poly``: the coefficients of the monic polynomial with roots
    ``seq_of_zeros``, or, for a square matrix, of its characteristic polynomial. As in
    NumPy, complex roots in conjugate pairs give real coefficients."""
    zeros = atleast_1d(asarray(seq_of_zeros))
    shape = shape_of(zeros)
    if len(shape) == 2 and shape[0] == shape[1] and shape[0] != 0:
        zeros = linalg.eigvals(zeros)
    elif len(shape) == 1:
        # NumPy's mintypecode: float32 and complex64 are kept, anything else is float64.
        if dtype_of(zeros).char not in "fdgFDG":
            zeros = astype(zeros, np.float64)
    else:
        raise ValueError(f"funcgrad.numpy.poly: input must be 1-D or a non-empty square "
                         f"matrix, got shape {shape}")
    if shape_of(zeros)[0] == 0:
        return 1.0
    dtype = dtype_of(zeros)
    coefficients = np.ones((1,), dtype)
    for i in range(shape_of(zeros)[0]):
        factor = stack([np.ones((), dtype), negative(getitem(zeros, i))])
        coefficients = convolve(coefficients, factor, mode="full")
    if dtype.kind == "c":
        roots = np.asarray(unbox_all(zeros), complex)
        if np.all(np.sort(roots) == np.sort(roots.conjugate())):
            coefficients = real(coefficients)
    return coefficients


def _aligned(a1, a2, name):
    """Both coefficient arrays, the shorter padded with leading zeros."""
    a1, a2 = _as_coefficients(a1, name), _as_coefficients(a2, name)
    diff = shape_of(a2)[0] - shape_of(a1)[0]
    if diff > 0:
        a1 = concatenate([_leading_zeros(diff, dtype_of(a1)), a1])
    elif diff < 0:
        a2 = concatenate([_leading_zeros(-diff, dtype_of(a2)), a2])
    return a1, a2


def polyadd(a1, a2):
    """``numpy.polyadd``: the sum of two polynomials."""
    return add(*_aligned(a1, a2, "polyadd"))


def polysub(a1, a2):
    """``numpy.polysub``: the difference of two polynomials, ``a1 - a2``."""
    return subtract(*_aligned(a1, a2, "polysub"))


def polymul(a1, a2):
    """``numpy.polymul``: the product of two polynomials (a convolution)."""
    return convolve(_as_coefficients(a1, "polymul"), _as_coefficients(a2, "polymul"))


def polyder(p, m=1):
    """``numpy.polyder``: the ``m``-th derivative of a polynomial."""
    m = operator.index(m)
    if m < 0:
        raise ValueError(f"funcgrad.numpy.polyder: the order m must be non-negative, got {m} "
                         f"(use polyint to integrate)")
    p = asarray(p)
    for _ in range(m):
        n = shape_of(p)[0] - 1
        p = multiply(getitem(p, slice(None, -1)), np.arange(n, 0, -1))
    return p


def polyint(p, m=1, k=None):
    """``numpy.polyint``: the ``m``-th antiderivative of a polynomial, with integration
    constants ``k`` (a scalar, or ``m`` of them, the first used first; default 0)."""
    m = operator.index(m)
    if m < 0:
        raise ValueError(f"funcgrad.numpy.polyint: the order m must be non-negative, got {m} "
                         f"(use polyder to differentiate)")
    p = asarray(p)
    if m == 0:
        return p
    k = np.zeros(m, float) if k is None else atleast_1d(asarray(k))
    if shape_of(k)[0] == 1 and m > 1:
        k = multiply(getitem(k, 0), np.ones(m, float))
    if shape_of(k)[0] < m:
        raise ValueError(f"funcgrad.numpy.polyint: k must be a scalar or hold m={m} "
                         f"integration constants, got {shape_of(k)[0]}")
    for i in range(m):
        p = true_divide(p, np.arange(shape_of(p)[0], 0, -1))
        p = concatenate([p, reshape(getitem(k, i), (1,))])
    return p


def polydiv(u, v, trim_leading_zeros=True):
    """``numpy.polydiv``: quotient and remainder of ``u / v``.

    As in NumPy, the remainder's leading (near-)zeros are dropped. The first
    ``len(u) - len(v) + 1`` coefficients are zero by construction (up to rounding) and carry no
    derivative. A later one carries one, so dropping it under differentiation raises.
    ``trim_leading_zeros=False`` keeps all ``len(u)`` coefficients, as ``jax.numpy.polydiv``
    does by default."""
    u = add(_as_coefficients(u, "polydiv"), 0.0)
    v = add(_as_coefficients(v, "polydiv"), 0.0)
    dtype = np.result_type(dtype_of(u), dtype_of(v))
    m, n = shape_of(u)[0] - 1, shape_of(v)[0] - 1
    remainder = astype(u, dtype)
    quotient = []
    scale = true_divide(1.0, getitem(v, 0))  # as NumPy: its rounding decides what is trimmed
    for i in range(m - n + 1):
        d = multiply(scale, getitem(remainder, i))
        quotient.append(d)
        shifted = concatenate([np.zeros(i, dtype), v, np.zeros(m - n - i, dtype)])
        remainder = subtract(remainder, multiply(d, shifted))
    quotient = astype(stack(quotient), dtype) if quotient else np.zeros(1, dtype)
    if trim_leading_zeros:
        remainder = _trim_remainder(remainder, structural_zeros=max(m - n + 1, 0))
    return quotient, remainder


def _trim_remainder(remainder, structural_zeros):
    # NumPy's test, so the lengths agree with NumPy's even where rounding leaves a
    # "structural" zero above its tolerance.
    dropped = 0
    while (shape_of(remainder)[0] > 1
           and np.allclose(unbox_all(getitem(remainder, 0)), 0, rtol=1e-14)):
        if dropped >= structural_zeros and isinstance(getitem(remainder, 0), Box):
            raise ValueError(
                "funcgrad.numpy.polydiv: the remainder's leading coefficient is (near) zero, "
                "which NumPy drops, but it depends on the differentiated inputs, so dropping it "
                "would lose its derivative; pass trim_leading_zeros=False to keep the "
                "remainder at len(u) coefficients (leading zeros included)")
        remainder = getitem(remainder, slice(1, None))
        dropped += 1
    return remainder


def vander(x, N=None, increasing=False):
    """``numpy.vander``: the matrix of powers ``x**(N-1), ..., x, 1`` of a 1-D ``x``
    (``N`` columns, default ``len(x)``; lowest power first if ``increasing``)."""
    x = asarray(x)
    if len(shape_of(x)) != 1:
        raise ValueError(f"funcgrad.numpy.vander: x must be 1-D, got shape {shape_of(x)}")
    N = shape_of(x)[0] if N is None else operator.index(N)
    dtype = np.promote_types(dtype_of(x), int)
    x = astype(x, dtype)
    columns = [np.ones(shape_of(x), dtype)] if N > 0 else []
    while len(columns) < N:
        # Repeated products, as NumPy's multiply.accumulate (x ** 0 has no kink at 0).
        columns.append(x if len(columns) == 1 else multiply(columns[-1], x))
    if not columns:
        return np.empty((shape_of(x)[0], 0), dtype)
    return stack(columns if increasing else columns[::-1], axis=1)


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """``numpy.polyfit``: the least-squares polynomial of degree ``deg`` through the points
    ``(x, y)`` (``y`` may hold several data sets as columns), weighted by ``w``."""
    if full or cov:
        raise NotImplementedError("funcgrad.numpy.polyfit: full=True and cov=True are not "
                                  "supported; compute residuals or covariances from the "
                                  "coefficients (e.g. with polyval and linalg.inv)")
    order = operator.index(deg) + 1
    x, y = add(asarray(x), 0.0), add(asarray(y), 0.0)
    if order < 1:
        raise ValueError(f"funcgrad.numpy.polyfit: deg must be non-negative, got {deg}")
    if len(shape_of(x)) != 1 or shape_of(x)[0] == 0:
        raise TypeError(f"funcgrad.numpy.polyfit: x must be a non-empty 1-D array, got shape "
                        f"{shape_of(x)}")
    if len(shape_of(y)) not in (1, 2) or shape_of(y)[0] != shape_of(x)[0]:
        raise TypeError(f"funcgrad.numpy.polyfit: y must be 1-D or 2-D with as many rows as x "
                        f"has points, got shapes {shape_of(x)} and {shape_of(y)}")
    if rcond is None:
        rcond = shape_of(x)[0] * np.finfo(dtype_of(x)).eps
    lhs, rhs = vander(x, order), y
    if w is not None:
        w = add(asarray(w), 0.0)
        if shape_of(w) != shape_of(x):
            raise TypeError(f"funcgrad.numpy.polyfit: w must be 1-D with one weight per point, "
                            f"got shape {shape_of(w)}")
        lhs = multiply(lhs, reshape(w, (-1, 1)))
        rhs = multiply(rhs, reshape(w, (-1, 1)) if len(shape_of(rhs)) == 2 else w)
    # Scaling the columns to unit norm improves the conditioning, as in NumPy.
    scale = sqrt(reductions.sum(multiply(lhs, lhs), axis=0))
    lhs = true_divide(lhs, scale)
    c, _, rank, _ = linalg.lstsq(lhs, rhs, rcond)
    if rank != order:
        warnings.warn("Polyfit may be poorly conditioned", np.exceptions.RankWarning,
                      stacklevel=2)
    return true_divide(c, reshape(scale, (-1, 1)) if len(shape_of(c)) == 2 else scale)


def roots(p):
    """``numpy.roots``: the roots of a polynomial, the eigenvalues of its companion matrix.
    Like JAX (and unlike NumPy, whose dtype depends on the values), they are always
    complex. Leading zero coefficients are dropped; trailing ones, unlike in NumPy, stay in
    the companion matrix, so the roots at 0 they give are differentiable, as in JAX."""
    p = _as_coefficients(p, "roots")
    nonzero = np.flatnonzero(unbox_all(p))
    complex_dtype = np.result_type(dtype_of(p), np.complex64)
    if nonzero.size == 0 or shape_of(p)[0] - int(nonzero[0]) < 2:
        return np.zeros(0, complex_dtype)
    p = getitem(p, slice(int(nonzero[0]), None))
    if dtype_of(p).kind not in "fc":
        p = astype(p, np.float64)
    n = shape_of(p)[0]
    first_row = negative(true_divide(getitem(p, slice(1, None)), getitem(p, 0)))
    shift = np.eye(n - 2, n - 1, dtype=dtype_of(p))
    return linalg.eigvals(concatenate([reshape(first_row, (1, n - 1)), shift]))


__all__ = ["poly", "polyadd", "polysub", "polymul", "polyder", "polyint", "polydiv",
           "polyfit", "roots", "vander"]
