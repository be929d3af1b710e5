"""funcgrad.numpy.lib: the parts of ``numpy.lib`` that funcgrad differentiates."""
from . import stride_tricks  # noqa: F401

__all__ = ["stride_tricks"]
