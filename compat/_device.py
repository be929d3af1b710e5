"""Devices: `compat.device` and the check every factory and `.to()` makes of a device.

compat computes with NumPy on the CPU, so it behaves as a CPU-only build of PyTorch:
``device('cuda')`` can be named (scripts build it before asking for it), but a tensor
on it cannot be made, and the error is PyTorch's own ("Torch not compiled with CUDA
enabled"), the text a user searches for.
"""
import numbers

_builtin_type = type  # `type` is an argument of device(), as in torch

# The device types PyTorch's parser accepts, in the order its error message lists them.
_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
          "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia",
          "privateuseone")
# What PyTorch built without an accelerator raises on making a tensor there.
_NOT_BUILT = {"cuda": (AssertionError, "Torch not compiled with CUDA enabled"),
              "xpu": (AssertionError, "Torch not compiled with XPU enabled"),
              "mps": (RuntimeError, "PyTorch is not linked with support for mps devices")}
NO_ACCELERATOR = "Cannot access accelerator device when none is available."


class device:
    """A device name, as ``torch.device``: ``device('cpu')``, ``device('cuda', 0)``,
    ``device('cuda:1')``. Only the CPU holds tensors (see `check`)."""

    __slots__ = ("type", "index")

    def __init__(self, type, index=None):  # noqa: A002 -- torch's argument names
        if isinstance(type, device):
            self.type, self.index = type.type, type.index
            return
        if isinstance(type, numbers.Integral) and not isinstance(type, bool):
            raise RuntimeError(NO_ACCELERATOR)
        if not isinstance(type, str):
            raise TypeError(f"device(): expected a device name such as 'cpu' or 'cuda:0', or "
                            f"a torch.device, got {_builtin_type(type).__name__}")
        name, _, given = type.partition(":")
        if name not in _TYPES:
            if name.strip() != name or not name:
                raise RuntimeError(f"Invalid device string: {type!r}")
            raise RuntimeError(f"Expected one of {', '.join(_TYPES)} device type at start of "
                               f"device string: {type}")
        if given:
            if index is not None or not given.isdigit():
                raise RuntimeError(f"Invalid device string: {type!r}")
            index = int(given)
        if index is not None:
            if not isinstance(index, numbers.Integral) or isinstance(index, bool):
                raise TypeError(f"device(): argument 'index' (position 2) must be int, not "
                                f"{_builtin_type(index).__name__}")
            if index < 0:
                raise RuntimeError("Device index must not be negative")
            index = int(index)
        self.type, self.index = name, index

    def __repr__(self):
        if self.index is None:
            return f"device(type={self.type!r})"
        return f"device(type={self.type!r}, index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        if not isinstance(other, device):
            return NotImplemented
        return self.type == other.type and self.index == other.index

    def __hash__(self):
        return hash((self.type, self.index))

    def __reduce__(self):
        return device, (self.type, self.index)


CPU = device("cpu")


def check(where):
    """Raise PyTorch's error unless `where` (None, a name or a device) is the CPU."""
    if where is None or where is CPU or where == "cpu":
        return
    place = where if isinstance(where, device) else device(where)
    if place.type == "cpu":
        return
    error, message = _NOT_BUILT.get(place.type, (RuntimeError, None))
    raise error(message or f"compat computes on the CPU only; it cannot make a tensor on "
                           f"device {str(place)!r}. Use device='cpu'.")


def is_device(obj):
    """Whether `obj` names a device (an argument of ``.to()`` that is not a dtype)."""
    return isinstance(obj, (device, str)) or (isinstance(obj, numbers.Integral)
                                              and not isinstance(obj, bool))


__all__ = ["device"]
