"""The lazy modules: LazyModuleMixin and the layers built on it (LazyLinear, LazyConv*d,
LazyConvTranspose*d, LazyBatchNorm*d, LazyInstanceNorm*d), whose parameters and buffers stay
uninitialized until the first forward infers their input size; that call materializes and
draws them (as the non-lazy layer draws its own) and turns the module into that layer."""
from .. import _dtypes
from .._factories import tensor
from .._grad_mode import no_grad
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .layers import Linear
from .normalization import (BatchNorm1d, BatchNorm2d, BatchNorm3d, InstanceNorm1d,
                            InstanceNorm2d, InstanceNorm3d)
from .parameter import UninitializedBuffer, UninitializedParameter, is_lazy


class LazyModuleMixin:
    """Put before a Module class: until its first call, the module's uninitialized members
    wait for `initialize_parameters(*args)` (which the call runs first) to give them
    shapes; then the module becomes a `cls_to_become` (when set). Loading a state_dict
    materializes the members it has values for."""

    cls_to_become = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._initialize_hook = self.register_forward_pre_hook(self._infer_parameters)

    def initialize_parameters(self, *args, **kwargs):
        raise NotImplementedError(
            f"initialize_parameters is not implemented for {type(self).__name__}")

    def has_uninitialized_params(self):
        """Whether any parameter or buffer of this module (not its children) waits for a
        shape."""
        members = list(self._parameters.values()) + list(self._buffers.values())
        return any(is_lazy(member) for member in members)

    def _infer_parameters(self, module, args):
        module.initialize_parameters(*args)
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {self._get_name()} has not been fully initialized")
        module._initialize_hook.remove()
        del module._initialize_hook
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        # An uninitialized member goes in as itself (it has no storage to detach).
        for name, member in self._state_members():
            keep = keep_vars or is_lazy(member)
            destination[prefix + name] = member if keep else member.detach()

    def _load_from_state_dict(self, state_dict, prefix, expected, errors):
        with no_grad():
            for name, member in self._state_members():
                value = state_dict.get(prefix + name)
                if is_lazy(member) and value is not None and not is_lazy(value):
                    member.materialize(value.shape)
        super()._load_from_state_dict(state_dict, prefix, expected, errors)


class LazyLinear(LazyModuleMixin, Linear):
    """A Linear whose in_features is the last dimension of its first input."""

    cls_to_become = Linear

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        super().__init__(0, 0, False)
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if self.has_uninitialized_params():
            with no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()
        if self.in_features == 0:  # the weight came from a state_dict: its size is in_features
            if input.shape[-1] != self.weight.shape[-1]:
                raise AssertionError(f"The in_features inferred from input: {input.shape[-1]} "
                                     f"is not equal to in_features from self.weight: "
                                     f"{self.weight.shape[-1]}")
            self.in_features = input.shape[-1]


class _LazyConvMixin(LazyModuleMixin):
    """A convolution whose in_channels is the channel dimension of its first input."""

    def _await_shapes(self, out_channels, bias, device, dtype):
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input, *args, **kwargs):
        if self.has_uninitialized_params():
            self.in_channels = self._in_channels_of(input)
            if self.in_channels % self.groups != 0:
                raise ValueError("in_channels must be divisible by groups")
            self.weight.materialize(self._weight_shape())
            if self.bias is not None:
                self.bias.materialize((self.out_channels,))
            self.reset_parameters()

    def _in_channels_of(self, input):
        unbatched = self.dims + 1
        if input.dim() not in (unbatched, unbatched + 1):
            raise RuntimeError(f"Expected {unbatched}D (unbatched) or {unbatched + 1}D "
                               f"(batched) input to {type(self).__name__}, but got input of "
                               f"size: {input.shape}")
        return input.shape[input.dim() - unbatched]


class _LazyConvolution(_LazyConvMixin):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):
        super().__init__(0, 0, kernel_size, stride, padding, dilation, groups, False,
                         padding_mode, device, dtype)
        self._await_shapes(out_channels, bias, device, dtype)


class _LazyConvTransposition(_LazyConvMixin):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, output_padding=0,
                 groups=1, bias=True, dilation=1, padding_mode="zeros", device=None,
                 dtype=None):
        super().__init__(0, 0, kernel_size, stride, padding, output_padding, groups, False,
                         dilation, padding_mode, device, dtype)
        self._await_shapes(out_channels, bias, device, dtype)


class LazyConv1d(_LazyConvolution, Conv1d):
    cls_to_become = Conv1d


class LazyConv2d(_LazyConvolution, Conv2d):
    cls_to_become = Conv2d


class LazyConv3d(_LazyConvolution, Conv3d):
    cls_to_become = Conv3d


class LazyConvTranspose1d(_LazyConvTransposition, ConvTranspose1d):
    cls_to_become = ConvTranspose1d


class LazyConvTranspose2d(_LazyConvTransposition, ConvTranspose2d):
    cls_to_become = ConvTranspose2d


class LazyConvTranspose3d(_LazyConvTransposition, ConvTranspose3d):
    cls_to_become = ConvTranspose3d


class _LazyNorm(LazyModuleMixin):
    """A batch or instance normalisation whose num_features is dimension 1 of its first
    input. (Unlike InstanceNorm's, the lazy instance norms' defaults are PyTorch's
    BatchNorm ones: affine, with running statistics.)"""

    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True,
                 device=None, dtype=None, *, bias=True):
        super().__init__(0, eps, momentum, False, False, device, dtype, bias=False)
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = UninitializedParameter(device=device, dtype=dtype)
            if bias:
                self.bias = UninitializedParameter(device=device, dtype=dtype)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(device=device, dtype=dtype)
            self.running_var = UninitializedBuffer(device=device, dtype=dtype)
            self.num_batches_tracked = tensor(0, dtype=_dtypes.int64, device=device)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if self.has_uninitialized_params():
            self.num_features = input.shape[1]
            for member in (self.weight, self.bias, self.running_mean, self.running_var):
                if member is not None:
                    member.materialize((self.num_features,))
            self.reset_parameters()


class LazyBatchNorm1d(_LazyNorm, BatchNorm1d):
    cls_to_become = BatchNorm1d


class LazyBatchNorm2d(_LazyNorm, BatchNorm2d):
    cls_to_become = BatchNorm2d


class LazyBatchNorm3d(_LazyNorm, BatchNorm3d):
    cls_to_become = BatchNorm3d


class LazyInstanceNorm1d(_LazyNorm, InstanceNorm1d):
    cls_to_become = InstanceNorm1d


class LazyInstanceNorm2d(_LazyNorm, InstanceNorm2d):
    cls_to_become = InstanceNorm2d


class LazyInstanceNorm3d(_LazyNorm, InstanceNorm3d):
    cls_to_become = InstanceNorm3d
