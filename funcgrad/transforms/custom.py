"""custom_vjp: a function whose reverse-mode derivative the user supplies."""
import functools

import numpy as np

from ..core import (NO_PARAMS, JVPTrace, Primitive, ReverseTrace, defvjp_rule, dtype_of,
                    find_top_trace, shape_of, tuple_get)
from ..tree_util import tree_flatten, tree_unflatten


class custom_vjp:
    """Give a function its own VJP, JAX-style::

        @custom_vjp
        def f(x, y): ...

        def f_fwd(x, y):        # -> (output, residuals)
            return f(x, y), (x, y)

        def f_bwd(res, g):      # -> one cotangent (or None) per positional argument
            x, y = res
            return (g * y, g * x)

        f.defvjp(f_fwd, f_bwd)

    Only the first derivative uses ``f_bwd`` directly; higher orders differentiate
    through ``f_fwd`` and ``f_bwd``, so write them with ``funcgrad.numpy``.
    """

    def __init__(self, fun):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.fwd = None
        self.bwd = None
        # Named for graphs and errors, but kept out of the registry: it is the user's.
        self.primitive = Primitive(f"custom_vjp[{fun.__qualname__}]", fun,
                                   multiple_results=True, register=False)
        # Applications are recorded by `_apply_traced`, never saved by the engine.
        defvjp_rule(self.primitive, None, self._backward)

    def defvjp(self, fwd, bwd):
        self.fwd = fwd
        self.bwd = bwd
        return self

    def __call__(self, *args):
        if self.fwd is None:
            raise TypeError(f"funcgrad.custom_vjp: {self.__name__} has no VJP yet; call "
                            f"{self.__name__}.defvjp(fwd, bwd) before using it.")
        flat, in_tree = tree_flatten(args)
        trace = find_top_trace(flat)
        if trace is None:
            return self.fun(*args)
        if not isinstance(trace, (ReverseTrace, JVPTrace)):
            # make_graph: not a derivative, so the graph shows what the function computes.
            return self.fun(*args)
        if isinstance(trace, JVPTrace):
            raise NotImplementedError(
                f"funcgrad.custom_vjp: {self.__name__} defines only a reverse-mode rule, so "
                f"forward mode (jvp, jacfwd) cannot differentiate it (as in JAX). Use reverse "
                f"mode instead (grad, vjp, jacrev, linearize); forward over reverse (hessian, "
                f"hvp) works too, since there the reverse pass differentiates {self.__name__}.")
        return self._apply_traced(trace, flat, in_tree)

    def _apply_traced(self, trace, flat, in_tree):
        values, parents, _ = trace.open_args(flat)
        out, residuals = self.fwd(*tree_unflatten(in_tree, values))
        out_flat, out_tree = tree_flatten(out)
        call = _Call(self.__name__, out_tree, out_flat, values, in_tree)
        packed = trace.record(self.primitive, NO_PARAMS, parents, (residuals, call),
                              tuple(out_flat))
        return tree_unflatten(out_tree, [tuple_get(packed, index=i) for i in range(len(out_flat))])

    def _backward(self, residuals, params, g):
        """The primitive's backward rule: the user's bwd, called once, its answer checked
        and flattened into one cotangent per flat input."""
        user_residuals, call = residuals
        g_full = [np.zeros(*aval) if c is None else c for c, aval in zip(g, call.output_avals)]
        return call.checked(self.bwd(user_residuals, tree_unflatten(call.out_tree, g_full)))


class _Call:
    """What the backward rule needs to know of one call besides the user's residuals: the
    structures, shapes and dtypes of its inputs and outputs."""

    def __init__(self, name, out_tree, outputs, inputs, in_tree):
        self.name = name
        self.out_tree = out_tree
        self.output_avals = [(shape_of(x), dtype_of(x)) for x in outputs]
        self.input_meta = [(shape_of(x), dtype_of(x)) for x in inputs]
        # Each positional argument's own tree structure, to check bwd's answer against.
        self.arg_trees = [tree_flatten(arg)[1]
                          for arg in tree_unflatten(in_tree, [0] * len(inputs))]

    def checked(self, cts):
        name = self.name
        nargs = len(self.arg_trees)
        if not isinstance(cts, (tuple, list)):
            raise TypeError(f"funcgrad.custom_vjp: the bwd of {name} must return a tuple with "
                            f"one cotangent per positional argument ({nargs}), got a "
                            f"{type(cts).__name__}.")
        if len(cts) != nargs:
            raise TypeError(f"funcgrad.custom_vjp: the bwd of {name} returned {len(cts)} "
                            f"cotangents, but {name} takes {nargs} positional arguments; "
                            f"return one per argument (None for no gradient).")
        flat_cts, argnum_of_leaf = [], []
        for argnum, (ct, arg_tree) in enumerate(zip(cts, self.arg_trees)):
            if ct is None:
                leaves = [None] * arg_tree.num_leaves
            else:
                leaves, ct_tree = tree_flatten(ct)
                if ct_tree != arg_tree:
                    raise TypeError(
                        f"funcgrad.custom_vjp: the bwd of {name} returned a cotangent for "
                        f"argument {argnum} with structure {ct_tree}, but that argument has "
                        f"structure {arg_tree}.")
            flat_cts.extend(leaves)
            argnum_of_leaf.extend([argnum] * len(leaves))
        for ct, (shape, dtype), argnum in zip(flat_cts, self.input_meta, argnum_of_leaf):
            if ct is not None and (shape_of(ct) != shape or dtype_of(ct) != dtype):
                raise ValueError(
                    f"funcgrad.custom_vjp: the bwd of {name} returned a cotangent of shape "
                    f"{shape_of(ct)} and dtype {dtype_of(ct)} for argument {argnum}, which has "
                    f"shape {shape} and dtype {dtype}; they must match.")
        return flat_cts
