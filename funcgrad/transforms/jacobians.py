"""Whole Jacobians and Hessians: jacfwd, jacrev, hessian, and Hessian-vector products.

Layout (as in JAX): for an output leaf of shape ``O`` and an input leaf of shape ``I``
the block has shape ``O + I``; the result has the output's pytree structure with, at
each output leaf, the structure of the differentiated arguments (one argument for an
int ``argnums``, a tuple of them for a tuple).
"""
import functools

import numpy as np

from .. import numpy as fnp
from ..core import dtype_of, shape_of
from ..tree_util import tree_flatten, tree_unflatten
from ._checks import check_callable, check_differentiable_inputs, normalize_argnums
from ._ownership import Owners
from .forward import jvp
from .reverse import _Linearized, differentiated, grad


def jacrev(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False):
    """The Jacobian of ``fun`` by reverse mode: one backward pass per output element.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> jacrev(lambda x: x ** 2)(np.array([1.0, 2.0]))
    array([[2., 0.],
           [0., 4.]])

    Outputs must be real (complex with ``holomorphic=True``, which also requires complex
    inputs); ``allow_int=True`` accepts integer inputs, whose blocks are zeros.
    Cheaper than `jacfwd` when there are fewer outputs than inputs.
    """
    check_callable(fun, "jacrev")
    argnums, single = normalize_argnums(argnums, "jacrev")

    @functools.wraps(fun)
    def jacobian_fun(*args, **kwargs):
        diff_fun, diff_args, constants = differentiated(fun, argnums, args, kwargs, "jacrev")
        traced = _Linearized(diff_fun, diff_args, has_aux, "jacrev", allow_int, holomorphic)
        outputs = traced.outputs
        for out in outputs:
            _check_output_dtype(out, holomorphic, "jacrev")
        # rows[k][l]: the cotangents of input leaf l, one per element of output leaf k.
        rows = [[[] for _ in traced.inputs] for _ in outputs]
        for k, out in enumerate(outputs):
            for seed in _basis(out):
                cts = [seed if j == k else None for j in range(len(outputs))]
                for l, ct in enumerate(traced.pull_back(cts, retain_graph=True)):
                    rows[k][l].append(ct)
        blocks = [[_assemble(rows[k][l], shape_of(out), x, leading=True)
                   for l, x in enumerate(traced.inputs)] for k, out in enumerate(outputs)]
        jac = _layout(blocks, traced.out_tree, traced.in_tree, single)
        owners = Owners(traced.inputs, constants)
        jac = owners.claim_tree(jac)
        return (jac, owners.claim_tree(traced.aux)) if has_aux else jac

    return jacobian_fun


def jacfwd(fun, argnums=0, has_aux=False, holomorphic=False):
    """The Jacobian of ``fun`` by forward mode: one `jvp` per input element.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> jacfwd(lambda x: fnp.sum(x) * x)(np.array([1.0, 2.0]))
    array([[4., 1.],
           [2., 5.]])

    Inputs must be real (complex with ``holomorphic=True``, which also requires complex
    outputs). Cheaper than `jacrev` when there are fewer inputs than outputs.
    """
    check_callable(fun, "jacfwd")
    argnums, single = normalize_argnums(argnums, "jacfwd")

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
        zeros = [fnp.zeros(shape_of(x), dtype_of(x)) for x in flat]
        columns = None  # columns[k][l]: tangents of output leaf k, one per element of input l
        first = None
        for l, x in enumerate(flat):
            for seed in _basis(x):
                tangents = zeros[:l] + [seed] + zeros[l + 1:]
                result = jvp(diff_fun, diff_args, tree_unflatten(in_tree, tangents),
                             has_aux=has_aux)
                if first is None:
                    first = result
                    columns = [[[] for _ in flat] for _ in tree_flatten(result[0])[0]]
                for k, t in enumerate(tree_flatten(result[1])[0]):
                    columns[k][l].append(t)
        if first is None:  # no input elements: evaluate once for the outputs' structure
            first = jvp(diff_fun, diff_args, tree_unflatten(in_tree, zeros), has_aux=has_aux)
            columns = [[[] for _ in flat] for _ in tree_flatten(first[0])[0]]
        outputs, out_tree = tree_flatten(first[0])
        for out in outputs:
            _check_output_dtype(out, holomorphic, "jacfwd", integer_ok=True)
        blocks = [[_assemble(columns[k][l], shape_of(x), out, leading=False)
                   for l, x in enumerate(flat)] for k, out in enumerate(outputs)]
        jac = _layout(blocks, out_tree, in_tree, single)
        owners = Owners(flat, constants)
        jac = owners.claim_tree(jac)
        return (jac, owners.claim_tree(first[2])) if has_aux else jac

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


def _basis(x):
    """One-hot arrays of x's shape and dtype, one per element, in C order."""
    shape, dtype = shape_of(x), dtype_of(x)
    for i in range(int(np.prod(shape, dtype=int))):
        e = np.zeros(shape, dtype)
        e.flat[i] = 1
        yield e


def _assemble(parts, own_shape, other, leading):
    """Stack per-element derivatives into one block.

    ``parts`` are shaped like ``other``, one per element of an array of ``own_shape``;
    the block is ``own_shape + shape(other)`` (``leading``) or ``shape(other) + own_shape``.
    Integer ``other`` gives zeros of its dtype, as in JAX.
    """
    other_shape = shape_of(other)
    shape = own_shape + other_shape if leading else other_shape + own_shape
    if dtype_of(other).kind not in "fc" or not parts:
        return np.zeros(shape, dtype_of(other))
    stacked = fnp.stack(parts, axis=0 if leading else -1)
    return fnp.reshape(stacked, shape)


def _layout(blocks, out_tree, in_tree, single):
    """JAX's layout: the output's structure, each leaf holding the inputs' structure."""
    per_output = []
    for row in blocks:
        inputs = tree_unflatten(in_tree, row)
        per_output.append(inputs[0] if single else inputs)
    return tree_unflatten(out_tree, per_output)


__all__ = ["jacfwd", "jacrev", "hessian", "hvp"]
