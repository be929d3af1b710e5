"""torch.svd and torch.lu (PyTorch's own Python over its linalg functions), the functions
PyTorch 2 removed (torch.solve, lstsq, symeig, eig, matrix_rank), which raise PyTorch's
errors pointing at torch.linalg; and their Tensor methods, with torch.geqrf's."""
from ._factories import zeros
from ._householder import geqrf
from ._ops import cat
from ._return_types import return_type
from ._tensor import Tensor
from ._torch_names import FUNCTIONS

_REMOVED = "This function was deprecated since version 1.9 and is now removed."
_REMOVED_ADVICE = {
    "solve": (
        " `torch.solve` is deprecated in favor of `torch.linalg.solve`. `torch.linalg.solve` "
        "has its arguments reversed and does not return the LU factorization.\n\n"
        "To get the LU factorization see `torch.lu`, which can be used with `torch.lu_solve` "
        "or `torch.lu_unpack`.\nX = torch.solve(B, A).solution should be replaced with:\n"
        "X = torch.linalg.solve(A, B)"),
    "lstsq": (
        " `torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n`torch.linalg.lstsq` "
        "has reversed arguments and does not return the QR decomposition in the returned "
        "tuple (although it returns other information about the problem).\n\nTo get the QR "
        "decomposition consider using `torch.linalg.qr`.\n\nThe returned solution in "
        "`torch.lstsq` stored the residuals of the solution in the last m - n columns of the "
        "returned value whenever m > n. In torch.linalg.lstsq, the residuals are in the "
        "field 'residuals' of the returned named tuple.\n\nThe unpacking of the solution, as "
        "in\nX, _ = torch.lstsq(B, A).solution[:A.size(1)]\nshould be replaced with:\n"
        "X = torch.linalg.lstsq(A, B).solution"),
    "symeig": (
        " The default behavior has changed from using the upper triangular portion of the "
        "matrix by default to using the lower triangular portion.\n\nL, _ = torch.symeig(A, "
        "upper=upper) should be replaced with:\nL = torch.linalg.eigvalsh(A, UPLO='U' if "
        "upper else 'L')\n\nand\n\nL, V = torch.symeig(A, eigenvectors=True) should be "
        "replaced with:\nL, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')"),
    "eig": (
        " `torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` rather "
        "than real tensors mimicking complex tensors.\n\nL, _ = torch.eig(A) should be "
        "replaced with:\nL_complex = torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, "
        "eigenvectors=True) should be replaced with:\nL_complex, V_complex = "
        "torch.linalg.eig(A)"),
    "matrix_rank": (
        "\nPlease use the `torch.linalg.matrix_rank` function instead. The parameter "
        "'symmetric' was renamed in `torch.linalg.matrix_rank()` to 'hermitian'."),
}


def _removed(name):
    def removed(*args, **kwargs):
        raise RuntimeError(_REMOVED + _REMOVED_ADVICE[name])
    removed.__name__ = removed.__qualname__ = name
    return removed


solve, lstsq, symeig, eig, matrix_rank = (_removed(name) for name in _REMOVED_ADVICE)

_SVD_TYPE = return_type("svd", ("U", "S", "V"))


def svd(input, some=True, compute_uv=True, *, out=None):
    """(U, S, V) with ``input = U diag(S) V^H``: V, not linalg.svd's Vh (U and V square if
    not `some`, their extra columns without gradient); with ``compute_uv=False``, U and V
    are zero matrices (m x m, n x n) and only S is computed."""
    if out is not None:
        raise TypeError("compat.svd(): out= is not supported; assign the result instead")
    if not compute_uv:
        S = FUNCTIONS["linalg.svdvals"](input)
        m, n = input.shape[-2:]
        batch = tuple(input.shape[:-2])
        return _SVD_TYPE(zeros(batch + (m, m), dtype=S.dtype), S,
                         zeros(batch + (n, n), dtype=S.dtype))
    U, S, Vh = FUNCTIONS["linalg.svd"](input, full_matrices=False)
    V = Vh.mH
    m, n = input.shape[-2:]
    if not some and m != n:
        # The extra columns of the full U (or V) are not unique: constants, whose gradient
        # PyTorch ignores as well.
        full_U, _, full_Vh = FUNCTIONS["linalg.svd"](input.detach(), full_matrices=True)
        k = min(m, n)
        U = cat([U, full_U[..., k:]], dim=-1)
        V = cat([V, full_Vh.mH[..., k:]], dim=-1)
    return _SVD_TYPE(U, S, V)


def lu(A, pivot=True, get_infos=False, out=None):
    """(LU, pivots), with get_infos the int32 LAPACK info of each matrix too (0: factored;
    k: U's k-th diagonal entry is zero). A singular matrix is factored, not refused."""
    if out is not None:
        raise TypeError("compat.lu(): out= is not supported; assign the result instead")
    result = FUNCTIONS["_lu_with_info"](A, pivot=pivot)
    return result if get_infos else tuple(result[:2])


def install_tensor_methods():
    for method in (svd, lu, solve, lstsq, symeig, eig, geqrf):
        setattr(Tensor, method.__name__, method)


__all__ = ["eig", "install_tensor_methods", "lstsq", "lu", "matrix_rank", "solve", "svd",
           "symeig"]
