"""compat.nn against torch.nn 2.13: after the same seed, the same parameters; on the same
inputs, the same outputs (with PyTorch's grad_fn names), gradients, printed reprs, state
dicts, warnings and error texts."""
import copy
import pickle
import warnings
from collections import OrderedDict

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from compat_harness import (LIBRARIES, Raised, assert_same, assert_same_error, check,
                            check_printed, gradients, graph, run_both, seeded)


def check_seeded(case, seed=0, **options):
    return check(seeded(case, seed), **options)


def parameters(module):
    return list(module.named_parameters())


# ---- initialisation ----------------------------------------------------------------------


@given(seed=st.integers(0, 2**32 - 1), in_features=st.integers(1, 40),
       out_features=st.integers(1, 40), bias=st.booleans())
def test_linear_has_torchs_weights_after_the_same_seed(seed, in_features, out_features, bias):
    check_seeded(lambda torch: parameters(torch.nn.Linear(in_features, out_features, bias)),
                 seed, rtol=0, atol=0)


def test_linear_in_float64_and_following_draws():
    def case(torch):
        layer = torch.nn.Linear(5, 3, dtype=torch.float64)
        return parameters(layer), torch.rand(2)  # the stream continues where torch's does
    check_seeded(case, rtol=0, atol=0)


@given(seed=st.integers(0, 2**32 - 1), rows=st.integers(1, 30), columns=st.integers(1, 20))
def test_embedding_has_torchs_weights(seed, rows, columns):
    check_seeded(lambda torch: parameters(torch.nn.Embedding(rows, columns, padding_idx=-1)),
                 seed, rtol=0, atol=0)


@pytest.mark.parametrize("name, arguments", [
    ("uniform_", (-2.0, 3.0)), ("normal_", (1.0, 0.5)), ("constant_", (0.25,)),
    ("ones_", ()), ("zeros_", ()), ("xavier_uniform_", (1.5,)), ("xavier_normal_", ()),
    ("kaiming_uniform_", (0, "fan_out", "relu")), ("kaiming_normal_", (0.1,)),
])
def test_init_functions_draw_what_torch_draws(name, arguments):
    def case(torch):
        weight = torch.nn.Parameter(torch.empty(7, 5))
        result = getattr(torch.nn.init, name)(weight, *arguments)
        return result is weight, weight
    check_seeded(case, seed=3, rtol=0, atol=0)


@pytest.mark.parametrize("nonlinearity, param", [
    ("linear", None), ("sigmoid", None), ("tanh", None), ("relu", None), ("leaky_relu", None),
    ("leaky_relu", 0.2), ("selu", None)])
def test_calculate_gain(nonlinearity, param):
    check(lambda torch: torch.nn.init.calculate_gain(nonlinearity, param))


# ---- layers: outputs and gradients -------------------------------------------------------


def _mlp(torch):
    return torch.nn.Sequential(
        torch.nn.Flatten(), torch.nn.Linear(12, 8), torch.nn.ReLU(), torch.nn.Dropout(0.25),
        torch.nn.Linear(8, 6), torch.nn.Tanh(), torch.nn.Linear(6, 5), torch.nn.Sigmoid(),
        torch.nn.Linear(5, 4), torch.nn.LogSoftmax(dim=1))


@given(seed=st.integers(0, 2**32 - 1), batch=st.integers(1, 9))
def test_a_network_computes_what_torch_computes(seed, batch):
    def case(torch):
        model = _mlp(torch)
        x = torch.randn(batch, 3, 4)
        target = torch.randint(0, 4, (batch,))
        out = model(x)
        loss = torch.nn.functional.nll_loss(out, target)
        loss.backward()
        return out, loss, gradients(model)
    check_seeded(case, seed)


@pytest.mark.parametrize("layer", ["ReLU", "Tanh", "Sigmoid", "Softmax", "LogSoftmax"])
def test_activation_modules(layer):
    def case(torch):
        module = getattr(torch.nn, layer)(**({"dim": 1} if "Softmax" in layer else {}))
        x = torch.randn(3, 4, requires_grad=True)
        out = module(x)
        (out * torch.randn(3, 4)).sum().backward()
        return out, x.grad
    check_seeded(case)


@pytest.mark.parametrize("shape", [(3,), (2, 3), (4, 2, 3)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_on_inputs_of_any_rank(shape, bias):
    def case(torch):
        layer = torch.nn.Linear(3, 2, bias=bias)
        x = torch.randn(*shape, requires_grad=True)
        out = layer(x)
        (out ** 2).sum().backward()
        return out, x.grad, gradients(layer)
    check_seeded(case)


def _history(fn):
    """The names of grad_fn `fn` and of all the nodes behind it, nested as next_functions."""
    if fn is None:
        return None
    return type(fn).__name__, [_history(f) for f, _ in fn.next_functions]


@pytest.mark.parametrize("make_input", [
    "torch.randn(3)", "torch.randn(6)[::2]", "torch.randn(2, 3)", "torch.randn(3, 2).t()",
    "torch.randn(5, 2, 3)", "torch.randn(2, 5, 3).transpose(0, 1)", "torch.randn(2, 2, 5, 3)",
    "torch.randn(0, 3)", "torch.randn(5, 1, 3).expand(5, 2, 3)"])
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("input_requires_grad", [True, False])
def test_linear_records_torchs_graph(make_input, bias, input_requires_grad):
    """addmm (or mm) of the weight's transpose, with the views and folds around it that
    PyTorch's linear records for each rank and layout of the input."""
    def case(torch):
        weight = torch.randn(4, 3, requires_grad=True)
        b = torch.randn(4, requires_grad=True) if bias else None
        x = eval(make_input).requires_grad_(input_requires_grad)
        out = torch.nn.functional.linear(x, weight, b)
        return out, _history(out.grad_fn)
    check_seeded(case)


@pytest.mark.parametrize("make_input", ["torch.randn(3)", "torch.randn(2, 3)",
                                        "torch.randn(5, 2, 3)"])
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("update", ["layer.weight.add_(1)", "x.add_(1)", "x[0].mul_(2)"])
@pytest.mark.parametrize("input_requires_grad", [True, False])
def test_linear_saves_what_torch_saves(make_input, bias, update, input_requires_grad):
    """An in-place update after the forward fails backward where PyTorch's does, with its
    text (the weight's transpose saved as a view: 'output 0 of AsStrided')."""
    def case(torch):
        layer = torch.nn.Linear(3, 4, bias=bias)
        x = eval(make_input).requires_grad_(input_requires_grad)
        out = layer(x)
        with torch.no_grad():
            exec(update)
        out.sum().backward()
        return layer.weight.grad
    check_seeded(case, messages=True)


def test_embedding_lookup_and_padding_gradient():
    def case(torch):
        table = torch.nn.Embedding(6, 3, padding_idx=2)
        indices = torch.tensor([[0, 2, 5], [2, 2, 1]])
        out = table(indices)
        (out * torch.randn(2, 3, 3)).sum().backward()
        return out, table.weight.grad
    check_seeded(case)


@pytest.mark.parametrize("freeze", [True, False])
def test_embedding_from_pretrained(freeze):
    def case(torch):
        table = torch.nn.Embedding.from_pretrained(torch.randn(4, 2), freeze=freeze)
        out = table(torch.tensor([3, 0, 3]))
        if not freeze:
            out.sum().backward()
        return out, table.weight.requires_grad, table.weight.grad, repr(table)
    check_seeded(case)


@pytest.mark.parametrize("p", [0.0, 0.1, 0.5, 0.9, 1.0])
def test_dropout_draws_torchs_mask(p):
    def case(torch):
        x = torch.randn(5, 7, requires_grad=True)
        dropout = torch.nn.Dropout(p)
        out = dropout(x)
        out.sum().backward()
        dropout.eval()
        return out, x.grad, dropout(x) is x, torch.rand(1)
    check_seeded(case, grad_fn_names=p not in (0.0,))


def test_dropout_in_place_and_functional_training_flag():
    def case(torch):
        x = torch.randn(4, 4)
        y = torch.nn.functional.dropout(x, 0.3, training=False)
        torch.nn.functional.dropout(x, 0.3, inplace=True)
        return y is x, x
    check_seeded(case)


@pytest.mark.parametrize("layer, shape", [
    ("AlphaDropout(0.3)", (5, 7)), ("AlphaDropout(1.0)", (3, 2)), ("AlphaDropout(0.0)", (3,)),
    ("FeatureAlphaDropout(0.5)", (4, 3, 2)), ("FeatureAlphaDropout(0.2, True)", (3, 5)),
])
def test_alpha_dropout_draws_torchs_masks(layer, shape):
    def case(torch):
        x = torch.randn(*shape, requires_grad=True)
        dropout = eval(f"torch.nn.{layer}")
        out = dropout(x * 1)
        (out * torch.arange(out.numel(), dtype=out.dtype).reshape(out.shape)).sum().backward()
        dropout.eval()
        return repr(dropout), out, x.grad, dropout(x) is x, torch.rand(1)
    check_seeded(case)


def test_alpha_dropout_functions():
    def case(torch):
        F = torch.nn.functional
        x = torch.randn(3, 4)
        return (F.alpha_dropout(x, 0.5) is x, F.alpha_dropout(x, 0.4, True),
                F.feature_alpha_dropout(x[None], 0.4, True), F.alpha_dropout(x, 0.4, True, True),
                x)
    check_seeded(case)


def test_flatten_dims():
    def case(torch):
        x = torch.randn(2, 3, 4, 5)
        return (torch.nn.Flatten()(x).shape, torch.nn.Flatten(0, 2)(x).shape,
                torch.nn.Flatten(2)(x).shape)
    check_seeded(case)


# ---- losses ------------------------------------------------------------------------------

REDUCTIONS = ["mean", "sum", "none"]


def _loss_case(make_inputs, loss_name, **options):
    def case(torch):
        input, target = make_inputs(torch)
        loss = getattr(torch.nn, loss_name)(**options)(input, target)
        loss.backward(torch.ones_like(loss))
        return loss, input.grad
    return case


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_mse_loss(reduction):
    check_seeded(_loss_case(lambda torch: (torch.randn(4, 3, requires_grad=True),
                                           torch.randn(4, 3)), "MSELoss", reduction=reduction))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("ignore_index", [-100, 1])
def test_cross_entropy_and_nll_with_class_targets(reduction, weighted, ignore_index):
    def inputs(torch):
        return torch.randn(6, 4, requires_grad=True), torch.tensor([0, 1, 3, 1, 2, 1])
    for name in ("CrossEntropyLoss", "NLLLoss"):
        def case(torch, name=name):
            weight = torch.rand(4) if weighted else None
            return _loss_case(inputs, name, weight=weight, reduction=reduction,
                              ignore_index=ignore_index)(torch)
        check_seeded(case)


@pytest.mark.parametrize("shape, target_shape", [((4,), ()), ((2, 4, 3, 2), (2, 3, 2))])
def test_cross_entropy_on_one_sample_and_spatial_inputs(shape, target_shape):
    def case(torch):
        input = torch.randn(*shape, requires_grad=True)
        target = torch.randint(0, 4, target_shape)
        loss = torch.nn.functional.cross_entropy(input, target)
        loss.backward()
        return loss, input.grad
    check_seeded(case)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_with_probability_targets(reduction):
    def case(torch):
        input = torch.randn(5, 3, requires_grad=True)
        target = torch.softmax(torch.randn(5, 3), 1)
        loss = torch.nn.functional.cross_entropy(input, target, weight=torch.rand(3),
                                                 reduction=reduction)
        loss.backward(torch.ones_like(loss))
        return loss, input.grad
    check_seeded(case)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_bce_loss(reduction):
    def inputs(torch):
        return (torch.rand(3, 4).clamp(0.01, 0.99).requires_grad_(),
                torch.randint(0, 2, (3, 4)).float())
    check_seeded(_loss_case(inputs, "BCELoss", reduction=reduction))


def test_bce_loss_at_zero_and_one_is_clamped():
    def case(torch):
        input = torch.tensor([0.0, 1.0, 0.5])
        return torch.nn.functional.binary_cross_entropy(input, torch.tensor([1.0, 0.0, 1.0]),
                                                        reduction="none")
    check(case)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
def test_bce_with_logits_loss(reduction, weighted):
    def case(torch):
        input = (torch.randn(3, 4) * 30).requires_grad_()  # far into both tails
        input.data[0, 0] = 0.0
        target = torch.rand(3, 4)
        options = dict(weight=torch.rand(4), pos_weight=torch.rand(4) * 3) if weighted else {}
        loss = torch.nn.BCEWithLogitsLoss(reduction=reduction, **options)(input, target)
        loss.backward(torch.ones_like(loss))
        return loss, input.grad
    check_seeded(case)


@pytest.mark.parametrize("reduction", REDUCTIONS + ["batchmean"])
@pytest.mark.parametrize("log_target", [False, True])
@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 5), ()])
def test_kl_div_loss(reduction, log_target, shape):
    def case(torch):
        input = (torch.randn(shape).log_softmax(-1) if shape else torch.rand(()).log())
        input.requires_grad_()
        target = torch.rand(shape)
        if shape:
            target[0] = 0.0  # 0 log 0 is 0
        target = (target.log() if log_target else target).requires_grad_(not log_target)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            loss = torch.nn.KLDivLoss(reduction=reduction, log_target=log_target)(input, target)
        loss.backward(torch.ones_like(loss))
        return (loss, graph(loss), input.grad, None if log_target else target.grad,
                [str(w.message) for w in caught])
    check_seeded(case)


def test_kl_div_in_float64_legacy_flags_and_printing():
    def case(torch):
        input = torch.randn(3, 4, dtype=torch.float64).log_softmax(1)
        target = torch.rand(3, 4, dtype=torch.float64)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            losses = (torch.nn.functional.kl_div(input, target, size_average=False),
                      torch.nn.functional.kl_div(input, target, reduce=False),
                      torch.nn.KLDivLoss(reduce=False).reduction)
        return losses, [str(w.message) for w in caught], repr(torch.nn.KLDivLoss(
            reduction="batchmean", log_target=True))
    check_seeded(case)


def test_legacy_size_average_and_reduce_warn_and_reduce_alike():
    def case(torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            loss = torch.nn.MSELoss(size_average=False)
            value = loss(torch.ones(2), torch.zeros(2))
        return loss.reduction, value, [str(w.message) for w in caught]
    check(case)


def test_mse_with_a_broadcast_target_warns_as_torch():
    def case(torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = torch.nn.functional.mse_loss(torch.ones(3, 1), torch.zeros(3))
        return value, [(w.category.__name__, str(w.message)) for w in caught]
    check(case)


# ---- misuse: PyTorch's error texts --------------------------------------------------------


class _NoInit:
    """Module subclasses whose __init__ forgets super().__init__()."""

    @staticmethod
    def parameter(torch):
        class Model(torch.nn.Module):
            def __init__(self):
                self.w = torch.nn.Parameter(torch.zeros(1))
        return Model()

    @staticmethod
    def module(torch):
        class Model(torch.nn.Module):
            def __init__(self):
                self.layer = torch.nn.Linear(1, 1)
        return Model()


MISUSES = {
    "wrong in_features": lambda torch: torch.nn.Linear(3, 4)(torch.randn(2, 5)),
    "wrong features, 1-d": lambda torch: torch.nn.Linear(3, 4)(torch.randn(5)),
    "wrong features, 3-d": lambda torch: torch.nn.Linear(3, 4)(torch.randn(2, 2, 5)),
    "double input": lambda torch: torch.nn.Linear(3, 4)(torch.randn(2, 3).double()),
    "integer input": lambda torch: torch.nn.Linear(3, 4)(torch.tensor([[1, 2, 3]])),
    "float class targets": lambda torch: torch.nn.functional.cross_entropy(
        torch.randn(2, 3), torch.tensor([0.0, 1.0])),
    "target out of range": lambda torch: torch.nn.functional.cross_entropy(
        torch.randn(2, 3), torch.tensor([0, 3])),
    "negative target": lambda torch: torch.nn.functional.nll_loss(
        torch.randn(2, 3), torch.tensor([0, -1])),
    "batch sizes differ": lambda torch: torch.nn.functional.cross_entropy(
        torch.randn(2, 3), torch.tensor([0, 1, 2])),
    "target of one row": lambda torch: torch.nn.functional.nll_loss(
        torch.randn(2, 3), torch.tensor([[0, 1]])),
    "multi-target": lambda torch: torch.nn.functional.nll_loss(
        torch.randn(2, 3), torch.tensor([[0, 1], [1, 0]])),
    "mse shapes": lambda torch: torch.nn.functional.mse_loss(torch.randn(2, 3), torch.randn(4)),
    "bce target size": lambda torch: torch.nn.functional.binary_cross_entropy(
        torch.rand(2, 1), torch.rand(2)),
    "bce input range": lambda torch: torch.nn.functional.binary_cross_entropy(
        torch.rand(2) + 5, torch.rand(2)),
    "bce integer target": lambda torch: torch.nn.functional.binary_cross_entropy(
        torch.rand(2), torch.tensor([0, 1])),
    "logits target size": lambda torch: torch.nn.functional.binary_cross_entropy_with_logits(
        torch.rand(2, 1), torch.rand(2)),
    "logits integer target": lambda torch: (
        torch.nn.functional.binary_cross_entropy_with_logits(torch.rand(2),
                                                             torch.tensor([0, 1]))),
    "embedding index": lambda torch: torch.nn.Embedding(3, 2)(torch.tensor([3])),
    "embedding float index": lambda torch: torch.nn.Embedding(3, 2)(torch.tensor([1.0])),
    "no forward": lambda torch: torch.nn.Module()(1),
    "parameter before init": _NoInit.parameter,
    "module before init": _NoInit.module,
    "tensor as parameter": lambda torch: setattr(torch.nn.Linear(3, 4), "weight",
                                                 torch.zeros(2)),
    "unknown attribute": lambda torch: torch.nn.Linear(3, 4).foo,
    "dropout probability": lambda torch: torch.nn.Dropout(1.5),
    "alpha dropout probability": lambda torch: torch.nn.functional.alpha_dropout(
        torch.ones(2), -0.5),
    "feature alpha dropout rank": lambda torch: torch.nn.functional.feature_alpha_dropout(
        torch.ones(2), 0.5, True),
    "integer parameter": lambda torch: torch.nn.Parameter(torch.tensor([1, 2])),
    "missing key": lambda torch: torch.nn.Linear(3, 4).load_state_dict(
        {"weight": torch.zeros(4, 3)}),
    "unexpected key": lambda torch: torch.nn.Linear(3, 4).load_state_dict(
        {"weight": torch.zeros(4, 3), "bias": torch.zeros(4), "x": torch.zeros(1)}),
    "size mismatch": lambda torch: torch.nn.Linear(3, 4).load_state_dict(
        {"weight": torch.zeros(2, 3), "bias": torch.zeros(4)}),
    "class weights": lambda torch: torch.nn.functional.cross_entropy(
        torch.randn(2, 3), torch.tensor([0, 1]), weight=torch.ones(2)),
    "bad reduction": lambda torch: torch.nn.functional.mse_loss(
        torch.zeros(2), torch.zeros(2), reduction="average"),
    "bad reduction of a module, when used": lambda torch: torch.nn.MSELoss(
        reduction="batchmean")(torch.zeros(2), torch.zeros(2)),
    "kl_div reduction": lambda torch: torch.nn.functional.kl_div(
        torch.zeros(2), torch.zeros(2), reduction="bad"),
    "kl_div integer target": lambda torch: torch.nn.functional.kl_div(
        torch.zeros(2), torch.ones(2, dtype=torch.long), reduction="sum"),
    "kl_div shapes": lambda torch: torch.nn.functional.kl_div(
        torch.zeros(3, 4), torch.ones(2, 4), reduction="sum"),
}


@pytest.mark.parametrize("misuse", list(MISUSES))
def test_misuse_raises_torchs_error(misuse):
    assert_same_error(MISUSES[misuse])


# ---- Module bookkeeping --------------------------------------------------------------------


def _nested(torch):
    class Block(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.scale = torch.nn.Parameter(torch.ones(2))
            self.register_buffer("count", torch.zeros(1))
            self.register_buffer("scratch", torch.zeros(1), persistent=False)
            self.body = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU())

        def forward(self, x):
            return self.body(x) * self.scale

    class Model(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.first = Block()
            self.second = Block()
            self.shared = self.first.body  # registered twice: listed once
            self.head = torch.nn.Linear(2, 1, bias=False)

        def forward(self, x):
            return self.head(self.second(self.first(x)))
    return Model()


def test_walking_a_model():
    def case(torch):
        model = _nested(torch)
        return ([name for name, _ in model.named_parameters()],
                [name for name, _ in model.named_buffers()],
                [name for name, _ in model.named_modules()],
                [name for name, _ in model.named_children()],
                [type(m).__name__ for m in model.modules()],
                len(list(model.parameters())), len(list(model.children())),
                [name for name, _ in model.named_parameters(recurse=False)])
    check_seeded(case)


def test_state_dict_and_loading_it():
    def case(torch):
        model = _nested(torch)
        state = model.state_dict()
        other = _nested(torch)
        result = other.load_state_dict(state)
        loose = other.load_state_dict(OrderedDict(list(state.items())[1:]), strict=False)
        return (type(state).__name__, list(state), state, repr(result), repr(loose),
                parameters(other), state["first.scale"].requires_grad)
    check_seeded(case)


def test_state_dict_shares_storage_and_keep_vars():
    def case(torch):
        layer = torch.nn.Linear(2, 2)
        state = layer.state_dict()
        with torch.no_grad():
            layer.weight.add_(1)
        kept = layer.state_dict(keep_vars=True)
        return state["weight"], kept["weight"] is layer.weight
    check_seeded(case)


def test_train_eval_and_requires_grad():
    def case(torch):
        model = _nested(torch)
        model.eval()
        flags = [m.training for m in model.modules()]
        model.train()
        model.first.requires_grad_(False)
        return flags, [m.training for m in model.modules()], [
            p.requires_grad for p in model.parameters()]
    check_seeded(case)


@pytest.mark.parametrize("set_to_none", [True, False])
def test_module_zero_grad(set_to_none):
    def case(torch):
        model = _nested(torch)
        model(torch.randn(3, 2)).sum().backward()
        model.zero_grad(set_to_none=set_to_none)
        return [p.grad for p in model.parameters()]
    check_seeded(case)


def test_forward_hooks():
    def case(torch):
        layer = torch.nn.Linear(2, 2)
        seen = []
        pre = layer.register_forward_pre_hook(lambda module, args: (args[0] * 2,))
        post = layer.register_forward_hook(
            lambda module, args, output: seen.append((type(module).__name__, args[0])) or
            output + 1)
        x = torch.ones(1, 2)
        hooked = layer(x)
        pre.remove()
        post.remove()
        return hooked, layer(x), seen
    check_seeded(case)


def test_setattr_replaces_and_deletes_registrations():
    def case(torch):
        model = torch.nn.Module()
        model.a = torch.nn.Linear(1, 1)
        model.a = torch.nn.Parameter(torch.ones(1))
        model.b = torch.nn.Linear(1, 1)
        del model.b
        model.c = None
        return [n for n, _ in model.named_parameters()], list(model.named_children()), model.c
    check_seeded(case)


def test_converting_dtype_keeps_the_parameters():
    def case(torch):
        layer = torch.nn.Linear(2, 3)
        weight = layer.weight
        layer.double()
        return layer.weight is weight, layer.weight, layer(torch.ones(1, 2).double())
    check_seeded(case)


def test_deepcopy_and_pickle_of_a_model():
    def case(torch):
        model = _nested(torch)
        clone = copy.deepcopy(model)
        restored = pickle.loads(pickle.dumps(model))
        return (parameters(clone), type(clone.first.scale).__name__,
                clone.shared is clone.first.body, parameters(restored))
    check_seeded(case)


def test_sequential_indexing():
    def case(torch):
        model = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1))
        part = model[:2]
        model.append(torch.nn.Sigmoid())
        del model[1]
        named = torch.nn.Sequential(OrderedDict([("fc", torch.nn.Linear(1, 1)),
                                                 ("act", torch.nn.Tanh())]))
        return (repr(part), type(model[-1]).__name__, len(model), list(model.state_dict()),
                repr(named), named.fc is named[0])
    check_seeded(case)


# ---- printing ----------------------------------------------------------------------------


def test_module_reprs_print_as_torchs():
    def case(torch):
        nn = torch.nn
        print(_mlp(torch))
        print(_nested(torch))
        print(nn.Linear(3, 4, bias=False), nn.ReLU(inplace=True), nn.Softmax(), nn.Dropout())
        print(nn.Embedding(10, 3), nn.Embedding(10, 3, padding_idx=0), nn.Flatten(0, 2))
        print(nn.MSELoss(), nn.CrossEntropyLoss(), nn.NLLLoss(), nn.BCELoss(),
              nn.BCEWithLogitsLoss(), nn.Identity(), nn.KLDivLoss())
        print(nn.LogSigmoid(), nn.Hardtanh(), nn.Hardtanh(-2, 3, True), nn.ReLU6(),
              nn.ReLU6(inplace=True), nn.PReLU(), nn.PReLU(3, 0.1), nn.Mish(inplace=True),
              nn.SELU(), nn.SELU(inplace=True), nn.Softmin(), nn.Softmin(1), nn.Hardswish(True),
              nn.Hardsigmoid(inplace=True), nn.Tanhshrink(), nn.Softsign(), nn.Mish())
        print(nn.Sequential())
    check_printed(seeded(case))


def test_parameter_prints_and_behaves_as_torchs():
    def case(torch):
        p = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
        print(p)
        print(repr(p * 2), isinstance(p, torch.Tensor), p.is_leaf, p.requires_grad)
        frozen = torch.nn.Parameter(torch.ones(1), requires_grad=False)
        print(frozen, type(p.detach()).__name__, type(p.data).__name__)
    check_printed(case)


def test_a_printed_loss_reads_as_torchs():
    def case(torch):
        model = torch.nn.Linear(3, 2)
        out = model(torch.randn(4, 3))
        print(out)
        print(torch.nn.CrossEntropyLoss()(out, torch.tensor([0, 1, 1, 0])))
        print(torch.nn.MSELoss()(out, torch.zeros(4, 2)))
        print(torch.nn.BCEWithLogitsLoss()(out, torch.ones(4, 2)))
        print(torch.nn.BCELoss()(out.sigmoid(), torch.ones(4, 2)))
    check_printed(seeded(case), rtol=1e-4)


def test_parameters_work_in_every_operation_kind():
    def case(torch):
        p = torch.nn.Parameter(torch.tensor([[0.5, -1.0], [2.0, 0.25]]))
        results = [p + 1, 2 * p, p @ p, p.sigmoid(), p.exp(), p.sum(1), p[0], p.t(),
                   torch.cat([p, p]), p.clamp(0, 1), p.double(), -p]
        sum(r.double().sum() for r in results).backward()
        return results, p.grad
    check(case)


@pytest.fixture(autouse=True)
def _reseed_after():
    yield
    for library in LIBRARIES.values():
        library.manual_seed(0)


def test_numpy_inputs_are_refused_clearly():
    layer_errors = run_both(lambda torch: torch.nn.Linear(2, 2)(np.ones((1, 2), np.float32)))
    assert all(isinstance(e, Raised) for e in layer_errors)
    assert_same(*layer_errors)


# ---- ParameterList and ParameterDict -----------------------------------------------------


def test_parameter_list_registers_prints_and_trains_as_torch():
    def case(torch):
        class Model(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.weights = torch.nn.ParameterList(
                    [torch.nn.Parameter(torch.randn(3, 3)) for _ in range(2)])
                self.weights.append(torch.randn(3))  # a plain tensor becomes a Parameter
                self.weights.extend([torch.nn.Parameter(torch.randn(3, dtype=torch.float64))])

            def forward(self, x):
                for w in self.weights[:2]:
                    x = torch.tanh(x @ w)
                return (x * self.weights[2]).sum() + self.weights[-1].sum()

        model = Model()
        model(torch.randn(4, 3)).backward()
        other = torch.nn.ParameterList([torch.ones(2), "text", 3])
        other[0] = torch.zeros(4)
        return (repr(model), repr(other), repr(torch.nn.ParameterList()),
                repr(torch.nn.ParameterList([torch.ones(2)])), len(model.weights),
                [type(w).__name__ for w in model.weights], gradients(model),
                list(model.state_dict()), other[0], other[-1], repr(model.weights[1:]))
    check_seeded(case)


def test_parameter_dict_registers_and_prints_as_torch():
    def case(torch):
        params = torch.nn.ParameterDict({"b": torch.nn.Parameter(torch.randn(2)),
                                         "a": torch.randn(1, 3)})
        params.update([("c", torch.nn.Parameter(torch.randn(2, dtype=torch.float64)))])
        params["d"] = "not a tensor"
        loss = (params["a"].sum() * params["b"]).sum() + params.get("c").sum()
        loss.backward()
        popped = params.pop("d")
        return (repr(params), list(params), list(params.keys()), "a" in params, len(params),
                [(name, p.grad) for name, p in params.named_parameters()], popped,
                params.setdefault("e", torch.ones(1)), repr(params), params.get("zz"))
    check_seeded(case)


@pytest.mark.parametrize("code", [
    "torch.nn.ParameterList([torch.ones(1)])[3]",
    "torch.nn.ParameterList().extend(3)",
    "torch.nn.ParameterList().extend(torch.ones(2))",
    "torch.nn.ParameterDict()['missing']",
    "torch.nn.ParameterDict().update(3)",
])
def test_parameter_containers_refuse_as_torch(code):
    assert_same_error(lambda torch: eval(code, {"torch": torch}))
