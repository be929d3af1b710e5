"""funcgrad.scipy: differentiable parts of SciPy (needs SciPy installed)."""
import importlib.util

if importlib.util.find_spec("scipy") is None:
    raise ImportError("funcgrad.scipy (and funcgrad.autograd.scipy) needs SciPy, an optional "
                      "extra of funcgrad: pip install 'funcgrad[scipy]' (or scipy).")

from . import integrate, linalg, signal, special, stats  # noqa: F401,E402

__all__ = ["integrate", "linalg", "signal", "special", "stats"]
