"""``r_`` and ``c_``: NumPy's index-expression shorthands for joining arrays,
``r_[a, 0:3, b]`` and ``c_[x, y]``, built on `concatenate` so traced pieces stay traced."""
import numpy as np

from .creation import arange, array, linspace
from .shape_ops import concatenate, reshape

# What NumPy treats as a scalar item (kept weakly typed when choosing the result's dtype).
_SCALARS = (int, float, complex, bool, np.generic)


class _Concatenator:
    """Joins the items of an index expression along ``axis``.

    Each item is a slice (``start:stop:step`` as `arange`, or ``start:stop:nj`` as
    `linspace` with n points), a scalar, or an array-like, traced or not; items with fewer
    than ``ndmin`` dimensions gain axes of length 1, their own axes starting at position
    ``trans1d`` (-1: at the end). A leading string ``"axis"``, ``"axis,ndmin"`` or
    ``"axis,ndmin,trans1d"`` overrides the defaults, as in NumPy.
    """

    __slots__ = ("name", "axis", "ndmin", "trans1d")

    def __init__(self, name, axis, ndmin, trans1d):
        self.name, self.axis, self.ndmin, self.trans1d = name, axis, ndmin, trans1d

    def __getitem__(self, key):
        items = key if isinstance(key, tuple) else (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        if items and isinstance(items[0], str):
            axis, ndmin, trans1d = self._directive(items[0], ndmin, trans1d)
            items = items[1:]
        pieces, dtype_hints = [], []
        for item in items:
            if isinstance(item, str):
                raise ValueError(f"funcgrad.numpy.{self.name}: a string directive must be the "
                                 f"first item, found {item!r} later.")
            if isinstance(item, slice):
                piece = self._range(item)
                hint = piece.dtype
            elif isinstance(item, _SCALARS):
                piece = hint = item
            else:
                piece = array(item)
                hint = piece.dtype
            pieces.append(piece)
            dtype_hints.append(hint)
        if not pieces:
            raise ValueError(f"funcgrad.numpy.{self.name}: nothing to join; give at least "
                             f"one array, scalar or slice.")
        dtype = np.result_type(*dtype_hints)
        pieces = [self._lift(array(piece, dtype), ndmin, trans1d) for piece in pieces]
        return concatenate(pieces, axis=axis)

    def _directive(self, text, ndmin, trans1d):
        if text in ("r", "c"):
            raise ValueError(
                f"funcgrad.numpy.{self.name}: the directives 'r' and 'c' build numpy.matrix "
                f"objects, which funcgrad does not support; join the arrays and use "
                f"funcgrad.numpy.atleast_2d or reshape for a row or column.")
        try:
            numbers = [int(part) for part in text.split(",")]
        except ValueError:
            numbers = []
        if not 1 <= len(numbers) <= 3:
            raise ValueError(f"funcgrad.numpy.{self.name}: unknown directive {text!r}; write "
                             f"'axis', 'axis,ndmin' or 'axis,ndmin,trans1d' (integers).")
        defaults = [None, ndmin, trans1d]
        axis, ndmin, trans1d = numbers + defaults[len(numbers):]
        return axis, ndmin, trans1d

    def _range(self, item):
        start = 0 if item.start is None else item.start
        step = 1 if item.step is None else item.step
        if isinstance(step, (complex, np.complexfloating)):
            return linspace(start, item.stop, num=int(abs(step)))
        return arange(start, item.stop, step)

    def _lift(self, x, ndmin, trans1d):
        """``x`` with ndmin dimensions: length-1 axes around its own, which start at
        trans1d (counted from the end when negative, -1 putting them last)."""
        shape = np.shape(x)
        missing = ndmin - len(shape)
        if missing <= 0:
            return x
        start = trans1d if trans1d >= 0 else trans1d + missing + 1
        if not 0 <= start <= missing:
            raise ValueError(
                f"funcgrad.numpy.{self.name}: trans1d={trans1d} puts the axes of a "
                f"{len(shape)}-d item outside the {ndmin} dimensions asked for.")
        return reshape(x, (1,) * start + shape + (1,) * (missing - start))

    def __repr__(self):
        return f"funcgrad.numpy.{self.name}"


r_ = _Concatenator("r_", axis=0, ndmin=1, trans1d=-1)
c_ = _Concatenator("c_", axis=-1, ndmin=2, trans1d=0)

__all__ = ["r_", "c_"]
