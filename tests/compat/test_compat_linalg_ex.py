"""linalg's *_ex functions, the singular-matrix errors of inv and solve, tensorinv and
vander against PyTorch: results, LAPACK's info, the errors of check_errors=True (text
compared), gradients and grad_fn names."""
import numpy as np
import pytest

from compat_harness import check

_RNG = np.random.default_rng(0)
_X = _RNG.standard_normal((3, 3))
_GOOD = _X @ _X.T + 3 * np.eye(3)
MATRICES = {
    "positive definite": _GOOD,
    "singular": np.array([[1.0, 2.0, 0.5], [2.0, 4.0, 1.0], [0.0, 1.0, 3.0]]),
    "zero": np.zeros((3, 3)),
    "indefinite": np.array([[2.0, 1.0, 0.0], [1.0, -3.0, 1.0], [0.0, 1.0, 1.0]]),
    "batch": np.stack([_GOOD, np.array([[1.0, 2.0, 0.5], [2.0, 4.0, 1.0], [0.0, 1.0, 3.0]])]),
    "complex": _GOOD + 1j * np.triu(_RNG.standard_normal((3, 3)), 1)
               - 1j * np.triu(_RNG.standard_normal((3, 3)), 1).T,
}


def _leaf(torch, values):
    dtype = torch.complex128 if np.iscomplexobj(values) else torch.float64
    return torch.tensor(values, dtype=dtype, requires_grad=True)


def _outputs(torch, results):
    """Each result, with the info compared exactly, the finite values of the others."""
    results = results if isinstance(results, tuple) else (results,)
    return [r if not r.dtype.is_floating_point and not r.dtype.is_complex
            else (r.isfinite().all().item(), r.grad_fn.name() if r.grad_fn else None,
                  r.nan_to_num(posinf=0.0, neginf=0.0) if r.isfinite().all() else None)
            for r in results]


@pytest.mark.parametrize("name", sorted(MATRICES))
@pytest.mark.parametrize("call", [
    "torch.linalg.inv_ex(A)", "torch.linalg.inv_ex(A, check_errors=True)",
    "torch.linalg.cholesky_ex(A)", "torch.linalg.cholesky_ex(A, upper=True)",
    "torch.linalg.cholesky_ex(A, check_errors=True)", "torch.linalg.lu_factor_ex(A)",
    "torch.linalg.lu_factor_ex(A, check_errors=True)", "torch.linalg.solve_ex(A, A[..., :2])",
    "torch.linalg.solve_ex(A, A[..., 0])", "torch.linalg.solve_ex(A, A, left=False)",
    "torch.linalg.solve_ex(A, A, check_errors=True)", "torch.linalg.inv(A)", "torch.inverse(A)",
    "torch.linalg.solve(A, A)", "torch.linalg.solve(A, A[..., 0])",
    "torch.linalg.tensorinv(A.reshape(3, 1, 3), 1)"])
def test_results_info_and_errors(call, name):
    def case(torch):
        A = _leaf(torch, MATRICES[name])
        return _outputs(torch, eval(call))
    check(case, rtol=1e-10, atol=1e-12, messages=True)


@pytest.mark.parametrize("call", [
    "torch.linalg.inv_ex(A)[0]", "torch.linalg.cholesky_ex(A)[0]",
    "torch.linalg.cholesky_ex(A, upper=True)[0]", "torch.linalg.lu_factor_ex(A)[0]",
    "torch.linalg.solve_ex(A, A[..., :2])[0]", "torch.linalg.tensorinv(A.reshape(3, 1, 3), 1)",
    "torch.linalg.vander(A[0])", "torch.linalg.vander(A[..., 0], N=4)"])
@pytest.mark.parametrize("name", ["positive definite", "complex"])
def test_gradients(call, name):
    def case(torch):
        A = _leaf(torch, MATRICES[name])
        out = eval(call)
        (out.abs() ** 2).sum().backward()
        return out, A.grad, out.grad_fn.name(), tuple(out.stride())
    check(case, rtol=1e-9, atol=1e-11)


@pytest.mark.parametrize("call", [
    "torch.linalg.cholesky_ex(A)", "torch.linalg.cholesky_ex(A.flip(0, 1))",
    "torch.linalg.cholesky_ex(A, upper=True)", "torch.linalg.cholesky_ex(-A)"])
def test_partial_cholesky_factor_as_lapack_leaves_it(call):
    """Where the factorisation fails, LAPACK's potf2 stops at the failing column: its
    pivot's value there, the later columns as they were."""
    def case(torch):
        A = torch.tensor(MATRICES["indefinite"], dtype=torch.float64, requires_grad=True)
        L, info = eval(call)
        return L, info, L.requires_grad
    check(case, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("call", [
    "torch.linalg.vander(torch.tensor([1, 2, 3]))", "torch.linalg.vander(x, N=1)",
    "torch.linalg.vander(x[0])", "torch.linalg.vander(x.reshape(2, 2), N=3)",
    "torch.linalg.tensorinv(x.reshape(4), 1)", "torch.linalg.tensorinv(x.reshape(2, 2), 0)",
    "torch.linalg.tensorinv(x.reshape(2, 2), 1)"])
def test_vander_and_tensorinv_arguments(call):
    def case(torch):
        x = torch.tensor([0.5, -1.0, 2.0, 3.0], dtype=torch.float64)
        return eval(call)
    check(case, messages=True)


@pytest.mark.parametrize("name", ["positive definite", "complex", "batch of two"])
@pytest.mark.parametrize("call", [
    "torch.linalg.lu_solve(LU, pivots, B)", "torch.linalg.lu_solve(LU, pivots, B, adjoint=True)",
    "torch.linalg.lu_solve(LU, pivots, B.mT, left=False)",
    "torch.linalg.lu_solve(LU, pivots, B.mT, left=False, adjoint=True)",
    "torch.linalg.lu_solve(LU, pivots, B[..., :2, :])",
    "torch.linalg.lu_solve(LU, pivots, B, left=False)",
    "torch.linalg.lu_solve(LU, pivots, B[..., 0])", "torch.linalg.lu_solve(LU, pivots.long(), B)"])
def test_lu_solve(call, name):
    def case(torch):
        values = MATRICES["positive definite"] if name == "batch of two" else MATRICES[name]
        A = _leaf(torch, np.stack([values, 2 * values]) if name == "batch of two" else values)
        B = torch.tensor(np.arange(12.0).reshape(3, 4) / 7, dtype=A.dtype, requires_grad=True)
        LU, pivots = torch.linalg.lu_factor(A)
        out = eval(call)
        (out.abs() ** 2).sum().backward()
        return out, A.grad, B.grad, out.grad_fn.name()
    check(case, rtol=1e-9, atol=1e-11, messages=True)


@pytest.mark.parametrize("call", [
    "torch.linalg.tensorsolve(A.reshape(3, 1, 3), torch.ones(3, 1, dtype=A.dtype))",
    "torch.linalg.tensorsolve(A, A[0], dims=(0,))", "torch.linalg.tensorsolve(A, A[:, 1])",
    "torch.linalg.tensorsolve(A.reshape(3, 3, 1), A)", "torch.linalg.tensorsolve(A, A[:2, 0])",
    "torch.linalg.tensorsolve(A.reshape(9), A[0])"])
def test_tensorsolve(call):
    def case(torch):
        A = _leaf(torch, MATRICES["positive definite"])
        out = eval(call)
        (out ** 2).sum().backward()
        return out, A.grad, out.grad_fn.name()
    check(case, rtol=1e-9, atol=1e-11, messages=True)


@pytest.mark.parametrize("n", [0, 1, 2, 3, -1, -2, -3])
@pytest.mark.parametrize("name", ["positive definite", "batch", "singular"])
def test_matrix_power(name, n):
    """The node PyTorch's composition ends with (a copy into identities, a clone, the
    inverse, a product), its layout, and a singular matrix's error."""
    def case(torch):
        A = _leaf(torch, MATRICES[name])
        out = torch.linalg.matrix_power(A, n)
        (out ** 2).sum().backward()
        return out, A.grad, out.grad_fn.name(), tuple(out.stride())
    check(case, rtol=1e-9, atol=1e-9, messages=True)
