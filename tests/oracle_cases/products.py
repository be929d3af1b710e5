"""Oracle cases: matmul, dot, tensordot, einsum, the products built on them, convolutions,
trapezoid, polyval, interp, cov and corrcoef."""
import hypothesis.strategies as st
import numpy as np

from oracle import Case, array, dtypes, floats


@st.composite
def matmul_args(draw):
    """Vectors, matrices, and batched stacks with broadcast batch dimensions."""
    m, k, n = (draw(st.integers(1, 3)) for _ in range(3))
    batch = tuple(draw(st.lists(st.integers(1, 2), max_size=2)))
    kinds = draw(st.sampled_from(["vv", "vm", "mv", "mm", "bb", "bm", "mb", "bv"]))
    a_shape = {"v": (k,), "m": (m, k), "b": batch + (m, k)}[kinds[0]]
    b_shape = {"v": (k,), "m": (k, n),
               "b": tuple(1 if draw(st.booleans()) else s for s in batch) + (k, n)}[kinds[1]]
    return (draw(array(a_shape, draw(dtypes()))), draw(array(b_shape, draw(dtypes())))), {}


@st.composite
def dot_args(draw):
    k = draw(st.integers(1, 3))
    a_shape = draw(st.sampled_from([(), (k,), (2, k), (2, 3, k)]))
    b_shape = draw(st.sampled_from([(), (k,), (k, 2), (2, k, 3)]))
    return (draw(array(a_shape, draw(dtypes()))), draw(array(b_shape, draw(dtypes())))), {}


@st.composite
def tensordot_args(draw):
    a_shape = (2, 3, 2)
    b_shape = (3, 2, 2)
    axes = draw(st.sampled_from([0, ((2,), (1,)), ((1,), (0,)), ((1, 2), (0, 1)), ((2, 1), (1, 0)),
                                 ((0,), (2,)), ((-1,), (-2,))]))
    return (draw(array(a_shape, draw(dtypes()))), draw(array(b_shape, draw(dtypes())))), {
        "axes": axes}


_EINSUM = [
    ("ij,jk->ik", [(2, 3), (3, 2)]), ("ij,jk", [(2, 3), (3, 2)]), ("i,i->", [(3,), (3,)]),
    ("i,j->ij", [(2,), (3,)]), ("ii->i", [(3, 3)]), ("ii", [(3, 3)]), ("ij->", [(2, 3)]),
    ("ij->j", [(2, 3)]), ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]),
    ("...ij,...jk->...ik", [(2, 2, 3), (3, 2)]), ("ij,jk,kl->il", [(2, 3), (3, 2), (2, 2)]),
    ("iij->ij", [(2, 2, 3)]), ("ij,ij->ij", [(2, 3), (2, 3)]), ("i...->...", [(2, 3)]),
    ("ji", [(2, 3)]), ("ik,k...->i...", [(2, 3), (3, 1, 2)]),
]


@st.composite
def einsum_args(draw):
    subscripts, arg_shapes = draw(st.sampled_from(_EINSUM))
    return tuple(draw(array(s, draw(dtypes()))) for s in arg_shapes), {
        "subscripts": subscripts}


def complex_array(draw, shape, dtype=np.complex128, low=-2.0, high=2.0):
    real_dtype = np.float32 if dtype == np.complex64 else np.float64
    parts = [draw(array(shape, real_dtype, low, high)) for _ in range(2)]
    return (parts[0] + 1j * parts[1]).astype(dtype)


# The cases below check several related calls at once and draw from a few fixed shapes:
# JAX compiles once per case, shape and dtype, and compilation dominates their time.


@st.composite
def arrays_like(draw, layouts):
    """Arrays with the shapes and dtype of one of ``layouts``: (shapes, dtype) pairs."""
    shapes, dtype = draw(st.sampled_from(layouts))
    if np.dtype(dtype).kind == "c":
        return tuple(complex_array(draw, shape, dtype) for shape in shapes), {}
    return tuple(draw(array(shape, dtype)) for shape in shapes), {}


F32, F64, C128 = np.float32, np.float64, np.complex128


def _vector_products(np, a, b):
    return np.vdot(a, b), np.inner(a, b), np.outer(a, b), np.kron(a, b), np.inner(a[0], b)


def _array_products(np, a, b):
    return np.inner(a, b), np.outer(a, b), np.kron(a, b), np.kron(b, a[0]), np.vdot(a, a)


def _crosses(np, a, b):
    # a: (2, 3) vectors, b: one 3-vector; every mix of 2- and 3-vectors, and moved axes.
    return (np.cross(a, b), np.cross(a[..., :2], b), np.cross(a, b[:2]),
            np.cross(a[..., :2], b[:2]), np.cross(a.T, b, axisa=0),
            np.cross(a.T, a, axisa=0, axisc=0), np.cross(a, a[::-1], axis=1))


def _convolutions(np, a, v):
    return tuple(f(x, y, mode) for mode in ("full", "same", "valid")
                 for f in (np.convolve, np.correlate) for x, y in ((a, v), (v, a)))


def _trapezoids(np, y, x_along_last, x_full, dx):
    return (np.trapezoid(y), np.trapezoid(y, axis=0), np.trapezoid(y, x_along_last),
            np.trapezoid(y, x_full, axis=0), np.trapezoid(y, dx=dx), np.trapezoid(y, dx=0.5))


@st.composite
def trapezoid_args(draw):
    shape = draw(st.sampled_from([(3,), (2, 3)]))
    dtype = draw(dtypes())
    return (draw(array(shape, dtype)), draw(array((shape[-1],), dtype)),
            draw(array(shape, dtype)), draw(array((), dtype, 0.1, 2.0))), {}


_SAMPLE_POINTS = np.array([-1.0, 0.0, 0.5, 2.0])


@st.composite
def interp_args(draw):
    # x hits the sample points and the ends (kinks), and lies outside them too.
    x = draw(array((6,), np.float64, -2.0, 3.0,
                   elements=st.one_of(st.sampled_from([-2.0, -1.0, 0.0, 0.5, 2.0, 2.5]),
                                      floats(-2.0, 3.0))))
    fp = draw(array((4,), draw(dtypes())))
    return (x, fp, draw(array((), np.float64)), draw(array((), np.float64))), {}


def _interps(np, x, fp, left, right):
    return (np.interp(x, _SAMPLE_POINTS, fp), np.interp(x[0], _SAMPLE_POINTS, fp),
            np.interp(x, _SAMPLE_POINTS, fp, left=left, right=right),
            np.interp(x, _SAMPLE_POINTS, fp, period=3.0))


@st.composite
def cov_args(draw):
    """One or more variables (rows), observations with integer and float weights.
    float64 only: NumPy computes covariances in float64 where JAX keeps float32."""
    shape = draw(st.sampled_from([(4,), (2, 3), (3, 4)]))
    observations = shape[-1]
    # A trend keeps every variable from being constant (corrcoef divides by the spread).
    m = draw(array(shape, np.float64, -0.2, 0.2)) + np.arange(observations)
    frequencies = np.array(draw(st.lists(st.integers(1, 3), min_size=observations,
                                         max_size=observations)))
    return (m, frequencies, draw(array((observations,), np.float64, 0.5, 2.0))), {}


def _covariances(np, m, fweights, aweights):
    # With ddof=1 and these weights the normalization stays positive.
    return (np.cov(m), np.cov(m, bias=True), np.cov(m, ddof=0), np.cov(m, rowvar=False),
            np.cov(m, m * m), np.cov(m, fweights=fweights), np.cov(m, aweights=aweights),
            np.cov(m, fweights=fweights, aweights=aweights, ddof=1), np.corrcoef(m),
            np.corrcoef(m, m * m))


def _corrcoef(np, m):
    return np.corrcoef(m), np.cov(m)


CASES = [
    Case("matmul", lambda np, a, b: np.matmul(a, b), matmul_args(), order=2),
    Case("matmul_operator", lambda np, a, b: a @ b, matmul_args()),
    Case("dot", lambda np, a, b: np.dot(a, b), dot_args(), order=2),
    Case("tensordot", lambda np, a, b, axes: np.tensordot(a, b, axes), tensordot_args(),
         order=2),
    Case("einsum", lambda np, *ops, subscripts: np.einsum(subscripts, *ops), einsum_args(),
         order=2),
    Case("vector_products", _vector_products,
         arrays_like([(((1,), (1,)), F64), (((3,), (3,)), F32), (((3,), (3,)), C128)])),
    Case("array_products", _array_products,
         arrays_like([(((2, 3), (1, 2, 3)), F64), (((1, 2), (3, 2)), F32)])),
    Case("cross", _crosses, arrays_like([(((2, 3), (3,)), F64), (((2, 3), (3,)), F32)])),
    Case("convolve_correlate", _convolutions,
         arrays_like([(((1,), (3,)), F64), (((4,), (2,)), F32), (((3,), (4,)), C128)]),
         order=2),
    Case("trapezoid", _trapezoids, trapezoid_args()),
    Case("polyval", lambda np, p, x: (np.polyval(p, x), np.polyval(p[:1], x)),
         arrays_like([(((4,), ()), F64), (((2,), (2, 3)), F32)]), order=2),
    Case("interp", _interps, interp_args()),
    Case("cov_corrcoef", _covariances, cov_args()),
    # As in cov_args, the real part's noise is small beside the trend, so no variable is
    # (nearly) constant: at a spread of 1e-8 corrcoef's derivatives are 1e8 and rounding
    # at that scale swamps the comparison.
    Case("corrcoef_complex", _corrcoef, st.builds(
        lambda real, imag: ((real + 1j * imag + np.arange(3),), {}),
        array((2, 3), np.float64, -0.2, 0.2), array((2, 3), np.float64, -1.0, 1.0))),
]
