"""The computations of torch's older linear-algebra names (torch.cholesky_solve, lu_solve,
lu_unpack, triangular_solve, ...) on funcgrad values, for the rows of `_torch_names`.

PyTorch's pivots are LAPACK's, counted from 1, as int32: row i was swapped with row
pivots[i] - 1 at step i.
"""
import warnings

import numpy as np

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.numpy.linalg as fla
from funcgrad.core import unbox_all

from . import _layout
from ._record import broadcast_error
from ._runtime import warn_once
from ._scipy import linalg as fsl
from ._table import LinAlgError

_WILL_BE_REMOVED = "will be removed in a future PyTorch release."
# PyTorch's warnings (once a process) that these names give way to torch.linalg's.
_DEPRECATED = {
    "cholesky": (
        f"torch.cholesky is deprecated in favor of torch.linalg.cholesky and "
        f"{_WILL_BE_REMOVED}\nL = torch.cholesky(A)\nshould be replaced with\n"
        f"L = torch.linalg.cholesky(A)\nand\nU = torch.cholesky(A, upper=True)\nshould be "
        f"replaced with\nU = torch.linalg.cholesky(A).mH\nThis transform will produce "
        f"equivalent results for all valid (symmetric positive definite) inputs."),
    "qr": (
        f"torch.qr is deprecated in favor of torch.linalg.qr and {_WILL_BE_REMOVED}\n"
        f"The boolean parameter 'some' has been replaced with a string parameter 'mode'.\n"
        f"Q, R = torch.qr(A, some)\nshould be replaced with\nQ, R = torch.linalg.qr(A, "
        f"'reduced' if some else 'complete')"),
    "_lu_with_info": (
        f"torch.lu is deprecated in favor of torch.linalg.lu_factor / "
        f"torch.linalg.lu_factor_ex and {_WILL_BE_REMOVED}\nLU, pivots = torch.lu(A, "
        f"compute_pivots)\nshould be replaced with\nLU, pivots = torch.linalg.lu_factor(A, "
        f"compute_pivots)\nand\nLU, pivots, info = torch.lu(A, compute_pivots, "
        f"get_infos=True)\nshould be replaced with\nLU, pivots, info = "
        f"torch.linalg.lu_factor_ex(A, compute_pivots)"),
    # (PyTorch's text lacks the space before "and" in these two)
    "lu_solve": (
        f"torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand "
        f"{_WILL_BE_REMOVED}\nNote that torch.linalg.lu_solve has its arguments reversed.\n"
        f"X = torch.lu_solve(B, LU, pivots)\nshould be replaced with\n"
        f"X = torch.linalg.lu_solve(LU, pivots, B)"),
    "triangular_solve": (
        f"torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand "
        f"{_WILL_BE_REMOVED}\ntorch.linalg.solve_triangular has its arguments reversed and "
        f"does not return a copy of one of the inputs.\nX = torch.triangular_solve(B, "
        f"A).solution\nshould be replaced with\nX = torch.linalg.solve_triangular(A, B)."),
}


def deprecated(name, check=None):
    """A row's check that gives PyTorch's deprecation warning for `name`, then runs
    `check` (if any)."""
    def warned(*args, **kwargs):
        warn_once(_DEPRECATED[name], stacklevel=3)
        if check is not None:
            check(*args, **kwargs)
    return warned


def positive_definite(name, factor):
    """`factor` (a Cholesky factorisation of its first argument), raising PyTorch's error
    for a matrix that is not positive-definite: the first failing batch element and the
    order of its first leading minor that is not."""
    def checked(A, *args, **kwargs):
        try:
            return factor(A, *args, **kwargs)
        except np.linalg.LinAlgError:
            pass
        matrices = unbox_all(A)
        if kwargs.get("upper", args[0] if args else False):  # (read from the upper triangle)
            matrices = np.conj(np.swapaxes(matrices, -1, -2))
        stack = matrices.reshape((-1,) + matrices.shape[-2:])
        orders = np.array([_first_failing_minor(matrix) for matrix in stack], np.int32)
        refuse_failure(name, orders.reshape(matrices.shape[:-2]), not_positive_definite)
        raise LinAlgError(f"{name}: the factorization could not be completed")
    return checked


def refuse_failure(name, info, describe, error=LinAlgError):
    """PyTorch's error for the first matrix whose LAPACK `info` is not 0, if any: named
    `name`, with its place in a batch, and `describe(info)`."""
    flat = info.reshape(-1)
    failing = np.flatnonzero(flat)
    if failing.size:
        index = int(failing[0])
        where = f"(Batch element {index}): " if info.ndim else ""
        raise error(f"{name}: {where}{describe(int(flat[index]))}")


def not_positive_definite(order):
    return (f"The factorization could not be completed because the input is not "
            f"positive-definite (the leading minor of order {order} is not "
            f"positive-definite).")


def _first_failing_minor(matrix):
    for order in range(1, matrix.shape[-1] + 1):
        try:
            np.linalg.cholesky(matrix[:order, :order])
        except np.linalg.LinAlgError:
            return order
    return 0


def _factor_with_full_gradient(factor, upper):
    """The triangle of `factor` that LAPACK reads, whose gradient reaches every entry of
    `factor`: PyTorch's derivatives of cholesky_solve and cholesky_inverse treat the factor
    as the full matrix in ``L L^H`` (``U^H U``)."""
    ignored = fnp.tril(factor, -1) if upper else fnp.triu(factor, 1)
    return factor - fg.stop_gradient(ignored)


def _gram(factor, upper):
    """``L L^H`` for a lower factor, ``U^H U`` for an upper one."""
    factor = _factor_with_full_gradient(factor, upper)
    adjoint = fnp.conj(fnp.swapaxes(factor, -1, -2))
    return adjoint @ factor if upper else factor @ adjoint


def require_square(A, name=""):
    """PyTorch's refusal of what is not a (batch of) square matrices."""
    shape = fnp.shape(A)
    if len(shape) < 2 or shape[-1] != shape[-2]:
        prefix = f"{name}: " if name else ""
        raise RuntimeError(f"{prefix}A must be batches of square matrices, but they are "
                           f"{' by '.join(map(str, shape[-2:]))} matrices")


def _broadcast_batches(A, B):
    """A and B with their batch dimensions (all but the last two) broadcast together, or
    PyTorch's error (B being its tensor a)."""
    batch_a, batch_b = fnp.shape(A)[:-2], fnp.shape(B)[:-2]
    clash = broadcast_error(batch_b, batch_a)
    if clash:
        raise RuntimeError(clash)
    batch = np.broadcast_shapes(batch_a, batch_b)
    return (fnp.broadcast_to(A, batch + fnp.shape(A)[-2:]),
            fnp.broadcast_to(B, batch + fnp.shape(B)[-2:]))


def _check_sizes(name, A, B):
    """B's rows against the n x n matrices A (PyTorch's check of cholesky_solve's and
    triangular_solve's arguments)."""
    a, b = fnp.shape(A), fnp.shape(B)
    if len(b) < 2 or b[-2] != a[-1]:
        raise RuntimeError(f"Incompatible matrix sizes for {name}: each A matrix is "
                           f"{a[-2]} by {a[-1]} but each b matrix is "
                           f"{' by '.join(map(str, b[-2:]))}")


def cholesky_solve(input, input2, upper=False):
    """X with ``A X = B`` for B = `input` and ``A = L L^H`` (``U^H U`` if `upper`), L =
    `input2` (PyTorch's names; square: its row's check)."""
    _check_sizes("cholesky_solve", input2, input)
    A, B = _broadcast_batches(_gram(input2, upper), input)
    return fla.solve(A, B)


def cholesky_inverse(input, upper=False):
    """The inverse of ``L L^H`` (``U^H U`` if `upper`) for L = `input` (square: its row's
    check)."""
    return fla.inv(_gram(input, upper))


def triangular_solve(input, A, upper=True, transpose=False, unitriangular=False):
    """(X with ``op(T) X = B``, a copy of A) for B = `input`, T the `upper` (else lower)
    triangle of A and op its transpose if `transpose` (square: its row's check)."""
    _check_sizes("triangular_solve", A, input)
    A, B = _broadcast_batches(A, input)
    solution = fsl.solve_triangular(A, B, trans=1 if transpose else 0, lower=not upper,
                                    unit_diagonal=unitriangular)
    return solution, A + 0


def lu(A, *, pivot=True):
    """linalg.lu: (P, L, U) with ``A = P L U``, P a permutation matrix (a constant, as in
    PyTorch), L unit lower triangular (m x k) and U upper (k x n)."""
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on "
                           "the CPU")
    with warnings.catch_warnings():  # (SciPy warns of a singular matrix; U shows it)
        warnings.filterwarnings("ignore", "Diagonal number", RuntimeWarning)
        permutation, lower, upper = fsl.lu(A)
    # (SciPy's P is real for a complex A; PyTorch's has A's dtype)
    return fg.stop_gradient(fnp.astype(permutation, unbox_all(lower).dtype)), lower, upper


def lu_with_info(A, pivot=True):
    """(LU, pivots, info) of an m x n matrix: L's strict lower triangle and U in one m x n
    matrix, PyTorch's min(m, n) pivots and LAPACK's info (k if U[k, k] is zero, counting
    from 1, the first such k; else 0)."""
    m, n = fnp.shape(A)[-2:]
    permutation, lower, upper = lu(A, pivot=pivot)
    strict_lower = fnp.tril(lower, -1)
    if m > n:   # L is m x n, U n x n
        packed = strict_lower + fnp.concatenate(
            [upper, np.zeros(fnp.shape(A)[:-2] + (m - n, n), unbox_all(upper).dtype)], -2)
    else:       # L is m x m, U m x n
        packed = upper + fnp.concatenate(
            [strict_lower, np.zeros(fnp.shape(A)[:-2] + (m, n - m), unbox_all(upper).dtype)],
            -1)
    if not min(m, n):  # nothing factored: no pivots, and no zero on U's diagonal
        batch = fnp.shape(A)[:-2]
        return packed, np.zeros(batch + (0,), np.int32), np.zeros(batch, np.int32)
    zero = np.diagonal(unbox_all(packed), axis1=-2, axis2=-1) == 0
    info = np.where(zero.any(axis=-1), zero.argmax(axis=-1) + 1, 0).astype(np.int32)
    # Column i of P holds the row of A that became row i of L U.
    rows = np.argmax(unbox_all(permutation), axis=-2)
    return packed, _swaps(rows, min(m, n)), info


def _swaps(rows, steps):
    """LAPACK's pivots (from 1) for the row order `rows`: at step i, row i was swapped with
    the row that then held rows[i] (unique, as it is at or below i)."""
    current = np.broadcast_to(np.arange(rows.shape[-1]), rows.shape).copy()
    pivots = np.empty(rows.shape[:-1] + (steps,), np.int32)
    for i in range(steps):
        j = np.argmax(current == rows[..., i:i + 1], axis=-1)[..., None]
        at_i = current[..., i:i + 1].copy()
        current[..., i:i + 1] = np.take_along_axis(current, j, -1)
        np.put_along_axis(current, j, at_i, -1)
        pivots[..., i] = j[..., 0] + 1
    return pivots


def lu_factor(A, *, pivot=True):
    """linalg.lu_factor: (LU, pivots), refusing a singular matrix as PyTorch does."""
    packed, pivots, info = lu_with_info(A, pivot)
    refuse_zero_pivot("torch.linalg.lu_factor", info)
    return packed, pivots


def refuse_zero_pivot(name, info):
    """PyTorch's error for the first matrix whose LU factor U has a zero pivot (`info`)."""
    refuse_failure(name, info, _zero_pivot, RuntimeError)


def _zero_pivot(k):
    return (f"U[{k},{k}] is zero and using it on lu_solve would result in a division by "
            f"zero. If you still want to perform the factorization, consider calling "
            f"linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)")


def row_order(pivots, rows):
    """For each matrix's pivots, the order of its `rows` rows in ``P^T b``: the swaps
    applied in order."""
    swaps = np.asarray(pivots, np.int64) - 1
    order = np.broadcast_to(np.arange(rows), swaps.shape[:-1] + (rows,)).copy()
    for i in range(swaps.shape[-1]):
        j = swaps[..., i:i + 1]
        at_i, at_j = order[..., i:i + 1].copy(), np.take_along_axis(order, j, -1)
        np.put_along_axis(order, j, at_i, -1)
        order[..., i:i + 1] = at_j
    return order


def pivots_check(name, position):
    """A row's check that the pivots (argument `position`, or ``LU_pivots=``) are int32."""
    def check(*args, **kwargs):
        pivots = (args[position] if len(args) > position
                  else kwargs.get("LU_pivots", kwargs.get("pivots")))
        if pivots is None:  # (Python's own error, raised where the function is called)
            return
        if unbox_all(pivots._data).dtype != np.int32:
            raise RuntimeError(f"{name}: pivots should be a Tensor of scalar type "
                               f"torch.int32")
    return check


def lu_solve(input, LU_data, LU_pivots):
    """X with ``A X = B`` (B = `input`) from ``A``'s factorisation ``(LU, pivots)``."""
    B, LU, pivots = input, LU_data, LU_pivots
    require_square(LU, "torch.linalg.lu_solve")
    if fnp.shape(B)[-2] != fnp.shape(LU)[-1]:
        raise RuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the equation "
                           f"AX = B ({'x'.join(map(str, fnp.shape(LU)[-2:]))} and "
                           f"{'x'.join(map(str, fnp.shape(B)[-2:]))})")
    LU, B = _broadcast_batches(LU, B)
    order = np.broadcast_to(row_order(unbox_all(pivots), fnp.shape(LU)[-2]),
                            fnp.shape(LU)[:-1])
    rows = fnp.take_along_axis(B, np.broadcast_to(order[..., None], fnp.shape(B)), axis=-2)
    y = fsl.solve_triangular(LU, rows, lower=True, unit_diagonal=True)
    return fsl.solve_triangular(LU, y, lower=False)


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    """(P, L, U) with ``A = P L U`` from ``(LU, pivots)``; an empty tensor for each part not
    unpacked."""
    LU, pivots = LU_data, LU_pivots
    dtype = unbox_all(LU).dtype
    m, n = fnp.shape(LU)[-2:]
    k = min(m, n)
    empty = np.zeros((0,), dtype)
    if unpack_pivots:
        values = unbox_all(pivots)
        if not values.ndim or values.size and not ((values >= 1) & (values <= m)).all():
            raise RuntimeError("pivots passed to lu_unpack must be between 1 and LU.size(-2) "
                               "inclusive.Did you properly pass the result of lu_factor?")
        order = row_order(values, m)
        # Row i of P^T is e_order[i], so P = I[order]^T (row-major, as PyTorch's).
        permutation = np.ascontiguousarray(np.swapaxes(np.eye(m, dtype=dtype)[order], -1, -2))
    else:
        permutation = empty
    if not unpack_data:  # (empty, but recorded as PyTorch's L and U are)
        nothing = fnp.reshape(LU, (-1,))[:0]
        return permutation, nothing, nothing
    lower = fnp.tril(LU, -1)[..., :k] + np.eye(m, k, dtype=dtype)
    return permutation, lower, _layout.relaid(fnp.triu(LU)[..., :k, :], _layout.row_major)
