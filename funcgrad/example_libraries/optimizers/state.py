"""Optimizers over pytrees: the state that holds one small state per parameter leaf,
the decorator that lifts a per-array optimizer to pytrees, and (de)serialization."""
import functools
from collections import namedtuple
from typing import Callable, NamedTuple

from ...tree_util import register_pytree_node, tree_flatten, tree_unflatten

# packed_state: one list of state leaves per parameter leaf; tree_def: the parameters'
# structure; subtree_defs: the structure of each parameter leaf's state.
OptimizerState = namedtuple("OptimizerState", ["packed_state", "tree_def", "subtree_defs"])

# Only the arrays are children: transforms see them, the structures ride along as aux data.
register_pytree_node(
    OptimizerState,
    lambda state: ((state.packed_state,), (state.tree_def, state.subtree_defs)),
    lambda structures, children: OptimizerState(children[0], *structures))


class Optimizer(NamedTuple):
    """What every optimizer constructor returns: ``(init_fn, update_fn, params_fn)``."""
    init_fn: Callable
    update_fn: Callable
    params_fn: Callable


def optimizer(make_array_optimizer):
    """Lift an optimizer written for one array to pytrees of arrays.

    ``make_array_optimizer(*hyperparameters)`` returns ``(init, update, get_params)`` for a
    single array: ``init(x0) -> state`` (any pytree), ``update(step, g, state) -> state``
    of the same structure, ``get_params(state) -> x``. The decorated constructor returns
    the same triple for pytrees of parameters, keeping one such state per leaf in an
    `OptimizerState`.
    """

    @functools.wraps(make_array_optimizer)
    def make_tree_optimizer(*args, **kwargs):
        init, update, get_params = make_array_optimizer(*args, **kwargs)

        @functools.wraps(init)
        def init_fn(params):
            leaves, tree_def = tree_flatten(params)
            packed, subtree_defs = _flatten_each(init(x0) for x0 in leaves)
            return OptimizerState(packed, tree_def, subtree_defs)

        @functools.wraps(update)
        def update_fn(step, grads, opt_state):
            _check_state(opt_state, "update_fn")
            grad_leaves, grad_def = tree_flatten(grads)
            if grad_def != opt_state.tree_def:
                raise TypeError(
                    f"optimizers: update_fn was given gradients with structure {grad_def}, "
                    f"but the optimizer was initialized with parameters of structure "
                    f"{opt_state.tree_def}; pass grad(loss)(get_params(opt_state)).")
            states = _unflatten_each(opt_state)
            packed, subtree_defs = _flatten_each(
                update(step, g, state) for g, state in zip(grad_leaves, states))
            for before, after in zip(opt_state.subtree_defs, subtree_defs):
                if before != after:
                    raise TypeError(
                        f"optimizers: the per-array update changed the structure of its "
                        f"state from {before} to {after}; it must return a state shaped "
                        f"like the one it was given.")
            return OptimizerState(packed, opt_state.tree_def, opt_state.subtree_defs)

        @functools.wraps(get_params)
        def params_fn(opt_state):
            _check_state(opt_state, "get_params")
            return tree_unflatten(opt_state.tree_def,
                                  [get_params(state) for state in _unflatten_each(opt_state)])

        return Optimizer(init_fn, update_fn, params_fn)

    return make_tree_optimizer


def _flatten_each(states):
    packed, defs = [], []
    for state in states:
        leaves, tree_def = tree_flatten(state)
        packed.append(leaves)
        defs.append(tree_def)
    return packed, tuple(defs)


def _unflatten_each(opt_state):
    return [tree_unflatten(tree_def, leaves)
            for tree_def, leaves in zip(opt_state.subtree_defs, opt_state.packed_state)]


def _check_state(opt_state, function):
    if not isinstance(opt_state, OptimizerState):
        raise TypeError(f"optimizers: {function} expects the OptimizerState that init_fn (or "
                        f"update_fn) returned, got a {type(opt_state).__name__}.")


class JoinPoint:
    """In `unpack_optimizer_state`'s output, one parameter leaf's own optimizer state."""

    def __init__(self, subtree):
        self.subtree = subtree

    def __iter__(self):  # reads like a one-element container to code that walks states
        yield self.subtree

    def __repr__(self):
        return f"JoinPoint({self.subtree!r})"


def unpack_optimizer_state(opt_state):
    """An `OptimizerState` as plain containers (for pickling or saving): the parameters'
    pytree with, at each leaf, a `JoinPoint` holding that leaf's state pytree."""
    _check_state(opt_state, "unpack_optimizer_state")
    return tree_unflatten(opt_state.tree_def,
                          [JoinPoint(state) for state in _unflatten_each(opt_state)])


def pack_optimizer_state(marked_pytree):
    """The inverse of `unpack_optimizer_state`."""
    points, tree_def = tree_flatten(marked_pytree)
    for point in points:
        if not isinstance(point, JoinPoint):
            raise TypeError(f"optimizers: pack_optimizer_state expects the output of "
                            f"unpack_optimizer_state, whose leaves are JoinPoints; found a "
                            f"{type(point).__name__} leaf.")
    packed, subtree_defs = _flatten_each(point.subtree for point in points)
    return OptimizerState(packed, tree_def, subtree_defs)
