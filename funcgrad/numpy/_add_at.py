"""``ufunc.at`` (``np.add.at``, ``np.maximum.at``, ``np.minimum.at``) for every array
library: values combined into an array at an index whose repeated positions all take part
(the transpose of indexing with integer arrays, and ``x.at[i].add/max/min(v)``). NumPy's
own for NumPy; libraries whose arrays cannot be written in place, or whose ufuncs have no
``at``, get their own formulation here."""
import numpy as np

from ._dask_at import dask_at


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


def _cupy_at(ufunc, out, index, values):
    """CuPy's ufuncs take no ``at`` through NumPy's protocol, but ``cupy.add.at``,
    ``cupy.maximum.at`` and ``cupy.minimum.at`` are their own (in place). They take no
    complex values (CuPy 14), so a complex sum is scattered as its real and imaginary parts."""
    import cupy
    if ufunc is np.add and out.dtype.kind == "c":
        values = cupy.asarray(values)
        parts = [cupy.zeros(out.shape, out.real.dtype) for _ in range(2)]
        cupy.add.at(parts[0], index, values.real)
        cupy.add.at(parts[1], index, values.imag)
        out += parts[0] + 1j * parts[1]
        return out
    getattr(cupy, ufunc.__name__).at(out, index, values)
    return out


# The libraries with a ufunc.at of their own, by the top-level module of their array type.
_LIBRARY_AT = {"dask": dask_at, "cupy": _cupy_at}
