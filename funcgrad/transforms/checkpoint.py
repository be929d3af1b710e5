"""checkpoint (remat): trade compute for memory in reverse mode."""
import functools

from ..core import (NO_PARAMS, Primitive, ReverseTrace, defvjp_rule, find_top_trace, tuple_get,
                    zeros_like_value)
from ..tree_util import tree_flatten, tree_unflatten
from ._checks import check_callable
from .reverse import vjp


def checkpoint(fun):
    """Wrap ``fun`` so reverse mode recomputes its intermediates instead of keeping them.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> block = checkpoint(lambda x: fnp.sin(fnp.exp(x)))
    >>> float(fg.grad(lambda x: block(block(x)))(0.0)) == float(
    ...     fg.grad(lambda x: fnp.sin(fnp.exp(fnp.sin(fnp.exp(x)))))(0.0))
    True

    Under `grad`/`vjp`, a call records one node that saves only ``fun``'s inputs; the
    backward pass runs ``fun`` again (under a fresh trace) and pulls the cotangent through
    that. A chain of checkpointed blocks therefore holds one block's intermediates at a
    time instead of all of them, for about one extra forward pass. Arguments (positional
    and keyword) may be pytrees of arrays; ``fun`` must be pure. Under forward mode, compat's
    eager tape or no transform it simply calls ``fun``. Also exported as ``remat``.
    """
    check_callable(fun, "checkpoint")
    primitive = Primitive(f"checkpoint[{getattr(fun, '__qualname__', repr(fun))}]", fun,
                          multiple_results=True, register=False)
    defvjp_rule(primitive, None, _recompute)

    @functools.wraps(fun)
    def checkpointed(*args, **kwargs):
        flat, in_tree = tree_flatten((args, kwargs))
        trace = find_top_trace(flat)
        if type(trace) is not ReverseTrace:  # forward mode, compat's tape, or no transform
            return fun(*args, **kwargs)
        return _record(fun, primitive, trace, flat, in_tree)

    return checkpointed


remat = checkpoint


def _record(fun, primitive, trace, flat, in_tree):
    """Run ``fun`` below ``trace`` and record one node whose backward rule recomputes it."""
    values, parents, _ = trace.open_args(flat)
    args, kwargs = tree_unflatten(in_tree, values)
    out_flat, out_tree = tree_flatten(fun(*args, **kwargs))
    positions = tuple(i for i, parent in enumerate(parents) if parent is not None)
    packed = trace.record(primitive, NO_PARAMS, parents, (fun, values, positions, in_tree),
                          tuple(out_flat))
    return tree_unflatten(out_tree, [tuple_get(packed, index=i) for i in range(len(out_flat))])


def _recompute(residuals, params, g):
    """The backward rule: rerun ``fun`` on the saved inputs under a fresh trace and pull
    the output cotangents back through it."""
    fun, values, positions, in_tree = residuals

    def of_traced(*traced):
        full = list(values)
        for position, x in zip(positions, traced):
            full[position] = x
        args, kwargs = tree_unflatten(in_tree, full)
        return tuple(tree_flatten(fun(*args, **kwargs))[0])

    out, pullback = vjp(of_traced, *(values[p] for p in positions))
    cts = pullback(tuple(zeros_like_value(o) if c is None else c for c, o in zip(g, out)))
    flat_cts = [None] * len(values)
    for position, ct in zip(positions, cts):
        flat_cts[position] = ct
    return flat_cts


__all__ = ["checkpoint", "remat"]
