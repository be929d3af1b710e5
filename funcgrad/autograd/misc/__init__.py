"""autograd's ``misc``: flattening, optimizers and fixed points."""
from .flatten import flatten

__all__ = ["flatten"]
