"""The convolution layers, Conv1d/2d/3d and ConvTranspose1d/2d/3d: their settings and
parameters (drawn as PyTorch draws them), computed with `functional`."""
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
    in_channels / groups, *kernel_size), or (in_channels, out_channels / groups,
    *kernel_size) when transposed, and bias (out_channels)."""

    dims = None
    function = None

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation,
                 transposed, output_padding, groups, bias, padding_mode, device=None,
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
        self.transposed = transposed
        self.output_padding = _repeated(output_padding, self.dims)
        self.groups = groups
        self.padding_mode = padding_mode
        self._reversed_padding_repeated_twice = _pad_widths(self.padding, self.kernel_size,
                                                            self.dilation)
        dtype = _floating(dtype)
        self.weight = Parameter(empty(self._weight_shape(), dtype=dtype, device=device))
        if bias:
            self.bias = Parameter(empty(out_channels, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def _weight_shape(self):
        channels = ((self.in_channels, self.out_channels // self.groups) if self.transposed
                    else (self.out_channels, self.in_channels // self.groups))
        return channels + self.kernel_size

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self):
        text = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}")
        if self.padding != (0,) * len(self.padding):
            text += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            text += f", dilation={self.dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            text += f", output_padding={self.output_padding}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        if self.bias is None:
            text += ", bias=False"
        if self.padding_mode != "zeros":
            text += f", padding_mode={self.padding_mode}"
        return text


class _Convolution(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, bias=True, padding_mode="zeros", device=None,
                 dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         False, 0, groups, bias, padding_mode, device, dtype)

    def forward(self, input):
        if self.padding_mode == "zeros":
            return self.function(input, self.weight, self.bias, self.stride, self.padding,
                                 self.dilation, self.groups)
        padded = F.pad(input, self._reversed_padding_repeated_twice, self.padding_mode)
        return self.function(padded, self.weight, self.bias, self.stride, 0, self.dilation,
                             self.groups)


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


class Conv1d(_Convolution):
    dims = 1
    function = staticmethod(F.conv1d)


class Conv2d(_Convolution):
    dims = 2
    function = staticmethod(F.conv2d)


class Conv3d(_Convolution):
    dims = 3
    function = staticmethod(F.conv3d)


class _ConvTransposeNd(_ConvNd):
    """A transposed convolution (the gradient of a convolution with respect to its input),
    whose output sizes `output_padding` or forward's `output_size` settle where stride
    leaves several."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, bias=True, dilation=1, padding_mode="zeros",
                 device=None, dtype=None):
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for '
                             f'{type(self).__name__}')
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         True, output_padding, groups, bias, padding_mode, device, dtype)

    def forward(self, input, output_size=None):
        output_padding = (self.output_padding if output_size is None
                          else self._output_padding_for(input, output_size))
        return self.function(input, self.weight, self.bias, self.stride, self.padding,
                             output_padding, self.groups, self.dilation)

    def _output_padding_for(self, input, output_size):
        """The output_padding that gives spatial sizes `output_size` (which may also list
        the batch and channel sizes), or PyTorch's error."""
        dims = self.dims
        lead = 2 if input.dim() == dims + 2 else 1
        if len(output_size) == lead + dims:
            output_size = output_size[lead:]
        if len(output_size) != dims:
            raise ValueError(f"ConvTranspose{dims}D: for {input.dim()}D input, output_size "
                             f"must have {dims} or {lead + dims} elements (got "
                             f"{len(output_size)})")
        smallest = [(input.shape[lead + d] - 1) * self.stride[d] - 2 * self.padding[d]
                    + self.dilation[d] * (self.kernel_size[d] - 1) + 1 for d in range(dims)]
        largest = [size + step - 1 for size, step in zip(smallest, self.stride)]
        if any(not low <= size <= high
               for size, low, high in zip(output_size, smallest, largest)):
            raise ValueError(f"requested an output size of {output_size}, but valid sizes "
                             f"range from {smallest} to {largest} (for an input of "
                             f"{input.shape[2:]!r})")
        return [size - low for size, low in zip(output_size, smallest)]


class ConvTranspose1d(_ConvTransposeNd):
    dims = 1
    function = staticmethod(F.conv_transpose1d)


class ConvTranspose2d(_ConvTransposeNd):
    dims = 2
    function = staticmethod(F.conv_transpose2d)


class ConvTranspose3d(_ConvTransposeNd):
    dims = 3
    function = staticmethod(F.conv_transpose3d)
