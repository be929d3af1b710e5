"""Operations PyTorch records without a derivative: their node is named NotImplemented, and
a backward pass through it raises PyTorch's error."""
from .autograd.function import Function


def not_implemented(operation):
    """A Function whose ``apply(*inputs, values)`` returns the tensor `values` with such a
    node over `inputs`, PyTorch's for aten::`operation`."""
    def backward(ctx, grad):
        raise RuntimeError(f"derivative for aten::{operation} is not implemented")
    node = type("NotImplemented", (Function,), {
        "forward": staticmethod(lambda ctx, *arguments: arguments[-1]),
        "backward": staticmethod(backward)})
    node._primitive.name = "NotImplemented"  # (a Function's node is otherwise X + "Backward")
    return node
