"""torch's process-wide defaults beside the dtype: the default device (always the CPU in
compat), the legacy set_default_tensor_type, and torch.get_device."""
from . import _device, _dtypes, _factories
from ._runtime import warn_once
from ._tensor import require_tensor


def get_default_device():
    """The CPU: the only device compat computes on."""
    return _device.device("cpu")


def set_default_device(device):
    """Accept the CPU (or None, the CPU again) as the default device; PyTorch's error for
    any other, raised here where PyTorch raises it on the first tensor made there."""
    _device.check(device)


def set_default_tensor_type(t):
    """Make the dtype of the legacy type `t` (``compat.DoubleTensor`` or its name
    ``'torch.DoubleTensor'``) the default floating dtype, as set_default_dtype does."""
    warn_once("torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
              "torch.set_default_dtype() and torch.set_default_device() as alternatives.",
              stacklevel=2)
    if isinstance(t, str):
        t = _legacy_type(t)
    if not isinstance(t, _factories.TensorType):
        raise TypeError("invalid type object: only floating-point types are supported as the "
                        "default type")
    if not t.dtype.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _dtypes.set_default_dtype(t.dtype)


def _legacy_type(name):
    """The legacy type named ``'torch.FloatTensor'``, with the errors of PyTorch's look-up
    of the name."""
    module, _, attribute = name.rpartition(".")
    if module == "torch.cuda":
        raise TypeError(f"type {name} not available. Torch not compiled with CUDA enabled.")
    if module != "torch":
        raise ModuleNotFoundError(f"No module named '{name.partition('.')[0]}'")
    if not hasattr(_factories, attribute):
        raise AttributeError(f"module 'torch' has no attribute '{attribute}'")
    return getattr(_factories, attribute)


def get_device(input):
    """The index of the tensor's device: -1, the CPU's."""
    require_tensor(input, "get_device", "input", 1)
    return input.get_device()


__all__ = ["get_default_device", "set_default_device", "set_default_tensor_type",
           "get_device"]
