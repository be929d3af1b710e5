"""The margin and embedding losses of nn.functional: ranking pairs, hinge and soft-margin
classification, cosine and triplet embeddings.

Most are composed of tensor operations in the order PyTorch composes them, so their
values, gradients and grad_fn names follow from those operations'; soft_margin_loss and
multi_margin_loss are fused kernels in PyTorch, computed here with funcgrad and recorded as
one node under PyTorch's name.
"""
import numpy as np

import funcgrad.numpy as fnp
from funcgrad.core import unbox_all

from .. import _dtypes, _ops
from .._factories import full, zeros_like
from .._complex_refusals import refuse_complex_derivative, refuse_complex_into
from .._grad_mode import STATE
from .._quiet import quiet
from .._record import engine, operand, result_type, wrap
from .._tensor import Tensor
from ._distances import pairwise_distance
from ._activation import log_sigmoid_values, logsigmoid
from ._reduction import check_broadcast, reduced, reduced_tensor, reduction_of


def _number_minus(number, t):
    """number - t as PyTorch's C++ writes it (a 0-d tensor of t's dtype: SubBackward0)."""
    return full((), number, dtype=t.dtype) - t


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None,
                        reduction="mean"):
    """max(0, -target * (input1 - input2) + margin): input1 should rank above input2 where
    target is 1, below where it is -1."""
    reduction = reduction_of(size_average, reduce, reduction)
    if not input1.dim() == input2.dim() == target.dim():
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same "
                           f"dimension but got sizes: input1: {input1.size()}, input2: "
                           f"{input2.size()}, target: {target.size()} ")
    # (PyTorch's C++ subtracts first, and adds the margin as a double: integer inputs give
    # the default float dtype)
    difference = input1 - input2
    losses = ((-target) * difference + float(margin)).clamp_min(0)
    return reduced_tensor(losses, reduction)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None,
                         reduction="mean"):
    """input where target is 1, max(0, margin - input) where it is -1."""
    reduction = reduction_of(size_average, reduce, reduction)
    zeros = zeros_like(input)
    below_margin = _number_minus(margin, input).clamp_min(0)
    losses = (_ops.where(target != 1, below_margin, zeros)
              + _ops.where(target != -1, input, zeros))
    return reduced_tensor(losses, reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """log(1 + exp(-target * input)), the logistic loss of labels -1 and 1."""
    reduction = reduction_of(size_average, reduce, reduction)
    check_broadcast(input, target)
    refuse_complex_into(input.dtype, input, target)
    _refuse_integer_soft_margin(input, target)
    refuse_complex_derivative("soft_margin_loss", input, target)
    _refuse_differentiating("soft_margin_loss", "target", target)
    dtype = result_type(input, target)

    def compute(x, t):
        return reduced(_logistic_losses(fnp.multiply(t, x)), reduction)
    out = quiet().run(compute, operand(input, dtype), operand(target, dtype))
    return wrap(out, "SoftMarginLossBackward0", (input, target), saves_inputs=True)


def _refuse_integer_soft_margin(input, target):
    """PyTorch's errors for an integer or bool input, which its kernel negates, multiplies
    by target and exponentiates in place in the input's dtype."""
    if input.dtype.is_floating_point or input.dtype.is_complex:
        return
    if input.dtype is _dtypes.bool:
        _ops.neg(input)  # (PyTorch's refusal to negate a bool tensor)
    into = target.dtype if target.dtype.is_floating_point else _dtypes.get_default_dtype()
    raise RuntimeError(f"result type {into.scalar_name} can't be cast to the desired output "
                       f"type {input.dtype.scalar_name}")


def _refuse_differentiating(function, argument, tensor):
    """PyTorch's refusal of a `tensor` that requires grad (with grad mode on) as the
    `argument` of `function`, which has no derivative in it."""
    if tensor.requires_grad and STATE.enabled:
        raise RuntimeError(f"The function '{function}' is not differentiable with respect "
                           f"to argument '{argument}'. This input cannot have requires_grad "
                           f"True.")


def _logistic_losses(margins):
    """log(1 + exp(-margins)): as -log(sigmoid), which never overflows, for real margins;
    for complex ones as PyTorch's kernel writes it (log_sigmoid_values' branches compare
    the values, which orders complex numbers lexicographically)."""
    if np.iscomplexobj(unbox_all(margins)):
        return fnp.log1p(fnp.exp(fnp.negative(margins)))
    return fnp.negative(log_sigmoid_values(margins))


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None,
                                reduction="mean"):
    """The mean over classes of each class's logistic loss (targets 0 or 1)."""
    if size_average is not None or reduce is not None:
        reduction = reduction_of(size_average, reduce, reduction)
    losses = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        losses = losses * weight
    class_dim = input.dim() - 1
    losses = losses.sum(dim=class_dim) / input.size(class_dim)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    return reduced_tensor(losses, reduction)


_EPSILON = 1e-12  # keeps the cosine of a zero vector finite


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None,
                          reduction="mean"):
    """1 - cos(input1, input2) where target is 1, max(0, cos - margin) where it is -1."""
    reduction = reduction_of(size_average, reduce, reduction)
    dim = target.dim()
    if dim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if input1.dim() != dim + 1:
        raise RuntimeError(f"{dim}D target tensor expects {dim + 1}D input tensors, but found "
                           f"inputs with sizes {list(input1.shape)} and {list(input2.shape)}.")
    products = (input1 * input2).sum(dim)
    squares1 = (input1 * input1).sum(dim) + _EPSILON
    squares2 = (input2 * input2).sum(dim) + _EPSILON
    cosine = products / (squares1 * squares2).sqrt_()
    zeros = zeros_like(cosine)
    similar = _ops.where(target == 1, _number_minus(1, cosine), zeros)
    dissimilar = _ops.where(target == -1, (cosine - margin).clamp_min_(0), zeros)
    return reduced_tensor(similar + dissimilar, reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False,
                        size_average=None, reduce=None, reduction="mean"):
    """max(0, margin + d(anchor, positive) - d(anchor, negative)), d the p-norm distance;
    with swap, d(positive, negative) replaces the second distance where it is smaller."""
    reduction = reduction_of(size_average, reduce, reduction)
    return _triplet_loss(anchor, positive, negative, lambda x, y: pairwise_distance(x, y, p, eps),
                         margin, swap, reduction)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None,
                                      margin=1.0, swap=False, reduction="mean"):
    """triplet_margin_loss with any distance (pairwise_distance if None)."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return _triplet_loss(anchor, positive, negative, distance_function or pairwise_distance,
                         margin, swap, reduction)


def _triplet_loss(anchor, positive, negative, distance, margin, swap, reduction):
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    dims = anchor.dim(), positive.dim(), negative.dim()
    if len(set(dims)) != 1:
        raise RuntimeError("The anchor, positive, and negative tensors are expected to have "
                           "the same number of dimensions, but got: anchor {}D, positive {}D, "
                           "and negative {}D inputs".format(*dims))
    to_positive = distance(anchor, positive)
    to_negative = distance(anchor, negative)
    if swap:
        to_negative = _ops.minimum(to_negative, distance(positive, negative))
    return reduced_tensor((margin + to_positive - to_negative).clamp_min(0), reduction)


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None,
                      reduce=None, reduction="mean"):
    """For each sample, the mean over the other classes j of max(0, margin - x[y] + x[j])
    to the power p (times the weight of class y): the multi-class hinge loss."""
    reduction = reduction_of(size_average, reduce, reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    rows, classes = _check_multi_margin_shapes(input, target, weight)
    labels = target._data.reshape(rows)
    if not input.dtype.is_floating_point or input.dtype is _dtypes.float16:
        raise _dtypes.not_implemented_for("multi_margin_loss_cpu_kernel", input.dtype)

    def compute(x, w):
        scores = fnp.reshape(x, (rows, classes))
        picked = fnp.take_along_axis(scores, labels[:, None], axis=1)
        hinge = fnp.maximum(fnp.add(fnp.subtract(scores, picked), margin), 0.0)
        if p == 2:
            hinge = fnp.square(hinge)
        if w is not None:
            hinge = fnp.multiply(hinge, fnp.take(w, labels)[:, None])
        others = np.arange(classes) != labels[:, None]  # the true class adds nothing
        losses = fnp.true_divide(fnp.sum(fnp.where(others, hinge, 0.0), axis=1), classes)
        return reduced(fnp.reshape(losses, target.shape), reduction)
    if weight is not None:
        _refuse_differentiating("multi_margin_loss", "weight", weight)
    out = quiet().run(compute, engine(input), None if weight is None else weight._data)
    return wrap(out, "MultiMarginLossBackward0", (input,), saves_inputs=True)


def _check_matrix_of_classes(input):
    """PyTorch's refusal of what is not a vector or a matrix of classes: a batch of no
    samples is one ("optional 0-dim batch size"), no classes is not."""
    if not (input.dim() == 0 or input.dim() <= 2 and input.shape[-1]):
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch "
                           f"size, but got: {list(input.shape)}")


def _check_multi_margin_shapes(input, target, weight):
    """(samples, classes) of multi_margin_loss's input, after PyTorch's checks."""
    _check_matrix_of_classes(input)
    rows = input.shape[0] if input.dim() == 2 else 1
    classes = input.shape[-1] if input.dim() else 1
    if not (target.dim() <= 1 and target.numel() == rows):
        raise RuntimeError(f"multi_margin_loss: target tensor should be 1-D with size equal "
                           f"to the number of input samples (batch size). Expected target "
                           f"size [{rows}], but got {list(target.shape)}. Input has shape "
                           f"{list(input.shape)}.")
    if not isinstance(target, Tensor) or target.dtype is not _dtypes.int64:
        raise RuntimeError(f"expected scalar type Long but found {target.dtype.scalar_name}")
    if weight is not None and weight.numel() != classes:
        raise RuntimeError(f"inconsistent weight size, expected {classes} but got "
                           f"{list(weight.shape)}")
    labels = target._data
    if labels.size and (labels.min() < 0 or labels.max() >= classes):
        raise RuntimeError("target out of range")
    return rows, classes


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """For each sample, the sum over its target classes j (target's entries up to the
    first -1) and the other classes i of max(0, 1 - (x[j] - x[i])), over the classes."""
    reduction = reduction_of(size_average, reduce, reduction)
    _check_matrix_of_classes(input)
    if target.shape != input.shape:
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: "
                           f"{list(input.shape)}")
    if target.dtype is not _dtypes.int64:
        raise RuntimeError(f"expected scalar type Long but found {target.dtype.scalar_name}")
    classes = input.shape[-1] if input.dim() else 1
    labels = target._data.reshape(-1, classes)
    if labels.size and (labels.min() < -1 or labels.max() >= classes):
        raise RuntimeError("argument #2 'target' is out of range")
    # A row's targets are its entries before the first -1.
    listed = np.cumprod(labels != -1, axis=1).astype(bool)  # (N, J)
    chosen = np.where(listed, labels, 0)
    is_target = np.zeros(labels.shape, bool)
    rows, places = np.nonzero(listed)
    is_target[rows, labels[rows, places]] = True
    pairs = listed[:, :, None] & ~is_target[:, None, :]  # (N, J, I): target j, other class i

    def compute(x):
        scores = fnp.reshape(x, labels.shape)
        targets = fnp.take_along_axis(scores, chosen, axis=1)  # (N, J)
        hinges = fnp.maximum(fnp.add(fnp.subtract(scores[:, None, :], targets[:, :, None]),
                                     1.0), 0.0)
        losses = fnp.true_divide(fnp.sum(fnp.where(pairs, hinges, 0.0), axis=(1, 2)), classes)
        return reduced(fnp.reshape(losses, target.shape[:-1]), reduction)
    if not input.dtype.is_floating_point:
        raise _dtypes.not_implemented_for("multilabel_margin_loss_forward_out_frame",
                                          input.dtype)
    out = quiet().run(compute, engine(input))
    return wrap(out, "MultilabelMarginLossBackward0", (input,), others=(target,))
