"""Devices and dtypes against PyTorch 2.13's CPU build: torch.device, device= on the
factories, .to()/.cpu()/.cuda(), torch.cuda, the dtype objects, promotion and the default
dtype. Errors are compared by type and text (a user searches for the text)."""
import itertools
import pickle

import pytest
import torch

import compat
from compat_harness import check

DEVICES = [
    "torch.device('cpu')", "torch.device('cpu', 0)", "torch.device('cpu:0')",
    "torch.device('cuda')", "torch.device('cuda', 1)", "torch.device('cuda:1')",
    "torch.device(torch.device('cuda:2'))", "str(torch.device('cuda', 1))",
    "str(torch.device('cpu'))", "torch.device('cpu').type", "torch.device('cuda:3').index",
    "torch.device('cpu').index", "torch.device('cpu') == torch.device('cpu')",
    "torch.device('cpu') == torch.device('cpu', 0)", "torch.device('cpu') == 'cpu'",
    "len({torch.device('cpu'), torch.device('cpu')})",
    "torch.device('gpu')", "torch.device('cuda:x')", "torch.device('cuda:0:1')",
    "torch.device(' cpu')", "torch.device('CPU')", "torch.device('cuda', -1)",
    "torch.device('cuda', 'a')", "torch.device(3)",
]
TENSORS_ON_DEVICES = [
    "x.device", "x.is_cuda", "x.get_device()", "x.cpu() is x", "x.to('cpu') is x",
    "x.to(torch.device('cpu')) is x", "x.to(x.device) is x", "x.to('cpu', torch.float64)",
    "x.to(device='cpu', dtype=torch.int32)", "x.to(torch.ones(1, dtype=torch.float64))",
    "x.to(torch.float16)", "x.to('cpu', copy=True) is x", "x.to(dtype=torch.int64)",
    "torch.ones(2, device='cpu').device", "torch.zeros(2, device=torch.device('cpu'))",
    "torch.tensor(1., device='cpu:0').device", "torch.arange(3, device='cpu')",
    "torch.full((2,), 3., device='cpu')", "torch.eye(2, device='cpu')",
    "torch.linspace(0, 1, 3, device='cpu')", "torch.empty(2, device='cpu').shape",
    "torch.zeros_like(x, device='cpu')", "x.new_ones(2, device='cpu')",
    "x.new_tensor([1.], device='cpu')", "torch.rand(2, device='cpu').shape",
    "torch.as_tensor([1., 2.], device='cpu')",
    # a build without CUDA: PyTorch's own errors
    "x.cuda()", "x.cuda(0)", "x.to('cuda')", "x.to('cuda:0', torch.float64)",
    "x.to(torch.device('cuda'))", "x.to(1)", "x.to('mps')", "x.to('xpu')",
    "torch.ones(2, device='cuda')", "torch.zeros(2, device='cuda:0')",
    "torch.tensor([1.], device='cuda')", "torch.arange(3, device='cuda')",
    "torch.eye(2, device='cuda')", "torch.full((2,), 1., device='cuda')",
    "torch.zeros_like(x, device='cuda')", "x.new_ones(2, device='cuda')",
    "torch.randn(2, device='cuda')", "torch.rand(2, device=torch.device('cuda', 0))",
    "torch.as_tensor([1.], device='cuda')",
    "torch.cuda.is_available()", "torch.cuda.device_count()", "torch.cuda.is_initialized()",
    "torch.cuda.current_device()", "torch.cuda.synchronize()", "torch.cuda.get_device_name()",
    "torch.cuda.manual_seed(0)", "torch.cuda.manual_seed_all(0)", "torch.cuda.empty_cache()",
    "torch.accelerator.is_available()", "torch.accelerator.current_accelerator()",
    "torch.backends.mps.is_available()", "torch.backends.cudnn.is_available()",
    "torch.get_default_device()",
]


@pytest.mark.parametrize("expression", DEVICES + TENSORS_ON_DEVICES)
def test_device_matches_torch(expression):
    check(lambda torch: eval(expression, {"torch": torch, "x": torch.ones(2)}), messages=True)


def test_the_tutorials_device_choice_runs_on_the_cpu():
    def case(torch):
        device = (torch.accelerator.current_accelerator().type
                  if torch.accelerator.is_available() else "cpu")
        legacy = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        w = torch.randn(3, 2, device=device, requires_grad=True).to(legacy)
        (w * 2).sum().backward()
        return device, legacy, w.grad, w.grad.device
    check(case)


DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]


@pytest.mark.parametrize("a, b", itertools.product(DTYPES, DTYPES))
def test_promote_types_matches_torch(a, b):
    check(lambda torch: (torch.promote_types(getattr(torch, a), getattr(torch, b)),
                         torch.can_cast(getattr(torch, a), getattr(torch, b))))


@pytest.mark.parametrize("name", DTYPES)
def test_dtype_objects_match_torch(name):
    def case(torch):
        d = getattr(torch, name)
        info = torch.finfo(d) if d.is_floating_point else None if d is torch.bool else \
            torch.iinfo(d)
        limits = None if info is None else (info.bits, info.max, info.min, info.dtype,
                                            repr(info))
        return (repr(d), str(d), d.is_floating_point, d.is_complex, d.is_signed, d.itemsize,
                torch.ones(2, dtype=d).dtype, torch.tensor([1, 0], dtype=d).to(d).dtype,
                limits, (torch.ones(2, dtype=d) / 2).dtype, (torch.ones(2, dtype=d) + 1).dtype,
                (torch.ones(2, dtype=d) * 1.5).dtype)
    check(case)


MIXED_OPERANDS = [
    "torch.ones(2, dtype=torch.{a}) + torch.ones(2, dtype=torch.{b})",
    "torch.ones(2, dtype=torch.{a}) * torch.ones((), dtype=torch.{b})",
    "torch.result_type(torch.ones(2, dtype=torch.{a}), torch.ones((), dtype=torch.{b}))",
    "torch.where(torch.tensor([True, False]), torch.ones(2, dtype=torch.{a}), "
    "torch.zeros(2, dtype=torch.{b}))",
]


@pytest.mark.parametrize("a, b", [("int32", "float64"), ("uint8", "int8"), ("bool", "int16"),
                                  ("float16", "float32"), ("int64", "float16"),
                                  ("bool", "float64")])
@pytest.mark.parametrize("template", MIXED_OPERANDS)
def test_result_dtype_of_mixed_operands_matches_torch(template, a, b):
    check(lambda torch: eval(template.format(a=a, b=b), {"torch": torch}))


DEFAULT_DTYPE_CASES = [
    "torch.tensor(1.5)", "torch.ones(2)", "torch.arange(2.)", "torch.tensor([1, 2]) / 2",
    "torch.get_default_dtype()", "torch.tensor(2) * 1.5", "torch.finfo().dtype",
    "torch.rand(2).dtype", "torch.zeros(2, dtype=torch.int64).float().dtype",
]


@pytest.mark.parametrize("default", ["float64", "float16"])
@pytest.mark.parametrize("expression", DEFAULT_DTYPE_CASES)
def test_set_default_dtype_matches_torch(default, expression):
    def case(torch):
        torch.set_default_dtype(getattr(torch, default))
        try:
            return eval(expression, {"torch": torch})
        finally:
            torch.set_default_dtype(torch.float32)
    check(case, rtol=1e-3)


@pytest.mark.parametrize("value", ["torch.int64", "torch.bool", "'float64'", "float"])
def test_set_default_dtype_refuses_what_torch_refuses(value):
    def case(torch):
        try:
            torch.set_default_dtype(eval(value, {"torch": torch}))
        finally:
            torch.set_default_dtype(torch.float32)
    check(case, messages=True)


def test_default_dtype_is_restored_after_the_tests_above():
    assert compat.get_default_dtype() is compat.float32
    assert torch.get_default_dtype() is torch.float32


def test_a_device_survives_pickling():
    d = compat.device("cuda", 2)
    assert pickle.loads(pickle.dumps(d)) == d
