"""Functions that read one triangle of their input (NumPy's eigh, eigvalsh, cholesky and
the hermitian=True forms of svd and pinv) differentiate the function they compute: finite
differences of funcgrad's own function, at matrices that are not Hermitian, agree with its
derivatives in both modes and to second order (the JAX oracle case linalg_cholesky_eigh
checks the same functions against JAX given the matrix each one reads)."""
import numpy as np
import pytest

import funcgrad.numpy as fnp
from funcgrad.test_util import check_grads

_FUNCTIONS = {
    "eigvalsh_L": lambda a: fnp.linalg.eigvalsh(a),
    "eigvalsh_U": lambda a: fnp.linalg.eigvalsh(a, UPLO="U"),
    "eigh_U_vectors": lambda a: fnp.abs(fnp.linalg.eigh(a, UPLO="U")[1]) ** 2,
    "eigh_L_vectors": lambda a: fnp.abs(fnp.linalg.eigh(a, UPLO="L")[1]) ** 2,
    "cholesky": lambda a: fnp.linalg.cholesky(a),
    "cholesky_upper": lambda a: fnp.linalg.cholesky(a, upper=True),
    "svd_hermitian": lambda a: fnp.linalg.svd(a, compute_uv=False, hermitian=True),
    "pinv_hermitian": lambda a: fnp.linalg.pinv(a, hermitian=True),
}


def _not_hermitian(complex_):
    rng = np.random.default_rng(3)
    a = rng.uniform(-1, 1, (3, 3)) + np.diag([4.0, 9.0, 14.0])
    if complex_:
        a = a + 1j * rng.uniform(-1, 1, (3, 3))
    return a


@pytest.mark.parametrize("complex_", [False, True], ids=["real", "complex"])
@pytest.mark.parametrize("name", sorted(_FUNCTIONS))
def test_derivative_is_that_of_the_triangle_read(name, complex_):
    a = _not_hermitian(complex_)
    assert not np.allclose(a, np.conj(a.T))
    check_grads(_FUNCTIONS[name], (a,), order=2)
