"""compat's anomaly detection and make_dot, against PyTorch where PyTorch has them."""
import warnings

import pytest
import torch

import compat
from compat.viz import make_dot


def _nan_backward(lib):
    x = lib.tensor([0.0, 4.0], requires_grad=True)
    y = lib.sqrt(x) * 0.0           # sqrt's gradient at 0 is inf, times 0 is nan
    y.sum().backward()
    return x


@pytest.mark.parametrize("lib", [torch, compat])
def test_detect_anomaly_raises_runtime_error_on_nan_gradient(lib):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError, match="nan"):
            with lib.autograd.detect_anomaly():
                _nan_backward(lib)


def test_detect_anomaly_names_the_users_line():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError) as info:
            with compat.autograd.detect_anomaly():
                _nan_backward(compat)
    assert "test_compat_debugging.py" in str(info.value)
    assert "sqrt" in str(info.value)


@pytest.mark.parametrize("lib", [torch, compat])
def test_without_anomaly_mode_the_nan_passes_silently(lib):
    x = _nan_backward(lib)
    assert bool(lib.isnan(x.grad).any())


def test_detect_anomaly_as_decorator_and_switch_restore_state():
    @compat.autograd.detect_anomaly()
    def inside():
        return compat.autograd.is_anomaly_enabled()

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert inside()
    assert not compat.autograd.is_anomaly_enabled()


def test_make_dot_shows_names_leaves_and_saved_shapes():
    w = compat.ones(2, 3, requires_grad=True)
    x = compat.ones(4, 2)
    loss = x.mm(w).clamp(min=0).pow(2).sum()
    source = str(make_dot(loss, params={"weights": w}))
    for name in ("SumBackward0", "PowBackward0", "MmBackward0"):
        assert name in source
    assert "weights\\n(2, 3)" in source
    # As in PyTorch, mm saves only what the gradients it computes need: x, for w's.
    assert "MmBackward0\\nsaved: (4, 2)\"" in source
    assert source.startswith("digraph")
