"""funcgrad.numpy.linalg: differentiable ``numpy.linalg`` (being filled in, see issue 3)."""

__all__ = []
