"""Reverse-mode transforms: vjp, grad, value_and_grad."""
import functools

import numpy as np

from ..core import (Box, ReverseBox, ReverseTrace, backward_pass, collector_paused, dtype_of,
                    float0, is_differentiable, leaf_node, new_trace, ones_like_value,
                    quiet_floating_point, shape_of, zeros_like_value)
from ..core.errors import leaked_output
from ..tree_util import tree_flatten, tree_map, tree_unflatten
from ._ownership import Owners, copy_constant, private_copies
from ._checks import (check_array_types, check_callable, check_cotangent,
                      check_differentiable_inputs, check_output_leaf, check_scalar_output,
                      normalize_argnums, refused_array_type, resolve_argnums)


def _unbox_level(x, trace, transform):
    """The value of `x` as seen outside `trace` (lower-level boxes stay boxed)."""
    if isinstance(x, Box):
        if x._trace is trace:
            return x.value
        if x._trace.level > trace.level:
            raise leaked_output(transform)
    return x


def _split_aux(out, transform):
    if not (isinstance(out, (tuple, list)) and len(out) == 2):
        raise TypeError(f"funcgrad.{transform}: with has_aux=True the function must return a "
                        f"pair (output, aux), but it returned a {type(out).__name__}.")
    return out


class _Linearized:
    """A traced function: its outputs and the graph that leads back to its inputs (recorded
    by a ``trace_type(level, *trace_args)``: a ReverseTrace, or checkpoint's kinds of it)."""

    __slots__ = ("inputs", "in_tree", "leaves", "tape", "outputs", "out_tree", "out_nodes", "aux")

    def __init__(self, fun, primals, has_aux, transform, allow_int=False, holomorphic=False,
                 trace_type=ReverseTrace, trace_args=()):
        check_callable(fun, transform)
        flat, self.in_tree = tree_flatten(primals)
        check_differentiable_inputs(flat, primals, transform, allow_int=allow_int,
                                    holomorphic=holomorphic)
        self.inputs = flat
        self.leaves = []
        boxed = []
        with new_trace(trace_type, *trace_args) as trace, quiet_floating_point():
            for x in flat:
                # Integer and boolean inputs (allowed by allow_int) are constants: no leaf.
                leaf = leaf_node() if is_differentiable(x) else None
                self.leaves.append(leaf)
                boxed.append(x if leaf is None else ReverseBox(x, trace, leaf))
            out = fun(*tree_unflatten(self.in_tree, boxed))
        self.tape = trace.tape
        self.aux = None
        if has_aux:
            out, aux = _split_aux(out, transform)
            self.aux = tree_map(lambda x: _unbox_level(x, trace, transform), aux)
        out_flat, self.out_tree = tree_flatten(out)
        self.outputs = []
        self.out_nodes = []
        for i, x in enumerate(out_flat):
            check_output_leaf(x, i, transform)
            traced_here = isinstance(x, ReverseBox) and x._trace is trace
            self.out_nodes.append(x.node if traced_here else None)
            # An output that does not depend on the inputs may be one of the function's
            # constants: the caller gets a copy (see _ownership).
            self.outputs.append(x.value if traced_here
                                else copy_constant(_unbox_level(x, trace, transform)))

    def pull_back(self, out_cotangents, retain_graph):
        """Cotangents of the flat inputs, given those of the flat outputs."""
        roots, cts = [], []
        for node, ct in zip(self.out_nodes, out_cotangents):
            if node is not None and ct is not None:
                roots.append(node)
                cts.append(ct)
        with collector_paused():
            found = backward_pass(self.tape, roots, cts, retain_graph) if roots else {}
        return [found[leaf] if leaf in found else _zero_cotangent(x)
                for leaf, x in zip(self.leaves, self.inputs)]


def _zero_cotangent(x):
    """The cotangent of an input nothing depended on; float0 zeros for integer inputs."""
    if dtype_of(x).kind in "fc":
        return zeros_like_value(x)
    return np.zeros(shape_of(x), float0)


def vjp(fun, *primals, has_aux=False):
    """Evaluate ``fun(*primals)`` and return ``(out, vjp_fn)`` (plus ``aux`` if has_aux).

    ``vjp_fn(ct)`` takes a cotangent with the structure, shapes and dtypes of ``out``
    and returns a tuple with one cotangent per primal. It may be called many times.
    """
    traced = _Linearized(fun, private_copies(primals), has_aux, "vjp")
    # Outputs and aux may be values the graph saved (exp's result): the caller gets copies.
    owners = Owners(traced.inputs, traced.outputs, tree_flatten(traced.aux)[0])
    out_flat = owners.claim_all(traced.outputs)
    out = tree_unflatten(traced.out_tree, out_flat)
    aux = owners.claim_tree(traced.aux) if has_aux else None
    aux_flat = tree_flatten(aux)[0] if has_aux else ()

    def vjp_fn(ct):
        ct_flat, ct_tree = tree_flatten(ct)
        if ct_tree != traced.out_tree:
            raise ValueError(f"funcgrad.vjp: the cotangent has structure {ct_tree}, but the "
                             f"function's output has structure {traced.out_tree}.")
        ct_flat = [check_cotangent(c, x, i, "vjp")
                   for i, (c, x) in enumerate(zip(ct_flat, traced.outputs))]
        cts = traced.pull_back(ct_flat, retain_graph=True)
        owners = Owners(traced.inputs, out_flat, aux_flat, ct_flat)
        return tree_unflatten(traced.in_tree, owners.claim_all(cts))

    return (out, vjp_fn, aux) if has_aux else (out, vjp_fn)


def value_and_grad(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False):
    """Like `grad`, but the returned function gives ``(value, gradient)``
    (``((value, aux), gradient)`` with has_aux)."""
    check_callable(fun, "value_and_grad")
    argnums, single = normalize_argnums(argnums, "value_and_grad")

    @functools.wraps(fun)
    def value_and_grad_fun(*args, **kwargs):
        out, aux, grads = _value_aux_grad(fun, argnums, single, has_aux, args, kwargs,
                                          "value_and_grad", holomorphic, allow_int)
        return ((out, aux), grads) if has_aux else (out, grads)

    return value_and_grad_fun


def grad(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False):
    """The gradient of scalar-valued ``fun`` with respect to the arguments in ``argnums``.

    >>> float(grad(lambda x: x ** 3)(2.0))   # 3 * 2 ** 2
    12.0

    ``argnums`` is an int (one gradient, shaped like that argument) or a tuple of ints
    (a tuple of gradients). Arguments may be pytrees of arrays. With ``has_aux=True``,
    ``fun`` returns ``(scalar, aux)`` and the result is ``(gradient, aux)``.

    As in JAX, ``holomorphic=True`` differentiates a complex function of complex inputs
    (giving f'(z)), and ``allow_int=True`` accepts integer and boolean inputs, whose
    gradients are zeros of dtype ``funcgrad.float0``.
    """
    check_callable(fun, "grad")
    argnums, single = normalize_argnums(argnums, "grad")

    @functools.wraps(fun)
    def grad_fun(*args, **kwargs):
        _, aux, grads = _value_aux_grad(fun, argnums, single, has_aux, args, kwargs, "grad",
                                        holomorphic, allow_int)
        return (grads, aux) if has_aux else grads

    return grad_fun


def differentiated(fun, argnums, args, kwargs, transform):
    """``fun`` as a function of the arguments in argnums only, those arguments, and the
    leaves of the others (its constants)."""
    argnums = resolve_argnums(argnums, len(args), transform)
    others = {i: arg for i, arg in enumerate(args) if i not in argnums}
    constants = tree_flatten(tuple(others.values()))[0] if others else []
    if any(map(refused_array_type, constants)):
        check_array_types(constants, others, transform)
    if kwargs:
        keyword_constants = tree_flatten(kwargs)[0]
        check_array_types(keyword_constants, kwargs, transform, "kwargs")
        constants += keyword_constants

    def fun_of_differentiated(*diff_args):
        full = list(args)
        for argnum, value in zip(argnums, diff_args):
            full[argnum] = value
        return fun(*full, **kwargs)

    return fun_of_differentiated, tuple(map(args.__getitem__, argnums)), constants


def _value_aux_grad(fun, argnums, single, has_aux, args, kwargs, transform, holomorphic=False,
                    allow_int=False):
    """The function's value, aux data and gradient, each the caller's own (_ownership)."""
    diff_fun, diff_args, constants = differentiated(fun, argnums, args, kwargs, transform)
    traced = _Linearized(diff_fun, diff_args, has_aux, transform, allow_int, holomorphic)
    out = tree_unflatten(traced.out_tree, traced.outputs)
    check_scalar_output(out, transform, holomorphic)
    flat_grads = traced.pull_back([ones_like_value(out)], False)
    owners = Owners(traced.inputs, constants)
    out = owners.claim(out)
    grads = tree_unflatten(traced.in_tree, owners.claim_all(flat_grads))
    aux = owners.claim_tree(traced.aux) if has_aux else None
    return out, aux, grads[0] if single else grads
