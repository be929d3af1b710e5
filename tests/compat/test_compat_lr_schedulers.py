"""compat.optim.lr_scheduler's warm-ups, decays, cycles and composite schedulers against
PyTorch 2.13: every rate (and the momentum or beta1 the cyclic ones set) bit for bit over
many steps, the closed forms that step(epoch) uses, state_dict round trips, and PyTorch's
errors word for word."""
import re
import warnings

import pytest

from compat_harness import Raised, check, run_both


def _optimizer(torch, kind="SGD"):
    torch.manual_seed(0)
    model = torch.nn.Linear(3, 2)
    groups = [{"params": [model.weight]}, {"params": [model.bias], "lr": 0.05}]
    if kind == "Adam":
        return torch.optim.Adam(groups, lr=0.01)
    return torch.optim.SGD(groups, lr=0.1, momentum=0.9)


SCHEDULES = {
    "MultiplicativeLR": lambda L, o: L.MultiplicativeLR(o, lambda epoch: 0.95 ** (epoch % 3)),
    "ConstantLR": lambda L, o: L.ConstantLR(o, factor=0.3, total_iters=4),
    "LinearLR": lambda L, o: L.LinearLR(o, start_factor=0.1, end_factor=0.9, total_iters=7),
    "LinearLR default": lambda L, o: L.LinearLR(o),
    "PolynomialLR": lambda L, o: L.PolynomialLR(o, total_iters=9, power=1.7),
    "CosineAnnealingWarmRestarts": lambda L, o: L.CosineAnnealingWarmRestarts(o, T_0=4),
    "CosineAnnealingWarmRestarts T_mult": lambda L, o: L.CosineAnnealingWarmRestarts(
        o, T_0=2, T_mult=3, eta_min=0.001),
    "CyclicLR": lambda L, o: L.CyclicLR(o, 0.01, [0.1, 0.2], step_size_up=3),
    "CyclicLR triangular2": lambda L, o: L.CyclicLR(o, 0.01, 0.1, step_size_up=2,
                                                    step_size_down=5, mode="triangular2"),
    "CyclicLR exp_range": lambda L, o: L.CyclicLR(o, 0.01, 0.1, step_size_up=4,
                                                  mode="exp_range", gamma=0.9),
    "CyclicLR scale_fn": lambda L, o: L.CyclicLR(o, 0.01, 0.1, step_size_up=3,
                                                 scale_fn=lambda x: 0.8 ** x,
                                                 scale_mode="iterations",
                                                 cycle_momentum=False),
    "OneCycleLR": lambda L, o: L.OneCycleLR(o, max_lr=[0.5, 0.3], total_steps=25),
    "OneCycleLR linear three_phase": lambda L, o: L.OneCycleLR(
        o, max_lr=0.5, epochs=5, steps_per_epoch=5, pct_start=0.25, anneal_strategy="linear",
        three_phase=True, div_factor=10.0),
    "SequentialLR warm-up then cosine": lambda L, o: L.SequentialLR(
        o, [L.LinearLR(o, start_factor=0.2, total_iters=4), L.CosineAnnealingLR(o, T_max=10)],
        milestones=[5]),
    "SequentialLR of three": lambda L, o: L.SequentialLR(
        o, [L.ConstantLR(o, factor=0.5, total_iters=3), L.ExponentialLR(o, gamma=0.9),
            L.StepLR(o, step_size=2, gamma=0.5)], milestones=[4, 9]),
    "ChainedScheduler": lambda L, o: L.ChainedScheduler(
        [L.ConstantLR(o, factor=0.1, total_iters=3), L.ExponentialLR(o, gamma=0.9)]),
}
# the schedules that set the momentum (SGD) or beta1 (Adam) too
CYCLIC = ("CyclicLR", "CyclicLR triangular2", "CyclicLR exp_range", "OneCycleLR",
          "OneCycleLR linear three_phase")


def _run(name, kind, steps):
    def case(torch):
        optimizer = _optimizer(torch, kind)
        scheduler = SCHEDULES[name](torch.optim.lr_scheduler, optimizer)
        seen = [scheduler.get_last_lr()]
        for _ in range(steps):
            optimizer.step()
            scheduler.step()
            seen.append(scheduler.get_last_lr())
            seen.append([group.get("momentum", group.get("betas")) for group in
                         optimizer.param_groups])
        return seen
    return case


@pytest.mark.parametrize("name", SCHEDULES)
def test_rates_bit_for_bit(name):
    steps = 24 if name.startswith("OneCycleLR") else 30
    check(_run(name, "SGD", steps), rtol=0, atol=0)


@pytest.mark.parametrize("name", CYCLIC)
def test_cyclic_schedules_set_adams_beta1(name):
    check(_run(name, "Adam", 20), rtol=0, atol=0)


CLOSED_FORMS = ("ConstantLR", "LinearLR", "PolynomialLR", "CosineAnnealingWarmRestarts",
                "CosineAnnealingWarmRestarts T_mult")


@pytest.mark.parametrize("name", CLOSED_FORMS)
def test_stepping_to_an_epoch_uses_the_closed_form(name):
    def case(torch):
        optimizer = _optimizer(torch)
        scheduler = SCHEDULES[name](torch.optim.lr_scheduler, optimizer)
        rates = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (both warn that epoch= is deprecated)
            for epoch in (3, 1, 8, 5.5, 13, 2):
                optimizer.step()
                scheduler.step(epoch)
                rates.append(scheduler.get_last_lr())
        return rates
    check(case, rtol=0, atol=0)


@pytest.mark.parametrize("name", SCHEDULES)
def test_a_state_dict_resumes_the_schedule(name):
    """Six steps, the state saved; a new scheduler (on a new optimizer given the old one's
    state) loads it and steps on as the first would have."""
    def case(torch):
        optimizer = _optimizer(torch)
        scheduler = SCHEDULES[name](torch.optim.lr_scheduler, optimizer)
        for _ in range(6):
            optimizer.step()
            scheduler.step()
        resumed_optimizer = _optimizer(torch)
        resumed_optimizer.load_state_dict(optimizer.state_dict())
        resumed = SCHEDULES[name](torch.optim.lr_scheduler, resumed_optimizer)
        resumed.load_state_dict(scheduler.state_dict())
        rates = []
        for _ in range(6):
            for o, s in ((optimizer, scheduler), (resumed_optimizer, resumed)):
                o.step()
                s.step()
            rates.append((scheduler.get_last_lr(), resumed.get_last_lr()))
        return rates
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (both may warn about step order on the new one)
        check(case, rtol=0, atol=0)


def _step(scheduler, times):
    for _ in range(times):
        scheduler.step()


MISUSES = {
    "ConstantLR factor": lambda L, o, torch: L.ConstantLR(o, factor=1.5),
    "LinearLR start": lambda L, o, torch: L.LinearLR(o, start_factor=0),
    "LinearLR end": lambda L, o, torch: L.LinearLR(o, end_factor=2.0),
    "MultiplicativeLR not callable": lambda L, o, torch: L.MultiplicativeLR(o, 0.9),
    "MultiplicativeLR count": lambda L, o, torch: L.MultiplicativeLR(o, [lambda e: 1.0]),
    "warm restarts T_0": lambda L, o, torch: L.CosineAnnealingWarmRestarts(o, T_0=0),
    "warm restarts T_mult": lambda L, o, torch: L.CosineAnnealingWarmRestarts(o, T_0=2,
                                                                              T_mult=1.5),
    "warm restarts eta_min": lambda L, o, torch: L.CosineAnnealingWarmRestarts(o, 2, eta_min="0"),
    "warm restarts epoch": lambda L, o, torch: L.CosineAnnealingWarmRestarts(o, 2).step(-1),
    "CyclicLR mode": lambda L, o, torch: L.CyclicLR(o, 0.01, 0.1, mode="sine"),
    "CyclicLR max_lr count": lambda L, o, torch: L.CyclicLR(o, 0.01, [0.1, 0.2, 0.3]),
    "CyclicLR without momentum": lambda L, o, torch: L.CyclicLR(
        torch.optim.Adagrad(list(torch.nn.Linear(2, 2).parameters())), 0.01, 0.1),
    "OneCycleLR no steps": lambda L, o, torch: L.OneCycleLR(o, max_lr=0.1),
    "OneCycleLR total_steps": lambda L, o, torch: L.OneCycleLR(o, max_lr=0.1, total_steps=0),
    "OneCycleLR epochs": lambda L, o, torch: L.OneCycleLR(o, 0.1, epochs=1.5, steps_per_epoch=3),
    "OneCycleLR pct_start": lambda L, o, torch: L.OneCycleLR(o, 0.1, total_steps=5, pct_start=1),
    "OneCycleLR anneal": lambda L, o, torch: L.OneCycleLR(o, 0.1, total_steps=5,
                                                   anneal_strategy="cosine"),
    "OneCycleLR past the end": lambda L, o, torch: _step(L.OneCycleLR(o, 0.1, total_steps=2), 3),
    "SequentialLR milestones": lambda L, o, torch: L.SequentialLR(
        o, [L.ConstantLR(o), L.ConstantLR(o)], milestones=[]),
    "SequentialLR empty": lambda L, o, torch: L.SequentialLR(o, [], milestones=[]),
    "SequentialLR plateau": lambda L, o, torch: L.SequentialLR(
        o, [L.ConstantLR(o), L.ReduceLROnPlateau(o)], milestones=[2]),
    "ChainedScheduler empty": lambda L, o, torch: L.ChainedScheduler([]),
    "ChainedScheduler two optimizers": lambda L, o, torch: L.ChainedScheduler(
        [L.ConstantLR(o), L.ConstantLR(type(o)(o.param_groups[0]["params"], lr=0.1))]),
}


@pytest.mark.parametrize("name", MISUSES)
def test_misuses_raise_pytorchs_errors(name):
    def case(torch):
        MISUSES[name](torch.optim.lr_scheduler, _optimizer(torch), torch)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = run_both(case)
    assert isinstance(theirs, Raised) and isinstance(ours, Raised), (ours, theirs)
    # (an optimizer's repr holds addresses: compared up to them)
    assert (ours.type, _without_addresses(ours.message)) == (
        theirs.type, _without_addresses(theirs.message))


def _without_addresses(message):
    return re.sub(r"0x[0-9a-f]+", "0x?", message)
