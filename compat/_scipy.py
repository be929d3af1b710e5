"""funcgrad.scipy's functions for compat's operations of SciPy's (erf, lgamma, digamma,
torch.linalg's triangular solves, ...), each imported at its first call: compat itself
needs NumPy only, and without SciPy those operations raise funcgrad.scipy's ImportError,
which names the extra to install."""
import importlib


class _Deferred:
    """funcgrad.scipy.<module>: ``special.erf`` is a function that looks ``erf`` up when
    called."""

    def __init__(self, module):
        self._module = f"funcgrad.scipy.{module}"

    def __getattr__(self, name):
        module = self._module

        def call(*args, **kwargs):
            return getattr(importlib.import_module(module), name)(*args, **kwargs)
        call.__name__ = call.__qualname__ = name
        setattr(self, name, call)  # (found without __getattr__ from now on)
        return call


special = _Deferred("special")
linalg = _Deferred("linalg")
