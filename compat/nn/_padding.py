"""F.pad: padding (or, with negative widths, cropping) the last dimensions of a tensor, in
PyTorch's four modes.

`pad` lists its widths from the last dimension forward, (left, right, top, bottom, ...).
Constant padding crops by slicing and pads with funcgrad.numpy's pad; the other modes take,
along each padded dimension, the input position each output position reads (reflected,
clamped or wrapped): one funcgrad.numpy `take` a dimension, whose derivative adds each
output's gradient back to the position it read. No derivative is written here.
"""
import numbers

import numpy as np

import funcgrad.numpy as fnp

from .. import _dtypes, _layout
from .._memory_formats import in_suggested_format
from .._quiet import quiet
from .._record import engine, wrap
from .._tensor import require_tensor, typename

MODES = ("constant", "reflect", "replicate", "circular")


def pad(input, pad, mode="constant", value=None):
    """`input` padded by `pad` (widths from the last dimension forward; negative widths
    crop) in `mode`: 'constant' (with `value`, 0 by default), 'reflect' (mirrored about
    the edge element), 'replicate' (the edge element repeated) or 'circular' (wrapped
    around)."""
    _check_arguments(input, pad, mode)
    pad = tuple(int(width) for width in pad)
    if mode not in MODES:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * input.dim():
        raise RuntimeError(f"Padding length should be less than or equal to two times the "
                           f"input dimension but got padding length {len(pad)} and input of "
                           f"dimension {input.dim()}")
    # (before, after) for each padded dimension, the outermost first.
    widths = [(pad[i], pad[i + 1]) for i in range(len(pad) - 2, -1, -2)]
    if mode == "constant":
        return _constant_padded(input, widths, 0 if value is None else value)
    if value is not None and value != 0:
        raise RuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument")
    dims = len(widths)
    if dims not in (1, 2, 3) or input.dim() not in (dims + 1, dims + 2):
        raise NotImplementedError(_UNSUPPORTED.format(size=len(pad), ndim=input.dim()))
    sizes = input.shape[-dims:]
    if mode == "circular":
        _check_circular(sizes, widths)
        label = "CopySlices"  # PyTorch composes it of slice assignments
    else:
        _check_edge_padding(input, widths, mode)
        kernel = "reflection" if mode == "reflect" else "replication"
        if input.dtype is _dtypes.bool:
            raise _dtypes.not_implemented_for(f"{kernel}_pad{dims}d", input.dtype)
        label = f"{kernel.capitalize()}Pad{dims}DBackward0"
    positions = [_source_positions(mode, size, before, after)
                 for size, (before, after) in zip(sizes, widths)]
    value = quiet().run(read_at, engine(input), positions)
    # (PyTorch's circular padding is row-major; the others keep a channels-last input's)
    value = (_layout.relaid(value, _layout.row_major) if mode == "circular"
             else in_suggested_format(value, input._data))
    # (PyTorch's reflection and replication nodes save the input; its slice assignments
    # do not)
    return wrap(value, label, (input,), saves_inputs=mode != "circular")


_UNSUPPORTED = ("Padding size {size} is not supported for {ndim}D input tensor.\n"
                "Supported combinations for non-constant padding:\n"
                "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
                "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
                "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")


def _check_arguments(input, pad, mode):
    """PyTorch's binding's errors for arguments of the wrong type."""
    require_tensor(input, "pad", "input", 1)
    if not isinstance(pad, (tuple, list)):
        raise TypeError(f"pad(): argument 'pad' (position 2) must be tuple of ints, not "
                        f"{type(pad).__name__}")
    for position, width in enumerate(pad):
        if isinstance(width, bool) or not isinstance(width, numbers.Integral):
            raise TypeError(f"pad(): argument 'pad' (position 2) must be tuple of ints, but "
                            f"found element of type {typename(width)} at pos {position}")
    if not isinstance(mode, str):
        raise TypeError(f"pad(): argument 'mode' (position 3) must be str, not "
                        f"{typename(mode)}")


def _constant_padded(input, widths, value):
    """Constant padding: the negative widths crop, then the positive ones pad with `value`
    (converted to the input's dtype as PyTorch converts it)."""
    sizes = input.shape[input.dim() - len(widths):]
    if any(size + min(before, 0) + min(after, 0) < 0
           for size, (before, after) in zip(sizes, widths)):
        raise RuntimeError("narrow(): length must be non-negative.")
    _dtypes.check_convertible(float(value), input.dtype)  # (PyTorch's value is a double)
    fill = np.asarray(value).astype(input.dtype.numpy)
    lead = input.dim() - len(widths)
    crop = (slice(None),) * lead + tuple(slice(max(-before, 0), size - max(-after, 0))
                                         for size, (before, after) in zip(sizes, widths))
    padding = [(0, 0)] * lead + [(max(before, 0), max(after, 0)) for before, after in widths]

    def padded(x):
        return fnp.pad(fnp.getitem(x, crop), padding, constant_values=fill)
    return wrap(in_suggested_format(quiet().run(padded, engine(input)), input._data),
                "ConstantPadNdBackward0", (input,))


def _check_edge_padding(input, widths, mode):
    """PyTorch's checks of reflection and replication padding, in its order."""
    dims = len(widths)
    shape = list(input.shape)
    batched = input.dim() == dims + 2
    if not all(shape[1:] if batched else shape):
        raise RuntimeError(f"Expected {dims + 1}D or {dims + 2}D (batch mode) tensor with "
                           f"possibly 0 batch size and other non-zero dimensions for input, "
                           f"but got: {shape}")
    sizes = shape[-dims:]
    if mode == "reflect":  # the innermost dimension first
        for offset, (size, (before, after)) in enumerate(zip(sizes[::-1], widths[::-1])):
            if before >= size or after >= size:
                raise RuntimeError(f"Argument #{4 + 2 * offset}: Padding size should be less "
                                   f"than the corresponding input dimension, but got: padding "
                                   f"({before}, {after}) at dimension {len(shape) - 1 - offset}"
                                   f" of input {shape}")
    outputs = [size + before + after for size, (before, after) in zip(sizes, widths)]
    if all(size < 1 for size in outputs):
        names = "DHW"[-dims:]
        given = ", ".join(f"{name}: {size}" for name, size in zip(names, sizes))
        if dims == 3:  # (PyTorch's spelling)
            given = given.replace(",", "", 1)
        elif dims == 2 and mode == "replicate":
            given += " "
        calculated = " ".join(f"{name}: {size}" for name, size in zip(names, outputs))
        raise RuntimeError(f"input ({given}) is too small. Calculated output {calculated}")
    if min(outputs) < 0:  # (PyTorch's reflection kernels fail on their way, each its own)
        out_shape = shape[:-dims] + outputs
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(outputs)}: "
                           f"{out_shape}")


def _check_circular(sizes, widths):
    """PyTorch's checks of circular padding (the outermost dimension first), and compat's
    refusal where PyTorch's result is undefined."""
    for size, (before, after) in zip(sizes, widths):
        if before > size or after > size:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if size + before + after < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
        kept = size + min(before, 0) + min(after, 0)
        if size + before + after > 0 and max(before, after) > kept:
            # PyTorch wraps the part left after cropping, and reads memory it never wrote
            # (or fails on overlapping copies) where a width exceeds it.
            raise RuntimeError(f"compat: circular padding ({before}, {after}) of a dimension "
                               f"of size {size} wraps the {kept} elements left after "
                               f"cropping more than once; crop and pad in two calls")


def _source_positions(mode, size, before, after):
    """The input position each output position reads along one dimension of `size`
    padded by (before, after)."""
    positions = np.arange(size + before + after) - before
    if mode == "reflect":
        positions = np.abs(positions)
        return np.where(positions > size - 1, 2 * (size - 1) - positions, positions)
    if mode == "replicate":
        return np.clip(positions, 0, size - 1)
    # circular: PyTorch wraps what is left after cropping (the negative widths)
    start = max(-before, 0)
    kept = size + min(before, 0) + min(after, 0)
    return start + (positions + before - max(before, 0)) % max(kept, 1)


def read_at(x, positions):
    """x with its last len(positions) dimensions read at `positions`."""
    lead = fnp.ndim(x) - len(positions)
    for axis, chosen in enumerate(positions, lead):
        x = fnp.take(x, chosen, axis=axis)
    return x
