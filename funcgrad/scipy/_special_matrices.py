"""scipy.linalg's matrices built from vectors (toeplitz, hankel, circulant), as gathers of
the vectors' elements, so each entry's derivative flows back to the element it copies;
and, as SciPy's own functions, the special matrices that depend only on a size (constants:
hilbert, pascal, dft, ...)."""
import numpy as np
from scipy.linalg import (dft, hadamard, helmert, hilbert, invhilbert, invpascal,  # noqa: F401
                          pascal)

from ..core import shape_of
from ..numpy.creation import asarray, zeros_like
from ..numpy.elementwise import conjugate
from ..numpy.indexing import getitem, take
from ..numpy.shape_ops import broadcast_to, concatenate, reshape


def _vector(x, name, argument, batched):
    """`x` as an array with at least one axis; more only where `batched`."""
    x = asarray(x)
    if not shape_of(x):
        return reshape(x, (1,))
    if len(shape_of(x)) > 1 and not batched:
        raise ValueError(f"funcgrad.scipy.linalg.{name}: {argument} must be 1-d, got shape "
                         f"{shape_of(x)} (SciPy ravels it today and will treat it as a "
                         f"batch from 1.19: pass each vector separately)")
    return x


def _gathered(values, indices):
    """``values[..., indices]`` for a constant integer matrix `indices`, gathered by one
    1-d index (which Dask arrays take too) and reshaped."""
    flat = take(values, indices.ravel(), axis=-1)
    return reshape(flat, shape_of(values)[:-1] + indices.shape)


def toeplitz(c, r=None):
    """``scipy.linalg.toeplitz``: first column `c`, first row `r` (its first element is
    ignored; the conjugate of `c` when None); leading axes of `c` and `r` are batches."""
    c = _vector(c, "toeplitz", "c", batched=True)
    r = conjugate(c) if r is None else _vector(r, "toeplitz", "r", batched=True)
    rows, columns = shape_of(c)[-1], shape_of(r)[-1]
    batch = np.broadcast_shapes(shape_of(c)[:-1], shape_of(r)[:-1])
    c, r = broadcast_to(c, batch + (rows,)), broadcast_to(r, batch + (columns,))
    # entry (i, j) is c[i - j] below the diagonal and r[j - i] above: one vector holding
    # r reversed (without its first element) then c, read at columns - 1 + i - j
    values = concatenate([getitem(r, (Ellipsis, slice(columns - 1, 0, -1))), c], axis=-1)
    offsets = np.arange(rows)[:, None] - np.arange(columns)[None, :]
    return _gathered(values, columns - 1 + offsets)


def hankel(c, r=None):
    """``scipy.linalg.hankel``: first column `c`, last row `r` (its first element is
    ignored; zeros when None). Both must be 1-d."""
    c = _vector(c, "hankel", "c", batched=False)
    r = zeros_like(c) if r is None else _vector(r, "hankel", "r", batched=False)
    rows, columns = shape_of(c)[0], shape_of(r)[0]
    values = concatenate([c, getitem(r, slice(1, None))], axis=0)
    return _gathered(values, np.arange(rows)[:, None] + np.arange(columns)[None, :])


def circulant(c):
    """``scipy.linalg.circulant``: each column `c` rotated down by its index; leading axes
    of `c` are batches."""
    c = _vector(c, "circulant", "c", batched=True)
    n = shape_of(c)[-1]
    return _gathered(c, (np.arange(n)[:, None] - np.arange(n)[None, :]) % n)


__all__ = ["toeplitz", "hankel", "circulant", "hilbert", "invhilbert", "pascal",
           "invpascal", "dft", "helmert", "hadamard"]
