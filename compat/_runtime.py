"""PyTorch's process-wide settings that reproducibility boilerplate sets and reads: the
thread count and deterministic algorithms (compat's results depend on neither: it is
deterministic, so they are kept and reported, and change nothing); and whether the warnings
PyTorch gives once per process (its deprecations) are given every time."""
import os
import warnings

_settings = {"threads": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
             else os.cpu_count() or 1,
             "deterministic": False, "warn_only": False, "warn_always": False,
             "matmul_precision": "highest", "interop_threads": None}
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


def get_num_interop_threads():
    """The inter-op thread count (the intra-op count, until set)."""
    return _settings["interop_threads"] or _settings["threads"]


def set_num_interop_threads(int):  # noqa: A002 -- torch's argument name
    """Set once, as PyTorch allows (before any parallel work)."""
    count = _positive_int(int, "set_num_interop_threads")
    if _settings["interop_threads"] is not None:
        raise RuntimeError("Error: cannot set number of interop threads after parallel work "
                           "has started or set_num_interop_threads called")
    _settings["interop_threads"] = count


def get_float32_matmul_precision():
    return _settings["matmul_precision"]


def set_float32_matmul_precision(precision):
    """Kept and reported: compat's float32 products are always computed at full float32
    precision ('highest'), whatever is set."""
    if precision not in ("highest", "high", "medium"):
        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                      f"setFloat32MatmulPrecision call has no effect.", UserWarning,
                      stacklevel=2)
        return
    _settings["matmul_precision"] = precision


def set_flush_denormal(mode):
    """False: NumPy cannot flush denormal numbers to zero, so compat reports the mode as
    unsupported, as PyTorch does on CPUs without it."""
    if not isinstance(mode, bool):
        raise RuntimeError(f"flush_denormal expects a bool, but got {type(mode).__name__}")
    return False


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


__all__ = ["get_num_threads", "set_warn_always", "is_warn_always_enabled", "set_num_threads",
           "get_num_interop_threads", "set_num_interop_threads", "get_float32_matmul_precision",
           "set_float32_matmul_precision", "set_flush_denormal", "use_deterministic_algorithms",
           "are_deterministic_algorithms_enabled",
           "is_deterministic_algorithms_warn_only_enabled"]
