"""Distances and similarities of nn.functional between corresponding rows of two tensors,
composed as PyTorch composes them (so their grad_fn names follow)."""
import numpy as np

import funcgrad.numpy as fnp

from .._grad_mode import no_grad
from .._quiet import quiet
from .._record import engine, result_type, wrap


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """The cosine of the angle between x1 and x2 along `dim` (each norm at least eps)."""
    dtype = result_type(x1, x2)
    if not dtype.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is "
                           f"{dtype.scalar_name}")
    shape = np.broadcast_shapes(x1.shape, x2.shape)
    x1, x2 = (x if x.shape == shape else x.expand(shape) for x in (x1.to(dtype), x2.to(dtype)))
    norm1 = x1.norm(2, dim, True).clone()
    norm2 = x2.norm(2, dim, True).clone()
    with no_grad():  # the bound is not differentiated through
        norm1.clamp_min_(eps)
        norm2.clamp_min_(eps)
    return ((x1 / norm1) * (x2 / norm2)).sum(dim)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """The p-norm of x1 - x2 + eps over the last dimension."""
    difference = x1 - x2 + eps
    axis = max(x1.dim(), x2.dim()) - 1
    out = quiet().run(lambda d: fnp.linalg.vector_norm(d, ord=p, axis=axis, keepdims=keepdim),
                      engine(difference))
    return wrap(out, "NormBackward1", (difference,))
