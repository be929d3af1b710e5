"""compat's torch API on complex tensors against PyTorch 2.13: where PyTorch refuses a
complex operand (orderings, comparisons by size, rounding, most special functions and
activations), compat raises its error, type and text word for word, where it used to order
complex numbers as NumPy does (lexicographically) or fail inside NumPy; where PyTorch
computes, compat gives its values and gradients. The nn layers PyTorch runs on complex
parameters draw, compute and differentiate them as PyTorch does; the others refuse them
with PyTorch's errors."""
import numpy as np
import pytest

from compat_harness import LIBRARIES, Raised, assert_same_error, check, run, tensors_in

# index_reduce warns that it is in beta (PyTorch and compat, once a process): expected here.
pytestmark = pytest.mark.filterwarnings("ignore:index_reduce\\(\\) is in beta:UserWarning")

DTYPES = ("complex64", "complex128")
REAL_OF = {"complex64": "float32", "complex128": "float64"}
TOLERANCES = {"complex64": dict(rtol=2e-4, atol=2e-5), "complex128": dict(rtol=1e-7, atol=1e-9)}


def _inputs(dtype, requires_grad=False):
    """The names the expressions below use: complex z and w (2 x 3), real r (2 x 3), a
    complex square matrix s, integer indices i, and the libraries' namespaces."""
    def inputs(L):
        complex_dtype, real_dtype = getattr(L, dtype), getattr(L, REAL_OF[dtype])
        z = L.tensor(np.array([[0.5 + 1.25j, -1.5 + 0.75j, 2.0 - 0.5j],
                               [-0.25 - 1.0j, 1.75 + 0.25j, -0.75 + 1.5j]]),
                     dtype=complex_dtype, requires_grad=requires_grad)
        w = L.tensor(np.array([[1.0 - 0.5j, 0.25 + 2.0j, -1.0 - 1.0j],
                               [0.5 + 0.5j, -2.0 + 0.25j, 1.5 - 0.75j]]),
                     dtype=complex_dtype, requires_grad=requires_grad)
        r = L.tensor(np.array([[0.5, -1.5, 2.0], [-0.25, 1.75, -0.75]]), dtype=real_dtype,
                     requires_grad=requires_grad)
        s = L.tensor(np.array([[2.0 + 0.5j, 0.25 - 0.5j, 0.1j], [0.5 + 0.25j, 3.0 - 1.0j, 0.5],
                               [-0.25j, 0.75 + 0.5j, 2.5 + 0.25j]]), dtype=complex_dtype,
                     requires_grad=requires_grad)
        return {"torch": L, "F": L.nn.functional, "z": z, "w": w, "r": r, "s": s,
                "i": L.tensor([[0, 2], [1, 0]])}
    return inputs


def _evaluated(expression, dtype):
    def case(L):
        env = _inputs(dtype)(L)
        return eval(expression, env)
    return case


# PyTorch's refusals of complex operands (each compat computed a value or raised another
# error before). The in-place forms update a clone.
REFUSED = [
    # comparisons by size, their operators and in-place forms
    "z < 1", "z <= w", "1 > z", "z >= r", "r < 0.5j", "torch.lt(z, w)", "torch.le(r, z)",
    "torch.gt(z, 0)", "torch.ge(z, z)", "torch.less(z, w)", "torch.greater_equal(z, r)",
    "z.clone().lt_(1)", "r.clone().lt_(z)", "z.clone().ge_(w)",
    # extremes and orderings
    "z.max()", "z.min()", "z.max(dim=1)", "torch.min(z, 0)", "torch.max(z, w)", "z.amax()",
    "torch.amin(z, 1)", "torch.aminmax(z)", "z.argmax()", "torch.argmin(z, dim=1)",
    "torch.maximum(z, w)", "torch.minimum(r, z)", "torch.fmax(z, w)", "torch.fmin(z, r)",
    "torch.sort(z)", "z.argsort(dim=0)", "torch.msort(z)", "torch.topk(z, 2)",
    "torch.kthvalue(z, 1)", "torch.median(z)", "z.median(dim=1)", "torch.nanmedian(z)",
    "torch.mode(z)", "torch.cummax(z, 0)", "torch.cummin(z, 1)", "torch.unique(z)",
    "torch.unique(z, dim=0)", "torch.unique_consecutive(z)", "torch.unique_consecutive(z, dim=1)",
    "torch.searchsorted(r[0], z)", "torch.bucketize(z, r[0])", "torch.histc(z)",
    "torch.histogram(z)", "torch.isin(z, w)",
    # clamps, and the activations built on them
    "z.clamp(0, 1)", "torch.clamp(z, min=r)", "torch.clamp(r, max=z)", "torch.clamp(r, z, w)",
    "z.clamp_min(0)", "z.clamp_max(w)", "torch.clamp_min(r, z)", "z.clip(-1, 1)",
    "z.clone().clamp_(0, 1)", "torch.relu(z)", "z.clone().relu_()", "F.relu(z)",
    "F.relu6(z)", "F.hardtanh(z)", "F.hardtanh(z.clone(), inplace=True)",
    "F.threshold(z, 0.5, 0.0)", "F.hinge_embedding_loss(z, r)",
    "F.margin_ranking_loss(z, w, r)",
    # rounding, remainders and bits
    "z.floor()", "torch.ceil(z)", "z.round()", "z.round(decimals=1)", "z.trunc()",
    "torch.fix(z)", "z.frac()", "z.clone().floor_()", "z // 2", "torch.floor_divide(r, z)",
    "torch.div(z, 2, rounding_mode='trunc')", "z % 2", "torch.remainder(r, z)",
    "torch.fmod(z, 1.5)", "torch.bitwise_and(z, w)", "torch.bitwise_not(z)", "~z",
    "torch.bitwise_left_shift(z, 1)", "z.signbit()", "torch.isposinf(z)", "z.isneginf()",
    "torch.copysign(z, r)", "torch.nextafter(z, w)", "torch.heaviside(z, w)",
    "torch.frexp(z)", "z.deg2rad()", "torch.rad2deg(z)",
    # special functions
    "torch.atan2(z, w)", "torch.arctan2(r, z)", "torch.hypot(z, r)", "torch.erf(z)",
    "z.erfc()", "torch.erfinv(z)", "torch.lgamma(z)", "z.digamma()", "torch.i0(z)",
    "z.logit()", "torch.xlogy(z, w)", "torch.logaddexp2(z, w)", "torch.mvlgamma(z, 1)",
    "torch.polygamma(0, z)", "torch.polygamma(1, z)", "z.polygamma(2)",
    "torch.special.erf(z)", "torch.special.ndtr(z)", "torch.special.ndtri(z)",
    "torch.special.log_ndtr(z)", "torch.special.entr(z)", "torch.special.gammaln(z)",
    "torch.special.psi(z)", "torch.special.zeta(z, r)", "torch.special.xlog1py(z, 2)",
    "torch.special.i0e(z)", "torch.special.i1(z)", "torch.special.bessel_j0(z)",
    "torch.special.round(z)",
    # reductions, losses, normalisations, pooling
    "torch.nansum(z)", "z.nanmean(dim=0)", "F.mse_loss(z, w)", "F.huber_loss(z, w)",
    "F.smooth_l1_loss(z, w)", "F.kl_div(z, w)", "F.group_norm(z[None], 1)",
    "F.layer_norm(z, (3,))", "F.batch_norm(z, None, None, training=True)",
    "F.max_pool1d(z[None], 2)", "torch.cdist(z, w)", "torch.cosine_similarity(z, w)",
    "z.clone().abs_()", "F.binary_cross_entropy(z, w)", "F.cross_entropy(z, w)",
    "F.cross_entropy(r, z)", "F.binary_cross_entropy_with_logits(z, r)",
    "F.binary_cross_entropy_with_logits(z, w)",
    "F.binary_cross_entropy_with_logits(r, w, pos_weight=r[0].abs())",
    "F.soft_margin_loss(r, w)", "F.huber_loss(r, w)", "F.smooth_l1_loss(r, w)",
    "F.mse_loss(r, w)", "F.huber_loss(w, r)", "F.batch_norm(z, z[0], z[0])",
    "F.batch_norm(z, r[0], r[0])",
    # (these agreed already)
    "F.gelu(z)", "F.softplus(z)", "F.elu(z)", "F.selu(z)", "F.leaky_relu(z)", "F.mish(z)",
    "F.hardsigmoid(z)", "F.hardswish(z)", "F.logsigmoid(z)", "F.softshrink(z)",
    "F.hardshrink(z)", "F.glu(z, 0)", "F.softmax(z, 1)", "F.log_softmax(z, 0)",
    "F.softmin(z, 1)", "F.prelu(z, s[0])", "torch.quantile(z, 0.5)",
    "torch.nanquantile(z, 0.5)", "torch.sign(z)", "F.avg_pool1d(z[None], 2)",
    "F.adaptive_max_pool1d(z[None], 2)", "F.multi_margin_loss(z, i[0])",
    "F.multilabel_soft_margin_loss(z, r)", "F.cosine_embedding_loss(z, w, r[:, 0].sign())",
    "F.pdist(z)", "F.local_response_norm(z[None], 2)", "F.instance_norm(z[None])",
    "F.adaptive_avg_pool1d(z[None], 2)", "F.lp_pool1d(z[None], 2, 2)",
    "F.scaled_dot_product_attention(z[None], w[None], z[None])",
    # (compat computed these)
    "F.nll_loss(z, i[0])", "F.nll_loss(z, i[0], reduction='none')",
    "F.nll_loss(z[None].mT, i[:1, :1].expand(1, 3))", "F.interpolate(z[None], 4)",
    "F.interpolate(z[None], scale_factor=2, mode='linear')",
    "F.interpolate(z[None, None], scale_factor=2)",
    "F.interpolate(z[None, None], (3, 4), mode='nearest-exact')",
    "F.interpolate(z[None, None], scale_factor=2, mode='bilinear')",
    "F.interpolate(z[None, None, None], scale_factor=2)",
    "F.interpolate(z[None, None, None], scale_factor=2, mode='trilinear')",
    "F.interpolate(z[None, None], (1, 2), mode='area')",
    "torch.scatter_reduce(z, 1, i, w, 'amax')", "z.scatter_reduce(0, i % 2, w, 'amin')",
    "z.index_reduce(1, i[0], w[:, :2], 'amax')", "z.index_reduce(0, i[1], w, 'amin')",
    "z.index_reduce(1, i[0], w[:, :2], 'prod', include_self=False)",
    "z[0].index_reduce(0, i[0], w[0, :2], 'mean')", "F.max_pool2d(z[None], 2)",
    "F.max_pool3d(z[None, None], (1, 2, 2))", "torch.gcd(z, w)", "torch.lcm(z, w)",
    "torch.arange(3, dtype=torch.complex64)", "torch.linspace(0, 1j, 3, dtype=torch.float32)",
    "torch.linspace(z[0, 0], 2, 3, dtype=torch.int64)",
    # complex numbers (and other numbers out of range) as values of a real tensor
    "r.masked_fill(r > 0, 1j)", "r.clone().fill_(1j)", "r.clone().fill_(0.5 - 2j)",
    "torch.full((2,), 1j, dtype=torch.float32)", "i.masked_fill(i > 0, float('nan'))",
    "i.to(torch.int8).masked_fill(i > 0, 300)", "i.clone().fill_(float('inf'))",
    "torch.full((2,), 300, dtype=torch.int8)", "r.float().masked_fill(r > 0, 1e300)",
    # a complex and a real operand where PyTorch wants one dtype
    "torch.inner(z, r)", "torch.inner(r, z)", "torch.cross(z, r, dim=1)", "r.cross(z, dim=1)",
    "torch.linalg.cross(z, r)", "torch.allclose(z, r)", "r.allclose(z)",
    "torch.linalg.vecdot(z, r)", "torch.linalg.lstsq(s, r.T)",
    # complex sources into real tensors
    "r.clone().masked_scatter_(r > 0, z)", "r.clone().scatter_(1, i, w)",
    "torch.scatter(z, 1, i, r)",
    # messages naming a complex tensor type (PyTorch's CPUComplexFloatType)
    "z.expand(3)", "z[0].expand(2, 1)", "F.embedding(z, s)",
    # real operands only
    "torch.fft.rfft(z)", "torch.fft.ihfft(z)", "torch.fft.rfft2(z)", "torch.fft.rfftn(z)",
    "torch.complex(z, r)", "torch.polar(r, z)", "torch.view_as_complex(z)",
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("expression", REFUSED)
def test_refusals_are_pytorch_s(expression, dtype):
    assert_same_error(_evaluated(expression, dtype))


# PyTorch computes these, but refuses to record them (their derivatives are real-only).
REFUSED_WHEN_RECORDED = [
    "F.silu(z)", "torch.nan_to_num(z)", "F.embedding(i, s)", "F.bilinear(z, w, s[None])",
    "F.soft_margin_loss(z, w.detach())", "F.soft_margin_loss(z, r.detach())",
]
COMPUTED_UNRECORDED = [
    "F.silu(z)", "torch.nan_to_num(z)", "F.embedding(i, s)", "F.bilinear(z, w, s[None])",
    "F.silu(z.clone(), inplace=True)", "F.soft_margin_loss(z, z)",
    "torch.linspace(0, 1j, 3)", "torch.linspace(z[0, 0], 2, 4)",
    "torch.linspace(-1j, 1j, 5, dtype=torch.complex128)", "r.clone().fill_(1 + 0j)",
    "r.masked_fill(r > 0, 2 + 0j)", "z.clone().fill_(2j)", "torch.full((2,), 1j)",
    "z.index_reduce(1, i[0], w[:, :2], 'prod')", "z.index_reduce(0, i[1], w, 'mean')",
    "torch.scatter_reduce(z, 1, i, w, 'sum')",
    "F.soft_margin_loss(z, w, reduction='none')", "torch.logaddexp(r, z)",
    "F.binary_cross_entropy_with_logits(r, w)",
    "F.binary_cross_entropy_with_logits(r, w, weight=r.abs())",
    "F.binary_cross_entropy_with_logits(r, w, weight=w)",
    "F.binary_cross_entropy_with_logits(r.float(), w.to(torch.complex128), reduction='sum')",
    "torch.linalg.lstsq(s, z.T)",
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("expression", REFUSED_WHEN_RECORDED)
def test_refusals_to_record_are_pytorch_s(expression, dtype):
    def case(L):
        return eval(expression, _inputs(dtype, requires_grad=True)(L))
    assert_same_error(case)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("expression", COMPUTED_UNRECORDED)
def test_what_pytorch_computes_unrecorded_compat_computes(expression, dtype):
    case = _evaluated(expression, dtype)
    assert not isinstance(run(case, "torch"), Raised)
    check(case, **TOLERANCES[dtype])


# What PyTorch computes on complex operands: values, and the gradients of a weighted sum.
COMPUTED = [
    "z == w", "z != 1", "torch.eq(z, r)", "torch.isclose(z, w)", "z.isfinite()",
    "torch.isnan(z)", "z.isreal()", "z + r", "z * w", "z / (w + 1)", "z ** 2", "z.exp()",
    "z.sigmoid()", "torch.tanh(z)", "F.softsign(z)", "F.tanhshrink(z)",
    "z.sum(dim=1)", "z.mean()", "z.prod(1)", "torch.cumsum(z, 1)", "torch.cumprod(z, 0)",
    "torch.logcumsumexp(z, 1)", "torch.logsumexp(z, 1)", "z.abs()", "z.sgn()",
    "F.l1_loss(z, w)", "F.normalize(z, dim=1)",
    "torch.linalg.vector_norm(z)", "torch.linalg.inv(s)", "torch.fft.ifft2(z).abs()",
    "torch.where(r > 0, z, w)", "F.linear(z, w)", "F.rms_norm(z, (3,))",
    "z @ w.mT", "torch.einsum('ij,kj->ik', z, w) * 1", "z.conj() * w", "z.angle()",
    "z.real * w.imag", "z.var()", "z.std(dim=1)", "z.norm()", "torch.linalg.det(s)",
    "torch.fft.fft(r, 4) * 1", "torch.fft.ifftn(z) * 1", "torch.stack([z, w]).sum(0)",
    "torch.cat([z, r]).prod(0)", "z.pow(w * 0.5)", "z.sqrt()", "z.log()", "z.rsqrt()",
    "z.reciprocal()", "z.sin() + z.cosh()", "torch.view_as_real(z * w)",
    "torch.polar(r.abs(), r)", "torch.complex(r, r.flip(0))", "z.tanh().asinh()",
    "F.cosine_embedding_loss(r, r.flip(0), r[:, 0].sign())", "torch.trace(s)",
    "torch.diagonal(s)", "torch.kron(z, w) * 1", "torch.outer(z[0], w[1])",
    "F.poisson_nll_loss(z, w)", "F.gaussian_nll_loss(z, w, r.abs())",
    "F.triplet_margin_loss(z, w, z * 2)", "F.pairwise_distance(z, w)",
    "F.pad(z[None], (1, 1), mode='reflect')",
    # (compat refused these)
    "F.unfold(z[None, None], 2)", "F.fold(F.unfold(z[None, None], 2), (2, 3), 2)",
    # (each of these gave a wrong value or an error before)
    "torch.logaddexp(z, w)", "z.logaddexp(z * 2)",
    "torch.special.expit(z)", "torch.linalg.vecdot(z, w)",
    "torch.logdet(s)", "torch.logdet(s.T * 1j)", "torch.linalg.lu(s)", "torch.linalg.lu(z)",
    "torch.linalg.lstsq(s, z.T).solution",
]


def _real_loss(L, out):
    """A real loss weighing each element's real and imaginary parts differently."""
    weights = L.linspace(0.5, 1.5, out.numel(), dtype=out.real.dtype).reshape(out.shape)
    if out.is_complex():
        return (out.real * weights - out.imag * weights.flip(list(range(out.dim())))).sum()
    return (out * weights).sum()


def _values_and_gradients(expression, dtype):
    """A case: `expression`'s results, and the gradients of every input of a real loss of
    those that require grad."""
    def case(L):
        env = _inputs(dtype, requires_grad=True)(L)
        result = eval(expression, env)
        outputs = [t for t in tensors_in(result, L) if t.requires_grad]
        if outputs:
            sum(_real_loss(L, out) for out in outputs).backward()
        return result, [env[name].grad for name in "zwrs"]
    return case


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("expression", COMPUTED)
def test_what_pytorch_computes_compat_computes(expression, dtype):
    case = _values_and_gradients(expression, dtype)
    assert not isinstance(run(case, "torch"), Raised)  # a computation, not a refusal
    check(case, **TOLERANCES[dtype])


# Layers PyTorch runs on complex parameters: built after manual_seed, their parameters,
# output and the gradients of a real loss; and the layers whose forward PyTorch refuses.
LAYERS = {
    "Linear": ("nn.Linear(3, 2, dtype=c)", [(4, 3)]),
    "Conv1d": ("nn.Conv1d(2, 3, 3, dtype=c)", [(1, 2, 6)]),
    "Conv2d": ("nn.Conv2d(2, 3, 3, padding=1, dtype=c)", [(1, 2, 4, 4)]),
    "Conv3d": ("nn.Conv3d(2, 3, 2, dtype=c)", [(1, 2, 3, 3, 3)]),
    "ConvTranspose1d": ("nn.ConvTranspose1d(2, 3, 3, dtype=c)", [(1, 2, 5)]),
    "ConvTranspose2d": ("nn.ConvTranspose2d(2, 3, 3, stride=2, dtype=c)", [(1, 2, 3, 3)]),
    "ConvTranspose3d": ("nn.ConvTranspose3d(2, 3, 2, dtype=c)", [(1, 2, 2, 2, 2)]),
    "RNN": ("nn.RNN(3, 2, dtype=c)", [(4, 3)]),
    "LSTM": ("nn.LSTM(3, 2, dtype=c)", [(4, 3)]),
    "GRU": ("nn.GRU(3, 2, batch_first=True, dtype=c)", [(2, 4, 3)]),
    "GRUCell": ("nn.GRUCell(3, 2, dtype=c)", [(4, 3)]),
    "RMSNorm": ("nn.RMSNorm(3, dtype=c)", [(4, 3)]),
}
REFUSING_LAYERS = {
    "Bilinear": ("nn.Bilinear(3, 3, 2, dtype=c)", [(4, 3), (4, 3)]),
    "Embedding": ("nn.Embedding(5, 3, dtype=c)", "indices"),
    "EmbeddingBag": ("nn.EmbeddingBag(5, 3, dtype=c)", "indices"),
    "PReLU": ("nn.PReLU(dtype=c)", [(4, 3)]),
    "LayerNorm": ("nn.LayerNorm(3, dtype=c)", [(4, 3)]),
    "BatchNorm1d": ("nn.BatchNorm1d(3, dtype=c)", [(4, 3)]),
    "GroupNorm": ("nn.GroupNorm(1, 3, dtype=c)", [(4, 3)]),
    "InstanceNorm1d": ("nn.InstanceNorm1d(3, affine=True, dtype=c)", [(2, 3, 4)]),
    "MultiheadAttention": ("nn.MultiheadAttention(4, 2, dtype=c)", [(3, 4)] * 3),
    "TransformerEncoderLayer": ("nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, dtype=c)",
                                [(3, 4)]),
}


def _layer_case(spec, dtype):
    constructor, shapes = spec

    def case(L):
        L.manual_seed(0)
        layer = eval(constructor, {"nn": L.nn, "c": getattr(L, dtype)})
        drawn = [p.detach().clone() for p in layer.parameters()]
        if shapes == "indices":
            inputs = [L.tensor([[0, 2, 4]])]
        else:
            inputs = [L.randn(*shape, dtype=getattr(L, dtype)) for shape in shapes]
        out = layer(*inputs)
        out = out[0] if isinstance(out, tuple) else out
        out.abs().sum().backward()
        return drawn, out, [p.grad for p in layer.parameters()]
    return case


# PyTorch computes a complex convolution as three real ones (Gauss's product), so its
# result's grad_fn is the AddBackward0 that joins them; compat's is one ConvolutionBackward0.
COMPOSED_IN_PYTORCH = {"Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
                       "ConvTranspose3d"}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", LAYERS)
def test_layers_compute_on_complex_parameters_as_pytorch(name, dtype):
    drawn = check(_layer_case(LAYERS[name], dtype), grad_fn_names=name not in COMPOSED_IN_PYTORCH,
                  **TOLERANCES[dtype])[0]
    assert drawn and all(p.dtype.is_complex for p in drawn)


@pytest.mark.parametrize("name", LAYERS)
def test_complex_parameters_are_drawn_bit_for_bit(name):
    def drawn(L):
        L.manual_seed(0)
        layer = eval(LAYERS[name][0], {"nn": L.nn, "c": L.complex64})
        return [p.detach().numpy() for p in layer.parameters()]
    ours, theirs = drawn(LIBRARIES["compat"]), drawn(LIBRARIES["torch"])
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert a.dtype == b.dtype and np.array_equal(a, b)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", REFUSING_LAYERS)
def test_layers_pytorch_refuses_on_complex_raise_its_errors(name, dtype):
    assert_same_error(_layer_case(REFUSING_LAYERS[name], dtype))
