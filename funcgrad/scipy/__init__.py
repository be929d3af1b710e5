"""funcgrad.scipy: differentiable parts of SciPy (needs SciPy installed)."""
from . import signal, special, stats  # noqa: F401

__all__ = ["signal", "special", "stats"]
