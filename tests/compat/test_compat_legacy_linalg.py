"""torch's older linear-algebra names (torch.cholesky, cholesky_solve, cholesky_inverse, qr,
svd, lu, lu_solve, lu_unpack, triangular_solve, matrix_exp) against PyTorch 2.13: values,
dtypes, named results, grad_fn names, gradients and error texts; and the functions PyTorch 2
removed, whose errors point at torch.linalg. Factors that are unique only up to signs (svd's
U and V) are compared through what is unique: U diag(S) V^T, |U|, |V|, and gradients of
losses that do not depend on the signs."""
import warnings

import pytest
import torch

import compat
from compat_harness import assert_same_error, check

# PyTorch warns once per process that these names are deprecated in favour of torch.linalg.
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

DTYPES = ("float32", "float64")


def _matrix(L, shape, dtype, seed=0):
    L.manual_seed(seed)
    return L.randn(*shape, dtype=getattr(L, dtype)).requires_grad_()


def _positive_definite(L, A):
    n = A.shape[-1]
    return A @ A.mT + n * L.eye(n, dtype=A.dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4)])
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_solve_inverse(shape, upper, dtype):
    def case(L):
        A = _matrix(L, shape, dtype)
        B = _matrix(L, shape[:-1] + (2,), dtype, seed=1)
        factor = L.cholesky(_positive_definite(L, A), upper)
        solution = L.cholesky_solve(B, factor, upper=upper)
        inverse = factor.cholesky_inverse(upper)
        (factor.sum() + solution.square().sum() + inverse.sum()).backward()
        return factor, solution, inverse, A.grad, B.grad
    check(case, rtol=1e-4, atol=1e-5)


def test_cholesky_gradient_reaches_the_whole_factor():
    """PyTorch's cholesky_solve and cholesky_inverse differentiate L L^T in every entry of
    L (the entries above the diagonal of a lower factor get gradients too)."""
    def case(L):
        factor = (L.tril(L.rand(3, 3, dtype=L.float64)) + L.eye(3, dtype=L.float64))
        factor.requires_grad_()
        B = L.ones(3, 2, dtype=L.float64)
        (L.cholesky_solve(B, factor).sum() + L.cholesky_inverse(factor).sum()).backward()
        return factor.grad
    check(lambda L: (L.manual_seed(0), case(L))[1])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("some", [True, False])
@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (2, 3, 3)])
def test_qr(shape, some, dtype):
    def case(L):
        A = _matrix(L, shape, dtype)
        Q, R = L.qr(A, some)
        result = A.qr(some=some)
        if some or shape[-2] <= shape[-1]:  # (else PyTorch's backward refuses)
            (Q @ R).square().sum().backward()
        return type(result).__name__, result.Q, result.R, Q, R, A.grad
    check(case, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("case", [
    lambda L: L.qr(L.ones(4, 3, requires_grad=True), some=False).Q.sum().backward(),
    lambda L: L.linalg.qr(L.ones(4, 3, requires_grad=True), "complete").R.sum().backward(),
], ids=range(2))
def test_complete_qr_of_tall_matrices_is_not_differentiable(case):
    assert_same_error(case)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("some", [True, False])
@pytest.mark.parametrize("shape", [(4, 3), (3, 5), (2, 3, 3)])
def test_svd(shape, some, dtype):
    def case(L):
        A = _matrix(L, shape, dtype)
        U, S, V = L.svd(A, some=some)
        k = S.shape[-1]
        product = U[..., :k] * S.unsqueeze(-2) @ V[..., :k].mT
        (S.sum() + product.square().sum()).backward()
        named = A.svd(some)
        # The extra columns of a full U or V (some=False) are any orthonormal completion.
        orthonormal = [(W.mT @ W - L.eye(W.shape[-1], dtype=W.dtype)).abs().max() < 1e-5
                       for W in (U, V)]
        names = [U.grad_fn.name(), V.grad_fn.name()] if some or A.shape[-1] == A.shape[-2] \
            else []
        return (type(named).__name__, product, S, U[..., :k].abs(), V[..., :k].abs(),
                U.shape, V.shape, orthonormal, A.grad, named.S, names)
    check(case, rtol=1e-4, atol=1e-5, grad_fn_names=False)


def test_svd_without_u_and_v():
    def case(L):
        A = _matrix(L, (2, 4, 3), "float64")
        result = L.svd(A, compute_uv=False)
        result.S.sum().backward()
        return result, A.grad
    check(case)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (3, 3, 3)])
def test_lu_solve_and_unpack(shape, dtype):
    def case(L):
        A = _matrix(L, shape, dtype)
        B = _matrix(L, shape[:-1] + (2,), dtype, seed=1)
        LU, pivots = L.lu(A)
        LU2, pivots2, infos = A.lu(get_infos=True)
        solution = L.lu_solve(B, LU, pivots)
        P, lower, upper = L.lu_unpack(LU, pivots)
        (solution.square().sum() + lower.sum() + upper.square().sum()).backward()
        return (LU, pivots, LU2, pivots2, infos, solution, B.lu_solve(LU2, pivots2),
                type(L.lu_unpack(LU, pivots)).__name__, P, lower, upper, P @ lower @ upper,
                L.lu_unpack(LU, pivots, unpack_data=False),
                L.lu_unpack(LU, pivots, unpack_pivots=False), A.grad, B.grad)
    check(case, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 2), (2, 2, 6)])
def test_lu_of_rectangular_matrices(shape):
    def case(L):
        A = _matrix(L, shape, "float64")
        LU, pivots = L.lu(A)
        P, lower, upper = L.lu_unpack(LU, pivots)
        (lower.square().sum() + upper.square().sum()).backward()
        return LU, pivots, P, lower, upper, L.linalg.lu_factor(A).pivots, A.grad
    check(case)


@pytest.mark.parametrize("shape", [(3, 3), (5, 3), (3, 5), (2, 4, 4), (2, 2, 6)])
def test_linalg_lu_factors_and_their_gradients(shape):
    def case(L):
        A = _matrix(L, shape, "float64")
        result = L.linalg.lu(A)
        (result.L.sin().sum() + result.U.square().sum()).backward()
        return type(result).__name__, result, result.P @ result.L @ result.U, A.grad
    check(case)


@pytest.mark.parametrize("call", [
    lambda L: L.linalg.lu(L.ones(3)),
    lambda L: L.linalg.lu(L.ones(3, 3, dtype=L.float16)),
    lambda L: L.linalg.lu(L.ones(3, 3, dtype=L.int64)),
    lambda L: L.linalg.lu(L.eye(3), pivot=False),
])
def test_linalg_lu_errors(call):
    assert_same_error(call)


def test_lu_of_singular_matrices_reports_infos():
    def case(L):
        A = L.tensor([[[1.0, 2.0], [2.0, 4.0]], [[0.0, 0.0], [0.0, 0.0]],
                      [[1.0, 0.0], [0.0, 1.0]]])
        return L.lu(A, get_infos=True), L.lu(A[:2])
    check(case)
    assert_same_error(lambda L: L.linalg.lu_factor(L.zeros(2, 3, 3)))
    assert_same_error(lambda L: L.linalg.lu_factor(L.ones(2, 2)))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("transpose", [False, True])
@pytest.mark.parametrize("unitriangular", [False, True])
def test_triangular_solve(upper, transpose, unitriangular, dtype):
    def case(L):
        A = _matrix(L, (2, 3, 3), dtype)
        triangle = (A + 3 * L.eye(3, dtype=A.dtype))
        B = _matrix(L, (3, 2), dtype, seed=1)
        result = L.triangular_solve(B, triangle, upper, transpose, unitriangular)
        (result.solution.square().sum() + result.cloned_coefficient.sum()).backward()
        return result, B.triangular_solve(triangle, upper=upper).solution, A.grad, B.grad
    check(case, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("dtype", DTYPES)
def test_matrix_exp(dtype):
    def case(L):
        A = _matrix(L, (2, 3, 3), dtype)
        E = L.matrix_exp(A)
        (E.square().sum() + A.matrix_exp().sum() + L.linalg.matrix_exp(A).sum()).backward()
        return E, A.grad
    check(case, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("case", [
    lambda L: L.cholesky(-L.eye(3)),
    lambda L: L.cholesky(L.stack([L.eye(3), L.diag(L.tensor([1.0, -1.0, 1.0]))])),
    lambda L: L.cholesky(L.tensor([[1.0, 5.0], [0.0, 1.0]]), upper=True),
    lambda L: L.linalg.cholesky(L.stack([L.eye(2), -L.eye(2)])),
    lambda L: L.linalg.cholesky(L.tensor([[1.0, 2.0], [2.0, 1.0]]), upper=True),
    lambda L: L.cholesky(L.ones(2, 3)),
    lambda L: L.cholesky(L.ones(3, 3, dtype=L.long)),
    lambda L: L.cholesky_inverse(L.ones(2, 3)),
    lambda L: L.cholesky_solve(L.ones(3, 2), L.ones(2, 3)),
    lambda L: L.triangular_solve(L.ones(3, 2), L.ones(2, 3)),
    lambda L: L.matrix_exp(L.ones(2, 3)),
    lambda L: L.matrix_exp(L.ones(3, 3, dtype=L.long)),
    lambda L: L.lu(L.eye(3), pivot=False),
    lambda L: L.lu_solve(L.ones(3, 1), *L.linalg.lu_factor(L.eye(3))[:1],
                         L.linalg.lu_factor(L.eye(3))[1].long()),
    lambda L: L.lu_solve(L.ones(2, 3), *L.linalg.lu_factor(L.eye(3))),
    lambda L: L.solve(L.eye(3), L.eye(3)),
    lambda L: L.lstsq(L.eye(3), L.eye(3)),
    lambda L: L.symeig(L.eye(3)),
    lambda L: L.eig(L.eye(3)),
    lambda L: L.matrix_rank(L.eye(3)),
    lambda L: L.eye(3).solve(L.eye(3)),
    lambda L: L.eye(3).lstsq(L.eye(3)),
    lambda L: L.eye(3).symeig(),
    lambda L: L.eye(3).eig(),
    lambda L: L.lu_solve(L.ones(3, 1), *L.linalg.lu_factor(L.ones(3, 2))),
    lambda L: L.lu_solve(L.ones(2, 3, 1), *L.linalg.lu_factor(L.eye(3).expand(3, 3, 3))),
    lambda L: L.cholesky_solve(L.ones(2, 3, 1), L.eye(3).expand(3, 3, 3)),
    lambda L: L.cholesky_solve(L.ones(2, 1), L.eye(3)),
    lambda L: L.triangular_solve(L.ones(3, 2), L.eye(2)),
], ids=range(29))
def test_errors(case):
    assert_same_error(case)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(5, 3), (4, 4), (2, 6, 2)])
def test_geqrf_householder_product_ormqr(shape, dtype):
    """geqrf's reflectors, and their products (differentiable in the reflectors and their
    scales; geqrf itself is not, in either library)."""
    def case(L):
        A = _matrix(L, shape, dtype)
        a, tau = L.geqrf(A)
        reflectors, scales = a.detach().requires_grad_(), tau.detach().requires_grad_()
        Q = L.linalg.householder_product(reflectors, scales)
        C = _matrix(L, shape[:-2] + (shape[-2], 2), dtype, seed=1).detach()
        products = [L.ormqr(reflectors, scales, C), reflectors.ormqr(scales, C, True, True),
                    L.ormqr(reflectors, scales, C.mT, left=False),
                    L.orgqr(reflectors, scales[..., :1])]
        weights = L.arange(Q.numel(), dtype=Q.dtype).reshape(Q.shape)
        ((Q * weights).sum() + sum(p.square().sum() for p in products)).backward()
        return (type(L.geqrf(A)).__name__, a, tau, Q, products, reflectors.grad,
                scales.grad)
    check(case, rtol=1e-4, atol=1e-5)
    assert_same_error(lambda L: L.geqrf(L.eye(2, requires_grad=True))[0].sum().backward())


@pytest.mark.parametrize("case", [
    lambda L: L.geqrf(L.ones(3)),
    lambda L: L.geqrf(L.ones(3, 3, dtype=L.long)),
    lambda L: L.linalg.householder_product(L.ones(2, 3), L.ones(2)),
    lambda L: L.linalg.householder_product(L.ones(3, 2), L.ones(3)),
], ids=range(4))
def test_householder_errors(case):
    assert_same_error(case)


def _warnings_of(library, case):
    library.set_warn_always(True)  # (PyTorch warns once a process otherwise)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            case(library)
    finally:
        library.set_warn_always(False)
    return [str(w.message).split(" (Triggered internally")[0] for w in caught]


@pytest.mark.parametrize("case", [
    lambda L: L.cholesky(L.eye(2)),
    lambda L: L.eye(2).qr(),
    lambda L: L.lu(L.eye(2)),
    lambda L: L.lu_solve(L.ones(2, 1), *L.linalg.lu_factor(L.eye(2))),
    lambda L: L.triangular_solve(L.ones(2, 1), L.eye(2)),
    lambda L: [L.svd(L.eye(2)), L.matrix_exp(L.eye(2)), L.cholesky_inverse(L.eye(2))],
], ids=range(6))
def test_deprecation_warnings(case):
    want = _warnings_of(torch, case)
    assert _warnings_of(compat, case) == want


def test_pytorch_argument_names():
    def case(L):
        A = _positive_definite(L, _matrix(L, (3, 3), "float64")).detach()
        b = L.ones(3, 1, dtype=L.float64)
        factor = L.cholesky(input=A)
        LU, pivots = L.linalg.lu_factor(A)
        return (L.cholesky_solve(input=b, input2=factor), L.cholesky_inverse(input=factor),
                L.lu_solve(input=b, LU_data=LU, LU_pivots=pivots),
                L.lu_unpack(LU_data=LU, LU_pivots=pivots, unpack_pivots=False),
                L.triangular_solve(input=b, A=factor, upper=False), L.matrix_exp(input=A),
                L.qr(input=A, some=False), b.cholesky_solve(factor, upper=False))
    check(case)
