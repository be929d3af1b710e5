"""Conversions between probabilities and logits, and the binary cross-entropy on logits,
as PyTorch's distributions compute them."""
from .._info import finfo
from .._ops import exp, log, softmax


def clamp_probs(probs):
    """`probs` within [eps, 1 - eps], so that their logits are finite."""
    eps = finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary=False):
    clamped = clamp_probs(probs)
    return log(clamped) - (-clamped).log1p() if is_binary else log(clamped)


def logits_to_probs(logits, is_binary=False):
    return logits.sigmoid() if is_binary else softmax(logits, -1)


def binary_cross_entropy_with_logits(logits, target):
    """-(target log sigmoid(logits) + (1 - target) log(1 - sigmoid(logits))), elementwise,
    without overflow for large |logits|."""
    shift = (-logits).clamp(min=0)
    return (1 - target) * logits + shift + log(exp(-shift) + exp(-logits - shift))
