"""Whole Jacobians and Hessians: jacfwd, jacrev, hessian, and Hessian-vector products.

Layout (as in JAX): for an output leaf of shape ``O`` and an input leaf of shape ``I``
the block has shape ``O + I``; the result has the output's pytree structure with, at
each output leaf, the structure of the differentiated arguments (one argument for an
int ``argnums``, a tuple of them for a tuple).
"""
import functools
import math

import numpy as np

from .. import numpy as fnp
from ..core import (BatchBox, BatchTrace, diagonal_batch, dtype_of, library_array, new_trace,
                    ones_like_value, shape_of, zeros_like_value)
from ..tree_util import tree_flatten, tree_unflatten
from ._checks import check_callable, check_differentiable_inputs, normalize_argnums
from ._ownership import Owners
from .forward import jvp
from .reverse import _Linearized, differentiated, grad
from .vmap import unbatched


def jacrev(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False,
           chunk_size=None):
    """The Jacobian of ``fun`` by reverse mode: one backward pass, batched (`vmap`) over
    the rows of the identity (one per output element).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> jacrev(lambda x: x ** 2)(np.array([1.0, 2.0]))
    array([[2., 0.],
           [0., 4.]])

    Outputs must be real (complex with ``holomorphic=True``, which also requires complex
    inputs); ``allow_int=True`` accepts integer inputs, whose blocks are zeros.
    Cheaper than `jacfwd` when there are fewer outputs than inputs. ``chunk_size`` bounds
    how many rows are computed at once (memory), as in torch.func; None: all at once.
    """
    check_callable(fun, "jacrev")
    argnums, single = normalize_argnums(argnums, "jacrev")
    _check_chunk_size(chunk_size, "jacrev")

    @functools.wraps(fun)
    def jacobian_fun(*args, **kwargs):
        diff_fun, diff_args, constants = differentiated(fun, argnums, args, kwargs, "jacrev")
        traced = _Linearized(diff_fun, diff_args, has_aux, "jacrev", allow_int, holomorphic)
        outputs = traced.outputs
        for out in outputs:
            _check_output_dtype(out, holomorphic, "jacrev")
        owners = Owners(traced.inputs, constants)
        blocks = []  # each the caller's as it is made, in the order of the layout's leaves
        for k, out in enumerate(outputs):
            def rows(seed, k=k):  # the cotangents of every input for one row of output k
                cts = [seed if j == k else None for j in range(len(outputs))]
                return (), tuple(traced.pull_back(cts, retain_graph=True))
            stacked = _over_basis(rows, out, chunk_size, axis=0)[1]
            blocks.append([owners.claim(_block(part, shape_of(out), x, leading=True))
                           for part, x in zip(stacked, traced.inputs)])
        jac = _layout(blocks, traced.out_tree, traced.in_tree, single)
        return (jac, owners.claim_tree(traced.aux)) if has_aux else jac

    return jacobian_fun


def jacfwd(fun, argnums=0, has_aux=False, holomorphic=False, chunk_size=None):
    """The Jacobian of ``fun`` by forward mode: one `jvp`, batched (`vmap`) over the
    columns of the identity (one per input element).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> jacfwd(lambda x: fnp.sum(x) * x)(np.array([1.0, 2.0]))
    array([[4., 1.],
           [2., 5.]])

    Inputs must be real (complex with ``holomorphic=True``, which also requires complex
    outputs). Cheaper than `jacrev` when there are fewer inputs than outputs.
    ``chunk_size`` bounds how many columns are computed at once.
    """
    check_callable(fun, "jacfwd")
    argnums, single = normalize_argnums(argnums, "jacfwd")
    _check_chunk_size(chunk_size, "jacfwd")

    @functools.wraps(fun)
    def jacobian_fun(*args, **kwargs):
        diff_fun, diff_args, constants = differentiated(fun, argnums, args, kwargs, "jacfwd")
        flat, in_tree = tree_flatten(diff_args)
        check_differentiable_inputs(flat, diff_args, "jacfwd", holomorphic=holomorphic)
        for x in flat:
            if not holomorphic and dtype_of(x).kind != "f":
                raise TypeError(
                    f"funcgrad.jacfwd: inputs must be real (float) arrays, got dtype "
                    f"{dtype_of(x)}. Pass holomorphic=True for a holomorphic function of "
                    f"complex inputs, or use jvp directly.")
        zeros = [zeros_like_value(x) for x in flat]

        def pushforward(tangents):  # the value and aux, and the tangents of every output
            result = jvp(diff_fun, diff_args, tree_unflatten(in_tree, tangents),
                         has_aux=has_aux)
            return (result[0], result[2] if has_aux else None), tuple(
                t if dtype_of(t).kind in "fc" else np.zeros(shape_of(t), like=library_array(t))
                for t in tree_flatten(result[1])[0])
        # The value and aux do not depend on the tangents: they come from the batched call
        # (from a call of their own only when there is no input leaf).
        same = pushforward([])[0] if not flat else None
        columns = []  # columns[l][k]: output k's tangents, input l's columns last
        for l, x in enumerate(flat):
            same, stacked = _over_basis(
                lambda seed, l=l: pushforward(zeros[:l] + [seed] + zeros[l + 1:]),
                x, chunk_size, axis=-1)
            columns.append(stacked)
        value, aux = same
        outputs, out_tree = tree_flatten(value)
        for out in outputs:
            _check_output_dtype(out, holomorphic, "jacfwd", integer_ok=True)
        owners = Owners(flat, constants)
        blocks = [[owners.claim(_block(columns[l][k], shape_of(x), out, leading=False))
                   for l, x in enumerate(flat)] for k, out in enumerate(outputs)]
        jac = _layout(blocks, out_tree, in_tree, single)
        return (jac, owners.claim_tree(aux)) if has_aux else jac

    return jacobian_fun


def hessian(fun, argnums=0, has_aux=False, holomorphic=False):
    """The Hessian of scalar ``fun``: ``jacfwd(jacrev(fun))`` (forward over reverse).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> hessian(lambda x: x[0] ** 2 * x[1])(np.array([1.0, 3.0]))
    array([[6., 2.],
           [2., 0.]])

    With a tuple ``argnums`` the result is a nested tuple of blocks: ``h[i][j]`` has shape
    ``shape(args[i]) + shape(args[j])``.
    """
    check_callable(fun, "hessian")
    return jacfwd(jacrev(fun, argnums, has_aux, holomorphic), argnums, has_aux, holomorphic)


def hvp(fun, primals, tangents):
    """The Hessian of scalar ``fun`` (with respect to all its arguments) times ``tangents``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> f = lambda x: fnp.sum(x ** 3)                  # Hessian: diag(6 x)
    >>> hvp(f, (np.array([1.0, 2.0]),), (np.array([1.0, 1.0]),))
    (array([ 6., 12.]),)

    ``primals`` and ``tangents`` are tuples with one entry per positional argument; the
    result is a tuple like them. Forward over reverse (the `jvp` of the gradient), so it
    costs a small constant times one gradient and never forms the Hessian.
    """
    check_callable(fun, "hvp")
    argnums = tuple(range(len(primals)))
    return jvp(grad(fun, argnums=argnums), tuple(primals), tuple(tangents))[1]


def _check_output_dtype(out, holomorphic, transform, integer_ok=False):
    kind = dtype_of(out).kind
    if holomorphic and kind != "c":
        raise TypeError(f"funcgrad.{transform}: holomorphic=True needs complex outputs, but "
                        f"the function returned dtype {dtype_of(out)}.")
    if not holomorphic and kind == "c" and transform == "jacrev":
        raise TypeError(
            f"funcgrad.jacrev: outputs must be real, got dtype {dtype_of(out)}. Pass "
            f"holomorphic=True for a holomorphic function, or use vjp directly.")
    if kind not in "fc" and not integer_ok:
        raise TypeError(
            f"funcgrad.{transform}: outputs must be float arrays, got dtype {dtype_of(out)}; "
            f"integer and boolean outputs are constants with no Jacobian (use vjp directly).")


def _check_chunk_size(chunk_size, transform):
    if chunk_size is not None and not (isinstance(chunk_size, int) and chunk_size > 0):
        raise ValueError(f"funcgrad.{transform}: chunk_size must be a positive int or None, "
                         f"got {chunk_size!r}.")


def _over_basis(fun, x, chunk_size, axis):
    """``fun(seed) -> (same, derivatives)`` for every one-hot array of x's shape and dtype,
    in C order, batched ``chunk_size`` at a time: ``same`` (values that do not depend on
    the seed) from the first call, and each of the tuple ``derivatives`` stacked along
    ``axis`` (0 or -1); None for each when x has no elements. The results are not yet the
    caller's (`_ownership`): they may share memory with each other."""
    shape, dtype = shape_of(x), dtype_of(x)
    count = math.prod(shape)
    if count <= 1:  # one basis array (or none): a plain call, nothing to batch
        same, derivatives = fun(ones_like_value(x))
        if count == 0:
            return same, [None] * len(derivatives)
        return same, [fnp.expand_dims(d, axis) for d in derivatives]
    if (chunk_size is None or chunk_size >= count) and library_array(x) is None:
        # Every row at once: the identity as a diagonal batch, which elementwise functions
        # keep diagonal, computed in O(count) (funcgrad.numpy._diagonal).
        return _batched(fun, count, lambda trace: diagonal_batch(
            trace, np.ones(shape, dtype), np.zeros(shape, dtype)), axis)
    step = count if chunk_size is None else chunk_size
    chunks = []
    for start in range(0, count, step):
        stop = min(start + step, count)
        seeds = np.eye(stop - start, count, start, dtype)  # rows start..stop of the identity
        if library_array(x) is not None:  # a CuPy or Dask value's basis in its library
            seeds = np.asarray(seeds, like=library_array(x))
        seeds = seeds.reshape((stop - start,) + shape)
        chunks.append(_batched(fun, stop - start,
                               lambda trace, seeds=seeds: BatchBox(seeds, trace, 0), axis))
    if len(chunks) == 1:
        return chunks[0]
    return chunks[0][0], [fnp.concatenate(parts, axis=axis)
                          for parts in zip(*[derivatives for _, derivatives in chunks])]


def _batched(fun, size, seeds, axis):
    """``fun`` on a batch of ``size`` seeds, the box ``seeds(trace)`` of a new batch
    trace, as `vmap` with ``out_axes=(None, axis)`` gives it, less vmap's work on pytrees
    and copies: ``same``'s leaves come out as they are, the derivatives with the batch at
    ``axis``."""
    with new_trace(BatchTrace, size) as trace:
        same, derivatives = fun(seeds(trace))
    leaves, structure = tree_flatten(same)
    same = structure.unflatten([unbatched(leaf, trace, None, size, i)
                                for i, leaf in enumerate(leaves)])
    return same, [unbatched(d, trace, axis, size, len(leaves) + k)
                  for k, d in enumerate(derivatives)]


def _block(stacked, own_shape, other, leading):
    """One block of the Jacobian from derivatives stacked along the first (``leading``)
    or last axis, one per element of an array of ``own_shape``: the block is
    ``own_shape + shape(other)`` or ``shape(other) + own_shape``. Integer ``other`` gives
    zeros of its dtype, as in JAX."""
    other_shape = shape_of(other)
    shape = own_shape + other_shape if leading else other_shape + own_shape
    if dtype_of(other).kind not in "fc" or stacked is None:
        return np.zeros(shape, dtype_of(other), like=library_array(other))
    return stacked if shape_of(stacked) == shape else fnp.reshape(stacked, shape)


def _layout(blocks, out_tree, in_tree, single):
    """JAX's layout: the output's structure, each leaf holding the inputs' structure."""
    per_output = []
    for row in blocks:
        inputs = tree_unflatten(in_tree, row)
        per_output.append(inputs[0] if single else inputs)
    return tree_unflatten(out_tree, per_output)


__all__ = ["jacfwd", "jacrev", "hessian", "hvp"]
