"""funcgrad.scipy: differentiable parts of SciPy (needs SciPy installed)."""
from . import special, stats  # noqa: F401

__all__ = ["special", "stats"]
