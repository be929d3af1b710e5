"""Linear maps from traces: linearize (a function's JVP at a point) and linear_transpose."""
import numpy as np

from ..core import (ReverseBox, ReverseTrace, backward_pass, dtype_of, is_differentiable,
                    leaf_node, new_trace, shape_of, unbox_all, zeros_like_value)
from ..tree_util import keystr, tree_flatten, tree_flatten_with_path, tree_unflatten
from ._checks import check_cotangent
from ._ownership import Owners, private_copies
from .forward import check_tangent, zero_tangent
from .reverse import _Linearized


def linearize(fun, *primals, has_aux=False):
    """Evaluate ``fun(*primals)`` once and return ``(out, f_jvp)`` (plus ``aux``).

    >>> import funcgrad.numpy as fnp
    >>> out, f_jvp = linearize(lambda x, y: fnp.sin(x) * y, 0.0, 3.0)
    >>> float(f_jvp(1.0, 0.0)), float(f_jvp(0.0, 1.0))   # y cos(x), sin(x)
    (3.0, 0.0)

    ``f_jvp(*tangents)`` (one tangent per primal) gives the directional derivative of
    ``fun`` at ``primals``, like ``jvp(fun, primals, tangents)[1]`` but without evaluating
    ``fun`` again: the VJP of ``fun`` is traced once as a linear map of the output
    cotangent, and each call pulls the tangents back through that trace (its transpose).
    """
    traced = _Linearized(fun, private_copies(primals), has_aux, "linearize")
    # Outputs and aux may be values the graph saved (exp's result): the caller gets copies.
    owners = Owners(traced.inputs, traced.outputs, tree_flatten(traced.aux)[0])
    out_flat = owners.claim_all(traced.outputs)
    out = tree_unflatten(traced.out_tree, out_flat)
    aux = owners.claim_tree(traced.aux) if has_aux else None
    aux_flat = tree_flatten(aux)[0] if has_aux else ()
    transposed = _TransposedVJP(traced)

    def f_jvp(*tangents):
        owners = Owners(traced.inputs, out_flat, aux_flat, tree_flatten(tangents)[0])
        return tree_unflatten(traced.out_tree,
                              owners.claim_all(transposed.push_forward(tangents)))

    return (out, f_jvp, aux) if has_aux else (out, f_jvp)


class _TransposedVJP:
    """``ct -> vjp(ct)`` traced on placeholder cotangents; its transpose is the JVP."""

    def __init__(self, traced):
        self.traced = traced
        self.ct_leaves = [leaf_node() if node is not None else None for node in traced.out_nodes]
        with new_trace(ReverseTrace) as trace:
            placeholders = [None if leaf is None else ReverseBox(zeros_like_value(x), trace, leaf)
                            for leaf, x in zip(self.ct_leaves, traced.outputs)]
            input_cts = traced.pull_back(placeholders, retain_graph=False)
        self.tape = trace.tape
        # Only input cotangents that depend on the placeholders carry anything back.
        self.routes = [(i, ct.node) for i, ct in enumerate(input_cts)
                       if isinstance(ct, ReverseBox) and ct._trace is trace]

    def push_forward(self, tangents):
        traced = self.traced
        flat, tree = tree_flatten(tuple(tangents))
        if tree != traced.in_tree:
            raise TypeError(f"funcgrad.linearize: f_jvp takes tangents with the structure of "
                            f"the primals, {traced.in_tree}, but got {tree}.")
        paths = ["tangents" + keystr(path) for path, _ in tree_flatten_with_path(tangents)[0]]
        flat = [check_tangent(t, x, where, "linearize")
                for t, x, where in zip(flat, traced.inputs, paths)]
        roots = [node for _, node in self.routes]
        seeds = [flat[i] for i, _ in self.routes]
        found = backward_pass(self.tape, roots, seeds, retain_graph=True) if roots else {}
        return [zero_tangent(x) if found.get(leaf) is None else found[leaf]
                for leaf, x in zip(self.ct_leaves, traced.outputs)]


def linear_transpose(fun, *primals):
    """The transpose of the linear function ``fun``.

    >>> import numpy as np
    >>> f_t = linear_transpose(lambda x: 2.0 * x[::-1], np.zeros(3))
    >>> f_t(np.array([1.0, 2.0, 3.0]))
    (array([6., 4., 2.]),)

    ``primals`` only give the shapes and dtypes of ``fun``'s inputs (any values with
    ``shape`` and ``dtype`` do). The returned ``transpose_fun(out_ct)`` takes a cotangent
    shaped like ``fun``'s output and returns a tuple with one cotangent per primal; for
    linear ``fun`` it is the VJP at any point, so it is traced at zeros. ``fun`` must be
    linear: a nonzero ``fun(0)`` (an affine map) is an error, and so is a VJP that differs
    at another point (``x * x``), which is traced once more to check.
    """
    flat, in_tree = tree_flatten(primals)
    zeros = tree_unflatten(in_tree, [zeros_like_value(x) for x in flat])
    traced = _Linearized(fun, zeros, False, "linear_transpose")
    for i, value in enumerate(traced.outputs):
        if np.any(unbox_all(value)):
            raise ValueError(f"funcgrad.linear_transpose: the function is not linear: output "
                             f"leaf {i} is nonzero at zero inputs.")
    _check_same_vjp_elsewhere(fun, flat, in_tree, traced)

    def transpose_fun(out_ct):
        ct_flat, ct_tree = tree_flatten(out_ct)
        if ct_tree != traced.out_tree:
            raise TypeError(f"funcgrad.linear_transpose: the cotangent has structure "
                            f"{ct_tree}, but the function's output has structure "
                            f"{traced.out_tree}.")
        ct_flat = [check_cotangent(c, x, i, "linear_transpose")
                   for i, (c, x) in enumerate(zip(ct_flat, traced.outputs))]
        cts = traced.pull_back(ct_flat, retain_graph=True)
        return tree_unflatten(traced.in_tree, Owners(ct_flat).claim_all(cts))

    return transpose_fun


def _check_same_vjp_elsewhere(fun, flat, in_tree, at_zero):
    """A linear function's VJP is the same at every point; a nonlinear one's (x * x) at
    zero would otherwise be returned as its transpose, silently. One cotangent pulled back
    at zero and at another point must agree."""
    point = tree_unflatten(in_tree, [_probe(x, k) for k, x in enumerate(flat)])
    elsewhere = _Linearized(fun, point, False, "linear_transpose")
    cts = [_probe(x, len(flat) + k) if is_differentiable(x) else zeros_like_value(x)
           for k, x in enumerate(at_zero.outputs)]
    pairs = zip(at_zero.pull_back(cts, retain_graph=True),
                elsewhere.pull_back(cts, retain_graph=False))
    for i, (here, there) in enumerate(pairs):
        if not np.allclose(unbox_all(here), unbox_all(there), rtol=1e-5, atol=1e-8):
            raise ValueError(f"funcgrad.linear_transpose: the function is not linear: its "
                             f"derivative with respect to input leaf {i} differs between "
                             f"zero and another point.")


def _probe(x, seed):
    """Values of both signs, none repeated nearby, with ``x``'s shape and dtype."""
    zeros = zeros_like_value(x)
    count = int(np.prod(shape_of(x)))
    values = np.cos(np.arange(count) * 1.7 + seed) + 0.25
    return zeros + values.reshape(shape_of(x)).astype(dtype_of(x))


__all__ = ["linearize", "linear_transpose"]
