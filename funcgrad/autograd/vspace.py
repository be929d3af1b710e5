"""autograd's ``vspace(x)``: the vector space a value lives in, as derivative rules written
for autograd use it (``vspace(x).zeros()``, ``.shape``, ``.size``, ``.iscomplex``, ...).

Any funcgrad pytree of arrays and scalars has one. User-defined vector spaces (autograd's
``VSpace.register`` for new value types) are not supported: funcgrad differentiates arrays
and pytrees of them.
"""
import numpy as np

from .. import numpy as fnp
from ..core import unbox_all
from ..tree_util import tree_flatten, tree_map, tree_unflatten


class VSpace:
    """The shapes, dtypes and pytree structure of a value, and the vector operations on
    values of that space."""

    def __init__(self, value):
        leaves, self.tree = tree_flatten(tree_map(unbox_all, value))
        self.avals = tuple((np.shape(x), np.result_type(x)) for x in leaves)

    @classmethod
    def register(cls, value_type, vspace_maker=None):
        raise NotImplementedError(
            "funcgrad.autograd: user-defined vector spaces are not supported; funcgrad "
            "differentiates arrays and pytrees of arrays (register containers with "
            "funcgrad.tree_util.register_pytree_node).")

    def _per_leaf(self, make):
        return tree_unflatten(self.tree, [make(shape, dtype) for shape, dtype in self.avals])

    @property
    def shape(self):
        return self._single_or_tree(lambda shape, dtype: shape)

    @property
    def dtype(self):
        return self._single_or_tree(lambda shape, dtype: dtype)

    def _single_or_tree(self, pick):
        if self.tree.num_leaves == 1 and self.tree.num_nodes == 1:  # a bare array
            return pick(*self.avals[0])
        return self._per_leaf(pick)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def iscomplex(self):
        return any(dtype.kind == "c" for _, dtype in self.avals)

    @property
    def size(self):
        """Real dimensions: a complex element counts twice, as in autograd."""
        return sum(int(np.prod(shape)) * (2 if dtype.kind == "c" else 1)
                   for shape, dtype in self.avals)

    def zeros(self):
        return self._per_leaf(np.zeros)

    def ones(self):
        """All ones along every real dimension: 1 + 1j for a complex element, as autograd."""
        return self._per_leaf(lambda shape, dtype: np.full(shape, 1 + 1j if dtype.kind == "c"
                                                           else 1, dtype))

    def randn(self):
        def draw(shape, dtype):
            sample = np.random.randn(*shape)
            if dtype.kind == "c":
                sample = sample + 1j * np.random.randn(*shape)
            return np.asarray(sample, dtype)
        return self._per_leaf(draw)

    def standard_basis(self):
        """One-hot values, one per real dimension (1 and 1j for a complex element)."""
        zeros = [np.zeros(shape, dtype) for shape, dtype in self.avals]
        for k, (shape, dtype) in enumerate(self.avals):
            units = (1, 1j) if dtype.kind == "c" else (1,)
            for index in np.ndindex(*shape):
                for unit in units:
                    leaf = np.zeros(shape, dtype)
                    leaf[index] = unit
                    yield tree_unflatten(self.tree, zeros[:k] + [leaf] + zeros[k + 1:])

    def add(self, x, y):
        return tree_map(lambda a, b: a + b, x, y)

    def scalar_mul(self, x, a):
        return tree_map(lambda leaf: leaf * a, x)

    def inner_prod(self, x, y):
        return sum(fnp.real(fnp.vdot(a, b)) for a, b in zip(tree_flatten(x)[0],
                                                            tree_flatten(y)[0]))

    def covector(self, x):
        return tree_map(fnp.conj, x)

    def __eq__(self, other):
        return isinstance(other, VSpace) and (self.tree, self.avals) == (other.tree, other.avals)

    def __hash__(self):
        return hash((self.tree, self.avals))

    def __repr__(self):
        return f"VSpace({self._per_leaf(lambda shape, dtype: f'{dtype}{list(shape)}')})"


def vspace(value):
    """The `VSpace` of ``value`` (traced or not)."""
    return VSpace(value)


__all__ = ["VSpace", "vspace"]
