"""Text form of compat tensors, character for character as PyTorch prints them.

`format_tensor` turns an array of values plus the tensor's dtype name and autograd state into
the string that `repr(torch.tensor(...))` gives for the same values; `set_printoptions`
changes precision, summarization and line width globally, like `torch.set_printoptions`.

How PyTorch lays a tensor out (the rules this module follows):

* All elements share one *style*, chosen from the values on display (with summarization,
  only the edge items): integers print as themselves, floats as ``1.`` when every nonzero
  finite value is an integer, otherwise with `precision` decimals, and in scientific
  notation when the largest/smallest nonzero finite magnitudes differ by more than 1000x,
  the largest exceeds 1e8 or the smallest is below 1e-4. Zeros, nan and
  inf take no part in that choice nor in the column width.
* Every element is right-aligned to the widest formatted nonzero finite value (or widest
  integer/boolean); a row of a 1-D block holds as many ``width + 2`` wide elements as fit in
  `linewidth` minus the indentation.
* Tensors with more than `threshold` elements show `edgeitems` items at each end of every
  dimension longer than ``2 * edgeitems``, with ``...`` in between.
* Sub-blocks are separated by ``ndim - 1`` newlines; suffixes such as ``dtype=torch.float64``
  or ``grad_fn=<MulBackward0>`` follow the closing bracket, each moved to a new line when it
  would overflow the line.
"""
import contextlib
import dataclasses
import math

import numpy as np


@dataclasses.dataclass
class _PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


_OPTIONS = _PrintOptions()

_PROFILES = {
    "default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80),
}

_FLOAT_DTYPES = {"float16": np.float16, "bfloat16": np.float32,
                 "float32": np.float32, "float64": np.float64}
_COMPLEX_DTYPES = {"complex64": np.complex64, "complex128": np.complex128}
_INT_DTYPES = {name: np.dtype(name).type for name in (
    "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64")}
_NUMPY_TYPES = {**_FLOAT_DTYPES, **_COMPLEX_DTYPES, **_INT_DTYPES, "bool": np.bool_}

_PREFIX = "tensor("


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     profile=None, sci_mode=None):
    """Change how tensors print, like `torch.set_printoptions`.

    `profile` ("default", "short" or "full") first resets precision, threshold, edgeitems and
    linewidth; the other arguments then override it when not None. `sci_mode` is always set,
    so leaving it out returns to the automatic choice of scientific notation, as in PyTorch.
    """
    if profile is not None:
        if profile not in _PROFILES:
            raise ValueError(f"compat.set_printoptions: unknown profile {profile!r}; "
                             f"use one of {sorted(_PROFILES)}")
        for name, value in _PROFILES[profile].items():
            setattr(_OPTIONS, name, value)
    for name, value in (("precision", precision), ("threshold", threshold),
                        ("edgeitems", edgeitems), ("linewidth", linewidth)):
        if value is not None:
            setattr(_OPTIONS, name, value)
    _OPTIONS.sci_mode = sci_mode


def get_printoptions():
    """The current print options, as keyword arguments for `set_printoptions`."""
    return dataclasses.asdict(_OPTIONS)


@contextlib.contextmanager
def printoptions(**kwargs):
    """Context manager: print with `set_printoptions(**kwargs)`, then restore the options."""
    saved = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**saved)


def format_tensor(values, dtype_name, *, requires_grad=False, grad_fn_name=None,
                  default_dtype="float32"):
    """The text PyTorch prints for a tensor holding `values` with dtype `dtype_name`.

    `dtype_name` is a torch dtype name without the ``torch.`` prefix ("float32", "int64",
    "bool", "complex64", ...); `values` are cast to it (bfloat16 values are taken as given,
    already rounded, since NumPy has no bfloat16). `grad_fn_name` (e.g. "MeanBackward0") is
    shown as ``grad_fn=<...>``; otherwise `requires_grad` adds ``requires_grad=True``.
    `default_dtype` is the floating dtype `torch.get_default_dtype()` would return: tensors of
    that dtype, its complex counterpart, int64 and bool print without a dtype suffix.
    """
    dtype_name = _check_dtype_name(dtype_name, "dtype_name")
    default_dtype = _check_dtype_name(default_dtype, "default_dtype")
    array = np.asarray(values).astype(_NUMPY_TYPES[dtype_name], copy=False)
    suffixes = []
    if array.size == 0:
        body = "[]"
        if array.ndim != 1:
            suffixes.append(f"size={tuple(array.shape)}")
        if dtype_name != default_dtype:
            suffixes.append(f"dtype=torch.{dtype_name}")
    else:
        body = _format_body(array, dtype_name, indent=len(_PREFIX))
        if _OPTIONS.edgeitems == 0:
            suffixes.append(f"size={tuple(array.shape)}")
        if not _prints_without_dtype(dtype_name, default_dtype):
            suffixes.append(f"dtype=torch.{dtype_name}")
    if grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    return _append_suffixes(_PREFIX + body, suffixes, indent=len(_PREFIX))


def _check_dtype_name(name, argument):
    name = str(name).removeprefix("torch.")
    if name not in _NUMPY_TYPES:
        raise ValueError(f"compat.format_tensor: unknown {argument} {name!r}; "
                         f"expected one of {sorted(_NUMPY_TYPES)}")
    return name


def _prints_without_dtype(dtype_name, default_dtype):
    default_complex = "complex128" if default_dtype == "float64" else "complex64"
    return dtype_name in (default_dtype, default_complex, "int64", "bool")


def _append_suffixes(text, suffixes, indent):
    """Append ", suffix" for each suffix, starting a new line where it would not fit."""
    # PyTorch counts the last line two characters longer than it is; so do we.
    line_length = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if line_length + len(suffix) + 2 > _OPTIONS.linewidth:
            text += ",\n" + " " * indent + suffix
            line_length = indent + len(suffix)
        else:
            text += ", " + suffix
            line_length += len(suffix) + 2
    return text + ")"


# ---------------------------------------------------------------------------------------
# Element styles


class _RealStyle:
    """How every element of one real-valued array is written, and its column width."""

    def __init__(self, shown):
        """Choose the style from `shown`, the values that will be on display."""
        self.is_float = np.issubdtype(shown.dtype, np.floating)
        self.integral = True
        self.scientific = False
        if self.is_float:
            self.width = self._choose_float_style(shown)
        else:
            self.width = max((len(str(v)) for v in set(shown.ravel().tolist())), default=1)

    def _choose_float_style(self, shown):
        flat = shown.ravel()
        candidates = flat[np.isfinite(flat) & (flat != 0)]
        if candidates.size == 0:
            return 1
        magnitudes = np.abs(candidates.astype(np.float64))
        smallest, largest = float(magnitudes.min()), float(magnitudes.max())
        self.integral = bool(np.all(candidates == np.ceil(candidates)))
        if _OPTIONS.sci_mode is not None:
            self.scientific = _OPTIONS.sci_mode
        else:
            self.scientific = (largest / smallest > 1000.0 or largest > 1.0e8
                               or smallest < 1.0e-4)
        texts = [self._plain_text(v) for v in set(candidates.tolist())]
        return max(1, max(len(t) for t in texts))

    def _plain_text(self, value):
        """The text of one value before it is aligned to the column width."""
        if not self.is_float:
            return str(value)
        if self.scientific:
            return f"{value:.{_OPTIONS.precision}e}"
        if self.integral:
            finite = not (math.isinf(value) or math.isnan(value))
            return f"{value:.0f}" + ("." if finite else "")
        return f"{value:.{_OPTIONS.precision}f}"

    def __call__(self, value):
        return self._plain_text(value).rjust(self.width)


class _ComplexStyle:
    """Complex elements: real and imaginary parts each get their own `_RealStyle`."""

    def __init__(self, shown):
        self.real = _RealStyle(shown.real)
        self.imag = _RealStyle(shown.imag)
        # The "j" needs a column of its own.
        self.width = self.real.width + self.imag.width + 1

    def __call__(self, value):
        real_text = self.real(value.real)
        imag_text = (self.imag(value.imag) + "j").lstrip()
        if imag_text[0] not in "+-":
            imag_text = "+" + imag_text
        return real_text + imag_text


# ---------------------------------------------------------------------------------------
# Layout


def _format_body(array, dtype_name, indent):
    summarize = array.size > _OPTIONS.threshold
    shown = _displayed_values(array) if summarize else array
    style = _ComplexStyle(shown) if dtype_name in _COMPLEX_DTYPES else _RealStyle(shown)
    return _format_block(array, style, indent, summarize)


def _displayed_values(array):
    """The elements a summarized print shows: `edgeitems` at each end of long dimensions."""
    edge = _OPTIONS.edgeitems
    if array.ndim >= 2 and edge == 0:
        return array[(slice(0, 0),) * array.ndim]
    for axis, size in enumerate(array.shape):
        if size > 2 * edge:
            kept = np.r_[0:edge, size - edge:size]
            array = np.take(array, kept, axis=axis)
    return array


def _is_elided(size, summarize):
    """Whether a dimension of this size prints only its edge items around "..."."""
    return summarize and size > 2 * _OPTIONS.edgeitems


def _format_block(array, style, indent, summarize):
    """Bracketed text of `array`, whose first line starts at column `indent`."""
    if array.ndim == 0:
        return style(array.item())
    if array.ndim == 1:
        return _format_row(array, style, indent, summarize)
    edge = _OPTIONS.edgeitems
    if _is_elided(len(array), summarize):
        parts = ([_format_block(a, style, indent + 1, summarize) for a in array[:edge]]
                 + ["..."]
                 + [_format_block(a, style, indent + 1, summarize)
                    for a in array[len(array) - edge:]])
    else:
        parts = [_format_block(a, style, indent + 1, summarize) for a in array]
    separator = "," + "\n" * (array.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(parts) + "]"


def _format_row(vector, style, indent, summarize):
    """A 1-D block, wrapped to the line width."""
    edge = _OPTIONS.edgeitems
    if summarize and edge == 0:
        items = ["..."]
    elif _is_elided(len(vector), summarize):
        items = ([style(v) for v in vector[:edge].tolist()] + [" ..."]
                 + [style(v) for v in vector[len(vector) - edge:].tolist()])
    else:
        items = [style(v) for v in vector.tolist()]
    # Each element takes its width plus ", ".
    per_line = max(1, math.floor((_OPTIONS.linewidth - indent) / (style.width + 2)))
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


__all__ = ["format_tensor", "set_printoptions", "get_printoptions", "printoptions"]
