"""checkpoint (remat): trade compute for memory in reverse mode, with JAX's policies for
what to save instead of recomputing (`checkpoint_policies`, `checkpoint_name`)."""
import functools
import operator
import types

from ..core import (NO_PARAMS, ArgVJP, Box, Primitive, ReverseBox, ReverseTrace, defbatch,
                    defjvp, defvjp, defvjp_rule, find_top_trace, is_differentiable, registry,
                    shape_of, tuple_get)
from ..tree_util import tree_flatten, tree_map, tree_unflatten
from ._checks import check_callable
from .reverse import _Linearized


def checkpoint(fun, *, prevent_cse=True, policy=None, static_argnums=()):
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

    ``policy``, as in JAX, says which intermediates to save rather than recompute: a
    function ``policy(primitive, *args, **params) -> bool`` asked of each primitive
    application on a traced value (``args`` are its arguments' values), such as those of
    `checkpoint_policies` (``dots_saveable``: the results of matrix products). The first
    run then notes what the policy saves (holding one block's intermediates while it
    runs), and the backward pass reruns ``fun`` taking those results instead of
    computing them again: a saved application is not rerun, the others are (funcgrad
    does not prune what the backward pass would not need). None saves nothing.

    ``prevent_cse`` (default True, as in JAX): under `jit`, the recomputation reads the
    inputs through an optimization barrier, so that jit's common-subexpression pass cannot
    merge it with the first run, which would keep every intermediate alive until the
    backward pass and undo the checkpoint. False lets jit merge them (less compute, no
    memory saved); eagerly the barrier costs one identity call per backward pass.

    ``static_argnums``: positional arguments that are not arrays (shapes, flags,
    functions), checked against each call as JAX does (``-len(args) <= i < len(args)``).
    Every argument's value is concrete in funcgrad, so Python control flow works on any
    of them; a traced value there is still differentiated through, as in JAX.
    """
    check_callable(fun, "checkpoint")
    static_argnums = _static_argnums(static_argnums)
    if policy is not None and not callable(policy):
        raise TypeError(f"funcgrad.checkpoint: policy must be a function (primitive, *args, "
                        f"**params) -> bool, such as checkpoint_policies.dots_saveable, or "
                        f"None; got {policy!r}.")
    primitive = Primitive(f"checkpoint[{getattr(fun, '__qualname__', repr(fun))}]", fun,
                          multiple_results=True, register=False)
    defvjp_rule(primitive, None, _recompute)

    @functools.wraps(fun)
    def checkpointed(*args, **kwargs):
        _check_static_argnums(static_argnums, len(args))
        flat, in_tree = tree_flatten((args, kwargs))
        trace = find_top_trace(flat)
        if type(trace) is not ReverseTrace:  # forward mode, compat's tape, or no transform
            return fun(*args, **kwargs)
        return _record(_Call(fun, policy, prevent_cse, in_tree), primitive, trace, flat)

    return checkpointed


remat = checkpoint


def _static_argnums(static_argnums):
    if isinstance(static_argnums, int):
        static_argnums = (static_argnums,)
    try:
        return tuple(operator.index(i) for i in static_argnums)
    except TypeError:
        raise TypeError(f"funcgrad.checkpoint: static_argnums must be an int or a tuple of "
                        f"ints, got {static_argnums!r}.") from None


def _check_static_argnums(static_argnums, count):
    for i in static_argnums:
        if not -count <= i < count:
            raise ValueError(f"funcgrad.checkpoint: static_argnums includes {i}, but the "
                             f"function was called with {count} positional arguments; "
                             f"each must be in [-{count}, {count}).")


class _Call:
    """One checkpointed call: the function, its policy, how its flat arguments are rebuilt
    and (once it has run) its output's structure."""

    __slots__ = ("fun", "policy", "prevent_cse", "in_tree", "out_tree")

    def __init__(self, fun, policy, prevent_cse, in_tree):
        self.fun = fun
        self.policy = policy
        self.prevent_cse = prevent_cse
        self.in_tree = in_tree
        self.out_tree = None

    def of_leaves(self, values, positions):
        """The function of the leaves at ``positions`` (the others fixed to ``values``),
        returning its output's leaves."""
        def run(*traced):
            full = list(values)
            for position, x in zip(positions, traced):
                full[position] = x
            args, kwargs = tree_unflatten(self.in_tree, full)
            out_flat, self.out_tree = tree_flatten(self.fun(*args, **kwargs))
            return tuple(out_flat)
        return run


def _record(call, primitive, trace, flat):
    """Run the function below ``trace`` and record one node whose backward rule recomputes
    it; with a policy, the node keeps the results the policy saves (`_SavingTrace`)."""
    values, parents, _ = trace.open_args(flat)
    positions = tuple(i for i, parent in enumerate(parents) if parent is not None)
    run = call.of_leaves(values, positions)
    inputs = [values[p] for p in positions]
    saved = {}
    if call.policy is None:
        out_flat = run(*inputs)
    else:
        out_flat = _Linearized(run, inputs, False, "checkpoint", trace_type=_SavingTrace,
                               trace_args=(call.policy, saved)).outputs
    packed = trace.record(primitive, NO_PARAMS, parents, (call, values, positions, saved),
                          tuple(out_flat))
    return tree_unflatten(call.out_tree,
                          [tuple_get(packed, index=i) for i in range(len(out_flat))])


def _recompute(residuals, params, g):
    """The backward rule: rerun the function on the saved inputs under a fresh trace,
    taking the results the policy saved instead of computing them (`_ReplayTrace`), and
    pull the output cotangents back through it."""
    call, values, positions, saved = residuals
    if call.prevent_cse:  # what the rerun reads, behind a barrier (see checkpoint)
        values = [_barrier(x) for x in values]
        saved = {position: (primitive, _barrier(ans))
                 for position, (primitive, ans) in saved.items()}
    rerun = _Linearized(call.of_leaves(values, positions), [values[p] for p in positions],
                        False, "checkpoint", trace_type=_ReplayTrace, trace_args=(saved,))
    cts = rerun.pull_back(g, retain_graph=False)
    flat_cts = [None] * len(values)
    for position, ct in zip(positions, cts):
        flat_cts[position] = ct
    return flat_cts


def _barrier(x):
    """``x`` behind an optimization barrier if a transform (jit's staging) traces it."""
    return optimization_barrier(x) if isinstance(x, Box) else x


# ---- saving what the policy says ------------------------------------------------------


class _SavingTrace(ReverseTrace):
    """The first run of a checkpointed function with a policy: a reverse trace (so that
    custom rules and nested transforms run as in the backward pass's rerun) that notes,
    by its position among the applications, each result the policy saves."""

    __slots__ = ("policy", "saved", "count", "producers")

    def __init__(self, level, policy, saved):
        super().__init__(level)
        self.policy = policy
        self.saved = saved
        self.count = 0
        self.producers = {}  # node -> (position, primitive) of the application that made it

    def process_primitive(self, primitive, args, params):
        position = self.count
        self.count += 1
        out = super().process_primitive(primitive, args, params)
        mine = isinstance(out, ReverseBox) and out._trace is self
        if mine:
            self.producers[out.node] = (position, primitive)
        if self.policy(primitive, *self.open_args(args)[0], **params):
            self.saved[position] = (primitive, out.value if mine else out)
            if primitive is name_p:
                self._save_producer(args[0])
        return out

    def _save_producer(self, named):
        """A named value is saved where it was computed too: what computed it is not
        rerun either."""
        if isinstance(named, ReverseBox) and named._trace is self and (
                named.node in self.producers):
            position, primitive = self.producers[named.node]
            self.saved[position] = (primitive, named.value)


class _ReplayTrace(ReverseTrace):
    """The backward pass's rerun: a reverse trace that records each application the first
    run saved with the saved result, without computing it again."""

    __slots__ = ("saved", "count")

    def __init__(self, level, saved):
        super().__init__(level)
        self.saved = saved
        self.count = 0

    def process_primitive(self, primitive, args, params):
        position = self.count
        self.count += 1
        found = self.saved.get(position)
        if found is None:
            return super().process_primitive(primitive, args, params)
        saved_primitive, ans = found
        if saved_primitive is not primitive:
            raise RuntimeError(
                f"funcgrad.checkpoint: rerun in the backward pass, the function applied "
                f"'{primitive.name}' where its first run applied '{saved_primitive.name}'; "
                f"a checkpointed function must be pure (the same primitives on the same "
                f"inputs every run).")
        values, parents, _ = self.open_args(args)
        if not is_differentiable(ans):
            return ans
        residuals = primitive.vjp.save(ans, values, params, parents)
        return self.record(primitive, params, parents, residuals, ans, values)


# ---- policies -------------------------------------------------------------------------


def _identity_primitive(name):
    """A primitive that returns its argument: its derivatives and batch pass through."""
    def identity(x, **params):
        return x
    identity.__name__ = name  # jit's generated code names the function
    primitive = Primitive(name, identity, register=False)
    defvjp(primitive, ArgVJP(lambda ans, x, **params: (), lambda g: g, saves=()))
    defjvp(primitive, lambda t, ans, x, **params: t)
    defbatch(primitive, lambda prim, size, values, axes, params: (prim(values[0], **params),
                                                                   axes[0]))
    return primitive


# A value named for the policies (`checkpoint_name`), as JAX's name primitive.
name_p = _identity_primitive("name")
# A new value, equal to its argument, that jit's passes cannot see through (`prevent_cse`).
optimization_barrier = _identity_primitive("optimization_barrier")


def checkpoint_name(x, name):
    """``x`` (a pytree of arrays) unchanged, named ``name`` for a checkpoint policy
    (`checkpoint_policies.save_only_these_names`), as JAX's ``checkpoint_name``."""
    if not isinstance(name, str):
        raise TypeError(f"funcgrad.checkpoint_name: name must be a string, got {name!r}.")
    return tree_map(lambda leaf: name_p(leaf, name=name), x)


# funcgrad's matrix products, which JAX writes as dot_general (dot, inner and vdot are
# made of them), and its convolution, JAX's conv_general_dilated.
_DOTS = frozenset({"matmul", "tensordot", "einsum"})
_CONVOLUTIONS = frozenset({"convolve"})


def _builtin(primitive, names):
    """Whether ``primitive`` is funcgrad's own primitive of one of these names."""
    return primitive.name in names and registry.get(primitive.name) is primitive


def _has_batch_dims(primitive, args, params):
    """Whether a matrix product maps over axes of both operands, as a JAX dot_general with
    batch dimensions would: matmul's stacks of matrices where both have more than one, an
    einsum's labels in two operands and the output (tensordot has none)."""
    if primitive.name == "matmul":
        a, b = (shape_of(x) for x in args)
        if len(a) < 3 or len(b) < 3:
            return False
        return any(m > 1 and n > 1 for m, n in zip(reversed(a[:-2]), reversed(b[:-2])))
    if primitive.name == "einsum":
        inputs, output = params["subscripts"]
        return any(sum(label in term for term in inputs) > 1 for label in output)
    return False


def everything_saveable(*args, **params):
    """Save every result: reverse mode as without checkpoint."""
    return True


def nothing_saveable(*args, **params):
    """Save nothing: recompute everything (checkpoint's default)."""
    return False


def dots_saveable(primitive, *args, **params):
    """Save the results of matrix products (matmul, dot, tensordot, einsum of several
    operands) and convolutions."""
    if primitive.name == "einsum" and len(args) < 2:
        return False  # a trace or transpose of one operand: no product
    return _builtin(primitive, _DOTS | _CONVOLUTIONS)


def dots_with_no_batch_dims_saveable(primitive, *args, **params):
    """Save the results of matrix products that do not map over a batch of matrices
    (`_has_batch_dims`); not convolutions."""
    return (_builtin(primitive, _DOTS) and dots_saveable(primitive, *args, **params)
            and not _has_batch_dims(primitive, args, params))


def save_only_these_names(*names):
    """Save the values named (`checkpoint_name`) with one of ``names``, nothing else."""
    names = frozenset(names)

    def policy(primitive, *args, **params):
        return primitive is name_p and params["name"] in names
    return policy


def save_any_names_but_these(*names):
    """Save every named value (`checkpoint_name`) except those named with ``names``."""
    names = frozenset(names)

    def policy(primitive, *args, **params):
        return primitive is name_p and params["name"] not in names
    return policy


def save_from_both_policies(policy_1, policy_2):
    """Save what either policy saves."""
    def policy(primitive, *args, **params):
        return bool(policy_1(primitive, *args, **params)) or bool(
            policy_2(primitive, *args, **params))
    return policy


checkpoint_policies = types.SimpleNamespace(
    everything_saveable=everything_saveable,
    nothing_saveable=nothing_saveable,
    dots_saveable=dots_saveable,
    checkpoint_dots=dots_saveable,
    dots_with_no_batch_dims_saveable=dots_with_no_batch_dims_saveable,
    checkpoint_dots_with_no_batch_dims=dots_with_no_batch_dims_saveable,
    save_only_these_names=save_only_these_names,
    save_any_names_but_these=save_any_names_but_these,
    save_from_both_policies=save_from_both_policies,
)


__all__ = ["checkpoint", "checkpoint_name", "checkpoint_policies", "remat"]
