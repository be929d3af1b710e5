"""torch.bfloat16, which NumPy has no type for: compat has the name, which prints and
compares as PyTorch's, and every use that needs the element type raises a TypeError that
says what to use instead (not an AttributeError for a missing name)."""
import pickle

import pytest
import torch

import compat

USES = [
    lambda t: t.tensor([1.5], dtype=t.bfloat16),
    lambda t: t.tensor([1.5], dtype="bfloat16"),
    lambda t: t.zeros(2, dtype=t.bfloat16),
    lambda t: t.randn(2, dtype=t.bfloat16),
    lambda t: t.ones(2).to(t.bfloat16),
    lambda t: t.ones(2).to("cpu", t.bfloat16),
    lambda t: t.ones(2).bfloat16(),
    lambda t: t.ones(2).type(t.bfloat16),
    lambda t: t.nn.Linear(2, 2).to(t.bfloat16),
    lambda t: t.set_default_dtype(t.bfloat16),
]


@pytest.mark.parametrize("use", USES)
def test_using_bfloat16_is_a_type_error_naming_the_alternative(use):
    with pytest.raises(TypeError, match=r"torch\.bfloat16 is not supported.*torch\.float32"):
        use(compat)
    assert compat.get_default_dtype() is compat.float32


def test_bfloat16_prints_and_compares_as_torch():
    for name in ("__repr__", "__str__"):
        assert getattr(compat.bfloat16, name)() == getattr(torch.bfloat16, name)()
    assert compat.bfloat16.is_floating_point == torch.bfloat16.is_floating_point
    assert compat.bfloat16.is_complex == torch.bfloat16.is_complex
    assert compat.bfloat16.itemsize == torch.bfloat16.itemsize
    assert compat.ones(1).dtype != compat.bfloat16
    assert pickle.loads(pickle.dumps(compat.bfloat16)) is compat.bfloat16
