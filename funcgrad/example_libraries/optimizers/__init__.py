"""Gradient-based optimizers over pytrees, after ``jax.example_libraries.optimizers``.

Each constructor returns an ``(init_fun, update_fun, get_params)`` triple::

    opt_init, opt_update, get_params = optimizers.adam(1e-2)
    opt_state = opt_init(params)
    for i in range(steps):
        grads = funcgrad.grad(loss)(get_params(opt_state))
        opt_state = opt_update(i, grads, opt_state)

``params`` may be any pytree of arrays; a step size may be a number or a schedule
(a function of the step number, e.g. `exponential_decay`).
"""
from .methods import (adagrad, adam, adamax, momentum, nesterov, rmsprop, rmsprop_momentum,
                      sgd, sm3)
from .norms import clip_grads, l2_norm
from .schedules import (constant, exponential_decay, inverse_time_decay, make_schedule,
                        piecewise_constant, polynomial_decay)
from .state import (JoinPoint, Optimizer, OptimizerState, optimizer, pack_optimizer_state,
                    unpack_optimizer_state)

__all__ = ["adagrad", "adam", "adamax", "momentum", "nesterov", "rmsprop", "rmsprop_momentum",
           "sgd", "sm3", "clip_grads", "l2_norm", "constant", "exponential_decay",
           "inverse_time_decay", "make_schedule", "piecewise_constant", "polynomial_decay",
           "JoinPoint", "Optimizer", "OptimizerState", "optimizer", "pack_optimizer_state",
           "unpack_optimizer_state"]
