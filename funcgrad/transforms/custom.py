"""custom_vjp and custom_jvp: functions whose derivatives the user supplies, JAX-style.

Both take ``nondiff_argnums``: arguments that are not differentiated (functions,
settings, integers) and are handed to the user's rules first. As in JAX, custom_jvp's may
hold traced values (constants to every derivative; a batch maps them), custom_vjp's may not.
Keyword arguments are bound to their positions by the function's signature.

Under the transform they are not written for, each still works: a custom_jvp function in
reverse mode is its JVP rule, traced as a linear function of the tangents and pulled
back (transposed); a custom_vjp function in forward mode raises, as in JAX, since a
reverse-mode rule cannot be pushed forward. Under vmap with a derivative taken outside it
(``grad(vmap(f))``), the batch is given to a custom function of the whole batch whose rules
are the user's, mapped over it (`_CustomFunction._apply_batched`).
"""
import functools
import inspect

import numpy as np

from .. import numpy as fnp
from ..core import (NO_PARAMS, BatchBox, BatchTrace, Box, JVPBox, JVPTrace, Primitive,
                    ReverseBox, ReverseTrace, backward_pass, defvjp_rule, dtype_of, float0,
                    find_top_trace, is_differentiable, leaf_node, library_array, new_trace,
                    shape_of, tuple_get, zeros_like_value)
from ..tree_util import tree_flatten, tree_map, tree_unflatten
from ._checks import check_callable
from .stop_gradient import stop_gradient
from .vmap import batched_call, unbatched


class _CustomFunction:
    """What custom_vjp and custom_jvp share: the wrapped function, its non-differentiated
    arguments, and binding a call's arguments."""

    kind = "custom"

    def __init__(self, fun, nondiff_argnums=()):
        check_callable(fun, self.kind)
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(sorted(int(i) for i in nondiff_argnums))
        # Named for graphs and errors, but kept out of the registry: it is the user's.
        name = getattr(fun, "__qualname__", getattr(fun, "__name__", repr(fun)))
        if not hasattr(self, "__name__"):  # a functools.partial or callable object has none
            self.__name__ = name
        self.primitive = Primitive(f"{self.kind}[{name}]", fun,
                                   multiple_results=True, register=False)

    def _bind(self, args, kwargs):
        """The call's positional arguments (keywords bound by the signature), split into
        the differentiated ones and the others: ``(diff_args, nondiff_args)``."""
        if kwargs:
            try:
                bound = inspect.signature(self.fun).bind(*args, **kwargs)
            except (TypeError, ValueError) as error:
                raise TypeError(f"funcgrad.{self.kind}: {self.__name__}: {error}") from None
            if bound.kwargs:
                raise TypeError(f"funcgrad.{self.kind}: {self.__name__} has keyword-only "
                                f"parameters {sorted(bound.kwargs)}, which a custom rule "
                                f"cannot receive; make them positional.")
            args = bound.args
        for i in self.nondiff_argnums:
            if not -len(args) <= i < len(args):
                raise TypeError(f"funcgrad.{self.kind}: nondiff_argnums includes {i}, but "
                                f"{self.__name__} was called with {len(args)} arguments.")
        nondiff = {i % len(args) for i in self.nondiff_argnums}
        return ([a for i, a in enumerate(args) if i not in nondiff],
                [self._nondiff_arg(i, a) for i, a in enumerate(args) if i in nondiff])

    def _enter(self, rule, definer, args, kwargs):
        """A call's top trace (None if nothing is traced), its flat differentiated
        arguments and their structure, and its other arguments; `rule` must be set."""
        if rule is None:
            raise TypeError(f"funcgrad.{self.kind}: {self.__name__} has no rule yet; call "
                            f"{self.__name__}.{definer} before using it.")
        diff_args, nondiff_args = self._bind(args, kwargs)
        flat, in_tree = tree_flatten(tuple(diff_args))
        # A non-differentiated argument mapped by an inner vmap puts the call under it.
        top = find_top_trace(flat + tree_flatten(nondiff_args)[0])
        return top, flat, in_tree, nondiff_args

    def _apply_batched(self, trace, flat, in_tree, nondiff_args):
        """A call under vmap (`trace`). If a transform beneath the batch watches the
        arguments too (``grad(vmap(f))``), running the function on the batch would hide its
        rule from that transform: a custom function of the whole batch, whose rules are this
        one's run on the batch (`_batched`), takes its place, as in JAX. It takes the
        non-differentiated arguments' leaves first, as non-differentiated arguments of its
        own (mapped where this batch maps them), and its outputs are batched along axis 0."""
        values, axes = _opened(flat, trace)
        if find_top_trace(values) is None:
            return self.fun(*self._args_of_leaves(flat, in_tree, nondiff_args))
        nondiff_flat, nondiff_tree = tree_flatten(nondiff_args)
        nondiff_values, nondiff_axes = _opened(nondiff_flat, trace)
        batch = _Batch(trace.size, tuple(axes), in_tree, tuple(nondiff_axes), nondiff_tree)
        out_trees = []  # the output's structure, known once the function or a rule has run
        batched = self._batched(batch, flat, out_trees)
        out_flat = batched(*nondiff_values, *values)
        return tree_unflatten(out_trees[0], [trace.box(out, 0) for out in out_flat])

    def _batched_function(self, batch, out_trees):
        """This function run on the whole batch, as a function of the non-differentiated
        arguments' leaves, then the others', returning its output's leaves stacked along
        axis 0."""
        def of_leaves(*leaves):
            nondiff_args, diff_leaves = batch.split(leaves)
            out = self.fun(*self._args_of_leaves(diff_leaves, batch.in_tree, nondiff_args))
            return _flat_output(out, out_trees)
        run = _stacked(of_leaves, batch.nondiff_axes + batch.axes, batch.size)
        run.__name__ = run.__qualname__ = self.__name__  # the errors name the user's function
        return run

    def _batched_custom(self, batch, out_trees):
        """An empty custom function of the whole batch (`_batched_function`), of this kind,
        whose first arguments, the non-differentiated leaves, are not differentiated."""
        return type(self)(self._batched_function(batch, out_trees),
                          nondiff_argnums=range(len(batch.nondiff_axes)))

    def _args_of_leaves(self, leaves, in_tree, nondiff_args):
        """The positional arguments of a call, from its differentiated arguments' leaves."""
        return self._merge(tree_unflatten(in_tree, leaves), nondiff_args)

    def _merge(self, diff_args, nondiff_args):
        """The full positional argument list again."""
        diff, nondiff = iter(diff_args), iter(nondiff_args)
        count = len(diff_args) + len(nondiff_args)
        positions = {i % count for i in self.nondiff_argnums}
        return [next(nondiff) if i in positions else next(diff) for i in range(count)]


# ---- custom_vjp --------------------------------------------------------------------------


class custom_vjp(_CustomFunction):
    """Give a function its own VJP::

        @custom_vjp
        def f(x, y): ...

        def f_fwd(x, y):        # -> (output, residuals)
            return f(x, y), (x, y)

        def f_bwd(res, g):      # -> one cotangent (or None) per differentiated argument
            x, y = res
            return (g * y, g * x)

        f.defvjp(f_fwd, f_bwd)

    With ``nondiff_argnums``, `bwd` receives those arguments first
    (``bwd(*nondiff_args, res, g)``) and returns cotangents for the others only. Only the
    first derivative uses `bwd` directly; higher orders differentiate through `fwd` and
    `bwd`, so write them with ``funcgrad.numpy``.
    """

    kind = "custom_vjp"

    def __init__(self, fun, nondiff_argnums=()):
        super().__init__(fun, nondiff_argnums)
        self.fwd = None
        self.bwd = None
        # Applications are recorded by `_apply_reverse`, never saved by the engine.
        defvjp_rule(self.primitive, None, self._backward)

    def defvjp(self, fwd, bwd):
        check_callable(fwd, "custom_vjp.defvjp", "fwd rule")
        check_callable(bwd, "custom_vjp.defvjp", "bwd rule")
        self.fwd = fwd
        self.bwd = bwd
        return self

    def __call__(self, *args, **kwargs):
        trace, flat, in_tree, nondiff_args = self._enter(self.fwd, "defvjp(fwd, bwd)", args,
                                                         kwargs)
        if isinstance(trace, JVPTrace):
            raise NotImplementedError(
                f"funcgrad.custom_vjp: {self.__name__} defines only a reverse-mode rule, so "
                f"forward mode (jvp, jacfwd) cannot differentiate it (as in JAX). Use reverse "
                f"mode instead (grad, vjp, jacrev, linearize), or custom_jvp; forward over "
                f"reverse (hessian, hvp) works too, since there the reverse pass "
                f"differentiates {self.__name__}.")
        if isinstance(trace, BatchTrace):
            return self._apply_batched(trace, flat, in_tree, nondiff_args)
        if not isinstance(trace, ReverseTrace):
            # No transform, or make_graph: the graph shows what the function computes.
            return self.fun(*self._args_of_leaves(flat, in_tree, nondiff_args))
        return self._apply_reverse(trace, flat, in_tree, nondiff_args)

    def _fwd_of_leaves(self, leaves, in_tree, nondiff_args):
        """The user's fwd on a call's differentiated leaves, checked: (output, residuals)."""
        result = self.fwd(*self._args_of_leaves(leaves, in_tree, nondiff_args))
        if not (isinstance(result, (tuple, list)) and len(result) == 2):
            raise TypeError(
                f"funcgrad.custom_vjp: the fwd of {self.__name__} must return a pair "
                f"(output, residuals), but it returned a {type(result).__name__}"
                f"{'' if not isinstance(result, (tuple, list)) else f' of {len(result)}'}.")
        return result

    def _apply_reverse(self, trace, flat, in_tree, nondiff_args):
        values, parents, _ = trace.open_args(flat)
        out, residuals = self._fwd_of_leaves(values, in_tree, nondiff_args)
        out_flat, out_tree = tree_flatten(out)
        call = _VJPCall(self.__name__, out_tree, out_flat, values, in_tree, nondiff_args)
        packed = trace.record(self.primitive, NO_PARAMS, parents, (residuals, call),
                              tuple(out_flat))
        return tree_unflatten(out_tree, [tuple_get(packed, index=i) for i in range(len(out_flat))])

    def _backward(self, residuals, params, g):
        """The primitive's backward rule: the user's bwd, called once, its answer checked
        and flattened into one cotangent per flat input."""
        user_residuals, call = residuals
        like = library_array(next(c for c in g if c is not None))  # CuPy's zeros for CuPy
        g_full = [np.zeros(*aval, like=like) if c is None else c
                  for c, aval in zip(g, call.output_avals)]
        cts = self.bwd(*call.nondiff_args, user_residuals,
                       tree_unflatten(call.out_tree, g_full))
        return call.checked(cts)

    def _nondiff_arg(self, i, arg):
        """As in JAX, a traced value cannot be a non-differentiated argument here: bwd
        could not give it a cotangent, nor a batch of them."""
        if any(isinstance(leaf, Box) for leaf in tree_flatten(arg)[0]):
            raise TypeError(
                f"funcgrad.custom_vjp: argument {i} of {self.__name__} is in nondiff_argnums "
                f"but holds a value traced by a transform (as in JAX, only values no "
                f"transform traces, such as functions or settings, can be); pass it as an "
                f"ordinary argument instead, and give it a None cotangent in bwd.")
        return arg

    def _batched(self, batch, inputs, out_trees):
        """This function of a whole batch (`_apply_batched`) with fwd and bwd this one's
        run on the batch. A residual that does not depend on the batch (a shape, a flag)
        reaches bwd as it is; the cotangent of a leaf the batch shares is summed over it.
        (`_nondiff_arg` keeps the batch out of the non-differentiated arguments.)"""
        def fwd_of_leaves(*leaves):
            nondiff_args, diff_leaves = batch.split(leaves)
            out, residuals = self._fwd_of_leaves(diff_leaves, batch.in_tree, nondiff_args)
            return _flat_output(out, out_trees), residuals

        def batched_fwd(*values):
            (out_flat, residuals), trace = batched_call(
                fwd_of_leaves, values, batch.nondiff_axes + batch.axes, batch.size)
            out = tuple(unbatched(leaf, trace, 0, batch.size, i)
                        for i, leaf in enumerate(out_flat))
            residual_leaves, residual_tree = tree_flatten(residuals)
            return out, (residual_tree, *_opened(residual_leaves, trace))

        cotangents = _ArgumentCotangents(self.__name__, inputs, batch.in_tree,
                                         tree_unflatten(batch.nondiff_tree, batch.nondiff_axes))

        def batched_bwd(*arguments):
            *nondiff_leaves, residuals, g = arguments
            nondiff_args = tree_unflatten(batch.nondiff_tree, nondiff_leaves)
            residual_tree, residual_values, residual_axes = residuals

            def bwd_of_leaves(*leaves):  # one element: bwd's answer checked against it
                count = len(residual_values)
                cts = self.bwd(*nondiff_args, tree_unflatten(residual_tree, leaves[:count]),
                               tree_unflatten(out_trees[0], leaves[count:]))
                return cotangents.checked(cts)

            stacked = _stacked(bwd_of_leaves, (*residual_axes, *[0] * len(g)), batch.size)(
                *residual_values, *g)
            return tuple(None if ct is None else fnp.sum(ct, axis=0) if axis is None
                         else fnp.moveaxis(ct, 0, axis)
                         for ct, axis in zip(stacked, batch.axes))

        return self._batched_custom(batch, out_trees).defvjp(batched_fwd, batched_bwd)


class _ArgumentCotangents:
    """Checks the cotangents a bwd returns against the structures, shapes and dtypes of
    the differentiated arguments of its call."""

    def __init__(self, name, inputs, in_tree, nondiff_args):
        self.name = name
        self.input_meta = [(shape_of(x), dtype_of(x)) for x in inputs]
        # Each differentiated argument's own tree structure, to check bwd's answer against.
        self.arg_trees = [tree_flatten(arg)[1]
                          for arg in tree_unflatten(in_tree, [0] * len(inputs))]
        self.nondiff_args = nondiff_args

    def checked(self, cts):
        name = self.name
        nargs = len(self.arg_trees)
        what = "differentiated argument" if self.nondiff_args else "argument"
        if not isinstance(cts, (tuple, list)):
            raise TypeError(f"funcgrad.custom_vjp: the bwd of {name} must return a tuple with "
                            f"one cotangent per {what} ({nargs}), got a "
                            f"{type(cts).__name__}.")
        if len(cts) != nargs:
            raise TypeError(f"funcgrad.custom_vjp: the bwd of {name} returned {len(cts)} "
                            f"cotangents, but {name} takes {nargs} {what}s; return one per "
                            f"{what} (None for no gradient).")
        flat_cts, argnum_of_leaf = [], []
        for argnum, (ct, arg_tree) in enumerate(zip(cts, self.arg_trees)):
            if ct is None:
                leaves = [None] * arg_tree.num_leaves
            else:
                leaves, ct_tree = tree_flatten(ct)
                if ct_tree != arg_tree:
                    raise TypeError(
                        f"funcgrad.custom_vjp: the bwd of {name} returned a cotangent for "
                        f"{what} {argnum} with structure {ct_tree}, but that argument has "
                        f"structure {arg_tree}.")
            flat_cts.extend(leaves)
            argnum_of_leaf.extend([argnum] * len(leaves))
        for i, (ct, (shape, dtype), argnum) in enumerate(zip(flat_cts, self.input_meta,
                                                             argnum_of_leaf)):
            if ct is None:
                continue
            if dtype_of(ct) == float0 and dtype.kind not in "fc" and shape_of(ct) == shape:
                flat_cts[i] = None  # JAX's zero cotangent of an integer input: nothing flows
                continue
            if shape_of(ct) != shape or dtype_of(ct) != dtype:
                raise ValueError(
                    f"funcgrad.custom_vjp: the bwd of {name} returned a cotangent of shape "
                    f"{shape_of(ct)} and dtype {dtype_of(ct)} for {what} {argnum}, which has "
                    f"shape {shape} and dtype {dtype}; they must match.")
        return flat_cts


class _VJPCall(_ArgumentCotangents):
    """What the backward rule needs to know of one call besides the user's residuals: its
    arguments (to check the cotangents), its non-differentiated arguments, and the structure,
    shapes and dtypes of its outputs."""

    def __init__(self, name, out_tree, outputs, inputs, in_tree, nondiff_args):
        super().__init__(name, inputs, in_tree, nondiff_args)
        self.out_tree = out_tree
        self.output_avals = [(shape_of(x), dtype_of(x)) for x in outputs]


class _Batch:
    """How `_apply_batched` maps a call over its batch: the batch ``size``, the axis of each
    differentiated leaf (``axes``) and of each non-differentiated one (``nondiff_axes``;
    None: shared by the batch), and the structures that rebuild the arguments."""

    def __init__(self, size, axes, in_tree, nondiff_axes, nondiff_tree):
        self.size = size
        self.axes = axes
        self.in_tree = in_tree
        self.nondiff_axes = nondiff_axes
        self.nondiff_tree = nondiff_tree

    def split(self, leaves):
        """The non-differentiated arguments, rebuilt from the first leaves, and the rest."""
        count = len(self.nondiff_axes)
        return tree_unflatten(self.nondiff_tree, leaves[:count]), leaves[count:]


def _flat_output(out, out_trees):
    """The leaves of a custom function's output, as a tuple; its structure put in
    ``out_trees`` (the caller's, to rebuild it)."""
    out_flat, out_tree = tree_flatten(out)
    out_trees[:] = [out_tree]
    return tuple(out_flat)


def _opened(leaves, trace):
    """The values of ``leaves`` with the batch trace's boxes opened, and the batch axis of
    each (None: the same for every element of the batch)."""
    values, axes = [], []
    for x in leaves:
        mine = isinstance(x, BatchBox) and x._trace is trace
        values.append(x.value if mine else x)
        axes.append(x.axis if mine else None)
    return values, axes


def _stacked(fun, axes, size):
    """``fun`` (of leaves, returning a tuple of leaves, some None) run on a batch of
    ``size`` whose leaves are mapped along ``axes``; each result stacked along axis 0."""
    def run(*values):
        out, trace = batched_call(fun, values, axes, size)
        return tuple(None if leaf is None else unbatched(leaf, trace, 0, size, i)
                     for i, leaf in enumerate(out))
    return run


# ---- custom_jvp --------------------------------------------------------------------------


class custom_jvp(_CustomFunction):
    """Give a function its own JVP::

        @custom_jvp
        def f(x, y): ...

        @f.defjvp
        def f_jvp(primals, tangents):     # -> (output, output tangent)
            x, y = primals
            dx, dy = tangents
            return f(x, y), dx * y + x * dy

    or, one rule per argument, ``f.defjvps(lambda dx, ans, x, y: dx * y, lambda dy, ans,
    x, y: x * dy)``. With ``nondiff_argnums``, the rule receives those arguments first
    (``jvp(*nondiff_args, primals, tangents)``); as in JAX, they may be traced arrays,
    which no derivative flows through and which vmap maps. Reverse mode (grad, vjp, ...)
    uses the rule too: it is traced as a linear function of the tangents and transposed,
    so write it with ``funcgrad.numpy``, linear in the tangents.
    """

    kind = "custom_jvp"

    def __init__(self, fun, nondiff_argnums=()):
        super().__init__(fun, nondiff_argnums)
        self.jvp = None
        defvjp_rule(self.primitive, None, _transposed_jvp)

    def defjvp(self, jvp):
        """Set the rule ``jvp(primals, tangents) -> (output, output tangent)``; returns it,
        so that it can decorate the rule."""
        check_callable(jvp, "custom_jvp.defjvp", "rule")
        self.jvp = jvp
        return jvp

    def defjvps(self, *jvps):
        """Set the rule from one function per differentiated argument,
        ``jvp_i(tangent_i, ans, *args)`` (None: that argument does not change the output),
        whose contributions are summed."""
        def jvp(*arguments):
            primals, tangents = arguments[-2], arguments[-1]
            full = self._merge(primals, arguments[:-2])
            ans = self.fun(*full)
            total = None
            for rule, tangent in zip(jvps, tangents):
                if rule is not None:
                    part = rule(tangent, ans, *full)
                    total = part if total is None else tree_map(_add, total, part)
            return ans, tree_map(np.zeros_like, ans) if total is None else total
        self.jvp = jvp

    def __call__(self, *args, **kwargs):
        trace, flat, in_tree, nondiff_args = self._enter(self.jvp, "defjvp(jvp)", args, kwargs)
        if isinstance(trace, JVPTrace):
            return self._apply_forward(trace, flat, in_tree, nondiff_args)
        if isinstance(trace, ReverseTrace):
            return self._apply_reverse(trace, flat, in_tree, nondiff_args)
        if isinstance(trace, BatchTrace):
            return self._apply_batched(trace, flat, in_tree, nondiff_args)
        return self.fun(*self._args_of_leaves(flat, in_tree, nondiff_args))

    def _nondiff_arg(self, i, arg):
        """As in JAX, a traced value may be a non-differentiated argument: no derivative
        flows through it (`stop_gradient`), while a batch (vmap) maps it as it maps the
        others, each element's rule receiving its own."""
        return stop_gradient(arg)

    def _batched(self, batch, inputs, out_trees):
        """This function of a whole batch (`_apply_batched`) with this one's rule run on the
        batch (each tangent batched as its primal)."""
        def rule_of_leaves(*leaves):
            nondiff_args, diff_leaves = batch.split(leaves)
            count = len(batch.axes)
            out_flat, out_tree, tangent_flat = self._rule(
                list(diff_leaves[:count]), list(diff_leaves[count:]), batch.in_tree,
                nondiff_args)
            out_trees[:] = [out_tree]
            return (*out_flat, *tangent_flat)

        def batched_rule(*arguments):
            *nondiff_leaves, primals, tangents = arguments
            stacked = _stacked(rule_of_leaves, batch.nondiff_axes + batch.axes + batch.axes,
                               batch.size)(*nondiff_leaves, *primals, *tangents)
            return stacked[:len(stacked) // 2], stacked[len(stacked) // 2:]

        batched = self._batched_custom(batch, out_trees)
        batched.defjvp(batched_rule)
        return batched

    def _rule(self, values, tangents, in_tree, nondiff_args):
        """The user's rule on flat primals and tangents: flat outputs and output tangents."""
        primals = tree_unflatten(in_tree, values)
        result = self.jvp(*nondiff_args, tuple(primals), tuple(tree_unflatten(in_tree,
                                                                              tangents)))
        if not (isinstance(result, (tuple, list)) and len(result) == 2):
            raise TypeError(
                f"funcgrad.custom_jvp: the JVP rule of {self.__name__} must return a pair "
                f"(output, output tangent), but it returned a {type(result).__name__}"
                f"{'' if not isinstance(result, (tuple, list)) else f' of {len(result)}'}.")
        out, out_tangent = result
        out_flat, out_tree = tree_flatten(out)
        tangent_flat, tangent_tree = tree_flatten(out_tangent)
        if tangent_tree != out_tree:
            raise TypeError(f"funcgrad.custom_jvp: the JVP rule of {self.__name__} returned "
                            f"an output of structure {out_tree} but a tangent of structure "
                            f"{tangent_tree}; they must match.")
        for i, (primal, tangent) in enumerate(zip(out_flat, tangent_flat)):
            if shape_of(tangent) != shape_of(primal) or (
                    is_differentiable(primal) and dtype_of(tangent) != dtype_of(primal)):
                raise TypeError(
                    f"funcgrad.custom_jvp: the JVP rule of {self.__name__} returned a tangent "
                    f"of shape {shape_of(tangent)} and dtype {dtype_of(tangent)} for output "
                    f"{i}, which has shape {shape_of(primal)} and dtype {dtype_of(primal)}; "
                    f"they must match.")
        return out_flat, out_tree, tangent_flat

    def _apply_forward(self, trace, flat, in_tree, nondiff_args):
        values, tangents = [], []
        for x in flat:
            if isinstance(x, JVPBox) and x._trace is trace:
                values.append(x.value)
                tangents.append(x.tangent)
            else:  # a constant at this level: a zero tangent
                values.append(x)
                tangents.append(zeros_like_value(x))
        out_flat, out_tree, tangent_flat = self._rule(values, tangents, in_tree, nondiff_args)
        return tree_unflatten(out_tree, [JVPBox(o, trace, t) if is_differentiable(o) else o
                                         for o, t in zip(out_flat, tangent_flat)])

    def _apply_reverse(self, trace, flat, in_tree, nondiff_args):
        values, parents, _ = trace.open_args(flat)
        # The rule, traced as a function of placeholder tangents (zeros: a linear rule never
        # reads their values); pulling a cotangent back through that trace transposes it.
        with new_trace(ReverseTrace) as linear:
            leaves = [leaf_node() if parent is not None else None for parent in parents]
            tangents = [zeros_like_value(x) if leaf is None
                        else ReverseBox(zeros_like_value(x), linear, leaf)
                        for x, leaf in zip(values, leaves)]
            out_flat, out_tree, tangent_flat = self._rule(values, tangents, in_tree,
                                                          nondiff_args)
        for out in out_flat:
            if isinstance(out, ReverseBox) and out._trace is linear:
                raise TypeError(f"funcgrad.custom_jvp: the output the JVP rule of "
                                f"{self.__name__} returns depends on the tangents; compute it "
                                f"from the primals only.")
        roots = [t.node if isinstance(t, ReverseBox) and t._trace is linear else None
                 for t in tangent_flat]
        packed = trace.record(self.primitive, NO_PARAMS, parents,
                              (linear.tape, roots, leaves), tuple(out_flat))
        return tree_unflatten(out_tree, [tuple_get(packed, index=i) for i in range(len(out_flat))])


def _transposed_jvp(residuals, params, g):
    """custom_jvp's backward rule: the output cotangents pulled back through the traced
    JVP rule (kept: the node may be pulled back again, e.g. by vjp)."""
    tape, roots, leaves = residuals
    pairs = [(root, ct) for root, ct in zip(roots, g) if root is not None and ct is not None]
    found = backward_pass(tape, [root for root, _ in pairs], [ct for _, ct in pairs],
                          retain_graph=True) if pairs else {}
    return [None if leaf is None else found.get(leaf) for leaf in leaves]


def _add(a, b):
    return a + b
