"""The rest of scipy.linalg: `norm`, `svdvals` and `khatri_rao` on funcgrad.numpy's
differentiable functions, and SciPy's other functions as they are, for constant arrays.

A function of the second kind has no derivative rule here (as in HIPS autograd, whose
``autograd.scipy.linalg`` wraps all of SciPy's): it runs on NumPy arrays and on values
that no transform traces, and refuses a traced value by name rather than return a result
whose derivative would silently be zero.
"""
import functools

import scipy.linalg
from scipy.linalg import LinAlgWarning  # noqa: F401 (scipy.linalg's name)

from ..core import Box, shape_of
from ..numpy import linalg as _linalg
from ..numpy.creation import asarray
from ..numpy.products import einsum
from ..numpy.shape_ops import reshape
from ..tree_util import tree_flatten


def norm(a, ord=None, axis=None, keepdims=False, check_finite=True):
    """``scipy.linalg.norm``: NumPy's norm (the same orders and axes)."""
    return _linalg.norm(asarray(a), ord=ord, axis=axis, keepdims=keepdims)


def svdvals(a, overwrite_a=False, check_finite=True):
    """``scipy.linalg.svdvals``: the singular values of each matrix in a stack."""
    return _linalg.svdvals(asarray(a))


def khatri_rao(a, b):
    """``scipy.linalg.khatri_rao``: the column-wise Kronecker product of two matrices with
    the same number of columns."""
    a, b = asarray(a), asarray(b)
    if len(shape_of(a)) != 2 or len(shape_of(b)) != 2:
        raise ValueError(f"funcgrad.scipy.linalg.khatri_rao: a and b must be matrices, got "
                         f"shapes {shape_of(a)} and {shape_of(b)}")
    if shape_of(a)[1] != shape_of(b)[1]:
        raise ValueError(f"funcgrad.scipy.linalg.khatri_rao: a and b must have the same "
                         f"number of columns, got shapes {shape_of(a)} and {shape_of(b)}")
    return reshape(einsum("ij,kj->ikj", a, b), (-1, shape_of(a)[1]))


def _for_constants(name):
    """SciPy's `name`, refusing values that a transform traces."""
    function = getattr(scipy.linalg, name)

    @functools.wraps(function)
    def constants_only(*args, **kwargs):
        traced = [leaf for leaf in tree_flatten((args, kwargs))[0] if isinstance(leaf, Box)]
        if traced:
            raise TypeError(
                f"funcgrad.scipy.linalg.{name} has no derivative rule in funcgrad: it takes "
                f"constant arrays only, and was given a value traced by "
                f"{traced[0]._trace.transform}. Compute it outside the transform, or write "
                f"it with funcgrad.numpy (or give it a rule with funcgrad.custom_vjp).")
        return function(*args, **kwargs)
    return constants_only


FOR_CONSTANTS = (
    "bandwidth", "cdf2rdf", "cho_solve_banded", "cholesky_banded",
    "clarkson_woodruff_transform", "companion", "convolution_matrix", "coshm", "cosm",
    "cossin", "diagsvd", "eig", "eig_banded", "eigh_tridiagonal", "eigvals", "eigvals_banded",
    "eigvalsh_tridiagonal", "expm_cond", "fiedler", "fiedler_companion",
    "find_best_blas_type", "fractional_matrix_power", "funm", "get_blas_funcs",
    "get_lapack_funcs", "hessenberg", "ishermitian", "issymmetric", "ldl", "leslie", "logm",
    "lstsq", "matmul_toeplitz", "matrix_balance", "null_space", "ordqz", "orth",
    "orthogonal_procrustes", "pinv", "pinvh", "polar", "qr_delete", "qr_insert",
    "qr_multiply", "qr_update", "qz", "rq", "rsf2csf", "signm", "sinhm", "sinm",
    "solve_circulant", "solve_continuous_are", "solve_continuous_lyapunov",
    "solve_discrete_are", "solve_discrete_lyapunov", "solve_lyapunov", "solve_toeplitz",
    "solveh_banded", "subspace_angles", "tanhm", "tanm")

globals().update({name: _for_constants(name) for name in FOR_CONSTANTS})

__all__ = ["norm", "svdvals", "khatri_rao", "LinAlgWarning", *FOR_CONSTANTS]
