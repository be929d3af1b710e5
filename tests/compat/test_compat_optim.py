"""compat.optim against torch.optim 2.13: the same model trained for several steps from the
same seed ends with the same parameters (to float32 rounding) and the same optimizer
state; on a loss without transcendental functions, bit for bit after 100 steps of every
option; state_dict, zero_grad, StepLR, printing and error texts match."""
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import compat.optim.algorithms
from compat_harness import Raised, check, check_printed, run_both

CONFIGURATIONS = [
    ("SGD", dict(lr=0.1)),
    ("SGD", dict(lr=0.05, momentum=0.9)),
    ("SGD", dict(lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01)),
    ("SGD", dict(lr=0.05, momentum=0.5, dampening=0.3, maximize=True)),
    ("Adam", dict(lr=0.01)),
    ("Adam", dict(lr=0.01, betas=(0.3, 0.8), weight_decay=0.1, amsgrad=True)),
    ("AdamW", dict(lr=0.01)),
    ("AdamW", dict(lr=0.02, weight_decay=0.5, amsgrad=True, maximize=True)),
    ("RMSprop", dict(lr=0.01)),
    ("RMSprop", dict(lr=0.01, momentum=0.8, centered=True, weight_decay=0.1, alpha=0.9)),
    ("Adagrad", dict(lr=0.1)),
    ("Adagrad", dict(lr=0.1, lr_decay=0.05, weight_decay=0.1, initial_accumulator_value=0.5)),
    ("Adadelta", dict()),
    ("Adadelta", dict(lr=0.5, rho=0.8, eps=1e-4, weight_decay=0.1, maximize=True)),
    ("Adamax", dict(lr=0.01)),
    ("NAdam", dict(lr=0.01)),
    ("RAdam", dict(lr=0.01)),
    ("Rprop", dict(lr=0.01)),
    ("ASGD", dict(lr=0.01)),
]


def _model(torch):
    return torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.Tanh(), torch.nn.Linear(6, 3))


def _train(torch, name, options, steps, seed, set_to_none=True):
    """The model and optimizer after `steps` steps of cross-entropy on random batches."""
    torch.manual_seed(seed)
    model = _model(torch)
    optimizer = getattr(torch.optim, name)(model.parameters(), **options)
    for _ in range(steps):
        x, y = torch.randn(8, 4), torch.randint(0, 3, (8,))
        optimizer.zero_grad(set_to_none=set_to_none)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
    return model, optimizer


@pytest.mark.parametrize("name, options", CONFIGURATIONS,
                         ids=[f"{n}-{sorted(o.items())}" for n, o in CONFIGURATIONS])
def test_parameters_and_state_after_steps_equal_torchs(name, options):
    def case(torch):
        model, optimizer = _train(torch, name, options, steps=6, seed=1)
        return list(model.named_parameters()), optimizer.state_dict()
    check(case, rtol=1e-4, atol=1e-6)


@given(seed=st.integers(0, 2**32 - 1), which=st.sampled_from(range(len(CONFIGURATIONS))),
       steps=st.integers(1, 12))
def test_training_follows_torch_for_any_seed(seed, which, steps):
    name, options = CONFIGURATIONS[which]
    check(lambda torch: list(_train(torch, name, options, steps, seed)[0].parameters()),
          rtol=1e-4, atol=1e-6)


EXACT_CONFIGURATIONS = [
    ("SGD", dict(lr=0.01)),
    ("SGD", dict(lr=0.01, momentum=0.9)),
    ("SGD", dict(lr=0.01, momentum=0.9, nesterov=True, weight_decay=0.1)),
    ("SGD", dict(lr=0.01, momentum=0.5, dampening=0.3, weight_decay=0.2, maximize=True)),
    ("Adam", dict(lr=0.01)),
    ("Adam", dict(lr=0.01, betas=(0.8, 0.9), weight_decay=0.1, amsgrad=True)),
    ("Adam", dict(lr=0.01, weight_decay=0.3, decoupled_weight_decay=True, maximize=True)),
    ("AdamW", dict(lr=0.01)),
    ("AdamW", dict(lr=0.02, weight_decay=0.5, amsgrad=True, maximize=True)),
    ("RMSprop", dict(lr=0.01)),
    ("RMSprop", dict(lr=0.01, alpha=0.9, momentum=0.8, centered=True, weight_decay=0.1)),
    ("RMSprop", dict(lr=0.01, centered=True, maximize=True)),
    ("RMSprop", dict(lr=0.01, momentum=0.5, eps=1e-3)),
    ("Adagrad", dict(lr=0.01)),
    ("Adagrad", dict(lr=0.01, lr_decay=0.01, weight_decay=0.1, initial_accumulator_value=0.3,
                     maximize=True)),
    ("Adadelta", dict()),
    ("Adadelta", dict(lr=0.5, rho=0.8, eps=1e-4, weight_decay=0.1, maximize=True)),
    ("Adamax", dict(lr=0.01)),
    ("Adamax", dict(lr=0.02, betas=(0.7, 0.9), eps=1e-3, weight_decay=0.1, maximize=True)),
    ("NAdam", dict(lr=0.01)),
    ("NAdam", dict(lr=0.02, betas=(0.8, 0.95), weight_decay=0.1, momentum_decay=0.01)),
    ("NAdam", dict(lr=0.01, weight_decay=0.3, decoupled_weight_decay=True, maximize=True)),
    ("RAdam", dict(lr=0.01)),
    ("RAdam", dict(lr=0.01, betas=(0.9, 0.5), weight_decay=0.1)),
    ("RAdam", dict(lr=0.01, weight_decay=0.3, decoupled_weight_decay=True, maximize=True)),
    ("Rprop", dict()),
    ("Rprop", dict(lr=0.05, etas=(0.3, 1.5), step_sizes=(1e-3, 0.2), maximize=True)),
    ("ASGD", dict()),
    ("ASGD", dict(lr=0.05, lambd=0.01, alpha=0.5, t0=20, weight_decay=0.1, maximize=True)),
]


def _exact_case(name, options, dtype, steps=100, size=50):
    """A parameter of `size` elements and its optimizer state after `steps` steps on
    sum(scale * (w - target)^2). The loss is a polynomial: its gradient, 2 scale (w -
    target), is computed alike by both libraries, where a gradient through sin or exp
    would differ in the last bit on its own (NumPy's and PyTorch's transcendental
    functions round differently), which no optimizer kernel could make up for."""
    rng = np.random.default_rng(len(options))
    start, target, scale = (rng.standard_normal(size).astype(dtype) for _ in range(3))

    def case(torch):
        w = torch.tensor(start, requires_grad=True)
        optimizer = getattr(torch.optim, name)([w], **options)
        for _ in range(steps):
            optimizer.zero_grad()
            ((w - torch.tensor(target)) * (w - torch.tensor(target))
             * torch.tensor(scale)).sum().backward()
            optimizer.step()
        return w, optimizer.state_dict()
    return case


@pytest.fixture
def pytorchs_square_root(monkeypatch):
    """compat.optim with PyTorch's sqrt, which is not correctly rounded on its x86-64 CPU
    build (NumPy's is): the one operation of Adam and RMSprop that compat computes
    otherwise."""
    import torch

    def square_root(x):
        return torch.from_numpy(np.asarray(x)).sqrt().numpy()
    monkeypatch.setattr(compat.optim.algorithms, "_square_root", square_root)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name, options", EXACT_CONFIGURATIONS,
                         ids=[f"{n}-{sorted(o.items())}" for n, o in EXACT_CONFIGURATIONS])
def test_every_update_is_pytorchs_bit_for_bit(name, options, dtype, pytorchs_square_root):
    check(_exact_case(name, options, dtype), rtol=0, atol=0)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sgd_is_pytorchs_bit_for_bit_as_it_is(dtype):
    options = dict(lr=0.01, momentum=0.9, nesterov=True, weight_decay=0.1)
    check(_exact_case("SGD", options, dtype), rtol=0, atol=0)


def test_param_groups_with_their_own_settings():
    def case(torch):
        torch.manual_seed(0)
        model = _model(torch)
        optimizer = torch.optim.SGD([
            {"params": model[0].parameters()},
            {"params": model[2].parameters(), "lr": 0.5, "momentum": 0.9}], lr=0.1)
        for _ in range(3):
            optimizer.zero_grad()
            model(torch.randn(5, 4)).pow(2).sum().backward()
            optimizer.step()
        return list(model.parameters()), optimizer.state_dict()
    check(case, rtol=1e-4)


@pytest.mark.parametrize("set_to_none", [True, False])
def test_zero_grad(set_to_none):
    def case(torch):
        model, optimizer = _train(torch, "SGD", dict(lr=0.1), 1, 0)
        optimizer.zero_grad(set_to_none=set_to_none)
        return [p.grad for p in model.parameters()]
    check(case)


def test_skips_parameters_without_gradients_and_calls_the_closure():
    def case(torch):
        torch.manual_seed(0)
        used, unused = torch.nn.Linear(2, 1), torch.nn.Linear(2, 1)
        optimizer = torch.optim.Adam(list(used.parameters()) + list(unused.parameters()))
        x = torch.randn(3, 2)

        def closure():
            optimizer.zero_grad()
            loss = used(x).sum()
            loss.backward()
            return loss
        loss = optimizer.step(closure)
        return loss, list(used.parameters()), list(unused.parameters()), optimizer.state_dict()
    check(case)


def test_loading_a_state_dict_resumes_training():
    def case(torch):
        model, optimizer = _train(torch, "Adam", dict(lr=0.01), 3, 0)
        saved_model, saved_optimizer = model.state_dict(), optimizer.state_dict()
        resumed = _model(torch)
        resumed.load_state_dict(saved_model)
        again = torch.optim.Adam(resumed.parameters(), lr=0.5)
        again.load_state_dict(saved_optimizer)
        for m, o in ((model, optimizer), (resumed, again)):
            torch.manual_seed(5)
            o.zero_grad()
            m(torch.randn(2, 4)).sum().backward()
            o.step()
        return list(model.parameters()), list(resumed.parameters()), again.param_groups[0]["lr"]
    check(case, rtol=1e-5)


def test_step_lr():
    def case(torch):
        model, optimizer = _train(torch, "SGD", dict(lr=1.0), 0, 0)
        scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=3, gamma=0.5)
        rates = []
        for _ in range(8):
            optimizer.step()
            scheduler.step()
            rates.append(scheduler.get_last_lr())
        return rates, scheduler.state_dict(), optimizer.state_dict()["param_groups"]
    check(case)


def test_adagrad_has_state_from_the_start():
    # Adagrad makes each parameter's state when it is constructed (and for a group added
    # later, at its first step): its state_dict holds step 0 before any step.
    def case(torch):
        first, second = torch.ones(2, requires_grad=True), torch.ones(3, requires_grad=True)
        optimizer = torch.optim.Adagrad([first], initial_accumulator_value=0.1)
        before = optimizer.state_dict()
        optimizer.add_param_group({"params": [second], "lr": 0.5})
        (first.sum() + (second * 2).sum()).backward()
        optimizer.step()
        return before, optimizer.state_dict(), first, second
    check(case)


def test_optimizers_print_as_torchs():
    def case(torch):
        params = list(_model(torch).parameters())
        print(torch.optim.SGD(params, lr=0.1, momentum=0.9))
        print(torch.optim.Adam(params))
        print(torch.optim.AdamW(params))
        print(torch.optim.RMSprop(params))
        print(torch.optim.Adagrad(params), torch.optim.Adadelta(params))
        print(torch.optim.SGD([{"params": params[:2]}, {"params": params[2:], "lr": 1.0}],
                              lr=0.1))
    check_printed(case)


def _assert_same_error(case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = run_both(case)
    assert isinstance(theirs, Raised) and isinstance(ours, Raised), (ours, theirs)
    assert (ours.type, ours.message) == (theirs.type, theirs.message)


def _params(torch):
    return torch.nn.Linear(2, 2).parameters()


MISUSES = {
    "empty": lambda torch: torch.optim.SGD([], lr=0.1),
    "one tensor": lambda torch: torch.optim.SGD(torch.zeros(2, requires_grad=True), lr=0.1),
    "non-leaf": lambda torch: torch.optim.SGD([torch.zeros(2, requires_grad=True) * 2],
                                              lr=0.1),
    "a set": lambda torch: torch.optim.SGD([{"params": set(_params(torch))}], lr=0.1),
    "not a tensor": lambda torch: torch.optim.SGD([1.0], lr=0.1),
    "twice": lambda torch: torch.optim.SGD(
        [{"params": p} for p in [list(_params(torch))] * 2], lr=0.1),
    "negative lr": lambda torch: torch.optim.SGD(_params(torch), lr=-0.1),
    "negative momentum": lambda torch: torch.optim.SGD(_params(torch), lr=0.1, momentum=-1),
    "nesterov": lambda torch: torch.optim.SGD(_params(torch), lr=0.1, nesterov=True),
    "beta": lambda torch: torch.optim.Adam(_params(torch), betas=(1.0, 0.9)),
    "second beta": lambda torch: torch.optim.AdamW(_params(torch), betas=(0.9, -0.1)),
    "eps": lambda torch: torch.optim.Adam(_params(torch), eps=-1),
    "weight decay": lambda torch: torch.optim.RMSprop(_params(torch), weight_decay=-1),
    "alpha": lambda torch: torch.optim.RMSprop(_params(torch), alpha=-0.5),
    "lr_decay": lambda torch: torch.optim.Adagrad(_params(torch), lr_decay=-0.5),
    "accumulator": lambda torch: torch.optim.Adagrad(_params(torch),
                                                     initial_accumulator_value=-1),
    "rho": lambda torch: torch.optim.Adadelta(_params(torch), rho=1.5),
    "Adamax beta": lambda torch: torch.optim.Adamax(_params(torch), betas=(0.9, 1.0)),
    "NAdam momentum_decay": lambda torch: torch.optim.NAdam(_params(torch),
                                                           momentum_decay=-1.0),
    "RAdam lr": lambda torch: torch.optim.RAdam(_params(torch), lr=-1.0),
    "Rprop etas": lambda torch: torch.optim.Rprop(_params(torch), etas=(0.5, 0.9)),
    "ASGD lr": lambda torch: torch.optim.ASGD(_params(torch), lr=-0.1),
    "ASGD weight decay": lambda torch: torch.optim.ASGD(_params(torch), weight_decay=-1),
    "groups differ": lambda torch: torch.optim.SGD(_params(torch), lr=0.1).load_state_dict(
        {"state": {}, "param_groups": []}),
}


@pytest.mark.parametrize("misuse", list(MISUSES))
def test_misuse_raises_torchs_error(misuse):
    _assert_same_error(MISUSES[misuse])
