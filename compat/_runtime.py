"""PyTorch's process-wide settings that reproducibility boilerplate sets and reads: the
thread count and deterministic algorithms (compat's results depend on neither: it is
deterministic, so they are kept and reported, and change nothing); and whether the warnings
PyTorch gives once per process (its deprecations) are given every time."""
import os
import warnings

_settings = {"threads": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
             else os.cpu_count() or 1,
             "deterministic": False, "warn_only": False, "warn_always": False}
_warned = set()


def _positive_int(value, name):
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuntimeError(f"{name} expects an int, but got {type(value).__name__}")
    if value <= 0:
        raise RuntimeError(f"{name} expects a positive integer")
    return value


def get_num_threads():
    """The intra-op thread count (the CPUs this process may run on, until set)."""
    return _settings["threads"]


def set_num_threads(int):  # noqa: A002 -- torch's argument name
    _settings["threads"] = _positive_int(int, "set_num_threads")


def use_deterministic_algorithms(mode, *, warn_only=False):
    if not isinstance(mode, bool):
        raise TypeError(f"_set_deterministic_algorithms(): argument 'mode' (position 1) must "
                        f"be bool, not {type(mode).__name__}")
    _settings["deterministic"], _settings["warn_only"] = mode, bool(warn_only)


def are_deterministic_algorithms_enabled():
    return _settings["deterministic"]


def is_deterministic_algorithms_warn_only_enabled():
    return _settings["warn_only"]


def set_warn_always(b):
    _settings["warn_always"] = bool(b)


def is_warn_always_enabled():
    return _settings["warn_always"]


def warn_once(message, stacklevel):
    """PyTorch's TORCH_WARN_ONCE: a UserWarning the first time in the process (every time
    after set_warn_always(True))."""
    if _settings["warn_always"] or message not in _warned:
        _warned.add(message)
        warnings.warn(message, UserWarning, stacklevel=stacklevel + 1)


__all__ = ["get_num_threads", "set_warn_always", "is_warn_always_enabled", "set_num_threads", "use_deterministic_algorithms",
           "are_deterministic_algorithms_enabled",
           "is_deterministic_algorithms_warn_only_enabled"]
