"""Code as PyTorch's classic tutorials and their readers write it (custom modules and
containers, training loops, losses, initialisation, gradient clipping), run under compat
and under torch 2.13: the same printed text, values, gradients, warnings and errors."""
import os
import subprocess
import sys
import warnings

import pytest

import compat
from compat_harness import assert_same_error, check, check_printed, seeded


# ---- models and containers -----------------------------------------------------------------


def _two_layer_net(torch):
    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = torch.nn.Linear(4, 3)
            self.act = torch.nn.ReLU()
            self.fc2 = torch.nn.Linear(3, 2)

        def forward(self, x):
            return self.fc2(self.act(self.fc1(x)))
    return Net()


def test_replacing_a_layer_keeps_its_place():
    # The fine-tuning idiom (model.fc = nn.Linear(...)): the new layer takes the old one's
    # place in the printed model, the state_dict and the parameter order.
    def case(torch):
        model = _two_layer_net(torch)
        model.fc1 = torch.nn.Linear(4, 3, bias=False)
        model.fc1.weight = torch.nn.Parameter(torch.ones(3, 4))
        sequential = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU())
        sequential[0] = torch.nn.Tanh()
        print(model, sequential, list(model.state_dict()), sep="\n")
        print([name for name, _ in model.named_parameters()])
    check_printed(seeded(case))


def test_sequential_edits():
    def case(torch):
        nn = torch.nn
        model = nn.Sequential(nn.Linear(1, 2), nn.ReLU(), nn.Linear(2, 1))
        del model[1]
        model.insert(1, nn.Tanh())
        model.insert(-1, nn.Sigmoid())
        model.extend([nn.ReLU()])
        print(model.pop(0), model, model + nn.Sequential(nn.Identity()), sep="\n")
        for bad in (lambda: model.insert(9, nn.ReLU()), lambda: model + 3):
            try:
                bad()
            except (IndexError, ValueError) as error:
                print(type(error).__name__, error)
    check_printed(seeded(case))


def test_module_list_and_dict_register_print_and_train():
    def case(torch):
        nn = torch.nn

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.blocks = nn.ModuleList([nn.Linear(3, 3) for _ in range(3)])
                self.blocks.append(nn.ReLU())
                self.heads = nn.ModuleDict({"cls": nn.Linear(3, 2), "reg": nn.Linear(3, 1)})
                self.heads.update([("aux", nn.Tanh())])

            def forward(self, x):
                for block in self.blocks[:-1]:
                    x = self.blocks[-1](block(x))
                return sum(head(x).sum() for head in self.heads.values())

        net = Net()
        print(net, nn.ModuleList(), net.blocks[1:], list(net.heads), "reg" in net.heads,
              len(net.heads), list(net.state_dict()), sep="\n")
        loss = net(torch.randn(4, 3))
        loss.backward()
        print(loss, net.blocks[0].weight.grad)
        net.blocks.insert(0, nn.Sigmoid())
        del net.blocks[1:3]
        print(net.blocks.pop(-1), net.heads.pop("aux"), net.blocks + [nn.ReLU()], sep="\n")
    check_printed(seeded(case), rtol=1e-6)


@pytest.mark.parametrize("misuse", [
    "torch.nn.ModuleList()[0]",
    "torch.nn.ModuleList().extend(3)",
    "torch.nn.ModuleDict().update(5)",
    "torch.nn.ModuleDict().update([('a', torch.nn.ReLU()), ('b',)])",
    "torch.nn.ModuleDict().update([('a', torch.nn.ReLU()), 7])",
])
def test_container_misuse_raises_torchs_error(misuse):
    assert_same_error(lambda torch: eval(misuse))


# ---- layers and functions ------------------------------------------------------------------

_SPECIAL = [-2.0, -0.0, 0.0, 1.5, float("nan"), float("-inf"), float("inf")]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("inplace", [False, True])
def test_leaky_relu(dtype, inplace):
    def case(torch):
        x = torch.tensor(_SPECIAL, dtype=getattr(torch, dtype), requires_grad=True)
        y = torch.nn.functional.leaky_relu(x * 1, 0.2, inplace=inplace)
        y.sum().backward()
        module = torch.nn.LeakyReLU(0.1, inplace=inplace)
        z = torch.randn(3, 4, requires_grad=True)
        return y, x.grad, module(z * 2), repr(module), repr(torch.nn.LeakyReLU())
    check(seeded(case))


# Activations that compute pieces (where PyTorch's kernels take one side or the other at
# the corners, and at NaN and the infinities).
_PIECEWISE = ["torch.nn.LogSigmoid()", "torch.nn.Hardtanh()", "torch.nn.Hardtanh(-2.0, 3.0)",
              "torch.nn.ReLU6()", "torch.nn.PReLU()", "torch.nn.PReLU(init=-0.5)",
              "torch.nn.Mish()", "torch.nn.SELU()", "torch.nn.Hardswish()",
              "torch.nn.Hardsigmoid()", "torch.nn.Tanhshrink()", "torch.nn.Softsign()"]
_ACTIVATIONS = ["torch.nn.ELU()", "torch.nn.ELU(alpha=0.5)", "torch.nn.SiLU()",
                "torch.nn.GELU()", "torch.nn.GELU(approximate='tanh')", "torch.nn.Softplus()",
                "torch.nn.Softplus(beta=2, threshold=10)", "torch.nn.Softmin(dim=-1)",
                *_PIECEWISE]


@pytest.mark.parametrize("layer", _ACTIVATIONS)
def test_activations(layer):
    # PyTorch's GELU gives NaN at +-inf (its vectorised erf), so the special values here
    # stop at large finite ones; GELU's 1 + erf cancels below -2, where PyTorch's erf and
    # compat's differ in the last bit, hence the absolute tolerance.
    def case(torch):
        module = eval(layer)
        x = (torch.randn(3, 5) * 3).requires_grad_()
        special = torch.tensor([-30.0, -1.0, -0.0, 0.0, 1e-3, 2.0, 25.0, float("nan")],
                               requires_grad=True)
        outputs = module(x), module(special)
        (outputs[0].sum() + (outputs[1] * torch.arange(1.0, 9.0)).sum()).backward()
        return outputs, x.grad, special.grad, repr(module)
    check(seeded(case), atol=1e-6)


# Where the piecewise activations change pieces, and the special values.
_CORNERS = [float("-inf"), -100.0, -30.0, -6.0, -3.0, -2.0, -1.0, -0.0, 0.0, 1.0, 2.0, 3.0,
            6.0, 30.0, 100.0, float("inf"), float("nan")]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("layer", _PIECEWISE)
def test_activations_where_their_pieces_meet(layer, dtype):
    def case(torch):
        module = eval(layer).to(getattr(torch, dtype))
        x = torch.tensor(_CORNERS, dtype=getattr(torch, dtype), requires_grad=True)
        out = module(x)
        out.backward(torch.ones_like(out))
        return out, x.grad, [p.grad for p in module.parameters()]
    check(case, atol=1e-6)


def _extremes(torch, dtype, largest=True):
    values = [-1000.0, -745.5, -100.0, -89.5, -88.5, -20.0, -1.0, -0.0, 0.0, 1.0, 20.0, 88.5,
              89.5, 100.0, 745.5, 1000.0, float("nan")]
    if largest:
        values += [-torch.finfo(dtype).max, torch.finfo(dtype).max, float("-inf"),
                   float("inf")]
    return torch.tensor(values, dtype=dtype, requires_grad=True)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("function", ["silu", "softplus", "mish", "gelu", "elu", "selu",
                                      "logsigmoid", "sigmoid"])
def test_activations_at_the_ends_of_their_dtype(function, dtype):
    # Where exp overflows or underflows (past +-89 in float32, +-745 in float64): silu's
    # derivative was NaN there. (PyTorch's float32 GELU is NaN at +-inf, see
    # test_activations, and overflows to inf at the largest float32, computing x * (1 +
    # erf) first.)
    def case(torch):
        x = _extremes(torch, getattr(torch, dtype), largest=function != "gelu")
        out = getattr(torch.nn.functional, function)(x)
        out.backward(torch.ones_like(out))
        return out, x.grad
    check(case)


_IN_PLACE = {"selu": "SELU", "mish": "Mish", "hardswish": "Hardswish",
             "hardsigmoid": "Hardsigmoid", "relu6": "ReLU6", "hardtanh": "Hardtanh"}


@pytest.mark.parametrize("function", list(_IN_PLACE))
def test_more_activations_in_place(function):
    def case(torch):
        x = torch.randn(2, 3, requires_grad=True)
        y = getattr(torch.nn.functional, function)(x * 2, inplace=True)
        y.sum().backward()
        z = x.detach() * 3
        module = getattr(torch.nn, _IN_PLACE[function])(inplace=True)
        return y, x.grad, module(z) is z, z, repr(module)
    check(seeded(case))


def test_hardtanh_in_place_by_name_and_integer_inputs():
    def case(torch):
        x = torch.randn(4) * 3
        F = torch.nn.functional
        return (F.hardtanh_(x, -0.5, 2.0) is x, x, F.relu6(torch.tensor([-2, 3, 9])),
                F.hardtanh(torch.tensor([-2, 0, 5]), -1, 1), F.softsign(torch.tensor([1, -2])),
                F.tanhshrink(torch.tensor([1, -2])))
    check(seeded(case))


@pytest.mark.parametrize("shape", [(2, 3), (2, 3, 4), (4, 3, 2, 2)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_prelu_learns_a_slope_per_channel(shape, dtype):
    def case(torch):
        module = torch.nn.PReLU(3, init=0.1, dtype=getattr(torch, dtype))
        x = torch.randn(shape, dtype=getattr(torch, dtype), requires_grad=True)
        out = module(x)
        (out * torch.randn(shape, dtype=getattr(torch, dtype))).sum().backward()
        shared = torch.nn.functional.prelu(x.detach()[0], torch.tensor([0.3],
                                                                        dtype=x.dtype))
        # An infinite positive input takes no part in the slope's gradient.
        single = torch.nn.PReLU(dtype=x.dtype)
        single(torch.tensor([float("inf"), -1.0, 2.0], dtype=x.dtype)).sum().backward()
        return (out, x.grad, module.weight, module.weight.grad, shared, repr(module),
                single.weight.grad)
    check(seeded(case))


def test_softmin_without_a_dimension_warns_as_torch():
    def case(torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = torch.nn.functional.softmin(torch.tensor([[1.0, 2.0], [0.5, -1.0]]))
            module = torch.nn.Softmin()(torch.tensor([1.0, 3.0]))
        return out, module, [str(w.message) for w in caught]
    check(case)


@pytest.mark.parametrize("function", ["elu", "silu"])
def test_activations_in_place(function):
    def case(torch):
        x = torch.randn(2, 3, requires_grad=True)
        y = getattr(torch.nn.functional, function)(x * 2, inplace=True)
        y.sum().backward()
        return y, x.grad, repr(getattr(torch.nn, function.upper().replace("SILU", "SiLU"))(
            inplace=True))
    check(seeded(case))


@pytest.mark.parametrize("misuse", [
    "torch.nn.functional.gelu(torch.ones(2), approximate='erf')",
    "torch.nn.functional.elu(torch.tensor([1, 2]))",
    "torch.nn.functional.gelu(torch.tensor([1, 2]))",
    "torch.nn.functional.silu(torch.tensor([1, 2]))",
    "torch.nn.functional.softplus(torch.tensor([1, 2]))",
    "torch.nn.functional.leaky_relu(torch.tensor([1, -2]))",
    "torch.nn.functional.leaky_relu(torch.ones(2, requires_grad=True), inplace=True)",
    "torch.nn.functional.logsigmoid(torch.tensor([1, 2]))",
    "torch.nn.functional.selu(torch.tensor([1, 2]))",
    "torch.nn.functional.mish(torch.tensor([1, 2]))",
    "torch.nn.functional.hardswish(torch.tensor([1, 2]))",
    "torch.nn.functional.hardsigmoid(torch.tensor([1, 2]))",
    "torch.nn.functional.hardtanh(torch.ones(2), 2.0, 1.0)",
    "torch.nn.Hardtanh(2.0, 1.0)",
    "torch.nn.Hardtanh(1.0, 1.0)",
    "torch.nn.functional.relu6(torch.ones(2, requires_grad=True), inplace=True)",
    "torch.nn.functional.prelu(torch.randn(2, 4), torch.randn(3))",
    "torch.nn.functional.prelu(torch.randn(4), torch.randn(4))",
    "torch.nn.functional.prelu(torch.randn(2, 3), torch.randn(3, 1))",
    "torch.nn.functional.prelu(torch.tensor([1, 2]), torch.tensor([1]))",
    "torch.nn.functional.prelu(torch.randn(3), torch.randn(1).double())",
    "torch.nn.PReLU(3)(torch.randn(2, 4))",
])
def test_activation_misuse_raises_torchs_error(misuse):
    assert_same_error(lambda torch: eval(misuse))


@pytest.mark.parametrize("expression", [
    "F.one_hot(torch.tensor([0, 2, 1]))", "F.one_hot(torch.tensor([[1], [3]]), num_classes=5)",
    "F.one_hot(torch.tensor(2), 4)", "F.one_hot(torch.tensor([], dtype=torch.long), 3)",
    "F.one_hot(torch.tensor([0., 1.]))", "F.one_hot(torch.tensor([0, 1], dtype=torch.int32))",
    "F.one_hot(torch.tensor([0, 3]), 3)", "F.one_hot(torch.tensor([0, -1]))",
    "F.one_hot(torch.tensor([0, -1]), 5)", "F.one_hot(torch.tensor([], dtype=torch.long))",
    "F.one_hot(torch.tensor([1]), 0)",
])
def test_one_hot(expression):
    check(lambda torch: eval(expression, {"torch": torch, "F": torch.nn.functional}),
          messages=True)


@pytest.mark.parametrize("p, dim", [(2.0, 1), (1, 0), (3, -1)])
def test_normalize(p, dim):
    def case(torch):
        x = torch.randn(3, 4, requires_grad=True)
        zeros = torch.zeros(2, 3, requires_grad=True)
        y = torch.nn.functional.normalize(x, p=p, dim=dim)
        z = torch.nn.functional.normalize(zeros, p=p, dim=dim)
        (y.pow(3).sum() + z.sum()).backward()
        return y, z, x.grad, zeros.grad
    check(seeded(case))


def test_batch_norm_trains_evaluates_and_tracks_running_statistics():
    def case(torch):
        nn = torch.nn
        model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 2))
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        x, y = torch.randn(16, 4) * 2 + 1, torch.randint(0, 2, (16,))
        losses = []
        for _ in range(4):
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            losses.append(loss)
        gradients = [p.grad for p in model.parameters()]
        model.eval()
        return losses, gradients, model(x[:3]), model[1].state_dict()
    check(seeded(case), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("options", [
    "", "momentum=None", "affine=False", "track_running_stats=False", "bias=False",
    "eps=1e-3, momentum=0.5",
])
@pytest.mark.parametrize("shape", [(6, 3), (4, 3, 5)])
def test_batch_norm_options(options, shape):
    def case(torch):
        layer = eval(f"torch.nn.BatchNorm1d(3, {options})")
        x = torch.randn(*shape, requires_grad=True)
        outputs = [layer(x * (step + 1)) for step in range(3)]
        (outputs[-1] ** 3).sum().backward()
        layer.eval()
        return outputs, x.grad, layer(x), layer.state_dict(), repr(layer)
    check(seeded(case), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("normalized_shape, affine, bias", [
    (4, True, True), ((3, 4), True, False), ([4], False, True),
])
def test_layer_norm(normalized_shape, affine, bias):
    def case(torch):
        layer = torch.nn.LayerNorm(normalized_shape, elementwise_affine=affine, bias=bias)
        x = torch.randn(2, 3, 4, requires_grad=True)
        y = layer(x)
        (y * torch.linspace(-1, 1, 4)).sum().backward()
        return (y, x.grad, [p.grad for p in layer.parameters()], repr(layer),
                layer.state_dict())
    check(seeded(case), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("misuse", [
    "torch.nn.BatchNorm1d(3)(torch.ones(1, 3))",
    "torch.nn.BatchNorm1d(3)(torch.ones(2, 3, 4, 5))",
    "torch.nn.BatchNorm1d(3)(torch.ones(2, 4))",
    "F.batch_norm(torch.ones(2, 3), None, None, training=True, eps=0)",
    "F.batch_norm(torch.ones(2, 3), torch.zeros(3), torch.ones(3), eps=-1)",
    "F.batch_norm(torch.ones(2, 3), None, None)",
    "F.layer_norm(torch.ones(2, 3), [4])",
    "F.layer_norm(torch.ones(2, 3), (2, 3), torch.ones(3))",
    "torch.nn.LayerNorm(3)(torch.ones(2, 4))",
])
def test_normalisation_misuse_raises_torchs_error(misuse):
    assert_same_error(lambda torch: eval(misuse, {"torch": torch, "F": torch.nn.functional}))


# ---- losses --------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(5, 4), (2, 4, 3), (4,)])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted, ignore_index", [(False, -100), (True, -100), (True, 1),
                                                    (False, 2)])
def test_label_smoothing_with_class_targets(shape, reduction, weighted, ignore_index):
    def case(torch):
        logits = torch.randn(*shape, requires_grad=True)
        classes = shape[0] if len(shape) == 1 else shape[1]
        target_shape = () if len(shape) == 1 else (shape[0], *shape[2:])
        target = torch.randint(0, classes, target_shape)
        weight = torch.rand(classes) + 0.5 if weighted else None
        criterion = torch.nn.CrossEntropyLoss(weight, ignore_index=ignore_index,
                                              reduction=reduction, label_smoothing=0.15)
        loss = criterion(logits, target)
        loss.sum().backward()
        return loss, logits.grad
    check(seeded(case))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_label_smoothing_with_probability_targets(reduction):
    def case(torch):
        logits = torch.randn(3, 5, requires_grad=True)
        target = torch.softmax(torch.randn(3, 5), dim=1)
        loss = torch.nn.functional.cross_entropy(logits, target, reduction=reduction,
                                                 label_smoothing=0.3)
        loss.sum().backward()
        return loss, logits.grad
    check(seeded(case))


@pytest.mark.parametrize("smoothing", [1.5, 2.0])
@pytest.mark.parametrize("target", ["torch.tensor([0, 2])", "torch.rand(2, 3)"])
def test_label_smoothing_above_one_raises_torchs_error(smoothing, target):
    assert_same_error(lambda torch: torch.nn.functional.cross_entropy(
        torch.zeros(2, 3), eval(target), label_smoothing=smoothing))


def test_smoothed_losses_print_as_torchs():
    def case(torch):
        logits = torch.randn(4, 3, requires_grad=True)
        print(torch.nn.CrossEntropyLoss(label_smoothing=0.1),
              torch.nn.CrossEntropyLoss(label_smoothing=0.1)(logits, torch.tensor([0, 2, 1, 2])),
              torch.nn.functional.cross_entropy(logits, torch.tensor([1, 1, 0, 2]),
                                                label_smoothing=-0.5))
    check_printed(seeded(case))


_REGRESSION_LOSSES = [
    "F.l1_loss(x, t, reduction=r)", "F.l1_loss(x, t, reduction=r, weight=w)",
    "F.smooth_l1_loss(x, t, reduction=r)", "F.smooth_l1_loss(x, t, reduction=r, beta=0.3)",
    "F.smooth_l1_loss(x, t, reduction=r, beta=0.0)", "F.huber_loss(x, t, reduction=r)",
    "F.huber_loss(x, t, reduction=r, delta=0.7, weight=w)",
    "torch.nn.L1Loss(reduction=r)(x, t)", "torch.nn.SmoothL1Loss(reduction=r, beta=2.0)(x, t)",
    "torch.nn.HuberLoss(reduction=r, delta=0.5)(x, t)",
]


@pytest.mark.parametrize("expression", _REGRESSION_LOSSES)
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_regression_losses(expression, reduction):
    def case(torch):
        x = (torch.randn(3, 4) * 2).requires_grad_()
        t, w = torch.randn(3, 4), torch.rand(3, 4)
        loss = eval(expression, {"torch": torch, "F": torch.nn.functional, "x": x, "t": t,
                                 "w": w, "r": reduction})
        loss.sum().backward()
        return loss, x.grad
    check(seeded(case))


def test_regression_losses_print_and_warn_as_torch():
    def case(torch):
        nn = torch.nn
        print(nn.L1Loss(), nn.SmoothL1Loss(beta=0.5), nn.HuberLoss(delta=2.0))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            print(nn.functional.l1_loss(torch.ones(3, 1), torch.zeros(3)))
        print([(str(w.message), w.filename == __file__) for w in caught])
    check_printed(case)


@pytest.mark.parametrize("misuse", [
    "F.smooth_l1_loss(torch.ones(2), torch.ones(2), beta=-1)",
    "F.huber_loss(torch.ones(2), torch.ones(2), delta=0)",
    "F.l1_loss(torch.tensor([1, 2]), torch.tensor([0, 0]))",
    "F.l1_loss(torch.ones(2), torch.ones(2), weight=torch.ones(3))",
    "F.huber_loss(torch.ones(2, 3), torch.ones(4))",
])
def test_regression_loss_misuse_raises_torchs_error(misuse):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the broadcast warning, compared above
        assert_same_error(lambda torch: eval(misuse, {"torch": torch,
                                                      "F": torch.nn.functional}))


@pytest.mark.parametrize("shape", [(4,), (3, 4), (2, 4, 3)])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("smoothing", [0.0, 0.2])
def test_a_batch_of_ignored_targets_gives_no_gradient(shape, reduction, smoothing):
    # A batch of padding only (every target == ignore_index): the mean is NaN, as in torch,
    # but the logits get zero gradients, not NaN ones.
    def case(torch):
        logits = torch.randn(*shape, requires_grad=True)
        target_shape = () if len(shape) == 1 else (shape[0], *shape[2:])
        target = torch.full(target_shape, 1, dtype=torch.long)
        loss = torch.nn.functional.cross_entropy(logits, target, ignore_index=1,
                                                 reduction=reduction,
                                                 label_smoothing=smoothing)
        loss.sum().backward()
        return loss, logits.grad
    check(seeded(case))


def test_ignored_targets_with_an_infinite_log_probability_take_no_part():
    def case(torch):
        log_probabilities = torch.tensor([[0.0, -float("inf")], [-0.5, -1.0]],
                                         requires_grad=True)
        losses = torch.nn.functional.nll_loss(log_probabilities, torch.tensor([1, 0]),
                                              ignore_index=1, reduction="none")
        losses.sum().backward()
        return losses, log_probabilities.grad
    check(case)


@pytest.mark.parametrize("function", ["softmax", "log_softmax", "softmin"])
def test_the_implicit_softmax_dimension_warning_names_the_callers_line(function):
    def case(torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            getattr(torch.nn.functional, function)(torch.ones(2, 3))
        return [(str(w.message), w.filename == __file__, w.lineno) for w in caught]
    assert check(case)


# ---- initialisation ------------------------------------------------------------------------


@pytest.mark.parametrize("arguments", [
    {}, {"std": 0.02}, {"mean": 0.5, "std": 2.0, "a": -0.5, "b": 0.5},
    {"mean": 3.0, "std": 1.0, "a": 0.0, "b": 1.0}, {"mean": 0.0, "std": 1.0, "a": 1.5, "b": 1.7},
])
@pytest.mark.parametrize("shape", [(4, 5), (40, 3)])
def test_trunc_normal_draws_what_torch_draws(arguments, shape):
    def case(torch):
        generator = torch.Generator().manual_seed(3)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            drawn = torch.nn.init.trunc_normal_(torch.empty(*shape), **arguments)
            drawn_by = torch.nn.init.trunc_normal_(torch.empty(*shape, dtype=torch.float64),
                                                   generator=generator, **arguments)
        return drawn, drawn_by, torch.rand(1), [str(w.message) for w in caught]
    check(seeded(case), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("shape", [(3, 3), (2, 5), (5, 2), (4, 2, 3)])
def test_orthogonal_and_eye(shape):
    def case(torch):
        weight = torch.nn.init.orthogonal_(torch.empty(*shape), gain=2.0)
        return (weight, torch.rand(2), torch.nn.init.eye_(torch.empty(*shape[:2])),
                torch.nn.init.eye_(torch.nn.Linear(3, 2).weight))
    check(seeded(case))


def test_the_deprecated_init_names_warn_and_initialise():
    # The 2017 tutorials' nn.init.xavier_uniform(m.weight) still runs in torch, with a
    # FutureWarning.
    def case(torch):
        init = torch.nn.init
        weight = torch.empty(3, 4)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            drawn = [init.xavier_uniform(weight).clone(), init.xavier_normal(weight).clone(),
                     init.kaiming_uniform(weight).clone(), init.kaiming_normal(weight).clone(),
                     init.uniform(weight).clone(), init.normal(weight).clone(),
                     init.constant(weight, 0.5).clone(), init.eye(weight).clone(),
                     init.orthogonal(weight).clone()]
        return drawn, [(w.category.__name__, str(w.message)) for w in caught]
    check(seeded(case))


@pytest.mark.parametrize("misuse", [
    "torch.nn.init.eye_(torch.empty(2, 2, 2))", "torch.nn.init.orthogonal_(torch.empty(3))",
])
def test_init_misuse_raises_torchs_error(misuse):
    assert_same_error(lambda torch: eval(misuse))


# ---- gradient clipping and the parameters as a vector ----------------------------------------


def _gradients_of_a_small_net(torch, scale=20.0):
    model = torch.nn.Sequential(torch.nn.Linear(6, 8), torch.nn.Tanh(),
                                torch.nn.Linear(8, 3))
    loss = torch.nn.functional.cross_entropy(model(torch.randn(5, 6)),
                                             torch.tensor([0, 2, 1, 1, 0]))
    (loss * scale).backward()
    return model


@pytest.mark.parametrize("norm_type", [2.0, 1, 3.5, float("inf"), "inf"])
@pytest.mark.parametrize("max_norm", [0.5, 1e6])
def test_clip_grad_norm(norm_type, max_norm):
    def case(torch):
        model = _gradients_of_a_small_net(torch)
        total = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm, norm_type)
        return total, [p.grad for p in model.parameters()]
    check(seeded(case))


def test_clip_grad_value_and_the_deprecated_name():
    def case(torch):
        model = _gradients_of_a_small_net(torch)
        torch.nn.utils.clip_grad_value_(model.parameters(), clip_value=0.05)
        clipped = [p.grad.clone() for p in model.parameters()]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            total = torch.nn.utils.clip_grad_norm(model[0].weight, 0.1)
            torch.nn.utils.clip_grad_norm_((p for p in []), 1.0)
        return (clipped, total, model[0].weight.grad,
                [(w.category.__name__, str(w.message)) for w in caught])
    check(seeded(case))


def test_clip_grad_norm_of_mixed_dtypes_and_of_nothing():
    def case(torch):
        a = torch.ones(3, dtype=torch.float64, requires_grad=True)
        b = torch.ones(2, requires_grad=True)
        (a.sum() * 3 + b.sum() * 4).backward()
        return (torch.nn.utils.clip_grad_norm_([a, b], 1.0), a.grad, b.grad,
                torch.nn.utils.clip_grad_norm_([], 1.0),
                torch.nn.utils.get_total_norm([torch.ones(2), torch.ones(3)]))
    check(case)


def test_clip_grad_norm_of_a_nan_gradient():
    def case(torch):
        a = torch.ones(3, requires_grad=True)
        (a * torch.tensor([1.0, float("nan"), 2.0])).sum().backward()
        return torch.nn.utils.clip_grad_norm_(a, 1.0), a.grad
    check(case)
    assert_same_error(_clip_an_infinite_gradient)


def _clip_an_infinite_gradient(torch):
    a = torch.ones(2, requires_grad=True)
    (a * float("inf")).sum().backward()
    return torch.nn.utils.clip_grad_norm_([a], 1.0, error_if_nonfinite=True)


def test_parameters_to_vector_and_back():
    def case(torch):
        model = torch.nn.Linear(3, 2)
        vector = torch.nn.utils.parameters_to_vector(model.parameters())
        vector.sum().backward()
        torch.nn.utils.vector_to_parameters(torch.arange(8.0), model.parameters())
        return vector, model.weight.grad, model.weight, model.bias
    check(seeded(case))
    assert_same_error(lambda torch: torch.nn.utils.vector_to_parameters(
        [1.0], torch.nn.Linear(1, 1).parameters()))


# ---- arithmetic as PyTorch's kernels round it ------------------------------------------------


@pytest.mark.parametrize("exponent", [2, 3, -1, -2, -0.5, 3.0])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pow_by_a_special_cased_number_is_torchs_bit_for_bit(exponent, dtype):
    # PyTorch computes x ** 3 as x * x * x (NumPy's power differs in the last bit for a
    # quarter of float32 cubes), as the tutorials' polynomial fits print. The gradient
    # takes the power exponent - 1: bit for bit where that is special-cased too.
    def case(torch):
        x = torch.linspace(-3, 3, 2001, dtype=getattr(torch, dtype)).requires_grad_()
        y = x ** exponent
        y.backward(torch.linspace(-1, 2, 2001, dtype=x.dtype))
        return y, x.pow(exponent), torch.pow(x.detach(), exponent), x.grad
    check(lambda torch: case(torch)[:3], rtol=0, atol=0)
    exact = exponent - 1 in (-2, 1, 2)
    check(lambda torch: case(torch)[3], rtol=0 if exact else 1e-6, atol=0 if exact else 1e-7)


# ---- loading data --------------------------------------------------------------------------


def test_collated_fields_of_strings_stay_tuples():
    # PyTorch collates each field of the samples as the tuple zip(*batch) gives it, so a
    # field of strings comes out as a tuple (a dict's field as a list).
    def case(torch):
        class Names(torch.utils.data.Dataset):
            def __len__(self):
                return 5

            def __getitem__(self, i):
                return torch.tensor([float(i)]), f"item{i}", {"name": f"n{i}", "id": i}

        for batch in torch.utils.data.DataLoader(Names(), batch_size=2):
            print(batch)
        print(torch.utils.data.default_collate(["a", "b"]),
              torch.utils.data.default_collate([("a", 1), ("b", 2)]))
    check_printed(case)


# ---- learning-rate schedules ---------------------------------------------------------------

_SCHEDULES = {
    "StepLR": "S.StepLR(o, step_size=3, gamma=0.5)",
    "MultiStepLR": "S.MultiStepLR(o, milestones=[2, 5, 5, 9], gamma=0.1)",
    "ExponentialLR": "S.ExponentialLR(o, gamma=0.9)",
    "CosineAnnealingLR": "S.CosineAnnealingLR(o, T_max=5, eta_min=0.001)",
    "CosineAnnealingLR resumed": "S.CosineAnnealingLR(o, T_max=4, last_epoch=2)",
    "LambdaLR": "S.LambdaLR(o, lr_lambda=lambda epoch: 0.95 ** epoch)",
    "LambdaLR per group": "S.LambdaLR(o, [lambda e: 1 / (e + 1), lambda e: 0.5])",
}


def _two_groups(torch):
    first, second = torch.nn.Linear(2, 2), torch.nn.Linear(2, 1)
    optimizer = torch.optim.SGD([{"params": first.parameters()},
                                 {"params": second.parameters(), "lr": 0.5}],
                                lr=0.1, momentum=0.9)
    for group in optimizer.param_groups:
        group.setdefault("initial_lr", group["lr"])  # what a resumed schedule needs
    return optimizer


@pytest.mark.parametrize("name", _SCHEDULES)
def test_schedules_give_torchs_rates_and_state(name):
    def case(torch):
        optimizer = _two_groups(torch)
        schedule = eval(_SCHEDULES[name], {"S": torch.optim.lr_scheduler, "o": optimizer})
        rates = []
        for _ in range(13):
            optimizer.step()
            schedule.step()
            rates.append(schedule.get_last_lr())
        state = schedule.state_dict()
        state.pop("lr_lambdas", None)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            schedule.step(4)  # the deprecated epoch argument: the closed form
        return (rates, state, schedule.get_last_lr(), optimizer.param_groups[1]["lr"],
                [str(w.message) for w in caught])
    check(seeded(case))


@pytest.mark.parametrize("options, metrics", [
    ("patience=2, factor=0.5", [1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 0.5, 0.5, 0.5, 0.5]),
    ("mode='max', patience=1, cooldown=2, min_lr=0.02, threshold_mode='abs'",
     [0.0, 1.0, 2.0, 0.0, 1.0, 2.0, 0.0, 1.0, 2.0, 2.0, 2.0, 2.0]),
    ("min_lr=[0.01, 0.2], patience=0, threshold=0.1", [5.0, 4.8, 4.0, 4.0, 3.9, 3.0]),
])
def test_reduce_lr_on_plateau(options, metrics):
    def case(torch):
        optimizer = _two_groups(torch)
        schedule = eval(f"S.ReduceLROnPlateau(o, {options})",
                        {"S": torch.optim.lr_scheduler, "o": optimizer})
        rates = []
        for metric in metrics:
            optimizer.step()
            schedule.step(torch.tensor(metric))
            rates.append(schedule.get_last_lr())
        other = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer)
        other.load_state_dict(schedule.state_dict())
        return rates, schedule.state_dict(), other.state_dict()
    check(case)


def test_lambda_schedule_saves_the_state_of_callable_objects():
    def case(torch):
        class Warmup:
            def __init__(self):
                self.epochs = 3

            def __call__(self, epoch):
                return min(1.0, (epoch + 1) / self.epochs)

        optimizer = _two_groups(torch)
        schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, [Warmup(), lambda e: 0.5])
        optimizer.step()
        schedule.step()
        state = schedule.state_dict()
        state["lr_lambdas"][0]["epochs"] = 10
        schedule.load_state_dict(state)
        optimizer.step()
        schedule.step()
        return state, schedule.get_last_lr(), schedule.lr_lambdas[0].epochs
    check(case)


@pytest.mark.parametrize("misuse", [
    "S.LambdaLR(o, [lambda e: 1.0])",
    "S.ReduceLROnPlateau(o, factor=1.5)",
    "S.ReduceLROnPlateau(o, mode='avg')",
    "S.ReduceLROnPlateau(o, threshold_mode='avg')",
    "S.ReduceLROnPlateau(o, min_lr=[0.1])",
    "S.ReduceLROnPlateau(3)",
])
def test_schedule_misuse_raises_torchs_error(misuse):
    assert_same_error(lambda torch: eval(misuse, {"S": torch.optim.lr_scheduler,
                                                  "o": _two_groups(torch)}))


def test_get_lr_outside_step_warns_as_torch():
    def case(torch):
        optimizer = _two_groups(torch)
        schedule = torch.optim.lr_scheduler.ExponentialLR(optimizer, 0.5)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            rates = schedule.get_lr()
        return rates, [(w.category.__name__, str(w.message)) for w in caught]
    check(case)


# ---- reproducibility settings --------------------------------------------------------------


def test_thread_count_and_deterministic_algorithms_are_kept():
    def case(torch):
        before = torch.get_num_threads()
        torch.set_num_threads(1)
        one = torch.get_num_threads()
        torch.set_num_threads(before)  # the tests after this one run as before
        torch.use_deterministic_algorithms(True, warn_only=True)
        flags = (torch.are_deterministic_algorithms_enabled(),
                 torch.is_deterministic_algorithms_warn_only_enabled())
        torch.use_deterministic_algorithms(False)
        return (before > 0, one, flags, torch.are_deterministic_algorithms_enabled(),
                torch.is_deterministic_algorithms_warn_only_enabled())
    check(case)


@pytest.mark.parametrize("misuse", [
    "torch.set_num_threads(0)", "torch.set_num_threads(-1)", "torch.set_num_threads(2.5)",
    "torch.set_num_threads('2')", "torch.use_deterministic_algorithms('yes')",
])
def test_settings_misuse_raises_torchs_error(misuse):
    assert_same_error(lambda torch: eval(misuse))


# ---- reading numbers out -------------------------------------------------------------------

# Each conversion in a fresh process: PyTorch gives this warning once per process.
_SCALAR_OF_A_TENSOR_THAT_REQUIRES_GRAD = """
import warnings
import {library} as torch
loss = (torch.tensor([1.5, 2.0], requires_grad=True) ** 2).mean()
def without_grad_mode():  # no warning, and the one warning is still to come
    with torch.no_grad():
        return float(loss)
for convert in (lambda: loss.item(), without_grad_mode, lambda: int(loss),
                lambda: f"{{loss:.3f}}", lambda: float(loss), lambda: "%.3f" % loss,
                lambda: float(loss.detach())):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = convert()
    print(repr(value), [str(w.message).split(" (Triggered")[0] for w in caught])
"""


def test_float_of_a_tensor_that_requires_grad_warns_once_as_torch():
    root = os.path.dirname(os.path.dirname(compat.__file__))
    outputs = [subprocess.run([sys.executable, "-c", _SCALAR_OF_A_TENSOR_THAT_REQUIRES_GRAD
                               .format(library=library)], capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": root}, check=True).stdout
               for library in ("compat", "torch")]
    assert outputs[0] == outputs[1], f"compat:\n{outputs[0]}torch:\n{outputs[1]}"
    assert "Consider using tensor.detach() first." in outputs[0]
