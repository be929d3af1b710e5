"""PyTorch's `dim` arguments in funcgrad's terms: as an axis, checked against a tensor's
dimensions (with PyTorch's error), and kept in a reduction's result (`keepdim`)."""
import numbers

import funcgrad.numpy as fnp


def dim_as_axis(dim):
    """PyTorch's dim (None, an int or a sequence) as funcgrad's axis."""
    return dim if dim is None or isinstance(dim, int) else tuple(dim)


def checked_dims(x, dim):
    """`dim` (an int or a sequence) as non-negative axes of `x`, with PyTorch's error for
    one out of range."""
    ndim = max(fnp.ndim(x), 1)
    for d in (dim,) if isinstance(dim, int) else dim:
        if not -ndim <= d < ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, "
                             f"{ndim - 1}], but got {d})")
    return dim % ndim if isinstance(dim, int) else tuple(d % ndim for d in dim)


def one_dim(x, dim, function, position=2):
    """`checked_dims(x, dim)` for `function`, which works along one dimension (its argument
    at `position`): PyTorch's TypeError for a sequence of dims, which a 0-d tensor would
    otherwise take."""
    if not isinstance(dim, numbers.Integral):
        raise not_an_int(dim, function, position)
    return checked_dims(x, dim)


def not_an_int(dim, function, position=2):
    """PyTorch's error for a `dim` of `function` (its argument at `position`) that is not
    an int."""
    return TypeError(f"{function}(): argument 'dim' (position {position}) must be int, not "
                     f"{type(dim).__name__}")


def dims_as_axes(x, dim):
    """PyTorch's `dim` of a reduction or flip of `x` (None for all, an int or a sequence)
    as funcgrad's axis, with PyTorch's errors for a dim out of range or named twice. A 0-d
    tensor's dims 0 and -1 are the tensor itself: no axis of its array (``()``)."""
    if dim is None:
        return None
    axes = checked_dims(x, dim)
    if not isinstance(axes, int):
        refuse_repeated(axes)
    return axes if fnp.ndim(x) else ()


def refuse_repeated(axes):
    """PyTorch's error for non-negative `axes` that name one dimension twice."""
    for i, axis in enumerate(axes):
        if axis in axes[:i]:
            raise RuntimeError(f"dim {axis} appears multiple times in the list of dims")


def empty_dim(function, axis):
    """PyTorch's error for a reduction without an identity (a maximum, a median) along
    `axis`, which is empty (`function`: the name the message gives, "amax()" or "aminmax")."""
    return IndexError(f"{function}: Expected reduction dim {axis} to have non-zero size.")


def no_dimensions(dim):
    """PyTorch's error for dimension `dim` of a 0-d tensor, where an operation needs that
    dimension to exist (a size, a roll, an FFT along it)."""
    return IndexError(f"Dimension specified as {dim} but tensor has no dimensions")


def existing_dims(x, dim):
    """`checked_dims(x, dim)` where the dims must exist: any of a 0-d tensor is PyTorch's
    `no_dimensions` error (for a sequence, its first)."""
    if fnp.ndim(x) == 0:
        raise no_dimensions(dim if isinstance(dim, int) else dim[0])
    return checked_dims(x, dim)


def keep_dim(out, x, dim, keepdim):
    """A reduction's result over `dim` of `x` with that dim kept (PyTorch's keepdim for
    functions funcgrad computes without it)."""
    return fnp.expand_dims(out, dim % max(fnp.ndim(x), 1)) if keepdim and fnp.ndim(x) else out
