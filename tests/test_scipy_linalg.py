"""funcgrad.scipy.linalg beyond the JAX oracle (tests/oracle_cases/scipy_linalg.py): SciPy's
values where JAX differs (cho_factor's unused triangle, rectangular lu, p_indices, empty
block_diag, the parts of `a` that solve and inv read for each assume_a), derivatives of the
one-triangle functions at non-Hermitian matrices, SciPy's other functions on constants, and
the argument errors."""
import numpy as np
import pytest
import scipy.linalg

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.linalg as linalg
from funcgrad.scipy._linalg_rest import FOR_CONSTANTS
from funcgrad.test_util import check_grads

_RNG = np.random.default_rng(11)
_NOT_HERMITIAN = _RNG.uniform(-1, 1, (3, 3)) + np.diag([4.0, 9.0, 14.0])


@pytest.mark.parametrize("lower", [False, True])
def test_cho_factor_keeps_the_other_triangle_as_scipy(lower):
    c, flag = linalg.cho_factor(_NOT_HERMITIAN, lower=lower)
    expected, expected_flag = scipy.linalg.cho_factor(_NOT_HERMITIAN, lower=lower)
    np.testing.assert_allclose(c, expected, rtol=1e-13)
    assert flag == expected_flag


@pytest.mark.parametrize("name", ["cholesky", "cho_factor", "cho_solve", "eigh"])
@pytest.mark.parametrize("lower", [False, True])
def test_one_triangle_derivatives(name, lower):
    b = _RNG.normal(size=(3, 2))
    functions = {
        "cholesky": lambda a: linalg.cholesky(a, lower=lower),
        "cho_factor": lambda a: linalg.cho_factor(a, lower=lower)[0],
        "cho_solve": lambda a: linalg.cho_solve(linalg.cho_factor(a, lower=lower), b),
        "eigh": lambda a: linalg.eigh(a, lower=lower)[0],
    }
    check_grads(functions[name], (_NOT_HERMITIAN,), order=2)


@pytest.mark.parametrize("shape", [(3, 4), (4, 2), (2, 5), (5, 3), (2, 3, 4), (2, 4, 3)])
def test_rectangular_lu_values_and_derivatives(shape):
    # The oracle case draws dominant matrices; here random ones, whose pivots move rows.
    a = _RNG.normal(size=shape)
    for ours, theirs in zip(linalg.lu(a), scipy.linalg.lu(a)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-13)
    check_grads(lambda a: linalg.lu(a)[1:], (a,), order=2)
    check_grads(lambda a: linalg.lu(a)[2], (a + 1j * _RNG.normal(size=shape),), order=1)


def test_lu_p_indices_and_block_diag_edges_as_scipy():
    a = _RNG.normal(size=(4, 4))
    np.testing.assert_array_equal(linalg.lu(a, p_indices=True)[0],
                                  scipy.linalg.lu(a, p_indices=True)[0])
    assert linalg.block_diag().shape == scipy.linalg.block_diag().shape
    np.testing.assert_array_equal(linalg.block_diag(1.0, [2, 3], [[4], [5]]),
                                  scipy.linalg.block_diag(1.0, [2, 3], [[4], [5]]))


def test_sqrtm_of_a_matrix_with_negative_eigenvalues_is_complex_as_scipy():
    a = np.array([[-4.0, 1.0], [0.0, 9.0]])
    np.testing.assert_allclose(linalg.sqrtm(a), scipy.linalg.sqrtm(a), rtol=1e-12)
    check_grads(lambda a: fnp.real(linalg.sqrtm(a)), (a,), order=1)


@pytest.mark.parametrize("call, error, message", [
    (lambda: linalg.solve_triangular(np.eye(2), np.ones(2), trans=3), ValueError, "trans"),
    (lambda: linalg.solve_triangular(np.eye(2), np.ones(3)), ValueError, "does not match"),
    (lambda: linalg.solve_triangular(np.ones((2, 3)), np.ones(2)), ValueError, "square"),
    (lambda: linalg.expm_frechet(np.eye(2), np.eye(3)), ValueError, "same shape"),
    (lambda: linalg.solve_sylvester(np.eye(2), np.eye(3), np.ones((3, 2))), ValueError,
     "q must be 2x3"),
    (lambda: linalg.solve_banded((1, 1), np.ones((2, 3)), np.ones(3)), ValueError,
     "l \\+ u \\+ 1 = 3 rows"),
    (lambda: linalg.solve_banded((1, 1), np.ones((3, 3)), np.ones(4)), ValueError,
     "does not match the 3 columns"),
    (lambda: linalg.solve_banded(1, np.ones((3, 3)), np.ones(3)), TypeError, "pair"),
    (lambda: linalg.eigh(np.eye(2), np.eye(2), type=4), ValueError, "type must be 1, 2 or 3"),
    (lambda: linalg.eigh(np.eye(2), np.eye(3)), ValueError, "a and b must have the same"),
    (lambda: linalg.eigh(np.eye(2), -np.eye(2)), np.linalg.LinAlgError, "positive definite"),
    (lambda: linalg.eigh(np.eye(2), subset_by_index=[1, 2]), ValueError, "0 <= lo <= hi < 2"),
    (lambda: linalg.eigh(np.eye(2), subset_by_index=[0, 1], subset_by_value=[0, 1]),
     ValueError, "not both"),
    (lambda: linalg.block_diag(np.ones((1, 1, 1))), ValueError, "at most 2"),
    (lambda: linalg.lu_solve((np.eye(2), np.zeros(3, int)), np.ones(2)), ValueError,
     "pivots"),
    (lambda: linalg.solve_triangular(np.array([[0.0, 0.0], [1.0, 0.0]]), np.ones(2)),
     np.linalg.LinAlgError, "solve_triangular"),
    # lu's derivative at a zero pivot, in both modes, square and wide (was solve_triangular's
    # error: a function the caller never called)
    (lambda: fg.grad(lambda a: fnp.sum(linalg.lu(a)[2]))(np.array([[0.0, 1.0], [0.0, 5.0]])),
     np.linalg.LinAlgError, "lu: cannot differentiate where U has a zero on its diagonal"),
    (lambda: fg.jvp(lambda a: linalg.lu(a)[1], (np.array([[0.0, 1.0, 2.0], [0.0, 5.0, 6.0]]),),
                    (np.ones((2, 3)),)),
     np.linalg.LinAlgError, "lu: cannot differentiate where U has a zero on its diagonal"),
    (lambda: linalg.solve(np.eye(2), np.ones(2), assume_a="bogus"), ValueError,
     "solve: assume_a='bogus' is not a recognized matrix structure"),
    (lambda: linalg.inv(np.eye(2), assume_a="tridiagonal"), ValueError,
     "inv: assume_a='tridiagonal'"),
    (lambda: linalg.solve(np.ones((2, 3)), np.ones(2)), ValueError, "square matrix"),
    (lambda: linalg.solve(np.eye(2), np.ones(3)), ValueError, "b needs 2 rows"),
    (lambda: linalg.solve(np.eye(2), np.ones((3, 1))), ValueError, r"\(\.\.\., N, K\)"),
    (lambda: linalg.solve(np.eye(2) * 1j, np.ones(2), transposed=True), NotImplementedError,
     "complex"),
    (lambda: linalg.det(np.ones(3)), ValueError, "det: expected a square matrix"),
    (lambda: linalg.qr(np.eye(2), pivoting=True), NotImplementedError, "pivoting"),
    (lambda: linalg.qr(np.eye(2), mode="raw"), ValueError, "'raw' is not supported"),
    (lambda: linalg.svd(np.eye(2), lapack_driver="gesvj"), ValueError, "lapack_driver"),
    (lambda: linalg.hankel(np.ones((2, 3))), ValueError, "hankel: c must be 1-d"),
])
def test_bad_arguments_are_named(call, error, message):
    with pytest.raises(error, match=message):
        call()


_STRUCTURES = [None, "gen", "general", "sym", "symmetric", "her", "hermitian", "pos",
               "positive definite", "diagonal", "tridiagonal", "banded", "upper triangular",
               "lower triangular"]


@pytest.mark.parametrize("assume_a", _STRUCTURES)
@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("complex_", [False, True])
def test_solve_and_inv_read_what_scipy_reads(assume_a, lower, complex_):
    """On a matrix that has none of the structures, SciPy's solvers read only their part
    of it (a triangle, a band): funcgrad's results are SciPy's."""
    a = _NOT_HERMITIAN + (1j * _RNG.uniform(-1, 1, (3, 3)) if complex_ else 0)
    b = _RNG.normal(size=(3, 2))
    np.testing.assert_allclose(linalg.solve(a, b, lower=lower, assume_a=assume_a),
                               scipy.linalg.solve(a, b, lower=lower, assume_a=assume_a),
                               rtol=1e-12)
    np.testing.assert_allclose(linalg.solve(a, b[:, 0], lower=lower, assume_a=assume_a),
                               scipy.linalg.solve(a, b[:, 0], lower=lower, assume_a=assume_a),
                               rtol=1e-12)
    # (SciPy 1.17's inv leaves the off-diagonal entries of a 'diagonal' inverse unset,
    # and takes the short names of the three others alone.)
    if assume_a not in ("tridiagonal", "banded", "diagonal", "symmetric", "hermitian",
                        "positive definite"):
        np.testing.assert_allclose(linalg.inv(a, assume_a=assume_a, lower=lower),
                                   scipy.linalg.inv(a, assume_a=assume_a, lower=lower),
                                   rtol=1e-12)


@pytest.mark.parametrize("assume_a", ["sym", "her", "pos", "diagonal", "lower triangular"])
def test_structured_solves_differentiate_the_part_they_read(assume_a):
    b = _RNG.normal(size=(3, 2))
    check_grads(lambda a: linalg.solve(a, b, assume_a=assume_a, lower=True), (_NOT_HERMITIAN,),
                order=2)


@pytest.mark.parametrize("mode", ["full", "economic", "r"])
@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (3, 3)])
def test_qr_modes_shapes_as_scipy(mode, shape):
    a = _RNG.normal(size=shape)
    ours, theirs = linalg.qr(a, mode=mode), scipy.linalg.qr(a, mode=mode)
    assert [x.shape for x in ours] == [x.shape for x in theirs]
    for x, y in zip(ours, theirs):  # (columns' signs are LAPACK's in both)
        np.testing.assert_allclose(x, y, rtol=1e-12, atol=1e-12)


def test_matrices_from_vectors_as_scipy():
    c, r = _RNG.normal(size=3) + 0.5j, _RNG.normal(size=4)
    stacked = _RNG.normal(size=(2, 3))
    for ours, theirs in [(linalg.toeplitz(c), scipy.linalg.toeplitz(c)),
                         (linalg.toeplitz(c, r), scipy.linalg.toeplitz(c, r)),
                         (linalg.toeplitz(stacked, r), scipy.linalg.toeplitz(stacked, r)),
                         (linalg.toeplitz(2.0), scipy.linalg.toeplitz(2.0)),
                         (linalg.hankel(c), scipy.linalg.hankel(c)),
                         (linalg.hankel(c, r), scipy.linalg.hankel(c, r)),
                         (linalg.circulant(stacked), scipy.linalg.circulant(stacked)),
                         (linalg.hilbert(3), scipy.linalg.hilbert(3))]:
        assert ours.dtype == theirs.dtype
        np.testing.assert_array_equal(ours, theirs)


def _with_eigenvalues(eigenvalues, seed):
    basis = np.eye(len(eigenvalues)) + 0.3 * np.random.default_rng(seed).normal(
        size=(len(eigenvalues),) * 2)
    return basis @ np.diag(eigenvalues) @ np.linalg.inv(basis)


@pytest.mark.parametrize("sort", [None, "lhp", "iuc"])
def test_real_schur_values_and_derivatives(sort):
    # Real eigenvalues: T is triangular, Z's columns are defined up to sign, and both T
    # and Z are differentiable functions of a (finite differences of SciPy's own).
    a = _with_eigenvalues([1.5, -2.0, 3.0, 0.5], seed=0)  # none on the sorts' boundaries
    ours = linalg.schur(a, sort=sort)
    for x, y in zip(ours, scipy.linalg.schur(a, sort=sort)):
        np.testing.assert_array_equal(x, y)
    check_grads(lambda a: linalg.schur(a, sort=sort)[:2], (a,), order=2)


def test_complex_schur_derivatives_of_what_the_phases_do_not_change():
    # Z's phases are SciPy's arbitrary choice: |T|, T's diagonal and Z D Z^H are functions
    # of a; the tangent of Z has Z^H dZ of zero diagonal.
    rng = np.random.default_rng(1)

    def invariants(a):
        t, z = linalg.schur(a, output="complex")
        return fnp.abs(t) ** 2, fnp.diagonal(t), (z * np.arange(1.0, 5.0)) @ fnp.conj(z).T
    for a in (rng.normal(size=(4, 4)), rng.normal(size=(4, 4)) + 1j * rng.normal(size=(4, 4))):
        check_grads(invariants, (a,), order=2)
        t, z = linalg.schur(a, output="complex")
        _, (dt, dz) = fg.jvp(lambda a: linalg.schur(a, output="complex"), (a,), (a.T,))
        np.testing.assert_allclose(np.diagonal(z.conj().T @ dz), 0, atol=1e-12)


def test_schur_errors_and_the_real_form_with_complex_eigenvalues():
    rotation = np.array([[0.0, 1.0], [-1.0, 0.0]])
    np.testing.assert_array_equal(linalg.schur(rotation)[0], scipy.linalg.schur(rotation)[0])
    with pytest.raises(NotImplementedError, match="real Schur form of a matrix with complex "
                                                  "eigenvalues"):
        fg.grad(lambda a: fnp.sum(linalg.schur(a)[0]))(rotation)
    with pytest.raises(ValueError, match="schur: output must be 'real' or 'complex'"):
        linalg.schur(rotation, output="hermitian")
    with pytest.raises(ValueError, match="schur: sort must be None, 'lhp'"):
        linalg.schur(rotation, sort=lambda x: x > 0)
    with pytest.raises(ValueError, match="schur: a must be one square matrix"):
        linalg.schur(np.ones((2, 2, 2)))


def _generalized_problem(complex_, seed):
    """A non-Hermitian a and b (the functions read one triangle) whose triangle's b is
    positive definite."""
    rng = np.random.default_rng(seed)
    draw = (lambda: rng.normal(size=(3, 3)) + 1j * rng.normal(size=(3, 3))) if complex_ else (
        lambda: rng.normal(size=(3, 3)))
    return draw(), draw() + 6 * np.eye(3)


@pytest.mark.parametrize("complex_", [False, True])
@pytest.mark.parametrize("type", [1, 2, 3])
@pytest.mark.parametrize("lower", [True, False])
def test_generalized_eigh_values_and_derivatives(complex_, type, lower):
    a, b = _generalized_problem(complex_, seed=type)
    w, v = linalg.eigh(a, b, lower=lower, type=type)
    expected_w, expected_v = scipy.linalg.eigh(a, b, lower=lower, type=type)
    np.testing.assert_allclose(w, expected_w, rtol=1e-13, atol=1e-13)
    # Eigenvectors are SciPy's up to each column's sign (phase): here equal to rounding.
    overlap = np.sum(np.conj(expected_v) * v, axis=0)
    np.testing.assert_allclose(v, expected_v * (overlap / np.abs(overlap)), atol=1e-13)
    np.testing.assert_allclose(linalg.eigvalsh(a, b, lower=lower, type=type), expected_w,
                               rtol=1e-13, atol=1e-13)

    def phase_free(a, b):
        w, v = linalg.eigh(a, b, lower=lower, type=type)
        return w, fnp.abs(v) ** 2
    check_grads(phase_free, (a, b), order=1 if complex_ else 2)


def test_eigh_subsets_as_scipy():
    a, b = _generalized_problem(False, seed=5)
    for subset in ({"subset_by_index": [1, 2]}, {"subset_by_value": [-1.0, 0.5]},
                   {"subset_by_value": [50.0, 60.0]}):
        np.testing.assert_allclose(linalg.eigvalsh(a, b, **subset),
                                   scipy.linalg.eigvalsh(a, b, **subset), rtol=1e-13)
        np.testing.assert_allclose(linalg.eigvalsh(a, **subset),
                                   scipy.linalg.eigvalsh(a, **subset), rtol=1e-13)
    check_grads(lambda a, b: linalg.eigh(a, b, subset_by_index=[0, 1])[0], (a, b), order=2)


_CONSTANT_CALLS = {"logm": (np.eye(2) * 2,), "pinv": (_NOT_HERMITIAN,),
                   "lstsq": (_NOT_HERMITIAN, np.ones(3)), "polar": (_NOT_HERMITIAN,),
                   "eigvals": (_NOT_HERMITIAN,), "null_space": (np.ones((2, 3)),),
                   "hessenberg": (_NOT_HERMITIAN,), "issymmetric": (np.eye(2),)}


def test_scipys_other_functions_run_on_constants_as_scipy():
    for name in FOR_CONSTANTS:
        assert getattr(linalg, name).__wrapped__ is getattr(scipy.linalg, name), name
    for name, args in _CONSTANT_CALLS.items():
        ours, theirs = getattr(linalg, name)(*args), getattr(scipy.linalg, name)(*args)
        for x, y in zip(*(r if isinstance(r, tuple) else (r,) for r in (ours, theirs))):
            np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("transform", [
    lambda f, x: fg.grad(lambda x: fnp.sum(f(x)))(x), lambda f, x: fg.jit(f)(x),
    lambda f, x: fg.vmap(f)(fnp.stack([x, x]))])
def test_scipys_other_functions_refuse_traced_values_by_name(transform):
    with pytest.raises(TypeError, match="scipy.linalg.logm has no derivative rule in "
                                        "funcgrad: it takes constant arrays only"):
        transform(linalg.logm, np.eye(2) * 2)


def test_every_function_of_autograds_scipy_linalg_is_here():
    """A script importing a function from autograd.scipy.linalg finds it in
    funcgrad.autograd.scipy.linalg (autograd wraps all of SciPy's)."""
    autograd_linalg = pytest.importorskip("autograd.scipy.linalg")
    import funcgrad.autograd.scipy.linalg as ours
    missing = [name for name in dir(scipy.linalg) if not name.startswith("_")
               and name != "test"  # (SciPy's test runner)
               and callable(getattr(scipy.linalg, name)) and hasattr(autograd_linalg, name)
               and not hasattr(ours, name)]
    assert not missing
