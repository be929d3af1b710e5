"""More of torch's names against PyTorch 2.13: Tensor methods about storage and Python
callables (resize_, new, apply_, map_, dim_order, ...), unsafe splits, igamma, the
torch.random module, the defaults, histogramdd, the native normalisations, dropout and
recurrent cells, frombuffer and DLPack. Values, dtypes, gradients, grad_fn names, errors
word for word and seeded draws bit for bit."""
import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import compat
import torch
from compat_harness import assert_same_error, check, graph, seeded, weighted_gradients


def _inputs(torch):
    return {
        "torch": torch, "np": np,
        "a": torch.tensor([[0.5, -1.2, 2.0], [1.5, 0.3, -0.7]], requires_grad=True),
        "p": torch.tensor([[0.2, 0.5, 0.9], [0.1, 0.7, 0.4]], requires_grad=True),
        "x": torch.tensor(np.linspace(-1, 1, 24).reshape(2, 3, 4).tolist(), requires_grad=True),
        "n": torch.tensor([[1, -2, 3], [0, 5, -6]]),
        "f": torch.arange(6.0),
        "g": torch.tensor([1.0, 2.0], requires_grad=True),
    }


_LEAVES = "apxg"


def _case(expression):
    return weighted_gradients(expression, _inputs, _LEAVES)


def _error(expression):
    return lambda torch: eval(expression, _inputs(torch))


# ---- Tensor methods ----------------------------------------------------------------------

METHODS = [
    "a.hardshrink(0.6)", "a.hardshrink(lambd=1.5)", "a.prelu(torch.tensor([0.25]))",
    "x.prelu(p[0])", "n.cfloat()", "a.cfloat()", "a.cdouble()", "(a.cdouble() * 2).abs()",
    "a.cfloat().sum().abs()",
    "a.output_nr", "(a * 2).output_nr", "a.max(1)[1].output_nr",
    "[t.output_nr for t in x.unbind(1)]", "[t.output_nr for t in a.split(1, 1)]",
    "[t.output_nr for t in torch.linalg.slogdet(x[:, :2, :2])]",
    "x.dim_order()", "x.transpose(0, 2).dim_order()", "x.permute(1, 2, 0).dim_order()",
    "x.dim_order(ambiguity_check=True)", "x[:, :1].dim_order()",
    "torch.zeros(3, 1).expand(3, 4).dim_order()",
    "f.share_memory_()", "f.share_memory_().is_shared()", "f.is_shared()",
    "f.share_memory_()[1:].is_shared()", "f.is_pinned()",
    "a.new()", "a.new(2, 3).shape", "a.new((2, 3)).shape", "a.new(torch.Size([4])).shape",
    "a.new([1, 2])", "n.new([1.5, 2.5])", "a.new(a)", "a.new(a)._base is a",
    "(lambda c: (c.new(c).fill_(3.0), c))(f.clone())", "a.new(3, device='cpu').shape",
    "torch.Tensor(a)", "torch.Tensor(a)._base is a", "a[...]", "a[...]._base is a",
]

UNSAFE_SPLITS = [
    "torch.unsafe_chunk(x, 2, 1)", "x.unsafe_chunk(3, -1)", "torch.unsafe_split(x, 2, 2)",
    "x.unsafe_split(1)", "torch.unsafe_split_with_sizes(x, [1, 2], 1)",
    "x.unsafe_split_with_sizes([3, 1], dim=2)", "torch.unsafe_chunk(x, 2, 1)[0]._base",
    "[t._base is None for t in x.unsafe_split(2, 2)]",
    "[t.data_ptr() == s.data_ptr() for t, s in zip(f.unsafe_chunk(3), f.chunk(3))]",
    "torch.unsafe_chunk(x[:, :0], 2, 1)",
]

IGAMMA = [
    "torch.igamma(p.detach() + 0.5, a.abs())", "torch.igammac(p.detach() * 3, a.abs() + 0.1)",
    "n.abs().igamma(p)", "(p.detach() + 1).igammac(x[0, :2, :3].abs())",
    "torch.special.gammainc(a.detach().abs(), p)", "torch.special.gammaincc(p.detach(), p)",
    "torch.igamma(torch.tensor([-1., 0, 0, float('inf'), 1, 2]), "
    "torch.tensor([1., 0, 1, 1, float('inf'), -1]))",
    "torch.igammac(torch.tensor([-1., 0, 0, float('inf'), 1, 2]), "
    "torch.tensor([1., 0, 1, 1, float('inf'), -1]))",
    "torch.igamma(p.double().detach(), p)", "f.clone().igamma_(f + 1)",
    "f.clone().igammac_(torch.tensor(2.0))", "n.clone().igamma_(p)",
    "torch.igamma(p, a.abs())",  # the derivative in the first argument is refused
]


@pytest.mark.parametrize("expression", METHODS + UNSAFE_SPLITS + IGAMMA)
def test_name_matches_torch(expression):
    check(_case(expression), messages=True)


def test_unsafe_pieces_write_into_the_input_as_torch_does():
    def case(torch):
        base = torch.arange(6.0)
        pieces = base.unsafe_split(4)
        pieces[1].mul_(10)
        return base, pieces
    check(case)


@given(hnp.arrays(np.float64, st.integers(1, 8), elements=st.floats(0.01, 20)),
       hnp.arrays(np.float64, st.integers(1, 8), elements=st.floats(0.0, 30)),
       st.sampled_from(["float32", "float64"]), st.sampled_from(["igamma", "igammac"]))
def test_incomplete_gamma_matches_torch(a, x, dtype, name):
    size = min(len(a), len(x))

    def case(torch):
        other = torch.tensor(x[:size], dtype=getattr(torch, dtype), requires_grad=True)
        out = getattr(torch, name)(torch.tensor(a[:size], dtype=getattr(torch, dtype)), other)
        out.sum().backward()
        return out, other.grad
    check(case, rtol=1e-4, atol=1e-6)


@given(st.integers(1, 4), st.integers(0, 7), st.integers(-3, 2))
def test_unsafe_chunk_and_split_match_torch(chunks, length, dim):
    def case(torch):
        x = torch.linspace(-1, 1, 3 * length * 2).reshape(3, length, 2).requires_grad_()
        axis = dim % 3
        results = [torch.unsafe_chunk(x, chunks, dim)]
        if x.shape[axis]:
            results.append(x.unsafe_split(chunks, dim))
            sizes = [x.shape[axis] // 2, x.shape[axis] - x.shape[axis] // 2]
            results.append(torch.unsafe_split_with_sizes(x, sizes, dim))
        loss = sum((piece * (i + 1)).sum() for pieces in results
                   for i, piece in enumerate(pieces))
        loss.backward()
        return results, [graph(p) for pieces in results for p in pieces], x.grad
    check(case)


@given(hnp.arrays(np.int64, hnp.array_shapes(min_dims=0, max_dims=3, max_side=4),
                  elements=st.integers(-2, 2)),
       st.integers(0, 12), st.integers(-5, 5))
def test_nonzero_static_matches_torch(values, size, fill_value):
    check(lambda torch: torch.tensor(values).nonzero_static(size=size, fill_value=fill_value))


# ---- resize_ -----------------------------------------------------------------------------

RESIZES = [
    "(lambda t: (t.resize_(2, 2), t.stride(), t.shape))(f.clone())",
    "(lambda t: (t.resize_((2, 2)), t.stride()))(f.clone())",
    "f.clone().resize_([3, 2]).stride()", "f.clone().reshape(2, 3).t().resize_(3, 2)",
    "f.clone().reshape(2, 3).t().resize_(3, 2).stride()",
    "f.clone().reshape(2, 3).t().resize_(2, 2)", "f.clone()[1:].resize_(2, 2)",
    "(lambda t: (t[2:].resize_(2).fill_(0), t))(f.clone())",
    "(lambda t: (t[:3].resize_(2, 2)[1, 1], t[:3].resize_(3, 3)[1, 2], t.shape))(f.clone())",
    "(lambda t: (t.resize_(2, 4)[0], t.shape))(f.clone())",
    "f.clone().resize_(0)", "f.clone().resize_(())", "f.clone().resize_as_(torch.zeros(2, 2))",
    "torch.resize_as_(f.clone(), torch.zeros(1, 3))",
]


@pytest.mark.parametrize("expression", RESIZES)
def test_resize_matches_torch(expression):
    check(_case(expression), messages=True)


@given(st.integers(0, 12), st.lists(st.integers(0, 4), max_size=3), st.integers(0, 5))
def test_resize_keeps_the_storage_prefix_as_torch_does(length, shape, start):
    """The elements the old storage held keep their values; those beyond it are
    uninitialized in both libraries, so only the kept prefix is compared."""
    def case(torch):
        t = torch.arange(float(length + start))[start:]
        resized = t.resize_(*shape)
        kept = max(0, min(resized.numel(), length))
        return resized.shape, resized.stride(), resized.reshape(-1)[:kept]
    check(case)


# ---- apply_, map_, map2_ -----------------------------------------------------------------

MAPS = [
    "f.clone().apply_(lambda v: v * 2)", "n.clone().apply_(lambda v: v * 2.5)",
    "n.clone().t().apply_(lambda v: v * 10)", "torch.tensor([True, False]).apply_(lambda v: 2.7)",
    "torch.tensor([1 + 2j]).apply_(lambda v: v * 2)",
    "f.clone().map_(f + 1, lambda u, v: u * v)", "f.clone().reshape(2, 3).map_("
    "torch.tensor([10.0, 20, 30]), lambda u, v: u - v)",
    "f.clone().map2_(f + 1, f * 2, lambda u, v, w: u + v * w)",
    "(lambda t: (t.map_(t, lambda u, v: u + v), t))(f.clone())",
]

MAP_ERRORS = [
    "g.apply_(lambda v: v)", "f.clone().map_(g, lambda u, v: u)",
    "g.map_(f[:2], lambda u, v: u)", "f.clone().map2_(f, g.expand(3, 2).reshape(-1), "
    "lambda *v: 0)",
    "f.clone().map_(n.reshape(-1), lambda u, v: u)",
    "f.clone().map2_(n.reshape(-1), f, lambda *v: 0)",
    "f.clone().map2_(f, n.reshape(-1), lambda *v: 0)",
    "f.clone()[:2].map_(f[:2, None], lambda u, v: u)", "f.clone().apply_(lambda v: 'a')",
    "f.clone().apply_(lambda v: None)", "f.clone().apply_(lambda v: 2j)",
    "n.clone().apply_(lambda v: 'a')", "f.clone().apply_(5)",
]


@pytest.mark.parametrize("expression", MAPS)
def test_python_maps_match_torch(expression):
    check(_case(expression))


@given(hnp.arrays(np.float32, st.integers(0, 6), elements=st.floats(-100, 100, width=32)),
       st.sampled_from(["float32", "float64", "int64", "int32", "bool"]))
def test_apply_matches_torch(values, dtype):
    def case(torch):
        t = torch.tensor(values).to(getattr(torch, dtype))
        return t.apply_(lambda v: v * 3 - 1), t
    check(case)


# ---- errors, word for word ---------------------------------------------------------------

ERRORS = MAP_ERRORS + [
    "g.resize_(2)", "g.resize_(3)", "(g * 2).resize_(3)", "g.resize_as_(torch.zeros(2))",
    "f.clone().resize_(2, 2.0)", "f.clone().resize_(2, -2)",
    "a.new(n)", "a.new(n.to(torch.uint8))", "a.new(p.double())", "n.new(a)",
    "a.new(2.5)", "a.new(-1)", "a.new(2, [3])",
    "torch.zeros(2, 1, 4).dim_order(ambiguity_check=True)",
    "torch.zeros(3, 1).expand(3, 4).dim_order(ambiguity_check=True)",
    "x.transpose(1, 2)[:, :, :2].expand(2, 4, 2, 3).dim_order(ambiguity_check=True)",
    "f.pin_memory()", "f.clone().resize_()",
    "torch.unsafe_split(x, [1, 1])", "torch.unsafe_chunk(x, 0)", "x.unsafe_split(-1)",
    "torch.unsafe_split_with_sizes(x, [1, 2])", "torch.unsafe_split_with_sizes(x, [3, -1])",
    "torch.igamma(p.detach(), 2.0)", "torch.igamma(n, n)", "torch.igammac(n.bool(), n.bool())",
    "torch.igamma(p.cfloat(), p)", "torch.special.gammainc(n, n > 0)",
    "n.nonzero_static(size=-1)",
    "torch.get_device(3)", "torch.set_default_device('xyz')", "torch.set_default_device(3)",
    "torch.set_default_tensor_type(torch.LongTensor)",
    "torch.set_default_tensor_type('torch.cuda.FloatTensor')",
    "torch.set_default_tensor_type(torch.float64)",
    "torch.set_default_tensor_type('torch.Foo')", "torch.set_default_tensor_type('FloatTensor')",
    "torch.set_default_tensor_type(3)", "torch.set_default_tensor_type('torch.LongTensor')",
    "torch.histogramdd(n, bins=2)", "torch.histogramdd(f, bins=2)",
    "torch.histogramdd(a, bins=0)",
    "torch.native_layer_norm(a, [2], None, None, 1e-5)",
    "torch.native_dropout(a, 1.5, True)", "torch.native_dropout(n, 0.5, True)",
    "torch.lstm_cell(a, (a[:, :2],), torch.ones(8, 3), torch.ones(8, 2))",
    "torch.lstm_cell(a, a, torch.ones(8, 3), torch.ones(8, 2))",
    "torch.lstm_cell(a, (a[:, :2], a[:, :2]), torch.ones(7, 3), torch.ones(8, 2))",
    "torch.lstm_cell(a, (a[:, :2], a[:, :2]), torch.ones(8, 2), torch.ones(8, 2))",
    "torch.gru_cell(a, a[:1, :2], torch.ones(6, 3), torch.ones(6, 2))",
    "torch.gru_cell(a, a[:, :2], torch.ones(6, 3), torch.ones(5, 2))",
    "torch.rnn_tanh_cell(a, a[:, :2], torch.ones(2, 3), torch.ones(2, 3))",
    "torch.rnn_relu_cell(a[0], a[0, :2], torch.ones(2, 3), torch.ones(2, 2))",
    "torch.frombuffer(bytearray(16))", "torch.frombuffer(bytearray(16), dtype=torch.float32, "
    "count=5)", "torch.frombuffer(bytearray(16), dtype=torch.float32, offset=16)",
    "torch.frombuffer(bytearray(16), dtype=torch.float32, offset=-1)",
    "torch.frombuffer(bytearray(16), dtype=torch.float64, offset=3)",
    "torch.frombuffer(bytearray(), dtype=torch.float32)",
    "torch.frombuffer(bytearray(8), dtype=torch.float32, count=0)",
    "(lambda c: (torch.from_dlpack(c), torch.from_dlpack(c)))(torch.utils.dlpack.to_dlpack(f))",
    "torch.from_dlpack(g)",
]


@pytest.mark.filterwarnings("ignore:torch.set_default_tensor_type\\(\\) is deprecated")
@pytest.mark.parametrize("expression", ERRORS)
def test_error_matches_torch(expression):
    assert_same_error(_error(expression))


# ---- torch.random ------------------------------------------------------------------------

RANDOM = [
    "(torch.random.manual_seed(3), torch.rand(3))[1]",
    "(torch.random.manual_seed(3), torch.random.initial_seed())[1]",
    "(torch.random.manual_seed(5), torch.random.get_rng_state())[1]",
    "(lambda s: (torch.rand(2), torch.random.set_rng_state(s), torch.rand(2)))("
    "torch.random.get_rng_state())",
    "type(torch.random.seed()).__name__",
    "torch.random.default_generator is torch.default_generator",
]


@pytest.mark.parametrize("expression", RANDOM)
def test_random_module_matches_torch(expression):
    check(seeded(_error(expression)), rtol=0, atol=0)


@pytest.mark.parametrize("enabled", [True, False])
def test_fork_rng_restores_the_state_as_torch_does(enabled):
    def case(torch):
        with torch.random.fork_rng(enabled=enabled):
            inside = torch.rand(3)
        return inside, torch.rand(3), torch.random.initial_seed()
    check(seeded(case, 11), rtol=0, atol=0)


def test_fork_rng_restores_the_state_after_an_error():
    def case(torch):
        with pytest.raises(ValueError):
            with torch.random.fork_rng():
                torch.randn(4)
                raise ValueError
        return torch.randn(4)
    check(seeded(case, 2), rtol=0, atol=0)


# ---- defaults ----------------------------------------------------------------------------

DEFAULTS = [
    "torch.get_device(a)", "torch.set_default_device('cpu')", "torch.set_default_device(None)",
    "torch.set_default_device(torch.device('cpu'))", "torch.get_default_device()",
    "(torch.set_default_tensor_type(torch.DoubleTensor), torch.zeros(1).dtype, "
    "torch.tensor([1.5]).dtype, torch.set_default_tensor_type('torch.FloatTensor'), "
    "torch.zeros(1).dtype)",
    "(torch.set_default_tensor_type(torch.HalfTensor), torch.zeros(1).dtype, "
    "torch.set_default_tensor_type(torch.FloatTensor))",
]


@pytest.mark.filterwarnings("ignore:torch.set_default_tensor_type\\(\\) is deprecated")
@pytest.mark.parametrize("expression", DEFAULTS)
def test_defaults_match_torch(expression):
    try:
        check(_error(expression), messages=True)
    finally:  # a default device left set in torch changes how later tests' calls dispatch
        torch.set_default_device(None)
        compat.set_default_device(None)


def test_set_default_tensor_type_warns_as_torch_does():
    compat._runtime.set_warn_always(True)
    try:
        with pytest.warns(UserWarning, match=r"^torch\.set_default_tensor_type\(\) is deprecated "
                          r"as of PyTorch 2\.1, please use torch\.set_default_dtype\(\) and "
                          r"torch\.set_default_device\(\) as alternatives\.$"):
            compat.set_default_tensor_type(compat.FloatTensor)
    finally:
        compat._runtime.set_warn_always(False)


# ---- norms and histogramdd ---------------------------------------------------------------

@pytest.mark.filterwarnings("ignore:at..nuclear_norm is deprecated",
                            "ignore:at..frobenius_norm is deprecated")
@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=4, min_side=1, max_side=4),
                  elements=st.floats(-5, 5)),
       st.booleans(), st.data())
def test_deprecated_norms_match_torch(values, keepdim, data):
    dims = tuple(data.draw(st.permutations(range(values.ndim)))[:2])
    # distinct singular values (the norm's derivative is not unique where they coincide)
    k = np.arange(values.size)
    generic = values + (np.sqrt(k + 2) * np.cos(k ** 2)).reshape(values.shape)

    def case(torch):
        x = torch.tensor(generic, requires_grad=True)
        results = [torch.nuclear_norm(x, dims, keepdim), torch.frobenius_norm(x, dims, keepdim)]
        sum((r * 1.5).sum() for r in results).backward()
        return results, x.grad
    check(case, rtol=1e-6, atol=1e-8)


def test_deprecated_norms_warn_as_torch_does():
    compat._runtime.set_warn_always(True)
    try:
        with pytest.warns(UserWarning, match=r"^at::nuclear_norm is deprecated and it is just "
                          r"left for JIT compatibility\. It will be removed in a future PyTorch "
                          r"release\. Please use `linalg\.matrix_norm\(A, 'nuc', dim, "
                          r"keepdim\)` instead$"):
            compat.nuclear_norm(compat.eye(2))
        with pytest.warns(UserWarning, match=r"^at::frobenius_norm is deprecated and it is just "
                          r"left for JIT compatibility\. It will be removed in a future PyTorch "
                          r"release\. Please use `linalg\.vector_norm\(A, 2\., dim, keepdim\)` "
                          r"instead$"):
            compat.frobenius_norm(compat.eye(2), (0, 1))
    finally:
        compat._runtime.set_warn_always(False)


HISTOGRAMS = [
    "torch.histogramdd(torch.tensor([[0., 1], [1, 0], [2, 0], [2, 2]]), bins=[3, 3])",
    "torch.histogramdd(torch.tensor([[0., 1], [1, 0], [2, 0], [2, 2]]), bins=2, "
    "range=[0., 1, 0, 1], weight=torch.tensor([1., 2, 4, 8]), density=True)",
    "torch.histogramdd(torch.tensor([[0., 1], [1, 0], [2, 0], [2, 2]]), "
    "[torch.tensor([0., 1, 2]), torch.tensor([0., 1, 2])])",
    "torch.histogramdd(x.detach().double(), bins=[1, 2, 3, 2])",
]


@pytest.mark.parametrize("expression", HISTOGRAMS)
def test_histogramdd_matches_torch(expression):
    check(_error(expression))


@given(hnp.arrays(np.float32, st.tuples(st.integers(1, 12), st.integers(1, 3)),
                  elements=st.floats(-10, 10, width=32)),
       st.integers(1, 5), st.booleans(), st.booleans())
def test_histogramdd_of_points_matches_torch(points, bins, weighted, density):
    def case(torch):
        weight = torch.linspace(0.5, 2.0, len(points)) if weighted else None
        return torch.histogramdd(torch.tensor(points), bins, weight=weight, density=density)
    check(case, rtol=1e-5, atol=1e-6)


# ---- native functions and cells ----------------------------------------------------------

NATIVE = [
    "torch.native_layer_norm(x, [4], x[0, 0], x[1, 2], 1e-5)",
    "torch.native_layer_norm(x, [3, 4], None, None, 1e-3)",
    "torch.native_layer_norm(x.detach().half(), [4], None, None, 1e-5)",
    "torch.native_batch_norm(x, None, None, None, None, True, 0.1, 1e-5)",
    "(lambda rm, rv: (torch.native_batch_norm(x, p[0], a[1], rm, rv, True, 0.3, 1e-5), rm, rv))"
    "(torch.zeros(3), torch.ones(3))",
    "(lambda rm, rv: (torch.native_batch_norm(x, None, None, rm, rv, False, 0.1, 1e-5), rm, rv))"
    "(torch.zeros(3), torch.ones(3))",
    "torch.native_dropout(x, 0.5, True)", "torch.native_dropout(x, 0.5, False)",
    "torch.native_dropout(x.detach(), 0.2, None)", "torch.native_dropout(x, 1.0, True)",
    "torch.native_dropout(x.detach().transpose(0, 2), 0.3, True)",
    "torch.native_dropout(x.double(), 0.0, True)",
    "torch.lstm_cell(a, (p[:, :2], p[:, 1:]), x.reshape(8, 3), x[0, :2].reshape(8, 1)"
    ".expand(8, 2))",
    "torch.lstm_cell(a, [p[:, :2], p[:, 1:]], x.reshape(8, 3), x.reshape(-1)[:16].reshape(8, 2),"
    " g.repeat(4), None)",
    "torch.gru_cell(a, p[:, :2], x.reshape(-1)[:18].reshape(6, 3), x.reshape(-1)[:12]"
    ".reshape(6, 2), x[0, 0, :3].repeat(2), x[1, 1, :3].repeat(2))",
    "torch.rnn_tanh_cell(a, p[:, :2], x[0, :2, :3], x[1, :2, :2])",
    "torch.rnn_relu_cell(a, p[:, :2], x[0, :2, :3], x[1, :2, :2], None, g)",
]


@pytest.mark.parametrize("expression", NATIVE)
def test_native_function_matches_torch(expression):
    check(seeded(_case(expression)), rtol=1e-4, atol=1e-5)


@given(hnp.arrays(np.float16, hnp.array_shapes(min_dims=1, max_dims=3, max_side=5),
                  elements=st.floats(-100, 100, width=16)), st.booleans())
def test_float16_layer_norm_computes_in_float32_as_torch_does(values, affine):
    """PyTorch computes float16 in float32 and rounds the output once: within one float16
    step (its kernel's fused multiply-adds leave other last bits where x * scale and the
    shift cancel)."""
    def case(torch):
        x = torch.tensor(values)
        weight = torch.linspace(0.5, 2, x.shape[-1]).half() if affine else None
        bias = torch.linspace(-1, 1, x.shape[-1]).half() if affine else None
        return torch.native_layer_norm(x, x.shape[-1:], weight, bias, 1e-5)
    check(case, rtol=1e-3, atol=1e-3)


@given(st.floats(0.0, 1.0), st.integers(0, 2 ** 31), hnp.array_shapes(max_dims=3, max_side=5))
def test_native_dropout_draws_as_torch_does(p, seed, shape):
    def case(torch):
        x = torch.linspace(-1, 1, int(np.prod(shape))).reshape(shape).requires_grad_()
        out, mask = torch.native_dropout(x, p, True)
        out.sum().backward()
        return out, mask, x.grad
    check(seeded(case, seed), rtol=0, atol=0)


# ---- frombuffer and DLPack ---------------------------------------------------------------

BUFFERS = [
    "torch.frombuffer(bytearray(np.arange(4, dtype=np.float32).tobytes()), dtype=torch.float32)",
    "torch.frombuffer(bytearray(np.arange(4, dtype=np.float32).tobytes()), dtype=torch.int16, "
    "count=3, offset=2)",
    "torch.frombuffer(bytearray(16), dtype=torch.float32, requires_grad=True)",
    "torch.frombuffer(np.arange(6, dtype=np.int64), dtype=torch.int64, offset=8)",
    "(lambda b: (lambda t: (b.__setitem__(slice(0, 4), np.float32(9).tobytes()), t)[1])("
    "torch.frombuffer(b, dtype=torch.float32)))(bytearray(np.arange(4, dtype=np.float32)"
    ".tobytes()))",
    "(lambda b: (torch.frombuffer(b, dtype=torch.uint8).fill_(3), bytes(b))[1])(bytearray(4))",
    "(lambda a: (torch.from_dlpack(a).mul_(2), a.tolist())[1])(np.arange(3.))",
    "torch.utils.dlpack.from_dlpack(np.arange(6).reshape(2, 3).T)",
    "torch.from_dlpack(np.arange(6).reshape(2, 3).T).stride()",
    "torch.from_dlpack(torch.utils.dlpack.to_dlpack(f))",
    "(lambda t: (torch.from_dlpack(torch.utils.dlpack.to_dlpack(t)).add_(1), t))(f.clone())",
    "torch.from_dlpack(torch.utils.dlpack.to_dlpack(g))",
    "np.from_dlpack(f).tolist()", "f.__dlpack_device__()[1]",
]


@pytest.mark.parametrize("expression", BUFFERS)
def test_buffers_and_dlpack_match_torch(expression):
    check(_error(expression), messages=True)


def test_frombuffer_of_a_read_only_buffer_warns_as_torch_does():
    compat._runtime.set_warn_always(True)
    try:
        with pytest.warns(UserWarning, match=r"^The given buffer is not writable, and PyTorch "
                          r"does not support non-writable tensors\."):
            t = compat.frombuffer(b"\x01\x02", dtype=compat.uint8)
    finally:
        compat._runtime.set_warn_always(False)
    assert t.tolist() == [1, 2]


def test_dlpack_crosses_between_compat_and_torch_sharing_memory():
    import torch
    ours = compat.arange(3.0)
    theirs = torch.from_dlpack(ours)
    theirs.mul_(10)
    back = compat.from_dlpack(torch.arange(4))
    assert ours.tolist() == [0.0, 10.0, 20.0]
    assert (back.dtype, back.tolist()) == (compat.int64, [0, 1, 2, 3])
