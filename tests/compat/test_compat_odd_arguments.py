"""compat against PyTorch at the arguments a sweep of every torch function and Tensor method
of one tensor found compat answering differently: 0-d tensors with dims 0 and -1 (one
dimension, named twice in a tuple), empty tensors (reductions without an identity, LU
factorisations, medians), a tensor where a sequence of tensors is taken, missing size
arguments, and gradients outside a function's domain; clamp_min's, clamp_max's, fmod's
and inner's dtypes, found by a sweep of functions of two tensors; and layouts and draws
of non-contiguous inputs, and losses' weights, reductions and infinite differences,
found by sweeps of torch.nn.functional; modules given batches of no samples; and lists
of sequences as indices, view(dtype), and matrix_rank's tolerances, a full SVD's
gradients and the FFTs' dtypes and nodes. Each case gives PyTorch's result and gradient, or raises
PyTorch's exception (with its text, unless noted)."""
import warnings

import numpy as np
import pytest
import torch

import compat
from compat_harness import check, seeded


def _case(expression):
    def case(T):
        x0 = T.tensor(0.7, dtype=T.float64, requires_grad=True)
        e = T.zeros(0, 3, dtype=T.float64, requires_grad=True)
        e30 = T.zeros(3, 0, dtype=T.float64, requires_grad=True)
        one = T.tensor([0.3], dtype=T.float64, requires_grad=True)
        m = T.tensor([[0.5, -1.5, 2.0], [0.25, 3.0, -0.75]], dtype=T.float64,
                     requires_grad=True)
        p = T.tensor([-0.5, 0.0, 0.3, 1.0, 1.5, float("nan")], dtype=T.float32,
                     requires_grad=True)
        F = T.nn.functional
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (std of one element; deprecated names)
            return eval(expression, {**globals(), **locals()})
    return seeded(case)


def _gradient(T, output, input):
    return output, T.autograd.grad(output.sum(), input, allow_unused=True)


# A 0-d tensor has one dimension for reductions, scans and order statistics: 0 or -1.
ZERO_D = [
    "T.sum(x0, dim=(0, -1))", "T.mean(x0, (0, -1))", "T.amax(x0, (0, -1))",
    "T.all(x0, (0, -1))", "T.any(x0, dim=(0, -1))", "T.logsumexp(x0, (0, -1))",
    "T.logsumexp(x0, 0)", "T.norm(x0, dim=(0, -1))", "T.std(x0, (0, -1))",
    "T.var(x0, (0, -1))", "T.count_nonzero(x0, (0, -1))", "T.count_nonzero(x0, 0)",
    "T.squeeze(x0, (0, -1))", "T.squeeze(x0, 2)", "T.squeeze_copy(x0, 2)",
    "T.flip(x0, (0,))", "T.flip(x0, (0, -1))", "T.linalg.vector_norm(x0, 2, (0, -1))",
    "_gradient(T, T.aminmax(x0, dim=0).max, x0)", "T.aminmax(x0, dim=-1, keepdim=True)",
    "T.aminmax(x0, dim=1)", "_gradient(T, T.cummax(x0, 0).values, x0)", "T.cummin(x0, -1)",
    "_gradient(T, T.median(x0, 0).values, x0)", "T.median(x0, -1, True)",
    "T.kthvalue(x0, 1, 0)", "T.kthvalue(x0, 2, 0)", "_gradient(T, T.nanmean(x0, 0), x0)",
    "T.nansum(x0, -1, True)", "T.nansum(x0, (0, -1))", "T.std_mean(x0, 0)",
    "T.var_mean(x0, (0, -1))", "T.frobenius_norm(x0, 0)", "T.frobenius_norm(x0, (0,))",
    "T.where(x0)", "T.where(x0 * 0)", "T.nonzero(x0, as_tuple=True)",
    # operations along one dim refuse a tuple of dims, which a 0-d tensor took as its dim
    "T.mode(x0, (0,))", "T.nanmedian(x0, (0,))", "T.cumprod(x0, (0,))", "T.cummax(x0, (0,))",
    "T.logcumsumexp(m, (0,))", "T.kthvalue(m, 1, (0,))", "T.median(m, (0,))",
    "T.sort(m, stable=True)", "T.sort(m, stable=False)", "m.sort(1, True)",
    "_gradient(T, T.max(x0, 0).values, x0)", "T.min(x0, 0)",
]

EMPTY = [
    "T.amax(e)", "T.amax(e, 0)", "T.amin(e, (1, 0))", "T.amax(e, 1)", "T.amin(e30, (0, 1))",
    "T.amax(m, [])", "T.aminmax(e)", "T.aminmax(e, dim=0)", "T.aminmax(e, dim=1)",
    "T.max(e, 0)", "T.min(e30, 1, True)", "T.kthvalue(e, 1, 0)", "T.median(e, 0)",
    "T.nanmedian(e, 0)", "_gradient(T, T.median(e), e)", "_gradient(T, T.nanmedian(e), e)",
    "T.median(T.zeros(0, dtype=T.int32))", "T.median(T.zeros(0, dtype=T.int8))",
    "T.nanmedian(T.zeros(0, dtype=T.int64))", "T.median(T.zeros(0, dtype=T.float16))",
    "T.linalg.lu_factor(e)", "T.linalg.lu_factor_ex(e30)", "T.lu(T.zeros(2, 0, 0))",
    "T.lu(e, get_infos=True)", "T.lu(e30)", "T.linalg.lu_factor(T.zeros(0, 0))",
    "_gradient(T, T.linalg.lu_factor(e).LU, e)",
]

ARGUMENTS = [
    "T.kthvalue(m, 4, 1)", "T.kthvalue(m, 0, -2)", "T.kthvalue(m, 2, 0, True)",
    "T.hstack(m)", "T.vstack(m)", "T.row_stack(m)", "T.dstack(m)", "T.column_stack(m)",
    "T.cat(m)", "T.concat(m)", "T.concatenate(m)", "T.stack(m)", "T.linalg.multi_dot(m)",
    "T.concat([m, m], 1)", "T.concatenate((m, m), axis=-1)",
    "T.meshgrid(e, indexing='ij')", "T.meshgrid([one, one], indexing='ij')",
    "T.permute(x0)", "x0.reshape()", "x0.expand()", "x0.repeat()",
    "x0.sum_to_size()", "x0.new_zeros()", "x0.new_ones()", "x0.new_empty()", "T.zeros()",
    "T.ones()", "T.empty()", "T.zeros(())", "x0.new_zeros(())", "m.view_as(m)",
    "x0.expand_as(x0)", "x0.reshape_as(x0)",
    "T.atleast_1d(e)", "T.atleast_2d(m)", "T.atleast_1d(x0)", "T.atleast_2d(x0)",
    "T.atleast_3d(x0)", "T.atleast_2d([x0, x0])", "T.atleast_1d([])", "T.atleast_3d((one,))",
    "T.special.softmax(m, 0)", "T.special.log_softmax(m, 0, dtype=T.float32)",
    "T.softmax(m, None)", "T.log_softmax(m, None)",
    "T.meshgrid(one, T.tensor([1, 2]), indexing='ij')",
    # clamp_min/clamp_max compute in the operands' result type, as clamp does, and cast a
    # number bound to an integer dtype as PyTorch casts it
    "T.clamp_min(T.tensor(1.5, requires_grad=True), m)", "T.clamp_max(T.tensor([1.5]), m)",
    "T.clamp_min(T.tensor([1, 5]), 2.5)", "T.clamp_min(T.tensor([1, 5]), T.tensor(2.5))",
    "T.tensor([1, 5]).clamp_min_(2.5)", "_gradient(T, T.clamp_min(m, T.tensor(0.5)), m)",
    "T.clamp_max(T.tensor([1, 2], dtype=T.uint8), 300)",
    "T.clamp(T.tensor([1, 2], dtype=T.uint8), max=300)",
    "T.clamp_min(T.tensor([1, 2], dtype=T.uint8), -1)",
    "T.clamp(T.tensor([1, 2], dtype=T.int8), -200, 5)", "m.clamp_max(T.zeros(0, 3))",
    "m.resize_as_(2.0)",
    # a number where PyTorch takes a tensor: its TypeError (raw AttributeErrors before)
    "T.equal(m, 2.0)", "T.allclose(m, 2.0)", "T.is_same_size(m, 2.0)", "m.is_same_size(2.0)",
    "m.type_as(2.0)", "m.view_as(2.0)", "m.expand_as(2)", "m.reshape_as(2.0)",
    "m.is_set_to(2.0)", "T.prelu(m, 2.0)", "T.complex(m, 2.0)", "T.polar(m, 2.0)",
    "T.masked_select(m, 2.0)", "F.kl_div(m, 2.0)", "T.pairwise_distance(m, 2.0)",
    "T.cholesky_solve(m, 2.0)", "T.triangular_solve(m, 2.0)", "T.lu_unpack(m, 2.0)",
    "T.orgqr(m, 2.0)",
    # an ndarray where a tensor is taken: PyTorch names its type with its module
    "m.is_same_size(np.ones(3))", "T.relu(np.ones(3))", "F.linear(np.ones(3), m)",
    "F.embedding(T.tensor([0]), np.ones((2, 3)))", "T.get_device(np.ones(3))",
    "m.resize_as_(np.ones(3))", "F.pad(np.ones(3), (1, 1))", "T.igamma(m, np.ones(3))",
    "T.inner(m, np.ones(3))", "F.avg_pool1d(np.ones((1, 3)), 2)",
    # a bool tensor and a number compute in their result type (fmod's kernel has no bools)
    "T.fmod(T.tensor([True, False]), 2.5)", "T.tensor([True, False]).fmod(3)",
    "T.fmod(T.tensor([True, False]), T.tensor([True, True]))",
    "T.tensor([True, False]).fmod_(2)",
    # inner multiplies by a 0-d operand, promoting (and names its node as PyTorch does)
    "_gradient(T, T.inner(m, x0), m)", "T.inner(T.tensor(1.5), m)", "T.inner(m, m)",
    "T.inner(T.ones(3, dtype=T.int64), T.tensor(2.5))", "T.inner(m, T.ones(3))",
]

# Python's own message for a missing argument ("argument: 'dim'") is not PyTorch's, nor
# are view()'s (and sort's) lists of overloads, meshgrid's print of the tensor and
# unflatten's C++ stack.
TYPE_ONLY = ["T.softmax(m)", "m.softmax()", "T.log_softmax(m)", "T.meshgrid(m, indexing='ij')",
             "x0.view()", "T.unflatten(x0, 0, (1,))", "T.sort(x0, dim=(0,))",
             "T.argsort(x0, dim=(0,))", "T.topk(m, 1, (0,))"]

# An input returned as it is gets a node of its own (its own node keeps its name).
IDENTITIES = [
    "(lambda y: (y.squeeze(), y.grad_fn))(m.exp())", "T.squeeze(x0)", "x0.squeeze(-1)",
    "T.ravel(one)", "one.ravel()", "T.meshgrid(one, indexing='ij')", "x0.contiguous()",
]

GRADIENTS = [
    "_gradient(T, T.logit(p), p)", "_gradient(T, T.logit(p, 0.1), p)",
    "_gradient(T, T.logit(p, 0.0), p)", "_gradient(T, T.logit(p.double()), p)",
    "_gradient(T, T.special.logit(p), p)", "_gradient(T, T.bernoulli(p.detach().clamp(0, 1)"
    ".requires_grad_()), p)",
    "(lambda q: _gradient(T, T.bernoulli(q), q))(T.full((3,), 0.5, requires_grad=True))",
    "(lambda q: T.bernoulli(q, 0.3).grad_fn.name())(T.full((3,), 0.5, requires_grad=True))",
    "(lambda q: T.bernoulli(q).requires_grad)(T.full((3,), 0.5))",
]


# From a sweep of torch.nn.functional: layouts and draws of non-contiguous inputs, and
# feature dropout of fewer than two dimensions where nothing is dropped.
LAYOUTS = [
    "(lambda y: (y, y.stride()))(F.gumbel_softmax(T.arange(24.).reshape(4, 3, 2)"
    ".permute(2, 1, 0)))",
    "(lambda x: _gradient(T, F.gumbel_softmax(x.permute(2, 1, 0), hard=True, dim=0), x))"
    "(T.arange(24.).reshape(4, 3, 2).requires_grad_())",
    "T.arange(24.).reshape(4, 3, 2).permute(2, 1, 0).softmax(-1).stride()",
    "T.arange(24.).reshape(4, 3, 2).permute(2, 1, 0).log_softmax(0).stride()",
    "F.softmin(T.arange(24.).reshape(4, 3, 2).permute(2, 1, 0), 1).stride()",
    "F.feature_alpha_dropout(T.ones(3))", "F.feature_alpha_dropout(T.ones(3), training=True)",
    "T.feature_dropout(T.ones(3), 0.5, False)", "F.feature_alpha_dropout(T.ones(0), True)",
    # to(memory_format=) and the casts' memory_format (a copy where the layout changes)
    "(lambda x: (x.to(memory_format=T.channels_last).stride(), x.to(memory_format="
    "T.channels_last).grad_fn.name()))(T.randn(2, 3, 4, 5, requires_grad=True))",
    "(lambda y: y.to(memory_format=T.channels_last) is y)(T.randn(2, 3, 4, 5).to("
    "memory_format=T.channels_last))",
    "(lambda x: x.to(memory_format=T.contiguous_format) is x)(T.randn(2, 3, 4, 5))",
    "(lambda x: _gradient(T, x.double(memory_format=T.channels_last), x))(T.randn(2, 3, 4, 5, "
    "requires_grad=True))", "T.randn(2, 3, 4, 5).int(memory_format=T.channels_last).stride()",
    "(lambda x: x.float(memory_format=T.channels_last) is x)(T.randn(2, 3, 4, 5))",
    "T.randn(2, 3, 4, 5).to(T.float64, memory_format=T.channels_last).stride()",
]


# From a sweep of the loss functions over reductions, weights and odd inputs.
_W = "T.arange(1., 7.).reshape(2, 3).double()"
_INFINITE = ("T.tensor([[float('nan'), 1.0, 2.0], [0.5, float('inf'), -float('inf')]], "
             "requires_grad=True)")
LOSSES = [
    # weighted regression losses: the weight has input's shape; the mean is over its sum
    f"_gradient(T, F.mse_loss(m, T.zeros(2, 3, dtype=T.float64), weight={_W}), m)",
    f"_gradient(T, F.mse_loss(m, T.zeros(3, dtype=T.float64), weight={_W}, reduction='none'), m)",
    f"_gradient(T, F.l1_loss(m, T.zeros(2, 3, dtype=T.float64), weight={_W}), m)",
    "F.mse_loss(m, m, weight=T.ones(3, dtype=T.float64))",
    "F.huber_loss(m, m, reduction='batchmean')",
    # smooth L1 and Huber: an infinite difference has slope +-1, a NaN one NaN
    f"(lambda x: _gradient(T, F.smooth_l1_loss(x, T.ones(2, 3)), x))({_INFINITE})",
    f"(lambda x: _gradient(T, F.huber_loss(x, T.ones(2, 3), reduction='sum'), x))({_INFINITE})",
    f"(lambda x: _gradient(T, F.smooth_l1_loss(x, T.ones(2, 3), reduction='none', beta=0.5), x))"
    f"({_INFINITE})",
    # huber_loss writes into input's dtype (smooth_l1_loss and mse_loss promote)
    "F.huber_loss(m.float(), T.ones(2, 3, dtype=T.float64))",
    "F.huber_loss(T.ones(2, 3, dtype=T.int64), m)", "F.huber_loss(m, T.ones(2, 3).to(T.complex64))",
    # binary cross entropy: weights may not broadcast the losses past input's shape
    "F.binary_cross_entropy(T.tensor(0.3), T.tensor(0.6), weight=T.ones(3))",
    "F.binary_cross_entropy_with_logits(T.tensor(0.3), T.tensor(0.6), pos_weight=T.ones(3))",
    "F.binary_cross_entropy_with_logits(T.ones(2, 3), T.ones(2, 3), weight=T.ones(4))",
    "F.binary_cross_entropy(T.full((2, 3), 0.5), T.ones(2, 3), weight=T.ones(2, 2, 3))",
    "F.binary_cross_entropy_with_logits(T.ones(2, 3), T.ones(2, 3), weight=T.ones(2, 1), "
    "pos_weight=T.ones(3))",
    # cross entropy with class probabilities: promoted dtypes, a differentiable weight,
    # PyTorch's nodes; no ignore_index; class indices with a weight of another dtype
    "F.cross_entropy(m.float(), T.softmax(m, 1))", "F.cross_entropy(m, T.softmax(m, 1), "
    "ignore_index=1)", "(lambda w: (F.cross_entropy(m, T.softmax(m, 1), weight=w), "
    "T.autograd.grad(F.cross_entropy(m, T.softmax(m, 1), weight=w), (m, w))))(T.tensor("
    "[0.5, 1.0, 2.0], dtype=T.float64, requires_grad=True))",
    "[type(f).__name__ for f, _ in F.cross_entropy(m, T.softmax(m, 1)).grad_fn.next_functions]",
    "_gradient(T, F.cross_entropy(m, T.softmax(m, 1), label_smoothing=0.2), m)",
    "_gradient(T, F.cross_entropy(e, e.detach()), e)",
    "(lambda x: _gradient(T, F.cross_entropy(x, T.softmax(T.ones(2, 3, 4), 1)), x))("
    "T.zeros(2, 3, 4, requires_grad=True))",
    "F.nll_loss(m.float(), T.tensor([0, 2]), weight=T.ones(3, dtype=T.float64))",
    "F.cross_entropy(m, T.tensor([0, 2]), weight=T.ones(3), label_smoothing=0.1)",
    # margin losses take a batch of no samples
    "_gradient(T, F.multi_margin_loss(e, T.zeros(0, dtype=T.long), reduction='none'), e)",
    "F.multi_margin_loss(e, T.zeros(0, dtype=T.long), reduction='sum')",
    "F.multi_margin_loss(e30, T.zeros(3, dtype=T.long), reduction='none')",
    "_gradient(T, F.multilabel_margin_loss(e, T.zeros(0, 3, dtype=T.long), reduction='none'), e)",
]


# From a sweep of modules: batches of no samples, and unflatten's dims.
MODULES = [
    "(lambda bn: (_gradient(T, bn(T.zeros(0, 3, requires_grad=True)), [bn.weight, bn.bias]), "
    "list(bn.buffers())))(T.nn.BatchNorm1d(3))",
    "(lambda bn: (bn(T.zeros(0, 3, requires_grad=True)), list(bn.buffers())))("
    "T.nn.BatchNorm1d(3, affine=False))",
    "(lambda bn: _gradient(T, bn(T.zeros(0, 3, 4, requires_grad=True)), [bn.weight]))("
    "T.nn.BatchNorm1d(3, track_running_stats=False))",
    "(lambda bn: bn.eval()(T.zeros(0, 3, requires_grad=True)))(T.nn.BatchNorm1d(3))",
    "(lambda bn: (bn(T.randn(4, 3, 5)), list(bn.buffers())))(T.nn.BatchNorm1d(3))",
    "(lambda g: _gradient(T, g(T.zeros(0, 4, 5, requires_grad=True)), [g.weight, g.bias]))("
    "T.nn.GroupNorm(2, 4))",
    "T.unflatten(one, 1, (1, 1))", "T.unflatten(m, -3, (1, 2))",
    "T.unflatten(m, -1, (3, 1))", "T.nn.Unflatten(1, (3, 1))(one)",
]


# From a sweep of indices: a list holding sequences, tensors, slices or None is a tuple of
# indices, as in PyTorch (and NumPy before 1.23); steps are checked first.
_X = "T.arange(24.).reshape(3, 4, 2)"
INDEXING = [
    f"(lambda x: _gradient(T, x[[[0, 1], [1, 0]]], x))({_X}.requires_grad_())",
    f"{_X}[[0, [1]]]", f"{_X}[[0, slice(None)]]", f"{_X}[[0, None]]",
    f"{_X}[[T.tensor(0), 1]]", f"{_X}[[0, 1]]", f"{_X}[[[0, 1], [1, 0], [0, 0]]]",
    f"{_X}[[np.array([0, 1]), 0]]",
    f"(lambda x: (x.__setitem__([[0, 1], [1, 0]], -1.0), x)[1])({_X})",
    "x0[::-1]", "x0[::0]", "m[::0]", "m[[0], ::-1]",
    # view(dtype): the same memory read as another dtype, without history
    "T.arange(12.).reshape(3, 4).view(T.float64)", "T.arange(12.).reshape(3, 4).view(T.int8)",
    "T.arange(12.).reshape(3, 4)[:, :2].view(T.float64)", "T.tensor(1.5).view(T.int32)",
    "T.arange(12.).reshape(3, 4)[:, 1:3].view(T.float64)",
    "T.arange(15.).reshape(3, 5)[:, :2].view(T.float64)",
    "T.arange(12.).reshape(3, 4)[:, :1].view(T.float64)", "T.tensor(1.5).view(T.int16)",
    "T.arange(6.).reshape(2, 3).t().view(T.int16)", "T.arange(6.).reshape(2, 3).t().view(T.int32)",
    "(lambda x: x.view(T.float32))(T.arange(6., requires_grad=True))",
    "(lambda x: (x.view(T.int32).add_(1), x, x._version))(T.arange(4.))",
    "T.arange(4.).view(T.complex64)", "T.ones(4).view(T.bool)",
]

# From a sweep of torch.linalg and torch.fft: tolerances, dimensions, dtypes and PyTorch's
# nodes.
LINALG_FFT = [
    "(lambda A: [T.linalg.matrix_rank(A), T.linalg.matrix_rank(A, atol=1e-2), "
    "T.linalg.matrix_rank(A, rtol=1e-2), T.linalg.matrix_rank(A, atol=1e-12, rtol=1e-2), "
    "T.linalg.matrix_rank(A, atol=0.0), T.linalg.matrix_rank(A, hermitian=True, atol=1e-4), "
    "T.linalg.matrix_rank(A, tol=1e-2), T.linalg.matrix_rank(T.stack([A, A * 1e-5]), "
    "atol=T.tensor([1e-2, 1e-7], dtype=T.float64)), T.linalg.matrix_rank(T.zeros(2, 0, 3)), "
    "T.linalg.matrix_rank(A.float(), rtol=T.tensor(1e-2))])(T.tensor([[1., 0, 0], "
    "[0, 1e-3, 0], [0, 0, 1e-9]], dtype=T.float64))",
    "T.linalg.matrix_rank(x0)", "T.linalg.matrix_rank(m, hermitian=True)",
    "T.fft.fftn(x0)", "T.fft.ifftn(x0)", "T.fft.fftn(T.tensor(2))", "T.fft.fftn(m, dim=())",
    # n-dimensional transforms take one int as s or dim
    "T.fft.fft2(m, dim=-1)", "T.fft.rfft2(m, dim=1)", "T.fft.fftn(m, dim=1)",
    "T.fft.fft2(m, s=4, dim=1)", "T.fft.fftn(m, s=4, dim=1)", "T.fft.irfftn(m, s=4, dim=0)",
    "T.fft.fft2(x0, dim=0)",
    "T.searchsorted(x0, x0)", "T.searchsorted(m, x0)", "T.searchsorted(x0, T.ones(2))",
    # arguments that were ignored: norms' and nansum's dtype=, lstsq's rcond, rrelu's
    # generator
    "T.linalg.matrix_norm(m.float(), dtype=T.float64)",
    "_gradient(T, T.linalg.vector_norm(m.float(), 3, dim=1, dtype=T.float64), m)",
    "T.linalg.norm(m.float(), dtype=T.float64)", "T.linalg.vector_norm(m, dtype=T.float32)",
    "T.linalg.matrix_norm(m, dtype=T.complex128)",
    "T.linalg.vector_norm(m.to(T.complex64), dtype=T.float64)",
    "T.linalg.matrix_norm(m.to(T.complex64), dtype=T.complex128)",
    "T.nansum(m.float(), dtype=T.float64)", "T.nanmean(m.float(), 1, dtype=T.float64)",
    "T.nansum(T.tensor([1., float('nan')]), dtype=T.int64)",
    "T.nansum(T.tensor([1.5, 1.5]), dtype=T.int64)",
    "T.linalg.lstsq(T.tensor([[1., 0], [0, 1e-3], [0, 0]]), T.ones(3, 1))",
    "T.rrelu(T.tensor([-1., -2., 3.]), 0.1, 0.3, True, T.Generator().manual_seed(5))",
    # gradient: results in the order of the dims given; PyTorch's errors for the dims
    "T.gradient(T.arange(12.).reshape(3, 4) ** 2, dim=(1, 0), spacing=[1.0, 2.0])",
    "T.gradient(T.ones(3, 4), dim=(0, -2))", "T.gradient(T.ones(3, 4), dim=(0, 5))",
    # lu_unpack's pivots and householder_product's shapes, checked as PyTorch's
    "T.lu_unpack(m, T.tensor(2, dtype=T.int32))",
    "T.lu_unpack(T.ones(2, 2), T.tensor([3, 1], dtype=T.int32))",
    "T.orgqr(x0, x0)", "T.orgqr(T.ones(3, 2), T.tensor(1.))",
    "T.linalg.householder_product(T.ones(3, 2), T.ones(2, 2))",
    "(lambda x: (T.rrelu_(x, 0.1, 0.3, True, T.Generator().manual_seed(5)), x)[1])("
    "T.tensor([-1., -2., 3.]))",
    # gradients through U and Vh of a non-square full SVD (the extra vectors' ignored)
    "(lambda a: T.autograd.grad((T.linalg.svd(a)[0].abs() * T.arange(2.).double()).sum(), a))("
    "T.tensor([[0.5, -1.5, 2.0], [0.25, 3.0, -0.75]], dtype=T.float64, requires_grad=True))",
    "(lambda a: T.autograd.grad((T.linalg.svd(a)[2][:2].abs() * T.arange(3.).double()).sum(), "
    "a))(T.tensor([[0.5, -1.5, 2.0], [0.25, 3.0, -0.75]], dtype=T.float64, "
    "requires_grad=True))",
    "(lambda a: T.autograd.grad((T.linalg.svd(a)[0][:, :2].abs() * T.arange(2.).double())"
    ".sum(), a))(T.tensor([[0.5, -1.5], [2.0, 0.25], [3.0, -0.75]], dtype=T.float64, "
    "requires_grad=True))",
] + [f"T.fft.{name}(T.ones(2, 4, dtype=T.{dtype}, requires_grad=True)).grad_fn.name()"
     for name in ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "irfft", "irfft2", "irfftn",
                  "hfft"] for dtype in ["float64", "complex128"]] + [
    f"T.fft.{name}(T.ones(2, 4, requires_grad=True)).grad_fn.name()"
    for name in ["rfft", "rfft2", "rfftn", "ihfft"]]


@pytest.mark.parametrize("expression", ZERO_D + EMPTY + ARGUMENTS + IDENTITIES + GRADIENTS
                         + LAYOUTS + LOSSES + MODULES + INDEXING + LINALG_FFT)
def test_odd_arguments_as_torch(expression):
    check(_case(expression), rtol=1e-6, atol=1e-7, messages=True)


@pytest.mark.parametrize("expression", TYPE_ONLY)
def test_odd_arguments_raise_torchs_exception_type(expression):
    check(_case(expression), messages=False)


def test_a_list_of_sequences_as_an_index_warns_as_torch():
    messages = []
    for T in (compat, torch):
        with pytest.warns(UserWarning) as caught:
            T.arange(24.0).reshape(3, 4, 2)[[[0, 1], [1, 0]]]
        messages.append([str(w.message) for w in caught])
    # (PyTorch's text goes on with where its C++ code warned)
    assert len(messages[0]) == 1
    assert messages[1][0].startswith(messages[0][0] + " (Triggered internally at ")


@pytest.mark.parametrize("rcond", [None, 1e-4, 0.5])
def test_lstsq_drops_the_singular_values_below_rcond_as_numpy(rcond):
    """NumPy as the oracle: PyTorch's default driver (gelsy) answered [0, 1000] for the
    rcond=0.5 case in one run of the suite and [1, 0] in others."""
    a = np.array([[1.0, 0.0], [0.0, 1e-3], [0.0, 0.0]])
    b = np.ones((3, 1))
    ours = compat.linalg.lstsq(compat.tensor(a), compat.tensor(b), rcond=rcond)
    solution, _, rank, _ = np.linalg.lstsq(a, b, rcond=rcond)
    np.testing.assert_allclose(ours.solution.numpy(), solution, rtol=1e-12, atol=1e-12)
    assert int(ours.rank) == rank


def test_bernoulli_with_a_number_has_no_derivative():
    def case(T):
        q = T.full((3,), 0.5, requires_grad=True)
        return T.autograd.grad(T.bernoulli(q, 0.3).sum(), q)
    check(seeded(case), messages=True)
