"""Oracle cases: numpy.fft.hfft and ihfft (Hermitian-symmetric signals)."""
import hypothesis.strategies as st

from oracle import Case
from oracle_cases.fft import NORMS, signal


@st.composite
def hermitian_args(draw, complex_):
    shape = draw(st.sampled_from([(3,), (2, 4)]))
    axis = draw(st.sampled_from([-1, 0]))
    n = draw(st.sampled_from([None, 3, 6]))
    return (draw(signal(shape, complex_)),), {"n": n, "axis": axis, "norm": draw(NORMS)}


CASES = [
    Case("fft.hfft", lambda np, x, **k: np.fft.hfft(x, **k), hermitian_args(None), order=2),
    Case("fft.ihfft", lambda np, x, **k: np.fft.ihfft(x, **k), hermitian_args(False),
         order=2),
]
