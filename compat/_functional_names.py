"""torch's top-level spellings of nn.functional's operations (torch.conv2d, torch.dropout,
torch.layer_norm, ...) with the signatures of PyTorch's native functions, which differ
from nn.functional's (``torch.dropout(input, p, train)`` takes `train` by position, the
losses take `reduction` as an int: 0 'none', 1 'mean', 2 'sum'); and ``torch.f_(x, ...)``,
the in-place methods ``x.f_(...)`` that PyTorch also spells as functions."""
from .nn import _dropout
from .nn import functional as F
from ._tensor import Tensor

_REDUCTIONS = ("none", "mean", "sum")

# Spelt as in nn.functional.
SAME = ("conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
        "conv_transpose3d", "bilinear", "pdist", "pairwise_distance", "pixel_shuffle",
        "pixel_unshuffle", "channel_shuffle", "prelu", "hardshrink", "selu_", "celu_",
        "rrelu_", "threshold_", "avg_pool1d", "adaptive_avg_pool1d", "rms_norm")

# The ones PyTorch also has as Tensor methods.
METHODS = ("prelu", "hardshrink")

# The in-place methods PyTorch also has as torch functions.
IN_PLACE = ("abs_", "acos_", "acosh_", "addmv_", "arccos_", "arccosh_", "arcsin_",
            "arcsinh_", "arctan_", "arctanh_", "as_strided_", "asin_", "asinh_", "atan_",
            "atanh_", "ceil_", "clamp_", "clamp_max_", "clamp_min_", "clip_",
            "conj_physical_", "cos_", "cosh_", "deg2rad_", "detach_", "erf_", "erfc_",
            "exp2_", "exp_", "expm1_", "fix_", "floor_", "frac_", "gcd_", "i0_",
            "index_put_", "lcm_", "ldexp_", "log10_", "log1p_", "log2_", "log_", "logit_",
            "nan_to_num_", "neg_", "negative_", "rad2deg_", "reciprocal_", "relu_",
            "resize_as_", "round_", "rsqrt_", "sigmoid_", "sin_", "sinc_", "sinh_", "sqrt_",
            "square_", "tan_", "tanh_", "trunc_", "xlogy_")


def _probability(p):
    if not 0 <= p <= 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")
    return p


def _dropout_pair(dropout):
    """torch's `name(input, p, train)` and `name_(input, p, train)` for nn.functional's
    `dropout(input, p, training, inplace)`; a p out of range is a RuntimeError here."""
    def out_of_place(input, p, train):
        return dropout(input, _probability(p), train, False)

    def in_place(input, p, train):
        return dropout(input, _probability(p), train, True)
    return out_of_place, in_place


dropout, dropout_ = _dropout_pair(F.dropout)
alpha_dropout, alpha_dropout_ = _dropout_pair(F.alpha_dropout)
feature_alpha_dropout, feature_alpha_dropout_ = _dropout_pair(F.feature_alpha_dropout)
feature_dropout, feature_dropout_ = _dropout_pair(_dropout.feature_dropout)


def selu(input):
    return F.selu(input)


def celu(input, alpha=1.0):
    return F.celu(input, alpha)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    return F.rrelu(input, lower, upper, training, generator=generator)


def threshold(input, threshold, value):
    return F.threshold(input, threshold, value)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True):
    return F.layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    return F.group_norm(input, num_groups, weight, bias, eps)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps,
               cudnn_enabled):
    return F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum,
                        eps)


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum,
                  eps, cudnn_enabled):
    return F.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats,
                           momentum, eps)


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    """nn.functional.embedding with its arguments swapped; a padding_idx of -1 is none."""
    return F.embedding(indices, weight, None if padding_idx == -1 else padding_idx,
                       scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


def kl_div(input, target, reduction=0, *, log_target=False):
    return F.kl_div(input, target, reduction=_REDUCTIONS[reduction], log_target=log_target)


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=0):
    return F.margin_ranking_loss(input1, input2, target, margin,
                                 reduction=_REDUCTIONS[reduction])


def hinge_embedding_loss(input, target, margin=1.0, reduction=0):
    return F.hinge_embedding_loss(input, target, margin, reduction=_REDUCTIONS[reduction])


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=0):
    return F.cosine_embedding_loss(input1, input2, target, margin,
                                   reduction=_REDUCTIONS[reduction])


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2.0, eps=1e-06, swap=False,
                        reduction=0):
    return F.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                                 reduction=_REDUCTIONS[reduction])


def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    return F.poisson_nll_loss(input, target, log_input, full, eps=eps,
                              reduction=_REDUCTIONS[reduction])


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=0,
             zero_infinity=False):
    return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank,
                      _REDUCTIONS[reduction], zero_infinity)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None,
                                     reduction=0):
    return F.binary_cross_entropy_with_logits(input, target, weight,
                                              reduction=_REDUCTIONS[reduction],
                                              pos_weight=pos_weight)


def _max_pool(pool):
    def max_pool(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
        return pool(input, kernel_size, stride or None, padding, dilation, ceil_mode)
    max_pool.__name__ = pool.__name__
    return max_pool


max_pool1d = _max_pool(F.max_pool1d)
max_pool2d = _max_pool(F.max_pool2d)
max_pool3d = _max_pool(F.max_pool3d)


def adaptive_max_pool1d(input, output_size):
    """(values, indices), as PyTorch's native function returns both."""
    return F.adaptive_max_pool1d(input, output_size, return_indices=True)


def constant_pad_nd(input, pad, value=0):
    return F.pad(input, pad, "constant", value)


def install_tensor_methods():
    for name in METHODS:
        setattr(Tensor, name, getattr(F, name))


def functions():
    """The torch functions this module provides, by name."""
    found = {name: getattr(F, name) for name in SAME}
    found.update({name: getattr(Tensor, name) for name in IN_PLACE})
    found.update({name: value for name, value in globals().items()
                  if callable(value) and value.__module__ == __name__
                  and not name.startswith("_")
                  and name not in ("functions", "install_tensor_methods")})
    return found
