"""torch.stft and torch.istft, the short-time Fourier transform and its inverse, written
with funcgrad.numpy's differentiable padding, gathers, FFTs and scatter-adds (rows of the
torch-name table in `_torch_names`).

stft cuts the (centred, padded) signal into frames of n_fft samples every hop_length
samples, multiplies each by the window (padded to n_fft in its middle) and transforms it;
istft transforms the frames back, overlap-adds them and divides by the overlap-added
squared window, so that istft(stft(x)) is x where that sum is not zero.
"""
import warnings

import numpy as np

import funcgrad.numpy as fnp
from funcgrad.core import unbox_all

from . import _dtypes

_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge",
              "circular": "wrap"}


def _is_complex(x):
    return x is not None and np.iscomplexobj(unbox_all(x))


def _call(name, x, n_fft, hop_length, win_length, window, normalized, onesided,
          return_complex):
    """PyTorch's description of a call in its stft/istft errors."""
    def tensor_type(t):
        return _dtypes.from_numpy_dtype(unbox_all(t).dtype).type_string
    shape = ", ".join(map(str, fnp.shape(x)))
    window_text = "None" if window is None else \
        f"{tensor_type(window)}{{[{fnp.size(window)}]}}"
    return (f"{name}({tensor_type(x)}[{shape}], n_fft={n_fft}, hop_length={hop_length}, "
            f"win_length={win_length}, window={window_text}, normalized={int(normalized)}, "
            f"onesided={onesided}, return_complex={int(bool(return_complex))})")


def _sizes(call, n_fft, hop_length, win_length, window, dtype):
    """hop_length and win_length with PyTorch's defaults, and the window padded to n_fft
    in its middle (ones where none is given), with PyTorch's checks."""
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    if hop_length <= 0:
        raise RuntimeError(f"{call} : expected hop_length > 0, but got "
                           f"hop_length={hop_length}")
    if not 0 < win_length <= n_fft:
        raise RuntimeError(f"{call} : expected 0 < win_length <= n_fft, but got "
                           f"win_length={win_length}")
    if window is None:
        window = np.ones(win_length, np.empty(0, dtype).real.dtype)
    elif fnp.ndim(window) != 1 or fnp.shape(window)[0] != win_length:
        raise RuntimeError(f"{call} : expected a 1D window tensor of size equal to "
                           f"win_length={win_length}, but got window with size "
                           f"{list(fnp.shape(window))}")
    left = (n_fft - win_length) // 2
    return hop_length, fnp.pad(window, (left, n_fft - win_length - left))


def _frame_positions(n_frames, n_fft, hop_length):
    """The signal positions of each frame's samples, one frame a row."""
    return hop_length * np.arange(n_frames)[:, None] + np.arange(n_fft)[None, :]


def stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True,
         pad_mode="reflect", normalized=False, onesided=None, return_complex=None,
         align_to_window=None):
    complex_input = _is_complex(input) or _is_complex(window)
    call = _call("stft", input, n_fft, hop_length if hop_length is not None else n_fft // 4,
                 n_fft if win_length is None else win_length, window, normalized, onesided,
                 return_complex)
    if return_complex is None and not complex_input:
        raise RuntimeError("stft requires the return_complex parameter be given for real "
                           "inputs, and will further require that return_complex=True in a "
                           "future PyTorch release.")
    if align_to_window is not None:
        raise NotImplementedError("compat.stft: align_to_window is not supported; frame "
                                  "the signal with center=True or center=False")
    if not np.issubdtype(unbox_all(input).dtype, np.inexact):
        raise RuntimeError(f"{call} : expected a tensor of floating point or complex values")
    if fnp.ndim(input) not in (1, 2):
        raise RuntimeError(f"{call} : expected a 1D or 2D tensor")
    hop_length, window = _sizes(call, n_fft, hop_length, win_length, window,
                                unbox_all(input).dtype)
    if center:
        if pad_mode not in _PAD_MODES:
            raise NotImplementedError(f"Unrecognised padding mode {pad_mode}")
        half, length = n_fft // 2, fnp.shape(input)[-1]
        if pad_mode == "reflect" and half >= length:
            raise RuntimeError(f"Argument #4: Padding size should be less than the "
                               f"corresponding input dimension, but got: padding ({half}, "
                               f"{half}) at dimension 2 of input [1, 1, {length}]")
        widths = [(0, 0)] * (fnp.ndim(input) - 1) + [(half, half)]
        input = fnp.pad(input, widths, mode=_PAD_MODES[pad_mode])
    length = fnp.shape(input)[-1]
    if not 0 < n_fft <= length:
        raise RuntimeError(f"{call} : expected 0 < n_fft <= {length}, but got n_fft={n_fft}")
    if onesided is None:
        onesided = not complex_input
    elif onesided and complex_input:
        raise RuntimeError("Cannot have onesided output if window or input is complex")
    n_frames = 1 + (length - n_fft) // hop_length
    frames = fnp.getitem(input, (..., _frame_positions(n_frames, n_fft, hop_length)))
    transform = fnp.fft.rfft if onesided else fnp.fft.fft
    spectra = transform(frames * window, axis=-1, norm="ortho" if normalized else None)
    spectra = fnp.swapaxes(spectra, -1, -2)  # (..., frequency, frame), as PyTorch
    if return_complex or complex_input:
        return spectra
    return fnp.stack([fnp.real(spectra), fnp.imag(spectra)], axis=-1)


def istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True,
          normalized=False, onesided=None, length=None, return_complex=False):
    call = _call("istft", input, n_fft, hop_length if hop_length is not None else n_fft // 4,
                 n_fft if win_length is None else win_length, window, normalized, onesided,
                 return_complex)
    if not _is_complex(input):
        raise RuntimeError("istft requires a complex-valued input tensor matching the output "
                           "from stft with return_complex=True.")
    if fnp.ndim(input) not in (2, 3):
        raise RuntimeError(f"{call} : expected a tensor with 2 or 3 dimensions of complex "
                           f"values, but got {fnp.ndim(input)}")
    hop_length, window = _sizes(call, n_fft, hop_length, win_length, window,
                                unbox_all(input).dtype)
    n_frequencies, n_frames = fnp.shape(input)[-2:]
    if onesided is None:
        onesided = n_frequencies != n_fft
    expected = n_fft // 2 + 1 if onesided else n_fft
    if n_frequencies != expected:
        raise RuntimeError(f"istft: expected the frequency dimension (3rd to the last) of the "
                           f"input tensor to match n_fft / 2 + 1 when onesided=True, but got "
                           f"{n_frequencies}" if onesided else
                           f"istft: expected the frequency dimension (3rd to the last) of the "
                           f"input tensor to match n_fft when onesided=False, but got "
                           f"{n_frequencies}")
    if return_complex and onesided:
        raise RuntimeError("Cannot have onesided output if window or input is complex")
    spectra = fnp.swapaxes(input, -1, -2)  # (..., frame, frequency)
    norm = "ortho" if normalized else None
    if onesided:
        frames = fnp.fft.irfft(spectra, n=n_fft, axis=-1, norm=norm)
    else:
        frames = fnp.fft.ifft(spectra, n=n_fft, axis=-1, norm=norm)
        if not return_complex:
            frames = fnp.real(frames)
    positions = _frame_positions(n_frames, n_fft, hop_length)
    total = n_fft + hop_length * (n_frames - 1)
    batch = fnp.shape(frames)[:-2]
    signal = fnp.zeros(batch + (total,), dtype=unbox_all(frames).dtype)
    signal = fnp.at(signal)[..., positions].add(frames * window)
    envelope = fnp.at(fnp.zeros((total,), dtype=unbox_all(window).dtype))[positions].add(
        fnp.broadcast_to(window * window, positions.shape))
    start = n_fft // 2 if center else 0  # with center, cut off the padding stft added
    end = total - start if length is None else start + length
    kept = slice(start, min(end, total))
    if np.abs(unbox_all(envelope)[kept]).min(initial=1.0) < 1e-11:
        raise RuntimeError("istft: window overlap add min: 0 (the window's overlap-added "
                           "square is zero somewhere: choose a window and hop_length that "
                           "overlap)")
    out = fnp.getitem(signal, (..., kept)) / fnp.getitem(envelope, kept)
    if end > total:  # a longer `length` than the frames cover: zeros after them
        warnings.warn("The length of signal is shorter than the length parameter. Result is "
                      "being padded with zeros in the tail. Please check your center and "
                      "hop_length settings.", UserWarning, stacklevel=3)
        out = fnp.pad(out, [(0, 0)] * len(batch) + [(0, end - total)])
    return out
