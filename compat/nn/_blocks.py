"""Moving values between channels and positions of (N, C, H, W) tensors: pixel_shuffle and
pixel_unshuffle (sub-pixel blocks to channels and back), unfold (each sliding block of the
image as a column, im2col) and fold (columns summed back into an image, col2im).

Each is one recorded operation named as PyTorch's kernel, composed of funcgrad.numpy's
reshapes, transposes, windows and indexed additions (no derivative written here)."""

import funcgrad.numpy as fnp

from .. import _dtypes
from .._quiet import quiet
from .._record import engine, wrap
from ._spatial import _bound, _windows


# ---- pixel shuffles ---------------------------------------------------------------------------


def pixel_shuffle(input, upscale_factor):
    """(*, C * r**2, H, W) to (*, C, H * r, W * r): each channel's r x r group of channels
    becomes an r x r block of positions."""
    _check_factor(input, upscale_factor, "pixel_shuffle", "upscale_factor")
    r = upscale_factor
    *lead, channels, height, width = input.shape
    if channels % (r * r):
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be "
                           f"divisible by the square of upscale_factor, but input.size(-3)="
                           f"{channels} is not divisible by {r * r}")
    n = len(lead)

    def compute(x):
        x = fnp.reshape(x, (*lead, channels // (r * r), r, r, height, width))
        x = fnp.transpose(x, (*range(n), n, n + 3, n + 1, n + 4, n + 2))
        return fnp.reshape(x, (*lead, channels // (r * r), height * r, width * r))
    return wrap(quiet().run(compute, engine(input)), "PixelShuffleBackward0", (input,))


def pixel_unshuffle(input, downscale_factor):
    """The inverse of pixel_shuffle: (*, C, H * r, W * r) to (*, C * r**2, H, W)."""
    _check_factor(input, downscale_factor, "pixel_unshuffle", "downscale_factor")
    r = downscale_factor
    *lead, channels, height, width = input.shape
    for name, size, dim in (("height", height, -2), ("width", width, -1)):
        if size % r:
            raise RuntimeError(f"pixel_unshuffle expects {name} to be divisible by "
                               f"downscale_factor, but input.size({dim})={size} is not "
                               f"divisible by {r}")
    n = len(lead)

    def compute(x):
        x = fnp.reshape(x, (*lead, channels, height // r, r, width // r, r))
        x = fnp.transpose(x, (*range(n), n, n + 2, n + 4, n + 1, n + 3))
        return fnp.reshape(x, (*lead, channels * r * r, height // r, width // r))
    return wrap(quiet().run(compute, engine(input)), "PixelUnshuffleBackward0", (input,))


def _check_factor(input, factor, name, argument):
    if input.dim() < 3:
        raise RuntimeError(f"{name} expects input to have at least 3 dimensions, but got "
                           f"input with {input.dim()} dimension(s)")
    if factor <= 0:
        raise RuntimeError(f"{name} expects a positive {argument}, but got {factor}")


# ---- sliding blocks ---------------------------------------------------------------------------


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """(N, C, H, W) to (N, C * kH * kW, L): every kernel_size block of the (zero-padded)
    image as a column, the blocks in row-major order (L of them)."""
    kernel, dilation, padding, stride = (_bound(v, 2) for v in (kernel_size, dilation, padding,
                                                            stride))
    if input.dim() not in (3, 4) or 0 in input.shape[1:]:
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with possibly 0 batch size "
                           f"and other non-zero dimensions for input, but got: "
                           f"{list(input.shape)}")
    _check_block_settings(kernel, dilation, padding, stride)
    if not (input.dtype.is_floating_point or input.dtype.is_complex
            or input.dtype is _dtypes.bool):
        raise _dtypes.not_implemented_for("im2col_out_cpu", input.dtype)
    spatial = tuple(input.shape[-2:])
    blocks = _block_counts(spatial, kernel, dilation, padding, stride)
    if any(count < 1 for count in blocks):
        raise RuntimeError(f"Given input with spatial size {spatial}, kernel_size={kernel}, "
                           f"dilation={dilation}, padding={padding}, calculated shape of the "
                           f"array of sliding blocks as {blocks}, but its components must be "
                           f"at least one.")

    def compute(x):
        lead = fnp.shape(x)[:-3]
        x = fnp.pad(x, [(0, 0)] * (fnp.ndim(x) - 2) + [(p, p) for p in padding])
        columns = _windows(x, kernel, stride, dilation, blocks)  # (*lead, C, kH, kW, *blocks)
        return fnp.reshape(columns, (*lead, -1, blocks[0] * blocks[1]))
    return wrap(quiet().run(compute, engine(input)), "Im2ColBackward0", (input,))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """The adjoint of unfold: (N, C * kH * kW, L) to (N, C, *output_size), each column
    added into its block's positions (overlapping blocks sum)."""
    size, kernel, dilation, padding, stride = (_bound(v, 2) for v in (
        output_size, kernel_size, dilation, padding, stride))
    if input.dim() not in (2, 3) or 0 in input.shape[1:]:
        raise RuntimeError(f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 "
                           f"batch size and non-zero dimensions for input, but got: "
                           f"{list(input.shape)}")
    _check_block_settings(kernel, dilation, padding, stride)
    rows, count = input.shape[-2:]
    if rows % (kernel[0] * kernel[1]):
        raise RuntimeError(f"Expected size of input's dimension {input.dim() - 2} to be "
                           f"divisible by the product of kernel_size, but got input.size("
                           f"{input.dim() - 2})={rows} and kernel_size={kernel}.")
    blocks = _block_counts(size, kernel, dilation, padding, stride)
    if blocks[0] * blocks[1] != count:
        raise RuntimeError(f"Given output_size={size}, kernel_size={kernel}, dilation="
                           f"{dilation}, padding={padding}, stride={stride}, expected size of "
                           f"input's dimension {input.dim() - 1} to match the calculated "
                           f"number of sliding blocks {blocks[0]} * {blocks[1]} = "
                           f"{blocks[0] * blocks[1]}, but got input.size({input.dim() - 1})="
                           f"{count}.")
    if not (input.dtype.is_floating_point or input.dtype.is_complex
            or input.dtype is _dtypes.bool):
        raise _dtypes.not_implemented_for("col2im_out_cpu", input.dtype)

    def compute(x):
        lead = fnp.shape(x)[:-2]
        columns = fnp.reshape(x, (*lead, -1, *kernel, *blocks))
        padded = fnp.zeros((*lead, fnp.shape(columns)[len(lead)],
                            *(s + 2 * p for s, p in zip(size, padding))), fnp.result_type(x))
        for i in range(kernel[0]):
            for j in range(kernel[1]):
                positions = (Ellipsis, _spaced(i * dilation[0], stride[0], blocks[0]),
                             _spaced(j * dilation[1], stride[1], blocks[1]))
                padded = fnp.at(padded)[positions].add(columns[..., i, j, :, :])
        return padded[..., padding[0]:padding[0] + size[0], padding[1]:padding[1] + size[1]]
    return wrap(quiet().run(compute, engine(input)), "Col2ImBackward0", (input,))


def _spaced(start, step, count):
    return slice(start, start + step * (count - 1) + 1, step)


def _block_counts(size, kernel, dilation, padding, stride):
    """How many blocks fit along each of the two dimensions."""
    return tuple((s + 2 * p - d * (k - 1) - 1) // st + 1
                 for s, k, d, p, st in zip(size, kernel, dilation, padding, stride))


def _check_block_settings(kernel, dilation, padding, stride):
    for name, values, least in (("kernel size", kernel, 1), ("stride", stride, 1),
                                ("dilation", dilation, 1)):
        if min(values) < least:
            word = name.split()[0]
            raise RuntimeError(f"{name} should be greater than zero, but got {word}_height: "
                               f"{values[0]} {word}_width: {values[1]}")
    if min(padding) < 0:
        raise RuntimeError(f"padding should be non-negative, but got pad_height: "
                           f"{padding[0]} pad_width: {padding[1]}")
