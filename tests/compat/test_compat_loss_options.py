"""The losses' options against PyTorch (reductions, class weights, ignore_index,
label_smoothing, class-probability targets, pos_weight, log_target, full, margins, p,
swap, distance functions), values and gradients in float32 and float64 (compat computed a
binary cross-entropy of targets outside [0, 1], which PyTorch refuses)."""
import pytest

from compat_harness import check, seeded

TOLERANCES = {"float32": {"rtol": 1e-4, "atol": 1e-5}, "float64": {"rtol": 1e-9, "atol": 1e-9}}
CALLS = [
    'F.cross_entropy(x, t)', "F.cross_entropy(x, t, reduction='none')",
    "F.cross_entropy(x, t, reduction='sum')", 'F.cross_entropy(x, t, weight=w)',
    'F.cross_entropy(x, t, ignore_index=1)', 'F.cross_entropy(x, t, weight=w, ignore_index=0)',
    'F.cross_entropy(x, t, label_smoothing=0.2)',
    'F.cross_entropy(x, t, weight=w, label_smoothing=0.3)',
    "F.cross_entropy(x, t, weight=w, label_smoothing=0.3, ignore_index=2, reduction='sum')",
    'F.cross_entropy(x, p)', 'F.cross_entropy(x, p, label_smoothing=0.1)',
    "F.cross_entropy(x, p, weight=w, reduction='none')", 'F.cross_entropy(x3, t3)',
    'F.cross_entropy(x3, t3, weight=w, ignore_index=1)',
    'F.nll_loss(x.log_softmax(1), t, weight=w)',
    "F.nll_loss(x3.log_softmax(1), t3, reduction='none')",
    "F.nll_loss(x.log_softmax(1), t, ignore_index=2, reduction='mean')",
    'F.binary_cross_entropy(x.sigmoid(), y)',
    'F.binary_cross_entropy(x.sigmoid(), y, weight=y + 0.5)',
    'F.binary_cross_entropy_with_logits(x, y, pos_weight=w)',
    "F.binary_cross_entropy_with_logits(x, y, weight=y + 1, reduction='sum')",
    "F.kl_div(x.log_softmax(1), y.softmax(1), reduction='batchmean')",
    "F.kl_div(x.log_softmax(1), y.log_softmax(1), reduction='sum', log_target=True)",
    'F.poisson_nll_loss(x, y.abs(), log_input=False, full=True)',
    'F.poisson_nll_loss(x, y, full=True)', 'F.gaussian_nll_loss(x, y, y.abs() + 0.5)',
    "F.gaussian_nll_loss(x, y, y.abs()[:, :1] + 0.5, full=True, reduction='sum')",
    'F.huber_loss(x, y, delta=0.5)', 'F.smooth_l1_loss(x, y, beta=0.3)',
    "F.l1_loss(x, y, reduction='none')", "F.mse_loss(x, y, reduction='sum')",
    'F.margin_ranking_loss(x[:, 0], y[:, 0], t.float() * 2 - 1, margin=0.3)',
    'F.hinge_embedding_loss(x, (y > 0).float() * 2 - 1, margin=0.5)',
    'F.soft_margin_loss(x, (y > 0).float() * 2 - 1)',
    'F.multilabel_soft_margin_loss(x, (y > 0).float(), weight=w)',
    'F.multi_margin_loss(x, t, p=2, margin=0.5, weight=w)',
    'F.multilabel_margin_loss(x, torch.tensor([[2, -1, 0], [0, 1, -1], [1, 2, 0], [-1, 0, 1]]))',
    'F.cosine_embedding_loss(x, y, t.float() * 2 - 1, margin=0.2)',
    'F.triplet_margin_loss(x, y, x.flip(0), margin=0.5, p=1, swap=True)',
    'F.triplet_margin_with_distance_loss(x, y, x.flip(0), distance_function=F.pairwise_distance)',
    'F.ctc_loss(x3.permute(2, 0, 1).log_softmax(2), torch.tensor([[1, 2], [2, 1], [1, 1],'
    ' [2, 2]]), torch.tensor([4, 4, 4, 4]), torch.tensor([2, 1, 2, 1]))',
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("call", CALLS)
def test_loss_options_are_torchs(call, dtype):
    def case(torch):
        d = getattr(torch, dtype)
        x = torch.randn(4, 3, dtype=d, requires_grad=True)
        y = torch.randn(4, 3, dtype=d)
        x3 = torch.randn(4, 3, 4, dtype=d, requires_grad=True)
        names = {"F": torch.nn.functional, "torch": torch, "x": x, "y": y, "x3": x3,
                 "w": torch.tensor([0.5, 2.0, 1.0], dtype=d), "t": torch.tensor([0, 2, 1, 2]),
                 "p": torch.randn(4, 3, dtype=d).softmax(1),
                 "t3": torch.randint(0, 3, (4, 4))}
        loss = eval(call, names)
        loss.sum().backward()
        return loss, x.grad, x3.grad
    check(seeded(case), **TOLERANCES[dtype], messages=True)


@pytest.mark.parametrize("target", ["[1.5, 0.0]", "[float('nan'), 0.0]", "[-0.1, 0.0]"])
def test_binary_cross_entropy_refuses_targets_outside_the_unit_interval(target):
    def case(torch):
        return torch.nn.functional.binary_cross_entropy(torch.tensor([0.5, 0.5]),
                                                        torch.tensor(eval(target)))
    check(case, messages=True)
