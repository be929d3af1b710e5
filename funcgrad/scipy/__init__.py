"""funcgrad.scipy: differentiable parts of SciPy (needs SciPy installed)."""
from . import integrate, linalg, signal, special, stats  # noqa: F401

__all__ = ["integrate", "linalg", "signal", "special", "stats"]
