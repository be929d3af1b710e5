"""checkpoint (remat): trade compute for memory in reverse mode."""
import functools

from ..core import Node, Primitive, ReverseTrace, find_top_trace, tuple_get, zeros_like_value
from ..tree_util import tree_flatten, tree_unflatten
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
    primitive = Primitive(f"checkpoint[{getattr(fun, '__qualname__', repr(fun))}]", fun,
                          multiple_results=True, register=False)

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
    """Run ``fun`` below ``trace`` and record one node whose VJP recomputes it."""
    values, parents, positions, _ = trace.open_args(flat)
    args, kwargs = tree_unflatten(in_tree, values)
    out_flat, out_tree = tree_flatten(fun(*args, **kwargs))
    recompute = _Recompute(fun, values, positions, in_tree)
    vjps = tuple(recompute.for_input(k) for k in range(len(positions)))
    packed = trace.record(tuple(out_flat), Node(primitive, None, parents, positions, vjps))
    return tree_unflatten(out_tree, [tuple_get(packed, index=i) for i in range(len(out_flat))])


class _Recompute:
    """Reruns ``fun`` on the saved inputs and pulls one output cotangent back through it;
    the engine asks for every input's cotangent with the same ``g`` in a row."""

    __slots__ = ("fun", "values", "positions", "in_tree", "_last_g", "_last_cts")

    def __init__(self, fun, values, positions, in_tree):
        self.fun = fun
        self.values = values
        self.positions = positions
        self.in_tree = in_tree
        self._last_g = self._last_cts = None

    def for_input(self, k):
        return lambda g: self._cotangents(g)[k]

    def _cotangents(self, g):
        if g is not self._last_g:
            self._last_g, self._last_cts = g, self._pull_back(g)
        return self._last_cts

    def _pull_back(self, g):
        def of_traced(*traced):
            full = list(self.values)
            for position, x in zip(self.positions, traced):
                full[position] = x
            args, kwargs = tree_unflatten(self.in_tree, full)
            return tuple(tree_flatten(self.fun(*args, **kwargs))[0])

        out, pullback = vjp(of_traced, *(self.values[p] for p in self.positions))
        return pullback(tuple(zeros_like_value(o) if c is None else c for c, o in zip(g, out)))


__all__ = ["checkpoint", "remat"]
