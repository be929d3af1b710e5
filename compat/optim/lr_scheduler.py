"""optim.lr_scheduler: learning rates that change as training goes (StepLR, MultiStepLR,
ExponentialLR, LambdaLR, MultiplicativeLR, CosineAnnealingLR, ReduceLROnPlateau here; the
warm-ups, cycles and composites in _cycles_and_sequences), computed as PyTorch's are: each
step from the rates the groups hold (the chainable form), or from the base rates when
step(epoch) names an epoch (the closed form)."""
import math
import types
import warnings
from bisect import bisect_right
from collections import Counter

from ._cycles_and_sequences import (ChainedScheduler, ConstantLR,  # noqa: F401
                                    CosineAnnealingWarmRestarts, CyclicLR, LinearLR,
                                    OneCycleLR, PolynomialLR, SequentialLR)
from ._scheduler_base import EPOCH_DEPRECATION_WARNING, LRScheduler, load_state_except
from .optimizer import Optimizer

class _PerGroupFunctions:
    """A scheduler driven by lr_lambda(epoch): one function, or one per parameter group.
    Its state_dict keeps the attributes of each function that is a callable object (plain
    functions are not saved)."""

    def _take_functions(self, optimizer, lr_lambda, check_callable):
        if not isinstance(lr_lambda, (list, tuple)):
            self.lr_lambdas = [lr_lambda] * len(optimizer.param_groups)
        else:
            if len(lr_lambda) != len(optimizer.param_groups):
                raise ValueError(f"Expected {len(optimizer.param_groups)} lr_lambdas, but got "
                                 f"{len(lr_lambda)}")
            self.lr_lambdas = list(lr_lambda)
        if check_callable:
            for function in self.lr_lambdas:
                if not callable(function):
                    raise TypeError(f"lr_lambda should be a function, but got "
                                    f"{type(function).__name__}")

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


class LambdaLR(_PerGroupFunctions, LRScheduler):
    """The base rate times lr_lambda(epoch)."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.optimizer = optimizer
        self._take_functions(optimizer, lr_lambda, check_callable=False)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._current_rates()
        return [base_lr * function(self.last_epoch)
                for function, base_lr in zip(self.lr_lambdas, self.base_lrs)]


class MultiplicativeLR(_PerGroupFunctions, LRScheduler):
    """The rate multiplied by lr_lambda(epoch) at every epoch after the first."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.optimizer = optimizer
        self._take_functions(optimizer, lr_lambda, check_callable=True)
        super().__init__(optimizer, last_epoch)

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


class ReduceLROnPlateau(LRScheduler):
    """Multiplies the learning rate by `factor` when the metric passed to step() has not
    improved (by `threshold`) for more than `patience` epochs, then waits `cooldown`
    epochs; never below min_lr."""

    def __init__(self, optimizer, mode="min", factor=0.1, patience=10, threshold=1e-4,
                 threshold_mode="rel", cooldown=0, min_lr=0, eps=1e-8):
        if factor >= 1.0:
            raise ValueError("Factor should be < 1.0.")
        self.factor = factor
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != len(optimizer.param_groups):
                raise ValueError(f"expected {len(optimizer.param_groups)} min_lrs, got "
                                 f"{len(min_lr)}")
            self.default_min_lr = None
            self.min_lrs = list(min_lr)
        else:
            self.default_min_lr = min_lr
            self.min_lrs = [min_lr] * len(optimizer.param_groups)
        self.patience = patience
        self.cooldown = cooldown
        self.eps = eps
        self.last_epoch = 0
        self._last_lr = [group["lr"] for group in optimizer.param_groups]
        self._init_is_better(mode, threshold, threshold_mode)
        self._reset()

    def _reset(self):
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    def step(self, metrics, epoch=None):
        current = float(metrics)
        if epoch is None:
            epoch = self.last_epoch + 1
        else:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self.last_epoch = epoch
        if self._is_better(current, self.best):
            self.best = current
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0  # bad epochs in the cooldown do not count
        if self.num_bad_epochs > self.patience:
            self._reduce_lr()
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def _reduce_lr(self):
        groups = self.optimizer.param_groups
        if len(groups) != len(self.min_lrs):
            if self.default_min_lr is None:
                raise RuntimeError(
                    f"The number of param groups in the `optimizer` ({len(groups)}) differs "
                    f"from when `ReduceLROnPlateau` was initialized ({len(self.min_lrs)}), "
                    f"usually due to a new param group being added to the optimizer. Please "
                    f"modify the `min_lrs` field to match the length of the `optimizer` "
                    f"param groups.")
            self.min_lrs = [self.default_min_lr] * len(groups)
        for group, min_lr in zip(groups, self.min_lrs):
            old_lr = float(group["lr"])
            new_lr = max(old_lr * self.factor, min_lr)
            if old_lr - new_lr > self.eps:
                group["lr"] = new_lr

    @property
    def in_cooldown(self):
        return self.cooldown_counter > 0

    def _is_better(self, a, best):
        if self.mode == "min" and self.threshold_mode == "rel":
            return a < best * (1.0 - self.threshold)
        if self.mode == "min":
            return a < best - self.threshold
        if self.threshold_mode == "rel":
            return a > best * (self.threshold + 1.0)
        return a > best + self.threshold

    def _init_is_better(self, mode, threshold, threshold_mode):
        if mode not in {"min", "max"}:
            raise ValueError("mode " + mode + " is unknown!")
        if threshold_mode not in {"rel", "abs"}:
            raise ValueError("threshold mode " + threshold_mode + " is unknown!")
        self.mode_worse = math.inf if mode == "min" else -math.inf
        self.mode = mode
        self.threshold = threshold
        self.threshold_mode = threshold_mode

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)
        self._init_is_better(self.mode, self.threshold, self.threshold_mode)


__all__ = ["LRScheduler", "LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR",
           "ExponentialLR", "CosineAnnealingLR", "ReduceLROnPlateau", "ConstantLR", "LinearLR",
           "PolynomialLR", "CosineAnnealingWarmRestarts", "CyclicLR", "OneCycleLR",
           "SequentialLR", "ChainedScheduler"]
