"""The two computations weight normalization is made of, as PyTorch's ATen composes them
(torch.norm_except_dim and torch._weight_norm): both the legacy hook and the
parametrization call them, so their values and grad_fn names agree with PyTorch's."""
import funcgrad.numpy as fnp

from ..._quiet import quiet
from ..._record import engine, wrap


def norm_except_dim(v, pow=2, dim=0):
    """The `pow`-norm of `v` over every dimension but `dim`, kept as size-1 dimensions
    (dim=-1: the norm of all of `v`, a 0-d tensor)."""
    if dim == -1:
        return v.norm(pow)
    last = v.dim() - 1
    if dim in (0, last):
        kept = v.size(dim)
        shape = [kept if d == dim else 1 for d in range(v.dim())]
        rows = v.contiguous().view(kept, -1) if dim == 0 else v.contiguous().view(-1, kept)
        return rows.norm(pow, 1 if dim == 0 else 0).view(shape)
    # Another dimension: moved to the front and back (transpose raises PyTorch's
    # out-of-range error).
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


def weight_norm(v, g, dim=0):
    """v scaled to the norm g, norms taken over every dimension but `dim` (torch's
    _weight_norm). On the first or last dimension PyTorch runs one fused kernel
    (WeightNormInterfaceBackward0), elsewhere the composition v * (g / norm)."""
    if dim not in (0, v.dim() - 1):
        return v * (g / norm_except_dim(v, 2, dim))
    axes = tuple(d for d in range(v.dim()) if d != dim)

    def scaled(v, g):
        return v * (g / fnp.linalg.vector_norm(v, axis=axes, keepdims=True))

    return wrap(quiet().run(scaled, engine(v), engine(g)), "WeightNormInterfaceBackward0",
                (v, g), saves_inputs=True)
