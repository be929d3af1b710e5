"""The losses' common plumbing: the reduction (with PyTorch's legacy size_average and reduce
flags), and PyTorch's broadcasting error and warning for a target of another shape."""
import warnings

import funcgrad.numpy as fnp

from .._record import broadcast_error


def reduction_of(size_average, reduce, reduction):
    """The reduction, from the legacy size_average/reduce flags if either is given."""
    if size_average is None and reduce is None:
        if reduction not in ("none", "mean", "sum"):
            raise ValueError(f"{reduction} is not a valid value for reduction")
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    reduction = "none" if not reduce else "mean" if size_average else "sum"
    warnings.warn(f"size_average and reduce args will be deprecated, please use "
                  f"reduction='{reduction}' instead.", UserWarning, stacklevel=3)
    return reduction


def reduced(losses, reduction):
    if reduction == "mean":
        return fnp.mean(losses)
    if reduction == "sum":
        return fnp.sum(losses)
    return losses


def reduced_tensor(losses, reduction):
    """A tensor of losses reduced as `reduction` says, with the tensor's own mean or sum
    (MeanBackward0, SumBackward0), as PyTorch's composed losses reduce."""
    return losses if reduction == "none" else getattr(losses, reduction)()


def check_broadcast(input, target):
    clash = broadcast_error(input._data.shape, target._data.shape)
    if clash:
        raise RuntimeError(clash)


def warn_of_broadcasting(input, target):
    """The warning of the regression losses (at their caller) for a target of another
    shape."""
    if target.shape != input.shape:
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input "
                      f"size ({input.shape}). This will likely lead to incorrect results due "
                      f"to broadcasting. Please ensure they have the same size.", UserWarning,
                      stacklevel=3)
