"""compat.fft.fftfreq and rfftfreq against PyTorch 2.13: every bit of the frequencies for
even, odd, empty and negative n, spacings including 0 (inf and nan, as PyTorch's), each
float dtype and requires_grad; and PyTorch's errors word for word."""
import numpy as np
import pytest
import torch

import compat

SIZES = (0, 1, 2, 5, 6, 7, 100, 1001, -1, -3)


@pytest.mark.parametrize("dtype", [None, "float16", "float32", "float64"])
@pytest.mark.parametrize("d", [1.0, 0.1, 3, 1e-3, 0.0, -2.5])
@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
def test_frequencies_bit_for_bit(name, d, dtype):
    for n in SIZES:
        if name == "fftfreq" and n < 0:
            continue
        results = []
        for library in (torch, compat):
            options = {} if dtype is None else {"dtype": getattr(library, dtype)}
            results.append(getattr(library.fft, name)(n, d, **options).numpy())
        theirs, ours = results
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape, (n, ours, theirs)
        assert ours.tobytes() == theirs.tobytes(), (n, ours, theirs)


def test_requires_grad_makes_a_leaf():
    for library in (torch, compat):
        t = library.fft.rfftfreq(8, 0.5, requires_grad=True)
        assert t.requires_grad and t.is_leaf and t.grad_fn is None


MISUSES = ["fft.fftfreq(3, dtype=L.int64)", "fft.rfftfreq(4, dtype=L.bool)",
           "fft.fftfreq(3, dtype=L.complex64)", "fft.rfftfreq(3, dtype=L.complex128)",
           "fft.fftfreq(2.5)", "fft.rfftfreq(True)", "fft.fftfreq(-3)", "fft.rfftfreq(-5)"]


@pytest.mark.parametrize("call", MISUSES)
def test_misuses_raise_pytorchs_errors(call):
    raised = []
    for library in (torch, compat):
        with pytest.raises(Exception) as error:
            eval(call, {"L": library, "fft": library.fft})
        raised.append((error.type, str(error.value)))
    assert raised[0] == raised[1]
