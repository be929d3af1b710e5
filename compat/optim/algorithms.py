"""SGD, Adam, AdamW, Adamax, NAdam, RAdam, RMSprop, Adagrad, Adadelta, Rprop and ASGD: PyTorch's
single-tensor update rules
(the ones its CPU runs), operation for operation, on NumPy arrays in the parameter's
dtype, with PyTorch's kernels where NumPy would round differently (`compat._fused`: add
with alpha, lerp, addcmul and addcdiv as fused multiply-adds), so that parameters and
state stay equal to PyTorch's to the last bit."""
import numpy as np

from .._fused import add_scaled_value, addcdiv_value, addcmul_value, lerp_value, sgn
from .._tensor import make
from .optimizer import Optimizer, check_at_least, step_counter, zeros_like


# PyTorch's CPU sqrt (x86-64 build, AVX-512) is not correctly rounded (about 1 float32
# result in 6 is one unit in the last place from NumPy's, which is): the one operation of
# Adam and RMSprop whose bits differ from PyTorch's (tests substitute PyTorch's sqrt to
# check the rest).
_square_root = np.sqrt


def _check_not_negative(value, what):
    """SGD's form of the check (``value < 0``, so that None fails as in PyTorch), which
    also refuses NaN, where PyTorch's SGD would silently make every parameter NaN."""
    if value < 0.0 or value != value:
        raise ValueError(f"Invalid {what}: {value}")


def _check_adam_settings(lr, eps, betas, weight_decay):
    check_at_least(lr, 0.0, "learning rate")
    check_at_least(eps, 0.0, "epsilon value")
    for index, beta in enumerate(betas):
        if not 0.0 <= beta < 1.0:
            raise ValueError(f"Invalid beta parameter at index {index}: {beta}")
    check_at_least(weight_decay, 0.0, "weight_decay value")


def _running_moments(state, param, grad, beta1, beta2):
    """Adam's running averages of the gradient and of its square, updated in place (made
    at the first step, with the step count); returns the two arrays."""
    if "exp_avg" not in state:
        state["exp_avg"] = zeros_like(param)
        state["exp_avg_sq"] = zeros_like(param)
    average, square = state["exp_avg"]._data, state["exp_avg_sq"]._data
    average[...] = lerp_value(average, grad, 1 - beta1)
    square *= beta2
    square[...] = addcmul_value(square, grad, grad, 1 - beta2)
    return average, square


def _decayed(param, grad, group):
    """The parameter and gradient after weight decay: decoupled (the parameter shrunk, as
    AdamW) or L2 (added to the gradient)."""
    decay = group["weight_decay"]
    if decay and group.get("decoupled_weight_decay"):
        return param * (1 - group["lr"] * decay), grad
    if decay:
        return param, add_scaled_value(grad, param, decay)
    return param, grad


def _counted_step(state):
    """The step count, made at the first step (the state's first entry, as PyTorch's) and
    incremented: as a float."""
    if "step" not in state:
        state["step"] = step_counter()
    state["step"]._data += 1
    return float(state["step"]._data)


class SGD(Optimizer):
    """Stochastic gradient descent, with optional momentum (heavy-ball or Nesterov),
    dampening and L2 weight decay."""

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0,
                 nesterov=False, *, maximize=False, foreach=None, differentiable=False,
                 fused=None):
        _check_not_negative(lr, "learning rate")
        _check_not_negative(momentum, "momentum value")
        _check_not_negative(weight_decay, "weight_decay value")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, dict(
            lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
            nesterov=nesterov, maximize=maximize, foreach=foreach,
            differentiable=differentiable, fused=fused))

    def _update(self, param, grad, state, group):
        momentum = group["momentum"]
        if group["weight_decay"]:
            grad = add_scaled_value(grad, param, group["weight_decay"])
        if momentum:
            buffer = state.get("momentum_buffer")
            if buffer is None:
                buffer = state["momentum_buffer"] = zeros_like(grad)
                buffer._data[...] = grad
            else:
                buffer._data *= momentum
                buffer._data[...] = add_scaled_value(buffer._data, grad, 1 - group["dampening"])
            grad = (add_scaled_value(grad, buffer._data, momentum) if group["nesterov"]
                    else buffer._data)
        return add_scaled_value(param, grad, -group["lr"])


class Adam(Optimizer):
    """Adam: steps by bias-corrected running averages of the gradient and its square;
    weight decay is added to the gradient (or, with decoupled_weight_decay, as AdamW,
    shrinks the parameter)."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 amsgrad=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False, fused=None, decoupled_weight_decay=False):
        _check_adam_settings(lr, eps, betas, weight_decay)
        super().__init__(params, dict(
            lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
            maximize=maximize, foreach=foreach, capturable=capturable,
            differentiable=differentiable, fused=fused,
            decoupled_weight_decay=decoupled_weight_decay))

    def _update(self, param, grad, state, group):
        lr, (beta1, beta2) = group["lr"], group["betas"]
        step = _counted_step(state)
        param, grad = _decayed(param, grad, group)
        average, square = _running_moments(state, param, grad, beta1, beta2)
        step_size = lr / (1 - beta1 ** step)
        correction = (1 - beta2 ** step) ** 0.5
        if group["amsgrad"]:
            if "max_exp_avg_sq" not in state:
                state["max_exp_avg_sq"] = zeros_like(param)
            largest = state["max_exp_avg_sq"]._data
            np.maximum(largest, square, out=largest)
            square = largest
        denominator = _square_root(square) / correction + group["eps"]
        return addcdiv_value(param, average, denominator, -step_size)


class AdamW(Adam):
    """Adam with decoupled weight decay (default 0.01)."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False, foreach=None, capturable=False,
                 differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable,
                         differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)


class Adamax(Optimizer):
    """Adam with the infinity norm: steps by the running average of the gradient over a
    decaying maximum of its magnitude."""

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 foreach=None, *, maximize=False, differentiable=False, capturable=False):
        _check_adam_settings(lr, eps, betas, weight_decay)
        super().__init__(params, dict(
            lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach,
            maximize=maximize, differentiable=differentiable, capturable=capturable))

    def _update(self, param, grad, state, group):
        beta1, beta2 = group["betas"]
        step = _counted_step(state)
        if "exp_avg" not in state:
            state["exp_avg"] = zeros_like(param)
            state["exp_inf"] = zeros_like(param)
        param, grad = _decayed(param, grad, group)
        average, largest = state["exp_avg"]._data, state["exp_inf"]._data
        average[...] = lerp_value(average, grad, 1 - beta1)
        largest *= beta2
        np.maximum(largest, np.abs(grad) + group["eps"], out=largest)
        return addcdiv_value(param, average, largest, -(group["lr"] / (1 - beta1 ** step)))


class NAdam(Optimizer):
    """Adam with Nesterov momentum, the momentum warmed up by momentum_decay (its running
    product kept in the state as mu_product)."""

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 momentum_decay=4e-3, decoupled_weight_decay=False, *, foreach=None,
                 maximize=False, capturable=False, differentiable=False):
        _check_adam_settings(lr, eps, betas, weight_decay)
        check_at_least(momentum_decay, 0.0, "momentum_decay value")
        super().__init__(params, dict(
            lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
            momentum_decay=momentum_decay, decoupled_weight_decay=decoupled_weight_decay,
            maximize=maximize, foreach=foreach, capturable=capturable,
            differentiable=differentiable))

    def _update(self, param, grad, state, group):
        lr, (beta1, beta2) = group["lr"], group["betas"]
        step = _counted_step(state)
        if "mu_product" not in state:
            state["mu_product"] = make(np.ones((), np.float32))
        param, grad = _decayed(param, grad, group)
        warmed = 0.96 ** (step * group["momentum_decay"])
        mu = beta1 * (1.0 - 0.5 * warmed)
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * group["momentum_decay"])))
        product = state["mu_product"]._data
        product *= mu
        average, square = _running_moments(state, param, grad, beta1, beta2)
        denominator = _square_root(square / (1 - beta2 ** step)) + group["eps"]
        product = float(product)
        param = addcdiv_value(param, grad, denominator, -lr * (1.0 - mu) / (1.0 - product))
        return addcdiv_value(param, average, denominator,
                             -lr * mu_next / (1.0 - product * mu_next))


class RAdam(Optimizer):
    """Adam with its adaptive rate rectified: plain momentum SGD while the variance of the
    adaptive rate is intractable (the first steps), Adam scaled by the rectification
    after."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False,
                 capturable=False, differentiable=False):
        _check_adam_settings(lr, eps, betas, weight_decay)
        super().__init__(params, dict(
            lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, maximize=maximize,
            foreach=foreach, capturable=capturable,
            decoupled_weight_decay=decoupled_weight_decay, differentiable=differentiable))

    def _update(self, param, grad, state, group):
        lr, (beta1, beta2) = group["lr"], group["betas"]
        step = _counted_step(state)
        param, grad = _decayed(param, grad, group)
        average, square = _running_moments(state, param, grad, beta1, beta2)
        corrected = average / (1 - beta1 ** step)
        second_correction = 1 - beta2 ** step
        # the length of the approximated simple moving average, at the limit and now
        rho_limit = 2 / (1 - beta2) - 1
        rho = rho_limit - 2 * step * (beta2 ** step) / second_correction
        if not rho > 5.0:
            return add_scaled_value(param, corrected * lr, -1.0)
        rectification = ((rho - 4) * (rho - 2) * rho_limit
                         / ((rho_limit - 4) * (rho_limit - 2) * rho)) ** 0.5
        # (PyTorch's number / tensor is the tensor's reciprocal times the number)
        adaptive = np.reciprocal(_square_root(square) + group["eps"]) * second_correction ** 0.5
        return add_scaled_value(param, corrected * lr * adaptive * rectification, -1.0)


class RMSprop(Optimizer):
    """Steps by the gradient over the root of a running average of its square (centered:
    of its variance), with optional momentum and L2 weight decay."""

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
                 centered=False, capturable=False, foreach=None, maximize=False,
                 differentiable=False):
        check_at_least(lr, 0.0, "learning rate")
        check_at_least(eps, 0.0, "epsilon value")
        check_at_least(momentum, 0.0, "momentum value")
        check_at_least(weight_decay, 0.0, "weight_decay value")
        check_at_least(alpha, 0.0, "alpha value")
        super().__init__(params, dict(
            lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
            weight_decay=weight_decay, capturable=capturable, foreach=foreach,
            maximize=maximize, differentiable=differentiable))

    def _update(self, param, grad, state, group):
        alpha, momentum = group["alpha"], group["momentum"]
        _counted_step(state)
        if "square_avg" not in state:
            state["square_avg"] = zeros_like(param)
            if momentum > 0:
                state["momentum_buffer"] = zeros_like(param)
            if group["centered"]:
                state["grad_avg"] = zeros_like(param)
        if group["weight_decay"]:
            grad = add_scaled_value(grad, param, group["weight_decay"])
        square = state["square_avg"]._data
        square *= alpha
        square[...] = addcmul_value(square, grad, grad, 1 - alpha)
        if group["centered"]:
            average = state["grad_avg"]._data
            average[...] = lerp_value(average, grad, 1 - alpha)
            with np.errstate(invalid="ignore"):  # PyTorch's NaN, silently
                root = _square_root(addcmul_value(square, average, average, -1))
        else:
            root = _square_root(square)
        root += group["eps"]
        if momentum > 0:
            buffer = state["momentum_buffer"]._data
            buffer *= momentum
            buffer[...] = addcdiv_value(buffer, grad, root, 1)
            return add_scaled_value(param, buffer, -group["lr"])
        return addcdiv_value(param, grad, root, -group["lr"])


class Adagrad(Optimizer):
    """Steps by the gradient over the root of the sum of its squares so far, the rate
    decayed by lr_decay per step; its state exists from the start (step 0)."""

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0,
                 initial_accumulator_value=0, eps=1e-10, foreach=None, *, maximize=False,
                 differentiable=False, fused=None):
        check_at_least(lr, 0.0, "learning rate")
        check_at_least(lr_decay, 0.0, "lr_decay value")
        check_at_least(weight_decay, 0.0, "weight_decay value")
        check_at_least(initial_accumulator_value, 0.0, "initial_accumulator_value value")
        check_at_least(eps, 0.0, "epsilon value")
        super().__init__(params, dict(
            lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
            initial_accumulator_value=initial_accumulator_value, foreach=foreach,
            maximize=maximize, differentiable=differentiable, fused=fused))
        for group in self.param_groups:
            for param in group["params"]:
                self.state[param] = self._initial_state(param._data)

    def _initial_state(self, param):
        total = zeros_like(param)
        total._data[...] = self.defaults["initial_accumulator_value"]
        return {"step": step_counter(), "sum": total}

    def _update(self, param, grad, state, group):
        if not state:  # a parameter added with add_param_group
            state.update(self._initial_state(param))
        step = _counted_step(state)
        if group["weight_decay"]:
            grad = add_scaled_value(grad, param, group["weight_decay"])
        rate = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        total = state["sum"]._data
        total[...] = addcmul_value(total, grad, grad, 1)
        return addcdiv_value(param, grad, _square_root(total) + group["eps"], -rate)


class Adadelta(Optimizer):
    """Steps by the gradient scaled by the ratio of running roots of the squared updates
    and of the squared gradients (no learning rate needed: lr=1.0 by default)."""

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *,
                 capturable=False, maximize=False, differentiable=False):
        check_at_least(lr, 0.0, "learning rate")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        check_at_least(eps, 0.0, "epsilon value")
        check_at_least(weight_decay, 0.0, "weight_decay value")
        super().__init__(params, dict(
            lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize,
            capturable=capturable, foreach=foreach, differentiable=differentiable))

    def _update(self, param, grad, state, group):
        rho, eps = group["rho"], group["eps"]
        _counted_step(state)
        if "square_avg" not in state:
            state["square_avg"] = zeros_like(param)
            state["acc_delta"] = zeros_like(param)
        if group["weight_decay"]:
            grad = add_scaled_value(grad, param, group["weight_decay"])
        square, accumulated = state["square_avg"]._data, state["acc_delta"]._data
        square *= rho
        square[...] = addcmul_value(square, grad, grad, 1 - rho)
        delta = _square_root(accumulated + eps) / _square_root(square + eps) * grad
        accumulated *= rho
        accumulated[...] = addcmul_value(accumulated, delta, delta, 1 - rho)
        return add_scaled_value(param, delta, -group["lr"])


class Rprop(Optimizer):
    """Resilient backpropagation: each element steps by the sign of its gradient times a
    step size of its own, grown by etas[1] while the gradient keeps its sign and shrunk by
    etas[0] when it flips (that element then skips its step), within step_sizes."""

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        check_at_least(lr, 0.0, "learning rate")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        super().__init__(params, dict(
            lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach, maximize=maximize,
            differentiable=differentiable, capturable=capturable))

    def _update(self, param, grad, state, group):
        shrink, grow = group["etas"]
        _counted_step(state)
        if "prev" not in state:
            state["prev"] = zeros_like(param)
            state["step_size"] = zeros_like(param)
            state["step_size"]._data[...] = group["lr"]
        previous, sizes = state["prev"]._data, state["step_size"]._data
        # PyTorch's sign (0 at NaN), then each element's factor in its place
        factors = np.array(sgn(grad * previous), dtype=param.dtype)
        factors[factors > 0] = grow
        factors[factors < 0] = shrink
        factors[factors == 0] = 1
        sizes *= factors
        np.clip(sizes, *group["step_sizes"], out=sizes)
        grad = np.where(factors == shrink, 0, grad).astype(param.dtype)
        previous[...] = grad
        return addcmul_value(param, sgn(grad), sizes, -1)


class ASGD(Optimizer):
    """Averaged SGD: steps of size eta = lr / (1 + lambd lr t)^alpha, each also shrinking
    the parameter by lambd eta, and a running average of the parameters (`ax`) over the
    steps after t0. eta and the averaging weight mu are float32 0-d tensors in the state,
    as PyTorch's (eta's rounding reaches a float64 parameter)."""

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0,
                 foreach=None, maximize=False, differentiable=False, capturable=False):
        check_at_least(lr, 0.0, "learning rate")
        check_at_least(weight_decay, 0.0, "weight_decay value")
        super().__init__(params, dict(
            lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay,
            foreach=foreach, maximize=maximize, differentiable=differentiable,
            capturable=capturable))

    def _update(self, param, grad, state, group):
        lr, lambd = group["lr"], group["lambd"]
        if "step" not in state:  # (PyTorch's order: step, eta, mu, ax)
            state["step"] = step_counter()
            state["eta"] = make(np.asarray(lr, np.float32))
            state["mu"] = make(np.ones((), np.float32))
            state["ax"] = zeros_like(param)
        step = _counted_step(state)
        param, grad = _decayed(param, grad, group)
        eta = float(state["eta"]._data)
        param = add_scaled_value(param * (1 - lambd * eta), grad, -eta)
        average, mu = state["ax"]._data, state["mu"]._data
        if float(mu) != 1:
            average += (param - average) * mu
        else:
            average[...] = param
        state["eta"]._data[...] = lr / ((1 + lambd * lr * step) ** group["alpha"])
        mu[...] = 1 / max(1, step - group["t0"])
        return param


__all__ = ["SGD", "Adam", "AdamW", "Adamax", "NAdam", "RAdam", "RMSprop", "Adagrad",
           "Adadelta", "Rprop", "ASGD"]
