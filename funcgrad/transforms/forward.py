"""Forward mode: jvp."""
import numpy as np

from ..core import (JVPBox, JVPTrace, dtype_of, float0, library_array, new_trace,
                    quiet_floating_point, shape_of, zeros_like_value)
from ..tree_util import keystr, tree_flatten, tree_flatten_with_path, tree_map, tree_unflatten
from ._checks import check_array_types, check_callable, check_output_leaf, is_array_or_box
from ._ownership import Owners, copy_constant
from .reverse import _split_aux, _unbox_level


def jvp(fun, primals, tangents, has_aux=False):
    """Evaluate ``fun(*primals)`` and its directional derivative along ``tangents``.

    >>> import funcgrad.numpy as fnp
    >>> out, tangent = jvp(fnp.sin, (0.0,), (2.0,))   # sin(0), cos(0) * 2
    >>> float(out), float(tangent)
    (0.0, 2.0)

    ``primals`` and ``tangents`` are tuples (or lists) with one entry per positional
    argument, of the same pytree structure; each tangent has its primal's shape and dtype
    (for integer or boolean primals: zeros of dtype ``funcgrad.float0``). Returns
    ``(out, tangent_out)``, or ``(out, tangent_out, aux)`` with has_aux. Integer and
    boolean outputs are constants: their tangents are float0 zeros.
    """
    check_callable(fun, "jvp")
    flat_primals, in_tree = _flatten_arguments(primals, tangents)
    check_array_types(flat_primals, tuple(primals), "jvp", "primals")
    flat_tangents = tree_flatten(tuple(tangents))[0]
    with new_trace(JVPTrace) as trace, quiet_floating_point():
        boxed = [_watch(x, t, trace, where)
                 for x, t, where in zip(flat_primals, flat_tangents, _paths(primals))]
        out = fun(*tree_unflatten(in_tree, boxed))
    aux = None
    if has_aux:
        out, aux = _split_aux(out, "jvp")
        aux = tree_map(lambda x: _unbox_level(x, trace, "jvp"), aux)
    out_flat, out_tree = tree_flatten(out)
    values, out_tangents = [], []
    for i, leaf in enumerate(out_flat):
        check_output_leaf(leaf, i, "jvp")
        value, tangent = _split_leaf(leaf, trace)
        values.append(value)
        out_tangents.append(tangent)
    owners = Owners(flat_primals, flat_tangents)
    result = (tree_unflatten(out_tree, owners.claim_all(values)),
              tree_unflatten(out_tree, owners.claim_all(out_tangents)))
    return result + (owners.claim_tree(aux),) if has_aux else result


def _flatten_arguments(primals, tangents):
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError(
            f"funcgrad.jvp: primals and tangents must be tuples or lists with one entry per "
            f"positional argument, got {type(primals).__name__} and "
            f"{type(tangents).__name__}; for one argument write jvp(f, (x,), (t,)).")
    flat_primals, in_tree = tree_flatten(tuple(primals))
    tangent_tree = tree_flatten(tuple(tangents))[1]
    if tangent_tree != in_tree:
        raise TypeError(f"funcgrad.jvp: tangents must have the structure of primals, "
                        f"{in_tree}, but have structure {tangent_tree}.")
    return flat_primals, in_tree


def _paths(primals):
    return ["primals" + keystr(path)
            for path, _ in tree_flatten_with_path(tuple(primals))[0]]


def _watch(x, tangent, trace, where):
    """Box primal ``x`` with its tangent; integer and boolean primals stay constants."""
    if not is_array_or_box(x):
        raise TypeError(f"funcgrad.jvp: {where} is a {type(x).__name__}, not an array; "
                        f"primals must be arrays or scalars, or pytrees of them.")
    tangent = check_tangent(tangent, x, where, "jvp")
    return JVPBox(x, trace, tangent) if dtype_of(x).kind in "fc" else x


def check_tangent(tangent, primal, where, transform):
    """A tangent must have its primal's shape and dtype (float0 for integer primals); a
    Python number is accepted for a scalar primal."""
    shape, dtype = shape_of(primal), dtype_of(primal)
    if dtype.kind not in "fc":
        if dtype_of(tangent) != float0 or shape_of(tangent) != shape:
            raise TypeError(
                f"funcgrad.{transform}: {where} has dtype {dtype}, so its tangent must be zeros "
                f"of shape {shape} and dtype funcgrad.float0 (integer and boolean values are "
                f"constants), got shape {shape_of(tangent)} and dtype {dtype_of(tangent)}.")
        return tangent
    if isinstance(tangent, (float, int, complex)) and not isinstance(tangent, bool) \
            and shape == ():
        tangent = np.asarray(tangent, dtype, like=library_array(primal))
    if shape_of(tangent) != shape or dtype_of(tangent) != dtype:
        raise TypeError(
            f"funcgrad.{transform}: the tangent for {where} has shape {shape_of(tangent)} and "
            f"dtype {dtype_of(tangent)}, but the primal has shape {shape} and dtype {dtype}; "
            f"they must match.")
    return tangent


def zero_tangent(value):
    """The tangent of a value that depends on no input: zeros (float0 for integers)."""
    if dtype_of(value).kind in "fc":
        return zeros_like_value(value)
    return np.zeros(shape_of(value), float0)


def _split_leaf(leaf, trace):
    """An output leaf's value outside ``trace``, and its tangent (zeros if constant)."""
    if isinstance(leaf, JVPBox) and leaf._trace is trace:
        return leaf.value, leaf.tangent
    value = copy_constant(_unbox_level(leaf, trace, "jvp"))  # see _ownership
    return value, zero_tangent(value)


__all__ = ["jvp"]
