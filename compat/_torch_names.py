"""The torch-name table: each row maps one torch name and signature onto funcgrad.numpy
(see `_table` for what a row says and how it becomes ``torch.f``, ``Tensor.f`` and
``Tensor.f_``). Arguments named as PyTorch names them arrive as tensors' values (boxes or
arrays); the lambdas rename them for funcgrad (``dim`` -> ``axis``, ``keepdim`` ->
``keepdims``) and build PyTorch's conventions from funcgrad's operations.

`NOT_PROVIDED` lists the torch names left out, each with the reason; docs/torch-names.md
is generated from both (``python -m compat.tools.list_torch_names``).
"""
import builtins
import itertools
import math
import numbers

import numpy as np

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.numpy.linalg as fla

from funcgrad.core import Box, dtype_of, unbox_all
from funcgrad.numpy.lib.stride_tricks import sliding_window_view

from . import (_complex_build, _dtypes, _fused, _gathering, _householder, _indexing, _layout,
               _legacy_linalg, _linalg_ex, _order_statistics, _scaled_products, _scans,
               _view_scatters, _windowed)
from ._complex_refusals import fixed, no_complex, refuse_complex, refuse_complex_derivative
from ._dim_args import (checked_dims, dim_as_axis, dims_as_axes, empty_dim, existing_dims,
                        one_dim, refuse_repeated)
from ._inplace import inplace, overwrite_p
from ._not_implemented import without_derivative
from ._ops import (nonzero_indices, refuse_bool_product, refuse_integer_zero_divisor,
                   refuse_one_tensor)
from ._record import result_type
from ._return_types import return_type
from ._runtime import warn_once
from ._scipy import linalg as fsl
from ._scipy import special as fsp
from ._table import DATA, FLOAT, KEEP, PROMOTE, Labels, Row, install
from ._tensor import Tensor, require_tensor, typename

# ---- helpers for conventions funcgrad's functions do not share with PyTorch -------------


def _vectors(tensors):
    """PyTorch's checks of cartesian_prod's and combinations' inputs: vectors of one dtype."""
    for t in tensors:
        if fnp.ndim(t) != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(fnp.shape(t))}")
    if len({unbox_all(t).dtype for t in tensors}) > 1:
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")


def _cartesian_prod(*tensors):
    """Every combination of one element from each vector, one per row (the first vector's
    index varying slowest); one vector is returned as it is."""
    _vectors(tensors)
    if len(tensors) == 1:
        return tensors[0]
    grids = fnp.meshgrid(*tensors, indexing="ij")
    return fnp.stack([fnp.reshape(g, (-1,)) for g in grids], axis=1)


def _combinations(x, r=2, with_replacement=False):
    """The r-element combinations of a vector's elements, one per row, in index order."""
    _vectors([x])
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return np.zeros((0,), unbox_all(x).dtype)
    choose = itertools.combinations_with_replacement if with_replacement else \
        itertools.combinations
    picks = np.array(list(choose(range(fnp.shape(x)[0]), r)), np.int64).reshape(-1, r)
    return fnp.getitem(x, picks)


def _cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """The running trapezoid-rule integral of y along `dim` (one element shorter than y),
    at spacing `dx` or at the sample points `x`."""
    if x is not None and dx is not None:
        raise TypeError("cumulative_trapezoid(): give the sample points x or the spacing dx, "
                        "not both")
    axis = checked_dims(y, dim)
    n = fnp.shape(y)[axis]
    pairs = (fnp.take(y, np.arange(1, n), axis=axis) + fnp.take(y, np.arange(n - 1), axis=axis))
    if x is None:
        return fnp.cumsum(pairs * ((1.0 if dx is None else dx) / 2), axis=axis)
    if fnp.ndim(x) == 1:  # the same sample points along dim for every row
        if fnp.shape(x)[0] != n:
            raise RuntimeError("cumulative_trapezoid: There must be one `x` value for each "
                               "sample point")
        steps = fnp.reshape(fnp.diff(x), [-1 if i == axis else 1 for i in range(fnp.ndim(y))])
    else:
        steps = fnp.diff(x, axis=axis)
    return fnp.cumsum(steps * pairs, axis=axis) / 2


def _logcumsumexp(x, dim):
    axis = one_dim(x, dim, "logcumsumexp")
    if fnp.ndim(x) == 0:
        return fnp.positive(x)
    if unbox_all(x).dtype.kind == "c":  # (no complex logaddexp: shifted by the maximum)
        top = np.max(unbox_all(x).real, axis=axis, keepdims=True) if fnp.size(x) else 0
        top = np.where(np.isfinite(top), top, 0)
        return fnp.log(fnp.cumsum(fnp.exp(x - top), axis=axis)) + top
    return _scans.logcumsumexp_p(x, axis=axis, reverse=False)


def _var_mean(x, dim=None, *, correction=1, keepdim=False, which=fnp.var):
    axis = dims_as_axes(x, dim)
    return (which(x, axis=axis, ddof=correction, keepdims=keepdim),
            fnp.mean(x, axis=axis, keepdims=keepdim))


def _aminmax(x, *, dim=None, keepdim=False):
    if dim is not None and not isinstance(dim, numbers.Integral):
        raise TypeError(f"aminmax(): argument 'dim' must be int, not {type(dim).__name__}")
    axis = dims_as_axes(x, dim)
    shape = fnp.shape(x)
    if 0 in shape and (axis is None or shape[axis] == 0):  # (no identity to give)
        if axis is None:
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as "
                               "the operation has no identity.")
        raise empty_dim("aminmax", axis)
    return fnp.min(x, axis=axis, keepdims=keepdim), fnp.max(x, axis=axis, keepdims=keepdim)


def _repeat(x, *sizes):
    if not sizes:
        raise TypeError('repeat() missing 1 required positional arguments: "repeats"')
    sizes = tuple(sizes[0]) if len(sizes) == 1 and not isinstance(sizes[0], int) else sizes
    if len(sizes) < fnp.ndim(x):
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    return fnp.tile(x, sizes)


def _repeat_interleave(x, repeats=None, dim=None, *, output_size=None):
    if repeats is None:  # repeat_interleave(repeats): each index repeated so many times
        return _repeated_indices(unbox_all(x), output_size)
    counts = np.asarray(unbox_all(repeats)) if not isinstance(repeats, int) else repeats
    if not isinstance(repeats, int):
        _check_repeat_counts(counts)
    if isinstance(repeats, int) and repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    if np.any(np.asarray(counts) < 0):
        raise RuntimeError("repeats can not be negative")
    if dim is None:
        return fnp.repeat(fnp.reshape(x, (-1,)), counts, axis=0)
    return fnp.repeat(x, counts, axis=dim)


def _check_repeat_counts(counts):
    """PyTorch's refusal of repeat counts (an array) that are not int32 or int64."""
    if counts.dtype not in (np.int32, np.int64):
        raise _dtypes.not_implemented_for("repeat_interleave_cpu",
                                          _dtypes.from_numpy_dtype(counts.dtype))


def _repeated_indices(repeats, output_size):
    """0, 1, ... each repeated repeats[i] times (in repeats' integer dtype), with PyTorch's
    checks."""
    _check_repeat_counts(repeats)
    if repeats.ndim != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    if (repeats < 0).any():
        raise RuntimeError("repeats can not be negative")
    if output_size is not None and output_size != repeats.sum():
        raise RuntimeError("allocated size does not match required size")
    return np.repeat(np.arange(repeats.size, dtype=repeats.dtype), repeats)


def _matrices(x, name):
    """x, refused as PyTorch's tril/triu refuse fewer than 2 dimensions."""
    if fnp.ndim(x) < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    return x


def _unflatten(x, dim, sizes):
    shape = list(fnp.shape(x))
    if not shape:  # (PyTorch's message goes on with its C++ stack, left out)
        raise RuntimeError(f"unflatten got an unexpected error:\nDimension specified as {dim} "
                           f"but tensor has no dimensions")
    dim = checked_dims(x, dim)  # (PyTorch's range errors: a wrapped dim unflattened another)
    sizes = tuple(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    known = math.prod(n for n in sizes if n != -1)
    if -1 not in sizes and known != shape[dim] or -1 in sizes and (
            sizes.count(-1) == 1 and (not known or shape[dim] % known)):
        raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the "
                           f"size of dim {dim} ({shape[dim]}) in the input tensor")
    return fnp.reshape(x, tuple(shape[:dim]) + tuple(sizes) + tuple(shape[dim + 1:]))


def _roll(x, shifts, dims=None):
    if dims is None:
        return fnp.reshape(fnp.roll(fnp.reshape(x, (-1,)), shifts), fnp.shape(x))
    return fnp.roll(x, shifts, axis=existing_dims(x, dims))


def _windows_along(x, dimension, size, step):
    """Tensor.unfold: the windows of `size` elements along `dimension`, `step` apart, as a
    new last dimension (a view, as PyTorch's)."""
    shape = fnp.shape(x)
    axis = checked_dims(x, dimension) if shape else 0
    length = shape[axis] if shape else 1
    if size > length:
        raise RuntimeError(f"maximum size for tensor at dimension {axis} is {length} but size "
                           f"is {size}")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    if not shape:
        return fnp.reshape(x, (1,))
    windows = sliding_window_view(x, size, axis=axis)
    index = [slice(None)] * len(shape)
    index[axis] = slice(None, None, step)
    return fnp.getitem(windows, tuple(index))


def _narrow_copy(x, dim, start, length):
    return _gathering.narrow(x, dim, start, length)  # the table copies a view


def _real(x):
    """The real part, a view; a real tensor itself (as PyTorch returns it)."""
    return fnp.real(x) if dtype_of(x).kind == "c" else x


def _diag(x, diagonal=0):
    if fnp.ndim(x) not in (1, 2):
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {fnp.ndim(x)}D")
    return fnp.diag(x, diagonal)


def _diag_embed(x, offset=0, dim1=-2, dim2=-1):
    n = fnp.shape(x)[-1] + abs(offset)
    eye = np.eye(n, k=offset, dtype=bool)
    rows, cols = np.nonzero(eye)
    out = fnp.zeros(fnp.shape(x)[:-1] + (n, n), dtype=unbox_all(x).dtype)
    embedded = fnp.at(out)[..., rows, cols].set(x)
    return fnp.moveaxis(embedded, (-2, -1), (dim1, dim2))


def _trace(x):
    if fnp.ndim(x) != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {fnp.ndim(x)}")
    return fnp.trace(_summable(x))


def _summable(x):
    """x, as int64 where it is unsigned: NumPy sums uint8 into uint64, PyTorch into int64."""
    return fnp.astype(x, np.int64) if fnp.result_type(x).kind == "u" else x


def _cdist(x1, x2, p=2.0, compute_mode=None):
    """The p-norm distance between each row of x1 and each row of x2 (batched)."""
    if fnp.ndim(x1) < 2 or fnp.ndim(x2) < 2:
        raise RuntimeError("cdist only supports at least 2D tensors, X1 got: "
                           f"{fnp.ndim(x1)}D")
    if fnp.shape(x1)[-1] != fnp.shape(x2)[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: "
                           f"{fnp.shape(x1)[-1]} X2: {fnp.shape(x2)[-1]}")
    difference = fnp.expand_dims(x1, -2) - fnp.expand_dims(x2, -3)
    return _pnorm(difference, p, -1)


def _pnorm(x, p, axis):
    """The p-norm along `axis`, with PyTorch's derivative."""
    return _fused.vector_norm(x, p, axis, False)


def _in_dtype_of(x, out):
    """`out` in x's dtype (NumPy's cov and corrcoef compute float32 input in float64)."""
    return fnp.astype(out, unbox_all(x).dtype)


def _cov(x, *, correction=1, fweights=None, aweights=None):
    return _in_dtype_of(x, fnp.cov(x, ddof=correction, fweights=fweights, aweights=aweights))


def _cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """x1 . x2 / (|x1| |x2|) along `dim`, the product of norms kept above eps (PyTorch's)."""
    products = fnp.sum(x1 * x2, axis=dim)
    squares = fnp.sum(x1 * x1, axis=dim) * fnp.sum(x2 * x2, axis=dim)
    return products / fnp.sqrt(fnp.maximum(squares, eps * eps))


def _dist(x, other, p=2):
    return _pnorm(fnp.reshape(x - other, (-1,)), p, 0)


def _renorm(x, p, dim, maxnorm):
    """x with each slice along `dim` whose p-norm exceeds maxnorm scaled to
    maxnorm / (norm + 1e-7) of itself (PyTorch's margin), the scale differentiated too."""
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
    if fnp.ndim(x) < 2:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {fnp.ndim(x)} "
                           f"dimensions")
    axis = checked_dims(x, dim)
    if unbox_all(x).dtype.kind not in "fc":
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor "
                           f"as input. Got {_dtypes.of_array(unbox_all(x)).scalar_name}")
    if maxnorm == math.inf:  # no slice exceeds it (and the scale's derivative is NaN)
        return x
    others = tuple(d for d in range(fnp.ndim(x)) if d != axis)
    norms = _fused.vector_norm(x, p, others, True)
    return x * fnp.where(norms > maxnorm, maxnorm / (norms + 1e-7), 1.0)


def _tensor_arguments(name, **positions):
    """A row's check: PyTorch's TypeError where an argument it takes as a tensor (by name,
    at its position in the method's signature) is a number or a list; the arguments are
    read as the method receives them, self first."""
    def check(self, *args, **kwargs):
        for argument, position in positions.items():
            value = args[position - 1] if position <= len(args) else kwargs.get(argument)
            if value is not None:
                require_tensor(value, name, argument, position)
    return check


def _index_put_arguments(self, indices, values, accumulate=False):
    """PyTorch's TypeErrors for index_put's indices (a tuple or list of tensors) and values
    (a tensor)."""
    if not isinstance(indices, (tuple, list)) or not all(isinstance(part, Tensor)
                                                         for part in indices):
        raise TypeError(f"index_put(): argument 'indices' (position 1) must be tuple of "
                        f"Tensors, not {type(indices).__name__}")
    require_tensor(values, "index_put", "values", 2)
    if any(part.dtype is _dtypes.uint8 for part in indices):
        _indexing.warn_of_byte_index(stacklevel=3)


def _index_reduce_arguments(*args, **kwargs):
    """index_reduce's TypeErrors, and PyTorch's warning (once a process) that it is in
    beta, given at the caller's line."""
    _tensor_arguments("index_reduce", index=2, source=3)(*args, **kwargs)
    warn_once("index_reduce() is in beta and the API may change at any time.", stacklevel=3)


_LERP_LABELS = Labels(lambda input, end, weight: "LerpBackward1" if isinstance(weight, Tensor)
                      else "LerpBackward0", "LerpBackward0", "LerpBackward1")


def _frac(x):
    return x - fnp.trunc(x)


def _round(x, *, decimals=0):
    return fnp.round(x, decimals)


def _logit(x, eps=None):
    """PyTorch's logit: NaN outside [0, 1], where its gradient is NaN too (the formula's
    would be a number); with `eps`, of x clamped to [eps, 1 - eps], with a zero gradient
    outside (a clamp's zero times the infinite slope at eps = 0 would be NaN)."""
    raw = unbox_all(x)
    if eps is not None:
        return fsp.logit(fnp.where(raw < eps, eps, fnp.where(raw > 1 - eps, 1 - eps, x)))
    outside = (raw < 0) | (raw > 1)
    if outside.any():
        x = x * np.where(outside, np.nan, 1.0).astype(raw.dtype)
    return fsp.logit(x)


# PyTorch's overloads: two tensors, a number and a tensor, a tensor and a number.
_XLOGY_LABELS = Labels(lambda input, other: "XlogyBackward1" if not isinstance(input, Tensor)
                       else "XlogyBackward2" if not isinstance(other, Tensor)
                       else "XlogyBackward0", "XlogyBackward0", "XlogyBackward1",
                       "XlogyBackward2")


def _xlogy(x, other):
    """x * log(other), 0 where x == 0; a Python number in the tensor's dtype (PyTorch's
    wrapped number)."""
    if isinstance(x, numbers.Number):
        x = np.asarray(x, fnp.result_type(other))
    elif isinstance(other, numbers.Number):
        other = np.asarray(other, fnp.result_type(x))
    return _fused.xlogy_p(x, other)


def _sinc(x):
    return fnp.sinc(x)


def _einsum(equation, *operands):
    if len(operands) == 1 and isinstance(operands[0], list):
        operands = operands[0]
    if len(operands) == 1 and fnp.result_type(operands[0]).kind in "biu" and _sums(equation):
        operands = [fnp.astype(operands[0], np.int64)]  # (PyTorch's sum of integers)
    return fnp.einsum(equation, *operands)


def _sums(equation):
    """Whether the einsum `equation` (a string) of one operand sums over an index."""
    if not isinstance(equation, str):
        return False
    inputs, arrow, output = equation.replace(" ", "").partition("->")
    indices = [c for c in inputs if c.isalpha()]
    if not arrow:  # (the implicit output: the indices that occur once)
        output = [c for c in indices if indices.count(c) == 1]
    return bool(set(indices) - set(output))


def _einsum_arguments(*args, **kwargs):
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    operands = args[1] if len(args) == 2 and isinstance(args[1], list) else args[1:]
    tensors = [x for x in operands if isinstance(x, Tensor)]
    if len(tensors) > 1:  # (a product: PyTorch's bmm has no bool loop)
        refuse_bool_product(tensors[0], "bmm")


def _chain_matmul(*matrices):
    if len(matrices) == 1:  # a copy: PyTorch's clone (integer arrays are never traced)
        matrix = matrices[0]
        return fnp.positive(matrix) if fnp.result_type(matrix).kind in "fc" else fnp.copy(matrix)
    return fla.multi_dot(list(matrices))


def _chain_matmul_arguments(*matrices):
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    for matrix in matrices:
        if isinstance(matrix, Tensor) and matrix.dim() != 2:
            raise RuntimeError(f"Tensor dimension is {matrix.dim()}, expected 2 instead.")
    if len(matrices) > 1:
        refuse_bool_product(matrices[0], "addmm_impl_cpu_")


def _tensordot(a, b, dims=2):
    return fnp.tensordot(a, b, axes=dims if isinstance(dims, int) else tuple(dims))


def _cross(input, other, dim=None):
    if dim is None:  # the first dimension of length 3, as torch.cross without dim
        dim = next(i for i, n in enumerate(fnp.shape(input)) if n == 3)
    return fnp.cross(input, other, axis=existing_dims(input, dim))


def _at_least(which):
    """atleast_1d, _2d or _3d (`which`) of tensors given one by one or in one sequence
    (a tuple of results, as PyTorch's)."""
    def compute(*tensors):
        if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
            return tuple([which(x) for x in tensors[0]])
        return which(*tensors)
    return compute


def _at_least_label(*tensors):
    """PyTorch's node of atleast_2d or _3d: a view of a 0-d tensor, else an unsqueeze (the
    first tensor's, given to every result)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    return "ViewBackward0" if tensors and tensors[0].dim() == 0 else "UnsqueezeBackward0"


_AT_LEAST_LABELS = Labels(_at_least_label, "ViewBackward0", "UnsqueezeBackward0")


# PyTorch's inner multiplies by a 0-d operand, and reshapes a tensordot's result otherwise.
_INNER_LABELS = Labels(lambda input, other: "MulBackward0" if not (input.dim() and other.dim())
                       else "ViewBackward0", "MulBackward0", "ViewBackward0")


# PyTorch's overload with `stable` (given, True or False) has a node of its own.
_SORT_LABELS = Labels(lambda x, dim=-1, descending=False, stable=None: "SortBackward0"
                      if stable is None else "SortBackward1", "SortBackward0", "SortBackward1")


def _sequence_of_tensors(function):
    """A row's check: PyTorch's error for a tensor passed as its sequence of tensors."""
    return lambda tensors, *args, **kwargs: refuse_one_tensor(tensors, function)


def _meshgrid(*tensors, indexing="ij"):
    if len(tensors) == 1 and isinstance(tensors[0], list):
        tensors = tensors[0]
    return tuple(fnp.meshgrid(*tensors, indexing=indexing))


def _meshgrid_input(*tensors, indexing="ij"):
    """PyTorch's errors for a tensor of two or more dimensions (NumPy's meshgrid flattens
    it; PyTorch's message goes on to print its values as its C++ code does: left out
    here) and for tensors of several dtypes (NumPy's meshgrid keeps each one's)."""
    if len(tensors) == 1 and isinstance(tensors[0], list):
        tensors = tensors[0]
    for x in tensors:
        if isinstance(x, Tensor) and x.dim() > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list "
                               f"but got: [ {typename(x)}{{{','.join(map(str, x.shape))}}} ]")
    if len({x.dtype for x in tensors if isinstance(x, Tensor)}) > 1:
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")


def _broadcast_tensors(*tensors):
    return tuple(fnp.broadcast_arrays(*tensors))


def _movedim(x, source, destination):
    return fnp.moveaxis(x, source, destination)


def _flip(x, *dims):
    """flip(x, dims); Tensor.flip also takes the dims one by one (``x.flip(0, 1)``)."""
    if not dims:
        raise TypeError('flip() missing 1 required positional arguments: "dims"')
    return fnp.flip(x, axis=dims_as_axes(x, dims[0] if len(dims) == 1 else dims))


def _rot90(x, k=1, dims=(0, 1)):
    return fnp.rot90(x, k, axes=tuple(dims))


def _count_nonzero(x, dim=None):
    return np.asarray(np.count_nonzero(x, axis=dims_as_axes(x, dim)), np.int64)


def _nonzero(x, *, as_tuple=False):
    if np.ndim(x) == 0 and not as_tuple:  # (NumPy refuses a 0-d array) one row per nonzero
        return np.zeros((int(x != 0), 0), np.int64)
    if as_tuple:
        return nonzero_indices(x)
    found = np.nonzero(x)
    return np.stack(found, axis=-1).astype(np.int64) if found else np.zeros((1, 0), np.int64)


def _nonzero_static(x, *, size, fill_value=-1):
    """nonzero's first `size` rows, padded to `size` rows of `fill_value`."""
    if size < 0:
        raise RuntimeError("nonzero_static: 'size' must be an non-negative integer")
    found = _nonzero(x)[:size]
    padding = np.full((size - len(found), found.shape[1]), fill_value, np.int64)
    return np.concatenate([found, padding])


def _diff(x, n=1, dim=-1, prepend=None, append=None):
    return fnp.diff(x, n, axis=dim,
                    **({} if prepend is None else {"prepend": prepend}),
                    **({} if append is None else {"append": append}))


def _quantile(x, q, dim=None, keepdim=False, *, interpolation="linear", which=fnp.quantile):
    return which(x, q, axis=dim, keepdims=keepdim, method=interpolation)


def _std_or_var(which):
    def compute(x, dim=None, *, correction=1, keepdim=False):
        return which(x, axis=dims_as_axes(x, dim), ddof=correction, keepdims=keepdim)
    return compute


def _matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    A = _in_dtype(A, dtype)
    if tuple(dim) in ((-2, -1), (fnp.ndim(A) - 2, fnp.ndim(A) - 1)):
        return fla.matrix_norm(A, ord=ord, keepdims=keepdim)
    norms = fla.matrix_norm(fnp.moveaxis(A, tuple(dim), (-2, -1)), ord=ord)
    # kept dimensions where `dim` was, not at the end where the matrices were moved
    return fnp.expand_dims(norms, sorted(d % fnp.ndim(A) for d in dim)) if keepdim else norms


def _nuclear_norm(input, dim=None, keepdim=False):
    """The sum of the singular values of the matrices over `dim` (the last two dimensions
    by default; a bool in dim's place is keepdim, as in PyTorch's other overload)."""
    if isinstance(dim, bool):
        dim, keepdim = None, dim
    return _matrix_norm(input, "nuc", (-2, -1) if dim is None else dim, keepdim)


# PyTorch's last node: the sum of the singular values, or the permute that puts the kept
# dimensions back in place.
_NUCLEAR_NORM_LABELS = Labels(
    lambda input, dim=None, keepdim=False: "PermuteBackward0" if (
        dim if isinstance(dim, bool) else keepdim) else "SumBackward1",
    "SumBackward1", "PermuteBackward0")


def _nuclear_norm_input(input, dim=None, keepdim=False):
    warn_once("at::nuclear_norm is deprecated and it is just left for JIT compatibility. It "
              "will be removed in a future PyTorch release. Please use `linalg.matrix_norm(A, "
              "'nuc', dim, keepdim)` instead", stacklevel=3)
    if input.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    _matrix_norm_input(input, "nuc")


def _frobenius_norm_input(input, dim, keepdim=False):
    warn_once("at::frobenius_norm is deprecated and it is just left for JIT compatibility. It "
              "will be removed in a future PyTorch release. Please use `linalg.vector_norm(A, "
              "2., dim, keepdim)` instead", stacklevel=3)
    if input.dtype.category < _dtypes.FLOAT:
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. "
                           f"Got {input.dtype.scalar_name} instead.")
    if not isinstance(dim, numbers.Integral) and len(dim) > 2:
        raise RuntimeError(f"Expected at most 2 dimensions, but got {len(dim)} dimensions "
                           f"instead.")


def _vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    x = _in_dtype(x, dtype)
    return _fused.vector_norm(x, ord, dims_as_axes(x, dim), keepdim)


def _nansum(x, dim=None, keepdim=False, *, dtype=None):
    """The sum of the non-NaN elements, NaN counting as 0 before any cast to `dtype` (as
    PyTorch's, which casts the elements, then sums)."""
    if dtype is not None and fnp.result_type(x).kind in "fc":
        x = fnp.where(fnp.isnan(x), 0.0, x)
    return fnp.nansum(_summable(_in_dtype(x, dtype)), axis=dims_as_axes(x, dim),
                      keepdims=keepdim)


def _in_dtype(x, dtype):
    """An input cast to its function's `dtype=` (None: as it is), as PyTorch casts it before
    computing (a norm's was checked by `_norm_dtype`)."""
    return x if dtype is None else fnp.astype(x, _dtypes.as_dtype(dtype).numpy)


def _norm_dtype(name):
    """A norm row's check of its `dtype=`: of the input's kind (real or complex), which it
    converts to without narrowing, as PyTorch requires."""
    def check(input, *args, dtype=None, **kwargs):
        if dtype is None or not isinstance(input, Tensor):
            return
        dtype = _dtypes.as_dtype(dtype)
        if input.dtype.is_complex != dtype.is_complex:
            kind = "complex" if input.dtype.is_complex else "real"
            raise RuntimeError(f"{name}: dtype should be {kind} for {kind} inputs, but got "
                               f"{dtype.scalar_name}")
        if _dtypes.promote_types(input.dtype, dtype) is not dtype:
            raise RuntimeError(f"{name}: the dtype of the input ({input.dtype.scalar_name}) "
                               f"should be convertible without narrowing to the specified "
                               f"dtype ({dtype.scalar_name})")
    return check


def _linalg_norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    A = _in_dtype(A, dtype)
    if ord is None and dim is None:
        return _vector_norm(fnp.reshape(A, (-1,)), 2, 0, False) if not keepdim else \
            _vector_norm(A, 2, None, True)
    if (dim is not None and not isinstance(dim, int) and len(dim) == 2) or (
            dim is None and fnp.ndim(A) == 2):
        return _matrix_norm(A, "fro" if ord is None else ord,
                            (-2, -1) if dim is None else dim, keepdim)
    return _vector_norm(A, 2 if ord is None else ord, dim, keepdim)


def _solve(A, B, *, left=True):
    if not left:
        return fnp.matrix_transpose(fla.solve(fnp.matrix_transpose(A),
                                              fnp.matrix_transpose(B)))
    if fnp.ndim(B) == fnp.ndim(A) - 1:  # a batch of vectors, PyTorch's rule
        return fla.solve(A, fnp.expand_dims(B, -1))[..., 0]
    return fla.solve(A, B)


@fg.custom_vjp
def _without_derivative(a):
    """`a`, where PyTorch has no derivative: igamma's and igammac's in their first argument."""
    return a


def _refuse_igamma_input(residuals, cotangent):
    raise NotImplementedError("the derivative for 'igamma: input' is not implemented.")


_without_derivative.defvjp(lambda a: (a, None), _refuse_igamma_input)


def _incomplete_gamma_input(name):
    """igamma's or igammac's refusals: a number as `other`, and dtypes without a kernel
    (integers, bool, complex numbers)."""
    def check(input, other):
        require_tensor(other, name, "other", 2)
        dtype = result_type(input, other)
        if dtype.category != _dtypes.FLOAT:
            raise _dtypes.not_implemented_for(f"{name}_cpu", dtype)
    return check


def _incomplete_gamma(function):
    """igamma or igammac: `function` of (input, other), without input's derivative."""
    def compute(input, other):
        return function(_without_derivative(input), other)
    return compute


_igamma = _incomplete_gamma(fsp.gammainc)  # P(input, other), regularized lower
_igammac = _incomplete_gamma(fsp.gammaincc)  # Q(input, other), regularized upper


def _multigammaln(x, p):
    """log of the multivariate gamma function, as a sum of gammaln: PyTorch checks no
    domain (inf where x <= (p - 1) / 2), where SciPy's multigammaln refuses."""
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    terms = [fsp.gammaln(x - 0.5 * j) for j in range(p)]
    return p * (p - 1) / 4 * math.log(math.pi) + builtins.sum(terms[1:], terms[0])


def _solve_triangular(A, B, *, upper, left=True, unitriangular=False):
    if fnp.ndim(B) < 2:
        raise RuntimeError("linalg.solve_triangular: The input tensor B must have at least 2 "
                           "dimensions.")
    if not left:  # X A = B is A^T X^T = B^T, and A^T is triangular on the other side
        return fnp.matrix_transpose(fsl.solve_triangular(
            fnp.matrix_transpose(A), fnp.matrix_transpose(B), lower=upper,
            unit_diagonal=unitriangular))
    return fsl.solve_triangular(A, B, lower=not upper, unit_diagonal=unitriangular)


def _both(first, then):
    """`first`, then `then` (a row's own check, or None)."""
    def check(*args, **kwargs):
        first(*args, **kwargs)
        if then is not None:
            then(*args, **kwargs)
    return check


def _one_dtype(message):
    """A check: PyTorch's refusal of two tensors of different dtypes (a real and a complex
    one, say), which it promotes to none; `message` of their dtypes' names."""
    def check(x, other, *args, **kwargs):
        if isinstance(x, Tensor) and isinstance(other, Tensor) and x.dtype is not other.dtype:
            raise RuntimeError(message(x.dtype.scalar_name, other.dtype.scalar_name))
    return check


def _square(compute, name):
    """`compute`, refusing what is not a (batch of) square matrices as PyTorch does."""
    def checked(A, *args, **kwargs):
        _legacy_linalg.require_square(A, name)
        return compute(A, *args, **kwargs)
    return checked


def _square_first(name, check, position=0, keyword=None):
    """A row's check: PyTorch's refusal of what is not a (batch of) square matrices (the
    argument at `position`, or `keyword`: A or input by default; named by `name`), before
    `check`'s of its dtype, in PyTorch's order."""
    def checked(*args, **kwargs):
        if len(args) > position:
            A = args[position]
        else:
            A = kwargs.get(keyword) if keyword else kwargs.get("A", kwargs.get("input"))
        if isinstance(A, Tensor):
            _legacy_linalg.require_square(A._data, name)
        check(*args, **kwargs)
    return checked


def _matrix_rank(A, tol=None, *, atol=None, rtol=None, hermitian=False):
    """The number of singular values (|eigenvalues| with `hermitian`) above max(atol, rtol
    times the largest), per matrix: rtol is eps * max(m, n) unless given, or 0 where a
    positive atol is given; `tol` is atol's older name. (Tolerances broadcast over the
    batch of matrices.)"""
    if np.ndim(A) < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at "
                           "least 2 dimensions.")
    atol = tol if atol is None else atol
    if hermitian and A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"linalg.eigh: A must be batches of square matrices, but they are "
                           f"{A.shape[-2]} by {A.shape[-1]} matrices")
    values = (np.abs(np.linalg.eigvalsh(A)) if hermitian
              else np.linalg.svd(A, compute_uv=False))
    absolute = np.asarray(0.0 if atol is None else atol, values.dtype)
    if rtol is None:
        default = np.finfo(values.dtype).eps * max(A.shape[-2:])
        rtol = default if atol is None else np.where(absolute > 0, 0.0, default)
    largest = np.max(values, axis=-1, initial=0.0)
    threshold = np.maximum(absolute, np.asarray(rtol, values.dtype) * largest)
    return np.asarray((values > threshold[..., None]).sum(axis=-1), np.int64)


def _svd(A, full_matrices=True, *, driver=None):
    """linalg.svd. With full_matrices, a non-square matrix's extra singular vectors (U's
    columns or Vh's rows past min(m, n)) are not unique: PyTorch ignores their gradient
    (funcgrad's rule refuses it, as JAX's), so they are constants joined to the thin
    factors, as the legacy svd(some=False) joins them."""
    m, n = fnp.shape(A)[-2:]
    if not (full_matrices and m != n and isinstance(A, Box)):
        return tuple(fla.svd(A, full_matrices=full_matrices))
    u, s, vh = fla.svd(A, full_matrices=False)
    full_u, _, full_vh = np.linalg.svd(unbox_all(A), full_matrices=True)
    k = min(m, n)
    return (fnp.concatenate([u, full_u[..., k:]], axis=-1), s,
            fnp.concatenate([vh, full_vh[..., k:, :]], axis=-2))


def _symmetrised_gradient(A):
    """``A``, with its cotangent made Hermitian. PyTorch's eigh, eigvalsh, cholesky and
    pinv(hermitian=True) read one triangle of ``A`` but return the Hermitian part of that
    triangle's cotangent (as JAX), where funcgrad's differentiate the function of the
    triangle: passed through the Hermitian part, the cotangent is PyTorch's."""
    hermitian = (A + fnp.conj(fnp.swapaxes(A, -1, -2))) / 2
    return hermitian + fg.stop_gradient(A - hermitian)


def _eigh(A, UPLO="L"):
    return tuple(fla.eigh(_symmetrised_gradient(A), UPLO=UPLO))


def _eigvalsh(A, UPLO="L"):
    return fla.eigvalsh(_symmetrised_gradient(A), UPLO)


def _qr(A, mode="reduced"):
    if mode == "complete" and fnp.shape(A)[-2] > fnp.shape(A)[-1]:
        return _complete_qr_of_tall(A)
    return tuple(fla.qr(A, mode=mode))


@fg.custom_vjp
def _complete_qr_of_tall(A):
    """The complete QR of a tall matrix, whose derivative PyTorch refuses (Q's extra
    columns are not unique)."""
    return tuple(fla.qr(A, mode="complete"))


def _refuse_complete_qr_derivative(residuals, cotangents):
    raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and "
                       "nrows > ncols.")


_complete_qr_of_tall.defvjp(lambda A: (_complete_qr_of_tall(A), None),
                            _refuse_complete_qr_derivative)


def _lstsq(A, B, rcond=None, *, driver=None):
    """(solution, residuals, rank, singular_values), as PyTorch's default CPU driver
    'gelsy' reports them: residuals and singular_values empty."""
    # (rcond: the singular values at or below rcond times the largest count as zero)
    solution = (fla.pinv(A) if rcond is None else fla.pinv(A, rtol=rcond)) @ B
    rank = _matrix_rank(unbox_all(A), rtol=rcond)
    empty = np.zeros((0,), unbox_all(A).real.dtype)  # real for complex A too, as PyTorch's
    return solution, empty, rank, empty


def _pinv(A, *, atol=None, rtol=None, hermitian=False):
    if atol is not None:
        raise NotImplementedError("compat.linalg.pinv: atol= is not supported; use rtol=")
    options = {} if rtol is None else {"rtol": rtol}
    if hermitian:
        return _hermitian_pinv_as_torch(A, options)
    return fla.pinv(A, **options)


def _hermitian_pinv_as_torch(A, options):
    """pinv(A, hermitian=True) with PyTorch's gradient: the general pseudo-inverse's rule
    (dP = -P dA P + P P^H dA^H (I - A P) + (I - P A) dA^H P^H P) evaluated at A itself and
    at P, the pseudo-inverse of A's lower triangle read as a Hermitian matrix; funcgrad's
    pinv differentiates that function of the triangle instead. First order only."""
    P = fg.stop_gradient(fla.pinv(A, hermitian=True, **options))
    A0, Ah = fg.stop_gradient(A), fnp.conj(fnp.swapaxes(A, -1, -2))
    Ph = fnp.conj(fnp.swapaxes(P, -1, -2))
    rows, columns = np.eye(A.shape[-2]), np.eye(A.shape[-1])
    linear = (-P @ A @ P + P @ Ph @ Ah @ (rows - A0 @ P)
              + (columns - P @ A0) @ Ah @ Ph @ P)
    return P + linear - fg.stop_gradient(linear)


def _cholesky(A, *, upper=False):
    A = _symmetrised_gradient(A)
    if upper:   # PyTorch reads the upper triangle then (NumPy the lower one always)
        return fla.cholesky(fnp.conj(fnp.swapaxes(A, -1, -2)), upper=True)
    return fla.cholesky(A)


def _legacy_cholesky(A, upper=False):
    """torch.cholesky: `upper` positional, as linalg.cholesky's keyword."""
    return _cholesky(A, upper=upper)


def _slogdet(A):
    return tuple(fla.slogdet(A))


def _logaddexp(x, other):
    """log(exp(x) + exp(other)); for complex numbers as PyTorch's kernel computes it, from
    the operand of larger real part m and the other n: m + log1p(exp(n - m))."""
    if not np.iscomplexobj(unbox_all(x)):
        return _fused.logaddexp_p(x, other)
    first_larger = np.real(unbox_all(x)) >= np.real(unbox_all(other))
    larger = fnp.where(first_larger, x, other)
    smaller = fnp.where(first_larger, other, x)
    return larger + fnp.log1p(fnp.exp(smaller - larger))


def _expit(x):
    """special.expit: sigmoid, which PyTorch computes for complex numbers too."""
    return _fused.sigmoid_p(x) if np.iscomplexobj(unbox_all(x)) else fsp.expit(x)


def _logdet(A):
    """log(det(A)): NaN for a real matrix of negative determinant; for a complex one the
    complex logarithm, log|det| + i arg(det)."""
    sign, logabs = fla.slogdet(A)
    if np.iscomplexobj(unbox_all(A)):
        return fnp.log(sign) + logabs
    return fnp.where(unbox_all(sign) < 0, np.nan, logabs)


def _fft(which, default_norm=None):
    def compute(input, n=None, dim=-1, norm=None):
        return which(input, n=n, axis=existing_dims(input, dim), norm=norm or default_norm)
    return compute


def _fft_labels(of_real):
    """The node of a 1-D transform: PyTorch's kernel's (c2c for a complex input), or
    `of_real` for a real one (r2c; for ifft, the conjugate of an r2c)."""
    return Labels(lambda input, *args, **kwargs: "FftC2CBackward0" if input.is_complex()
                  else of_real, of_real, "FftC2CBackward0")


def _fftn(which):
    def compute(input, s=None, dim=None, norm=None):
        out = which(input, s=_as_sequence(s), axes=dim_as_axis(_as_sequence(dim)), norm=norm)
        if which in (fnp.fft.fftn, fnp.fft.ifftn) and fnp.result_type(out).kind != "c":
            # over no axes (a 0-d tensor, or dim=()) NumPy returns the real input; PyTorch's
            # transforms always give complex results
            out = fnp.astype(out, np.result_type(fnp.result_type(out), np.complex64))
        return out
    return compute


def _as_sequence(value):
    """An n-dimensional transform's `s` or `dim`: one int is a sequence of one, as
    PyTorch takes it."""
    return (value,) if isinstance(value, numbers.Integral) else value


def _fft2(which):
    def compute(input, s=None, dim=(-2, -1), norm=None):
        axes = existing_dims(input, tuple(_as_sequence(dim)))
        return which(input, s=_as_sequence(s), axes=axes, norm=norm)
    return compute


# ---- the table ---------------------------------------------------------------------------

_VALUES_INDICES = ("values", "indices")


def _named(name, fields=_VALUES_INDICES):
    return return_type(name, fields)


# grad_fn names PyTorch gives by the overload a call takes.
_ROUND_LABELS = Labels(lambda input, *, decimals=None: "RoundBackward0" if decimals is None
                       else "RoundBackward1", "RoundBackward0", "RoundBackward1")


def _by_dim(stem):
    """``stem + "0"`` for a reduction over all elements, ``stem + "1"`` over `dim`."""
    return Labels(lambda input, dim=None, keepdim=False: f"{stem}{0 if dim is None else 1}",
                  f"{stem}0", f"{stem}1")


def _spacing_labels(without_x):
    """The trapezoid rules' names: `without_x` for a constant spacing, DivBackward1 for
    sample points `x`."""
    return Labels(lambda y, x=None, *, dx=None, dim=-1: without_x if x is None
                  else "DivBackward1", without_x, "DivBackward1")


def _float(name, compute, label=None, inplace=True, **options):
    """An elementwise function of floats (integers compute in the default float dtype)."""
    return Row(name, compute, FLOAT, label, inplace=inplace, elementwise=True, **options)


def _float_power(x, exponent):
    """x ** exponent in double precision: float64, or complex128 for a complex operand."""
    wide = np.complex128 if fnp.result_type(x, exponent).kind == "c" else np.float64
    if not isinstance(exponent, numbers.Number) and dtype_of(exponent) != wide:
        exponent = fnp.astype(exponent, wide)
    # (PyTorch's .to(double) of a double is the tensor itself, which pow then saves)
    return fnp.power(x if dtype_of(x) == wide else fnp.astype(x, wide), exponent)


def _bessel_j0(x):
    """J0 of an array, in x's float dtype or the default one for integers (SciPy's and
    funcgrad's j0 return float64 for them)."""
    dtype = x.dtype if x.dtype.kind == "f" else _dtypes.DEFAULTS.float.numpy
    return fsp.j0(x).astype(dtype, copy=False)


def _matrix_power(A, n):
    """A ** n: repeated products, of integers too; n < 0 inverts, for floats only (PyTorch's
    inverse refuses integers)."""
    kind = fnp.result_type(A)
    if n < 0 and kind.kind not in "fc":
        raise RuntimeError(f"linalg.inv: Expected a floating point or complex tensor as "
                           f"input. Got {_dtypes.BY_NUMPY_DTYPE[kind].scalar_name}")
    if n == 0:  # PyTorch copies identities into a tensor like A (a zero gradient to A)
        return overwrite_p(A, np.eye(fnp.shape(A)[-1], dtype=kind))
    if n > 0:
        return fla.matrix_power(A, n)
    inverse = _linalg_ex.inverse("linalg.inv")(A)  # (PyTorch's error for a singular A)
    if n == -1:  # the inverse itself, in its column-major layout, as PyTorch returns it
        return _layout.relaid(inverse, _layout.matrices_column_major)
    return fla.matrix_power(inverse, -n)


# PyTorch's node for A ** n is the last operation its composition runs: a copy into an
# identity, a clone, the inverse, or a product (of a batch: a bmm's reshaped result).
_MATRIX_POWER_LABELS = Labels(
    lambda A, n: {0: "CopyBackwards", 1: "CloneBackward0", -1: "LinalgInvExBackward0"}.get(
        n, "MmBackward0" if A.dim() == 2 else "UnsafeViewBackward0"),
    "CopyBackwards", "CloneBackward0", "LinalgInvExBackward0", "MmBackward0",
    "UnsafeViewBackward0")


def _logsumexp(x, dim, keepdim=False):
    return _fused.logsumexp_p(x, axes=dims_as_axes(x, dim), keepdims=keepdim)


def _lgamma(x):
    """log|Gamma(x)|, +inf at -inf as PyTorch's (SciPy's gammaln, and so funcgrad's, gives
    -inf there)."""
    value = fsp.gammaln(x)
    below = unbox_all(x) == -np.inf
    return fnp.where(below, np.inf, value) if below.any() else value


def _fmod(x, y):
    refuse_integer_zero_divisor(fnp.result_type(x, y), y)
    return fnp.fmod(x, y)


def _nan_ignoring(wins):
    """PyTorch's fmax (`wins`: greater_equal) or fmin (less_equal): x where it wins, ties
    included, or where y is NaN, else y; its value and PyTorch's derivative, which gives a
    tie to x (funcgrad's, as JAX's, to y)."""
    def choose(x, y):
        raw_y = unbox_all(y)
        return fnp.where(wins(unbox_all(x), raw_y) | (raw_y != raw_y), x, y)
    return choose


def _sign(x):
    """PyTorch's sign: ``(0 < x) - (x < 0)`` for real numbers, so 0 (never -0.0) at zeros
    and at NaN, where NumPy's is NaN (`_fused.sgn`); z / |z| for complex ones (sgn), 0 at 0;
    NumPy's for integers; a bool is its own sign (NumPy has no bool loop)."""
    kind = dtype_of(x).kind
    if kind == "b":
        return fnp.copy(x)
    return _fused.sgn(x) if kind in "fc" else fnp.sign(x)


def _heaviside(x, values):
    """0 where x < 0, `values` where x == 0, 1 where x > 0, and 0 at NaN, as PyTorch
    (``x == 0 ? values : x > 0``; NumPy's is NaN there)."""
    return np.where(x == 0, values, x > 0).astype(np.result_type(x, values))


def _nextafter(x, other):
    """The next float after x towards other, with PyTorch's derivatives: 1 for x (the step
    is taken as nothing), 0 for other."""
    step = np.nextafter(unbox_all(x), unbox_all(other)) - unbox_all(x)
    return x + fnp.where(np.ones(step.shape, np.bool_), step, 0 * other)


def _frexp(x):
    """(mantissa, exponent): x = mantissa * 2 ** exponent, |mantissa| in [0.5, 1)."""
    mantissa, exponent = fnp.frexp(x)
    return mantissa, unbox_all(exponent).astype(np.int32)


def _angle(x):
    """The argument of complex numbers, with PyTorch's derivative 0 at 0 (arctan2's is 0 / 0
    there), row-major whatever x's layout (PyTorch computes it into a new tensor); of real
    ones, PyTorch's ``x < 0 ? pi : 0`` (0 at -0.0, where NumPy's arctan2 gives pi), NaN at
    NaN, with a derivative 0 everywhere (sign's times 0 carries the NaN)."""
    raw = unbox_all(x)
    if raw.dtype.kind == "c":
        zero = raw == 0
        return _layout.relaid(fnp.where(zero, np.angle(raw), fnp.angle(fnp.where(zero, 1, x))),
                              _layout.row_major)
    return fnp.sign(x) * 0 + np.where(raw < 0, np.pi, 0).astype(raw.dtype)


def _floats_only(refusal, first=False, half=False):
    """A row's check: `refusal(dtype)`, the error PyTorch raises where its tensors' dtype
    (the first tensor's, if `first`) is an integer or bool (compat's integers would compute
    in the default float dtype), or float16 too if `half` (PyTorch's CPU linear algebra has
    no float16 kernels; NumPy's raises a TypeError of its own)."""
    def check(*args, **kwargs):
        tensors = [x for x in (*args, *kwargs.values()) if isinstance(x, Tensor)]
        if not tensors:
            return
        dtype = tensors[0].dtype if first else result_type(*tensors)
        if dtype.category < _dtypes.FLOAT or (half and dtype is _dtypes.float16):
            raise refusal(dtype)
    return check


def _linalg_input(name, half, square=False):
    """A linalg row's check: integer tensors refused by the function's `name`, then (if
    `square`) what is not a (batch of) square matrices, then float16 tensors with
    `half(dtype)` (the errors PyTorch raises for them, in its order)."""
    integers = _expects_floats(name)
    halves = _floats_only(half, first=True, half=True)

    def check(*args, **kwargs):
        integers(*args, **kwargs)
        if square and args and isinstance(args[0], Tensor):
            _legacy_linalg.require_square(args[0]._data, name)
        halves(*args, **kwargs)
    return check


def _matrix_norm_input(A, ord="fro", *args, **kwargs):
    """linalg.matrix_norm's refusals: integers, and float16 for the norms of singular
    values (2, -2, 'nuc'; its Frobenius, 1- and inf-norms take float16)."""
    _MATRIX_NORM_INTEGERS(A)
    if A.dtype is _dtypes.float16 and ord in (2, -2, "nuc"):
        raise _low_precision("linalg.matrix_norm")(A.dtype)


def _low_precision(name):
    """PyTorch's float16 refusal of the linalg functions that check it by name."""
    return lambda dtype: RuntimeError(
        f"{name}: Low precision dtypes not supported. Got {dtype.scalar_name}")


def _missing_kernel(kernel):
    """PyTorch's refusal of a dtype that `kernel` (``"lu_cpu"``) has no loop for."""
    return lambda dtype: _dtypes.not_implemented_for(kernel, dtype)


def _lu_input(A, *args, **kwargs):
    """linalg.lu's checks, in PyTorch's order: a matrix (or a stack), then a kernel for
    its dtype (none for integers or float16)."""
    if isinstance(A, Tensor) and A.dim() < 2:
        raise RuntimeError(f"linalg.lu: Expected tensor with 2 or more dimensions. Got size: "
                           f"{list(A.shape)} instead")
    _no_kernel("lu_cpu", half=True)(A)


def _cdist_floats(x1, x2, *args, **kwargs):
    for name, x in (("X1", x1), ("X2", x2)):
        if isinstance(x, Tensor) and x.dtype.category != _dtypes.FLOAT:
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: "
                               f"{x.dtype.scalar_name}")
    if x1.dtype is _dtypes.float16:
        raise _dtypes.not_implemented_for("cdist", x1.dtype)


def _pinv_floats(x, *args, **kwargs):
    if isinstance(x, Tensor) and (x.dtype.category < _dtypes.FLOAT
                                  or x.dtype is _dtypes.float16):
        raise RuntimeError(f"linalg.pinv({x.dtype.scalar_name}{{{list(x.shape)}}}): expected "
                           f"a tensor with 2 or more dimensions of float, double, cfloat or "
                           f"cdouble types")


def _quantile_floats(x, *args, **kwargs):
    if isinstance(x, Tensor) and x.dtype.name not in ("float32", "float64"):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")


_FLOAT_OR_DOUBLE = _floats_only(lambda dtype: RuntimeError(
    "This function doesn't handle types other than float and double"), first=True, half=True)


def _expects_floats(name):
    """linalg's refusal of integer tensors, by the function's name (``linalg.det``)."""
    return _floats_only(lambda dtype: RuntimeError(
        f"{name}: Expected a floating point or complex tensor as input. Got "
        f"{dtype.scalar_name}"))


_MATRIX_NORM_INTEGERS = _expects_floats("linalg.matrix_norm")


def _no_kernel(kernel, half=False):
    """The refusal of a function without an integer kernel (``"hypot_cpu"``), nor a float16
    one if `half`."""
    return _floats_only(_missing_kernel(kernel), half=half)


def _product_dtypes(input, mat1, mat2, **kwargs):
    """addmm's and addbmm's refusal of operands of different dtypes (PyTorch promotes none)."""
    for name, other in (("self", input), ("mat1", mat1)):
        if isinstance(other, Tensor) and other.dtype is not mat2.dtype:
            raise RuntimeError(f"{name} and mat2 must have the same dtype, but got "
                               f"{other.dtype.scalar_name} and {mat2.dtype.scalar_name}")


def _addmv_dtypes(input, mat, vec, **kwargs):
    dtypes = [x.dtype for x in (input, mat, vec)]
    if len(set(dtypes)) > 1:
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got "
                           f"{dtypes[0].scalar_name}, {dtypes[1].scalar_name}, and "
                           f"{dtypes[2].scalar_name}")


def _baddbmm_dtypes(input, batch1, batch2, **kwargs):
    dtypes = [x.dtype for x in (input, batch1, batch2)]
    if len(set(dtypes)) > 1:
        raise RuntimeError(f"Input dtypes must be the same, got: input {dtypes[0].cpp_name}, "
                           f"batch1: {dtypes[1].cpp_name}, batch2: {dtypes[2].cpp_name}")


def _real_sign(x, *args, **kwargs):
    """sign's refusal of complex tensors, whose sign is sgn's."""
    if x.dtype.is_complex:
        raise NotImplementedError("Unlike NumPy, torch.sign is not intended to support "
                                  "complex numbers. Please use torch.sgn instead.")


def _same_dtypes_to_compare(x, other, *args, **kwargs):
    if isinstance(other, Tensor) and x.dtype is not other.dtype:
        raise RuntimeError(f"{x.dtype.scalar_name} did not match {other.dtype.scalar_name}")


def _same(name, compute, label=None, inplace=True, **options):
    """An elementwise function that keeps the dtype (PyTorch's promotion between operands)."""
    return Row(name, compute, PROMOTE, label, inplace=inplace, elementwise=True, **options)


def _test(name, compute, **options):
    """A function without a derivative (comparisons, tests of values): bool results."""
    return Row(name, compute, DATA, **options)


def _searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None,
                  sorter=None):
    """Where each value would be inserted into `sorted_sequence` (sorted by `sorter` if
    given): along its last dimension, one row per row of `values` when it has more than
    one dimension, as PyTorch's."""
    if right and side == "left":
        raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, "
                           "got side of left while right was True")
    side = side or ("right" if right else "left")
    sequence = np.asarray(sorted_sequence)
    if sorter is not None:
        sequence = np.take_along_axis(sequence, np.asarray(sorter), -1)
    values = np.asarray(values)
    dtype = np.int32 if out_int32 else np.int64
    if sequence.ndim == 1:
        return np.asarray(np.searchsorted(sequence, values, side=side)).astype(dtype)
    if sequence.ndim == 0 and values.ndim:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should have positive "
                           "dimension, but got 0 dimension")
    if values.ndim == 0:
        raise RuntimeError(f"torch.searchsorted(): input value can be a scalar only when "
                           f"boundaries tensor dimension is 1, but we got boundaries tensor "
                           f"dim({sequence.ndim}) and input value's dim(0) numel(1)")
    if sequence.shape[:-1] != values.shape[:-1]:
        raise RuntimeError(f"torch.searchsorted(): boundaries tensor should be 1 dimension or "
                           f"the first N-1 dimensions of boundaries tensor and input value "
                           f"tensor must match, but we got boundaries tensor "
                           f"{list(sequence.shape)} and input value tensor "
                           f"{list(values.shape)}")
    rows = zip(sequence.reshape(-1, sequence.shape[-1]), values.reshape(-1, values.shape[-1]))
    found = [np.searchsorted(row, row_values, side=side) for row, row_values in rows]
    return np.array(found, dtype).reshape(values.shape)


def _bucketize(x, boundaries, *, out_int32=False, right=False):
    """The index of the bucket of `boundaries` (1-d) each element of x falls in."""
    if np.ndim(boundaries) != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got "
                           f"dim({np.ndim(boundaries)})")
    dtype = np.result_type(x, boundaries)
    if dtype.kind == "c":  # (after the dimension's check, as PyTorch)
        raise _dtypes.not_implemented_for("searchsorted_out_cpu",
                                          _dtypes.from_numpy_dtype(dtype))
    return _searchsorted(boundaries, x, out_int32=out_int32, right=right)


def _ldexp_exponent(input, other):
    """PyTorch's refusal of a bool exponent of a floating input (its exp2 kernel has no
    bool loop; integer inputs are promoted first)."""
    if (isinstance(input, Tensor) and input.dtype.is_floating_point
            and isinstance(other, Tensor) and other.dtype is _dtypes.bool):
        raise _dtypes.not_implemented_for("ldexp_cpu_exp", other.dtype)


def _vectors_outer(input, vec2):
    for name, t in (("self", input), ("vec2", vec2)):
        if isinstance(t, Tensor) and t.dim() != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t.dim()}-D")


def _vectors_vdot(input, other):
    if isinstance(input, Tensor) and isinstance(other, Tensor) and (
            input.dim() != 1 or other.dim() != 1):
        raise RuntimeError(f"1D tensors expected, but got {input.dim()}D and {other.dim()}D "
                           f"tensors")
    refuse_bool_product(input, "dot")


def _masked_select_mask(input, mask):
    if isinstance(mask, Tensor) and mask.dtype is not _dtypes.bool:
        raise RuntimeError("masked_select: expected BoolTensor for mask")


def _tensordot_bools(a, b, dims=2):
    """PyTorch's refusal of bool tensors, by the kernel its tensordot runs: dot where every
    dimension is contracted, else mm."""
    contracted = dims if isinstance(dims, int) else len(dims[0])
    full = isinstance(a, Tensor) and isinstance(b, Tensor) and contracted == a.dim() == b.dim()
    refuse_bool_product(a, "dot" if full else "addmm_impl_cpu_")


def _triangle_indices(indices, dtype, name):
    """tril_indices' and triu_indices' rows and columns, in `dtype` (int64 or int32)."""
    d = _dtypes.int64 if dtype is None else _dtypes.as_dtype(dtype)
    if d not in (_dtypes.int64, _dtypes.int32):
        raise _dtypes.not_implemented_for(name, d)
    return np.stack(indices).astype(d.numpy)


def _bincount(x, weights=None, minlength=0):
    """How often each value 0, 1, ... occurs in x (summing `weights`), with PyTorch's
    checks in its order."""
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if np.ndim(x) != 1 or (np.size(x) and np.min(x) < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is not None and np.shape(weights) != np.shape(x):
        raise RuntimeError("weights should be 1-d and have the same length as input")
    return np.bincount(x, weights, minlength)


def _histogram(x, bins=100, *, range=None, weight=None, density=False):  # noqa: A002
    if np.ndim(bins) == 0 and bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for "
                           f"dimension 0")
    hist, edges = np.histogram(x, bins, range, weights=weight, density=density)
    return hist.astype(x.dtype), np.asarray(edges).astype(x.dtype)


def _vander(x, N=None, increasing=False):
    """The columns x ** (N - 1), ..., x, 1 (or from 1 up), in x's dtype for floats and
    complex numbers, int64 for integers."""
    if fnp.ndim(x) != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    if N is not None and N < 0:
        raise RuntimeError("N must be non-negative.")
    dtype = fnp.result_type(x)
    return fnp.astype(fnp.vander(x, N, increasing), dtype if dtype.kind in "fc" else np.int64)


def _unravel_index(indices, shape):
    """The coordinates in `shape` of each flat index (taken modulo the length of the first
    dimension, as PyTorch takes them)."""
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    steps = np.cumprod((1,) + shape[:0:-1])[::-1]
    return tuple((np.floor_divide(indices, step) % length).astype(np.int64)
                 for step, length in zip(steps, shape))


def _integer_indices(indices, shape):
    if isinstance(indices, Tensor) and (indices.dtype.category >= _dtypes.FLOAT
                                        or indices.dtype is _dtypes.bool):
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")


def _gradient(input, *, spacing=1, dim=None, edge_order=1):
    """Central differences along each of `dims` (all by default) at `spacing` (one number,
    or one for each dimension), one-sided ones of `edge_order` at the edges."""
    dims = tuple(range(fnp.ndim(input))) if dim is None else (
        (dim,) if isinstance(dim, int) else tuple(dim))
    if dim is not None:  # (PyTorch's errors for a dim out of range or named twice)
        dims = existing_dims(input, dims)
        refuse_repeated(dims)
    steps = list(spacing) if isinstance(spacing, (list, tuple)) else [spacing]
    if len(steps) not in (1, len(dims)):
        raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar or "
                           f"it's spacing and dim arguments to have the same length, but got a "
                           f"spacing argument of length {len(steps)} and a dim argument of "
                           f"length {len(dims)}.")
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    if any(fnp.shape(input)[d] < edge_order + 1 for d in dims):
        raise RuntimeError("torch.gradient expected each dimension size to be at least "
                           "edge_order+1")
    out = fnp.gradient(input, *steps, axis=dims, edge_order=edge_order)
    return out if isinstance(out, tuple) else (out,)


ELEMENTWISE = [
    _float("tan", fnp.tan, saves_result=True), _float("asin", fnp.arcsin),
    _float("acos", fnp.arccos), _float("atan", fnp.arctan), _float("sinh", fnp.sinh),
    _float("cosh", fnp.cosh),
    _float("asinh", fnp.arcsinh), _float("acosh", fnp.arccosh), _float("atanh", fnp.arctanh),
    _float("arcsin", fnp.arcsin, "AsinBackward0"), _float("arccos", fnp.arccos, "AcosBackward0"),
    _float("arctan", fnp.arctan, "AtanBackward0"),
    _float("arcsinh", fnp.arcsinh, "AsinhBackward0"),
    _float("arccosh", fnp.arccosh, "AcoshBackward0"),
    _float("arctanh", fnp.arctanh, "AtanhBackward0"),
    _float("atan2", _fused.atan2_p), _float("arctan2", _fused.atan2_p, "Atan2Backward0"),
    _float("hypot", _fused.hypot_p, check=_no_kernel("hypot_cpu"), saves_inputs=True,
           saves_result=True), _float("exp2", fnp.exp2, saves_result=True),
    _float("expm1", fnp.expm1, saves_result=True),
    _float("log2", fnp.log2), _float("log10", fnp.log10),
    _float("log1p", fnp.log1p, "Log1PBackward0"),
    _float("rsqrt", _fused.rsqrt_p, saves_result=True),
    _float("logaddexp", _logaddexp, inplace=False, check=_no_kernel("logaddexp_cpu")),
    _float("logaddexp2", _fused.logaddexp2_p, inplace=False,
           check=_no_kernel("logaddexp2_cpu")),
    _float("erf", fsp.erf), _float("erfc", fsp.erfc), _float("erfinv", fsp.erfinv),
    _float("lgamma", _lgamma), _float("digamma", fsp.digamma), _float("i0", fsp.i0),
    _float("sinc", _sinc), _float("logit", _logit, saves_inputs=True),
    _float("xlogy", _xlogy, _XLOGY_LABELS),
    _float("deg2rad", fnp.deg2rad, "Deg2RadBackward0"),
    _float("rad2deg", fnp.rad2deg, "Rad2DegBackward0"),
    _float("copysign", _fused.copysign_p, Labels(
        lambda input, other: "CopysignBackward0" if isinstance(other, Tensor)
        else "CopysignBackward1", "CopysignBackward0", "CopysignBackward1")),
    Row("lerp", _fused.lerp, KEEP, _LERP_LABELS, inplace=True, elementwise=True),
    Row("float_power", _float_power, KEEP, Labels(
        lambda x, exponent: "PowBackward1" if isinstance(exponent, Tensor) else "PowBackward0",
        "PowBackward0", "PowBackward1"), inplace=True, elementwise=True),
    _same("sign", _sign, check=_real_sign), _same("sgn", _sign, saves_inputs=True),
    _same("floor", fnp.floor),
    _same("ceil", fnp.ceil), _same("round", _round, _ROUND_LABELS), _same("trunc", fnp.trunc),
    _same("fix", fnp.trunc, "TruncBackward0"), _same("frac", _frac, check=_no_kernel("frac_cpu")),
    _same("fmod", _fmod, Labels(lambda input, other: "FmodBackward1"
                                if isinstance(other, Tensor) else "FmodBackward0",
                                "FmodBackward0", "FmodBackward1"),
          saves_inputs={"FmodBackward1"}),
    _same("fmax", _nan_ignoring(np.greater_equal), inplace=False, saves_inputs=True),
    _same("fmin", _nan_ignoring(np.less_equal), inplace=False, saves_inputs=True),
    _same("nan_to_num", lambda x, nan=0.0, posinf=None, neginf=None:
          fnp.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf), saves_inputs=True),
    # (no derivative in PyTorch either)
    Row("heaviside", _heaviside, DATA, inplace=True, elementwise=True,
        check=_one_dtype(lambda a, b: "heaviside is not yet implemented for tensors with "
                                      "different dtypes.")),
    _same("nextafter", _nextafter, inplace=True, check=_no_kernel("nextafter_cpu")),
    Row("frexp", _frexp, KEEP, "FrexpBackward0", returns=_named("frexp", ("mantissa", "exponent")),
        check=_floats_only(lambda dtype: RuntimeError(
            "torch.frexp() only supports floating-point dtypes"))),
    Row("gcd", np.gcd, DATA, inplace=True, elementwise=True),
    Row("lcm", np.lcm, DATA, inplace=True, elementwise=True),
    _float("ldexp", lambda x, other: x * fnp.power(2.0, other), check=_ldexp_exponent),
    _same("addcmul", lambda x, t1, t2, *, value=1: _fused.addcmul(x, t1, t2, value)),
    _same("addcdiv", lambda x, t1, t2, *, value=1: _fused.addcdiv(x, t1, t2, value),
          check=_fused.check_addcdiv),
    Row("special.erf", fsp.erf, FLOAT, "ErfBackward0"),
    Row("special.erfc", fsp.erfc, FLOAT, "ErfcBackward0"),
    Row("special.erfinv", fsp.erfinv, FLOAT, "ErfinvBackward0"),
    Row("special.expit", _expit, FLOAT, "SigmoidBackward0"),
    Row("special.logit", _logit, FLOAT, "LogitBackward0"),
    Row("special.xlogy", _xlogy, FLOAT, "XlogyBackward0", elementwise=True),
    Row("special.xlog1py", fsp.xlog1py, FLOAT, "SpecialXlog1PyBackward0", elementwise=True),
    Row("special.entr", fsp.entr, FLOAT, "SpecialEntrBackward0"),
    Row("special.ndtr", fsp.ndtr, FLOAT, "MulBackward1"),  # PyTorch: 0.5 * erfc(...)
    Row("special.ndtri", fsp.ndtri, FLOAT, "SpecialNdtriBackward0", saves_result=True),
    Row("special.log_ndtr", fsp.log_ndtr, FLOAT, "SpecialLogNdtrBackward0"),
    Row("special.gammaln", _lgamma, FLOAT, "LgammaBackward0"),
    Row("special.digamma", fsp.digamma, FLOAT, "DigammaBackward0"),
    Row("special.psi", fsp.digamma, FLOAT, "DigammaBackward0"),
    Row("special.multigammaln", _multigammaln, FLOAT, "MvlgammaBackward0", saves_inputs=True),
    Row("special.zeta", lambda x, q: fsp.zeta(x, q), FLOAT, elementwise=True),
    Row("igamma", _igamma, FLOAT, inplace=True, check=_incomplete_gamma_input("igamma"),
        elementwise=True),
    Row("igammac", _igammac, FLOAT, inplace=True, check=_incomplete_gamma_input("igammac"),
        elementwise=True),
    Row("special.gammainc", _igamma, FLOAT, "IgammaBackward0",
        check=_incomplete_gamma_input("igamma"), elementwise=True),
    Row("special.gammaincc", _igammac, FLOAT, "IgammacBackward0",
        check=_incomplete_gamma_input("igammac"), elementwise=True),
    Row("special.bessel_j0", _bessel_j0, DATA),  # no derivative in PyTorch either
    Row("mvlgamma", _multigammaln, FLOAT, inplace=True, saves_inputs=True),
    Row("special.polygamma", lambda n, x: fsp.polygamma(n, x), FLOAT, "PolygammaBackward0"),
    Row("polygamma", lambda n, x: fsp.polygamma(n, x), FLOAT, method=False),
    Row("special.i0", fsp.i0, FLOAT, "I0Backward0"),
    Row("special.i0e", fsp.i0e, FLOAT, "SpecialI0EBackward0"),
    Row("special.i1", fsp.i1, FLOAT, "SpecialI1Backward0"),
    Row("special.i1e", fsp.i1e, FLOAT, "SpecialI1EBackward0"),
    Row("special.sinc", _sinc, FLOAT, "SincBackward0"),
    Row("special.expm1", fnp.expm1, FLOAT, "Expm1Backward0"),
    Row("special.exp2", fnp.exp2, FLOAT, "Exp2Backward0"),
    Row("special.log1p", fnp.log1p, FLOAT, "Log1PBackward0"),
    Row("special.round", _round, PROMOTE, "RoundBackward1"),
    Row("special.logsumexp", _logsumexp, FLOAT, "LogsumexpBackward0"),
]

COMPARISONS = [
    _test("isclose", lambda x, other, rtol=1e-05, atol=1e-08, equal_nan=False:
          np.isclose(x, other, rtol=rtol, atol=atol, equal_nan=equal_nan),
          check=_same_dtypes_to_compare, elementwise=True),
    _test("isfinite", np.isfinite), _test("isinf", np.isinf), _test("isposinf", np.isposinf),
    _test("isneginf", np.isneginf), _test("isreal", np.isreal), _test("signbit", np.signbit),
    _test("logical_and", np.logical_and, inplace=True, elementwise=True),
    _test("logical_or", np.logical_or, inplace=True, elementwise=True),
    _test("logical_xor", np.logical_xor, inplace=True, elementwise=True),
    _test("greater", np.greater, elementwise=True), _test("less", np.less, elementwise=True),
    _test("greater_equal", np.greater_equal, elementwise=True),
    _test("less_equal", np.less_equal, elementwise=True),
    _test("not_equal", np.not_equal, elementwise=True),
    _test("isin", lambda elements, test_elements, *, assume_unique=False, invert=False:
          np.isin(elements, test_elements, invert=invert), method=False),
    _test("count_nonzero", _count_nonzero),
    _test("nonzero", _nonzero), _test("nonzero_static", _nonzero_static),
    _test("argwhere", lambda x: np.argwhere(x).astype(np.int64)),
    _test("argsort", _order_statistics.argsort, keeps_layout=True),
    _test("searchsorted", _searchsorted, method=False),
    _test("bucketize", _bucketize, method=False),
    _test("unique", lambda x, sorted=True, return_inverse=False, return_counts=False, dim=None:
          _unique(x, return_inverse, return_counts, dim),
          no_derivative=lambda x, *args, dim=None, **kwargs:
          _UNIQUE2 if dim is None else _UNIQUE_DIM),
    _test("unique_consecutive", lambda x, return_inverse=False, return_counts=False, dim=None:
          _unique_consecutive(x, return_inverse, return_counts, dim),
          no_derivative=lambda *args, **kwargs: _UNIQUE_CONSECUTIVE),
    _test("bincount", _bincount),
    _test("histogram", _histogram, returns=_named("histogram", ("hist", "bin_edges")),
          check=_no_kernel("histogramdd", half=True)),
    _test("histc", lambda x, bins=100, min=0, max=0: np.histogram(
        x, bins, None if min == max == 0 else (min, max))[0].astype(x.dtype),
        check=_no_kernel("histogram_cpu")),
]


# unique's values require grad where the input does, through a node that refuses backward.
_UNIQUE2 = without_derivative("_unique2", "Unique2Backward0")
_UNIQUE_DIM = without_derivative("unique_dim", "UniqueDimBackward0")
_UNIQUE_CONSECUTIVE = without_derivative("unique_consecutive", "UniqueConsecutiveBackward0")


def _unique(x, return_inverse, return_counts, dim):
    """The distinct elements (slices along `dim`), sorted; with where each element (slice)
    went and how often each occurs. Each NaN is distinct, as in PyTorch (NumPy merges them
    where no axis is given)."""
    axis = None if dim is None else _unique_axis(x, dim)
    found = np.unique(x, return_inverse=return_inverse, return_counts=return_counts,
                      axis=axis, equal_nan=False)
    if isinstance(found, tuple):
        inverse_shape = np.shape(x) if axis is None else -1
        return tuple(part if i == 0 else part.astype(np.int64).reshape(
            inverse_shape if i == 1 and return_inverse else -1) for i, part in enumerate(found))
    return found


def _unique_axis(x, dim):
    """The axis of `dim` for unique and unique_consecutive, with PyTorch's refusals: of a 0-d
    `x`, and of an empty `x` unless its one axis of length 0 is the axis."""
    if np.ndim(x) == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    axis = checked_dims(x, dim)
    shape = np.shape(x)
    if 0 in shape and shape[axis]:
        raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique "
                           "cannot be applied")
    if shape.count(0) > 1:
        raise RuntimeError("Number of zero sized dimensions is more than one, so unique "
                           "cannot be applied ")
    return axis


def _unique_consecutive(x, return_inverse, return_counts, dim):
    """The first of each run of equal elements (of equal slices along `dim`), each NaN a run
    of its own; with the run each element belongs to, and the runs' lengths."""
    if dim is None:
        runs_of = np.reshape(x, (-1, 1))
    else:
        axis = _unique_axis(x, dim)
        shape = np.shape(x)
        runs_of = np.moveaxis(x, axis, 0).reshape(shape[axis], math.prod(
            shape[:axis] + shape[axis + 1:]))
    starts = np.ones(len(runs_of), np.bool_)
    starts[1:] = np.any(runs_of[1:] != runs_of[:-1], axis=1)
    values = runs_of[starts, 0] if dim is None else np.compress(starts, x, axis=axis)
    if not (return_inverse or return_counts):
        return values
    found = [values]
    if return_inverse:
        inverse = np.cumsum(starts, dtype=np.int64) - 1
        found.append(inverse.reshape(np.shape(x)) if dim is None else inverse)
    if return_counts:
        found.append(np.diff(np.append(np.flatnonzero(starts), len(runs_of))).astype(np.int64))
    return tuple(found)


REDUCTIONS = [
    Row("logsumexp", _logsumexp, FLOAT, saves_inputs=True, saves_result=True),
    Row("nansum", _nansum, KEEP, saves_inputs=True),
    Row("nanmean", lambda x, dim=None, keepdim=False, *, dtype=None:  # PyTorch: sum / count
        fnp.nanmean(_in_dtype(x, dtype), axis=dims_as_axes(x, dim), keepdims=keepdim), KEEP,
        "DivBackward0"),
    Row("median", _order_statistics.median, KEEP, _by_dim("MedianBackward"),
        returns=_named("median"), contiguous=True, saves_inputs={"MedianBackward0"},
        saves_result={"MedianBackward0"}),
    Row("nanmedian", _order_statistics.nanmedian, KEEP, _by_dim("NanmedianBackward"),
        returns=_named("nanmedian")),
    Row("mode", _order_statistics.mode, KEEP, returns=_named("mode")),
    Row("cumprod", lambda x, dim, *, dtype=None:
        _scans.scanned(fnp.cumprod, x, one_dim(x, dim, "cumprod"), dtype), KEEP,
        inplace=True, saves_inputs=True, saves_result=True, contiguous=True),
    Row("logcumsumexp", _logcumsumexp, FLOAT, check=_no_kernel("logcumsumexp_out_cpu"),
        contiguous=True, saves_inputs=True, saves_result=True),
    Row("cummax", _order_statistics.cummax, KEEP, returns=_named("cummax"), saves_inputs=True),
    Row("cummin", _order_statistics.cummin, KEEP, returns=_named("cummin"), saves_inputs=True),
    Row("sort", lambda x, dim=-1, descending=False, stable=None:
        _order_statistics.sort(x, dim, descending), KEEP, _SORT_LABELS, returns=_named("sort"),
        keeps_layout=True),
    Row("msort", lambda x: _order_statistics.sort(x, 0)[0], KEEP, "SortBackward0",
        keeps_layout=True),
    Row("topk", _order_statistics.topk, KEEP, returns=_named("topk"), contiguous=True),
    Row("kthvalue", _order_statistics.kthvalue, KEEP, returns=_named("kthvalue"),
        contiguous=True),
    Row("aminmax", _aminmax, KEEP, returns=_named("aminmax", ("min", "max")), saves_inputs=True),
    Row("std_mean", lambda x, dim=None, *, correction=1, keepdim=False:
        _var_mean(x, dim, correction=correction, keepdim=keepdim, which=fnp.std), KEEP,
        "StdMeanBackward0", method=False, check=_floats_only(lambda dtype: RuntimeError(
            "std_mean only support floating point and complex dtypes")), saves_inputs=True),
    Row("var_mean", lambda x, dim=None, *, correction=1, keepdim=False:
        _var_mean(x, dim, correction=correction, keepdim=keepdim), KEEP,
        "VarMeanBackward0", method=False, check=_floats_only(lambda dtype: RuntimeError(
            "var_mean only support floating point and complex dtypes")), saves_inputs=True),
    Row("quantile", _quantile, KEEP, "SqueezeBackward4", check=_quantile_floats),
    Row("nanquantile", lambda x, q, dim=None, keepdim=False, *, interpolation="linear":
        _quantile(x, q, dim, keepdim, interpolation=interpolation, which=fnp.nanquantile), KEEP,
        "SqueezeBackward4", check=_quantile_floats),
    Row("renorm", _renorm, KEEP, inplace=True, saves_inputs=True),
    Row("diff", _diff, KEEP, "SubBackward0"),
    Row("trapezoid", lambda y, x=None, *, dx=None, dim=-1:
        fnp.trapezoid(y, x, dx=1.0 if dx is None else dx, axis=existing_dims(y, dim)), FLOAT,
        _spacing_labels("MulBackward1"), method=False),
    Row("trapz", lambda y, x=None, *, dx=None, dim=-1:
        fnp.trapezoid(y, x, dx=1.0 if dx is None else dx, axis=existing_dims(y, dim)), FLOAT,
        _spacing_labels("MulBackward1"), method=False),
    Row("cumulative_trapezoid", _cumulative_trapezoid, FLOAT,
        _spacing_labels("CumsumBackward0"), method=False, contiguous=True),
    Row("dist", _dist, PROMOTE, check=_floats_only(lambda dtype: RuntimeError(
        f"norm(): input dtype should be either floating point or complex. Got "
        f"{dtype.scalar_name} instead.")), saves_inputs=True),
    Row("cov", _cov, FLOAT, "SqueezeBackward0"),
    Row("corrcoef", lambda x: fnp.clip(_in_dtype_of(x, fnp.corrcoef(x)), -1, 1), FLOAT,
        "ClampBackward1"),
    Row("cosine_similarity", _cosine_similarity, FLOAT, "SumBackward1", method=False,
        check=_floats_only(lambda dtype: RuntimeError(
            f"expected common dtype to be floating point, yet common dtype is "
            f"{dtype.scalar_name}"))),
]

INDEXING = [
    Row("gather", _gathering.gather, KEEP, indices=("index",), saves_inputs=True),
    Row("take_along_dim", _gathering.take_along_dim, KEEP, "GatherBackward0",
        indices=("indices",), saves_inputs=True),
    Row("take", _gathering.take, KEEP, indices=("index",), saves_inputs=True),
    Row("index_select", _gathering.index_select, KEEP, indices=("index",), contiguous=True),
    Row("masked_select", lambda x, mask: fnp.getitem(
        fnp.broadcast_to(x, np.broadcast_shapes(fnp.shape(x), np.shape(mask))),
        np.broadcast_to(mask, np.broadcast_shapes(fnp.shape(x), np.shape(mask)))), KEEP,
        indices=("mask",), saves_inputs=True,
        check=_masked_select_mask),
    Row("scatter_add", _gathering.scatter_add, KEEP, inplace=True, indices=("index",)),
    Row("scatter", _gathering.scatter, KEEP, Labels(
        lambda x, dim, index, src=None, *, value=None, reduce=None:
        "ScatterBackward0" if isinstance(src, Tensor) else "ScatterBackward1",
        "ScatterBackward0", "ScatterBackward1"), inplace=True, indices=("index",)),
    Row("scatter_reduce", _gathering.scatter_reduce, KEEP, inplace=True, indices=("index",)),
    Row("masked_scatter", _gathering.masked_scatter, KEEP, inplace=True, indices=("mask",)),
    Row("index_add", _gathering.index_add, KEEP, inplace=True, indices=("index",)),
    Row("index_copy", _gathering.index_copy, KEEP, inplace=True, indices=("index",),
        check=_tensor_arguments("index_copy", index=2, source=3)),
    Row("index_reduce", _gathering.index_reduce, KEEP, inplace=True, indices=("index",),
        saves_inputs=True, check=_index_reduce_arguments),
    Row("index_put", _indexing.index_put, KEEP, inplace=dict(
        overlap=False, written=_indexing.index_put_written,
        expanded=("index_put_", "tensor[indices] = tensor")), indices=("indices",),
        check=_index_put_arguments),
    Row("put", _gathering.put, KEEP, inplace=True, indices=("index",),
        check=_tensor_arguments("put", index=1, source=2)),
    Row("index_fill", _gathering.index_fill, KEEP, Labels(
        lambda x, dim, index, value: "IndexFillBackward1" if isinstance(value, Tensor)
        else "IndexFillBackward0", "IndexFillBackward0", "IndexFillBackward1"), inplace=dict(
        overlap=False, written=_gathering.index_fill_written,
        expanded=("index_fill_", "tensor[mask] = scalar")), indices=("index",)),
    Row("narrow", _gathering.narrow, KEEP, "SliceBackward0", view=True),
    Row("narrow_copy", _narrow_copy, KEEP, "NarrowCopyBackward0"),
    Row("unfold", _windows_along, KEEP, "UnfoldBackward0", function=False, view=True),
    Row("select", _gathering.select, KEEP, "SelectBackward0", view=True),
    Row("slice_scatter", _view_scatters.slice_scatter, KEEP, keeps_layout=True),
    Row("select_scatter", _view_scatters.select_scatter, KEEP, keeps_layout=True),
    Row("diagonal_scatter", _view_scatters.diagonal_scatter, KEEP, keeps_layout=True),
]

SHAPES = [
    Row("flip", _flip, KEEP),
    Row("fliplr", fnp.fliplr, KEEP, "FlipBackward0"),
    Row("flipud", fnp.flipud, KEEP, "FlipBackward0"),
    Row("roll", _roll, KEEP, contiguous=True),
    Row("rot90", _rot90, KEEP),
    Row("tril", lambda x, diagonal=0: fnp.tril(_matrices(x, "tril"), diagonal), KEEP,
        inplace=True),
    Row("triu", lambda x, diagonal=0: fnp.triu(_matrices(x, "triu"), diagonal), KEEP,
        inplace=True),
    Row("diag", _diag, KEEP, Labels(
        lambda x, diagonal=0: "DiagEmbedBackward0" if x.dim() == 1 else "DiagonalBackward0_copy",
        "DiagEmbedBackward0", "DiagonalBackward0_copy")),
    Row("diagonal", _view_scatters.diagonal, KEEP, "DiagonalBackward0", view=True),
    Row("diag_embed", _diag_embed, KEEP),
    Row("diagflat", lambda x, offset=0: fnp.diagflat(x, offset), KEEP, "DiagEmbedBackward0"),
    Row("trace", _trace, KEEP),
    Row("repeat", _repeat, KEEP, function=False),
    Row("tile", lambda x, dims: fnp.tile(x, tuple(dims)), KEEP, "RepeatBackward0"),
    Row("repeat_interleave", _repeat_interleave, KEEP, Labels(
        lambda x, repeats=None, dim=None, *, output_size=None: "ViewBackward0"
        if isinstance(repeats, int) else "IndexSelectBackward0",
        "ViewBackward0", "IndexSelectBackward0"), indices=("repeats",)),
    Row("movedim", _movedim, KEEP, "PermuteBackward0", view=True),
    Row("moveaxis", _movedim, KEEP, "PermuteBackward0", view=True),
    Row("swapaxes", lambda x, axis0, axis1: fnp.swapaxes(x, axis0, axis1), KEEP,
        "TransposeBackward0", view=True),
    Row("swapdims", lambda x, dim0, dim1: fnp.swapaxes(x, dim0, dim1), KEEP,
        "TransposeBackward0", view=True),
    Row("unflatten", _unflatten, KEEP, "ViewBackward0", view=True),
    Row("ravel", lambda x: fnp.reshape(x, (-1,)), KEEP, "ViewBackward0", view=True),
    Row("broadcast_to", lambda x, size: fnp.broadcast_to(x, tuple(size)), KEEP,
        "ExpandBackward0", view=True),
    Row("broadcast_tensors", _broadcast_tensors, KEEP, "ExpandBackward0", method=False,
        passes_input=True, view=True),
    Row("meshgrid", _meshgrid, KEEP, "ExpandBackward0", method=False, view=True,
        check=_meshgrid_input),
    Row("cartesian_prod", _cartesian_prod, KEEP, "StackBackward0", method=False,
        passes_input=True),
    Row("combinations", _combinations, KEEP, "StackBackward0", method=False, saves_inputs=True),
    Row("atleast_1d", _at_least(fnp.atleast_1d), KEEP, "ViewBackward0", method=False, view=True,
        passes_input=True),
    Row("atleast_2d", _at_least(fnp.atleast_2d), KEEP, _AT_LEAST_LABELS, method=False,
        view=True, passes_input=True),
    Row("atleast_3d", _at_least(fnp.atleast_3d), KEEP, _AT_LEAST_LABELS, method=False,
        view=True, passes_input=True),
    Row("hstack", lambda tensors: fnp.hstack(tensors), PROMOTE, "CatBackward0", method=False,
        check=_sequence_of_tensors("hstack")),
    Row("vstack", lambda tensors: fnp.vstack(tensors), PROMOTE, "CatBackward0", method=False,
        check=_sequence_of_tensors("vstack")),
    Row("row_stack", lambda tensors: fnp.vstack(tensors), PROMOTE, "CatBackward0", method=False,
        check=_sequence_of_tensors("row_stack")),
    Row("dstack", lambda tensors: fnp.dstack(tensors), PROMOTE, "CatBackward0", method=False,
        check=_sequence_of_tensors("dstack")),
    Row("column_stack", lambda tensors: fnp.column_stack(tensors), PROMOTE, "CatBackward0",
        method=False, check=_sequence_of_tensors("column_stack")),
    Row("block_diag", lambda *tensors: _block_diag(tensors), PROMOTE, "BlockDiagBackward0",
        method=False),
    Row("vander", _vander, KEEP, Labels(
        lambda x, N=None, increasing=False: "CopySlices" if increasing else "FlipBackward0",
        "FlipBackward0", "CopySlices"), method=False),
    Row("unravel_index", _unravel_index, DATA, method=False, check=_integer_indices),
    Row("gradient", _gradient, FLOAT, "CatBackward0", method=False),
    Row("tril_indices", lambda row, col, offset=0, *, dtype=None:
        _triangle_indices(np.tril_indices(row, offset, col), dtype, "tril_indices"), DATA,
        method=False),
    Row("triu_indices", lambda row, col, offset=0, *, dtype=None:
        _triangle_indices(np.triu_indices(row, offset, col), dtype, "triu_indices"), DATA,
        method=False),
]


def _block_diag(tensors):
    matrices = [fnp.atleast_2d(t) if fnp.ndim(t) < 2 else t for t in tensors]
    rows = sum(fnp.shape(m)[0] for m in matrices)
    cols = sum(fnp.shape(m)[1] for m in matrices)
    dtype = np.result_type(*[unbox_all(m).dtype for m in matrices])
    out = fnp.zeros((rows, cols), dtype=dtype)
    r = c = 0
    for m in matrices:
        h, w = fnp.shape(m)
        out = fnp.at(out)[r:r + h, c:c + w].set(m)
        r, c = r + h, c + w
    return out


# Checks shared by two rows each: not a (batch of) square matrices first, as PyTorch.
_DET_INPUT = _square_first("linalg.det", _linalg_input("linalg.det", _missing_kernel("lu_cpu")))
_SLOGDET_INPUT = _square_first("linalg.slogdet", _linalg_input(
    "linalg.slogdet", _low_precision("linalg.slogdet")))
_INV_INPUT = _square_first("linalg.inv", _linalg_input("linalg.inv", _low_precision("linalg.inv")))
_EIGH_INPUT = _square_first("linalg.eigh", _no_kernel("linalg_eigh_cpu", half=True))

PRODUCTS = [
    Row("einsum", _einsum, PROMOTE, method=False, check=_einsum_arguments),
    Row("outer", fnp.outer, PROMOTE, "MulBackward0", check=_vectors_outer),
    Row("ger", fnp.outer, PROMOTE, "MulBackward0", check=_vectors_outer),
    Row("inner", fnp.inner, PROMOTE, _INNER_LABELS), Row("kron", fnp.kron, PROMOTE),
    Row("tensordot", _tensordot, PROMOTE, method=False, check=_tensordot_bools),
    Row("cross", _cross, PROMOTE, "LinalgCrossBackward0"),
    Row("vdot", fnp.vdot, PROMOTE, check=_vectors_vdot),
    Row("addmm", _scaled_products.addmm, PROMOTE, inplace=True, check=_product_dtypes),
    Row("addmv", _scaled_products.addmv, PROMOTE, inplace=True, check=_addmv_dtypes),
    Row("addr", _scaled_products.addr, PROMOTE, inplace=True),
    Row("baddbmm", _scaled_products.baddbmm, PROMOTE, inplace=True, check=_baddbmm_dtypes),
    Row("addbmm", _scaled_products.addbmm, PROMOTE, inplace=True, check=_product_dtypes),
    Row("cdist", _cdist, PROMOTE, "CdistBackward0", method=False, check=_cdist_floats,
        saves_inputs=True, saves_result=True),
    Row("chain_matmul", _chain_matmul, PROMOTE, Labels(
        lambda *matrices: "CloneBackward0" if len(matrices) == 1 else "MmBackward0",
        "CloneBackward0", "MmBackward0"), method=False, check=_chain_matmul_arguments),
    Row("matrix_power", _matrix_power, KEEP, _MATRIX_POWER_LABELS,
        check=lambda A, n: refuse_bool_product(A, "addmm_impl_cpu_") if n > 1 else None),
    Row("det", fla.det, FLOAT, "LinalgDetBackward0", saves_result=True,
        check=_DET_INPUT),
    Row("logdet", _logdet, FLOAT, Labels(  # PyTorch: log(sign) + logabsdet, if complex
        lambda A: "AddBackward0" if A.dtype.is_complex else "LogdetBackward0",
        "LogdetBackward0", "AddBackward0"),
        check=_square_first("logdet", _linalg_input("logdet", _low_precision("logdet")))),
    Row("slogdet", _slogdet, FLOAT, "LinalgSlogdetBackward0",
        returns=_named("slogdet", ("sign", "logabsdet")), check=_SLOGDET_INPUT),
    Row("inverse", _linalg_ex.inverse("linalg.inv"), FLOAT, "LinalgInvExBackward0",
        saves_result=True, lapack_layout=True, check=_INV_INPUT),
    Row("pinverse", lambda x, rcond=1e-15: fla.pinv(x, rcond), FLOAT, "LinalgPinvBackward0",
        check=_pinv_floats),
]

LINALG = [
    # (KEEP: their checks refuse integers, and a dtype= may widen the result)
    Row("linalg.norm", _linalg_norm, KEEP, "LinalgVectorNormBackward0", saves_result=True,
        check=_both(_expects_floats("linalg.vector_norm"), _norm_dtype("linalg.vector_norm"))),
    Row("linalg.vector_norm", _vector_norm, KEEP, check=_both(
        _expects_floats("linalg.vector_norm"), _norm_dtype("linalg.vector_norm"))),
    Row("linalg.matrix_norm", _matrix_norm, KEEP, "LinalgVectorNormBackward0",
        check=_both(_matrix_norm_input, _norm_dtype("linalg.matrix_norm"))),
    Row("nuclear_norm", _nuclear_norm, FLOAT, _NUCLEAR_NORM_LABELS, method=False,
        check=_nuclear_norm_input),
    Row("frobenius_norm", lambda input, dim, keepdim=False: _vector_norm(input, 2, dim, keepdim),
        FLOAT, "NormBackward1", method=False, check=_frobenius_norm_input),
    Row("linalg.inv", _linalg_ex.inverse("linalg.inv"), FLOAT, "LinalgInvExBackward0",
        saves_result=True, lapack_layout=True, check=_INV_INPUT),
    Row("linalg.inv_ex", _linalg_ex.inv_ex, FLOAT,
        "LinalgInvExBackward0", saves_result=True, lapack_layout=(0,),
        returns=_named("linalg_inv_ex", ("inverse", "info")),
        check=_square_first("linalg.inv", _linalg_input("linalg.inv_ex",
                                                        _low_precision("linalg.inv_ex")))),
    Row("linalg.solve", _linalg_ex.solve(_solve), FLOAT, "LinalgSolveExBackward0",
        saves_result=True, lapack_layout=True,
        check=_linalg_input("linalg.solve", _missing_kernel("lu_cpu"), square=True)),
    Row("linalg.solve_ex",
        lambda A, B, *, left=True, check_errors=False: _linalg_ex.solve_ex(
            A, B, left=left, check_errors=check_errors, compute=_solve),
        FLOAT, "LinalgSolveExBackward0", saves_result=True, lapack_layout=(0,),
        returns=_named("linalg_solve_ex", ("result", "info")),
        check=_linalg_input("linalg.solve", _missing_kernel("lu_cpu"), square=True)),
    Row("linalg.det", fla.det, FLOAT, saves_result=True, check=_DET_INPUT),
    Row("linalg.slogdet", _slogdet, FLOAT,
        returns=_named("linalg_slogdet", ("sign", "logabsdet")), check=_SLOGDET_INPUT),
    Row("linalg.eigh", _eigh, FLOAT,
        returns=_named("linalg_eigh", ("eigenvalues", "eigenvectors")), saves_result=True,
        lapack_layout=(1,), check=_EIGH_INPUT),
    Row("linalg.eig", _square(lambda A: tuple(fla.eig(A)), "linalg.eig"), PROMOTE,
        "LinalgEigBackward0", returns=_named("linalg_eig", ("eigenvalues", "eigenvectors")),
        lapack_layout=(1,)),
    Row("linalg.eigvals", _square(fla.eigvals, "linalg.eigvals"),
        PROMOTE, "LinalgEigBackward0"),
    Row("linalg.solve_triangular", _square(_solve_triangular, "linalg.solve_triangular"),
        FLOAT),
    Row("linalg.eigvalsh", _eigvalsh, FLOAT, "LinalgEighBackward0", check=_EIGH_INPUT),
    Row("linalg.svd", _svd, FLOAT, returns=_named("linalg_svd", ("U", "S", "Vh")),
        saves_result=True, lapack_layout=(0, 2),
        check=_linalg_input("linalg.svd", _missing_kernel("linalg_svd_cpu"))),
    Row("linalg.svdvals", lambda A, *, driver=None: fla.svdvals(A), FLOAT,
        "LinalgSvdBackward0",
        check=_linalg_input("linalg.svd", _missing_kernel("linalg_svd_cpu"))),
    Row("linalg.qr", _qr, FLOAT, returns=_named("linalg_qr", ("Q", "R")), saves_result=True,
        lapack_layout=True, check=_linalg_input("linalg.qr", _missing_kernel("geqrf_cpu"))),
    Row("linalg.cholesky", _legacy_linalg.positive_definite("linalg.cholesky", _cholesky),
        FLOAT, "LinalgCholeskyExBackward0", saves_result=True, lapack_layout=True,
        check=_square_first("linalg.cholesky", _linalg_input(
            "linalg.cholesky", _missing_kernel("cholesky_cpu")))),
    Row("linalg.cholesky_ex",
        lambda A, *, upper=False, check_errors=False: _linalg_ex.cholesky_ex(
            A, upper=upper, check_errors=check_errors, factor=_cholesky),
        FLOAT, "LinalgCholeskyExBackward0", saves_result=True, lapack_layout=(0,),
        returns=_named("linalg_cholesky_ex", ("L", "info")),
        check=_square_first("linalg.cholesky", _linalg_input(
            "linalg.cholesky_ex", _missing_kernel("cholesky_cpu")))),
    Row("linalg.tensorinv", _linalg_ex.tensorinv, FLOAT, "ReshapeAliasBackward0",
        check=_both(lambda A, ind=2: _linalg_ex.tensorinv_shape(A._data, ind),
                    _linalg_input("linalg.inv", _low_precision("linalg.inv")))),
    Row("linalg.vander", _linalg_ex.vander, KEEP, "CatBackward0"),
    Row("linalg.tensorsolve", _linalg_ex.tensorsolve, FLOAT, "ViewBackward0",
        check=_linalg_input("linalg.solve", _missing_kernel("lu_cpu"))),
    Row("linalg.lu_solve", _linalg_ex.lu_solve, FLOAT, "LinalgLuSolveBackward0",
        indices=("pivots",), check=_legacy_linalg.pivots_check("linalg.lu_solve", 1)),
    Row("linalg.lstsq", _lstsq, FLOAT, "LinalgLstsqBackward0", lapack_layout=(0,),
        returns=_named("linalg_lstsq", ("solution", "residuals", "rank",
                                        "singular_values")), check=_FLOAT_OR_DOUBLE),
    Row("linalg.pinv", _pinv, FLOAT, check=_pinv_floats),
    Row("linalg.matrix_power", _matrix_power, KEEP, _MATRIX_POWER_LABELS),
    Row("linalg.matrix_rank", _matrix_rank, DATA, check=_FLOAT_OR_DOUBLE),
    Row("linalg.cond", lambda A, p=None: fla.cond(A, p), FLOAT, "LinalgVectorNormBackward0",
        check=_linalg_input("linalg.svd", _missing_kernel("linalg_svd_cpu"))),
    Row("linalg.multi_dot", lambda tensors: fla.multi_dot(list(tensors)), PROMOTE,
        "MmBackward0", check=_sequence_of_tensors("linalg_multi_dot")),
    Row("linalg.cross", lambda x, other, *, dim=-1:
        fnp.cross(x, other, axis=existing_dims(x, dim)), PROMOTE),
    Row("linalg.vecdot", lambda x, y, *, dim=-1: fnp.sum(fnp.conj(x) * y, axis=dim), PROMOTE,
        "SumBackward1", check=_expects_floats("linalg.vecdot")),
    Row("linalg.diagonal", lambda A, *, offset=0, dim1=-2, dim2=-1:
        _view_scatters.diagonal(A, offset, dim1, dim2), KEEP, "DiagonalBackward0", view=True),
]

# torch's older names for factorisations and solves (torch.cholesky, lu_solve, ...).
_LEGACY_CHOLESKY = _legacy_linalg.positive_definite("cholesky", _legacy_cholesky)
_HOUSEHOLDER_INPUT = _both(  # (its shapes' errors before its dtype's, as PyTorch)
    lambda input, tau: _householder.check_shapes(input._data, tau._data,
                                                 "torch.linalg.householder_product"),
    _no_kernel("linalg_householder_product_cpu", half=True))
_MATRIX_EXP_INPUT = _square_first("linalg.matrix_exp", _expects_floats("linalg.matrix_exp"))
LEGACY_LINALG = [
    Row("cholesky", lambda input, upper=False: _LEGACY_CHOLESKY(input, upper), FLOAT,
        "CholeskyBackward0", lapack_layout=True,
        check=_legacy_linalg.deprecated("cholesky", _square_first(
            "cholesky", _no_kernel("cholesky_cpu", half=True)))),
    Row("cholesky_solve", _legacy_linalg.cholesky_solve, FLOAT, "CholeskySolveBackward0",
        lapack_layout=True,
        check=_square_first("", _no_kernel("cholesky_solve_cpu", half=True), position=1,
                            keyword="input2")),
    Row("cholesky_inverse", _legacy_linalg.cholesky_inverse, FLOAT,
        "CholeskyInverseBackward0", lapack_layout=True,
        check=_square_first("cholesky_inverse", _no_kernel("cholesky_inverse_cpu", half=True))),
    Row("qr", lambda input, some=True: _qr(input, "reduced" if some else "complete"), FLOAT,
        "LinalgQrBackward0", returns=_named("qr", ("Q", "R")), lapack_layout=True,
        check=_legacy_linalg.deprecated("qr", _linalg_input("linalg.qr",
                                                            _missing_kernel("geqrf_cpu")))),
    Row("triangular_solve", _legacy_linalg.triangular_solve, FLOAT,
        "TriangularSolveBackward0", lapack_layout=True,
        returns=_named("triangular_solve", ("solution", "cloned_coefficient")),
        check=_legacy_linalg.deprecated("triangular_solve", _square_first(
            "", _no_kernel("triangular_solve_cpu", half=True), position=1, keyword="A"))),
    Row("matrix_exp", lambda input: fsl.expm(input), FLOAT,
        "LinalgMatrixExpBackward0", check=_MATRIX_EXP_INPUT),
    Row("linalg.matrix_exp", fsl.expm, FLOAT,
        "LinalgMatrixExpBackward0", check=_MATRIX_EXP_INPUT),
    Row("linalg.lu", _legacy_linalg.lu, FLOAT, "LinalgLuBackward0",
        returns=_named("linalg_lu", ("P", "L", "U")), check=_lu_input),
    Row("linalg.lu_factor", _legacy_linalg.lu_factor, FLOAT, "LinalgLuFactorExBackward0",
        lapack_layout=(0,), returns=_named("linalg_lu_factor", ("LU", "pivots")),
        check=_no_kernel("lu_cpu", half=True)),
    Row("linalg.lu_factor_ex", _linalg_ex.lu_factor_ex, FLOAT, "LinalgLuFactorExBackward0",
        lapack_layout=(0,), returns=_named("linalg_lu_factor_ex", ("LU", "pivots", "info")),
        check=_no_kernel("lu_cpu", half=True)),
    Row("_lu_with_info", _legacy_linalg.lu_with_info, FLOAT, "LinalgLuFactorExBackward0",
        method=False, returns=_named("_lu_with_info", ("LU", "pivots", "info")),
        lapack_layout=(0,),
        check=_legacy_linalg.deprecated("_lu_with_info", _no_kernel("lu_cpu", half=True))),
    Row("lu_solve", _legacy_linalg.lu_solve, FLOAT, "LinalgLuSolveBackward0",
        indices=("LU_pivots",), check=_legacy_linalg.deprecated(
            "lu_solve", _legacy_linalg.pivots_check("linalg.lu_solve", 2))),
    Row("linalg.householder_product", _householder.householder_product, FLOAT,
        "LinalgHouseholderProductBackward0", lapack_layout=True, check=_HOUSEHOLDER_INPUT),
    Row("orgqr", _householder.householder_product, FLOAT,
        "LinalgHouseholderProductBackward0", lapack_layout=True, check=_HOUSEHOLDER_INPUT),
    Row("ormqr", _householder.ormqr, FLOAT, "OrmqrBackward0", lapack_layout=True,
        check=_no_kernel("ormqr_cpu", half=True)),
    Row("lu_unpack", _legacy_linalg.lu_unpack, KEEP, "LuUnpackBackward0", method=False,
        returns=_named("lu_unpack", ("P", "L", "U")), indices=("LU_pivots",),
        check=_legacy_linalg.pivots_check("lu_unpack", 1)),
]

COMPLEX = [
    # (PyTorch's node: a select of view_as_real's, whose node is not made here)
    Row("real", _real, KEEP, "SelectBackward0", method=False, view=True, passes_input=True),
    Row("imag", fnp.imag, KEEP, "SelectBackward0", method=False, view=True,
        check=_complex_build.check_imag),
    Row("angle", _angle, FLOAT, saves_inputs=True),
    Row("view_as_real", lambda x: fnp.stack([fnp.real(x), fnp.imag(x)], axis=-1), KEEP,
        "ViewAsRealBackward0", method=False, check=_complex_build.check_view_as_real),
    # complex tensors from real ones (copies: compat's view_as_complex is not a view)
    # (PyTorch's node saves both parts, though its gradient reads neither)
    Row("complex", _complex_build.complex_from_parts, KEEP, "ComplexBackward0", method=False,
        check=_complex_build.check_parts, saves_inputs=True, elementwise=True),
    Row("polar", _complex_build.polar, KEEP, "PolarBackward0", method=False,
        check=_complex_build.check_polar, saves_result=True, elementwise=True),
    Row("view_as_complex", _complex_build.view_as_complex, KEEP, "ViewAsComplexBackward0",
        method=False, check=_complex_build.check_view_as_complex),
]

FFT = [
    Row("fft.fft", _fft(fnp.fft.fft), FLOAT, _fft_labels("FftR2CBackward0")),
    Row("fft.ifft", _fft(fnp.fft.ifft), FLOAT, _fft_labels("ConjBackward0")),
    Row("fft.rfft", _fft(fnp.fft.rfft), FLOAT, "FftR2CBackward0"),
    Row("fft.irfft", _fft(fnp.fft.irfft), FLOAT, "FftC2RBackward0"),
    Row("fft.hfft", _fft(fnp.fft.hfft), FLOAT, "FftC2RBackward0"),
    Row("fft.ihfft", _fft(fnp.fft.ihfft), FLOAT, "ConjBackward0"),
    Row("fft.fft2", _fft2(fnp.fft.fft2), FLOAT, "FftC2CBackward0"),
    Row("fft.ifft2", _fft2(fnp.fft.ifft2), FLOAT, "FftC2CBackward0"),
    Row("fft.rfft2", _fft2(fnp.fft.rfft2), FLOAT, "FftR2CBackward0"),
    Row("fft.irfft2", _fft2(fnp.fft.irfft2), FLOAT, "FftC2RBackward0"),
    Row("fft.fftn", _fftn(fnp.fft.fftn), FLOAT, "FftC2CBackward0"),
    Row("fft.ifftn", _fftn(fnp.fft.ifftn), FLOAT, "FftC2CBackward0"),
    Row("fft.rfftn", _fftn(fnp.fft.rfftn), FLOAT, "FftR2CBackward0"),
    Row("fft.irfftn", _fftn(fnp.fft.irfftn), FLOAT, "FftC2RBackward0"),
    Row("stft", _windowed.stft, KEEP, "TransposeBackward1"),
    Row("istft", _windowed.istft, KEEP, "SqueezeBackward1"),
    Row("fft.fftshift", lambda x, dim=None: fnp.fft.fftshift(x, axes=dim_as_axis(dim)), KEEP,
        "RollBackward0"),
    Row("fft.ifftshift", lambda x, dim=None: fnp.fft.ifftshift(x, axes=dim_as_axis(dim)), KEEP,
        "RollBackward0"),
]

ROWS = (ELEMENTWISE + COMPARISONS + REDUCTIONS + INDEXING + SHAPES + PRODUCTS + LINALG
        + LEGACY_LINALG + COMPLEX + FFT)


def _inner_operands(input, other):
    """inner's refusals of a number as `other`, and of tensors of two dtypes or bool ones
    (by the kernel PyTorch runs: dot for vectors); a 0-d operand is multiplied, with
    PyTorch's promotion."""
    require_tensor(other, "inner", "other", 2)
    if input.dim() and other.dim():
        _one_dtype(lambda a, b: "both inputs should have same dtype")(input, other)
        refuse_bool_product(input, "dot" if input.dim() == 1 else "addmm_impl_cpu_")


def _kernel_by_dim(kernel, kernel_along_dim, bools=False):
    """A refusal of complex tensors (and bool ones if `bools`: median's), whose kernel
    PyTorch picks by whether a `dim` is given."""
    def check(x, dim=None, *args, **kwargs):
        refuse_complex(kernel if dim is None else kernel_along_dim, x)
        if bools and isinstance(x, Tensor) and x.dtype is _dtypes.bool:
            raise _dtypes.not_implemented_for(kernel if dim is None else kernel_along_dim,
                                              x.dtype)
    return check


def _unique_consecutive_refusal(x, *args, dim=None, **kwargs):
    """unique_consecutive's kernel: unique_dim along a dim of a tensor of several."""
    refuse_complex("unique" if dim is None or x.dim() < 2 else "unique_dim", x)


def _round_refusal(x, *, decimals=None):
    refuse_complex("round_vml_cpu" if decimals is None else "round_cpu", x)


def _polygamma_refusal(n, x):
    refuse_complex({0: "digamma", 1: "trigamma"}.get(n, "polygamma"), x)


def _not_supported(name):
    """PyTorch's refusal of rounding complex numbers (``floor``, ...)."""
    return fixed(NotImplementedError, f"{name} is not supported for complex inputs")


def _expects_real(sentence):
    """The real-input FFTs' refusal, naming the complex dtype."""
    return lambda dtype: RuntimeError(f"{sentence}, but got {dtype.scalar_name}")


_SORT = fixed(RuntimeError, " Sort does not support complex dtypes on CPU")
_NANSUM = fixed(RuntimeError, "nansum on CPU does not support complex inputs")

# The rows PyTorch has no complex kernel for, and its refusal: a kernel's name (its
# message names the complex dtype) or a function of that dtype giving the error.
_COMPLEX_REFUSALS = {
    "atan2": "atan2_cpu", "arctan2": "atan2_cpu", "hypot": "hypot_cpu",
    "logaddexp2": "logaddexp2_cpu", "erf": "erf_vml_cpu", "erfc": "erfc_vml_cpu",
    "erfinv": "erfinv_vml_cpu", "lgamma": "lgamma_vml_cpu", "digamma": "digamma",
    "i0": "i0_vml_cpu", "logit": "logit_cpu", "xlogy": "xlogy_cpu",
    "deg2rad": fixed(RuntimeError, "deg2rad is not supported for complex tensors."),
    "rad2deg": fixed(RuntimeError, "rad2deg is not supported for complex tensors."),
    "copysign": "copysign_cpu", "floor": _not_supported("floor"),
    "ceil": _not_supported("ceil"), "trunc": _not_supported("trunc"),
    "fix": _not_supported("trunc"), "frac": "frac_cpu", "fmod": "fmod_cpu",
    "fmax": fixed(RuntimeError, "fmax not implemented for complex tensors."),
    "fmin": fixed(RuntimeError, "fmin not implemented for complex tensors."),
    "heaviside": fixed(RuntimeError, "heaviside is not yet implemented for complex tensors."),
    "nextafter": "nextafter_cpu",
    "frexp": fixed(RuntimeError, "torch.frexp() only supports floating-point dtypes"),
    "mvlgamma": "arange_cpu",
    "special.erf": "erf_vml_cpu", "special.erfc": "erfc_vml_cpu",
    "special.erfinv": "erfinv_vml_cpu", "special.logit": "logit_cpu",
    "special.xlogy": "xlogy_cpu", "special.xlog1py": "xlog1py_cpu",
    "special.entr": "entr_cpu", "special.ndtr": "erf_vml_cpu", "special.ndtri": "ndtri_cpu",
    "special.log_ndtr": "log_ndtr_cpu", "special.gammaln": "lgamma_vml_cpu",
    "special.digamma": "digamma", "special.psi": "digamma", "special.zeta": "zeta_cpu",
    "special.bessel_j0": "bessel_j0_cpu", "special.multigammaln": "arange_cpu",
    "special.i0": "i0_vml_cpu",
    "special.i0e": "i0e_cpu", "special.i1": "i1_cpu", "special.i1e": "i1e_cpu",
    "isposinf": fixed(RuntimeError, "isposinf does not support complex inputs."),
    "isneginf": fixed(RuntimeError, "isneginf does not support complex inputs."),
    "signbit": fixed(NotImplementedError, "signbit is not implemented for complex tensors."),
    "greater": "gt_cpu", "less": "lt_cpu", "greater_equal": "ge_cpu", "less_equal": "le_cpu",
    "isin": lambda dtype: RuntimeError(
        f"Unsupported input type encountered for isin(): {dtype.scalar_name}"),
    "argsort": _SORT, "sort": _SORT, "msort": _SORT,
    "topk": fixed(RuntimeError, " topk does not support complex dtypes on CPU"),
    "searchsorted": "searchsorted_out_cpu",
    "histogram": "histogramdd", "histc": "aminmax_cpu", "aminmax": "aminmax_cpu",
    "nansum": _NANSUM, "nanmean": _NANSUM,
    "mode": "mode_cpu", "kthvalue": "kthvalue_cpu", "cummax": "cummax_cpu",
    "cummin": "cummin_cpu",
    "fft.rfft": _expects_real("rfft expects a real input tensor"),
    "fft.ihfft": _expects_real("ihfft expects a real input tensor"),
    "fft.rfft2": _expects_real("rfftn expects a real-valued input tensor"),
    "fft.rfftn": _expects_real("rfftn expects a real-valued input tensor"),
    "cosine_similarity": lambda dtype: RuntimeError(
        f"expected common dtype to be floating point, yet common dtype is {dtype.scalar_name}"),
}


# Those whose refusal depends on the call's arguments: a check of them.
_COMPLEX_CHECKS = {
    "round": _round_refusal, "special.round": _round_refusal,
    "polygamma": _polygamma_refusal, "special.polygamma": _polygamma_refusal,
    "unique": _kernel_by_dim("unique", "unique_dim"),
    "nan_to_num": lambda x, *args, **kwargs: refuse_complex_derivative("nan_to_num", x),
    "unique_consecutive": _unique_consecutive_refusal,
    "median": _kernel_by_dim("median_cpu", "median_out", bools=True),
    "nanmedian": _kernel_by_dim("median_cpu", "median_out", bools=True),
    # two operands of different dtypes (a complex and a real one), which PyTorch refuses
    "inner": _inner_operands,
    "cross": _one_dtype(lambda a, b: f"expected scalar type {a} but found {b}"),
    "linalg.cross": _one_dtype(lambda a, b: f"expected scalar type {a} but found {b}"),
    "linalg.vecdot": _one_dtype(
        lambda a, b: f"linalg.vecdot: Expected x and y to have the same dtype, but found x of "
                     f"type {a} and y of type {b} instead"),
    "linalg.lstsq": _one_dtype(
        lambda a, b: f"torch.linalg.lstsq: Expected input and other to have the same dtype, but "
                     f"got input's dtype {a} and other's dtype {b}"),
}


_BOOL = (_dtypes.bool,)
_INTEGRAL = (_dtypes.uint8, _dtypes.int8, _dtypes.int16, _dtypes.int32, _dtypes.int64,
             _dtypes.bool)
_HALF = (_dtypes.float16,)
_INEXACT = (_dtypes.float16, _dtypes.float32, _dtypes.float64, _dtypes.complex64,
            _dtypes.complex128)
_HALF_FFT = (_HALF, fixed(RuntimeError, "Unsupported dtype Half"))
_BOOL_TRAPEZOID = (_BOOL, fixed(RuntimeError, "trapezoid: received a bool input for `y`, but "
                                              "bool is not supported"))
_EIG_INTEGERS = (_INTEGRAL, lambda dtype: RuntimeError(
    f"Unknown Complex ScalarType for {dtype.scalar_name}"))
_BOOL_COV = (_BOOL, fixed(RuntimeError, "cov(): bool dtype is not supported for input"))

# The rows PyTorch refuses some real dtypes of (compat's NumPy would compute them, or
# compute them in another dtype): (those dtypes of the first tensor, the refusal: a
# kernel's name or a function of the dtype giving the error).
_DTYPE_REFUSALS = {
    "round": (_BOOL, "round_vml_cpu"), "special.round": (_INTEGRAL, "round_vml_cpu"),
    "ceil": (_BOOL, "ceil_vml_cpu"), "floor": (_BOOL, "floor_vml_cpu"),
    "trunc": (_BOOL, "trunc_vml_cpu"), "fix": (_BOOL, "trunc_vml_cpu"),
    "nanmean": (_INTEGRAL, lambda dtype: RuntimeError(
        f"nanmean(): expected input to have floating point or complex dtype but got "
        f"{dtype.scalar_name}")),
    "trace": (_BOOL, "trace"), "cov": _BOOL_COV, "corrcoef": _BOOL_COV,
    "trapezoid": _BOOL_TRAPEZOID, "trapz": _BOOL_TRAPEZOID,
    "cumulative_trapezoid": (_BOOL, fixed(
        RuntimeError, "cumulative_trapezoid: received a bool input for `y`, but bool is not "
                      "supported")),
    "linalg.vander": (_BOOL + _HALF, lambda dtype: RuntimeError(
        f"linalg.vander supports floating point, complex, and integer tensors, but got "
        f"{dtype.scalar_name}")),
    "histc": (_BOOL, "linspace_cpu"), "special.bessel_j0": (_HALF, "bessel_j0_cpu"),
    "bincount": (_BOOL + _INEXACT, "bincount_cpu"),
    "gcd": (_BOOL + _INEXACT, "gcd_cpu"), "lcm": (_BOOL + _INEXACT, "lcm_cpu"),
    "gradient": ((_dtypes.uint8, _dtypes.bool), lambda dtype: RuntimeError(
        "torch.gradient does not support uint8 input." if dtype is _dtypes.uint8 else
        "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
        "or `logical_xor()` operator instead.")),
    "linalg.eig": _EIG_INTEGERS, "linalg.eigvals": _EIG_INTEGERS,
    "isin": (_BOOL, lambda dtype: RuntimeError(
        f"Unsupported input type encountered for isin(): {dtype.scalar_name}")),
    "fmod": (_BOOL, "fmod_cpu"), "cross": (_BOOL, "cross"), "linalg.cross": (_BOOL, "cross"),
    "special.zeta": (_HALF, "zeta_cpu"),
    "topk": (_BOOL, fixed(RuntimeError, "topk does not support bool dtypes on CPU")),
    "kthvalue": (_BOOL, "kthvalue_cpu"),
    "dist": (_BOOL, fixed(RuntimeError, "Subtraction, the `-` operator, with two bool "
                                        "tensors is not supported. Use the `^` or "
                                        "`logical_xor()` operator instead.")),
    # products of bool tensors: PyTorch's kernels have no bool loop
    "searchsorted": (_BOOL, "searchsorted_out_cpu"),
    "linalg.multi_dot": (_BOOL, "addmm_impl_cpu_"), "addmm": (_BOOL, "addmm_impl_cpu_"),
    "addbmm": (_BOOL, "addmm_impl_cpu_"), "addmv": (_BOOL, "addmv_impl_cpu"),
    "baddbmm": (_BOOL, "baddbmm"),
    "special.log_ndtr": (_HALF, "log_ndtr_cpu"), "special.ndtri": (_HALF, "ndtri_cpu"),
    **{f"fft.{name}": _HALF_FFT for name in (
        "fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2",
        "rfftn", "irfftn", "hfft", "ihfft")},
}


def _refuses(dtypes, refusal, with_numbers=False):
    """A check: `refusal` (a kernel's name, or a function of the dtype giving the error)
    where the tensors' result type (of those in a list too: multi_dot's) is one of
    `dtypes`; `with_numbers`: the Python numbers among the operands count too, as for
    the rows that compute in their result type (fmod(bool tensor, 3) runs on int64)."""
    if isinstance(refusal, str):
        refusal = _missing_kernel(refusal)

    def check(*args, **kwargs):
        tensors = []
        for x in (*args, *kwargs.values()):
            if isinstance(x, (list, tuple)):
                tensors += [item for item in x if isinstance(item, Tensor)]
            elif isinstance(x, Tensor):
                tensors.append(x)
        if with_numbers:  # (as `_table` promotes them: the operands after the first)
            tensors += [a for a in args[1:] if type(a) in (int, float)]
        dtype = result_type(*tensors) if tensors else None
        if dtype in dtypes:
            raise refusal(dtype)
    return check


def _refusing_complex(rows):
    """The rows above check for complex operands (and the dtypes of `_DTYPE_REFUSALS`)
    before their own check."""
    for row in rows:
        if row.name in _COMPLEX_REFUSALS:
            row.check = _both(no_complex(_COMPLEX_REFUSALS[row.name]), row.check)
        elif row.name in _COMPLEX_CHECKS:
            row.check = _both(_COMPLEX_CHECKS[row.name], row.check)
        if row.name in _DTYPE_REFUSALS:
            row.check = _both(_refuses(*_DTYPE_REFUSALS[row.name],
                                       with_numbers=row.dtypes is PROMOTE), row.check)
        if row.name in _TENSOR_ARGUMENTS:  # (first: what is not a tensor has no dtype)
            row.check = _both(_tensor_argument(row.short_name, *_TENSOR_ARGUMENTS[row.name]),
                              row.check)


# Rows' second arguments that PyTorch takes as tensors only: (name, position as PyTorch's
# message counts it), for its TypeError where a number or a list is given.
_TENSOR_ARGUMENTS = {
    "complex": ("imag", 2), "polar": ("angle", 2), "masked_select": ("mask", 2),
    "cholesky_solve": ("input2", 2), "triangular_solve": ("A", 2),
    "lu_unpack": ("LU_pivots", 2), "orgqr": ("input2", 2),
}


def _tensor_argument(function, argument, position):
    def check(*args, **kwargs):
        if len(args) > 1 or argument in kwargs:
            require_tensor(args[1] if len(args) > 1 else kwargs[argument], function,
                           argument, position)
    return check


_refusing_complex(ROWS)

FUNCTIONS = install(ROWS)  # {"inv" or "linalg.inv": the function}, and Tensor's methods
Tensor.real = property(FUNCTIONS["real"])  # attributes, not methods, in PyTorch
Tensor.imag = property(FUNCTIONS["imag"])


def _float_power_(self, exponent):
    """float_power in place: only into a double (or complex double) tensor, as PyTorch."""
    wide = _dtypes.complex128 if self.dtype.is_complex or (
        isinstance(exponent, Tensor) and exponent.dtype.is_complex) else _dtypes.float64
    if self.dtype is not wide:
        raise RuntimeError(f"the base given to float_power_ has dtype {self.dtype.scalar_name} "
                           f"but the operation's result requires dtype {wide.scalar_name}")
    return _FLOAT_POWER_IN_PLACE(self, exponent)


def _polygamma(self, n):
    """Tensor.polygamma(n): torch.polygamma(n, self)."""
    return FUNCTIONS["polygamma"](n, self)


def _polygamma_in_place_op(self, n):
    out = _polygamma(self, n)
    if out._box is not None:  # PyTorch's name of the in-place overload
        out._box.node.label = "PolygammaBackward1"
    return out


_FLOAT_POWER_IN_PLACE = Tensor.float_power_
Tensor.float_power_ = _float_power_
Tensor.polygamma = _polygamma
Tensor.polygamma_ = inplace(_polygamma_in_place_op)


def namespace(prefix):
    """The functions of torch namespace `prefix` ('' for torch itself), by short name."""
    return {row.short_name: FUNCTIONS[row.name] for row in ROWS
            if row.function and row.namespace == prefix}


# torch names funcgrad.numpy could express that compat leaves out, and names it cannot.
NOT_PROVIDED = {
    "linalg.ldl_factor": "funcgrad.numpy has no LDL factorisation",
}
