"""Operations PyTorch records without a derivative: a backward pass through their node
raises PyTorch's error. Its generic node is named NotImplemented; some operations have one
of their own name."""
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


def without_derivative(operation, label):
    """A Function whose ``apply(input, *values)`` returns the tensors `values` with one node
    over `input` named `label`, PyTorch's for aten::`operation` (unique's, geqrf's)."""
    def forward(ctx, input, *values):
        return values if len(values) > 1 else values[0]

    def backward(ctx, *grads):
        raise NotImplementedError(f"the derivative for '{operation}' is not implemented.")
    node = type(label, (Function,), {"forward": staticmethod(forward),
                                     "backward": staticmethod(backward)})
    node._primitive.name = label
    return node
