"""The padding layers (ZeroPad, ConstantPad, ReflectionPad, ReplicationPad and CircularPad,
each over 1, 2 or 3 dimensions): their widths, and F.pad in their mode."""
from collections.abc import Iterable

from . import functional as F
from .module import Module


class _PadNd(Module):
    """Pads the last `dims` dimensions by `padding`: one width for every side, or a
    sequence of widths from the last dimension forward (left, right, top, bottom, ...)."""

    dims = None
    mode = None

    def __init__(self, padding):
        super().__init__()
        if isinstance(padding, Iterable) and not isinstance(padding, str):
            self.padding = tuple(padding)
        else:
            self.padding = (padding,) * (2 * self.dims)

    def forward(self, input):
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self):
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    mode = "constant"

    def __init__(self, padding, value):
        super().__init__(padding)
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    dims = 1


class ConstantPad2d(_ConstantPadNd):
    dims = 2


class ConstantPad3d(_ConstantPadNd):
    dims = 3


class ZeroPad1d(ConstantPad1d):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad3d(ConstantPad3d):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ReflectionPad1d(_PadNd):
    dims, mode = 1, "reflect"


class ReflectionPad2d(_PadNd):
    dims, mode = 2, "reflect"


class ReflectionPad3d(_PadNd):
    dims, mode = 3, "reflect"


class ReplicationPad1d(_PadNd):
    dims, mode = 1, "replicate"


class ReplicationPad2d(_PadNd):
    dims, mode = 2, "replicate"


class ReplicationPad3d(_PadNd):
    dims, mode = 3, "replicate"


class _CircularPadNd(_PadNd):
    mode = "circular"

    def forward(self, input):
        if input.dim() not in (self.dims + 1, self.dims + 2):
            raise ValueError(f"expected {self.dims + 1}D or {self.dims + 2}D input (got "
                             f"{input.dim()}D input)")
        return super().forward(input)


class CircularPad1d(_CircularPadNd):
    dims = 1


class CircularPad2d(_CircularPadNd):
    dims = 2


class CircularPad3d(_CircularPadNd):
    dims = 3
