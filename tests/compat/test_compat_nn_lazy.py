"""compat.nn's lazy modules, uninitialized parameters and buffers, and nn.Buffer against
torch 2.13: reprs and state_dicts before the first forward; after it (and the same seed)
the same class, weights bit for bit, outputs and gradients; loading state_dicts; and the
errors for using what is not initialized, word for word."""
import copy
import pickle
import warnings

import numpy as np
import pytest

from compat_harness import (assert_same_error, check, check_printed, gradients, run_both,
                            seeded)

# (class name, args, kwargs, input shape)
LAZY_LAYERS = [
    ("LazyLinear", (4,), {}, (2, 3)),
    ("LazyLinear", (2,), {"bias": False}, (5,)),
    ("LazyLinear", (3,), {"dtype": "float64"}, (2, 2, 6)),
    ("LazyConv1d", (4, 3), {}, (2, 3, 9)),
    ("LazyConv1d", (4, 2), {"groups": 2, "padding": 1}, (6, 8)),
    ("LazyConv2d", (3, (2, 3)), {"stride": 2, "bias": False}, (2, 2, 7, 8)),
    ("LazyConv3d", (2, 2), {"padding_mode": "circular", "padding": 1}, (1, 2, 4, 5, 3)),
    ("LazyConvTranspose1d", (3, 3), {"stride": 2, "output_padding": 1}, (2, 4, 5)),
    ("LazyConvTranspose2d", (4, 2), {"groups": 2, "dilation": 2}, (1, 2, 4, 4)),
    ("LazyConvTranspose3d", (2, 2), {"bias": False}, (1, 3, 3, 2, 3)),
    ("LazyBatchNorm1d", (), {}, (4, 3)),
    ("LazyBatchNorm1d", (), {"momentum": None}, (4, 3, 5)),
    ("LazyBatchNorm2d", (), {"affine": False}, (2, 3, 4, 4)),
    ("LazyBatchNorm3d", (), {"track_running_stats": False}, (2, 2, 3, 2, 3)),
    ("LazyBatchNorm2d", (), {"bias": False, "eps": 1e-3}, (3, 2, 3, 3)),
    ("LazyInstanceNorm1d", (), {}, (2, 3, 6)),
    ("LazyInstanceNorm2d", (), {"affine": False, "track_running_stats": False}, (2, 3, 4, 5)),
    ("LazyInstanceNorm3d", (), {"bias": False}, (2, 2, 3, 3, 3)),
]


def _build(torch, name, args, kwargs):
    kwargs = dict(kwargs)
    if "dtype" in kwargs:
        kwargs["dtype"] = getattr(torch, kwargs["dtype"])
    return getattr(torch.nn, name)(*args, **kwargs)


def _dtype_of(kwargs):
    return kwargs.get("dtype", "float32")


@pytest.mark.parametrize("name, args, kwargs, shape", LAZY_LAYERS)
def test_before_the_first_forward(name, args, kwargs, shape):
    def case(torch):
        m = _build(torch, name, args, kwargs)
        return (repr(m), type(m).__name__, m.has_uninitialized_params(),
                [(key, repr(value)) for key, value in m.state_dict().items()],
                [type(b).__name__ for b in m.buffers()],
                [(n, type(p).__name__, p.requires_grad, p.dtype, p.size())
                 for n, p in m.named_parameters()])
    check(case)


# Without affine parameters or running statistics, a lazy instance norm has nothing to
# infer num_features for: it stays 0, and both libraries warn of the unused size.
@pytest.mark.filterwarnings("ignore:input's size at dim=1 does not match num_features")
@pytest.mark.parametrize("name, args, kwargs, shape", LAZY_LAYERS)
def test_the_first_forward_draws_as_pytorch(name, args, kwargs, shape):
    def case(torch):
        m = _build(torch, name, args, kwargs)
        x = torch.randn(shape, dtype=getattr(torch, _dtype_of(kwargs)), requires_grad=True)
        out = m(x)
        (out * torch.randn(out.shape, dtype=out.dtype)).sum().backward()
        parameters = [(n, type(p).__name__, p.detach()) for n, p in m.named_parameters()]
        buffers = [(n, type(b).__name__ == "Tensor" or type(b).__name__ == "Buffer", b)
                   for n, b in m.named_buffers()]
        return (type(m).__name__, repr(m), m.has_uninitialized_params()
                if hasattr(m, "has_uninitialized_params") else None, out, x.grad,
                gradients(m), parameters, buffers)
    ours, theirs = run_both(seeded(case))
    check(seeded(case), rtol=1e-5, atol=1e-6)
    for (name_a, _, ours_p), (name_b, _, theirs_p) in zip(ours[6], theirs[6]):
        assert name_a == name_b
        assert np.array_equal(ours_p.numpy(), theirs_p.numpy()), f"{name_a} not bit for bit"


def test_a_later_forward_keeps_the_module():
    def case(torch):
        m = torch.nn.LazyLinear(3)
        first = m(torch.randn(2, 4))
        second = m(torch.randn(5, 4))
        return type(m).__name__, first, second, hasattr(m, "_initialize_hook")
    check(seeded(case))


def test_initialize_parameters_directly_and_dtype_conversion_before():
    def case(torch):
        m = torch.nn.LazyConv2d(2, 3)
        m.double()
        m.initialize_parameters(torch.ones(1, 5, 6, 6, dtype=torch.float64))
        still_lazy = type(m).__name__
        out = m(torch.ones(1, 5, 6, 6, dtype=torch.float64))
        return still_lazy, m.in_channels, m.weight, m.bias, out, type(m).__name__
    check(seeded(case), rtol=1e-12, atol=1e-12)


def test_loading_a_state_dict_materializes():
    def case(torch):
        source = torch.nn.Linear(3, 4)
        m = torch.nn.LazyLinear(4)
        result = m.load_state_dict(source.state_dict())
        return (repr(result), type(m).__name__, m.in_features, m.has_uninitialized_params(),
                m.weight, m.bias, m(torch.ones(2, 3)), type(m).__name__, m.in_features)
    check(seeded(case))


def test_loading_partial_and_lazy_state_dicts():
    def case(torch):
        m = torch.nn.LazyLinear(4)
        partial = repr(m.load_state_dict({"weight": torch.ones(4, 3)}, strict=False))
        lazy = torch.nn.LazyBatchNorm1d()
        from_lazy = repr(lazy.load_state_dict(torch.nn.LazyBatchNorm1d().state_dict()))
        return (partial, m.has_uninitialized_params(), repr(m.bias), m.weight.detach(),
                from_lazy, lazy.has_uninitialized_params(), repr(lazy.running_mean))
    check(case)


def test_a_loaded_weight_that_the_input_does_not_fit():
    def case(torch):
        m = torch.nn.LazyLinear(4)
        m.load_state_dict(torch.nn.Linear(3, 4).state_dict())
        return m(torch.ones(2, 5))
    assert_same_error(case)


def test_loading_an_uninitialized_state_dict_into_an_initialized_module():
    assert_same_error(lambda torch: torch.nn.Linear(3, 4).load_state_dict(
        torch.nn.LazyLinear(4).state_dict()))


@pytest.mark.parametrize("case", [
    lambda torch: torch.nn.LazyConv2d(4, 3, groups=2)(torch.ones(1, 3, 5, 5)),
    lambda torch: torch.nn.LazyConv2d(4, 3)(torch.ones(3, 5)),
    lambda torch: torch.nn.LazyConvTranspose3d(4, 3)(torch.ones(2, 3)),
    lambda torch: type("Custom", (_lazy_mixin(torch), torch.nn.Module), {})()(1),
])
def test_initialization_errors(case):
    assert_same_error(case)


def _lazy_mixin(torch):
    return (torch.nn.modules.lazy if torch.__name__ == "torch" else torch.nn.lazy).LazyModuleMixin


def _uninitialized(torch):
    return torch.nn.UninitializedParameter()


# What an uninitialized parameter refuses, by method, operator and slot.
REFUSED = [
    lambda p: p.sum(), lambda p: p.detach(), lambda p: p.dim(), lambda p: p.numel(),
    lambda p: p.view(-1), lambda p: p.clone(), lambda p: p.item(), lambda p: p.tolist(),
    lambda p: p.fill_(1), lambda p: p.mul_(2), lambda p: p.requires_grad_(False),
    lambda p: p.t(), lambda p: p.numpy(), lambda p: p + 1, lambda p: 1 + p, lambda p: p * 2,
    lambda p: p / 2, lambda p: -p, lambda p: +p, lambda p: p @ p, lambda p: p == p,
    lambda p: p < 1, lambda p: p % 2, lambda p: abs(p), lambda p: bool(p), lambda p: float(p),
    lambda p: p[0], lambda p: list(p), lambda p: p & 1, lambda p: 1 | p, lambda p: ~p,
    lambda p: len(p), lambda p: 1 - p, lambda p: 2 / p, lambda p: p ** 2, lambda p: 1 in p,
    lambda p: p.shape, lambda p: p.share_memory_(),
]


@pytest.mark.parametrize("use", REFUSED)
@pytest.mark.parametrize("kind", ["UninitializedParameter", "UninitializedBuffer"])
def test_uses_of_uninitialized_tensors_are_refused(use, kind):
    def case(torch):
        tensor = getattr(torch.nn, kind)()
        return use(tensor)
    ours, theirs = run_both(case)
    assert type(ours).__name__ == type(theirs).__name__ == "Raised"
    assert ours.type == theirs.type
    mask = __import__("re").compile(r"0x[0-9a-f]+")
    assert mask.sub("0x?", ours.message) == mask.sub("0x?", theirs.message)


def test_a_function_given_an_uninitialized_parameter_raises():
    # PyTorch names its own function (`<built-in method sin ...>`); compat names NumPy's.
    def case(torch):
        return torch.sin(_uninitialized(torch))
    ours, theirs = run_both(case)
    assert ours.type == theirs.type == "ValueError"
    assert ours.message.split(" in ")[0] == theirs.message.split(" in ")[0]
    assert ours.message.split(". ", 1)[1] == theirs.message.split(". ", 1)[1]


def test_what_uninitialized_tensors_allow():
    def case(torch):
        p = torch.nn.UninitializedParameter(dtype=torch.float64)
        b = torch.nn.UninitializedBuffer(persistent=False)
        q = torch.nn.UninitializedParameter(requires_grad=False)
        return (repr(p), str(b), p.size(), p.dtype, p.requires_grad, p.is_leaf, p.grad,
                p.ndim, p.is_floating_point(), p.to(torch.float32), repr(p.double()),
                b.requires_grad, b.persistent, q.requires_grad, repr(copy.deepcopy(p)),
                copy.deepcopy(p).dtype, repr(pickle.loads(pickle.dumps(p))),
                isinstance(p, torch.nn.Parameter), isinstance(b, torch.nn.Buffer))
    check(case)


def test_materialize():
    def case(torch):
        p = torch.nn.UninitializedParameter()
        p.materialize((2, 3), dtype=torch.float64)
        b = torch.nn.UninitializedBuffer()
        b.materialize(3)
        return (type(p).__name__, p.shape, p.dtype, p.requires_grad, p.is_leaf,
                b.shape, b.requires_grad, isinstance(b, torch.nn.Buffer))
    check(case)


def test_optimizers_take_uninitialized_parameters_and_step_after_the_first_forward():
    def case(torch):
        m = torch.nn.LazyLinear(2)
        optimizers = [torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9),
                      torch.optim.Adam(m.parameters(), lr=0.01)]
        for optimizer in optimizers:
            optimizer.zero_grad()
            m(torch.randn(3, 4)).pow(2).sum().backward()
            optimizer.step()
        return m.weight.detach(), m.bias.detach()
    check(seeded(case))


def test_buffers_register_by_assignment():
    def case(torch):
        m = torch.nn.Module()
        m.register_buffer("kept", torch.ones(1), persistent=False)
        m.a = torch.nn.Buffer(torch.ones(2))
        m.b = torch.nn.Buffer(torch.zeros(3), persistent=False)
        m.kept = torch.zeros(1)
        m.u = torch.nn.UninitializedBuffer(persistent=False)
        grad = torch.nn.Buffer(torch.ones(2, requires_grad=True))
        return (list(m.state_dict()), sorted(m._non_persistent_buffers_set),
                [n for n, _ in m.named_buffers()], m.a, grad.requires_grad, grad.is_leaf,
                repr(torch.nn.Buffer()))
    check(case)


@pytest.mark.parametrize("case", [
    lambda torch: torch.nn.Buffer(3),
    lambda torch: setattr(_with_buffer(torch), "x", 3),
    lambda torch: setattr(_with_parameter(torch), "w", torch.nn.Buffer(torch.ones(1))),
    lambda torch: setattr(_with_attribute(torch), "z", torch.nn.Buffer(torch.ones(1))),
])
def test_buffer_errors(case):
    assert_same_error(case)


def _with_buffer(torch):
    m = torch.nn.Module()
    m.register_buffer("x", torch.ones(1))
    return m


def _with_parameter(torch):
    m = torch.nn.Module()
    m.w = torch.nn.Parameter(torch.ones(1))
    return m


def _with_attribute(torch):
    m = torch.nn.Module()
    m.z = 5
    return m


def test_nll_loss_2d_is_deprecated_nll_loss():
    def case(torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            loss = torch.nn.NLLLoss2d(ignore_index=1)
        x = torch.randn(2, 3, 4, 4).log_softmax(1).requires_grad_()
        target = torch.randint(0, 3, (2, 4, 4))
        out = loss(x, target)
        out.backward()
        return ([(w.category.__name__, str(w.message)) for w in caught], repr(loss),
                isinstance(loss, torch.nn.NLLLoss), out, x.grad)
    check(seeded(case))


def test_printed_lazy_modules():
    def case(torch):
        print(torch.nn.Sequential(torch.nn.LazyLinear(3), torch.nn.LazyBatchNorm1d()))
        print(torch.nn.LazyLinear(2).weight)
    check_printed(case)


# ---- LinearCrossEntropyLoss and F.linear_cross_entropy (torch 2.13's reference path) ----

# (in_features, num_classes, options, input shape, target: "index" or "probabilities")
LINEAR_CROSS_ENTROPY = [
    (5, 4, {}, (3, 5), "index"),
    (5, 4, {"bias": True, "reduction": "sum"}, (5,), "index"),
    (3, 6, {"out_features": (2, 3), "bias": True}, (2, 3), "index"),
    (4, 3, {"label_smoothing": 0.2, "reduction": "none", "ignore_index": 1}, (6, 4), "index"),
    (4, 3, {"out_features": (2,)}, (2, 4), "probabilities"),
    (4, 5, {"label_smoothing": 0.1}, (3, 4), "probabilities"),
]


@pytest.mark.parametrize("in_features, classes, options, shape, target_kind",
                         LINEAR_CROSS_ENTROPY)
def test_linear_cross_entropy_loss(in_features, classes, options, shape, target_kind):
    def case(torch):
        loss = torch.nn.LinearCrossEntropyLoss(in_features, classes, **options)
        x = torch.randn(shape, requires_grad=True)
        logits_shape = shape[:-1] + (classes,) + options.get("out_features", ())
        if target_kind == "index":
            target = torch.randint(0, classes, shape[:-1] + options.get("out_features", ()))
        else:
            target = torch.randn(logits_shape).softmax(len(shape) - 1)
        out = loss(x, target)
        (out * torch.randn(out.shape)).sum().backward()
        return repr(loss), out, x.grad, gradients(loss)
    check(seeded(case), rtol=1e-5, atol=1e-6)


def test_functional_linear_cross_entropy():
    def case(torch):
        x = torch.randn(4, 3, requires_grad=True)
        w = torch.randn(5, 3, requires_grad=True)
        b = torch.randn(5, requires_grad=True)
        out = torch.nn.functional.linear_cross_entropy(x, w, torch.tensor([0, 4, 2, 1]),
                                                       linear_bias=b,
                                                       weight=torch.rand(5))
        out.backward()
        return out, x.grad, w.grad, b.grad
    check(seeded(case))


@pytest.mark.parametrize("case", [
    lambda torch: torch.nn.functional.linear_cross_entropy(
        torch.ones(2, 2, 3), torch.ones(4, 3), torch.zeros(2, dtype=torch.long)),
    lambda torch: torch.nn.functional.linear_cross_entropy(
        torch.ones(2, 3), torch.ones(3), torch.zeros(2, dtype=torch.long)),
    lambda torch: torch.nn.functional.linear_cross_entropy(
        torch.ones(2, 3), torch.ones(4, 2), torch.zeros(2, dtype=torch.long)),
    lambda torch: torch.nn.functional.linear_cross_entropy(
        torch.ones(2, 3), torch.ones(4, 3), torch.zeros(2, dtype=torch.long),
        linear_bias=torch.ones(3)),
    lambda torch: torch.nn.functional.linear_cross_entropy(
        torch.ones(3), torch.ones(4, 2, 3), torch.zeros(2, dtype=torch.long)),
    lambda torch: torch.nn.functional.linear_cross_entropy(
        torch.ones(2, 3), torch.ones(4, 3), torch.ones(2, 4), ignore_index=0),
    lambda torch: torch.nn.LinearCrossEntropyLoss(3, 4, weight=torch.ones(3)),
    lambda torch: torch.nn.LinearCrossEntropyLoss(3, 4, label_smoothing=1.5),
])
def test_linear_cross_entropy_errors(case):
    assert_same_error(case)
