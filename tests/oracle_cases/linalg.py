"""Oracle cases: funcgrad.numpy.linalg.

Matrices are drawn well conditioned, with well-separated eigen- and singular values where
the derivative needs them. Eigen- and singular vectors are only determined up to signs
(phases), so those cases compare functions that do not depend on that choice, as JAX's
own tests do. JAX compiles once per case, shape and set of static arguments, so a case
draws from a few shapes and checks several related functions (or orders, or modes) at
once.
"""
import hypothesis.strategies as st
import jax
import jax.numpy as jnp
import numpy as np

from oracle import Case, array, well_scaled

COMPLEX = {np.float32: np.complex64, np.float64: np.complex128}

# (n, batch shape, dtype, complex) of the square matrices drawn: few, because each costs
# JAX a compilation.
_SQUARE_LAYOUTS = [(1, (3,), np.float64, False), (2, (), np.float64, True),
                   (3, (), np.float64, False), (2, (2,), np.float32, False)]
# The right-hand sides solved for with each layout: a stack broadcast against a's, a
# vector, a matrix, and a vector for a stack (NumPy 2's rule: b is a vector iff 1-D).
_RIGHT_HAND_SIDES = {(1, (3,)): (1, 1, 2), (2, ()): (2,), (3, ()): (3, 1), (2, (2,)): (2,)}
# (m, n, batch shape) of the rectangular ones.
_LAYOUTS = [(1, 1, ()), (3, 2, ()), (2, 3, ()), (3, 3, (2,))]


def _draw_matrix(draw, shape, dtype, complex_, low=-1.0, high=1.0, elements=None):
    value = draw(array(shape, dtype, low, high, elements=elements))
    if complex_:
        value = (value + 1j * draw(array(shape, dtype, low, high, elements=elements))).astype(
            COMPLEX[dtype])
    return value


@st.composite
def invertible(draw, layouts=_SQUARE_LAYOUTS):
    """Diagonally dominant matrices, some rows negated so that determinants take both
    signs, and right-hand sides for solve: vectors, matrices or stacks."""
    n, batch_shape, dtype, complex_ = draw(st.sampled_from(layouts))
    a = _draw_matrix(draw, batch_shape + (n, n), dtype, complex_) + 5 * np.eye(n, dtype=dtype)
    if draw(st.booleans()):
        a[..., 0, :] *= -1
    b_shape = _RIGHT_HAND_SIDES[n, batch_shape]
    return (a, _draw_matrix(draw, b_shape, dtype, complex_, -2.0, 2.0)), {}


@st.composite
def positive_definite(draw):
    """Hermitian positive definite matrices with eigenvalues within 3 of 4, 12 and 20."""
    n, batch_shape, dtype, complex_ = draw(st.sampled_from(_SQUARE_LAYOUTS))
    x = _draw_matrix(draw, batch_shape + (n, n), dtype, complex_, -0.5, 0.5)
    a = x + np.conj(np.swapaxes(x, -1, -2)) + np.diag([4.0, 12.0, 20.0][:n]).astype(dtype)
    return (a,), {}


@st.composite
def separated_singular_values(draw, complex_=None, layouts=_LAYOUTS, exclude_zero=False):
    """m x n matrices whose singular values are within 1.3 of 10, 6 and 2."""
    m, n, batch_shape = draw(st.sampled_from(layouts))
    complex_ = (m == 2) if complex_ is None else complex_
    elements = st.one_of(st.floats(-0.3, -0.05), st.floats(0.05, 0.3)) if exclude_zero else None
    a = _draw_matrix(draw, batch_shape + (m, n), np.float64, complex_, -0.3, 0.3, elements)
    k = min(m, n)
    a[..., np.arange(k), np.arange(k)] += np.array([10.0, 6.0, 2.0][:k])
    return (a,), {}


@st.composite
def separated_eigenvalues(draw):
    """Real matrices with distinct real eigenvalues (disjoint Gershgorin discs), real
    matrices with a complex pair, or complex matrices with distinct eigenvalues."""
    n, batch_shape, kind = draw(st.sampled_from([(1, (), "real"), (2, (), "pair"),
                                                 (3, (), "complex"), (3, (2,), "real")]))
    a = _draw_matrix(draw, batch_shape + (n, n), np.float64, kind == "complex", -0.4, 0.4)
    a = well_scaled(a) + np.diag([0.0, 3.0, 6.0][:n])
    if kind == "pair":
        a[..., 0, 1] += 2.0
        a[..., 1, 0] -= 2.0
    return (a,), {}


def _magnitudes(np, x):
    return np.real(x * np.conj(x))


def _inverses(np, a, b):
    sign, logabsdet = np.linalg.slogdet(a)
    return np.linalg.inv(a), np.linalg.solve(a, b), np.linalg.det(a), sign, logabsdet


@st.composite
def one_triangle_positive_definite(draw):
    """Positive definite matrices, Hermitian or plus noise within 0.3 everywhere (the
    imaginary part of the diagonal too): either triangle still reads as a positive definite
    matrix with separated eigenvalues, but the matrix itself is not Hermitian."""
    (a,), _ = draw(positive_definite())
    if draw(st.booleans()):
        return (a,), {}
    noise = _draw_matrix(draw, a.shape, a.real.dtype.type, np.iscomplexobj(a), -0.3, 0.3)
    return (a + noise,), {}


def _as_read(a, uplo):
    """The Hermitian matrix NumPy's eigh/cholesky read from the ``uplo`` triangle of
    ``a``, spelt out for JAX, which symmetrises its input instead."""
    triangle, k = (jnp.tril, -1) if uplo == "L" else (jnp.triu, 1)
    strict = triangle(a, k)
    diagonal = jnp.real(jnp.diagonal(a, axis1=-2, axis2=-1))
    return (strict + jnp.conj(jnp.swapaxes(strict, -1, -2))
            + diagonal[..., None] * jnp.eye(a.shape[-1], dtype=diagonal.dtype))


def _one_triangle(np, a, read=lambda a, uplo: a):
    """Functions of one triangle of ``a``: funcgrad reads it as NumPy; JAX is given the
    matrix read (``read``). Their derivatives must be those of the function computed."""
    outputs = (np.linalg.cholesky(read(a, "L")), np.linalg.cholesky(read(a, "L"), upper=True),
               np.linalg.eigvalsh(read(a, "U"), "U"), np.linalg.eigvalsh(read(a, "L")),
               np.linalg.svd(read(a, "L"), compute_uv=False, hermitian=True),
               np.linalg.pinv(read(a, "L"), hermitian=True))
    for uplo in "LU":
        w, v = np.linalg.eigh(read(a, uplo), UPLO=uplo)
        # V diag(sin(w)) V^H and |V|^2 do not depend on the eigenvectors' signs (phases).
        outputs += (w, np.einsum("...ij,...j,...kj->...ik", v, np.sin(w), np.conj(v)),
                    _magnitudes(np, v))
    return outputs


def _reconstruct(np, u, s, vh):
    """U diag(sin(s)) Vh: invariant under the phases of the singular vectors."""
    return np.matmul(u * np.sin(s)[..., None, :], vh)


def _svd(np, a):
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    outputs = (s, _reconstruct(np, u, s, vh), _magnitudes(np, u), _magnitudes(np, vh),
               np.linalg.svd(a, compute_uv=False), np.linalg.svdvals(a))
    if a.shape[-1] == a.shape[-2]:    # full and reduced coincide, and are differentiable
        u, s, vh = np.linalg.svd(a)
        outputs += (_reconstruct(np, u, s, vh),)
    return outputs + (np.linalg.pinv(a),)


def _svd_full(np, a):
    u, s, vh = np.linalg.svd(a, full_matrices=True)
    k = s.shape[-1]
    identity = np.matmul(u, np.conj(np.linalg.matrix_transpose(u)))
    return s, _reconstruct(np, u[..., :k], s, vh[..., :k, :]), identity


def _qr(np, a):
    return np.linalg.qr(a) + np.linalg.qr(a, mode="complete") + (np.linalg.qr(a, mode="r"),)


def _eig_vectors(np, w, v):
    # V diag(sin(w)) inv(V) does not depend on how eigenvectors are scaled; |V|^2 and
    # V * conj(V[0]) depend only on their norm (kept at 1 by both derivatives), not on the
    # phase each column is free to take, which the two derivatives choose differently.
    function = np.matmul(v * np.sin(w)[..., None, :], np.linalg.inv(v))
    return w, function, _magnitudes(np, v), v * np.conj(v[..., :1, :])


def _eig(np, a):
    return _eig_vectors(np, *np.linalg.eig(a)) + (np.linalg.eigvals(a),)


def _jax_eig(a):
    # jnp.linalg.eig refuses to differentiate eigenvectors unless asked to.
    w, v = jax.lax.linalg.eig(a, compute_left_eigenvectors=False, enable_eigvec_derivs=True)
    return _eig_vectors(jnp, w, v) + (jnp.linalg.eigvals(a),)


@st.composite
def lstsq_args(draw):
    (a,), _ = draw(separated_singular_values(complex_=False, layouts=_LAYOUTS[:3]))
    b_shape = draw(st.sampled_from([(a.shape[0],), (a.shape[0], 2)]))
    # No zero entries, so b is never in the range of a: JAX's residuals have no derivative
    # (NaN) where they vanish.
    return (a, draw(array(b_shape, np.float64, -2.0, 2.0, exclude_zero=True))), {}


def _lstsq(np, a, b):
    x, residuals, rank, s = np.linalg.lstsq(a, b)
    m, n = a.shape
    # JAX reports residuals even where NumPy (and funcgrad) return an empty array.
    return (x, residuals, rank, s) if m > n else (x, rank, s)


def _powers_and_conds(np, a):
    powers = tuple(np.linalg.matrix_power(a / 5.0, n) for n in (-2, -1, 0, 1, 2, 3, 5))
    return powers + tuple(np.linalg.cond(a, p) for p in (None, 2, -2, 1, -1, np.inf, "fro"))


_CHAINS = [[(3,), (3, 2), (2,)], [(1, 3), (3, 2), (2, 2), (2,)], [(2,), (2, 3), (3, 1), (1, 2)],
           [(3, 1), (1, 2)]]


@st.composite
def multi_dot_args(draw):
    return tuple(draw(array(s, np.float64, -2.0, 2.0)) for s in draw(st.sampled_from(_CHAINS))), {}


_VECTOR_ORDS = (None, 1, 2, np.inf, -np.inf, 0, 3, -1, 0.5)


@st.composite
def vectors(draw):
    shape = draw(st.sampled_from([(3,), (2, 3)]))
    return (draw(array(shape, np.float64, -2.0, 2.0, exclude_zero=True)),), {}


def _vector_norms(np, x):
    axis = None if x.ndim == 1 else 0
    return tuple(np.linalg.norm(x, ord, axis) for ord in _VECTOR_ORDS) + (
        np.linalg.norm(x), np.linalg.norm(x, 1, axis=-1, keepdims=True),
        np.linalg.vector_norm(x, axis=-1, keepdims=True, ord=3))


def _matrix_norms(np, x):
    # Norms from singular values only over the drawn matrices, whose singular values are
    # distinct and non-zero.
    other_axes = (0, -1) if x.ndim == 2 else (2, 0)
    return tuple(np.linalg.norm(x, ord, (-2, -1))
                 for ord in (None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf)) + tuple(
        np.linalg.norm(x, ord, (-1, -2)) for ord in ("nuc", 1, 2, -np.inf)) + tuple(
        np.linalg.norm(x, ord, other_axes) for ord in (1, np.inf)) + (
        np.linalg.norm(x, "fro") if x.ndim == 2 else np.linalg.norm(x),
        np.linalg.norm(x, 2, keepdims=True, axis=(-1, -2)),
        np.linalg.matrix_norm(x, ord="nuc"))


def _array_api(np, a, vectors):
    la = np.linalg
    diagonals = tuple(la.diagonal(a, offset=k) for k in (-1, 0, 2))
    traces = tuple(la.trace(a, offset=k) for k in (-1, 0, 1))
    return diagonals + traces + (
        la.matrix_transpose(a), la.vecdot(vectors, vectors[..., ::-1, :]),
        la.cross(vectors[..., 0, :], vectors[..., 1, :]),
        la.outer(np.ravel(vectors)[:3], np.ravel(a)[:2]),
        la.vector_norm(vectors, axis=(-2, -1), keepdims=True), la.vector_norm(vectors),
        la.matmul(a, la.matrix_transpose(a)), la.tensordot(a, a, axes=((-2, -1), (-2, -1))))


@st.composite
def array_api_args(draw):
    (a,), _ = draw(separated_singular_values(complex_=False, layouts=_LAYOUTS[1:3]))
    return (a, draw(array(a.shape[:-2] + (2, 3), np.float64, -2.0, 2.0))), {}


@st.composite
def matrix_rank_args(draw):
    n = draw(st.integers(1, 3))
    x = draw(array((n, n), np.float64, -2.0, 2.0))
    if draw(st.booleans()):
        x[0] = x[-1] * 2.0      # rank deficient
    return (x,), {}


CASES = [
    Case("linalg_inv_solve_det", _inverses, invertible(), order=2),
    Case("linalg_cholesky_eigh", _one_triangle, one_triangle_positive_definite(),
         jax_fun=lambda a: _one_triangle(jnp, a, _as_read), order=2),
    Case("linalg_svd_pinv", _svd, separated_singular_values()),
    # JAX cannot differentiate the extra singular vectors of full_matrices=True.
    Case("linalg_svd_full_values", _svd_full, separated_singular_values(),
         differentiable=False),
    # Exact zeros could make a matrix triangular already, where JAX's derivative of the
    # columns completing Q does not exist.
    Case("linalg_qr", _qr, separated_singular_values(exclude_zero=True)),
    Case("linalg_lstsq", _lstsq, lstsq_args()),
    # float64: XLA flushes the float32 subnormals that a / 5 can make to zero.
    Case("linalg_matrix_power_cond", _powers_and_conds,
         invertible(layouts=[layout for layout in _SQUARE_LAYOUTS
                             if layout[2] == np.float64 and not layout[3]])
         .map(lambda drawn: ((drawn[0][0],), {}))),
    Case("linalg_multi_dot", lambda np, *arrays: np.linalg.multi_dot(arrays),
         multi_dot_args()),
    # NumPy's eig returns real arrays when every eigenvalue is real; funcgrad and JAX
    # always return complex ones.
    Case("linalg_eig", _eig, separated_eigenvalues(), jax_fun=_jax_eig),
    Case("linalg_norm", _vector_norms, vectors()),
    Case("linalg_norm_matrix", _matrix_norms,
         separated_singular_values(complex_=False, layouts=_LAYOUTS[1:])),
    Case("linalg_matrix_rank", lambda np, a: np.linalg.matrix_rank(a), matrix_rank_args(),
         differentiable=False),
    Case("linalg_array_api", _array_api, array_api_args()),
]
