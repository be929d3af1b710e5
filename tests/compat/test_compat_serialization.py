"""compat.save/compat.load exchange files with torch.save/torch.load both ways: what PyTorch
loads from compat's file equals what compat loads from PyTorch's, for the same object."""
import collections
import fractions
import pickle

import numpy as np
import pytest
import torch

import compat
from compat_harness import assert_same

OBJECTS = [
    "torch.arange(6.).reshape(2, 3)", "torch.tensor(2.5)", "torch.tensor([1, 2, 3])",
    "torch.tensor([True, False])", "torch.zeros(0)", "torch.ones(2, 3, dtype=torch.float64)",
    "torch.arange(4, dtype=torch.int32)", "torch.arange(3, dtype=torch.uint8)",
    "torch.ones(2, dtype=torch.float16)", "torch.arange(6.).reshape(2, 3).t()",
    "torch.arange(10.)[2:8:2]", "torch.ones(3, requires_grad=True)",
    "{'w': torch.ones(2, 2), 'b': torch.zeros(2), 'step': 3}",
    "collections.OrderedDict([('0.weight', torch.eye(2)), ('0.bias', torch.ones(2))])",
    "[torch.ones(1), (2, 'x', None), {'k': [1.5, True]}]",
    "{'dtype': torch.float64, 'size': torch.Size([2, 3])}",
    "torch.nn.Parameter(torch.ones(2, 3))",
    "torch.nn.Parameter(torch.arange(3.), requires_grad=False)",
    "collections.OrderedDict([('weight', torch.nn.Parameter(torch.eye(2))), "
    "('bias', torch.zeros(2))])",
]


def _build(expression, library):
    return eval(expression, {"torch": library, "collections": collections})


@pytest.mark.parametrize("expression", OBJECTS)
def test_files_exchange_both_ways(expression, tmp_path):
    compat.save(_build(expression, compat), tmp_path / "from_compat.pt")
    torch.save(_build(expression, torch), tmp_path / "from_torch.pt")
    theirs = torch.load(tmp_path / "from_compat.pt")
    ours = compat.load(tmp_path / "from_torch.pt")
    assert_same(ours, theirs)
    assert_same(compat.load(tmp_path / "from_compat.pt"), torch.load(tmp_path / "from_torch.pt"))


def test_shared_storage_is_kept_both_ways(tmp_path):
    for library, other in ((compat, torch), (torch, compat)):
        base = library.arange(6.)
        library.save({"base": base, "view": base[3:]}, tmp_path / "shared.pt")
        loaded = other.load(tmp_path / "shared.pt")
        loaded["base"][4] = 100.0  # visible through the view, as in the saved tensors
        assert loaded["view"].tolist() == [3.0, 100.0, 5.0]


def test_a_saved_parameter_loads_as_a_parameter_both_ways(tmp_path):
    """torch.load gives back nn.Parameter objects for saved parameters (with their
    requires_grad), one object for a parameter saved twice; plain tensors stay tensors."""
    def saved(library, path):
        weight = library.nn.Parameter(library.ones(2))
        frozen = library.nn.Parameter(library.zeros(1), requires_grad=False)
        library.save({"w": weight, "again": weight, "frozen": frozen,
                      "plain": library.ones(1)}, path)
    for library, other in ((compat, torch), (torch, compat)):
        saved(library, tmp_path / "parameters.pt")
        loaded = other.load(tmp_path / "parameters.pt")
        assert [type(loaded[key]) is other.nn.Parameter for key in loaded] == \
            [True, True, True, False]
        assert [loaded[key].requires_grad for key in loaded] == [True, True, False, False]
        assert loaded["w"] is loaded["again"]


def test_a_file_object_works_like_a_path(tmp_path):
    import io
    buffer = io.BytesIO()
    compat.save({"x": compat.ones(3)}, buffer)
    buffer.seek(0)
    assert torch.load(buffer)["x"].tolist() == [1.0, 1.0, 1.0]


def test_weights_only_loading_refuses_other_objects_as_torch_does(tmp_path):
    torch.save({"fraction": fractions.Fraction(1, 3)}, tmp_path / "object.pt")
    for library in (torch, compat):
        with pytest.raises(pickle.UnpicklingError, match="Weights only load failed"):
            library.load(tmp_path / "object.pt")
    loaded = compat.load(tmp_path / "object.pt", weights_only=False)
    assert loaded["fraction"] == fractions.Fraction(1, 3)


def test_a_non_zip_file_is_refused(tmp_path):
    np.save(tmp_path / "array.npy", np.ones(2))
    with pytest.raises(RuntimeError, match="zip"):
        compat.load(tmp_path / "array.npy")
