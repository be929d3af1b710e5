"""optim.lr_scheduler: learning rates that change as training goes (StepLR, MultiStepLR,
ExponentialLR, LambdaLR, MultiplicativeLR, CosineAnnealingLR here; ReduceLROnPlateau in
_plateau; the warm-ups, cycles and composites in _cycles_and_sequences), computed as
PyTorch's are: each step from the rates the groups hold (the chainable form), or from the
base rates when step(epoch) names an epoch (the closed form)."""
import math
import types
from bisect import bisect_right
from collections import Counter

from ._cycles_and_sequences import (ChainedScheduler, ConstantLR,  # noqa: F401
                                    CosineAnnealingWarmRestarts, CyclicLR, LinearLR,
                                    OneCycleLR, PolynomialLR, SequentialLR)
from ._plateau import ReduceLROnPlateau  # noqa: F401
from ._scheduler_base import LRScheduler, load_state_except


class _PerGroupFunctions(LRScheduler):
    """A scheduler driven by lr_lambda(epoch): one function, or one per parameter group
    (checked to be callable where PyTorch checks, `checks_callable`). Its state_dict keeps
    the attributes of each function that is a callable object (plain functions are not
    saved)."""

    checks_callable = False

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.optimizer = optimizer
        if not isinstance(lr_lambda, (list, tuple)):
            self.lr_lambdas = [lr_lambda] * len(optimizer.param_groups)
        else:
            if len(lr_lambda) != len(optimizer.param_groups):
                raise ValueError(f"Expected {len(optimizer.param_groups)} lr_lambdas, but got "
                                 f"{len(lr_lambda)}")
            self.lr_lambdas = list(lr_lambda)
        if self.checks_callable:
            for function in self.lr_lambdas:
                if not callable(function):
                    raise TypeError(f"lr_lambda should be a function, but got "
                                    f"{type(function).__name__}")
        super().__init__(optimizer, last_epoch)

    def state_dict(self):
        state = {key: value for key, value in self.__dict__.items()
                 if key not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [None if isinstance(function, types.FunctionType)
                               else function.__dict__.copy() for function in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict):
        lr_lambdas = load_state_except(self, state_dict, "lr_lambdas")
        for function, saved in zip(self.lr_lambdas, lr_lambdas):
            if saved is not None:
                function.__dict__.update(saved)


class LambdaLR(_PerGroupFunctions):
    """The base rate times lr_lambda(epoch)."""

    def get_lr(self):
        self._current_rates()
        return [base_lr * function(self.last_epoch)
                for function, base_lr in zip(self.lr_lambdas, self.base_lrs)]


class MultiplicativeLR(_PerGroupFunctions):
    """The rate multiplied by lr_lambda(epoch) at every epoch after the first."""

    checks_callable = True

    def get_lr(self):
        rates = self._current_rates()
        if self._is_initial:
            return rates
        return [lr * function(self.last_epoch)
                for function, lr in zip(self.lr_lambdas, rates)]


class StepLR(LRScheduler):
    """Multiplies the learning rate by gamma every step_size epochs."""

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        rates = self._current_rates()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return rates
        return [lr * self.gamma for lr in rates]

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size)
                for base_lr in self.base_lrs]


class MultiStepLR(LRScheduler):
    """Multiplies the learning rate by gamma at each milestone epoch (by gamma**k at a
    milestone listed k times)."""

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        rates = self._current_rates()
        if self.last_epoch not in self.milestones:
            return rates
        return [lr * self.gamma ** self.milestones[self.last_epoch] for lr in rates]

    def _get_closed_form_lr(self):
        milestones = sorted(self.milestones.elements())
        return [base_lr * self.gamma ** bisect_right(milestones, self.last_epoch)
                for base_lr in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Multiplies the learning rate by gamma every epoch."""

    def __init__(self, optimizer, gamma, last_epoch=-1):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        rates = self._current_rates()
        if self._is_initial:
            return rates
        return [lr * self.gamma for lr in rates]

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** self.last_epoch for base_lr in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """The learning rate along half a cosine from the base rate down to eta_min over T_max
    epochs (and back up over the next T_max), by PyTorch's recurrence."""

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        rates = self._current_rates()
        if self._is_initial:
            return rates
        if self._step_count == 1 and self.last_epoch > 0:
            return [self.eta_min + (base_lr - self.eta_min)
                    * (1 + math.cos(self.last_epoch * math.pi / self.T_max)) / 2
                    for base_lr in self.base_lrs]
        if (self.last_epoch - 1 - self.T_max) % (2 * self.T_max) == 0:
            return [lr + (base_lr - self.eta_min) * (1 - math.cos(math.pi / self.T_max)) / 2
                    for base_lr, lr in zip(self.base_lrs, rates)]
        return [(1 + math.cos(math.pi * self.last_epoch / self.T_max))
                / (1 + math.cos(math.pi * (self.last_epoch - 1) / self.T_max))
                * (lr - self.eta_min) + self.eta_min for lr in rates]

    def _get_closed_form_lr(self):
        return [self.eta_min + (base_lr - self.eta_min)
                * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base_lr in self.base_lrs]


__all__ = ["LRScheduler", "LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR",
           "ExponentialLR", "CosineAnnealingLR", "ReduceLROnPlateau", "ConstantLR", "LinearLR",
           "PolynomialLR", "CosineAnnealingWarmRestarts", "CyclicLR", "OneCycleLR",
           "SequentialLR", "ChainedScheduler"]
