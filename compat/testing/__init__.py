"""torch.testing: `assert_close`, with PyTorch's default tolerances and its messages word for
word (a test suite ported to compat fails with the text its authors know).

Tensors (and NumPy arrays) are compared by shape, device, dtype (and strides, if asked),
then elementwise with ``|actual - expected| <= atol + rtol * |expected|``; Python numbers
likewise; sequences and mappings item by item, naming the failing item.
"""
import cmath
import collections.abc
import math
import numbers

import numpy as np

from .. import _dtypes
from .._factories import as_tensor
from .._ops import abs as _abs
from .._ops import sub, to_dtype, where
from .._tensor import Tensor
from .._torch_names import FUNCTIONS

# (rtol, atol) by dtype; other dtypes (integers, bool) compare exactly.
_TOLERANCES = {_dtypes.float16: (0.001, 1e-5), _dtypes.float32: (1.3e-6, 1e-5),
               _dtypes.float64: (1e-7, 1e-7), _dtypes.complex64: (1.3e-6, 1e-5),
               _dtypes.complex128: (1e-7, 1e-7)}
_NUMBER_DTYPES = {bool: _dtypes.bool, int: _dtypes.int64, float: _dtypes.float64,
                  complex: _dtypes.complex128}
_isclose = FUNCTIONS["isclose"]


class _Mismatch(Exception):
    """A failed comparison: the exception type and message to raise, and the path of items
    (indices, keys) that leads to it."""

    def __init__(self, error, message, path=()):
        super().__init__(message)
        self.error, self.message, self.path = error, message, path


def _tolerances(dtypes, rtol, atol, path):
    if (rtol is None) != (atol is None):
        raise _Mismatch(ValueError, f"Both 'rtol' and 'atol' must be either specified or "
                        f"omitted, but got no {'rtol' if rtol is None else 'atol'}.", path)
    if rtol is not None:
        return rtol, atol
    pairs = [_TOLERANCES.get(d, (0.0, 0.0)) for d in dtypes]
    return max(p[0] for p in pairs), max(p[1] for p in pairs)


def _mismatch_message(identifier, extra, abs_diff, abs_index, atol, rel_diff, rel_index,
                      rtol):
    equality = rtol == 0 and atol == 0

    def difference(kind, diff, index, tolerance):
        line = (f"{kind.title()} difference: {diff}" if index is None else
                f"Greatest {kind} difference: {diff} at index {index}")
        return line + ("" if equality else f" (up to {tolerance} allowed)") + "\n"

    message = f"{identifier} are not {'equal' if equality else 'close'}!\n\n{extra}\n"
    message += difference("absolute", abs_diff, abs_index, atol)
    message += difference("relative", rel_diff, rel_index, rtol)
    return message.strip()


def _scalar_message(actual, expected, rtol, atol):
    abs_diff = abs(actual - expected)
    rel_diff = math.inf if expected == 0 else abs_diff / abs(expected)
    return _mismatch_message("Scalars", f"Expected {expected} but got {actual}.", abs_diff,
                             None, atol, rel_diff, None, rtol)


def _compare_numbers(actual, expected, rtol, atol, equal_nan, check_dtype, path):
    if isinstance(actual, bool) and isinstance(expected, bool):
        if actual is not expected:
            raise _Mismatch(AssertionError, f"Booleans mismatch: {actual} is not {expected}",
                            path)
        return
    if check_dtype and type(actual) is not type(expected):
        raise _Mismatch(AssertionError, f"The (d)types do not match: {type(actual)} != "
                        f"{type(expected)}.", path)
    rtol, atol = _tolerances([_NUMBER_DTYPES[type(x)] for x in (actual, expected)], rtol,
                             atol, path)
    if actual == expected or (equal_nan and cmath.isnan(actual) and cmath.isnan(expected)):
        return
    abs_diff = abs(actual - expected)
    if cmath.isfinite(abs_diff) and abs_diff <= atol + rtol * abs(expected):
        return
    raise _Mismatch(AssertionError, _scalar_message(actual, expected, rtol, atol), path)


def _compare_attributes(actual, expected, check_device, check_dtype, check_stride, path):
    checks = [("shape", True, lambda t: t.shape), ("stride()", check_stride, _strides),
              ("device", check_device, lambda t: t.device),
              ("dtype", check_dtype, lambda t: t.dtype)]
    for name, wanted, attribute in checks:
        if wanted and attribute(actual) != attribute(expected):
            raise _Mismatch(AssertionError, f"The values for attribute '{name}' do not match: "
                            f"{attribute(actual)} != {attribute(expected)}.", path)


def _strides(t):
    """The tensor's strides in elements, as PyTorch's stride()."""
    return tuple(step // t._data.itemsize for step in t._data.strides)


def _greatest(differences, shape):
    """The largest entry of a flat float array (NaN counts as largest) and its index."""
    flat = int(np.argmax(np.where(np.isnan(differences), np.inf, differences)))
    value = differences[flat].item()
    return value, tuple(int(i) for i in np.unravel_index(flat, shape)) if shape else ()


def _compare_tensors(actual, expected, rtol, atol, equal_nan, check_device, check_dtype,
                     check_stride, path):
    _compare_attributes(actual, expected, check_device, check_dtype, check_stride, path)
    rtol, atol = _tolerances([actual.dtype, expected.dtype], rtol, atol, path)
    if actual.dtype is not expected.dtype:
        common = _dtypes.promote_types(actual.dtype, expected.dtype)
        actual, expected = to_dtype(actual, common), to_dtype(expected, common)
    matches = _isclose(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if bool(matches.all()):
        return
    if actual.dim() == 0:
        message = _scalar_message(actual.item(), expected.item(), rtol, atol)
        raise _Mismatch(AssertionError, message, path)
    if not actual.dtype.is_floating_point and not actual.dtype.is_complex:
        actual, expected = to_dtype(actual, _dtypes.int64), to_dtype(expected, _dtypes.int64)
    abs_diff = where(matches, 0, _abs(sub(actual, expected)))
    with np.errstate(divide="ignore", invalid="ignore"):  # x / 0 is inf, as in PyTorch
        rel_diff = where(matches, 0, abs_diff / _abs(expected))
    count = matches.numel()
    wrong = count - int(matches.sum())
    extra = f"Mismatched elements: {wrong} / {count} ({wrong / count:.1%})"
    abs_value, abs_index = _greatest(abs_diff.numpy().ravel(), tuple(actual.shape))
    rel_value, rel_index = _greatest(rel_diff.numpy().ravel(), tuple(actual.shape))
    raise _Mismatch(AssertionError, _mismatch_message(
        "Tensor-likes", extra, abs_value, abs_index, atol, rel_value, rel_index, rtol), path)


def _same_kind(actual, expected, kind):
    return isinstance(actual, kind) and isinstance(expected, kind)


def _type_name(x):
    """The type as PyTorch's message names it (compat's tensor prints as torch's)."""
    return "<class 'torch.Tensor'>" if isinstance(x, Tensor) else str(type(x))


def _is_sequence(x):
    return isinstance(x, collections.abc.Sequence) and not isinstance(x, str)


def _compare(actual, expected, path, options):
    if _same_kind(actual, expected, Tensor) or _same_kind(actual, expected, np.ndarray):
        pair = [as_tensor(x).detach() for x in (actual, expected)]
        return _compare_tensors(*pair, path=path, **options)
    if _is_sequence(actual) and _is_sequence(expected):
        if len(actual) != len(expected):
            raise _Mismatch(AssertionError, f"The length of the sequences mismatch: "
                            f"{len(actual)} != {len(expected)}", path)
        for i, (a, e) in enumerate(zip(actual, expected)):
            _compare(a, e, path + (i,), options)
        return None
    if isinstance(actual, collections.abc.Mapping) and isinstance(expected,
                                                                  collections.abc.Mapping):
        if actual.keys() != expected.keys():
            missing = sorted(set(expected) - set(actual))
            additional = sorted(set(actual) - set(expected))
            raise _Mismatch(AssertionError, f"The keys of the mappings do not match:\n"
                            f"Missing keys in the actual mapping: {missing}\n"
                            f"Additional keys in the actual mapping: {additional}", path)
        for key in sorted(actual):
            _compare(actual[key], expected[key], path + (key,), options)
        return None
    if all(isinstance(x, (numbers.Number, np.number)) for x in (actual, expected)):
        values = [x.item() if isinstance(x, np.number) else x for x in (actual, expected)]
        return _compare_numbers(*values, options["rtol"], options["atol"],
                                options["equal_nan"], options["check_dtype"], path)
    raise _Mismatch(TypeError, f"No comparison pair was able to handle inputs of type "
                    f"{_type_name(actual)} and {_type_name(expected)}.", path)


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None,
                 equal_nan=False, check_device=True, check_dtype=True, check_layout=True,
                 check_stride=False, msg=None):
    """Raise AssertionError unless `actual` and `expected` are close, as
    torch.testing.assert_close (tolerances by dtype unless `rtol` and `atol` are given;
    `msg` replaces the message, or, if callable, maps it)."""
    options = {"rtol": rtol, "atol": atol, "equal_nan": equal_nan,
               "check_device": check_device, "check_dtype": check_dtype,
               "check_stride": check_stride}
    try:
        _compare(actual, expected, (), options)
    except _Mismatch as mismatch:
        if isinstance(msg, str):
            raise mismatch.error(msg) from None
        message = mismatch.message
        if mismatch.path:
            message += ("\n\nThe failure occurred for item "
                        + "".join(str([item]) for item in mismatch.path))
        raise mismatch.error(msg(message) if callable(msg) else message) from None


__all__ = ["assert_close"]
