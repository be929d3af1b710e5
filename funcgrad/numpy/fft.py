"""funcgrad.numpy.fft: differentiable ``numpy.fft`` (being filled in, see issue 3)."""

__all__ = []
