"""torch.fft: rows of the torch-name table (compat._torch_names), computed with
funcgrad.numpy and differentiable through its rules, and the bins' frequencies."""
from .._torch_names import namespace
from ._frequencies import fftfreq, rfftfreq

globals().update(namespace("fft"))
__all__ = sorted([*namespace("fft"), "fftfreq", "rfftfreq"])
