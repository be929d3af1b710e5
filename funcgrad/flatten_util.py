"""ravel_pytree: a pytree of arrays as one flat vector, and the function that rebuilds it.

Optimizers, samplers and SciPy's minimizers want one vector; models keep their parameters
in dicts and lists. Both directions are built from differentiable operations, so
gradients flow through the flat vector and through the rebuilt tree.
"""
import math

import numpy as np

from . import numpy as fnp
from .core import Box, dtype_of, shape_of
from .tree_util import keystr, tree_flatten_with_path, tree_unflatten

_ARRAY_LEAVES = (Box, np.ndarray, np.generic, float, complex, int, bool)


def ravel_pytree(pytree):
    """Concatenate the leaves of ``pytree``, each raveled, into one 1-D array.

    >>> import numpy as np
    >>> flat, unravel = ravel_pytree({"w": np.ones((2, 2)), "b": np.zeros(3)})
    >>> flat
    array([0., 0., 0., 1., 1., 1., 1.])
    >>> unravel(2 * flat)["w"]
    array([[2., 2.],
           [2., 2.]])

    Returns ``(flat, unravel)``: ``unravel(v)`` turns a vector like ``flat`` back into a
    pytree of ``pytree``'s structure, shapes and dtypes (leaves come back as arrays).
    As in JAX, leaves of different dtypes are promoted to a common dtype in ``flat`` (by
    NumPy's rules, as everywhere in funcgrad) and ``unravel`` casts each piece back to its
    leaf's dtype; it then requires ``v`` to have ``flat``'s dtype. When all leaves share a
    dtype, ``unravel`` accepts a vector of any dtype and keeps it. A tree with no leaves
    gives an empty float64 vector (JAX: float32, its default float).
    """
    paths_and_leaves, treedef = tree_flatten_with_path(pytree)
    for path, leaf in paths_and_leaves:
        if not isinstance(leaf, _ARRAY_LEAVES):
            raise TypeError(
                f"funcgrad.flatten_util.ravel_pytree: the leaf pytree{keystr(path)} is a "
                f"{type(leaf).__name__}, not an array or number; every leaf must be one.")
    leaves = [leaf for _, leaf in paths_and_leaves]
    unravel = _Unravel(treedef, leaves)
    if not leaves:
        return np.zeros(0), unravel
    common = unravel.common_dtype
    if common is not None:
        leaves = [leaf if dtype_of(leaf) == common else fnp.astype(leaf, common)
                  for leaf in leaves]
    pieces = [fnp.ravel(leaf) for leaf in leaves]
    return fnp.concatenate(pieces), unravel


class _Unravel:
    """The inverse of one `ravel_pytree` call: a flat vector back to the tree."""

    __slots__ = ("treedef", "shapes", "dtypes", "common_dtype", "bounds", "size")

    def __init__(self, treedef, leaves):
        self.treedef = treedef
        self.shapes = [shape_of(leaf) for leaf in leaves]
        self.dtypes = [dtype_of(leaf) for leaf in leaves]
        # None when every leaf has one dtype: then no cast either way, in any dtype.
        common = np.result_type(*self.dtypes) if self.dtypes else None
        self.common_dtype = None if all(d == common for d in self.dtypes) else common
        sizes = [math.prod(shape) for shape in self.shapes]
        self.bounds = list(np.cumsum(sizes)[:-1]) if sizes else []
        self.size = sum(sizes)

    def __call__(self, flat):
        shape = shape_of(flat)
        if shape != (self.size,):
            raise ValueError(
                f"funcgrad.flatten_util.ravel_pytree: unravel expects a 1-D vector of shape "
                f"({self.size},), like the one ravel_pytree returned, but got shape {shape}.")
        if self.common_dtype is not None and dtype_of(flat) != self.common_dtype:
            raise TypeError(
                f"funcgrad.flatten_util.ravel_pytree: unravel expects a vector of dtype "
                f"{self.common_dtype} (the leaves' dtypes promoted), but got dtype "
                f"{dtype_of(flat)}; cast it with .astype({self.common_dtype.name}).")
        if not self.shapes:
            return tree_unflatten(self.treedef, [])
        chunks = fnp.split(flat, self.bounds) if len(self.shapes) > 1 else [flat]
        leaves = [fnp.reshape(chunk, shape) for chunk, shape in zip(chunks, self.shapes)]
        if self.common_dtype is not None:
            leaves = [_cast_back(leaf, dtype) for leaf, dtype in zip(leaves, self.dtypes)]
        return tree_unflatten(self.treedef, leaves)

    def __repr__(self):
        return f"<unravel to {self.treedef}>"


def _cast_back(x, dtype):
    """``x`` cast to a leaf's own dtype; a real leaf keeps a complex piece's real part."""
    if dtype_of(x) == dtype:
        return x
    if dtype_of(x).kind == "c" and dtype.kind != "c":
        x = fnp.real(x)
    return fnp.astype(x, dtype)


__all__ = ["ravel_pytree"]
