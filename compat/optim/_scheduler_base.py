"""The base of the learning-rate schedulers: the first step at construction, step() with
PyTorch's warnings, and the chainable and closed forms of the next rates."""
import functools
import warnings
import weakref

from .optimizer import Optimizer

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated "
    "where possible. Please use `scheduler.step()` to step the scheduler. During the "
    "deprecation, if epoch is different from None, the closed form is used instead of the "
    "new chainable form, where available. Please open an issue if you are unable to "
    "replicate your use case: https://github.com/pytorch/pytorch/issues/new/choose.")


class LRScheduler:
    """Sets the learning rate of each of an optimizer's parameter groups on every step();
    constructing it takes the first step (epoch 0)."""

    def __init__(self, optimizer, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            for index, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{index}] when "
                        f"resuming scheduler with last_epoch >= 0.\nThis typically happens "
                        f"when:\n1. You're trying to resume training from a checkpoint but "
                        f"haven't properly loaded the optimizer state\n2. You're using "
                        f"last_epoch >= 0 for a fresh training run (not recommended)")
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        _note_steps(optimizer)
        self._initial_step()

    def _initial_step(self):
        """The first step (epoch 0), whose get_lr() keeps the rates as they are."""
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def get_lr(self):
        raise NotImplementedError

    def get_last_lr(self):
        return self._last_lr

    def step(self, epoch=None):
        if self._step_count == 1 and not self.optimizer._opt_called:
            warnings.warn(
                "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch "
                "1.1.0 and later, you should call them in the opposite order: "
                "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this will "
                "result in PyTorch skipping the first value of the learning rate schedule. See "
                "more details at "
                "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate",
                UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch=None):
        """Move to the next epoch (or to `epoch`, by the closed form where there is one)
        and set the groups' rates."""
        if epoch is None:
            self.last_epoch += 1
            self._set_rates(self.get_lr)
        else:
            self.last_epoch = epoch
            self._set_rates(getattr(self, "_get_closed_form_lr", self.get_lr))

    def _set_rates(self, compute):
        """Set the groups' rates to `compute()` (get_lr or the closed form, whose get_lr
        does not warn from here)."""
        self._get_lr_called_within_step = True
        try:
            rates = compute()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, rates):
            group["lr"] = lr
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def _current_rates(self):
        """The rates the groups hold; called by get_lr(), which warns (at itself, as
        PyTorch's does) when called from outside step()."""
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please use "
                          "`get_last_lr()`.", UserWarning, stacklevel=2)
        return [group["lr"] for group in self.optimizer.param_groups]

    def state_dict(self):
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)


def _note_steps(optimizer):
    """From now on, set `optimizer._opt_called` when its step() runs (whatever step a
    subclass defines), so that a scheduler stepped first can warn as PyTorch's does."""
    if getattr(optimizer.step, "notes_steps", False):
        return
    optimizer._opt_called = False
    step, owner = optimizer.step, weakref.ref(optimizer)  # no cycle through the instance

    @functools.wraps(step)
    def noted_step(*args, **kwargs):
        owner()._opt_called = True
        return step(*args, **kwargs)
    noted_step.notes_steps = True
    optimizer.step = noted_step  # Optimizer.__getstate__ leaves it out of copies


def format_param(name, optimizer, value):
    """`value` (one for every parameter group, or a list of one per group) as a list of
    one per group."""
    if isinstance(value, (list, tuple)):
        if len(value) != len(optimizer.param_groups):
            raise ValueError(f"{name} must have the same length as optimizer.param_groups. "
                             f"{name} has {len(value)} values, param_groups has "
                             f"{len(optimizer.param_groups)}.")
        return list(value)
    return [value] * len(optimizer.param_groups)


def load_state_except(scheduler, state_dict, key):
    """Load `state_dict` into `scheduler`'s attributes, all but `key`, whose saved value is
    returned for the caller to restore its own way; `state_dict` is left as it was."""
    held = state_dict.pop(key)
    scheduler.__dict__.update(state_dict)
    state_dict[key] = held
    return held
