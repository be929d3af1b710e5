"""torch.special: rows of the torch-name table (compat._torch_names), computed with
funcgrad.numpy and differentiable through its rules."""
from .._torch_names import namespace

globals().update(namespace("special"))
__all__ = sorted(namespace("special"))
