"""torch.special: rows of the torch-name table (compat._torch_names), computed with
funcgrad.numpy and differentiable through its rules, and torch's softmax functions."""
from .._ops import log_softmax, softmax
from .._torch_names import namespace

globals().update(namespace("special"))
__all__ = sorted([*namespace("special"), "softmax", "log_softmax"])
