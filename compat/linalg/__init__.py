"""torch.linalg: rows of the torch-name table (compat._torch_names), computed with
funcgrad.numpy and differentiable through its rules, and matmul (torch.matmul)."""
from .._ops import matmul
from .._table import LinAlgError
from .._torch_names import namespace

globals().update(namespace("linalg"))
__all__ = sorted(namespace("linalg")) + ["LinAlgError", "matmul"]
