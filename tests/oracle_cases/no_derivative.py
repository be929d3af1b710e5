"""Oracle cases: functions whose results carry no derivative (bin numbers, membership,
index arrays), used inside differentiated functions, where traced arguments are read for
their values."""
import hypothesis.strategies as st
import numpy

from oracle import Case, array, dtypes, shapes


@st.composite
def with_bins(draw):
    dtype = draw(dtypes())
    x = draw(array(draw(shapes(0, 2)), dtype))
    edges = draw(st.lists(st.integers(-6, 6), min_size=1, max_size=4, unique=True))
    bins = numpy.sort(numpy.asarray(edges, dtype)) / 2  # on the grid x's integers hit too
    return (x, bins), {"right": draw(st.booleans())}


@st.composite
def with_tests(draw):
    dtype = draw(dtypes())
    return (draw(array(draw(shapes(0, 2)), dtype)), draw(array((3,), dtype))), {}


@st.composite
def square(draw):
    n = draw(st.integers(1, 3))
    return (draw(array((n, n), draw(dtypes()))),), {}


CASES = [
    # The derivative is the bin number (x) and 0 (bins), as in JAX. (Cast: NumPy promotes
    # float32 * int64 to float64, JAX keeps float32.)
    Case("digitize", lambda np, x, bins, right: x * np.digitize(x, bins, right=right).astype(
        x.dtype), with_bins(), order=2),
    Case("isin", lambda np, x, tests: x * np.isin(x, tests), with_tests(), order=2),
    Case("indices_from", lambda np, x: (np.tril_indices_from(x), np.triu_indices_from(x, 1),
                                        np.diag_indices_from(x)),
         square(), differentiable=False),
]
