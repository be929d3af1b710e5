"""compat.nn's CTCLoss and F.ctc_loss against torch 2.13: losses and PyTorch's gradient
with respect to log_probs (every reduction, zero_infinity, padded and concatenated targets,
lengths as tensors or tuples, unbatched inputs, other blanks), grad_fn names, the module's
repr, and the error texts."""
import pytest

import compat
from compat_harness import assert_same_error, check, graph, seeded

STEPS, BATCH, CLASSES, LONGEST = 6, 3, 5, 3


def _losses(reduction="mean", zero_infinity=False, input_lengths=(6, 5, 4),
            target_lengths=(3, 2, 1), concatenated=False, tuples=False, dtype="float64",
            blank=0):
    """ctc_loss of fresh log-probabilities, with its gradient for a cotangent that weighs
    each sample differently."""
    def case(torch):
        logits = torch.randn(STEPS, BATCH, CLASSES, dtype=getattr(torch, dtype))
        log_probs = logits.log_softmax(2).detach().requires_grad_()
        labels = [label for label in range(CLASSES) if label != blank]
        targets = torch.tensor(labels)[torch.randint(0, len(labels), (BATCH, LONGEST))]
        if concatenated:
            targets = torch.cat([targets[n, :length] for n, length in enumerate(target_lengths)])
        lengths = (input_lengths, target_lengths)
        if not tuples:
            lengths = tuple(torch.tensor(given) for given in lengths)
        out = torch.nn.functional.ctc_loss(log_probs, targets, *lengths, blank=blank,
                                           reduction=reduction, zero_infinity=zero_infinity)
        out.backward(torch.arange(1.0, out.numel() + 1, dtype=out.dtype).reshape(out.shape))
        return out, graph(out), log_probs.grad
    return seeded(case)


# The second sample's alignment is impossible (4 labels need 4 steps, and 3 are given); the
# third has no steps, and no target.
LENGTHS = [((6, 5, 4), (3, 2, 1)), ((6, 3, 0), (3, 3, 0)), ((6, 0, 2), (0, 2, 1)),
           ((2, 6, 5), (3, 3, 3))]


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("zero_infinity", [False, True])
@pytest.mark.parametrize("lengths", LENGTHS)
@pytest.mark.parametrize("concatenated", [False, True])
def test_ctc_loss_and_its_gradient(reduction, zero_infinity, lengths, concatenated):
    """(An infinite loss without zero_infinity gets PyTorch's NaN gradient.)"""
    check(_losses(reduction, zero_infinity, *lengths, concatenated=concatenated),
          rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_ctc_loss_in_float32_with_tuples(reduction):
    check(_losses(reduction, tuples=True, dtype="float32"), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("blank", [2, CLASSES - 1])
def test_other_blanks(blank):
    check(_losses("none", blank=blank), rtol=1e-10, atol=1e-12)


def test_repeated_labels_need_a_blank_between_them():
    """Three equal labels need five steps: with four the loss is infinite."""
    def case(torch):
        log_probs = torch.randn(5, 2, 3, dtype=torch.float64).log_softmax(2).requires_grad_()
        targets = torch.tensor([[1, 1, 1], [2, 2, 1]])
        out = torch.nn.functional.ctc_loss(log_probs, targets, (5, 4), (3, 3),
                                           reduction="none", zero_infinity=True)
        out.sum().backward()
        return out, log_probs.grad
    check(seeded(case), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("tuples", [False, True])
def test_unbatched_input(reduction, tuples):
    def case(torch):
        log_probs = torch.randn(7, 4, dtype=torch.float64).log_softmax(1).requires_grad_()
        targets = torch.tensor([1, 3, 3, 2])
        lengths = ((6,), (4,)) if tuples else (torch.tensor(6), torch.tensor(4))
        out = torch.nn.functional.ctc_loss(log_probs, targets, *lengths, reduction=reduction)
        out.backward()
        return out, graph(out), log_probs.grad
    check(seeded(case), rtol=1e-10, atol=1e-12)


def test_a_longer_batch_of_random_lengths():
    def case(torch):
        steps, batch, classes = 40, 5, 9
        log_probs = torch.randn(steps, batch, classes).log_softmax(2).requires_grad_()
        target_lengths = torch.randint(0, 12, (batch,))
        input_lengths = torch.randint(20, steps + 1, (batch,))
        targets = torch.randint(0, classes, (batch, 12), dtype=torch.int32)
        loss = torch.nn.functional.ctc_loss(log_probs, targets, input_lengths, target_lengths)
        loss.backward()
        return loss, log_probs.grad
    check(seeded(case), rtol=1e-4, atol=1e-6)


def test_targets_and_lengths_of_other_integer_and_float_dtypes():
    def case(torch):
        log_probs = torch.randn(6, 2, 4, dtype=torch.float64).log_softmax(2)
        targets = torch.tensor([[1, 2], [3, 3]])
        lengths = torch.tensor([6, 5], dtype=torch.int16), torch.tensor([2, 1]).view(2, 1)
        return [torch.nn.functional.ctc_loss(log_probs, targets.to(dtype), *lengths,
                                             reduction="none")
                for dtype in (torch.int32, torch.int64, torch.float32)]
    check(seeded(case), rtol=1e-10, atol=1e-12)


def test_module():
    def case(torch):
        loss = torch.nn.CTCLoss(blank=3, reduction="sum", zero_infinity=True)
        log_probs = torch.randn(5, 2, 4).log_softmax(2).requires_grad_()
        out = loss(log_probs, torch.tensor([0, 1, 2]), (5, 2), (2, 1))
        out.backward()
        return repr(loss), loss.blank, loss.zero_infinity, out, log_probs.grad
    check(seeded(case))


def _error(log_probs=(6, 3, 5), targets=((1, 2, 3), (1, 1, 2), (4, 4, 4)),
           input_lengths=(6, 5, 4), target_lengths=(3, 2, 1), **options):
    def case(torch):
        given = torch.randn(*log_probs).log_softmax(-1)
        lengths = [torch.tensor(x) if isinstance(x, tuple) else x
                   for x in (input_lengths, target_lengths)]
        return torch.nn.functional.ctc_loss(given, torch.tensor(targets), *lengths, **options)
    return case


@pytest.mark.parametrize("case", [
    _error(blank=5), _error(blank=-1), _error(input_lengths=(7, 5, 4)),
    _error(input_lengths=(-1, 5, 4)), _error(target_lengths=(4, 2, 1)),
    _error(target_lengths=(-1, 2, 1)), _error(input_lengths=(6, 5)),
    _error(target_lengths=(3, 2)), _error(reduction="average"),
    _error(log_probs=(6, 0, 5), targets=[[0]][:0], input_lengths=[], target_lengths=[]),
    _error(targets=[1, 2, 3, 1, 1]), _error(targets=[[[1, 2, 3]]] * 3),
    _error(targets=((1, 2, 3), (1, 1, 2))),
    _error(input_lengths=(6.0, 5.0, 4.0)), _error(target_lengths=(3.0, 2.0, 1.0)),
    _error(log_probs=(3, 5), input_lengths=(3, 3)),
    lambda torch: torch.nn.functional.ctc_loss(
        torch.zeros(4, 1, 3, dtype=torch.int64), torch.tensor([[1]]), (4,), (1,)),
    lambda torch: torch.nn.functional.ctc_loss(
        torch.zeros(4, 1, 3, dtype=torch.float16), torch.tensor([[1]]), (4,), (1,)),
])
def test_errors(case):
    assert_same_error(seeded(case))


def test_mixed_kinds_of_lengths_are_refused():
    """(PyTorch's TypeError lists its two signatures.)"""
    check(_error(input_lengths=[6, 5, 4]))


def test_labels_beyond_the_classes_are_refused():
    """PyTorch's kernel reads past the classes (an undefined loss); compat refuses."""
    log_probs = compat.randn(4, 1, 3).log_softmax(2)
    with pytest.raises(IndexError, match="target 3 is out of bounds for 3 classes"):
        compat.nn.functional.ctc_loss(log_probs, compat.tensor([[1, 3]]), (4,), (2,))
