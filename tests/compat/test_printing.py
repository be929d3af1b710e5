"""compat._printing.format_tensor against repr() of real PyTorch tensors holding the same values."""
import math
import warnings

import numpy as np
import pytest
import torch
from hypothesis import given, strategies as st

from compat._printing import format_tensor, get_printoptions, printoptions, set_printoptions
from compat_harness import check_printed

nan, inf = math.nan, math.inf


@pytest.fixture(autouse=True)
def default_print_options():
    """Every test starts and ends with the default options, in compat and in torch."""
    set_printoptions(profile="default")
    torch.set_printoptions(profile="default")
    yield
    set_printoptions(profile="default")
    torch.set_printoptions(profile="default")


def compat_repr(t, **kwargs):
    """format_tensor called with what the compat Tensor would know about `t`."""
    grad_fn = None if t.grad_fn is None else type(t.grad_fn).__name__
    return format_tensor(t.detach().resolve_conj().numpy(), str(t.dtype).removeprefix("torch."),
                         requires_grad=t.requires_grad, grad_fn_name=grad_fn, **kwargs)


def assert_prints_like_torch(t, **kwargs):
    assert compat_repr(t, **kwargs) == repr(t)


def _seeded(seed):
    return torch.Generator().manual_seed(seed)


T = torch.tensor
CASES = {
    "ones_requires_grad": lambda: T([[1., 1.]], requires_grad=True),
    "mean_grad_fn": lambda: T([3., 15.], requires_grad=True).mean(),
    "int64": lambda: T([1, 2]),
    "int32": lambda: T([1, -2], dtype=torch.int32),
    "uint8": lambda: T([0, 255], dtype=torch.uint8),
    "bool": lambda: T([True, False]),
    "bool_2d": lambda: T([[True], [False]]),
    "float64": lambda: T([1.5, 2.], dtype=torch.float64),
    "float16": lambda: T([1.5, 65504., 1e-7], dtype=torch.float16),
    "sci_small_and_large": lambda: T([1e-5, 1e5]),
    "sci_only_small": lambda: T([0.00001, 0.00002]),
    "sci_at_1e-4": lambda: T([1e-4, 1.]),
    "ratio_just_over_1000": lambda: T([1., 1000.5]),
    "ratio_1000_integers": lambda: T([1., 1000.]),
    "ratio_1001_integers": lambda: T([1., 1001.]),
    "int_valued_over_1e8": lambda: T([123456789.]),
    "int_valued_1e8": lambda: T([1e8]),
    "integer_floats": lambda: T([1., 2.]),
    "precision_rounding": lambda: T([1.23456, -9.87655, 0.00005 + 1]),
    "nan_inf": lambda: T([1.5, nan, -inf, inf]),
    "only_nonfinite": lambda: T([nan, inf, -inf]),
    "zero_and_nan": lambda: T([0., nan]),
    "negative_zero": lambda: T([-0., 1.]),
    "negative_zero_fraction": lambda: T([-0., 1.5]),
    "all_zero": lambda: T([0., -0.]),
    "scalar": lambda: T(3.5),
    "scalar_int": lambda: T(7),
    "scalar_bool": lambda: T(True),
    "scalar_nan": lambda: T(nan),
    "scalar_negative_zero": lambda: T(-0.),
    "scalar_float64": lambda: T(2., dtype=torch.float64),
    "scalar_sci": lambda: T(1e-9),
    "empty": lambda: T([]),
    "empty_int": lambda: T([], dtype=torch.int64),
    "empty_bool": lambda: T([], dtype=torch.bool),
    "empty_float64": lambda: T([], dtype=torch.float64),
    "empty_2d": lambda: torch.zeros(0, 3),
    "empty_3d_int32": lambda: torch.zeros(2, 0, 3, dtype=torch.int32),
    "empty_requires_grad": lambda: torch.zeros(0, 3, requires_grad=True),
    "wide_1d": lambda: torch.arange(30.) * 1.5,
    "wide_1d_int": lambda: torch.arange(100) * 1001,
    "wide_2d": lambda: torch.randn(3, 20, generator=_seeded(0)),
    "wide_1d_grad_fn": lambda: torch.arange(30., requires_grad=True) * 1.5,
    "suffix_wraps_after_last_line": lambda: (T([1.25] * 9, dtype=torch.float64,
                                               requires_grad=True) * 1),
    "suffix_just_fits": lambda: T([1.25] * 7, dtype=torch.float64, requires_grad=True),
    "suffix_wraps_single_line": lambda: T([1.25] * 8, dtype=torch.float64, requires_grad=True),
    "block_3d": lambda: torch.randn(3, 4, 5, generator=_seeded(1)),
    "block_4d": lambda: torch.arange(24).reshape(2, 3, 2, 2),
    "summarized_1d": lambda: torch.arange(2000.),
    "summarized_2d": lambda: torch.arange(2000).reshape(2, 1000),
    "summarized_3d": lambda: torch.randn(100, 100, 100, generator=_seeded(2)),
    "summarized_rows": lambda: torch.arange(3000.).reshape(1000, 3) / 7,
    "summarized_width_from_edges_only": lambda: torch.cat(
        [T([1.]), torch.full((1000,), 1e-9), T([2.])]),
    "summarized_requires_grad": lambda: torch.ones(1001, requires_grad=True),
    "at_threshold": lambda: torch.arange(1000.),
    "complex": lambda: T([1 + 2j, 3 - 1j, -0.5j]),
    "complex_nonfinite": lambda: T([1.5 + 2j, nan - 1j, complex(0, inf)]),
    "complex128_scalar": lambda: T(1 - 1e-7j, dtype=torch.complex128),
    "complex_summarized": lambda: torch.randn(2000, dtype=torch.complex64, generator=_seeded(3)),
    "float64_extremes": lambda: T([5e-324, 1e308, -1e-300], dtype=torch.float64),
    "huge_ints": lambda: T([-2**63, 2**63 - 1]),
}


@pytest.mark.parametrize("name", CASES)
def test_hand_picked(name):
    assert_prints_like_torch(CASES[name]())


OPTION_SETS = [
    dict(precision=2), dict(precision=0), dict(precision=10), dict(sci_mode=True),
    dict(sci_mode=False), dict(threshold=5), dict(threshold=0), dict(edgeitems=1, threshold=3),
    dict(edgeitems=0), dict(edgeitems=0, threshold=5), dict(linewidth=20), dict(linewidth=1),
    dict(linewidth=200), dict(profile="short"), dict(profile="full"),
    dict(profile="short", precision=6),
]
OPTION_CASES = ["sci_small_and_large", "integer_floats", "nan_inf", "zero_and_nan", "scalar",
                "empty_2d", "wide_1d_grad_fn", "block_3d", "summarized_2d", "complex",
                "int32", "bool_2d"]


@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
def test_print_options(options):
    set_printoptions(**options)
    torch.set_printoptions(**options)
    for name in OPTION_CASES:
        assert_prints_like_torch(CASES[name]())


def test_set_printoptions_resets_sci_mode_like_torch():
    set_printoptions(sci_mode=False)
    set_printoptions(precision=3)
    assert get_printoptions()["sci_mode"] is None
    assert format_tensor(np.array([1e-5, 1.]), "float32") == "tensor([1.000e-05, 1.000e+00])"


def test_printoptions_context_restores():
    with printoptions(precision=1, linewidth=30):
        assert format_tensor(np.array([1.26]), "float32") == "tensor([1.3])"
    assert get_printoptions() == dict(precision=4, threshold=1000, edgeitems=3, linewidth=80,
                                      sci_mode=None)


def test_default_dtype_float64():
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        for t in [T([1.5]), T([1.5], dtype=torch.float32), T([1j]), T([1j], dtype=torch.complex64),
                  T([]), T([], dtype=torch.float32)]:
            assert_prints_like_torch(t, default_dtype="float64")
    finally:
        torch.set_default_dtype(old)


def test_values_are_cast_to_the_dtype():
    assert format_tensor([1.1, 2.7], "int32") == "tensor([1, 2], dtype=torch.int32)"
    assert format_tensor(np.float64(0.1), "float16") == repr(T(0.1, dtype=torch.float16))


def test_unknown_dtype_is_rejected():
    with pytest.raises(ValueError, match="dtype_name"):
        format_tensor([1.], "float128")
    with pytest.raises(ValueError, match="profile"):
        set_printoptions(profile="long")


# ---------------------------------------------------------------------------------------
# Property tests: arrays are built by NumPy from a drawn seed, so large shapes stay cheap.

NUMPY_DTYPES = {"float32": np.float32, "float64": np.float64, "float16": np.float16,
                "int64": np.int64, "int32": np.int32, "bool": np.bool_,
                "complex64": np.complex64}
VALUE_FAMILIES = ["normal", "integers", "big_integers", "log_uniform", "tiny", "huge"]

small_shapes = st.lists(st.integers(0, 12), min_size=0, max_size=3).map(tuple)
large_shapes = st.sampled_from([(1001,), (2, 501), (40, 30), (11, 10, 12), (3, 400, 2)])


def random_values(rng, shape, dtype_name, family, special_rate):
    if dtype_name == "bool":
        return rng.random(shape) < 0.5
    if dtype_name.startswith("int"):
        bound = 10 ** int(rng.integers(1, 19 if dtype_name == "int64" else 10))
        return rng.integers(-bound, bound, size=shape)
    values = _real_values(rng, shape, family)
    if dtype_name.startswith("complex"):
        values = values + 1j * _real_values(rng, shape, family)
    values = np.array(values)  # 0-d draws come back as scalars
    specials = np.array([nan, inf, -inf, 0.0, -0.0])
    mask = rng.random(shape) < special_rate
    values[mask] = rng.choice(specials, size=int(mask.sum()))
    return values


def _real_values(rng, shape, family):
    signs = rng.choice([-1.0, 1.0], size=shape)
    if family == "normal":
        return rng.standard_normal(shape) * 10.0 ** int(rng.integers(-8, 11))
    if family == "integers":
        return rng.integers(-20, 20, size=shape).astype(np.float64)
    if family == "big_integers":
        return rng.integers(-10**10, 10**10, size=shape).astype(np.float64)
    if family == "log_uniform":
        low = rng.uniform(-12, 10)
        return signs * 10.0 ** rng.uniform(low, low + rng.uniform(0, 6), size=shape)
    if family == "tiny":
        return signs * 10.0 ** rng.uniform(-320, -30, size=shape)
    return signs * 10.0 ** rng.uniform(7, 300, size=shape)


@st.composite
def tensors(draw, shapes=small_shapes):
    shape = draw(shapes)
    dtype_name = draw(st.sampled_from(sorted(NUMPY_DTYPES)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    family = draw(st.sampled_from(VALUE_FAMILIES))
    special_rate = draw(st.sampled_from([0.0, 0.0, 0.1, 0.5, 1.0]))
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        values = random_values(rng, shape, dtype_name, family, special_rate)
        t = torch.tensor(values.astype(NUMPY_DTYPES[dtype_name]))
    autograd = draw(st.sampled_from(["none", "leaf", "grad_fn"]))
    if autograd != "none" and (t.is_floating_point() or t.is_complex()):
        t.requires_grad_(True)
        if autograd == "grad_fn":
            t = t * 1
    return t


@given(tensors())
def test_random_tensors_print_like_torch(t):
    assert_prints_like_torch(t)


@given(tensors(large_shapes))
def test_random_large_tensors_print_like_torch(t):
    assert_prints_like_torch(t)


print_options = st.fixed_dictionaries({}, optional={
    "precision": st.integers(0, 8), "threshold": st.sampled_from([0, 5, 30, 100]),
    "edgeitems": st.integers(0, 4), "linewidth": st.integers(1, 150),
    "sci_mode": st.sampled_from([True, False]),
    "profile": st.sampled_from(["default", "short", "full"])})


@given(tensors(), print_options)
def test_random_tensors_with_print_options(t, options):
    set_printoptions(**options)
    torch.set_printoptions(**options)
    assert_prints_like_torch(t)


SPECIAL_VALUES = [
    "[0.0, -0.0, 1.5]", "[1e-8, 1.0, 1e8]", "[float('nan'), float('inf'), -float('inf')]",
    "[123456789.0, 1.0]", "[0.1, 0.25, 1e-5]", "[[1.5, 2], [3, 4e10]]", "[1, -2, 300]",
    "[True, False]", "[1e-20, 1e20]", "[2.0**60]", "[]", "[[[]]]", "3.25", "[1+2j, -0.5j, 0j]",
    "[float('nan') + 1j]", "[1.0] * 1001", "[[0.12345678] * 8] * 3", "[5e-324]",
    "[65504.0, 1e-7]",
]


@pytest.mark.parametrize("values", SPECIAL_VALUES)
def test_every_dtype_of_special_values_prints_as_torchs(values):
    """(compat converted complex numbers to bool by their real part: -0.5j was False.)"""
    for dtype in ["uint8", "int8", "int32", "int64", "bool", "float16", "float32", "float64",
                  "complex64", "complex128"]:
        def case(torch, dtype=dtype):
            x = torch.tensor(eval(values)).to(getattr(torch, dtype))
            print(repr(x), x.tolist())
        with warnings.catch_warnings():  # (casts of complex values to real ones warn)
            warnings.simplefilter("ignore")
            check_printed(case)
