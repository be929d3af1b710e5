"""A model's parameters as one vector and back (``nn.utils.parameters_to_vector``)."""
from ... import _ops
from ..._tensor import Tensor, typename


def parameters_to_vector(parameters):
    """The parameters flattened and concatenated (a differentiable view of them)."""
    return _ops.cat([param.view(-1) for param in parameters])


def vector_to_parameters(vec, parameters):
    """Make each parameter's data the next slice of `vec` (shared, not copied)."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {typename(vec)}")
    start = 0
    for param in parameters:
        size = param.numel()
        param.data = vec[start:start + size].view_as(param).data
        start += size
