"""Running sums, products and log-sum-exps (cumsum, cumprod, logcumsumexp) as PyTorch's
CPU kernels compute them.

PyTorch's kernels keep the running value in a wider type than the tensor's (its
``acc_type``: float64 for float32, float32 for float16, complex128 for complex64) and round
each element of the result once from it; NumPy accumulates in the tensor's own type, whose
float32 sums drift from PyTorch's after a few hundred elements. Integers and bools scan in
int64, as in PyTorch.
"""
import numpy as np

import funcgrad.numpy as fnp
from funcgrad.core import ArgVJP, Primitive, defvjp, dtype_of, unbox_all

from . import _dtypes

_ACCUMULATORS = {np.dtype(np.float16): np.float32, np.dtype(np.float32): np.float64,
                 np.dtype(np.complex64): np.complex128}


def result_dtype(dtype, requested):
    """The NumPy dtype of a scan of a tensor of NumPy `dtype`, given torch's `dtype=`
    argument `requested` (None when not given)."""
    if requested is not None:
        return _dtypes.as_dtype(requested).numpy
    return dtype if dtype.kind in "fc" else np.dtype(np.int64)


def scanned(scan, x, axis, requested=None):
    """`scan` (fnp.cumsum or fnp.cumprod) of the tensor value `x` (a box or an array)
    along `axis` (valid for it), as PyTorch computes it: in `result_dtype`, with float16,
    float32 and complex64 accumulated in their wider types."""
    target = result_dtype(dtype_of(x), requested)
    if dtype_of(x) != target:
        x = fnp.astype(x, target)
    if fnp.ndim(x) == 0:  # PyTorch's scan of a 0-d tensor is its value (NumPy's has an axis)
        return fnp.positive(x)
    wide = _ACCUMULATORS.get(target)
    if wide is None:
        return scan(x, axis=axis)
    return fnp.astype(scan(fnp.astype(x, wide), axis=axis), target)


def _running_logsumexp(x, *, axis, reverse):
    """log(cumsum(exp(x))) along `axis` (from the end if `reverse`) by NumPy's
    logaddexp.accumulate: PyTorch's running log-add-exp, which neither overflows nor
    underflows, float16 and float32 kept in their wider types."""
    wide = _ACCUMULATORS.get(x.dtype)
    values = x if wide is None else x.astype(wide)
    if reverse:
        values = np.flip(values, axis)
    out = np.logaddexp.accumulate(values, axis=axis)
    if reverse:
        out = np.flip(out, axis)
    return out if wide is None else out.astype(x.dtype)


def _logcumsumexp_pull(g, x, result, *, axis, reverse):
    """PyTorch's derivative: x_i's is the sum over the later j (the earlier if `reverse`)
    of g_j exp(x_i - result_j), computed as running log-sum-exps of log|g_j| - result_j
    for the positive and the negative g_j apart, so that nothing overflows."""
    raw = unbox_all(g)
    positive = fnp.log(fnp.where(raw > 0, g, 0))  # -inf where g_j is not positive
    negative = fnp.log(fnp.where(raw < 0, -g, 0))
    ahead = not reverse
    return (fnp.exp(x + logcumsumexp_p(positive - result, axis=axis, reverse=ahead))
            - fnp.exp(x + logcumsumexp_p(negative - result, axis=axis, reverse=ahead)))


logcumsumexp_p = Primitive("compat.logcumsumexp", _running_logsumexp, register=False)
defvjp(logcumsumexp_p, ArgVJP(lambda ans, x, *, axis, reverse: (x, ans, axis, reverse),
                              lambda g, x, ans, axis, reverse: _logcumsumexp_pull(
                                  g, x, ans, axis=axis, reverse=reverse)))
