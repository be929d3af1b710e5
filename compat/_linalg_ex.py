"""Singular and indefinite matrices as PyTorch's linear algebra reports them: the errors of
inv and solve, and the ``*_ex`` functions, which return LAPACK's `info` (per matrix: 0, or
the order of the failing pivot or leading minor, counting from 1) with their result and
raise only with ``check_errors=True``. Also linalg.lu_solve, tensorinv, tensorsolve and
vander.

Where a matrix fails, PyTorch's result holds whatever LAPACK left (an inverse of infinities,
a partial Cholesky factor); compat's partial factor is LAPACK's (potf2's, column by
column), its failed inverse or solution NaN.
"""
import math

import numpy as np

import funcgrad.numpy as fnp
import funcgrad.numpy.linalg as fla
from funcgrad.core import unbox_all

from . import _layout, _legacy_linalg
from ._legacy_linalg import not_positive_definite, refuse_failure
from ._scipy import linalg as fsl


def _info_of_lu(A):
    """LAPACK getrf's info of each matrix of `A` (int32, of A's batch shape)."""
    return _legacy_linalg.lu_with_info(unbox_all(A))[2]


def _singular_inverse(order):
    return (f"The diagonal element {order} is zero, the inversion could not be completed "
            f"because the input matrix is singular.")


def _singular_solve(order):
    return "The solver failed because the input matrix is singular."


def inverse(name):
    """linalg.inv (and torch.inverse, tensorinv, named `name` in the error): the inverse,
    refusing a singular matrix in PyTorch's words."""
    def compute(A):
        try:
            return fla.inv(A)
        except np.linalg.LinAlgError:
            refuse_failure(name, _info_of_lu(A), _singular_inverse)
            raise
    return compute


def solve(compute):
    """linalg.solve's `compute`, refusing a singular matrix in PyTorch's words."""
    def checked(A, B, *, left=True):
        try:
            return compute(A, B, left=left)
        except np.linalg.LinAlgError:
            refuse_failure("torch.linalg.solve", _info_of_lu(A), _singular_solve)
            raise
    return checked


def _where_singular(info, A, compute):
    """`compute(A)` for the matrices of A whose `info` is 0 (with their gradient), NaN for
    the others (where PyTorch's result is what LAPACK left: infinities, NaN); identities
    stand in for those in the computation."""
    failed = info != 0
    if not failed.any():
        return compute(A)
    n = fnp.shape(A)[-1]
    stand_ins = fnp.where(failed[..., None, None], np.eye(n, dtype=unbox_all(A).dtype), A)
    result = compute(stand_ins)
    mask = failed.reshape(failed.shape + (1,) * (fnp.ndim(result) - failed.ndim))
    return fnp.where(mask, np.nan, result)


def inv_ex(A, *, check_errors=False):
    info = _info_of_lu(A)
    if check_errors:
        refuse_failure("linalg.inv_ex", info, _singular_inverse)
    return _where_singular(info, A, fla.inv), info


def solve_ex(A, B, *, left=True, check_errors=False, compute=None):
    info = _info_of_lu(A)
    if check_errors:
        refuse_failure("torch.linalg.solve_ex", info, _singular_solve)
    return _where_singular(info, A, lambda A: compute(A, B, left=left)), info


def cholesky_ex(A, *, upper=False, check_errors=False, factor=None):
    """(L, info): `factor`(A) where A is positive-definite; where not, LAPACK's partial
    factor, which carries no gradient."""
    try:
        return factor(A, upper=upper), np.zeros(fnp.shape(A)[:-2], np.int32)
    except np.linalg.LinAlgError:
        pass
    raw = unbox_all(A)
    lower = np.conj(np.swapaxes(raw, -1, -2)) if upper else raw
    stack = lower.reshape((-1,) + lower.shape[-2:])
    partial = np.empty_like(stack)
    info = np.zeros(len(stack), np.int32)
    for index, matrix in enumerate(stack):
        partial[index], info[index] = _potf2(matrix)
    info = info.reshape(lower.shape[:-2])
    if check_errors:
        refuse_failure("linalg.cholesky_ex", info, not_positive_definite)
    partial = partial.reshape(lower.shape)
    if upper:
        partial = np.conj(np.swapaxes(partial, -1, -2))
    failed = (info != 0)[..., None, None]
    identity = np.eye(lower.shape[-1], dtype=lower.dtype)
    # The matrices that factor, factored with their gradient; the others LAPACK's partial
    # factor (identities stand in for them in the factorisation).
    stand_ins = fnp.where(failed, identity, A)
    return fnp.where(failed, partial, factor(stand_ins, upper=upper)), info


def _potf2(matrix):
    """LAPACK's unblocked Cholesky of the lower triangle of `matrix`, column by column,
    stopping at the first non-positive pivot: (the lower factor as far as it got, with the
    failing pivot's value and the columns after it as they were; info)."""
    a = np.tril(matrix).copy()
    for j in range(a.shape[0]):
        pivot = (a[j, j] - np.vdot(a[j, :j], a[j, :j])).real
        if not pivot > 0:  # (NaN fails too)
            a[j, j] = pivot
            return a, j + 1
        a[j, j] = math.sqrt(pivot)
        a[j + 1:, j] = (a[j + 1:, j] - a[j + 1:, :j] @ np.conj(a[j, :j])) / a[j, j]
    return a, 0


def lu_factor_ex(A, *, pivot=True, check_errors=False):
    packed, pivots, info = _legacy_linalg.lu_with_info(A, pivot)
    if check_errors:
        _legacy_linalg.refuse_zero_pivot("torch.linalg.lu_factor_ex", info)
    return packed, pivots, info


def tensorinv_shape(A, ind=2):
    """PyTorch's refusals of a tensorinv of what is no square matrix once reshaped (before
    its dtype's)."""
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    shape = fnp.shape(A)
    rows, columns = math.prod(shape[:ind]), math.prod(shape[ind:])
    if rows != columns:
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[ind:]) "
                           f"== prod(self.shape[:ind]), but got {columns} != {rows}")


def tensorinv(A, ind=2):
    """The inverse of A as a tensor of `ind` output dimensions: A reshaped to a square
    matrix, inverted (PyTorch's inv, named in its error), and reshaped back (its shape
    checked by `tensorinv_shape`, its row's check)."""
    shape = fnp.shape(A)
    rows, columns = math.prod(shape[:ind]), math.prod(shape[ind:])
    inverse_matrix = inverse("inv")(fnp.reshape(A, (rows, columns)))
    # (PyTorch's inverse is column-major, which the reshape views: its strides)
    inverse_matrix = _layout.relaid(inverse_matrix, _layout.matrices_column_major)
    return fnp.reshape(inverse_matrix, shape[ind:] + shape[:ind])


def vander(x, *, N=None):
    """The powers x^0, ..., x^(N-1) of each element of x's last dimension, along a new
    last dimension (PyTorch's composition: a running product, so the same roundings)."""
    n = (fnp.shape(x)[-1] if fnp.ndim(x) else 1) if N is None else N
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    column = fnp.expand_dims(x, -1)
    if fnp.result_type(x).kind == "u":  # (PyTorch's products of uint8 are int64, NumPy's
        column = fnp.astype(column, np.int64)  # uint64)
    powers = fnp.cumprod(fnp.broadcast_to(column, fnp.shape(column)[:-1] + (n - 1,)), -1)
    return fnp.concatenate([fnp.ones_like(column), powers], -1)


def lu_solve(LU, pivots, B, *, left=True, adjoint=False):
    """X with ``A X = B`` (``X A = B`` if not `left`; with A's adjoint if `adjoint`) from
    A's LU factorisation: triangular solves with the factors (of their adjoints), and A's
    row permutation."""
    if fnp.ndim(B) < 2:
        raise RuntimeError("linalg.lu_solve: The input tensor B must have at least 2 "
                           "dimensions.")
    if not left:  # X A = B is A^H X^H = B^H
        shape = fnp.shape(B)
        if shape[-1] != fnp.shape(LU)[-1]:
            raise RuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the "
                               f"equation XA = B ({_sizes(LU)} and {_sizes(B)})")
        return fnp.conj(fnp.matrix_transpose(lu_solve(LU, pivots, _adjoint(B),
                                                      adjoint=not adjoint)))
    if not adjoint:
        return _legacy_linalg.lu_solve(B, LU, pivots)
    if fnp.shape(B)[-2] != fnp.shape(LU)[-1]:
        raise RuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the "
                           f"equation AX = B ({_sizes(LU)} and {_sizes(B)})")
    # A = P L U, so A^H X = B is U^H L^H P^T X = B.
    y = fsl.solve_triangular(LU, B, trans=2, lower=False)
    z = fsl.solve_triangular(LU, y, trans=2, lower=True, unit_diagonal=True)
    order = _legacy_linalg.row_order(unbox_all(pivots), fnp.shape(LU)[-2])
    back = np.argsort(order, axis=-1)
    return fnp.take_along_axis(z, np.broadcast_to(back[..., None], fnp.shape(z)), axis=-2)


def _adjoint(x):
    return fnp.conj(fnp.matrix_transpose(x))


def _sizes(x):
    return "x".join(map(str, fnp.shape(x)[-2:]))


def tensorsolve(A, B, dims=None):
    """X with ``tensordot(A, X, X.ndim) = B``: A (its `dims` moved last) reshaped to a
    square matrix, solved, and reshaped to A's trailing dimensions."""
    if dims is not None:
        count = fnp.ndim(A)
        moved = [d % count for d in dims]
        A = fnp.moveaxis(A, moved, list(range(count - len(moved), count)))
    shape = fnp.shape(A)
    result_shape = shape[fnp.ndim(B):]
    columns, rows = math.prod(result_shape), math.prod(fnp.shape(B))
    if columns != rows:
        raise RuntimeError(f"Expected self to satisfy the requirement "
                           f"prod(self.shape[other.ndim:]) == prod(self.shape[:other.ndim]), "
                           f"but got {columns} != {rows}")
    solution = solve(lambda A, B, left: fla.solve(A, B))(
        fnp.reshape(A, (rows, columns)), fnp.reshape(B, (rows, 1)))
    return fnp.reshape(solution, result_shape)
