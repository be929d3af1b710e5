"""torch.typename: how PyTorch's messages name the type of a value."""
from ._tensor import Tensor


def typename(value):
    """'torch.FloatTensor' for a float32 tensor, else the type's qualified name
    ('numpy.ndarray'), without a module for builtins ('float')."""
    if isinstance(value, Tensor):
        return f"torch.{value.dtype.legacy_name}"
    kind = type(value)
    if kind.__module__ in ("", "builtins"):
        return kind.__qualname__
    return f"{kind.__module__}.{kind.__qualname__}"
