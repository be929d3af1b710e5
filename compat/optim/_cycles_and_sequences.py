"""Learning-rate schedules that warm up, decay to a floor, cycle, or are made of other
schedulers (ConstantLR, LinearLR, PolynomialLR, CosineAnnealingWarmRestarts, CyclicLR,
OneCycleLR, SequentialLR, ChainedScheduler), with PyTorch 2.13's arithmetic operation for
operation, so the rates (and the momentums the cyclic ones set) are PyTorch's to the bit."""
import math
import types
from bisect import bisect_right

from ._plateau import ReduceLROnPlateau
from ._scheduler_base import LRScheduler, format_param, load_state_except
from .optimizer import Optimizer


class ConstantLR(LRScheduler):
    """The base rate times `factor` for the first `total_iters` epochs, then the base rate."""

    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1):
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        rates = self._current_rates()
        if self.last_epoch == 0:
            return [lr * self.factor for lr in rates]
        if self.last_epoch == self.total_iters:
            return [lr * (1.0 / self.factor) for lr in rates]
        return rates

    def _get_closed_form_lr(self):
        reached = self.last_epoch >= self.total_iters
        return [base_lr * (self.factor + reached * (1 - self.factor))
                for base_lr in self.base_lrs]


class LinearLR(LRScheduler):
    """The base rate times a factor going linearly from `start_factor` to `end_factor`
    over `total_iters` epochs."""

    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5,
                 last_epoch=-1):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and "
                             "less or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        rates = self._current_rates()
        if self.last_epoch == 0:
            return [lr * self.start_factor for lr in rates]
        if self._is_initial or self.last_epoch > self.total_iters:
            return rates
        rise = self.end_factor - self.start_factor
        # the ratio of this epoch's factor to the last one's
        ratio = 1.0 + rise / (self.total_iters * self.start_factor
                              + (self.last_epoch - 1) * rise)
        return [lr * ratio for lr in rates]

    def _get_closed_form_lr(self):
        done = min(self.total_iters, self.last_epoch)
        return [base_lr * (self.start_factor
                           + (self.end_factor - self.start_factor) * done / self.total_iters)
                for base_lr in self.base_lrs]


class PolynomialLR(LRScheduler):
    """The base rate times (1 - epoch / total_iters) ** power, then 0."""

    def __init__(self, optimizer, total_iters=5, power=1.0, last_epoch=-1):
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        rates = self._current_rates()
        if self._is_initial or self.last_epoch > self.total_iters:
            return rates
        remaining = 1.0 - self.last_epoch / self.total_iters
        before = 1.0 - (self.last_epoch - 1) / self.total_iters
        decay = (remaining / before) ** self.power
        return [lr * decay for lr in rates]

    def _get_closed_form_lr(self):
        done = min(self.total_iters, self.last_epoch)
        return [base_lr * (1.0 - done / self.total_iters) ** self.power
                for base_lr in self.base_lrs]


class CosineAnnealingWarmRestarts(LRScheduler):
    """Half a cosine from the base rate down to `eta_min` over T_0 epochs, restarted at the
    base rate, each period `T_mult` times longer than the last."""

    def __init__(self, optimizer, T_0, T_mult=1, eta_min=0.0, last_epoch=-1):
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        if not isinstance(eta_min, (float, int)):
            raise ValueError(f"Expected float or int eta_min, but got {eta_min} of type "
                             f"{type(eta_min)}")
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._current_rates()
        return [self.eta_min + (base_lr - self.eta_min)
                * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2
                for base_lr in self.base_lrs]

    def step(self, epoch=None):
        """The next epoch, or `epoch` (a float is a fraction of the way into a period);
        steps without an epoch keep count of the period they are in."""
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur += 1
            if self.T_cur >= self.T_i:
                self.T_cur %= self.T_i
                self.T_i *= self.T_mult
        elif epoch < 0:
            raise ValueError(f"Expected non-negative epoch, but got {epoch}")
        elif epoch < self.T_0:
            self.T_i, self.T_cur = self.T_0, epoch
        elif self.T_mult == 1:
            self.T_cur = epoch % self.T_0
        else:
            # the period `epoch` falls in: T_0 (1 + T_mult + ... + T_mult**(n-1)) <= epoch
            n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
            self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
            self.T_i = self.T_0 * self.T_mult ** n
        self.last_epoch = math.floor(epoch)
        self._set_rates(self.get_lr)


def _momentum_setter(scheduler, optimizer, base_momentum, max_momentum, last_epoch):
    """For a cyclic schedule with `cycle_momentum`: check that the optimizer has a
    momentum (or Adam's beta1), note which, and start each group at its max_momentum."""
    if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
        raise ValueError("optimizer must support momentum or beta1 with `cycle_momentum` "
                         "option enabled")
    scheduler.use_beta1 = "betas" in optimizer.defaults
    highs = format_param("max_momentum", optimizer, max_momentum)
    lows = format_param("base_momentum", optimizer, base_momentum)
    if last_epoch == -1:
        for high, low, group in zip(highs, lows, optimizer.param_groups):
            _set_momentum(scheduler, group, high)
            group["max_momentum"] = high
            group["base_momentum"] = low
    return lows, highs


def _set_momentum(scheduler, group, momentum):
    if scheduler.use_beta1:
        group["betas"] = (momentum, *group["betas"][1:])
    else:
        group["momentum"] = momentum


class CyclicLR(LRScheduler):
    """Rates cycling between base_lr and max_lr (up over step_size_up steps, down over
    step_size_down), the height scaled per cycle or per step by `mode` or `scale_fn`; the
    momentum cycles the other way."""

    def __init__(self, optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None,
                 mode="triangular", gamma=1.0, scale_fn=None, scale_mode="cycle",
                 cycle_momentum=True, base_momentum=0.8, max_momentum=0.9, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        base_lrs = format_param("base_lr", optimizer, base_lr)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups):
                group["lr"] = lr
        self.max_lrs = format_param("max_lr", optimizer, max_lr)
        up = float(step_size_up)
        down = float(step_size_down) if step_size_down is not None else up
        self.total_size = up + down
        self.step_ratio = up / self.total_size
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode = mode
        self.gamma = gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode if scale_fn is not None else (
            "iterations" if mode == "exp_range" else "cycle")
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            self.base_momentums, self.max_momentums = _momentum_setter(
                self, optimizer, base_momentum, max_momentum, last_epoch)
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def scale_fn(self, x):
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        if self.mode == "triangular":
            return 1.0
        if self.mode == "triangular2":
            return 1 / (2.0 ** (x - 1))
        return self.gamma ** x

    def get_lr(self):
        self._current_rates()
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle  # the way through this cycle
        if x <= self.step_ratio:
            fraction = x / self.step_ratio
        else:
            fraction = (x - 1) / (self.step_ratio - 1)
        scale = self.scale_fn(cycle if self.scale_mode == "cycle" else self.last_epoch)
        rates = [base_lr + (max_lr - base_lr) * fraction * scale
                 for base_lr, max_lr in zip(self.base_lrs, self.max_lrs)]
        if self.cycle_momentum:
            for group, low, high in zip(self.optimizer.param_groups, self.base_momentums,
                                        self.max_momentums):
                _set_momentum(self, group, high - (high - low) * fraction * scale)
        return rates

    def state_dict(self):
        """LRScheduler's, with a custom scale_fn saved only as its attributes if it is a
        callable object (a function or lambda is not saved)."""
        state = super().state_dict()
        function = state.pop("_scale_fn_custom")
        state["_scale_fn_custom"] = (
            None if function is None or isinstance(function, types.FunctionType)
            else function.__dict__.copy())
        return state

    def load_state_dict(self, state_dict):
        saved = load_state_except(self, state_dict, "_scale_fn_custom")
        if saved is not None:
            self._scale_fn_custom.__dict__.update(saved)


class OneCycleLR(LRScheduler):
    """The 1cycle policy: the rate rises from max_lr / div_factor to max_lr over the first
    pct_start of total_steps, then anneals to its initial value / final_div_factor (with
    `three_phase`, back down to the initial value first); the momentum moves the other way."""

    def __init__(self, optimizer, max_lr, total_steps=None, epochs=None, steps_per_epoch=None,
                 pct_start=0.3, anneal_strategy="cos", cycle_momentum=True,
                 base_momentum=0.85, max_momentum=0.95, div_factor=25.0, final_div_factor=1e4,
                 three_phase=False, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        self.total_steps = _total_steps(total_steps, epochs, steps_per_epoch)
        self._schedule_phases = _one_cycle_phases(pct_start, self.total_steps, three_phase)
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(f"anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self._anneal_func_type = anneal_strategy
        if last_epoch == -1:
            for peak, group in zip(format_param("max_lr", optimizer, max_lr),
                                   optimizer.param_groups):
                group["initial_lr"] = peak / div_factor
                group["max_lr"] = peak
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            _momentum_setter(self, optimizer, base_momentum, max_momentum, last_epoch)
        super().__init__(optimizer, last_epoch)

    def _anneal(self, start, end, fraction):
        if self._anneal_func_type == "cos":
            return end + (start - end) / 2.0 * (math.cos(math.pi * fraction) + 1)
        return (end - start) * fraction + start

    def get_lr(self):
        self._current_rates()
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"Tried to step {step} times. The specified number of total "
                             f"steps is {self.total_steps}")
        rates = []
        for group in self.optimizer.param_groups:
            phase_start = 0.0
            for index, phase in enumerate(self._schedule_phases):
                phase_end = phase["end_step"]
                if step <= phase_end or index == len(self._schedule_phases) - 1:
                    fraction = (step - phase_start) / (phase_end - phase_start)
                    break
                phase_start = phase_end
            rates.append(self._anneal(group[phase["start_lr"]], group[phase["end_lr"]],
                                      fraction))
            if self.cycle_momentum:
                _set_momentum(self, group, self._anneal(group[phase["start_momentum"]],
                                                        group[phase["end_momentum"]],
                                                        fraction))
        return rates


def _total_steps(total_steps, epochs, steps_per_epoch):
    if total_steps is not None:
        if total_steps <= 0 or not isinstance(total_steps, int):
            raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
        return total_steps
    if epochs is None or steps_per_epoch is None:
        raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")
    if not isinstance(epochs, int) or epochs <= 0:
        raise ValueError(f"Expected positive integer epochs, but got {epochs}")
    if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
        raise ValueError(f"Expected positive integer steps_per_epoch, but got {steps_per_epoch}")
    return epochs * steps_per_epoch


def _one_cycle_phases(pct_start, total_steps, three_phase):
    """OneCycleLR's phases: the step each ends at and the group keys of the rates and
    momentums it goes between (PyTorch's `_schedule_phases`, which its state_dict holds)."""
    def phase(end_step, start_lr, end_lr, start_momentum, end_momentum):
        return {"end_step": end_step, "start_lr": start_lr, "end_lr": end_lr,
                "start_momentum": start_momentum, "end_momentum": end_momentum}
    rise = phase(float(pct_start * total_steps) - 1, "initial_lr", "max_lr", "max_momentum",
                 "base_momentum")
    if not three_phase:
        return [rise, phase(total_steps - 1, "max_lr", "min_lr", "base_momentum",
                            "max_momentum")]
    return [rise,
            phase(float(2 * pct_start * total_steps) - 2, "max_lr", "initial_lr",
                  "base_momentum", "max_momentum"),
            phase(total_steps - 1, "initial_lr", "min_lr", "max_momentum", "max_momentum")]


def _check_members(composite, schedulers, optimizer):
    """PyTorch's checks of the schedulers a SequentialLR or ChainedScheduler is made of."""
    name = type(composite).__name__
    for index, scheduler in enumerate(schedulers):
        if not hasattr(scheduler, "optimizer"):
            raise TypeError(f"{name} at index {index} should have `optimizer` as its "
                            f"attribute.")
        if isinstance(scheduler, ReduceLROnPlateau):
            raise ValueError(f"{name} does not support `ReduceLROnPlateau` scheduler as it "
                             f"requires additional kwargs to be specified when calling "
                             f"`step`, but got one at index {index} in the given schedulers "
                             f"sequence.")
        if optimizer != scheduler.optimizer:
            raise ValueError(f"{name} expects all schedulers to belong to the same optimizer, "
                             f"but got scheduler {type(scheduler).__name__} at index {index} "
                             f"has {scheduler.optimizer}, which is different from "
                             f"{type(optimizer).__name__}.")


def _members_state(composite):
    state = {key: value for key, value in composite.__dict__.items()
             if key not in ("optimizer", "_schedulers")}
    state["_schedulers"] = [scheduler.state_dict() for scheduler in composite._schedulers]
    return state


def _load_members_state(composite, state_dict):
    members = load_state_except(composite, state_dict, "_schedulers")
    for scheduler, state in zip(composite._schedulers, members):
        scheduler.load_state_dict(state)


class SequentialLR(LRScheduler):
    """The schedulers one after another, the next taking over at each milestone epoch."""

    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1):
        if len(schedulers) < 1:
            raise ValueError(f"{type(self).__name__} expects at least one scheduler, but got "
                             f"no scheduler.")
        _check_members(self, schedulers, optimizer)
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(f"Sequential Schedulers expects number of schedulers provided to "
                             f"be one more than the number of milestone points, but got "
                             f"number of schedulers {len(schedulers)} and the number of "
                             f"milestones to be equal to {len(milestones)}")
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        # The members took their first steps when built: start again from the initial
        # rates, with the first scheduler's first step alone.
        for group in optimizer.param_groups:
            group["lr"] = group["initial_lr"]
        self.recursive_undo()
        first = self._schedulers[bisect_right(self._milestones, 0)]
        first._initial_step()
        self._last_lr = first.get_last_lr()

    def recursive_undo(self, sched=None):
        """Take one epoch back from every scheduler within (nested ones included)."""
        scheduler = self if sched is None else sched
        if hasattr(scheduler, "_schedulers"):
            for member in scheduler._schedulers:
                self.recursive_undo(member)
        elif hasattr(scheduler, "last_epoch"):
            scheduler.last_epoch -= 1

    def step(self):
        self.last_epoch += 1
        index = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[index]
        if index > 0 and self._milestones[index - 1] == self.last_epoch:
            scheduler._update_lr(0)  # a new member starts at its epoch 0
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()

    def state_dict(self):
        return _members_state(self)

    def load_state_dict(self, state_dict):
        _load_members_state(self, state_dict)


class ChainedScheduler(LRScheduler):
    """Every scheduler stepped at each step, in order, each from the rates the previous
    left."""

    def __init__(self, schedulers, optimizer=None):
        if len(schedulers) < 1:
            raise ValueError(f"{type(self).__name__} expects at least one scheduler to be "
                             f"chained, but got no scheduler.")
        optimizer = optimizer or schedulers[0].optimizer
        _check_members(self, schedulers, optimizer)
        self._schedulers = schedulers
        self.optimizer = optimizer
        self._last_lr = [group["lr"] for group in schedulers[-1].optimizer.param_groups]

    def step(self):
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = [group["lr"] for group in self._schedulers[-1].optimizer.param_groups]

    def state_dict(self):
        return _members_state(self)

    def load_state_dict(self, state_dict):
        _load_members_state(self, state_dict)


__all__ = ["ConstantLR", "LinearLR", "PolynomialLR", "CosineAnnealingWarmRestarts",
           "CyclicLR", "OneCycleLR", "SequentialLR", "ChainedScheduler"]
