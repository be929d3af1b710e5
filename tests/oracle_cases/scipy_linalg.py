"""Oracle cases: scipy.linalg (against jax.scipy.linalg, and SciPy's values where a case
has no `jax_fun`). JAX cannot differentiate its solve_sylvester and sqrtm (they go through
a Schur decomposition), so those cases are checked against JAX transcriptions of their
definitions: a Kronecker-product solve, and the Denman-Beavers iteration.
"""
import hypothesis
import hypothesis.strategies as st
import jax.lax.linalg
import jax.numpy as jnp
import jax.scipy.linalg
import numpy
import scipy.linalg

import funcgrad.scipy.linalg
from oracle import Case, array, dtypes
from oracle_cases.linalg import (COMPLEX, _as_read, _magnitudes, _reconstruct,
                                 one_triangle_positive_definite, separated_singular_values)

_LINALG = {"funcgrad.numpy": funcgrad.scipy.linalg, "jax.numpy": jax.scipy.linalg,
           "numpy": scipy.linalg}

# (n, batch shape, complex, k right-hand sides or None for a vector)
_LAYOUTS = [(1, (), False, 2), (3, (), False, None), (2, (), True, 3), (3, (2,), False, 1)]


def linalg(np):
    return _LINALG[np.__name__]


def _draw(draw, shape, dtype, complex_, low=-1.0, high=1.0):
    x = draw(array(shape, dtype, low, high))
    if complex_:
        x = (x + 1j * draw(array(shape, dtype, low, high))).astype(COMPLEX[dtype])
    return x


@st.composite
def dominant(draw, layouts=_LAYOUTS, permute=True):
    """Diagonally dominant matrices, rows maybe permuted (so that LU pivots), and
    right-hand sides; neither triangle is zero."""
    n, batch, complex_, k = draw(st.sampled_from(layouts))
    dtype = draw(dtypes())
    a = _draw(draw, batch + (n, n), dtype, complex_) + 5 * numpy.eye(n, dtype=dtype)
    if permute and n > 1 and draw(st.booleans()):
        a = a[..., ::-1, :].copy()
    b = _draw(draw, batch + ((n,) if k is None else (n, k)), dtype, complex_, -2.0, 2.0)
    return (a, b), {}


def _triangular_solves(np, a, b):
    solve = linalg(np).solve_triangular
    return tuple(solve(a, b, trans, lower, unit) for trans in (0, 1, "C")
                 for lower in (False, True) for unit in (False, True))


def _expm(np, a, e):
    la = linalg(np)
    return (la.expm(a),) + tuple(la.expm_frechet(a, e)) + (
        la.expm_frechet(a, e, compute_expm=False),)


def _jax_expm(a, e):
    # SciPy's expm_frechet (and funcgrad's) computes in double precision; JAX's keeps
    # float32.
    a64, e64 = a.astype(jnp.float64), e.astype(jnp.float64)
    la = jax.scipy.linalg
    return (la.expm(a),) + tuple(la.expm_frechet(a64, e64)) + (
        la.expm_frechet(a64, e64, compute_expm=False),)


@st.composite
def expm_args(draw):
    n, batch = draw(st.sampled_from([(1, ()), (2, ()), (3, ()), (2, (2,))]))
    dtype = draw(dtypes())
    return tuple(draw(array(batch + (n, n), dtype, -1.0, 1.0)) for _ in range(2)), {}


def _lu(np, a, b):
    la = linalg(np)
    p, l, u = la.lu(a)
    factored = la.lu_factor(a)
    return (p, l, u) + tuple(la.lu(a, permute_l=True)) + (factored[0],) + tuple(
        la.lu_solve(factored, b, trans) for trans in (0, 1, 2))


@st.composite
def rectangular(draw):
    """Tall and wide matrices (maybe complex) whose rectangular identity part dominates, so
    that the pivots are not ties; rows maybe reversed (LU pivots). Not stacked: JAX's lu
    of a stack of rectangular matrices fails (tests/test_scipy_linalg.py has them)."""
    shape = draw(st.sampled_from([(3, 2), (2, 3), (4, 2), (2, 4)]))
    dtype = draw(dtypes())
    a = _draw(draw, shape, dtype, draw(st.booleans())) + 5 * numpy.eye(*shape[-2:], dtype=dtype)
    if draw(st.booleans()):
        a = a[..., ::-1, :].copy()
    return (a,), {}


def _lu_rectangular(np, a):
    la = linalg(np)
    return tuple(la.lu(a)) + tuple(la.lu(a, permute_l=True)) + (la.lu_factor(a)[0],)


def _one_triangle(np, a, b, read=lambda a, uplo: a):
    """Functions of one triangle of ``a``; JAX, which symmetrises, is given the matrix
    read (``read``)."""
    la = linalg(np)
    lower_c, _ = la.cho_factor(read(a, "L"), lower=True)
    upper_c, _ = la.cho_factor(read(a, "U"))
    outputs = (la.cholesky(read(a, "U")), la.cholesky(read(a, "L"), lower=True),
               np.tril(lower_c), np.triu(upper_c),
               la.cho_solve((lower_c, True), b), la.cho_solve((upper_c, False), b))
    for uplo in "LU":
        w, v = la.eigh(read(a, uplo), lower=uplo == "L")
        outputs += (w, la.eigh(read(a, uplo), lower=uplo == "L", eigvals_only=True),
                    np.einsum("ij,j,kj->ik", v, np.sin(w), np.conj(v)))
    return outputs


@st.composite
def one_triangle_args(draw):
    (a,), _ = draw(one_triangle_positive_definite().filter(lambda drawn: drawn[0][0].ndim == 2))
    b = _draw(draw, (a.shape[-1], 2), a.real.dtype.type, numpy.iscomplexobj(a), -2.0, 2.0)
    return (a, b), {}


def _sylvester_sqrtm(np, a, b, q):
    la = linalg(np)
    return la.solve_sylvester(a, b, q), la.sqrtm(a)


def _jax_sylvester_sqrtm(a, b, q):
    m, n = a.shape[-1], b.shape[-1]
    # vec(A X + X B) = (I kron A + B^T kron I) vec(X), vec stacking columns.
    operator = jnp.kron(jnp.eye(n, dtype=a.dtype), a) + jnp.kron(b.T, jnp.eye(m, dtype=a.dtype))
    x = jnp.linalg.solve(operator, q.T.reshape(-1)).reshape(n, m).T
    # Denman-Beavers: y -> sqrt(a). A loop rather than 30 unrolled steps: one step's
    # program, which JAX compiles (with its second derivatives) in a fraction of the time.
    y, _ = jax.lax.fori_loop(
        0, 30, lambda _, yz: ((yz[0] + jnp.linalg.inv(yz[1])) / 2,
                              (yz[1] + jnp.linalg.inv(yz[0])) / 2),
        (a, jnp.eye(m, dtype=a.dtype)))
    return x, y


@st.composite
def sylvester_args(draw):
    m, n = draw(st.sampled_from([(1, 1), (2, 3), (3, 2)]))
    dtype = draw(dtypes())
    # Eigenvalues near 3 and 5: a and -b share none, and a has a real square root.
    a = draw(array((m, m), dtype, -0.5, 0.5)) + 3 * numpy.eye(m, dtype=dtype)
    b = draw(array((n, n), dtype, -0.5, 0.5)) + 5 * numpy.eye(n, dtype=dtype)
    return (a, b, draw(array((m, n), dtype, -2.0, 2.0))), {}


@st.composite
def blocks(draw):
    shapes = draw(st.sampled_from([[(2, 2), (1, 3), (2,)], [(), (2, 1)], [(3,)]]))
    return tuple(draw(array(shape, draw(dtypes()), -2.0, 2.0)) for shape in shapes), {}


# ((l, u), columns, b's shape): JAX has no solve_banded; its case solves the dense matrix.
_BANDS = [((1, 1), 4, (4,)), ((0, 2), 3, (3, 2)), ((2, 0), 3, (3,)), ((1, 2), 5, (5, 1))]


@st.composite
def banded(draw):
    (lower, upper), n, b_shape = draw(st.sampled_from(_BANDS))
    dtype = draw(dtypes())
    ab = draw(array((lower + upper + 1, n), dtype, -1.0, 1.0))
    ab[upper] += 5     # the diagonal: diagonally dominant
    return (ab, draw(array(b_shape, dtype, -2.0, 2.0))), {"l_and_u": (lower, upper)}


def _jax_solve_banded(ab, b, l_and_u):
    """The dense matrix of the band storage ab[u + i - j, j] = A[i, j], solved."""
    upper, n = l_and_u[1], ab.shape[-1]
    a = 0
    for r in range(ab.shape[0]):
        k = upper - r
        a = a + jnp.diag(ab[r, k:] if k >= 0 else ab[r, :n + k], k)
    return jnp.linalg.solve(a, b)


@st.composite
def schur_args(draw):
    """A 3 by 3 matrix V diag(w) V^-1 (V near the identity, w well apart: a well-conditioned
    Schur form), real with real eigenvalues (output 'real') or with a complex pair, or
    complex (output 'complex'); and SciPy's Schur diagonal, which orders JAX's eigenvalues."""
    dtype = draw(dtypes())
    kind = draw(st.sampled_from(["real", "pair", "complex"]))
    basis = numpy.eye(3) + 0.3 * draw(array((3, 3), numpy.float64))
    if kind == "complex":
        basis = basis + 0.3j * draw(array((3, 3), numpy.float64))
    # A nearly singular V makes JAX's eigenvector route lose float32 digits (1e-4 in T,
    # found by the explore profile).
    hypothesis.assume(numpy.linalg.cond(basis) < 4.0)
    if kind == "pair":
        rotation = numpy.array([[0.5, 1.5, 0.0], [-1.5, 0.5, 0.0], [0.0, 0.0, -1.0]])
        a = basis @ rotation @ numpy.linalg.inv(basis)
    else:
        spacing = numpy.array(draw(st.permutations([-2.0, 0.5, 2.5])))
        a = basis @ numpy.diag(spacing) @ numpy.linalg.inv(basis)
    a = a.astype(COMPLEX[dtype] if kind == "complex" else dtype)
    output = "real" if kind == "real" else "complex"
    # The order of the output's own diagonal: LAPACK's real and complex Schur forms of one
    # matrix can order the eigenvalues differently (found by the explore profile).
    diagonal = numpy.diagonal(scipy.linalg.schur(a, output=output)[0]).astype(numpy.complex128)
    return (a, diagonal), {"output": output}


def _schur_invariants(np, t, z):
    """What Z's column signs (real) or phases (complex) do not change: |T|**2, T's diagonal
    and Z diag(1, 2, 3) Z^H."""
    weighted = z * numpy.array([1.0, 2.0, 3.0], numpy.result_type(z).type(0).real.dtype)
    return np.abs(t) ** 2, np.diagonal(t), weighted @ np.conj(z).T


def _schur(np, a, diagonal, output):
    return _schur_invariants(np, *linalg(np).schur(a, output=output))


def _jax_schur(a, diagonal, output):
    """The Schur form from eigenvectors: ordered as SciPy's diagonal, V = Q R gives
    A = Q (R diag(w) R^-1) Q^H, Q Schur vectors and R diag(w) R^-1 triangular."""
    # Eigenvector derivatives are valid here (distinct eigenvalues): JAX asks to opt in.
    w, v = jax.lax.linalg.eig(a, compute_left_eigenvectors=False, enable_eigvec_derivs=True)
    order = jnp.argmin(abs(w[None, :] - diagonal[:, None]), axis=1)
    w, v = w[order], v[:, order]
    q, r = jnp.linalg.qr(v)
    t = r @ jnp.diag(w) @ jnp.linalg.inv(r)
    if output == "real":  # real eigenvalues: real Schur vectors, up to the phases
        phases = q.sum(axis=0) / abs(q.sum(axis=0))
        t, q = (t * phases.conj()[:, None] * phases[None, :]).real, (q / phases).real
    dtype = a.dtype if output == "real" else jnp.result_type(a, 1j)
    return _schur_invariants(jnp, t.astype(dtype), q.astype(dtype))


# The structures SciPy's solve and inv read part of `a` for; `lower` picks the triangle of
# the first three. (inv has no 'tridiagonal'.)
_TRIANGLE_READS = ("sym", "her", "pos")
_BAND_READS = ("diagonal", "tridiagonal", "upper triangular", "lower triangular")


def _dense(np, a, b, read=None):
    """det, inv and solve, general and with each structure. funcgrad is asked with
    `assume_a`; JAX, which reads the whole matrix, is given the matrix SciPy's solver reads
    (`read`)."""
    la = linalg(np)
    outputs = (la.det(a), la.inv(a), la.solve(a, b))
    if a.dtype.kind != "c":
        outputs += ((la.solve(a, b, transposed=True) if read is None
                     else la.solve(np.swapaxes(a, -1, -2), b)),)
    structures = [(s, lower) for s in _TRIANGLE_READS for lower in (False, True)]
    for structure, lower in structures + [(s, False) for s in _BAND_READS]:
        if read is None:
            outputs += (la.solve(a, b, assume_a=structure, lower=lower),)
            if structure != "tridiagonal":
                outputs += (la.inv(a, assume_a=structure, lower=lower),)
        else:
            matrix = read(a, structure, lower)
            outputs += (la.solve(matrix, b),)
            if structure != "tridiagonal":
                outputs += (la.inv(matrix),)
    return outputs


def _jax_read(a, structure, lower):
    """The matrix SciPy's solver for `structure` reads from `a`, spelt out for JAX."""
    if structure == "sym":
        strict = jnp.tril(a, -1) if lower else jnp.triu(a, 1)
        return strict + jnp.swapaxes(strict, -1, -2) + jnp.tril(jnp.triu(a))
    if structure in ("her", "pos"):
        return _as_read(a, "L" if lower else "U")
    below, above = {"diagonal": (0, 0), "tridiagonal": (1, 1), "upper triangular": (0, None),
                    "lower triangular": (None, 0)}[structure]
    kept = a if above is None else jnp.tril(a, above)
    return kept if below is None else jnp.triu(kept, -below)


def _decompositions(np, a):
    """svd and qr with SciPy's signatures (the singular vectors through functions that do
    not depend on their signs)."""
    la = linalg(np)
    u, s, vh = la.svd(a, full_matrices=False)
    outputs = (s, _reconstruct(np, u, s, vh), _magnitudes(np, u), _magnitudes(np, vh),
               la.svd(a, compute_uv=False))
    return (outputs + tuple(la.qr(a)) + tuple(la.qr(a, mode="economic"))
            + tuple(la.qr(a, mode="r")))


@st.composite
def structured_vectors(draw):
    """A column and a row (maybe complex, maybe stacked: toeplitz and circulant take
    batches) for the matrices built from vectors."""
    rows, columns = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    dtype = draw(dtypes())
    batch = draw(st.sampled_from([(), (), (2,)]))
    complex_ = draw(st.booleans())
    return (_draw(draw, batch + (rows,), dtype, complex_),
            _draw(draw, batch + (columns,), dtype, complex_)), {}


def _norms_and_products(np, a):
    la = linalg(np)
    return (la.norm(a), la.norm(a, 2), la.norm(a, "fro"), la.norm(a, 1, axis=-1),
            la.norm(a, keepdims=True), la.svdvals(a), la.khatri_rao(a, np.sin(a)))


def _jax_norms_and_products(a):
    columns = a.shape[-1]
    return (jnp.linalg.norm(a), jnp.linalg.norm(a, 2), jnp.linalg.norm(a, "fro"),
            jnp.linalg.norm(a, 1, axis=-1), jnp.linalg.norm(a, keepdims=True),
            jnp.linalg.svdvals(a),
            jnp.einsum("ij,kj->ikj", a, jnp.sin(a)).reshape(-1, columns))


def _special_matrices(np, c, r):
    la = linalg(np)
    outputs = (la.toeplitz(c, r), la.toeplitz(c), la.circulant(c))
    if c.ndim == 1:
        outputs += (la.hankel(c, r), la.hankel(c))
    return outputs


CASES = [
    Case("scipy_linalg_solve_banded",
         lambda np, ab, b, l_and_u: linalg(np).solve_banded(l_and_u, ab, b), banded(),
         jax_fun=_jax_solve_banded, order=2),
    Case("scipy_linalg_solve_triangular", _triangular_solves, dominant(permute=False),
         order=2),
    Case("scipy_linalg_expm", _expm, expm_args(), jax_fun=_jax_expm, order=2,
         costly_oracle=True),
    Case("scipy_linalg_lu", _lu, dominant(_LAYOUTS[:3]), costly_oracle=True),
    Case("scipy_linalg_lu_rectangular", _lu_rectangular, rectangular(), order=2,
         costly_oracle=True),
    Case("scipy_linalg_cholesky_eigh", _one_triangle, one_triangle_args(),
         jax_fun=lambda a, b: _one_triangle(jnp, a, b, _as_read)),
    Case("scipy_linalg_sylvester_sqrtm", _sylvester_sqrtm, sylvester_args(),
         jax_fun=_jax_sylvester_sqrtm, order=2),
    Case("scipy_linalg_schur", _schur, schur_args(), jax_fun=_jax_schur, diff=(0,)),
    Case("scipy_linalg_block_diag", lambda np, *arrays: linalg(np).block_diag(*arrays),
         blocks()),
    Case("scipy_linalg_det_inv_solve", _dense, dominant(permute=False),
         jax_fun=lambda a, b: _dense(jnp, a, b, _jax_read)),
    Case("scipy_linalg_svd_qr", _decompositions, separated_singular_values(exclude_zero=True)),
    Case("scipy_linalg_toeplitz_hankel_circulant", _special_matrices, structured_vectors()),
    Case("scipy_linalg_norm_svdvals_khatri_rao", _norms_and_products,
         separated_singular_values(layouts=[(2, 3, ()), (3, 2, ()), (3, 3, ())]),
         jax_fun=_jax_norms_and_products),
]
