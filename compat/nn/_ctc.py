"""The connectionist temporal classification loss (ctc_loss), as PyTorch's CPU kernel
computes it.

The loss is minus the log of the summed probability of every alignment of a target with
its input, computed by the forward (alpha) recursion over time in log space. Its gradient
is written here rather than composed: PyTorch's is not the derivative of its loss with
respect to `log_probs` but exp(log_probs) minus the alignments' posterior occupation of each
class (the derivative with respect to the logits that log_softmax made `log_probs` from), so
a composed derivative would differ from PyTorch's by exp(log_probs).
"""
import collections
import functools

import numpy as np

from funcgrad import custom_vjp

from .. import _dtypes, _ops
from .._factories import tensor, zeros
from .._quiet import quiet
from .._record import engine, wrap
from .._tensor import Tensor
from ._reduction import reduction_of

# One batch's alignment problem: for each sample, the extended target (blanks around and
# between its labels: `primes`, (N, 2 * S + 1)), where an alignment may skip a blank
# (`skips`), and its lengths.
_Problem = collections.namedtuple(
    "_Problem", "primes skips input_lengths target_lengths zero_infinity")


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean",
             zero_infinity=False):
    """The CTC loss of log-probabilities `log_probs` (T, N, C), or (T, C) for one sample,
    for `targets` padded (N, S) or concatenated (sum of target_lengths); 'mean' divides
    each sample's loss by its target length before averaging over the batch."""
    reduction = reduction_of(None, None, reduction)
    input_lengths, target_lengths = _lengths(input_lengths, target_lengths)
    if not log_probs.numel():
        raise RuntimeError("log_probs tensor must not be empty")
    if log_probs.dtype not in (_dtypes.float32, _dtypes.float64):
        raise _dtypes.not_implemented_for("ctc_loss_cpu", log_probs.dtype)
    batched = log_probs.dim() == 3
    if not batched:
        log_probs = log_probs.unsqueeze(1)
    problem = _problem(log_probs.shape, targets, input_lengths, target_lengths, blank,
                       zero_infinity)
    losses = wrap(quiet().run(_negative_log_likelihood, engine(log_probs), problem),
                  "CtcLossBackward0", (log_probs,), others=(targets,))
    if zero_infinity:
        losses = _ops.where(losses == float("inf"), zeros((), dtype=losses.dtype), losses)
    if reduction == "mean":
        lengths = tensor(target_lengths, dtype=losses.dtype).clamp_min(1)
        return (losses / lengths).mean()
    if reduction == "sum":
        return losses.sum()
    return losses if batched else losses.squeeze(0)


def _lengths(input_lengths, target_lengths):
    """The lengths as lists of ints: both tensors (of an integer dtype) or both sequences,
    as PyTorch's two signatures take them."""
    given = (input_lengths, target_lengths)
    if all(isinstance(lengths, Tensor) for lengths in given):
        for name, lengths in zip(("input_lengths", "target_lengths"), given):
            if lengths.dtype.is_floating_point or lengths.dtype.is_complex or \
                    lengths.dtype is _dtypes.bool:
                raise RuntimeError(f"{name} must be integral")
        return [lengths._data.reshape(-1).astype(np.int64).tolist() for lengths in given]
    if any(isinstance(lengths, Tensor) or not isinstance(lengths, (tuple, list))
           for lengths in given):
        raise TypeError("ctc_loss(): input_lengths and target_lengths must be both tensors "
                        "or both tuples of ints")
    return [[int(length) for length in lengths] for lengths in given]


def _problem(shape, targets, input_lengths, target_lengths, blank, zero_infinity):
    """The batch's checked `_Problem`, with PyTorch's errors, in its order."""
    where = "(while checking arguments for ctc_loss_allocate_outputs)"
    steps, batch, classes = shape
    if not 0 <= blank < classes:
        raise RuntimeError("blank must be in label range")
    for name, lengths in (("input_lengths", input_lengths),
                          ("target_lengths", target_lengths)):
        if len(lengths) != batch:
            raise RuntimeError(f"{name} must be of size batch_size")
    if targets.dim() not in (1, 2):
        raise RuntimeError(f"Expected 1 to 2 dimensions, but got {targets.dim()}-dimensional "
                           f"tensor for argument #2 'targets' {where}")
    for length in target_lengths:
        if length < 0:
            raise RuntimeError(f"Expected target_lengths to have value at least 0, but got "
                               f"value {length} {where}")
    values = targets._data.astype(np.int64)
    if targets.dim() == 1:  # concatenated: each sample's labels follow the last one's
        ends = np.cumsum(target_lengths)
        if len(values) != (ends[-1] if batch else 0):
            raise RuntimeError(f"Expected tensor to have size {ends[-1]} at dimension 0, but "
                               f"got size {len(values)} for argument #2 'targets' {where}")
        labels = [values[end - length:end] for end, length in zip(ends, target_lengths)]
    else:
        if values.shape[0] != batch:
            raise RuntimeError(f"Expected tensor to have size {batch} at dimension 0, but got "
                               f"size {values.shape[0]} for argument #2 'targets' {where}")
        longest = max(target_lengths, default=0)
        if values.shape[1] < longest:
            raise RuntimeError(f"Expected tensor to have size at least {longest} at dimension "
                               f"1, but got size {values.shape[1]} for argument #2 'targets' "
                               f"{where}")
        labels = [row[:length] for row, length in zip(values, target_lengths)]
    for length in input_lengths:
        if length < 0:
            raise RuntimeError(f"Expected input_lengths to have value at least 0, but got "
                               f"value {length} {where}")
        if length > steps:
            raise RuntimeError(f"Expected input_lengths to have value at most {steps}, but got "
                               f"value {length} {where}")
    # PyTorch's kernel reads whatever lies at a label beyond the classes; compat refuses it.
    for sample in labels:
        outside = (sample < 0) | (sample >= classes)
        if outside.any():
            raise IndexError(f"ctc_loss: target {sample[outside][0]} is out of bounds for "
                             f"{classes} classes")
    width = 2 * max(target_lengths, default=0) + 1
    primes = np.full((batch, width), blank, np.int64)
    for row, sample in zip(primes, labels):
        row[1:2 * len(sample):2] = sample
    skips = np.zeros((batch, width), bool)
    skips[:, 2:] = primes[:, 2:] != primes[:, :-2]  # (blanks never differ from blanks)
    return _Problem(primes, skips, np.asarray(input_lengths, np.int64),
                    np.asarray(target_lengths, np.int64), zero_infinity)


def _log_add(*terms):
    """log(sum(exp(terms))), shifted by the largest term (0 where all are -inf), added in
    PyTorch's kernel's order."""
    largest = terms[0]
    for term in terms[1:]:
        largest = np.maximum(largest, term)
    largest = np.where(largest == -np.inf, 0, largest).astype(largest.dtype)
    total = np.exp(terms[0] - largest)
    for term in terms[1:]:
        total = total + np.exp(term - largest)
    return np.log(total) + largest


def _shifted(values, by, mask=None):
    """values[..., s - by] at s (-inf where there is none, or where `mask` is False);
    a negative `by` reads ahead."""
    out = np.full_like(values, -np.inf)
    if by > 0:
        out[..., by:] = values[..., :-by]
    else:
        out[..., :by] = values[..., -by:]
    return out if mask is None else np.where(mask, out, -np.inf).astype(values.dtype)


def _emissions(log_probs, problem):
    """log_probs[t, n, primes[n, s]]: (T, N, 2 * S + 1)."""
    return np.take_along_axis(log_probs, problem.primes[None], axis=2)


def _valid(problem):
    """Where s indexes the extended target of each sample (s <= 2 * its length)."""
    return np.arange(problem.primes.shape[1]) <= 2 * problem.target_lengths[:, None]


def _log_alpha(log_probs, problem):
    """The forward variables: the log-probability of the alignments of each prefix of
    the extended target with the first t + 1 steps."""
    emitted, valid = _emissions(log_probs, problem), _valid(problem)
    alpha = np.full(emitted.shape, -np.inf, log_probs.dtype)
    alpha[0, :, :2] = emitted[0, :, :2]
    alpha[0, problem.target_lengths == 0, 1:] = -np.inf
    for t in range(1, len(alpha)):
        previous = alpha[t - 1]
        summed = _log_add(previous, _shifted(previous, 1),
                          _shifted(previous, 2, problem.skips))
        alpha[t] = np.where(valid, summed + emitted[t], -np.inf)
    return alpha


def _log_beta(log_probs, problem):
    """The backward variables: the log-probability of the alignments of each suffix of
    the extended target with the steps from t on (step t's emission included)."""
    emitted, valid = _emissions(log_probs, problem), _valid(problem)
    beta = np.full(emitted.shape, -np.inf, log_probs.dtype)
    lengths, last = problem.input_lengths, 2 * problem.target_lengths
    ends = (np.arange(beta.shape[2]) >= last[:, None] - 1) & valid
    ahead_skips = np.zeros_like(problem.skips)  # may step from s to s + 2
    ahead_skips[:, :-2] = problem.skips[:, 2:]
    for t in reversed(range(len(beta))):
        if t + 1 < len(beta):
            following = beta[t + 1]
            summed = _log_add(following, _shifted(following, -1),
                              _shifted(following, -2, ahead_skips)) + emitted[t]
            beta[t] = np.where(valid & (t < lengths - 1)[:, None], summed, -np.inf)
        starting = ends & (t == lengths - 1)[:, None]
        beta[t] = np.where(starting, emitted[t], beta[t])
    return beta


def _likelihoods(log_probs, problem):
    """Each sample's negative log-likelihood, and the forward variables."""
    with np.errstate(invalid="ignore", divide="ignore"):
        alpha = _log_alpha(log_probs, problem)
        samples = np.arange(len(problem.input_lengths))
        final = alpha[np.maximum(problem.input_lengths - 1, 0), samples]
        last = 2 * problem.target_lengths
        ending = np.take_along_axis(final, last[:, None], 1)[:, 0]
        before = np.take_along_axis(final, np.maximum(last - 1, 0)[:, None], 1)[:, 0]
        before = np.where(last > 0, before, -np.inf).astype(alpha.dtype)
        likelihood = _log_add(ending, before)
    # No step: the empty target's alignment alone, of probability 1.
    empty = np.where(last == 0, 0, -np.inf).astype(alpha.dtype)
    likelihood = np.where(problem.input_lengths == 0, empty, likelihood)
    return -likelihood, alpha


@functools.partial(custom_vjp, nondiff_argnums=(1,))
def _negative_log_likelihood(log_probs, problem):
    return _likelihoods(log_probs, problem)[0]


def _forward(log_probs, problem):
    nll, alpha = _likelihoods(log_probs, problem)
    return nll, (log_probs, alpha, nll)


def _backward(problem, saved, g):
    """PyTorch's gradient: exp(log_probs) minus each class's posterior occupation (the
    alignments' alpha * beta, summed over the extended target's positions of that class,
    over exp(log_probs)), times each sample's cotangent; zero past each input's length,
    and for an infinite loss under zero_infinity."""
    log_probs, alpha, nll = saved
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        occupation = alpha + _log_beta(log_probs, problem)
        summed = np.full(log_probs.shape, -np.inf, log_probs.dtype)
        samples = np.arange(log_probs.shape[1])
        for s in range(occupation.shape[2]):  # in PyTorch's order of s
            classes = problem.primes[:, s]
            current, added = summed[:, samples, classes], occupation[:, :, s]
            largest = np.maximum(current, added)
            combined = np.log(np.exp(current - largest) + np.exp(added - largest)) + largest
            summed[:, samples, classes] = np.where(current == -np.inf, added, combined)
        grad = (np.exp(log_probs) - np.exp(summed + nll[:, None] - log_probs)) \
            * np.asarray(g)[:, None]
    kept = np.arange(len(log_probs))[:, None] < problem.input_lengths
    if problem.zero_infinity:
        kept = kept & (nll != np.inf)
    return (np.where(kept[..., None], grad, 0).astype(log_probs.dtype),)


_negative_log_likelihood.defvjp(_forward, _backward)
