"""Products: matmul, dot, tensordot, einsum and the products built on them (vdot, inner,
outer, kron, cross), convolutions, and the small numerical routines that are sums of
products (trapezoid, polyval, interp, cov, corrcoef)."""
import operator
import string

import numpy as np

from ..core import Box, constant_like, dtype_of, shape_of, unbox_all, zeros_in_library_of
from . import reductions
from ._axes import normalize_one_axis
from ._rules import (ArgVJP, aval, defbatch, defdiagonal, defjvp, defjvp_any_arg, defvjp,
                     defvjp_any_arg, primitive, reject_out)
from ._base import astype, reshape_p, transpose_p, unbroadcast
from . import _batching, _diagonal
from ._batching import holds_anywhere
from .creation import asarray
from .elementwise import (add, clip, conjugate, imag, multiply, negative, real, sqrt,
                          subtract, true_divide, where)
from .indexing import getitem, take
from .shape_ops import (broadcast_to, concatenate, ravel, reshape,
                        stack, transpose)


def _reject(name, unsupported):
    """The TypeError for keyword arguments (out=, dtype=, ...) we do not support."""
    reject_out(unsupported.pop("out", None), name)
    if unsupported:
        raise TypeError(f"funcgrad.numpy.{name}: the keyword arguments {sorted(unsupported)} "
                        f"are not supported")


def _swap_last(x):
    """x with its last two axes swapped (a transpose, not a conjugate transpose)."""
    if type(x) is np.ndarray:  # a constant (matmul's VJPs on first-order values): a view
        return x.mT
    ndim = len(shape_of(x))
    # Valid axes: the primitive directly, without transpose's checks.
    return transpose_p(x, axes=(1, 0) if ndim == 2 else (*range(ndim - 2), ndim - 1, ndim - 2))


def _moveaxis(x, source, destination):
    """x with axis ``source`` moved to position ``destination`` (both non-negative)."""
    order = [i for i in range(np.ndim(x)) if i != source]
    order.insert(destination, source)
    return transpose(x, order)


# ---- matmul ------------------------------------------------------------------------

def _matmul_impl(a, b):
    """``np.matmul``, with outer products of real floats, ``(..., M, 1) @ (..., 1, N)``
    (the VJP of a vector times a matrix, for the matrix), computed as the product of the
    broadcasts: NumPy runs them through BLAS as products of inner size 1, several times
    slower ((1000, 1) @ (1, 100) float32: 104 against 22 us). Each element is one
    product either way, so the bits are the same but for a zero's sign: BLAS adds the
    product to +0.0, turning a -0.0 into +0.0 (JAX's XLA, which also rewrites such a
    product into a multiply, keeps the -0.0, as this does)."""
    if (type(a) is np.ndarray and a.ndim > 1 and a.shape[-1] == 1 and type(b) is np.ndarray
            and b.ndim > 1 and b.shape[-2] == 1 and a.dtype.kind == "f"
            and b.dtype.kind == "f"):
        return np.multiply(a, b)
    return np.matmul(a, b)


_matmul = primitive(_matmul_impl, "matmul", allocates=True)


def _matmul_vjp(argnum):
    # Each VJP saves only the other operand, as PyTorch's matmul does (compat's in-place
    # checks see what a VJP saves), and declares it (position 2 of (ans, a, b) is b): compat
    # then records a product without searching its residuals.
    def save(ans, a, b):
        a_shape, a_dtype = aval(a)
        b_shape, b_dtype = aval(b)
        if argnum:
            return a, len(a_shape) == 1, len(b_shape) == 1, b_shape, b_dtype
        return b, len(a_shape) == 1, len(b_shape) == 1, a_shape, a_dtype
    return ArgVJP(save, _matmul_b_pull if argnum else _matmul_a_pull,
                  saves=(1,) if argnum else (2,))


# Vectors are promoted to matrices (a as a row, b as a column), as NumPy does.
# Matrices, and a vector times a matrix (or a matrix times a vector) for the vector's
# cotangent, need no reshaping: a product of the cotangent and the other operand.
def _matmul_a_pull(g, b, a_vector, b_vector, shape, dtype):
    if not b_vector and (not a_vector or len(shape_of(b)) == 2):
        return unbroadcast(_matmul(g, _swap_last(b)), shape, dtype)
    b_rows = _insert_axis(b, 0) if b_vector else _swap_last(b)  # (a vector: one row)
    ct = _matmul(_as_matrix_cotangent(g, a_vector, b_vector), b_rows)
    return unbroadcast(_drop_axis(ct, -2) if a_vector else ct, shape, dtype)


def _matmul_b_pull(g, a, a_vector, b_vector, shape, dtype):
    if not a_vector and (not b_vector or len(shape_of(a)) == 2):
        return unbroadcast(_matmul(_swap_last(a), g), shape, dtype)
    a_columns = _insert_axis(a, -1) if a_vector else _swap_last(a)  # (a vector: one column)
    ct = _matmul(a_columns, _as_matrix_cotangent(g, a_vector, b_vector))
    return unbroadcast(_drop_axis(ct, -1) if b_vector else ct, shape, dtype)


def _as_matrix_cotangent(g, a_vector, b_vector):
    """The cotangent of a matmul whose vector operands were promoted to matrices."""
    if a_vector:
        g = _insert_axis(g, -2 if not b_vector else 0)
    if b_vector:
        g = _insert_axis(g, -1)
    return g


# The reshapes of promoted vectors: the primitive directly, their axes being valid
# (expand_dims and reshape check what the user passes).
def _insert_axis(x, axis):
    """x with a length-1 axis at ``axis`` (-1, -2 or 0)."""
    shape = shape_of(x)
    axis %= len(shape) + 1
    return reshape_p(x, shape=shape[:axis] + (1,) + shape[axis:], order="C")


def _drop_axis(x, axis):
    """x without its length-1 ``axis`` (the one a vector operand was promoted along)."""
    shape = shape_of(x)
    axis %= len(shape)
    return reshape_p(x, shape=shape[:axis] + shape[axis + 1:], order="C")


defvjp(_matmul, _matmul_vjp(0), _matmul_vjp(1))
# Bilinear: each argument's tangent goes through the product with the other argument.
defjvp(_matmul, lambda t, ans, a, b: _matmul(t, b), lambda t, ans, a, b: _matmul(a, t))


def matmul(x1, x2, /, **unsupported):
    """``numpy.matmul`` (the ``@`` operator): matrix products, broadcast over leading
    batch axes; a 1-D argument is a vector."""
    if unsupported:
        _reject("matmul", unsupported)
    try:
        return _matmul(x1, x2)
    except ValueError as error:
        # Shapes are checked only once NumPy has refused them: nothing on the hot path.
        _check_matmul_shapes(shape_of(x1), shape_of(x2), error)
        raise


def _check_matmul_shapes(shape1, shape2, error):
    """Raise our explanation of NumPy's ``error`` if the operand shapes are what is wrong."""
    if not shape1 or not shape2:
        raise ValueError("funcgrad.numpy.matmul: scalar operands are not allowed, use "
                         "multiply (or *) instead") from error
    inner1 = shape1[-1]
    inner2 = shape2[-2] if len(shape2) > 1 else shape2[0]
    if inner1 != inner2:
        raise ValueError(f"funcgrad.numpy.matmul: shapes {shape1} and {shape2} do not match: "
                         f"the last axis of the first ({inner1}) must equal the "
                         f"{'second-to-last' if len(shape2) > 1 else 'only'} axis of the "
                         f"second ({inner2})") from error
    try:
        np.broadcast_shapes(shape1[:-2], shape2[:-2])
    except ValueError:
        raise ValueError(f"funcgrad.numpy.matmul: the batch axes of shapes {shape1} and "
                         f"{shape2} ({shape1[:-2]} and {shape2[:-2]}) do not broadcast "
                         f"together") from error


# ---- tensordot (and dot, which is a tensordot) ---------------------------------------


def _tensordot_axes(axes, a_shape, b_shape):
    a_ndim, b_ndim = len(a_shape), len(b_shape)
    if isinstance(axes, (int, np.integer)):
        if not 0 <= axes <= min(a_ndim, b_ndim):
            raise ValueError(f"funcgrad.numpy.tensordot: cannot contract {axes} axes of arrays "
                             f"of shapes {a_shape} and {b_shape}")
        a_axes, b_axes = tuple(range(a_ndim - axes, a_ndim)), tuple(range(axes))
    else:
        a_axes, b_axes = axes
        a_axes = (a_axes,) if isinstance(a_axes, (int, np.integer)) else tuple(a_axes)
        b_axes = (b_axes,) if isinstance(b_axes, (int, np.integer)) else tuple(b_axes)
        if len(a_axes) != len(b_axes):
            raise ValueError(f"funcgrad.numpy.tensordot: axes {a_axes} and {b_axes} must have "
                             f"the same length")
        a_axes = tuple(int(a) % a_ndim for a in a_axes)
        b_axes = tuple(int(b) % b_ndim for b in b_axes)
    for i, j in zip(a_axes, b_axes):
        if a_shape[i] != b_shape[j]:
            raise ValueError(f"funcgrad.numpy.tensordot: shape mismatch: axis {i} of the first "
                             f"array {a_shape} and axis {j} of the second {b_shape} differ")
    return a_axes, b_axes


_tensordot = primitive(lambda a, b, axes: np.tensordot(a, b, axes), "tensordot")


def _tensordot_vjp(argnum):
    def save(ans, a, b, axes):
        a_axes, b_axes = axes
        a_free = [i for i in range(np.ndim(a)) if i not in a_axes]
        b_free = [i for i in range(np.ndim(b)) if i not in b_axes]
        return ((a if argnum else b), a_axes, b_axes, a_free, b_free,
                *aval(b if argnum else a))

    def pull(g, other, a_axes, b_axes, a_free, b_free, shape, dtype):
        g_a = tuple(range(len(a_free)))                 # g's axes that came from a
        g_b = tuple(range(len(a_free), np.ndim(g)))     # ... and from b
        if argnum == 0:
            ct = _tensordot(g, other, axes=(g_b, tuple(b_free)))
            # ct's axes: a's free axes, then b's contracted axes in b's order.
            order = a_free + [a_axes[b_axes.index(i)] for i in sorted(b_axes)]
        else:
            ct = _tensordot(other, g, axes=(tuple(a_free), g_a))
            order = [b_axes[a_axes.index(i)] for i in sorted(a_axes)] + b_free
        return unbroadcast(transpose(ct, tuple(np.argsort(order))), shape, dtype)
    return ArgVJP(save, pull)


defvjp(_tensordot, _tensordot_vjp(0), _tensordot_vjp(1))
defjvp(_tensordot, lambda t, ans, a, b, axes: _tensordot(t, b, axes=axes),
       lambda t, ans, a, b, axes: _tensordot(a, t, axes=axes))


def tensordot(a, b, axes=2):
    """``numpy.tensordot``: sum products over ``axes`` (an int, or a pair of axis lists)."""
    return _tensordot(a, b, axes=_tensordot_axes(axes, np.shape(a), np.shape(b)))


def dot(a, b, out=None):
    """``numpy.dot``: a product for scalars, inner product of vectors, matrix product, or
    a sum over the last axis of ``a`` and the second-to-last of ``b``."""
    reject_out(out, "dot")
    a, b = asarray(a), asarray(b)   # Python scalars count as float64 here, as in NumPy
    a_ndim, b_ndim = np.ndim(a), np.ndim(b)
    if a_ndim == 0 or b_ndim == 0:
        return multiply(a, b)
    if b_ndim <= 2 and a_ndim <= 2:
        return matmul(a, b)
    _tensordot_axes(_dot_axes(a_ndim, b_ndim), np.shape(a), np.shape(b))  # (shapes checked)
    return _dot(a, b)


# Above two dimensions numpy.dot sums each product alone (np.tensordot's one matrix
# product rounds otherwise), so dot is a primitive of its own, computed by np.dot, with
# tensordot's rules along the axes dot contracts.
_dot = primitive(np.dot, "dot")


def _dot_axes(a_ndim, b_ndim):
    return (a_ndim - 1,), (max(b_ndim - 2, 0),)


def _dot_vjp(argnum):
    rule = _tensordot_vjp(argnum)

    def save(ans, a, b):
        return rule.save(ans, a, b, _dot_axes(np.ndim(a), np.ndim(b)))
    return ArgVJP(save, rule.pull)


def _dot_batch(primitive, size, values, axes, params):
    (a, b), (ab, bb) = values, axes
    a_ndim = _batching.ndim_of(a) - (ab is not None)
    b_ndim = _batching.ndim_of(b) - (bb is not None)
    return _tensordot_batch(primitive, size, values, axes,
                            {"axes": _dot_axes(a_ndim, b_ndim)})


def vdot(a, b, /):
    """``numpy.vdot``: the dot product of the flattened arrays, conjugating the first."""
    a, b = ravel(asarray(a)), ravel(asarray(b))
    if np.shape(a) != np.shape(b):
        raise ValueError(f"funcgrad.numpy.vdot: the arrays have {np.shape(a)[0]} and "
                         f"{np.shape(b)[0]} elements; they must have the same number")
    if dtype_of(a).kind == "c":
        a = conjugate(a)
    return _matmul(a, b)


def inner(a, b, /):
    """``numpy.inner``: sum products over the last axes of ``a`` and ``b``."""
    a, b = asarray(a), asarray(b)
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        return multiply(a, b)
    if np.shape(a)[-1] != np.shape(b)[-1]:
        raise ValueError(f"funcgrad.numpy.inner: the last axes of shapes {np.shape(a)} and "
                         f"{np.shape(b)} must have the same length")
    return tensordot(a, b, axes=((-1,), (-1,)))


def outer(a, b, out=None):
    """``numpy.outer``: every product ``a[i] * b[j]`` of the flattened arrays."""
    reject_out(out, "outer")
    a, b = asarray(a), asarray(b)
    return multiply(reshape(a, (-1, 1)), reshape(b, (1, -1)))


def kron(a, b):
    """``numpy.kron``: the Kronecker product, blocks of ``b`` scaled by ``a``'s elements."""
    a, b = asarray(a), asarray(b)
    a_shape, b_shape = np.shape(a), np.shape(b)
    if not a_shape or not b_shape:
        return multiply(a, b)
    ndim = max(len(a_shape), len(b_shape))
    a_shape = (1,) * (ndim - len(a_shape)) + a_shape
    b_shape = (1,) * (ndim - len(b_shape)) + b_shape
    # Interleave the axes: a's on even positions, b's on odd ones, then merge each pair.
    a_spread = reshape(a, tuple(n for size in a_shape for n in (size, 1)))
    b_spread = reshape(b, tuple(n for size in b_shape for n in (1, size)))
    return reshape(multiply(a_spread, b_spread),
                   tuple(m * n for m, n in zip(a_shape, b_shape)))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """``numpy.cross``: cross products of 3-vectors (or 2-vectors, whose missing third
    component is zero) along ``axisa`` of ``a`` and ``axisb`` of ``b``."""
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = asarray(a), asarray(b)
    if np.ndim(a) < 1 or np.ndim(b) < 1:
        raise ValueError("funcgrad.numpy.cross: at least one array has zero dimension")
    a = _moveaxis(a, normalize_one_axis(axisa, np.ndim(a), "cross"), np.ndim(a) - 1)
    b = _moveaxis(b, normalize_one_axis(axisb, np.ndim(b), "cross"), np.ndim(b) - 1)
    a_size, b_size = np.shape(a)[-1], np.shape(b)[-1]
    if a_size not in (2, 3) or b_size not in (2, 3):
        raise ValueError(f"funcgrad.numpy.cross: incompatible dimensions for cross product "
                         f"(dimension must be 2 or 3), got {a_size} and {b_size}")
    a0, a1, b0, b1 = a[..., 0], a[..., 1], b[..., 0], b[..., 1]
    z = subtract(multiply(a0, b1), multiply(a1, b0))
    if a_size == 2 and b_size == 2:
        return z
    if a_size == 2:
        b2 = b[..., 2]
        x, y = multiply(a1, b2), negative(multiply(a0, b2))
    elif b_size == 2:
        a2 = a[..., 2]
        x, y = negative(multiply(a2, b1)), multiply(a2, b0)
    else:
        a2, b2 = a[..., 2], b[..., 2]
        x = subtract(multiply(a1, b2), multiply(a2, b1))
        y = subtract(multiply(a2, b0), multiply(a0, b2))
    components = [broadcast_to(c, np.shape(z)) for c in (x, y, z)]
    return stack(components, axis=normalize_one_axis(axisc, np.ndim(z) + 1, "cross"))


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


def _einsum_save(argnum, ans, *operands, subscripts):
    inputs, output = subscripts
    target = inputs[argnum]
    shape, dtype = aval(operands[argnum])
    other_terms = tuple(t for i, t in enumerate(inputs) if i != argnum)
    other_operands = tuple(op for i, op in enumerate(operands) if i != argnum)
    elsewhere = set(output).union(*other_terms)
    unique = "".join(dict.fromkeys(target))          # target's labels, first occurrences
    reachable = "".join(c for c in unique if c in elsewhere)
    return other_operands, output, other_terms, target, unique, reachable, shape, dtype


def _einsum_pull(g, other_operands, output, other_terms, target, unique, reachable, shape,
                 dtype):
    sizes = dict(zip(target, shape))
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


def _onto_diagonal(ct, target, shape):
    """Place ``ct`` (one axis per distinct label) on the diagonal of an array labelled
    ``target``, for operands with a repeated label such as ``'ii'``."""
    first_occurrence = [target.index(c) == position for position, c in enumerate(target)]
    ct = reshape(ct, tuple(n if first else 1 for n, first in zip(shape, first_occurrence)))
    grids = np.indices(shape, sparse=True)
    on_diagonal = np.ones(shape, bool)
    for position, c in enumerate(target):
        on_diagonal &= grids[position] == grids[target.index(c)]
    return multiply(broadcast_to(ct, shape),
                    constant_like(on_diagonal.astype(np.result_type(ct.dtype)), ct))


def _einsum_jvp(argnum, t, ans, *operands, subscripts):
    # Multilinear: the tangent of one operand goes through the same contraction.
    operands = list(operands)
    operands[argnum] = t
    return _einsum(*operands, subscripts=subscripts)


defvjp_any_arg(_einsum, ArgVJP(_einsum_save, _einsum_pull))
defjvp_any_arg(_einsum, _einsum_jvp)


def _tensordot_batch(primitive, size, values, axes, params):
    (a, b), (ab, bb) = values, axes
    a_axes, b_axes = params["axes"]
    if bb is None:
        a = _batching.to_front(a, ab)
        return _tensordot(a, b, axes=(tuple(i + 1 for i in a_axes), b_axes)), 0
    if ab is None:  # the batch comes after a's free axes
        b = _batching.to_front(b, bb)
        free = _batching.ndim_of(a) - len(a_axes)
        return _tensordot(a, b, axes=(a_axes, tuple(i + 1 for i in b_axes))), free
    # Both batched: the batch is one label of both operands, kept, as in einsum.
    letters = iter(string.ascii_letters[1:])
    a_terms = [next(letters) for _ in range(_batching.ndim_of(a) - 1)]
    b_terms = [next(letters) for _ in range(_batching.ndim_of(b) - 1)]
    for i, j in zip(a_axes, b_axes):
        b_terms[j] = a_terms[i]
    output = "a" + "".join(t for i, t in enumerate(a_terms) if i not in a_axes) + "".join(
        t for j, t in enumerate(b_terms) if j not in b_axes)
    subscripts = (("a" + "".join(a_terms), "a" + "".join(b_terms)), output)
    return _einsum(_batching.to_front(a, ab), _batching.to_front(b, bb),
                   subscripts=subscripts), 0


defbatch(_matmul, _batching.matmul)
defdiagonal(_matmul, _diagonal.matrix_product)
defbatch(_einsum, _batching.einsum)
defbatch(_tensordot, _tensordot_batch)
defvjp(_dot, _dot_vjp(0), _dot_vjp(1))
defjvp(_dot, lambda t, ans, a, b: _dot(t, b), lambda t, ans, a, b: _dot(a, t))
defbatch(_dot, _dot_batch)


def einsum(subscripts, *operands, optimize=None, **unsupported):
    """``numpy.einsum`` with explicit or implicit output, ellipses and repeated labels.

    Both of NumPy's calling forms: ``einsum('ij,jk->ik', a, b)`` and the interleaved
    ``einsum(a, [0, 1], b, [1, 2], [0, 2])`` (integer labels and ``...``; the output
    list is optional), which is translated to the first.
    """
    _reject("einsum", unsupported)
    if not isinstance(subscripts, str):
        subscripts, operands = _subscripts_from_sublists((subscripts,) + operands)
    inputs, output = _explicit_subscripts(subscripts, [np.shape(op) for op in operands])
    return _einsum(*operands, subscripts=(tuple(inputs), output))


def _subscripts_from_sublists(arguments):
    """``(a, sub_a, b, sub_b, ..., [sub_out])`` as a subscripts string and the operands.
    Label k is the k-th letter of A-Z then a-z, as in NumPy."""
    operands, sublists = arguments[0::2], arguments[1::2]
    output = None
    if len(arguments) % 2:
        output, operands = operands[-1], operands[:-1]

    def letters(sublist, which):
        try:
            labels = list(sublist)
        except TypeError:
            raise TypeError(f"funcgrad.numpy.einsum: {which} must be a list of integer axis "
                            f"labels (and ...), got {sublist!r}") from None
        text = []
        for label in labels:
            if label is Ellipsis:
                text.append("...")
                continue
            try:
                label = operator.index(label)
            except TypeError:
                raise TypeError(f"funcgrad.numpy.einsum: {which} holds {label!r}; axis labels "
                                f"must be integers or ...") from None
            if not 0 <= label < 52:
                raise ValueError(f"funcgrad.numpy.einsum: axis label {label} in {which} is "
                                 f"out of range; labels are integers from 0 to 51")
            text.append(_SUBLIST_LETTERS[label])
        return "".join(text)

    inputs = [letters(sublist, f"the sublist of operand {i}")
              for i, sublist in enumerate(sublists)]
    subscripts = ",".join(inputs)
    if output is not None:
        subscripts += "->" + letters(output, "the output sublist")
    return subscripts, operands


_SUBLIST_LETTERS = string.ascii_uppercase + string.ascii_lowercase


# ---- convolutions --------------------------------------------------------------------

_convolve = primitive(lambda a, v: np.convolve(a, v, "full"), "convolve")


def _convolve_vjp(argnum):
    # The full convolution's transpose in one argument is a convolution of g with the
    # other argument reversed, restricted to the "valid" part.
    def save(ans, a, v):
        other = (v, a)[argnum]
        length = np.shape(other)[0]
        shape, dtype = aval((a, v)[argnum])
        reversed_other = getitem(other, slice(None, None, -1))
        return reversed_other, slice(length - 1, length - 1 + shape[0]), shape, dtype
    return ArgVJP(save, _convolve_pull)


def _convolve_pull(g, reversed_other, window, shape, dtype):
    return unbroadcast(getitem(_convolve(g, reversed_other), window), shape, dtype)


defvjp(_convolve, _convolve_vjp(0), _convolve_vjp(1))
defjvp(_convolve, lambda t, ans, a, v: _convolve(t, v), lambda t, ans, a, v: _convolve(a, t))


def _as_signal(x, name, argument):
    x = asarray(x)
    if np.ndim(x) == 0:
        x = reshape(x, (1,))
    if np.ndim(x) != 1:
        raise ValueError(f"funcgrad.numpy.{name}: {argument} must be one-dimensional, got "
                         f"shape {np.shape(x)}")
    if np.shape(x)[0] == 0:
        raise ValueError(f"funcgrad.numpy.{name}: {argument} cannot be empty")
    return x


def _mode_window(full, short, long, mode, name, swapped=False):
    """The part of a full convolution that ``mode`` keeps, as NumPy slices it. NumPy
    computes a correlation whose first argument is the shorter one with the arguments
    swapped, which moves the centre of an even "same" window by one (``swapped``)."""
    if mode == "full":
        return full
    if mode == "same":
        start = short // 2 if swapped else (short - 1) // 2
        return getitem(full, slice(start, start + long))
    if mode == "valid":
        return getitem(full, slice(short - 1, long))
    raise ValueError(f"funcgrad.numpy.{name}: mode must be 'full', 'same' or 'valid', got "
                     f"{mode!r}")


def convolve(a, v, mode="full"):
    """``numpy.convolve``: the discrete convolution of two 1-D sequences."""
    a, v = _as_signal(a, "convolve", "a"), _as_signal(v, "convolve", "v")
    n, m = np.shape(a)[0], np.shape(v)[0]
    return _mode_window(_convolve(a, v), min(n, m), max(n, m), mode, "convolve")


def correlate(a, v, mode="valid"):
    """``numpy.correlate``: ``sum_n a[n + k] * conj(v[n])``, a convolution with ``v``
    reversed and conjugated."""
    a, v = _as_signal(a, "correlate", "a"), _as_signal(v, "correlate", "v")
    if dtype_of(v).kind == "c":
        v = conjugate(v)
    n, m = np.shape(a)[0], np.shape(v)[0]
    full = _convolve(a, getitem(v, slice(None, None, -1)))
    return _mode_window(full, min(n, m), max(n, m), mode, "correlate", swapped=n < m)


# ---- integration, polynomials, interpolation -----------------------------------------


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """``numpy.trapezoid``: integrate ``y`` along ``axis`` by the trapezoidal rule, with
    sample points ``x`` (1-D, or shaped like ``y``) or a constant spacing ``dx``."""
    y = asarray(y)
    ndim = np.ndim(y)
    axis = normalize_one_axis(axis, ndim, "trapezoid")

    def part(array_, start, stop):
        return getitem(array_, (slice(None),) * axis + (slice(start, stop),))

    if x is None:
        spacing = dx
    else:
        x = asarray(x)
        if np.ndim(x) == 1:
            spacing = subtract(getitem(x, slice(1, None)), getitem(x, slice(None, -1)))
            spacing = reshape(spacing, tuple(-1 if i == axis else 1 for i in range(ndim)))
        else:
            spacing = subtract(part(x, 1, None), part(x, None, -1))
    # In NumPy's order, which rounds (and, for integers, wraps) as NumPy does.
    areas = true_divide(multiply(spacing, add(part(y, 1, None), part(y, None, -1))), 2.0)
    return reductions.sum(areas, axis=axis)


def polyval(p, x):
    """``numpy.polyval``: the polynomial with coefficients ``p`` (highest power first)
    at ``x``, by Horner's scheme."""
    p, x = asarray(p), asarray(x)
    # Starting from zeros shaped like x gives NumPy's result shape and dtype.
    y = zeros_in_library_of(x, np.shape(x), dtype_of(x))
    for coefficient in p:
        y = add(multiply(y, x), coefficient)
    return y


def interp(x, xp, fp, left=None, right=None, period=None):
    """``numpy.interp``: piecewise-linear interpolation of the points ``(xp, fp)`` at ``x``.

    Differentiable in ``x``, ``fp``, ``left`` and ``right``; the sample points ``xp`` must
    be constants. At a sample point the slope is that of the segment to its right (the
    last segment at the last point), and zero outside ``[xp[0], xp[-1]]``, as in JAX.
    """
    if isinstance(xp, Box):
        raise TypeError("funcgrad.numpy.interp: xp cannot be differentiated; pass it as a "
                        "constant (e.g. wrap it in funcgrad.stop_gradient)")
    xp, fp = np.asarray(xp), asarray(fp)
    if xp.ndim != 1 or np.ndim(fp) != 1:
        raise ValueError("funcgrad.numpy.interp: xp and fp must be one-dimensional")
    if xp.shape[0] != np.shape(fp)[0]:
        raise ValueError(f"funcgrad.numpy.interp: xp and fp must have the same length, got "
                         f"{xp.shape[0]} and {np.shape(fp)[0]}")
    if xp.shape[0] == 0:
        raise ValueError("funcgrad.numpy.interp: the sample points xp are empty")
    # NumPy interpolates in double precision whatever the precision of x and fp: so must
    # the values and their derivatives (a float32 fp's rises would round in single).
    result_dtype = np.complex128 if dtype_of(fp).kind == "c" else np.float64
    if dtype_of(fp) != result_dtype:
        fp = astype(fp, result_dtype)
    x = asarray(x)
    if dtype_of(x) != np.float64:
        x = astype(x, np.float64)
    if period is not None:
        x, xp, fp = _periodic(x, xp, fp, period)
        left = right = None
    if xp.shape[0] == 1:
        f = add(getitem(fp, 0), np.zeros(np.shape(x)))
    else:
        f = _interpolate(x, xp, fp)
    x_value = unbox_all(x)
    f = where(x_value < xp[0], getitem(fp, 0) if left is None else left, f)
    f = where(x_value > xp[-1], getitem(fp, -1) if right is None else right, f)
    return f if dtype_of(f) == result_dtype else astype(f, result_dtype)


def _interpolate(x, xp, fp):
    """Linear interpolation on the segment that contains each x (clamped to the ends)."""
    upper = np.clip(np.searchsorted(xp, unbox_all(x), side="right"), 1, xp.shape[0] - 1)
    lower = upper - 1
    # take, not xp[upper]: under vmap the positions differ per element.
    width = (take(xp, upper) - take(xp, lower)).astype(np.result_type(xp.dtype, np.float64))
    flat = width == 0                                # repeated sample points
    slope_scale = true_divide(subtract(x, take(xp, lower)), np.where(flat, 1.0, width))
    rise = subtract(getitem(fp, upper), getitem(fp, lower))
    return where(flat, getitem(fp, lower), add(getitem(fp, lower), multiply(slope_scale, rise)))


def _periodic(x, xp, fp, period):
    """Map everything into one period and pad the samples so that they wrap around."""
    period = abs(float(unbox_all(period)))
    if period == 0:
        raise ValueError("funcgrad.numpy.interp: period must be a non-zero value")
    # x mod period, with the whole periods removed as a constant (slope 1 in x).
    x = subtract(x, np.floor(unbox_all(x) / period) * period)
    xp = np.mod(xp, period)
    order = np.argsort(xp, kind="stable")
    xp = np.concatenate([xp[order][-1:] - period, xp[order], xp[order][:1] + period])
    fp = getitem(fp, np.concatenate([order[-1:], order, order[:1]]))
    return x, xp, fp


# ---- covariance ----------------------------------------------------------------------


def _variables(m, rowvar, dtype, name):
    """``m`` as a 2-D array with one variable per row."""
    m = asarray(m)
    if np.ndim(m) > 2:
        raise ValueError(f"funcgrad.numpy.{name}: the array has more than 2 dimensions "
                         f"(shape {np.shape(m)})")
    m = reshape(m, (1,) * (2 - np.ndim(m)) + np.shape(m))
    if dtype_of(m) != dtype:
        m = astype(m, dtype)
    if not rowvar and np.shape(m)[0] != 1:
        m = transpose(m)
    return m


def _observation_weights(fweights, aweights, count):
    """NumPy's checks on the weights, and their product (None when there are none)."""
    weights = None
    for name, w in (("fweights", fweights), ("aweights", aweights)):
        if w is None:
            continue
        w = asarray(w)
        value = unbox_all(w)  # (batched under vmap: the checks hold for every element)
        if name == "fweights" and holds_anywhere(value != np.around(value)):
            raise TypeError("funcgrad.numpy.cov: fweights must be integers")
        if np.ndim(value) > 1:
            raise RuntimeError(f"funcgrad.numpy.cov: {name} must be one-dimensional")
        if np.shape(value)[0] != count:
            raise RuntimeError(f"funcgrad.numpy.cov: {name} must have one weight per "
                               f"observation ({count}), got {np.shape(value)[0]}")
        if holds_anywhere(value < 0):
            raise ValueError(f"funcgrad.numpy.cov: {name} cannot be negative")
        # NumPy takes weights in double precision (a float32 weight too: its sums would
        # round in single precision)
        if dtype_of(w).kind != "c" and dtype_of(w) != np.float64:
            w = astype(w, np.float64)
        weights = w if weights is None else multiply(weights, w)
    return weights


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *,
        dtype=None):
    """``numpy.cov``: the covariance matrix of the variables in the rows (``rowvar``) or
    columns of ``m`` (and ``y``), normalized by ``N - ddof`` (``N`` when ``bias``)."""
    if ddof is not None and ddof != int(ddof):
        raise ValueError("funcgrad.numpy.cov: ddof must be an integer")
    m = asarray(m)
    y = None if y is None else asarray(y)
    if dtype is None:
        dtype = np.result_type(dtype_of(m), *([] if y is None else [dtype_of(y)]), np.float64)
    X = _variables(m, rowvar, np.dtype(dtype), "cov")
    if y is not None:
        X = concatenate([X, _variables(y, rowvar, np.dtype(dtype), "cov")], axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    count = np.shape(X)[1]
    w = _observation_weights(fweights, aweights, count)
    if w is None:
        mean = reductions.mean(X, axis=1, keepdims=True)
        factor = count - ddof
    else:
        w_sum = reductions.sum(w)
        mean = true_divide(reductions.sum(multiply(X, w), axis=1, keepdims=True), w_sum)
        if ddof == 0:
            factor = w_sum
        elif aweights is None:
            factor = subtract(w_sum, ddof)
        else:
            spread = reductions.sum(multiply(w, asarray(aweights)))
            factor = subtract(w_sum, true_divide(multiply(ddof, spread), w_sum))
    # NumPy warns and divides by zero where factor <= 0: the result is inf or nan.
    if isinstance(unbox_all(factor), Box):  # batched (vmap): one factor per element
        factor = where(factor > 0, factor, 0.0)
    elif factor <= 0:
        factor = 0.0
    centered = subtract(X, mean)
    weighted = centered if w is None else multiply(centered, w)
    c = _matmul(centered, transpose(conjugate(weighted) if dtype_of(X).kind == "c"
                                    else weighted))
    with np.errstate(divide="ignore", invalid="ignore"):
        c = multiply(c, true_divide(1.0, factor))
    return reshape(c, tuple(n for n in np.shape(c) if n != 1))


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """``numpy.corrcoef``: Pearson correlation coefficients, clipped to [-1, 1]."""
    c = cov(x, y, rowvar, dtype=dtype)
    if np.ndim(c) == 0:
        return true_divide(c, c)
    variances = real(einsum("ii->i", c))
    stddev = sqrt(variances)
    c = true_divide(true_divide(c, reshape(stddev, (-1, 1))), reshape(stddev, (1, -1)))
    # Rounding can push coefficients just past +-1.
    if dtype_of(c).kind == "c":
        return add(clip(real(c), -1, 1), multiply(clip(imag(c), -1, 1), 1j))
    return clip(c, -1, 1)


__all__ = ["matmul", "dot", "tensordot", "einsum", "vdot", "inner", "outer", "kron", "cross",
           "convolve", "correlate", "trapezoid", "polyval", "interp", "cov", "corrcoef"]
