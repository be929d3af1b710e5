"""Oracle cases: numpy.linalg.tensorinv and tensorsolve, on diagonally dominant (so
well-conditioned) tensors."""
import hypothesis.strategies as st
import numpy as np

from oracle import Case, array, dtypes


@st.composite
def tensor_args(draw):
    dtype = draw(dtypes())
    # Seen as a 6x6 matrix: the identity times 3 plus entries within 0.4.
    a = (3 * np.eye(6) + draw(array((6, 6), dtype, -0.4, 0.4))).astype(dtype)
    return (a.reshape(2, 3, 6), a.reshape(2, 3, 3, 2), draw(array((2, 3), dtype))), {}


def _tensor(np, a, a4, b):
    return (np.linalg.tensorinv(a, ind=2), np.linalg.tensorinv(a4, ind=2),
            np.linalg.tensorsolve(a, b), np.linalg.tensorsolve(a4, b),
            np.linalg.tensorsolve(np.moveaxis(a4, 3, 0), b, axes=(0,)))


CASES = [Case("linalg_tensorinv_tensorsolve", _tensor, tensor_args(), order=2)]
