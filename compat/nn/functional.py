"""nn.functional: the layers' computations as functions (``F.linear``, ``F.cross_entropy``).

Each is composed of funcgrad.numpy primitives on the operands' boxes of compat's eager tape
(as compat's own operations are), so no derivative is written here; the result's node takes
the name PyTorch gives its fused kernel (``AddmmBackward0``, ``NllLossBackward0``), so
printed losses read as in PyTorch.
"""
import math
import warnings

import numpy as np

import funcgrad.numpy as fnp
from funcgrad.core import unbox_all

from .. import _dtypes, _fused, _ops
from .._complex_refusals import (CLAMP, fixed, refuse_complex, refuse_complex_derivative,
                                 refuse_complex_into)
from .._factories import empty_like, zeros_like
from .._inplace import check_written_shape, inplace
from .._memory_formats import contiguous_format
from .._quiet import quiet, quieted
from .._record import engine, float_operand, operand, result_type, wrap
from .._scipy import special as fsp
from .._tensor import Tensor, make, require_tensor
from ._activation import activation, leaky_relu_values, log_sigmoid_values, logsigmoid
from ._attention import multi_head_attention_forward, scaled_dot_product_attention
from ._blocks import fold, pixel_shuffle, pixel_unshuffle, unfold
from ._ctc import ctc_loss
from ._distances import cosine_similarity, pairwise_distance, pdist
from ._dropout import (alpha_dropout, dropout, dropout1d, dropout2d, dropout3d,
                       feature_alpha_dropout)
from ._embedding import embedding
from ._embedding_bag import embedding_bag
from ._fractional import (fractional_max_pool2d, fractional_max_pool2d_with_indices,
                          fractional_max_pool3d, fractional_max_pool3d_with_indices)
from ._grid import affine_grid, grid_sample
from ._likelihood_losses import gaussian_nll_loss, poisson_nll_loss
from ._linear import linear
from ._margin_losses import (cosine_embedding_loss, hinge_embedding_loss, margin_ranking_loss,
                             multi_margin_loss, multilabel_margin_loss,
                             multilabel_soft_margin_loss, soft_margin_loss, triplet_margin_loss,
                             triplet_margin_with_distance_loss)
from ._norms import (batch_norm, group_norm, instance_norm, layer_norm, local_response_norm,
                     rms_norm)
from ._padding import pad
from ._pool_variants import (channel_shuffle, lp_pool1d, lp_pool2d, lp_pool3d, max_unpool1d,
                             max_unpool2d, max_unpool3d)
from ._reduction import (check_broadcast, reduced, reduced_tensor, reduction_of,
                         warn_of_broadcasting)
from ._resize import interpolate
from ._rrelu import rrelu, rrelu_
from ._spatial import (adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d,
                       adaptive_max_pool1d, adaptive_max_pool2d, adaptive_max_pool3d,
                       avg_pool1d, avg_pool2d, avg_pool3d, conv1d, conv2d, conv3d,
                       conv_transpose1d, conv_transpose2d, conv_transpose3d, max_pool1d,
                       max_pool2d, max_pool3d)

tanh = _ops.tanh
sigmoid = _ops.sigmoid


def relu(input, inplace=False):
    return input.relu_() if inplace else _ops.relu(input)


# ---- activations ---------------------------------------------------------------------------


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """input where it is positive, else negative_slope * input (NaN stays NaN)."""
    if inplace:
        return _leaky_relu_(input, negative_slope)
    return _leaky_relu(input, negative_slope, "LeakyReluBackward0")


def _leaky_relu(input, negative_slope, label):
    return activation(input, "leaky_relu_cpu",
                      lambda x: leaky_relu_values(x, negative_slope), label)


_leaky_relu_ = inplace(lambda input, negative_slope: _leaky_relu(input, negative_slope,
                                                                 "LeakyReluBackward1"))


def elu(input, alpha=1.0, inplace=False):
    """input where it is positive, else alpha * (exp(input) - 1)."""
    if inplace:
        return _elu_(input, alpha)
    return activation(input, "elu_cpu", lambda x: _elu(x, alpha), "EluBackward0")


def _elu(x, alpha):
    return _exponential_unit(x, alpha)


def _exponential_unit(x, alpha, scale=None):
    """``alpha * expm1(x / scale)`` where x < 0 (elu: no scale, celu: alpha), x where x > 0
    or NaN (PyTorch's kernel tests x <= 0: NaN takes the identity's side, derivative 1
    included), and at 0 ``alpha * x / scale``: that exponential's value and first
    derivative, with no second derivative, as PyTorch's (its first derivative at 0 comes
    from the negative side, its second from the positive one)."""
    raw = unbox_all(x)
    negative = raw < 0
    inner = fnp.where(negative, x, 0.0)
    linear = x
    if scale is not None:
        inner, linear = fnp.true_divide(inner, scale), fnp.true_divide(x, scale)
    return fnp.where(negative, fnp.multiply(alpha, fnp.expm1(inner)),
                     fnp.where(raw == 0, fnp.multiply(alpha, linear), x))


_elu_ = inplace(lambda input, alpha: activation(input, "elu_cpu", lambda x: _elu(x, alpha),
                                                 "EluBackward1"))


def silu(input, inplace=False):
    """input * sigmoid(input)."""
    refuse_complex_derivative("silu", input)
    if inplace:
        return _silu_(input)
    return activation(input, "silu_cpu", _silu, "SiluBackward0", complex_too=True)


def _silu(x):
    # Not x / (1 + exp(-x)): where exp(-x) overflows (x below -89 in float32), that
    # quotient's derivative is x * inf / inf ** 2, NaN; sigmoid's slope s * (1 - s) is 0.
    return fnp.multiply(x, _fused.sigmoid_p(x))


_silu_ = inplace(lambda input: activation(input, "silu_cpu", _silu, "SiluBackward0",
                                           complex_too=True))


def gelu(input, approximate="none"):
    """input * Phi(input), Phi the standard normal's distribution function (or its tanh
    approximation)."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    compute = _gelu_tanh if approximate == "tanh" else _gelu
    if input.dtype is _dtypes.float16:  # (in float32, rounded once: SciPy's erf has no
        exact = compute                 # float16 loop, and gave float64)
        compute = lambda x: fnp.astype(exact(fnp.astype(x, np.float32)), np.float16)  # noqa: E731
    return activation(input, "GeluKernelImpl", compute, "GeluBackward0")


def _gelu(x):
    return fnp.multiply(fnp.multiply(x, 0.5),
                        fnp.add(1.0, fsp.erf(fnp.multiply(x, 0.7071067811865476))))


def _gelu_tanh(x):
    inner = fnp.multiply(0.7978845608028654,
                         fnp.add(x, fnp.multiply(0.044715, fnp.multiply(x, fnp.square(x)))))
    return fnp.multiply(fnp.multiply(0.5, x), fnp.add(1.0, fnp.tanh(inner)))


def softplus(input, beta=1.0, threshold=20.0):
    """log(1 + exp(beta * input)) / beta, and input itself where beta * input exceeds
    threshold."""
    return activation(input, "softplus_cpu", lambda x: _softplus(x, beta, threshold),
                       "SoftplusBackward0")


def _softplus(x, beta, threshold):
    scaled = fnp.multiply(x, beta)
    linear = unbox_all(scaled) > threshold
    smooth = fnp.true_divide(fnp.log1p(fnp.exp(fnp.where(linear, 0.0, scaled))), beta)
    return fnp.where(linear, x, smooth)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """input clamped to [min_val, max_val]; its derivative is 1 strictly between them (and
    at NaN), 0 elsewhere."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if inplace:
        return hardtanh_(input, min_val, max_val)
    return _hardtanh(input, min_val, max_val)


def _hardtanh(input, min_val, max_val):
    refuse_complex(CLAMP, input)
    if input.dtype is _dtypes.bool:
        raise RuntimeError("Bool inputs not supported for hardtanh")
    if input.dtype is _dtypes.uint8 and (min_val < 0 or max_val < 0):
        raise RuntimeError("cannot do hardtanh on an unsigned type with negative limits")

    def compute(x):
        raw = unbox_all(x)
        # PyTorch's kernel: the bound where input is beyond it, else input (-0.0 stays).
        bounded = np.where(raw < min_val, min_val, np.where(raw > max_val, max_val, raw))
        between = ~((raw <= min_val) | (raw >= max_val))
        return fnp.where(between, x, bounded.astype(raw.dtype))
    return wrap(quiet().run(compute, engine(input)), "HardtanhBackward0", (input,),
                saves_inputs=True)


hardtanh_ = inplace(lambda input, min_val=-1.0, max_val=1.0: _hardtanh(input, min_val, max_val))


def relu6(input, inplace=False):
    """min(max(0, input), 6): hardtanh between 0 and 6."""
    return hardtanh(input, 0.0, 6.0, inplace)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(input, inplace=False):
    """scale * elu(input, alpha), with the constants that make it self-normalising."""
    if inplace:
        return _selu_(input)
    return activation(input, "elu_cpu", _selu, "EluBackward0")


def _selu(x):
    return fnp.multiply(_elu(x, _SELU_ALPHA), _SELU_SCALE)


_selu_ = inplace(lambda input: activation(input, "elu_cpu", _selu, "EluBackward1"))


def mish(input, inplace=False):
    """input * tanh(softplus(input))."""
    if inplace:
        return _mish_(input)
    return activation(input, "mish_cpu", _mish, "MishBackward0")


def _mish(x):
    return fnp.multiply(x, fnp.tanh(_softplus(x, 1.0, 20.0)))


_mish_ = inplace(lambda input: activation(input, "mish_cpu", _mish, "MishBackward0"))


def hardswish(input, inplace=False):
    """input * relu6(input + 3) / 6."""
    if inplace:
        return _hardswish_(input)
    return activation(input, "hardswish_cpu", _hardswish, "HardswishBackward0")


def _hardswish(x):
    # The three pieces as PyTorch's kernels compute and differentiate them: up to -3, x * 0
    # (NaN at -inf); below 3, x * (x + 3) / 6 (derivative x / 3 + 1/2), on its inputs alone
    # (an infinity elsewhere would make its derivative NaN); from 3 on (and at NaN), x.
    raw = unbox_all(x)
    middle = (raw > -3) & (raw < 3)
    inner = fnp.where(middle, x, 0.0)
    curve = fnp.true_divide(fnp.multiply(inner, fnp.add(inner, 3.0)), 6.0)
    return fnp.where(raw <= -3, fnp.multiply(x, 0.0), fnp.where(middle, curve, x))


_hardswish_ = inplace(lambda input: activation(input, "hardswish_cpu", _hardswish,
                                                "HardswishBackward0"))


def hardsigmoid(input, inplace=False):
    """relu6(input + 3) / 6."""
    if inplace:
        return _hardsigmoid_(input)
    return activation(input, "hardsigmoid_cpu", _hardsigmoid, "HardsigmoidBackward0")


def _hardsigmoid(x):
    # The derivative is 1/6 strictly between -3 and 3 and 0 elsewhere, NaN included.
    raw = unbox_all(x)
    between = (raw > -3) & (raw < 3)
    outside = (np.minimum(np.maximum(raw + 3, 0), 6) / 6).astype(raw.dtype)
    return fnp.where(between, fnp.true_divide(fnp.add(x, 3.0), 6.0), outside)


_hardsigmoid_ = inplace(lambda input: activation(input, "hardsigmoid_cpu", _hardsigmoid,
                                                  "HardsigmoidBackward0"))


def tanhshrink(input):
    """input - tanh(input), composed as PyTorch composes it."""
    return input - input.tanh()


def softsign(input):
    """input / (1 + |input|), composed as PyTorch composes it."""
    return input / (input.abs() + 1)


def celu(input, alpha=1.0, inplace=False):
    """input where it is positive, else alpha * (exp(input / alpha) - 1)."""
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    if inplace:
        return _celu_(input, alpha)
    return activation(input, "elu_cpu", lambda x: _celu(x, alpha), "CeluBackward0")


def _celu(x, alpha):
    return _exponential_unit(x, alpha, scale=alpha)


_celu_ = inplace(lambda input, alpha=1.0: activation(
    input, "elu_cpu", lambda x: _celu(x, alpha), "CeluBackward1"))


def glu(input, dim=-1):
    """The first half of `input` along `dim` times the sigmoid of the second half."""
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    axis = input._dim(dim)
    size = input.shape[axis]
    if size % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {axis} is size "
                           f"{size}")

    def compute(x):
        first, second = fnp.split(x, 2, axis=axis)
        return fnp.multiply(first, _fused.sigmoid_p(second))
    return activation(input, "glu_cpu", compute, "GluBackward0")


def hardshrink(input, lambd=0.5):
    """input where |input| > lambd, else 0 (NaN stays NaN, with derivative 0: that of
    PyTorch's vectorized kernel, which computes all but the last few elements of a tensor;
    its scalar loop over those, and over tensors of a few elements, gives 1)."""
    def compute(x):
        raw = unbox_all(x)
        kept = (raw < -lambd) | (raw > lambd)
        return fnp.where(kept, x, np.where(np.isnan(raw), raw, 0).astype(raw.dtype))
    return activation(input, "hardshrink_cpu", compute, "HardshrinkBackward0")


def softshrink(input, lambd=0.5):
    """input moved lambd towards 0, and 0 where |input| <= lambd (NaN stays NaN, with
    derivative 0, as hardshrink's)."""
    largest = np.finfo(input.dtype.numpy).max if input.dtype.is_floating_point else np.inf
    if not 0 <= lambd <= largest:
        raise RuntimeError(f"lambda must be in range [0, {largest:g}] for input dtype "
                           f"{input.dtype.scalar_name}, but found {lambd:g}")

    def compute(x):
        raw = unbox_all(x)
        # Inside the band PyTorch's kernel gives x * 0: a zero of x's sign, or NaN.
        inside = (raw * 0).astype(raw.dtype)
        return fnp.where(raw > lambd, fnp.subtract(x, lambd),
                         fnp.where(raw < -lambd, fnp.add(x, lambd), inside))
    return activation(input, "softshrink_check", compute, "SoftshrinkBackward0")


def threshold(input, threshold, value, inplace=False):
    """input where it is greater than threshold (and at NaN), else value."""
    if inplace:
        return threshold_(input, threshold, value)
    return _threshold(input, threshold, value, "ThresholdBackward0")


def _threshold(input, threshold, value, label):
    refuse_complex("threshold_cpu", input)
    if input.dtype is _dtypes.bool:
        raise _dtypes.not_implemented_for("threshold_cpu", input.dtype)

    def compute(x):
        raw = unbox_all(x)
        return fnp.where(raw <= threshold, np.asarray(value).astype(raw.dtype), x)
    return wrap(quiet().run(compute, engine(input)), label, (input,), saves_inputs=True)


threshold_ = inplace(lambda input, threshold, value: _threshold(input, threshold, value,
                                                                 "ThresholdBackward1"))


def relu_(input):
    return input.relu_()


def elu_(input, alpha=1.0):
    return _elu_(input, alpha)


def leaky_relu_(input, negative_slope=0.01):
    return _leaky_relu_(input, negative_slope)


def selu_(input):
    return _selu_(input)


def celu_(input, alpha=1.0):
    return _celu_(input, alpha)


def prelu(input, weight):
    """input where it is positive, else weight * input: one weight for every channel
    (dimension 1) or one for all."""
    require_tensor(weight, "prelu", "weight", 2)
    if weight.dim() > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                           f"ndim = {weight.dim()}")
    channels = input.shape[1] if input.dim() >= 2 else 1
    count = weight.numel()
    if count != 1 and count != channels:
        raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found "
                           f"parameter numbers = {count} and channel size = {channels}.")
    if weight.dtype is not input.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got "
                           f"{input.dtype.scalar_name} and {weight.dtype.scalar_name}")
    if not input.dtype.is_floating_point:
        raise _dtypes.not_implemented_for("prelu_cpu", input.dtype)
    if weight.dim() != input.dim():  # PyTorch views it as (1, count, 1, ...) first
        weight = _ops.reshape(weight, *[count if i == 1 else 1 for i in range(input.dim())])

    def compute(x, w):
        # PyTorch's kernel tests x > 0: 0 and NaN take the weight's side, which sees only
        # its own inputs (an infinite positive one would give the weight a NaN derivative).
        positive = unbox_all(x) > 0
        return fnp.where(positive, x, fnp.multiply(w, fnp.where(positive, 0.0, x)))
    return wrap(quiet().run(compute, engine(input), engine(weight)), "PreluKernelBackward0",
                (input, weight), saves_inputs=True)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """softmax(-input) along `dim`."""
    return _ops.softmax(-input, _ops.softmax_dim(input, dim, "softmin", _stacklevel), dtype)


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    return _ops.softmax(input, _ops.softmax_dim(input, dim, "softmax", _stacklevel), dtype)


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    """softmax((logits + Gumbel noise) / tau) along `dim`, the noise drawn as PyTorch draws
    it (-log of exponential draws); with `hard`, the one-hot of its largest entry, with the
    soft sample's gradient (straight through)."""
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", UserWarning,
                      stacklevel=2)
    # (drawn into a row-major tensor, PyTorch's legacy_contiguous_format: a transposed
    # input gets the draws of a contiguous one, not transposed draws)
    gumbels = -empty_like(logits, memory_format=contiguous_format).exponential_().log()
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = zeros_like(logits, memory_format=contiguous_format).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    return _ops.log_softmax(input, _ops.softmax_dim(input, dim, "log_softmax", _stacklevel),
                            dtype)


# ---- linear ------------------------------------------------------------------------------


def bilinear(input1, input2, weight, bias=None):
    """input1 @ weight[o] @ input2 for each output feature o, over the last dimension of
    both inputs (their other dimensions match), plus bias."""
    if input1.dim() != input2.dim():
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.dim()} and "
                           f"{input2.dim()}")
    for i in range(input1.dim() - 1):
        if input1.size(i) != input2.size(i):
            raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {i}: "
                               f"got {input1.size(i)} and {input2.size(i)}")
    for name, input, dim in (("input1", input1, 1), ("input2", input2, 2)):
        if input.size(-1) != weight.size(dim):
            raise RuntimeError(f"bilinear(): {name} size does not match weight size: got "
                               f"{input.size(-1)} but expected {weight.size(dim)}")
    if bias is not None and bias.size(0) != weight.size(0):
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got "
                           f"{bias.size(0)} but expected {weight.size(0)}")
    operands = {"input1": input1, "input2": input2, "weight": weight, "bias": bias}
    dtypes = {name: t.dtype for name, t in operands.items() if t is not None}
    if len(set(dtypes.values())) > 1:
        listed = ", ".join(f"{name}: {dtype.cpp_name}"
                           for name, dtype in dtypes.items())
        raise RuntimeError(f"All tensors must have the same dtype, got {listed}")
    refuse_complex_derivative("_trilinear", input1, input2, weight, bias)
    _ops.refuse_bool_product(input1, "bmm")
    out = quiet().run(fnp.einsum, "...i,oij,...j->...o", engine(input1), engine(weight),
                      engine(input2))
    out = wrap(out, "ViewBackward0", (input1, weight, input2))
    return out if bias is None else out + bias


# ---- vectors and classes -------------------------------------------------------------------


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """input divided by its p-norm along `dim` (at least eps)."""
    if out is not None:
        raise NotImplementedError("compat: out= is not supported; use the returned tensor")
    return input / input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)


def one_hot(tensor, num_classes=-1):
    """An int64 tensor of shape tensor.shape + (num_classes,): 1 at each index's class, 0
    elsewhere (num_classes=-1: one more than the largest index)."""
    if not isinstance(tensor, Tensor) or tensor.dtype is not _dtypes.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    indices = tensor._data
    if not indices.size:
        if num_classes <= 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
    elif indices.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    elif num_classes == -1:
        num_classes = int(indices.max()) + 1
    elif indices.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return make((indices[..., None] == np.arange(num_classes)).astype(np.int64))


# ---- normalisation -------------------------------------------------------------------------


# ---- losses --------------------------------------------------------------------------------


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """The (mean, summed or elementwise) squared difference of input and target; with
    `weight` (of input's shape), weighted, its mean divided by the weights' sum, as
    PyTorch composes it."""
    warn_of_broadcasting(input, target)
    reduction = reduction_of(size_average, reduce, reduction)
    check_broadcast(input, target)
    if weight is not None:
        return _weighted((input - target).pow(2), weight, input, reduction)
    dtype = result_type(input, target)
    _dtypes.require_floating("mse_cpu", dtype)
    out = quiet().run(_squared_errors, operand(input, dtype), operand(target, dtype),
                      reduction)
    return wrap(out, "MseLossBackward0", (input, target), saves_inputs=True)


def _squared_errors(x, y, reduction):
    return reduced(fnp.square(fnp.subtract(x, y)), reduction)


def _weighted(losses, weight, input, reduction):
    """`losses` times `weight`, which has input's shape, reduced as PyTorch's weighted
    regression losses are (their mean: the sum over the weights' sum)."""
    if weight.shape != input.shape:
        raise ValueError("Weights and input must have the same size.")
    losses = losses * weight
    if reduction == "mean":
        return losses.sum() / weight.sum()
    return losses if reduction == "none" else losses.sum()


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """The (mean, summed or elementwise) absolute difference of input and target, as
    PyTorch composes it (AbsBackward0, then MeanBackward0 or SumBackward0)."""
    warn_of_broadcasting(input, target)
    reduction = reduction_of(size_average, reduce, reduction)
    errors = _ops.abs(input - target)
    if weight is None:
        return reduced_tensor(errors, reduction)
    return _weighted(errors, weight, input, reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean",
                   beta=1.0):
    """0.5 * d**2 / beta where the absolute difference d is below beta, else d - 0.5 *
    beta; l1_loss when beta is 0."""
    warn_of_broadcasting(input, target)
    reduction = reduction_of(size_average, reduce, reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0.0:
        return l1_loss(input, target, reduction=reduction)
    return _piecewise_loss(input, target, reduction, "SmoothL1LossBackward0", "smooth_l1_cpu",
                           lambda d: fnp.true_divide(fnp.multiply(0.5, fnp.square(d)), beta),
                           lambda d: fnp.subtract(d, 0.5 * beta), beta)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """0.5 * d**2 where the absolute difference d is below delta, else delta * (d - 0.5 *
    delta)."""
    warn_of_broadcasting(input, target)
    reduction_of(None, None, reduction)  # (PyTorch's error for another name)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    if weight is not None and weight.shape != input.shape:
        raise ValueError("Weights and input must have the same size.")
    dtype = result_type(input, target)  # (computed in, and written into input's dtype)
    if not _dtypes.can_cast(dtype, input.dtype):
        raise RuntimeError(f"result type {dtype.scalar_name} can't be cast to the desired "
                           f"output type {input.dtype.scalar_name}")
    losses = _piecewise_loss(input, target, "none" if weight is not None else reduction,
                             "HuberLossBackward0", "huber_cpu",
                             lambda d: fnp.multiply(0.5, fnp.square(d)),
                             lambda d: fnp.multiply(delta, fnp.subtract(d, 0.5 * delta)),
                             delta, into=input.dtype)
    if weight is None:
        return losses
    losses = losses * weight
    return reduced_tensor(losses, reduction)


def _piecewise_loss(input, target, reduction, label, kernel, inner, outer, threshold,
                    into=None):
    """`inner`(d) where the absolute difference d of input and target is below
    `threshold`, else `outer`(d); reduced, and cast to dtype `into` if given. (PyTorch's
    `kernel` has floating loops only.)"""
    check_broadcast(input, target)
    dtype = result_type(input, target)
    _dtypes.require_floating(kernel, dtype)

    def losses(x, y):
        difference = fnp.absolute(fnp.subtract(x, y))
        # (NaN goes to `inner`, whose slope there is NaN, as PyTorch's gradient)
        below = ~(unbox_all(difference) >= threshold)
        # `inner` of the differences below only: its slope at an infinite difference,
        # times the zero its unselected branch gets, would make the gradient NaN
        inside = fnp.where(below, difference, 0.0)
        out = reduced(fnp.where(below, inner(inside), outer(difference)), reduction)
        return out if into is None or into is dtype else fnp.astype(out, into.numpy)
    out = quiet().run(losses, operand(input, dtype), operand(target, dtype))
    return wrap(out, label, (input, target), saves_inputs=True)  # (PyTorch saves both)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """target * (log(target) - input) for log-probabilities `input` (target given as
    log-probabilities too with log_target), composed as PyTorch composes it; 'batchmean'
    divides the sum by the batch size, 'mean' by the number of elements (with PyTorch's
    warning that this is not the KL divergence's mean)."""
    require_tensor(target, "kl_div", "target", 2)
    if size_average is not None or reduce is not None:
        reduction = reduction_of(size_average, reduce, reduction)
    elif reduction != "batchmean":
        if reduction == "mean":
            warnings.warn(_KL_MEAN, UserWarning, stacklevel=2)
        reduction_of(None, None, reduction)  # PyTorch's error for another name
    if not (input.dtype.is_floating_point or input.dtype.is_complex) or \
            not (target.dtype.is_floating_point or target.dtype.is_complex):
        raise RuntimeError("kl_div: Integral inputs not supported.")
    refuse_complex(fixed(RuntimeError, "kl_div: Complex inputs not supported."), input, target)
    if log_target:
        losses = target.exp() * (target - input)
    else:
        losses = target.xlogy(target) - target * input
    if reduction == "batchmean":
        return losses.sum() / input.shape[0] if input.dim() else losses.sum()
    return reduced_tensor(losses, reduction)


_KL_MEAN = ("reduction: 'mean' divides the total loss by both the batch size and the support "
            "size.'batchmean' divides only by the batch size, and aligns with the KL div math "
            "definition.'mean' will be changed to behave the same as 'batchmean' in the next "
            "major release.")


def _check_class_target(target):
    if target.dtype not in (_dtypes.int64, _dtypes.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got "
                           f"{target.dtype.scalar_name}")


def _check_class_shapes(shape, target_shape):
    """PyTorch's errors for a target that does not fit an input of `shape`."""
    if not shape:
        raise ValueError("Expected 1 or more dimensions (got 0)")
    batch = target_shape[0] if target_shape else 0  # as PyTorch counts a scalar's
    if len(shape) >= 2 and batch != shape[0]:
        raise ValueError(f"Expected input batch_size ({shape[0]}) to match target "
                         f"batch_size ({batch}).")
    if len(shape) <= 2 and len(target_shape) > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if len(shape) == 1 and target_shape not in ((), (1,)):
        raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: "
                         f"{target_shape[0]}")
    if len(shape) > 2 and target_shape[1:] != shape[2:]:
        raise RuntimeError(f"Expected target size {[shape[0], *shape[2:]]}, got "
                           f"{list(target_shape)}")


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
             reduction="mean"):
    """Minus input[n, target[n]] (times weight[target[n]]), for log-probabilities `input`
    of shape (C,), (N, C) or (N, C, d1, ...); the mean divides by the summed weights."""
    reduction = reduction_of(size_average, reduce, reduction)
    shape, targets = input._data.shape, target._data.astype(np.int64)
    _check_class_shapes(shape, targets.shape)
    _check_class_target(target)
    _dtypes.require_floating(
        "nll_loss2d_forward_out_frame" if len(shape) > 2 else "nll_loss_out_frame", input.dtype)
    if len(shape) == 1:  # one sample: a target of one element is its class
        targets = targets.reshape(())
    classes = shape[1] if len(shape) >= 2 else shape[0]
    ignored = targets == ignore_index
    bad = (targets < 0) | (targets >= classes)
    bad &= ~ignored
    if bad.any():
        raise IndexError(f"Target {targets[bad].flat[0]} is out of bounds.")
    chosen = np.where(ignored, 0, targets)
    if weight is not None and weight.shape != (classes,):
        raise RuntimeError(f"weight tensor should be defined either for all {classes} classes "
                           f"or no classes but got weight tensor of shape: "
                           f"{list(weight.shape)}")
    if weight is not None and weight.dtype is not input.dtype:  # (no promotion)
        raise RuntimeError(f"expected scalar type {input.dtype.scalar_name} but found "
                           f"{weight.dtype.scalar_name}")
    class_weights = (np.ones(classes, input._data.dtype) if weight is None
                     else weight._data.astype(input._data.dtype))
    weights = np.where(ignored, 0, class_weights[chosen]).astype(input._data.dtype)
    out = quiet().run(_picked_losses, float_operand(input), chosen, weights, ignored,
                      reduction)
    return wrap(out, _nll_label(len(shape), reduction), (input,))


def _picked_losses(log_probabilities, chosen, weights, ignored, reduction):
    """nll_loss's computation: minus each sample's log-probability of class `chosen`,
    times `weights`, reduced. The `ignored` samples are left out (0, and no gradient: not
    the NaN that 0 times the 1 / 0 of a mean over none would give)."""
    if fnp.ndim(log_probabilities) >= 2:
        log_probabilities = fnp.moveaxis(log_probabilities, 1, -1)
    picked = fnp.squeeze(fnp.take_along_axis(log_probabilities, chosen[..., None], axis=-1),
                         axis=-1)
    losses = fnp.negative(fnp.multiply(picked, weights))
    losses = fnp.where(ignored, np.zeros((), weights.dtype), losses)
    if reduction == "mean":
        return fnp.true_divide(fnp.sum(losses), weights.sum())
    return reduced(losses, reduction)


def _nll_label(ndim, reduction):
    """PyTorch's node: images go through its 2-d kernel, other spatial inputs are reshaped
    to images (and the unreduced losses reshaped back)."""
    if ndim <= 2:
        return "NllLossBackward0"
    return "ViewBackward0" if reduction == "none" and ndim != 4 else "NllLoss2DBackward0"


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100,
                  reduce=None, reduction="mean", label_smoothing=0.0):
    """nll_loss of log_softmax(input) over the class dimension for class-index targets; for
    class-probability targets (a float target shaped like input), minus the
    (weighted) sum of target * log_softmax(input) over classes. `label_smoothing` mixes
    the target with the uniform distribution over the classes."""
    reduction = reduction_of(size_average, reduce, reduction)
    class_dim = 0 if input.dim() == 1 else 1
    smoothing = label_smoothing if label_smoothing > 0 else 0.0
    if smoothing > 1:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: "
                           f"{label_smoothing:g}")
    if target.dtype.is_complex:  # (read as class probabilities, which must be real)
        raise RuntimeError(f"Expected floating point type for target with class "
                           f"probabilities, got {target.dtype.scalar_name}")
    log_probabilities = _ops.log_softmax(input, class_dim)
    classes = input.shape[class_dim]
    if not (target.dtype.is_floating_point and target.shape == input.shape):
        loss = nll_loss(log_probabilities, target, weight, None, ignore_index, None,
                        reduction)
        if not smoothing:
            return loss
        uniform = _uniform_target_loss(log_probabilities, target, weight, ignore_index,
                                       reduction, class_dim)
        return (1 - smoothing) * loss + uniform * (smoothing / classes)
    if ignore_index != -100:
        raise RuntimeError("ignore_index is not supported for floating point target")
    if smoothing:
        target = target * (1 - smoothing) + smoothing / classes
    return _soft_cross_entropy(log_probabilities, target, weight, reduction, class_dim)


def linear_cross_entropy(input, linear_weight, target, *, linear_bias=None, weight=None,
                         reduction="mean", ignore_index=None, label_smoothing=0.0,
                         options=None):
    """cross_entropy of linear(input, linear_weight, linear_bias): a weight (C, in_features)
    or (C, d_1, ..., d_K, in_features) gives logits (C) or (C, d_1, ..., d_K) per sample.
    PyTorch's reference path only: compat has no chunked one to choose with `options`."""
    if options is not None:
        raise NotImplementedError("compat: linear_cross_entropy computes without chunking; "
                                  "pass options=None")
    if not 1 <= input.dim() <= 2:
        raise RuntimeError(f"expected input with dimensionality 1 or 2, got {input.dim()}")
    if linear_weight.dim() < 2:
        raise RuntimeError(f"expected linear_weight with dimensionality at least 2, got "
                           f"{linear_weight.dim()}")
    batch, in_features = input.shape[:-1], input.shape[-1]
    if in_features != linear_weight.shape[-1]:
        raise RuntimeError(f"expected equal input and linear_weight last dimensions "
                           f"(in_features), got {in_features} and {linear_weight.shape[-1]}, "
                           f"respectively")
    logits_per_sample = tuple(linear_weight.shape[:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != logits_per_sample:
        raise RuntimeError(f"expected linear_bias shape {logits_per_sample}, got "
                           f"{tuple(linear_bias.shape)}")
    if len(logits_per_sample) > 1 and not batch:
        raise RuntimeError(f"K-dimensional loss defined by linear_weight shape "
                           f"{tuple(linear_weight.shape)} requires batched input, (N, "
                           f"{in_features}), got unbatched input with shape "
                           f"{tuple(input.shape)}")
    logits_shape = tuple(batch) + logits_per_sample
    if target.shape == logits_shape and ignore_index is not None:
        raise RuntimeError("ignore_index cannot be specified when target contains "
                           "probabilities")
    outputs = math.prod(logits_per_sample)
    flat_bias = None if linear_bias is None else linear_bias.reshape(outputs)
    logits = linear(input, linear_weight.reshape(outputs, in_features), flat_bias)
    return cross_entropy(logits.reshape(logits_shape), target, weight=weight,
                         ignore_index=-100 if ignore_index is None else ignore_index,
                         reduction=reduction, label_smoothing=label_smoothing)


def _uniform_target_loss(log_probabilities, target, weight, ignore_index, reduction,
                         class_dim):
    """The cross entropy against a uniform target, summed over classes (times the class
    weights) rather than averaged, reduced as nll_loss reduces: the part of a smoothed
    loss that label smoothing adds, computed as PyTorch's kernel does."""
    if weight is None:
        losses = -log_probabilities.sum(class_dim)
    else:
        shape = [1] * log_probabilities.dim()
        shape[class_dim] = weight.shape[0]
        losses = -(log_probabilities * weight.view(shape)).sum(class_dim)
    ignored = target == ignore_index
    losses = losses.masked_fill(ignored, 0.0)
    if reduction == "none":
        return losses
    if reduction == "sum":
        return losses.sum()
    if weight is None:
        return losses.sum() / (~ignored).sum()
    return losses.sum() / weight.gather(0, target.masked_select(~ignored).flatten()).sum()


@quieted
def _soft_cross_entropy(log_probabilities, target, weight, reduction, class_dim):
    """Minus the (weighted) sum over classes of target * log_probabilities, composed as
    PyTorch composes it (its dtypes promoted, the weight differentiable); the mean is over
    the samples and, for a K-dimensional loss, their positions."""
    products = log_probabilities * target
    if weight is not None:
        shape = [1] * log_probabilities.dim()
        shape[class_dim] = -1
        products = products * weight.view(shape)
    if reduction == "none":
        return -products.sum(class_dim)
    if reduction == "mean" and not log_probabilities.numel():
        return -products.sum().fill_(math.nan)  # (PyTorch's node: the negation's)
    total = -products.sum()
    if reduction == "sum":
        return total
    count = log_probabilities.numel() / log_probabilities.shape[class_dim]
    # (PyTorch's division by a number, DivBackward1, where Python's `/` records DivBackward0)
    return wrap(quiet().run(fnp.true_divide, engine(total), count), "DivBackward1", (total,))


def _check_same_size(input, target, message):
    if target.shape != input.shape:
        raise ValueError(message.format(target=target.shape, input=input.shape))


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
                         reduction="mean"):
    """-(target * log(input) + (1 - target) * log(1 - input)), each log clamped at -100 as
    in PyTorch, for probabilities `input`."""
    _check_same_size(input, target, "Using a target size ({target}) that is different to the "
                     "input size ({input}) is deprecated. Please ensure they have the same "
                     "size.")
    reduction = reduction_of(size_average, reduce, reduction)
    if target.dtype is not input.dtype:
        raise RuntimeError(f"Found dtype {target.dtype.scalar_name} but expected "
                           f"{input.dtype.scalar_name}")
    _dtypes.require_floating("binary_cross_entropy", input.dtype)
    for name, t in (("input", input), ("target", target)):
        values = t._data
        if ((values < 0) | (values > 1)).any() or np.isnan(values).any():
            raise RuntimeError(f"all elements of {name} should be between 0 and 1")
    _refuse_widening(input, weight)
    dtype = input.dtype
    out = quiet().run(_binary_cross_entropy, float_operand(input), operand(target, dtype),
                      None if weight is None else operand(weight, dtype), reduction)
    return wrap(out, "BinaryCrossEntropyBackward0", (input, target))


def _binary_cross_entropy(x, t, weight, reduction):
    log_x = fnp.maximum(fnp.log(x), -100.0)  # log(0) clamped to -100, as in PyTorch
    log_rest = fnp.maximum(fnp.log1p(fnp.negative(x)), -100.0)
    losses = fnp.subtract(fnp.multiply(fnp.subtract(t, 1.0), log_rest),
                          fnp.multiply(t, log_x))
    if weight is not None:
        losses = fnp.multiply(losses, weight)
    return reduced(losses, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None,
                                     reduce=None, reduction="mean", pos_weight=None):
    """binary_cross_entropy(sigmoid(input), target) computed stably from the logits:
    (1 - target) * input - log(sigmoid(input)), with positive examples weighted by
    pos_weight."""
    _check_same_size(input, target, "Target size ({target}) must be the same as input size "
                     "({input})")
    reduction = reduction_of(size_average, reduce, reduction)
    _dtypes.require_floating("log_sigmoid_cpu", input.dtype)
    if not (target.dtype.is_floating_point or target.dtype.is_complex):
        raise RuntimeError(f"result type {input.dtype.scalar_name} can't be cast to the "
                           f"desired output type {target.dtype.scalar_name}")
    _refuse_widening(input, weight, pos_weight)
    dtype = result_type(input, target)
    if pos_weight is not None:  # (PyTorch scales the real logits in place)
        refuse_complex_into(input.dtype, input, target)
    # The logits stay real where the target is complex: PyTorch's log-sigmoid is of them.
    logits = operand(input, input.dtype if dtype.is_complex else dtype)
    out = quiet().run(_logits_cross_entropy, logits, operand(target, dtype),
                      None if weight is None else operand(weight, dtype),
                      None if pos_weight is None else operand(pos_weight, dtype), reduction)
    return wrap(out, "BinaryCrossEntropyWithLogitsBackward0", (input, target),
                saves_inputs=True)


def _refuse_widening(input, *weights):
    """PyTorch's errors for weights that do not broadcast to input's shape, or broadcast
    it to a larger one (its kernels scale the losses in place)."""
    for weight in weights:
        if weight is not None:
            check_written_shape(tuple(input.shape), tuple(weight.shape))


def _logits_cross_entropy(x, t, weight, pos_weight, reduction):
    log_sigmoid = log_sigmoid_values(x)
    if pos_weight is not None:
        scale = fnp.add(fnp.multiply(fnp.subtract(pos_weight, 1.0), t), 1.0)
        log_sigmoid = fnp.multiply(log_sigmoid, scale)
    losses = fnp.subtract(fnp.multiply(fnp.subtract(1.0, t), x), log_sigmoid)
    if weight is not None:
        losses = fnp.multiply(losses, weight)
    return reduced(losses, reduction)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """interpolate, under its deprecated name."""
    _warn_of_upsample("upsample")
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    _warn_of_upsample("upsample_nearest")
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    _warn_of_upsample("upsample_bilinear")
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def _with_indices(pool):
    """`pool` with return_indices=True: PyTorch's F.<pool>_with_indices."""
    def pooled(*args, **kwargs):
        return pool(*args, **kwargs, return_indices=True)
    pooled.__name__ = pooled.__qualname__ = f"{pool.__name__}_with_indices"
    return pooled


max_pool1d_with_indices = _with_indices(max_pool1d)
max_pool2d_with_indices = _with_indices(max_pool2d)
max_pool3d_with_indices = _with_indices(max_pool3d)
adaptive_max_pool1d_with_indices = _with_indices(adaptive_max_pool1d)
adaptive_max_pool2d_with_indices = _with_indices(adaptive_max_pool2d)
adaptive_max_pool3d_with_indices = _with_indices(adaptive_max_pool3d)


def _warn_of_upsample(name):
    warnings.warn(f"`nn.functional.{name}` is deprecated. Use `nn.functional.interpolate` "
                  f"instead.", UserWarning, stacklevel=3)


__all__ = [
    "relu", "leaky_relu", "elu", "silu", "gelu", "softplus", "tanh", "sigmoid", "softmax",
    "log_softmax", "logsigmoid", "hardtanh", "hardtanh_", "relu6", "selu", "mish",
    "hardswish", "hardsigmoid", "tanhshrink", "softsign", "prelu", "softmin", "linear",
    "conv1d", "conv2d", "max_pool2d", "avg_pool2d", "adaptive_avg_pool2d", "normalize",
    "one_hot", "batch_norm", "layer_norm", "dropout", "embedding", "mse_loss", "l1_loss",
    "smooth_l1_loss", "huber_loss", "nll_loss", "cross_entropy", "binary_cross_entropy",
    "binary_cross_entropy_with_logits", "kl_div",
    "pad", "conv_transpose1d", "conv_transpose2d", "max_pool1d", "avg_pool1d",
    "adaptive_avg_pool1d", "adaptive_max_pool1d", "adaptive_max_pool2d", "dropout1d",
    "dropout2d", "group_norm", "interpolate", "celu", "celu_", "glu", "hardshrink",
    "softshrink", "threshold", "threshold_", "relu_", "elu_", "leaky_relu_", "selu_",
    "cosine_similarity", "pairwise_distance", "poisson_nll_loss", "gaussian_nll_loss",
    "margin_ranking_loss", "hinge_embedding_loss", "soft_margin_loss",
    "multilabel_soft_margin_loss", "cosine_embedding_loss", "triplet_margin_loss",
    "multi_margin_loss", "rms_norm", "instance_norm", "local_response_norm",
    "scaled_dot_product_attention", "multi_head_attention_forward", "bilinear",
    "pixel_shuffle", "pixel_unshuffle", "unfold", "fold",
    "conv3d", "conv_transpose3d", "max_pool3d", "avg_pool3d", "adaptive_avg_pool3d",
    "adaptive_max_pool3d", "dropout3d", "lp_pool1d", "lp_pool2d", "lp_pool3d",
    "channel_shuffle", "upsample", "upsample_nearest", "upsample_bilinear",
    "triplet_margin_with_distance_loss", "max_pool1d_with_indices", "max_pool2d_with_indices",
    "max_pool3d_with_indices", "adaptive_max_pool1d_with_indices",
    "adaptive_max_pool2d_with_indices", "adaptive_max_pool3d_with_indices", "max_unpool1d",
    "max_unpool2d", "max_unpool3d", "embedding_bag", "pdist", "multilabel_margin_loss",
    "gumbel_softmax", "alpha_dropout", "feature_alpha_dropout", "ctc_loss",
    "affine_grid", "grid_sample", "rrelu", "rrelu_",
    "fractional_max_pool2d", "fractional_max_pool3d", "fractional_max_pool2d_with_indices",
    "fractional_max_pool3d_with_indices", "linear_cross_entropy",
]
