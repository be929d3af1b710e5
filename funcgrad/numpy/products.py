"""Products: matmul, dot, tensordot, einsum, and their VJPs."""
import string

import numpy as np

from . import reductions
from ._rules import aval, defvjp, defvjp_any_arg, primitive, unbroadcast
from .elementwise import multiply
from .shape_ops import broadcast_to, expand_dims, reshape, transpose

# ---- matmul ------------------------------------------------------------------------

matmul = primitive(np.matmul)


def _swap_last(x):
    axes = list(range(np.ndim(x)))
    axes[-1], axes[-2] = axes[-2], axes[-1]
    return transpose(x, axes)


def _matmul_rule(argnum):
    # Vectors are promoted to matrices (a as a row, b as a column), as NumPy does.
    def rule(ans, a, b):
        shape, dtype = aval(b if argnum else a)
        a_vector, b_vector = np.ndim(a) == 1, np.ndim(b) == 1

        def vjp(g):
            if a_vector:
                g = expand_dims(g, -2 if not b_vector else 0)
            if b_vector:
                g = expand_dims(g, -1)
            a2 = expand_dims(a, 0) if a_vector else a
            b2 = expand_dims(b, -1) if b_vector else b
            if argnum == 0:
                ct = matmul(g, _swap_last(b2))
                ct = reshape(ct, np.shape(ct)[:-2] + np.shape(ct)[-1:]) if a_vector else ct
            else:
                ct = matmul(_swap_last(a2), g)
                ct = reshape(ct, np.shape(ct)[:-1]) if b_vector else ct
            return unbroadcast(ct, shape, dtype)
        return vjp
    return rule


defvjp(matmul, _matmul_rule(0), _matmul_rule(1))

# ---- tensordot (and dot, which is a tensordot) ---------------------------------------


def _tensordot_axes(axes, a_ndim, b_ndim):
    if isinstance(axes, (int, np.integer)):
        return tuple(range(a_ndim - axes, a_ndim)), tuple(range(axes))
    a_axes, b_axes = axes
    a_axes = (a_axes,) if isinstance(a_axes, (int, np.integer)) else tuple(a_axes)
    b_axes = (b_axes,) if isinstance(b_axes, (int, np.integer)) else tuple(b_axes)
    if len(a_axes) != len(b_axes):
        raise ValueError(f"funcgrad.numpy.tensordot: axes {a_axes} and {b_axes} must have the "
                         f"same length")
    return tuple(a % a_ndim for a in a_axes), tuple(b % b_ndim for b in b_axes)


_tensordot = primitive(lambda a, b, axes: np.tensordot(a, b, axes), "tensordot")


def _tensordot_rule(argnum):
    def rule(ans, a, b, axes):
        a_axes, b_axes = axes
        a_free = [i for i in range(np.ndim(a)) if i not in a_axes]
        b_free = [i for i in range(np.ndim(b)) if i not in b_axes]
        shape, dtype = aval(b if argnum else a)

        def vjp(g):
            g_a = tuple(range(len(a_free)))                 # g's axes that came from a
            g_b = tuple(range(len(a_free), np.ndim(g)))     # ... and from b
            if argnum == 0:
                ct = _tensordot(g, b, axes=(g_b, tuple(b_free)))
                # ct's axes: a's free axes, then b's contracted axes in b's order.
                order = a_free + [a_axes[b_axes.index(i)] for i in sorted(b_axes)]
            else:
                ct = _tensordot(a, g, axes=(tuple(a_free), g_a))
                order = [b_axes[a_axes.index(i)] for i in sorted(a_axes)] + b_free
            return unbroadcast(transpose(ct, tuple(np.argsort(order))), shape, dtype)
        return vjp
    return rule


defvjp(_tensordot, _tensordot_rule(0), _tensordot_rule(1))


def tensordot(a, b, axes=2):
    """``numpy.tensordot``: sum products over ``axes`` (an int, or a pair of axis lists)."""
    return _tensordot(a, b, axes=_tensordot_axes(axes, np.ndim(a), np.ndim(b)))


def dot(a, b):
    """``numpy.dot``: a product for scalars, inner product of vectors, matrix product, or
    a sum over the last axis of ``a`` and the second-to-last of ``b``."""
    a_ndim, b_ndim = np.ndim(a), np.ndim(b)
    if a_ndim == 0 or b_ndim == 0:
        return multiply(a, b)
    if b_ndim <= 2 and a_ndim <= 2:
        return matmul(a, b)
    return tensordot(a, b, axes=((a_ndim - 1,), (max(b_ndim - 2, 0),)))


# ---- einsum --------------------------------------------------------------------------


def _explicit_subscripts(subscripts, shapes):
    """Parse ``subscripts`` into one label string per operand and one for the output,
    with ``...`` replaced by labels of their own and the implicit output made explicit."""
    subscripts = subscripts.replace(" ", "")
    inputs, arrow, output = subscripts.partition("->")
    inputs = inputs.split(",")
    if len(inputs) != len(shapes):
        raise ValueError(f"funcgrad.numpy.einsum: {len(inputs)} operands in the subscripts "
                         f"{subscripts!r}, but {len(shapes)} arrays were given")
    unused = [c for c in string.ascii_letters if c not in subscripts]
    ellipsis_ndim = max((len(shape) - (len(term) - 3) for term, shape in zip(inputs, shapes)
                         if "..." in term), default=0)
    ellipsis = "".join(unused[:ellipsis_ndim])

    def expand(term, ndim):
        if "..." not in term:
            if len(term) != ndim:
                raise ValueError(f"funcgrad.numpy.einsum: subscripts {term!r} name {len(term)} "
                                 f"axes, but the operand has {ndim}")
            return term
        own = ndim - (len(term) - 3)
        return term.replace("...", ellipsis[len(ellipsis) - own:] if own else "")

    inputs = [expand(term, len(shape)) for term, shape in zip(inputs, shapes)]
    if not arrow:
        counts = {c: sum(term.count(c) for term in inputs) for c in set("".join(inputs))}
        output = ellipsis + "".join(sorted(c for c, n in counts.items()
                                           if n == 1 and c not in ellipsis))
    else:
        output = output.replace("...", ellipsis)
    return inputs, output


def _einsum_impl(*operands, subscripts):
    inputs, output = subscripts
    return np.einsum(",".join(inputs) + "->" + output, *operands, optimize=len(operands) > 2)


# `subscripts` is explicit: (one label string per operand, output labels), no ellipsis.
_einsum = primitive(_einsum_impl, "einsum")


def _einsum_vjp(argnum, ans, *operands, subscripts):
    inputs, output = subscripts
    target = inputs[argnum]
    shape, dtype = aval(operands[argnum])
    sizes = dict(zip(target, shape))
    other_terms = tuple(t for i, t in enumerate(inputs) if i != argnum)
    other_operands = [op for i, op in enumerate(operands) if i != argnum]
    elsewhere = set(output).union(*other_terms)
    unique = "".join(dict.fromkeys(target))          # target's labels, first occurrences
    reachable = "".join(c for c in unique if c in elsewhere)

    def vjp(g):
        ct = _einsum(g, *other_operands, subscripts=((output,) + other_terms, reachable))
        # Axes this operand had as length 1 but the others broadcast: sum them back.
        broadcast_axes = tuple(i for i, c in enumerate(reachable)
                               if sizes[c] == 1 and np.shape(ct)[i] != 1)
        if broadcast_axes:
            ct = reductions.sum(ct, axis=broadcast_axes, keepdims=True)
        # Labels summed away inside this operand alone: the cotangent is constant along them.
        ct = reshape(ct, tuple(sizes[c] if c in reachable else 1 for c in unique))
        ct = broadcast_to(ct, tuple(sizes[c] for c in unique))
        if len(unique) != len(target):
            ct = _onto_diagonal(ct, target, shape)
        return unbroadcast(ct, shape, dtype)
    return vjp


def _onto_diagonal(ct, target, shape):
    """Place ``ct`` (one axis per distinct label) on the diagonal of an array labelled
    ``target``, for operands with a repeated label such as ``'ii'``."""
    first_occurrence = [target.index(c) == position for position, c in enumerate(target)]
    ct = reshape(ct, tuple(n if first else 1 for n, first in zip(shape, first_occurrence)))
    grids = np.indices(shape, sparse=True)
    on_diagonal = np.ones(shape, bool)
    for position, c in enumerate(target):
        on_diagonal &= grids[position] == grids[target.index(c)]
    return multiply(broadcast_to(ct, shape), on_diagonal.astype(np.result_type(ct.dtype)))


defvjp_any_arg(_einsum, _einsum_vjp)


def einsum(subscripts, *operands, optimize=None):
    """``numpy.einsum`` with explicit or implicit output, ellipses and repeated labels."""
    if not isinstance(subscripts, str):
        raise TypeError("funcgrad.numpy.einsum: only the string form of the subscripts is "
                        "supported, e.g. einsum('ij,jk->ik', a, b)")
    inputs, output = _explicit_subscripts(subscripts, [np.shape(op) for op in operands])
    return _einsum(*operands, subscripts=(tuple(inputs), output))


__all__ = ["matmul", "dot", "tensordot", "einsum"]
