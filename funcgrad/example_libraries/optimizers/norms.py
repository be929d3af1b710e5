"""Norms of whole pytrees: for weight decay and gradient clipping."""
from ... import numpy as fnp
from ...tree_util import tree_leaves, tree_map


def l2_norm(tree):
    """The Euclidean norm of all the leaves of ``tree`` taken together."""
    return fnp.sqrt(sum(fnp.vdot(x, x) for x in tree_leaves(tree)))


def clip_grads(grad_tree, max_norm):
    """Scale ``grad_tree`` down to norm ``max_norm`` if its `l2_norm` is larger."""
    norm = l2_norm(grad_tree)
    return tree_map(lambda g: fnp.where(norm < max_norm, g, g * (max_norm / norm)), grad_tree)
