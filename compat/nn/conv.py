"""The convolution layers, Conv1d and Conv2d: their settings and parameters (drawn as
PyTorch draws them), computed with `functional`."""
import math

from .._factories import empty
from . import functional as F
from . import init
from .layers import _floating
from .module import Module
from .parameter import Parameter

_PADDING_STRINGS = ("same", "valid")
_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


def _repeated(value, dims):
    """PyTorch's _single/_pair: a sequence as a tuple, anything else repeated `dims` times."""
    if isinstance(value, (tuple, list)):
        return tuple(value)
    return (value,) * dims


class _ConvNd(Module):
    """A convolution over `dims` spatial dimensions, its weight (out_channels,
    in_channels / groups, *kernel_size) and bias (out_channels)."""

    dims = None
    function = None

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, bias=True, padding_mode="zeros", device=None,
                 dtype=None):
        super().__init__()
        stride = _repeated(stride, self.dims)
        _check_settings(in_channels, out_channels, stride, padding, groups, padding_mode)
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = _repeated(kernel_size, self.dims)
        self.stride = stride
        self.padding = padding if isinstance(padding, str) else _repeated(padding, self.dims)
        self.dilation = _repeated(dilation, self.dims)
        self.transposed = False
        self.output_padding = (0,) * self.dims
        self.groups = groups
        self.padding_mode = padding_mode
        self._reversed_padding_repeated_twice = _pad_widths(self.padding, self.kernel_size,
                                                            self.dilation)
        dtype = _floating(dtype)
        self.weight = Parameter(empty((out_channels, in_channels // groups)
                                      + self.kernel_size, dtype=dtype, device=device))
        if bias:
            self.bias = Parameter(empty(out_channels, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        if self.padding_mode == "zeros":
            return self.function(input, self.weight, self.bias, self.stride, self.padding,
                                 self.dilation, self.groups)
        padded = F.pad(input, self._reversed_padding_repeated_twice, self.padding_mode)
        return self.function(padded, self.weight, self.bias, self.stride, 0, self.dilation,
                             self.groups)

    def extra_repr(self):
        text = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}")
        if self.padding != (0,) * len(self.padding):
            text += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            text += f", dilation={self.dilation}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        if self.bias is None:
            text += ", bias=False"
        if self.padding_mode != "zeros":
            text += f", padding_mode={self.padding_mode}"
        return text


def _check_settings(in_channels, out_channels, stride, padding, groups, padding_mode):
    """PyTorch's refusals of a convolution layer's settings, in its order."""
    if groups <= 0:
        raise ValueError("groups must be a positive integer")
    if in_channels % groups != 0:
        raise ValueError("in_channels must be divisible by groups")
    if out_channels % groups != 0:
        raise ValueError("out_channels must be divisible by groups")
    if isinstance(padding, str):
        if padding not in _PADDING_STRINGS:
            raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                             f"{set(_PADDING_STRINGS)}")
        if padding == "same" and any(step != 1 for step in stride):
            raise ValueError("padding='same' is not supported for strided convolutions")
    if padding_mode not in _PADDING_MODES:
        raise ValueError(f"padding_mode must be one of {set(_PADDING_MODES)}, but got "
                         f"padding_mode='{padding_mode}'")


def _pad_widths(padding, kernel_size, dilation):
    """The widths F.pad takes for a padding_mode other than 'zeros' (from the last dimension
    forward, each side's): 'same' splits each dilated kernel's extent less one, the odd
    element on the right."""
    if padding == "valid":
        return (0, 0) * len(kernel_size)
    if padding == "same":
        totals = [spacing * (size - 1) for spacing, size in zip(dilation, kernel_size)]
        padding = [(total // 2, total - total // 2) for total in totals]
    else:
        padding = [(p, p) for p in padding]
    return tuple(width for pair in reversed(padding) for width in pair)


class Conv1d(_ConvNd):
    dims = 1
    function = staticmethod(F.conv1d)


class Conv2d(_ConvNd):
    dims = 2
    function = staticmethod(F.conv2d)
