"""torch.fft.fftfreq and rfftfreq: the sample frequencies of a transform's bins, computed
as PyTorch computes them (integers in the result's dtype, times 1 / (n d) in it)."""
import numbers

import numpy as np

from .. import _device
from .._dtypes import not_implemented_for
from .._factories import _dtype, _finish


def _frequencies(name, n, d, out, dtype, device, requires_grad, full):
    if out is not None:
        raise TypeError(f"compat.fft.{name}(): out= is not supported; assign the result "
                        f"instead")
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"fft_{name}(): argument 'n' (position 1) must be int, not "
                        f"{type(n).__name__}")
    _device.check(device)
    d_type = _dtype(dtype)
    result_dtype = d_type.numpy
    if result_dtype.kind not in "fc":
        raise RuntimeError(f"{name} requires a floating point or complex dtype")
    if result_dtype.kind == "c":  # (PyTorch counts the bins with arange, which has none)
        raise not_implemented_for("arange_cpu", d_type)
    n = int(n)
    # PyTorch's sizes, in C's integer division (toward zero)
    count = n if full else _toward_zero(n) + 1
    if count < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {count}: "
                           f"[{count}]")
    if full:  # 0, 1, ..., then the negative frequencies
        steps = np.concatenate([np.arange((n + 1) // 2), np.arange(-(n // 2), 0)])
    else:
        steps = np.arange(count)
    with np.errstate(divide="ignore", invalid="ignore"):  # n or d 0: inf and nan, as C's
        scale = np.float64(1.0) / (np.float64(n) * d)
        values = steps.astype(result_dtype) * result_dtype.type(scale)
    return _finish(values, requires_grad)


def _toward_zero(n):
    return -(-n // 2) if n < 0 else n // 2


def fftfreq(n, d=1.0, *, out=None, dtype=None, layout=None, device=None,
            requires_grad=False):
    """The frequencies of an n-point FFT's bins with sample spacing d."""
    return _frequencies("fftfreq", n, d, out, dtype, device, requires_grad, full=True)


def rfftfreq(n, d=1.0, *, out=None, dtype=None, layout=None, device=None,
             requires_grad=False):
    """The non-negative frequencies of an n-point real FFT's bins."""
    return _frequencies("rfftfreq", n, d, out, dtype, device, requires_grad, full=False)
