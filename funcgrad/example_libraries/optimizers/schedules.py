"""Step-size schedules: functions from the step number to the step size."""
import numpy as np


def constant(step_size):
    """The same step size at every step."""
    return lambda step: step_size


def exponential_decay(step_size, decay_steps, decay_rate):
    """``step_size * decay_rate ** (step / decay_steps)``."""
    return lambda step: step_size * decay_rate ** (step / decay_steps)


def inverse_time_decay(step_size, decay_steps, decay_rate, staircase=False):
    """``step_size / (1 + decay_rate * step / decay_steps)``; with ``staircase`` the ratio
    ``step / decay_steps`` is rounded down, so the step size changes every decay_steps."""
    if staircase:
        return lambda step: step_size / (1 + decay_rate * np.floor(step / decay_steps))
    return lambda step: step_size / (1 + decay_rate * step / decay_steps)


def polynomial_decay(step_size, decay_steps, final_step_size, power=1.0):
    """From ``step_size`` down to ``final_step_size`` over ``decay_steps`` steps along
    ``(1 - step / decay_steps) ** power``, then constant."""
    def schedule(step):
        fraction_left = 1 - np.minimum(step, decay_steps) / decay_steps
        return fraction_left ** power * (step_size - final_step_size) + final_step_size
    return schedule


def piecewise_constant(boundaries, values):
    """``values[0]`` up to and including step ``boundaries[0]``, then ``values[1]`` up to
    ``boundaries[1]``, ...; ``values`` has one more entry than ``boundaries``."""
    boundaries, values = np.asarray(boundaries), np.asarray(values)
    if boundaries.ndim != 1 or values.ndim != 1:
        raise ValueError(f"optimizers.piecewise_constant: boundaries and values must be "
                         f"sequences, got shapes {boundaries.shape} and {values.shape}.")
    if len(values) != len(boundaries) + 1:
        raise ValueError(f"optimizers.piecewise_constant: values needs one entry more than "
                         f"boundaries (one per interval), got {len(values)} values for "
                         f"{len(boundaries)} boundaries.")
    return lambda step: values[np.sum(step > boundaries)]


def make_schedule(scalar_or_schedule):
    """A schedule as is, or a scalar step size as a `constant` schedule."""
    if callable(scalar_or_schedule):
        return scalar_or_schedule
    if np.ndim(scalar_or_schedule) == 0:
        return constant(scalar_or_schedule)
    raise TypeError(f"optimizers: a step size must be a scalar or a schedule (a function of "
                    f"the step number), got a {type(scalar_or_schedule).__name__} of shape "
                    f"{np.shape(scalar_or_schedule)}.")
