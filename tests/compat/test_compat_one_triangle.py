"""compat's eigh, eigvalsh, cholesky and pinv(hermitian=True) keep PyTorch's gradients at
matrices that are not Hermitian: PyTorch symmetrises the triangle's cotangent (and
evaluates pinv's general rule), where funcgrad.numpy.linalg differentiates the function
of the triangle it reads (tests/test_linalg_one_triangle.py)."""
import numpy as np
import pytest
import torch

import compat

_FUNCTIONS = {
    "eigh_L": lambda lib, a: lib.linalg.eigh(a)[0],
    "eigh_U_vectors": lambda lib, a: lib.linalg.eigh(a, UPLO="U")[1].abs(),
    "eigvalsh_U": lambda lib, a: lib.linalg.eigvalsh(a, UPLO="U"),
    "cholesky": lambda lib, a: lib.linalg.cholesky(a),
    "cholesky_upper": lambda lib, a: lib.linalg.cholesky(a, upper=True),
    "pinv_hermitian": lambda lib, a: lib.linalg.pinv(a, hermitian=True),
}


@pytest.mark.parametrize("shape", [(3, 3), (2, 3, 3)], ids=str)
@pytest.mark.parametrize("name", sorted(_FUNCTIONS))
def test_gradient_is_torchs(name, shape):
    rng = np.random.default_rng(4)
    a = rng.uniform(-1, 1, shape) + np.diag([4.0, 9.0, 14.0])
    results = []
    for lib in (torch, compat):
        x = lib.tensor(a, requires_grad=True)
        out = _FUNCTIONS[name](lib, x)
        weights = lib.tensor(np.random.default_rng(5).normal(size=tuple(out.shape)))
        (out * weights).sum().backward()
        results.append((np.asarray(out.detach().numpy()), np.asarray(x.grad.numpy())))
    (torch_value, torch_grad), (value, grad) = results
    np.testing.assert_allclose(value, torch_value, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(grad, torch_grad, rtol=1e-9, atol=1e-12)
