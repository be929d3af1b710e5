"""Every function of compat's table that takes one tensor, over every dtype, against
PyTorch: the same result (dtype, shape and values) or the same error with the same text.
compat computed what PyTorch refuses in another dtype (nanmean of integers in float64,
round of bools in float16), crashed on uint8 sums (NumPy's uint64) and checked matrices'
dtypes before their shapes."""
import warnings

import pytest
import torch

from compat import _torch_names
from compat_harness import check, seeded

DTYPES = ["uint8", "int8", "int16", "int32", "int64", "bool", "float16", "float32",
          "float64", "complex64"]
# Results defined up to the signs of singular vectors: compared by shape and dtype.
UP_TO_SIGNS = {"linalg.svd"}
# PyTorch's message prints the tensor as its C++ code does.
PRINTS_THE_TENSOR = {"meshgrid"}


def _function(library, name):
    function = library
    for part in name.split("."):
        function = getattr(function, part, None)
    return function


def _takes_one_tensor(name):
    """Whether PyTorch has `name` and calls it on one tensor (no argument missing)."""
    function = _function(torch, name)
    if function is None:
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            function(torch.ones(2, 3))
    except TypeError as error:
        return "argument" not in str(error)
    except Exception:
        return True
    return True


ROW_NAMES = sorted(name for name in {row.name for row in _torch_names.ROWS}
                   if name not in PRINTS_THE_TENSOR and _takes_one_tensor(name))


@pytest.mark.filterwarnings("ignore::UserWarning", "ignore::FutureWarning")
@pytest.mark.parametrize("name", ROW_NAMES)
def test_each_dtype_gives_torchs_result_or_error(name):
    for dtype in DTYPES:
        def case(library, dtype=dtype):
            x = library.tensor([[0, 1, 2], [3, 1, 0]]).to(getattr(library, dtype))
            result = _function(library, name)(x)
            if name in UP_TO_SIGNS:
                return [(t.shape, t.dtype) for t in result]
            return result
        check(seeded(case), rtol=1e-3, atol=1e-3, messages=True)


PRODUCTS = [
    "a @ a", "m @ m", "m @ a", "a @ m", "b @ b", "b @ m", "m @ b", "b @ a", "a @ b",
    "torch.mm(m, m)", "torch.mv(m, a)", "torch.dot(a, a)", "torch.vdot(a, a)",
    "torch.bmm(b, b)", "torch.inner(a, a)", "torch.inner(m, m)", "torch.outer(a, a)",
    "torch.tensordot(m, m, 1)", "torch.kron(m, m)", "torch.addmm(m, m, m)",
    "torch.addmv(a, m, a)", "torch.addr(m, a, a)", "torch.baddbmm(b, b, b)",
    "torch.addbmm(m, b, b)", "torch.linalg.multi_dot([m, m])", "torch.linalg.matmul(b, m)",
    "torch.chain_matmul(m, m)", "torch.chain_matmul(m)", "torch.matrix_power(m, 2)",
    "torch.einsum('ij,jk', m, m)", "torch.einsum('ii', m)", "torch.einsum('ij->', m)",
    "torch.einsum('ij->i', m)", "torch.einsum('ij->ji', m)",
    "torch.nn.functional.linear(m, m)", "torch.nn.functional.linear(m, m, a)",
    "torch.nn.functional.bilinear(m, m, b)",
]


@pytest.mark.filterwarnings("ignore:torch.chain_matmul is deprecated:UserWarning")
@pytest.mark.parametrize("expression", PRODUCTS)
def test_products_take_the_dtypes_torch_takes(expression):
    """PyTorch has no bool loops in its product kernels (whose names its errors give) and
    sums integers of a one-operand einsum into int64."""
    for dtype in DTYPES:
        def case(library, dtype=dtype):
            values = library.tensor([[3, 1], [2, 0]]).to(getattr(library, dtype))
            return eval(expression, {"torch": library, "m": values, "a": values[0],
                                     "b": values.expand(2, 2, 2)})
        check(seeded(case), rtol=1e-3, atol=1e-3, messages=True)


def _takes_two_tensors(name):
    """Whether PyTorch's `name` needs a second argument and is called on two tensors (no
    argument missing)."""
    function = _function(torch, name)
    if function is None:
        return False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            function(torch.ones(2, 3))
        except TypeError:
            pass
        except Exception:
            return False
        else:
            return False
        try:
            function(torch.ones(2, 3), torch.ones(2, 3))
        except TypeError as error:
            return "argument" not in str(error)
        except Exception:
            return True
    return True


# Calls that misuse an argument (a matrix where PyTorch wants a scalar, sizes or pivots),
# whose errors compat gives in another order or words.
_MISUSED = pytest.mark.xfail(strict=True, reason=(
    "a matrix passed where PyTorch wants a scalar, a size or pivots: compat's error comes "
    "in another order or words"))
MISUSING = {"stft", "quantile", "nanquantile", "lu_unpack", "unravel_index",
            "linalg.tensorsolve"}
TWO_TENSOR_NAMES = sorted(name for name in {row.name for row in _torch_names.ROWS}
                          if _takes_two_tensors(name))


@pytest.mark.filterwarnings("ignore::UserWarning", "ignore::FutureWarning")
@pytest.mark.parametrize("name", [
    pytest.param(name, marks=[_MISUSED] if name in MISUSING else []) for name in
    TWO_TENSOR_NAMES])
def test_each_dtype_of_two_tensors_gives_torchs_result_or_error(name):
    for dtype in DTYPES:
        if name == "complex" and dtype == "float16":
            continue  # (compat has no complex32: docs/guide-compat.md)
        def case(library, dtype=dtype):
            x = library.tensor([[0, 1, 2], [3, 1, 0]]).to(getattr(library, dtype))
            y = library.tensor([[1, 1, 0], [2, 3, 1]]).to(getattr(library, dtype))
            return _function(library, name)(x, y)
        check(seeded(case), rtol=1e-3, atol=1e-3, messages=True)


@pytest.mark.parametrize("call", [
    "torch.searchsorted(rows, torch.tensor([[3, 6], [4, 0]]))",
    "torch.searchsorted(rows, torch.tensor([[3, 6], [4, 0]]), side='right')",
    "torch.searchsorted(rows, torch.tensor([[3, 6], [4, 0]]), right=True, out_int32=True)",
    "torch.searchsorted(rows, torch.tensor([[3], [4]]), right=True, side='left')",
    "torch.searchsorted(rows, torch.tensor([3, 4]))",
    "torch.searchsorted(rows[0], torch.tensor([[3], [4]]))",
    "torch.searchsorted(rows[0], 4)",
    "torch.searchsorted(shuffled, torch.tensor([[3, 6], [4, 0]]), sorter=order)",
    "torch.searchsorted(shuffled[1], torch.tensor([3, 7]), sorter=order[1])",
    "torch.searchsorted(rows.float(), torch.tensor([[2.5], [float('nan')]]))",
    "torch.bucketize(torch.tensor([[1, 4], [6, 9]]), rows[0], right=True)",
    "torch.bucketize(torch.tensor([1, 4]), rows)",
])
def test_searchsorted_searches_each_row_as_torch(call):
    """Rows of a sorted sequence of more than one dimension, each searched for the values
    in its row of `values`, and `sorter` (compat searched the unsorted sequence)."""
    def case(torch):
        rows = torch.tensor([[1, 3, 5, 7], [0, 2, 4, 8]])
        shuffled = torch.tensor([[5, 1, 7, 3], [8, 0, 4, 2]])
        order = torch.argsort(shuffled, dim=-1)
        return eval(call, {"torch": torch, "rows": rows, "shuffled": shuffled,
                           "order": order})
    check(case, messages=True)


# The functions written by hand (not from the table) that take one tensor.
_NOT_CALLED = {  # (setting state, reading files or memory: not a function of a tensor)
    "manual_seed", "seed", "set_default_dtype", "set_default_device", "set_printoptions",
    "set_num_threads", "set_num_interop_threads", "save", "load", "set_rng_state",
    "use_deterministic_algorithms", "set_warn_always", "set_flush_denormal",
    "set_default_tensor_type", "set_float32_matmul_precision", "from_numpy", "frombuffer",
    "from_dlpack", "set_grad_enabled", "empty", "empty_strided",
    "empty_like"}  # (uninitialised values)


def _hand_written_one_tensor_names():
    import inspect

    import compat
    table = {row.name for row in _torch_names.ROWS}
    names = []
    for name in dir(compat):
        theirs = getattr(torch, name, None)
        if (name.startswith("_") or name in table or name in _NOT_CALLED
                or not callable(getattr(compat, name)) or not callable(theirs)
                or inspect.isclass(theirs) or inspect.ismodule(theirs)):
            continue
        if _takes_one_tensor(name):
            names.append(name)
    return sorted(names)


@pytest.mark.filterwarnings("ignore::UserWarning", "ignore::FutureWarning")
@pytest.mark.parametrize("name", _hand_written_one_tensor_names())
def test_each_dtype_of_a_hand_written_function_gives_torchs_result_or_error(name):
    """(compat gave bool for any/all of uint8, computed argmax of bools and +bools, and
    crashed on conj_physical_ of bools.)"""
    for dtype in DTYPES:
        def case(library, dtype=dtype):
            x = library.tensor([[0, 1, 2], [3, 1, 0]]).to(getattr(library, dtype))
            result = getattr(library, name)(x)
            if name == "svd":  # (singular vectors: up to signs)
                return [(t.shape, t.dtype) for t in result]
            return result
        check(seeded(case), rtol=1e-3, atol=1e-3, messages=True)


@pytest.mark.parametrize("expression", ["+x", "x.positive()", "x.conj_physical_()",
                                        "x.all()", "x.any(0)", "x.argmax()"])
def test_tensor_methods_and_operators_take_the_dtypes_torch_takes(expression):
    for dtype in DTYPES:
        def case(library, dtype=dtype):
            x = library.tensor([[0, 1, 2], [3, 1, 0]]).to(getattr(library, dtype))
            return eval(expression, {"x": x})
        check(case, messages=True)


BINARY = ["add", "sub", "mul", "div", "true_divide", "floor_divide", "remainder", "fmod",
          "pow", "atan2", "hypot", "maximum", "minimum", "fmax", "fmin", "eq", "ne", "lt",
          "le", "gt", "ge", "logical_and", "logical_or", "logical_xor", "bitwise_and",
          "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift",
          "copysign", "nextafter", "xlogy", "logaddexp", "logaddexp2", "heaviside", "ldexp",
          "float_power", "dot", "outer", "isclose", "gcd", "lcm", "special.xlog1py",
          "special.zeta", "igamma", "igammac", "polar", "complex"]
# (compat has no complex32: docs/guide-compat.md)
_MAKES_COMPLEX32 = {("complex", "float16", "float16"), ("ldexp", "complex64", "float16")}


@pytest.mark.filterwarnings("ignore:ComplexHalf support is experimental:UserWarning")
@pytest.mark.parametrize("name", BINARY)
def test_each_pair_of_dtypes_gives_torchs_result_or_error(name):
    """PyTorch's promotion, or its refusal of the pair (compat computed pow and // of bools,
    heaviside of two dtypes and ldexp by a bool exponent)."""
    for first in DTYPES:
        for second in DTYPES:
            if (name, first, second) in _MAKES_COMPLEX32:
                continue

            def case(library, first=first, second=second):
                x = library.tensor([0, 1, 2, 3]).to(getattr(library, first))
                y = library.tensor([1, 1, 2, 0]).to(getattr(library, second))
                return _function(library, name)(x, y)
            check(case, rtol=1e-3, atol=1e-3, messages=True)


FACTORIES = [
    "torch.zeros(2, 3, dtype=d)", "torch.full((2,), 3, dtype=d)", "torch.full((2,), 2.5, dtype=d)",
    "torch.full((2,), -1, dtype=d)", "torch.full((2,), 300, dtype=d)", "torch.arange(5, dtype=d)",
    "torch.arange(-3, 3, dtype=d)", "torch.linspace(0, 3, 4, dtype=d)", "torch.eye(3, dtype=d)",
    "torch.rand(3, dtype=d)", "torch.randn(3, dtype=d)", "torch.randint(0, 5, (4,), dtype=d)",
    "torch.randperm(5, dtype=d)", "torch.tensor([1.5, -2.0], dtype=d)",
    "torch.tensor([1, 300], dtype=d)", "torch.tensor([[1, 2], [3, -4]], dtype=d)",
    "torch.tensor([float('nan')], dtype=d)", "torch.tensor(3.5, dtype=d)",
    "torch.full_like(torch.ones(2), 7, dtype=d)", "torch.tril_indices(3, 3, dtype=d)",
    "torch.triu_indices(3, 2, 1, dtype=d)", "torch.hann_window(4, dtype=d)",
    "torch.kaiser_window(4, dtype=d)", "torch.ones(3, dtype=d).topk(2)[0]",
]


@pytest.mark.parametrize("call", FACTORIES)
def test_factories_take_the_dtypes_torch_takes(call):
    """(compat wrapped [1, 300] into uint8 where PyTorch refuses it, ignored
    tril_indices' dtype, refused full(-1) of uint8 that PyTorch wraps, and took arange of
    bools.)"""
    for dtype in ["uint8", "int8", "int16", "int32", "int64", "bool", "float16", "float32",
                  "float64", "complex64", "complex128"]:
        def case(torch, dtype=dtype):
            return eval(call, {"torch": torch, "d": getattr(torch, dtype)})
        # (PyTorch computes a float16 window in float16: 0.4998 where compat rounds 0.5)
        check(seeded(case), rtol=1e-3, atol=1e-3, messages=True)


METHODS = [
    'x.all(dim=(0, 1))', 'x.any(dim=(0,), keepdim=True)', 'x.all(dim=[1])',
    'x.sum(0, dtype=torch.float64)', 'x.sum(dtype=torch.int8)', 'x.sum(0, keepdim=True)',
    'x.mean(0)', 'x.mean(dtype=torch.float64)', 'x.cumsum(0, dtype=torch.float32)',
    'x.cumprod(0)', 'x.prod(0, dtype=torch.int64)', 'x.nansum(0)', 'x.std(0)',
    'x.var(0, correction=0)', 'x.amax(0)', 'x.amin((0, 1))', 'x.max(0)[0]', 'x.min(1)[1]',
    'x.median(0)[0]', 'x.mode(0)[0]', 'x.count_nonzero(0)', 'x.logsumexp(0)', 'x.norm(dim=0)',
    'x.all(0)', 'x.any(1)', 'x.argsort(0)', 'x.sort(0, descending=True)[0]',
    'x.kthvalue(1, 0)[0]', 'x.cummax(0)[0]', 'x.aminmax()[0]', 'x.diff(dim=0)', 'x.flip(0)',
    'x.roll(1, 0)', 'x.tril()', 'x.diag()', 'x.trace()', 'x.t().contiguous()', 'x.unique(dim=0)',
    'x.clamp(min=1)', 'x.clamp(max=1.5)', 'x.clamp(0, 2)', 'x.where(x > 0, 5)',
    'x.masked_fill(x > 1, 2.5)', 'x.index_select(0, torch.tensor([1]))',
    'x.gather(0, torch.tensor([[1, 0, 1]]))', 'x.scatter(0, torch.tensor([[1, 0, 1]]), 9)',
    'x.scatter_add(0, torch.tensor([[1, 0, 1]]), x[:1])',
    'x.index_add(0, torch.tensor([1]), x[:1])', 'x.put(torch.tensor([1]), x.flatten()[:1])',
    'x.clone().add_(1.5)', 'x.clone().mul_(2)', 'x.clone().div_(2)', 'x.clone().sub_(True)',
    'x.clone().clamp_(0, 1.5)', 'x.clone().fill_(2.5)', 'x.clone().pow_(2)', 'x.clone().neg_()',
    'x.clone().abs_()', 'x.clone().floor_()', 'x.clone().sqrt_()',
    'x.clone().copy_(torch.tensor([1.5, 2.5, 3.5]))', 'x.clone().masked_fill_(x > 1, 1.5)',
    'x.clone().index_fill_(0, torch.tensor([0]), 2.5)', 'x.clone().zero_()',
    'x.clone().clamp_min_(1)', 'x.clone().lerp_(x, 0.5)', 'x.clone().addcmul_(x, x)',
    'x.clone().exp_()', 'x.clone().sigmoid_()', 'x.clone().bitwise_and_(x)',
    'x.clone().logical_not_()', 'x.clone()[0].fill_(-1)', 'x.clone().__setitem__(0, 1.5)',
    'x.clone().__setitem__((0, 0), -1)',
]


@pytest.mark.filterwarnings("ignore:Casting complex values to real:UserWarning")
@pytest.mark.parametrize("call", METHODS)
def test_reductions_and_updates_take_the_dtypes_torch_takes(call):
    """A reduction's `dtype`, an update's cast back into the tensor's dtype (C++'s: 2.5
    into an integer tensor is 2, -1 into uint8 is 255) or PyTorch's refusal of the cast
    (compat ignored sum's dtype without dim, computed masked_fill of an integer tensor by a
    float in float64, and refused -1 into uint8)."""
    for dtype in DTYPES:
        def case(torch, dtype=dtype):
            x = torch.tensor([[0, 1, 2], [3, 1, 0]]).to(getattr(torch, dtype))
            return eval(call, {"torch": torch, "x": x})
        check(case, rtol=1e-3, atol=1e-3, messages=True)


INDEXED = [
    'F.nll_loss(x.log_softmax(1), t)', 'F.multi_margin_loss(x, t)', 'F.embedding(t, w)',
    'F.one_hot(t, 3)', 'x.gather(1, t[:, None])', 'x.index_select(0, t)',
    'x.scatter(1, t[:, None], 1.0)', 'x.scatter_add(1, t[:, None], x)', 'x.index_add(0, t, x)',
    'x.index_copy(0, t, x)', 'x.index_fill(0, t, 1.0)', 'x.take(t)', 'x.put(t, x[0, :2])', 'x[t]',
    'x.index_put((t,), x[0])', 'x.masked_select(t.bool()[:, None])', 'torch.bincount(t)',
    'x.take_along_dim(t[:, None], 1)', 'F.embedding_bag(t[None], w)',
    "x.scatter_reduce(1, t[:, None], x, 'sum')", 'torch.unravel_index(t, (2, 2))',
    "x.index_reduce(0, t, x, 'prod')",
    'F.ctc_loss(x[None].log_softmax(2).expand(3, 2, 3), torch.tensor([[1], [2]]), t + 3,'
    ' torch.tensor([1, 1]))',
    'x.repeat_interleave(t, dim=0)', 'torch.tril_indices(3, 3)[0].float()[t]',
    'F.cross_entropy(x, t)',
]


@pytest.mark.filterwarnings("ignore:indexing with dtype torch.uint8 is now deprecated",
                            "ignore:index_reduce.. is in beta:UserWarning")
@pytest.mark.parametrize("call", INDEXED)
def test_index_and_target_tensors_take_the_dtypes_torch_takes(call):
    """(compat indexed with int8 tensors and took multi_margin_loss's non-Long targets,
    bool unravel_index indices and non-integer repeats, where PyTorch refuses them.)"""
    for dtype in [d for d in DTYPES if d != "complex64"]:
        def case(torch, dtype=dtype):
            x = torch.tensor([[0.5, 1.0, 2.0], [1.5, -1.0, 0.0]])
            w = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
            t = torch.tensor([1, 0]).to(getattr(torch, dtype))
            return eval(call, {"torch": torch, "F": torch.nn.functional, "x": x, "w": w,
                               "t": t})
        check(seeded(case), rtol=1e-4, atol=1e-5, messages=True)


FILLS = [
    'x.uniform_()', 'x.uniform_(-2, 3)', 'x.normal_()', 'x.normal_(2, 0.5)', 'x.bernoulli_()',
    'x.bernoulli_(0.3)', 'x.random_()', 'x.random_(10)', 'x.random_(2, 9)', 'x.exponential_()',
    'x.geometric_(0.3)', 'x.cauchy_()', 'x.log_normal_()', 'x.fill_(2)',
    'torch.nn.init.uniform_(x)', 'torch.nn.init.normal_(x)', 'torch.nn.init.constant_(x, 0.5)',
    'torch.nn.init.ones_(x)', 'torch.nn.init.zeros_(x)', 'torch.nn.init.eye_(x)',
    'torch.nn.init.xavier_uniform_(x)', 'torch.nn.init.xavier_normal_(x)',
    'torch.nn.init.kaiming_uniform_(x)', 'torch.nn.init.kaiming_normal_(x)',
    'torch.nn.init.orthogonal_(x)', 'torch.nn.init.trunc_normal_(x)',
    'torch.nn.init.sparse_(x, 0.5)', 'torch.nn.init.dirac_(x[None])', 'x.new_zeros(2)',
    'x.new_ones(2)', 'x.new_full((2,), 1.5)', 'x.new_tensor([1.5, 2])', 'x.new_empty(2).fill_(1)',
    'torch.bernoulli(x)', 'torch.poisson(x)', 'torch.multinomial(x.abs() + 1, 2)',
    'torch.normal(x, 1.0)', 'torch.rand_like(x)', 'torch.randn_like(x)',
    'torch.randint_like(x, 5)', 'torch.randint_like(x, 2, 5)',
]


@pytest.mark.parametrize("call", FILLS)
def test_random_fills_and_initialisations_take_the_dtypes_torch_takes(call):
    """The same draws after the same seed in every dtype PyTorch fills, its error in the
    others (compat had no nn.init.sparse_ nor dirac_)."""
    for dtype in DTYPES:
        def case(torch, dtype=dtype):
            x = torch.zeros(2, 3).to(getattr(torch, dtype))
            return eval(call, {"torch": torch, "x": x})
        check(seeded(case), rtol=1e-3, atol=1e-3, messages=True)
