"""The negative log-likelihood losses of count and real-valued targets: Poisson and
Gaussian, composed as PyTorch composes them."""
import math

from .. import _ops
from .._factories import ones_like
from .._grad_mode import no_grad
from ._reduction import reduced_tensor, reduction_of


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8,
                     reduce=None, reduction="mean"):
    """The negative log-likelihood of `target` under a Poisson distribution of rate
    exp(input) (log_input) or input, dropping the constant log(target!) unless `full` (then
    Stirling's approximation of it where target > 1)."""
    if size_average is not None or reduce is not None:
        reduction = reduction_of(size_average, reduce, reduction)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not a valid value for reduction")
    if log_input:
        losses = _ops.exp(input) - target * input
    else:
        losses = input - target * _ops.log(input + eps)
    if full:
        stirling = (target * _ops.log(target) - target
                    + 0.5 * _ops.log(2 * math.pi * target))
        losses += stirling.masked_fill(target <= 1, 0)
    return reduced_tensor(losses, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """The negative log-likelihood of `target` under a normal distribution of mean `input`
    and variance `var` (one per element, or one per sample broadcast over the last
    dimension), without the constant unless `full`; var is clamped to at least eps."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * ones_like(input)
    elif _ops.any(var < 0):
        raise ValueError("var has negative entry/entries")
    if var.size() != input.size():
        if input.size()[:-1] == var.size():  # one variance per sample
            var = var.unsqueeze(-1)
        elif not (input.dim() == var.dim() and sum(
                b for a, b in zip(input.size(), var.size()) if a != b) == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with no_grad():  # the clamp is for stability and is not differentiated through
        var.clamp_(min=eps)
    losses = 0.5 * (_ops.log(var) + (input - target) ** 2 / var)
    if full:
        losses += 0.5 * math.log(2 * math.pi)
    return reduced_tensor(losses, reduction)
