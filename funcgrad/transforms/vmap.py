"""vmap: a function of one example, run on a whole batch (DESIGN.md, decision 15)."""
import functools
import operator

import numpy as np

from .. import numpy as fnp
from ..core import BatchBox, BatchTrace, Box, new_trace, shape_of
from ..core.errors import leaked_output
from ..tree_util import keystr, tree_flatten, tree_flatten_with_path
from ._checks import check_array_types, check_output_leaf
from ._ownership import Owners


def vmap(fun, in_axes=0, out_axes=0, axis_size=None):
    """``fun`` mapped over an axis of its arguments, computed for the whole batch at once.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> vmap(lambda w, x: fnp.dot(w, x), in_axes=(None, 0))(np.ones(3), np.eye(3) * 2)
    array([2., 2., 2.])

    ``in_axes``: for each positional argument, the axis it is mapped over (an int, negative
    counting from the end), or None for an argument shared by the whole batch; an int or
    None applies to every argument, a tuple gives one entry per argument, and each entry
    may be a pytree prefix of its argument. Keyword arguments are mapped over axis 0.
    ``out_axes``: where the batch goes in each output (a pytree prefix of the outputs;
    None for an output that does not depend on the batch). ``axis_size``: the batch size,
    needed only when no argument is mapped. Compose freely: ``vmap(grad(f))`` gives
    per-example gradients, ``vmap(vmap(f))`` maps over two axes.
    """
    _axes_spec(in_axes, "in_axes")
    out_spec = _axes_spec(out_axes, "out_axes")
    if axis_size is not None:
        axis_size = operator.index(axis_size)

    @functools.wraps(fun)
    def batched(*args, **kwargs):
        # Arguments and keyword arguments flattened apart: a tuple of arrays, the common
        # call, has a shared treedef (tree_flatten's fast path).
        flat_args, args_tree = tree_flatten(args)
        flat_kwargs, kwargs_tree = tree_flatten(kwargs) if kwargs else ([], None)
        flat = flat_args + flat_kwargs
        check_array_types(flat, (args, kwargs), "vmap")
        flat_axes = _flat_in_axes(in_axes, args, len(flat_args), len(flat_kwargs))
        size = _batch_size(flat, flat_axes, lambda: _paths(args, kwargs), axis_size)

        def fun_of_leaves(*leaves):
            if not kwargs:
                return fun(*args_tree.unflatten(leaves))
            return fun(*args_tree.unflatten(leaves[:len(flat_args)]),
                       **kwargs_tree.unflatten(leaves[len(flat_args):]))
        out, trace = batched_call(fun_of_leaves, flat, flat_axes, size)
        out_flat, out_tree = tree_flatten(out)
        flat_out_axes = _broadcast_prefix(out_spec, out, "out_axes", "the function's output",
                                          len(out_flat))
        results = [unbatched(leaf, trace, axis, size, i)
                   for i, (leaf, axis) in enumerate(zip(out_flat, flat_out_axes))]
        return out_tree.unflatten(Owners(flat).claim_all(results))

    return batched


def batched_call(fun, args, axes, size):
    """``fun(*args)`` computed for a batch of ``size`` elements at once, each array
    ``args[i]`` mapped over its axis ``axes[i]`` (non-negative; None: shared by the batch).
    Returns the output, with its batched values still boxed, and the trace: give each
    output leaf to `unbatched`. `vmap` without pytrees, axis specs or copies, for the
    transforms that batch arrays of their own making (jacfwd, jacrev)."""
    with new_trace(BatchTrace, size) as trace:
        out = fun(*[x if axis is None else BatchBox(x, trace, axis)
                    for x, axis in zip(args, axes)])
    return out, trace


def _is_one_axis(axes):
    """Whether an axes spec is one int or None (for every leaf), not a pytree of them."""
    return axes is None or (isinstance(axes, (int, np.integer)) and not isinstance(axes, bool))


def _axes_spec(axes, name):
    """An axes spec checked: one int or None (for every leaf) as it is, a pytree of them
    as its (leaves, structure), flattened once (None is a leaf here)."""
    if _is_one_axis(axes):
        return axes
    leaves, structure = tree_flatten(axes, is_leaf=lambda x: x is None)
    for leaf in leaves:
        if not _is_one_axis(leaf):
            raise TypeError(f"funcgrad.vmap: {name} must be ints, None, or pytrees of them, "
                            f"got {axes!r}.")
    return leaves, structure


def _paths(args, kwargs):
    """The name of each leaf of the arguments, for error messages."""
    return ["args" + keystr(path[1:]) if path[0].idx == 0 else "kwargs" + keystr(path[1:])
            for path, _ in tree_flatten_with_path((args, kwargs))[0]]


def _flat_in_axes(in_axes, args, args_leaves, kwargs_leaves):
    """One mapped axis (or None) per leaf of the arguments, then of the keyword arguments
    (mapped over axis 0)."""
    if _is_one_axis(in_axes):
        return [in_axes] * args_leaves + [0] * kwargs_leaves
    if isinstance(in_axes, list):  # as JAX: a list is a tuple here
        in_axes = tuple(in_axes)
    if isinstance(in_axes, tuple) and len(in_axes) != len(args):
        raise ValueError(
            f"funcgrad.vmap: in_axes is a tuple of {len(in_axes)} entries, but the function "
            f"was called with {len(args)} positional argument{'s' if len(args) != 1 else ''}; "
            f"give one entry per positional argument (or a single int or None for all).")
    spec = in_axes if isinstance(in_axes, tuple) else (in_axes,) * len(args)
    flat = []
    for i, (arg, axes) in enumerate(zip(args, spec)):
        flat.extend(_broadcast_prefix(_axes_spec(axes, "in_axes"), arg, "in_axes",
                                      f"args[{i}]"))
    return flat + [0] * kwargs_leaves


def _broadcast_prefix(spec, tree, name, what, leaves=None):
    """The entry of an axes spec (`_axes_spec`: a pytree prefix of ``tree``) for each leaf
    of ``tree`` (``leaves`` of them, counted here if not given)."""
    if _is_one_axis(spec):  # one int or None for the whole tree
        return [spec] * (len(tree_flatten(tree)[0]) if leaves is None else leaves)
    axes, structure = spec
    try:
        subtrees = structure.flatten_up_to(tree)
    except ValueError as error:
        prefix = structure.unflatten(axes)
        raise ValueError(f"funcgrad.vmap: {name} {prefix!r} does not match the structure of "
                         f"{what}: {error}") from None
    flat = []
    for axis, subtree in zip(axes, subtrees):
        flat.extend([axis] * len(tree_flatten(subtree)[0]))
    return flat


def _batch_size(flat_args, flat_axes, paths, axis_size):
    """The batch size all mapped arguments agree on; mapped axes made non-negative.
    ``paths()`` names the arguments, for the error messages."""
    sizes = {}
    for i, (x, axis) in enumerate(zip(flat_args, flat_axes)):
        if axis is None:
            continue
        shape = shape_of(x)
        ndim = len(shape)
        if not -ndim <= axis < ndim:
            raise ValueError(
                f"funcgrad.vmap: in_axes maps {paths()[i]} over axis {axis}, but it has shape "
                f"{shape} ({ndim} dimension{'s' if ndim != 1 else ''}); pass an axis it "
                f"has, or None to share it across the batch.")
        flat_axes[i] = axis % ndim
        sizes[i] = shape[flat_axes[i]]
    if axis_size is not None:
        sizes.setdefault("axis_size", axis_size)
    if not sizes:
        raise ValueError("funcgrad.vmap: no argument is mapped (in_axes is None for all of "
                         "them), so the batch size is unknown; pass axis_size=.")
    size, *others = set(sizes.values())
    if others:
        names = paths()
        listed = ", ".join(f"{i if i == 'axis_size' else names[i]} has {n}"
                           for i, n in sizes.items())
        raise ValueError(f"funcgrad.vmap: the mapped axes have different sizes ({listed}); "
                         f"every mapped argument must have the batch size along its axis.")
    return size


def unbatched(leaf, trace, axis, size, index):
    """Output leaf ``index`` of a `batched_call` outside its trace, with the batch at
    ``axis`` (None: an output that must not depend on the batch)."""
    check_output_leaf(leaf, index, "vmap")
    if isinstance(leaf, BatchBox) and leaf._trace is trace:
        if axis is None:
            raise ValueError(f"funcgrad.vmap: out_axes is None for output leaf {index}, but it "
                             f"depends on the batch; give it an axis.")
        value = leaf.value
        axis = _out_axis(axis, len(shape_of(value)), index)
        return value if axis == leaf.axis else fnp.moveaxis(value, leaf.axis, axis)
    if isinstance(leaf, Box) and leaf._trace.level > trace.level:
        raise leaked_output("vmap")
    if axis is None:
        return leaf
    # The same for every element: broadcast along a new batch axis.
    leaf = fnp.asarray(leaf)
    ndim = len(shape_of(leaf)) + 1
    axis = _out_axis(axis, ndim, index)
    expanded = fnp.expand_dims(leaf, axis)
    shape = list(shape_of(expanded))
    shape[axis] = size
    return fnp.broadcast_to(expanded, tuple(shape))


def _out_axis(axis, ndim, index):
    if not -ndim <= axis < ndim:
        raise ValueError(f"funcgrad.vmap: out_axes asks for axis {axis} of output leaf {index}, "
                         f"which has {ndim} dimensions with the batch.")
    return axis % ndim


__all__ = ["vmap"]
