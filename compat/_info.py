"""`finfo` and `iinfo`: the limits of a dtype, as PyTorch reports them (from NumPy's)."""
import numpy as np

from . import _dtypes


class finfo:
    """Limits of a floating dtype (the default float dtype when none is given); a complex
    dtype's are those of its parts' dtype, as in PyTorch."""

    __slots__ = ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype")

    def __init__(self, type=None):  # noqa: A002 -- torch's argument name
        d = _dtypes.get_default_dtype() if type is None else _dtypes.as_dtype(type, "finfo")
        if d.category not in (_dtypes.FLOAT, _dtypes.COMPLEX):
            raise TypeError("torch.finfo() requires a floating point input type. Use "
                            "torch.iinfo to handle 'torch.finfo'")
        limits = np.finfo(d.numpy)
        self.bits = limits.bits
        self.eps, self.max, self.min = float(limits.eps), float(limits.max), float(limits.min)
        self.tiny = self.smallest_normal = float(limits.smallest_normal)
        self.resolution = 10.0 ** -limits.precision  # exact, not rounded to the dtype
        self.dtype = (d.name if d.category == _dtypes.FLOAT
                      else _dtypes.from_numpy_dtype(limits.dtype).name)

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, "
                f"tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:
    """Limits of an integer dtype."""

    __slots__ = ("bits", "max", "min", "dtype")

    def __init__(self, type):  # noqa: A002 -- torch's argument name
        d = _dtypes.as_dtype(type, "iinfo")
        if d.category == _dtypes.FLOAT:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo "
                            "to handle 'torch.iinfo'")
        if d is _dtypes.bool:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        limits = np.iinfo(d.numpy)
        self.bits = limits.bits
        self.max, self.min = int(limits.max), int(limits.min)
        self.dtype = d.name

    def __repr__(self):
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"


__all__ = ["finfo", "iinfo"]
