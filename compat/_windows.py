"""Factories of sequences: the signal windows (hann_window, hamming_window, blackman_window,
bartlett_window, kaiser_window), torch.range (end included, deprecated) and logspace.
Each computes in float64 with NumPy and returns a new leaf in the requested dtype."""
import math
import numbers
import warnings

import numpy as np

from . import _device, _dtypes
from ._factories import _check_range, _dtype, _finish, _linspace


def _window(name, shape):
    """torch's `name`: `shape(k, n)` at the points k of a symmetric window of n points (one
    more, dropped, for a `periodic` one), with the window's own parameters after periodic."""
    def window(window_length, periodic=True, *parameters, dtype=None, layout=None,
               device=None, pin_memory=False, requires_grad=False):
        _device.check(device)
        d = _dtype(dtype)
        if d.is_complex:  # (PyTorch's arange of the points refuses it first)
            raise _dtypes.not_implemented_for("arange_cpu", d)
        if not d.is_floating_point:
            raise RuntimeError(f"{name} expects floating point dtypes, got: TensorOptions("
                               f"dtype={d.cpp_name}, device=cpu, layout=Strided (default), "
                               f"requires_grad=false (default), pinned_memory=false, "
                               f"memory_format=(nullopt))")
        if window_length < 0:
            raise RuntimeError(f"{name} requires non-negative window_length, got "
                               f"window_length={window_length}")
        if window_length <= 1:
            return _finish(np.ones(window_length, d.numpy), requires_grad)
        n = window_length + 1 if periodic else window_length
        values = shape(np.arange(n, dtype=np.float64), n, *parameters)[:window_length]
        return _finish(values.astype(d.numpy), requires_grad)
    window.__name__ = name
    return window


def _cosines(*coefficients):
    """A sum of cosines: c0 - c1 cos(2 pi k / (n - 1)) + c2 cos(4 pi k / (n - 1)) - ..."""
    def shape(k, n):
        return sum((-1) ** i * c * np.cos(2 * np.pi * i * k / (n - 1))
                   for i, c in enumerate(coefficients))
    return shape


hann_window = _window("hann_window", _cosines(0.5, 0.5))
hamming_window = _window("hamming_window", lambda k, n, alpha=0.54, beta=0.46:
                         _cosines(alpha, beta)(k, n))
blackman_window = _window("blackman_window", _cosines(0.42, 0.5, 0.08))
bartlett_window = _window("bartlett_window", lambda k, n: 1 - np.abs(2 * k / (n - 1) - 1))
kaiser_window = _window("kaiser_window", lambda k, n, beta=12.0: np.i0(
    beta * np.sqrt(np.clip(1 - (2 * k / (n - 1) - 1) ** 2, 0, None))) / np.i0(beta))


def range(start, end, step=1, *, dtype=None, layout=None, device=None,  # noqa: A001
          requires_grad=False):
    """start, start + step, ... up to end included, in the default float dtype unless
    `dtype` is given (deprecated in PyTorch, which warns)."""
    warnings.warn("torch.range is deprecated and will be removed in a future release because "
                  "its behavior is inconsistent with Python's range builtin. Instead, use "
                  "torch.arange, which produces values in [start, end).", UserWarning,
                  stacklevel=2)
    _device.check(device)
    _check_range(start, end, step)
    count = math.floor((end - start) / step) + 1
    values = start + step * np.arange(count, dtype=np.float64)
    return _finish(values.astype(_dtype(dtype).numpy), requires_grad)


def logspace(start, end, steps, base=10.0, *, dtype=None, layout=None, device=None,
             requires_grad=False):
    """base ** linspace(start, end, steps)."""
    _device.check(device)
    if not isinstance(steps, numbers.Integral) or steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    d = _dtype(dtype)
    if d is _dtypes.bool:
        raise _dtypes.not_implemented_for("logspace_cpu", d)
    exponents = _linspace(start, end, steps, np.float64)
    return _finish(np.power(float(base), exponents).astype(d.numpy), requires_grad)


__all__ = ["hann_window", "hamming_window", "blackman_window", "bartlett_window",
           "kaiser_window", "range", "logspace"]
