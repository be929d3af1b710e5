"""Anomaly detection, as torch.autograd.detect_anomaly: funcgrad's anomaly mode underneath.

Inside the block every recorded operation remembers the line of your code that ran it,
and a backward pass that produces a NaN or Inf raises RuntimeError naming the operation
and that line.
"""
import functools
import warnings

from funcgrad import debug

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled"]


class detect_anomaly:
    """Context manager (and decorator) that turns anomaly detection on for a block."""

    def __init__(self, check_nan=True):
        self.check_nan = check_nan
        self._block = None

    def __enter__(self):
        warnings.warn("compat: anomaly detection is on; it slows every operation down and is "
                      "meant for debugging only.", UserWarning, stacklevel=2)
        self._block = debug.anomaly_mode(self.check_nan)
        self._block.__enter__()
        return self

    def __exit__(self, *exc_info):
        self._block.__exit__(*exc_info)
        return False

    def __call__(self, function):
        @functools.wraps(function)
        def with_anomaly_detection(*args, **kwargs):
            with detect_anomaly(self.check_nan):
                return function(*args, **kwargs)
        return with_anomaly_detection


class set_detect_anomaly:
    """Turn anomaly detection on or off: for the rest of the program, or, used as a
    context manager, for a block."""

    def __init__(self, mode, check_nan=True):
        self._block = debug.anomaly_mode(check_nan) if mode else None
        if self._block is not None:
            self._block.__enter__()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        if self._block is not None:
            self._block.__exit__(*exc_info)
        return False


def is_anomaly_enabled():
    return debug.is_anomaly_enabled()
