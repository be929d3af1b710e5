"""jacrev's and jacfwd's basis as a diagonal batch (funcgrad.numpy._diagonal): each rule
against JAX, against the dense basis in chunks (chunk_size below the basis size) and, bit
for bit, against jit's dense basis; constants that put NaNs off the diagonal (0 * inf);
and the rules found taking the path they are there for."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.special as fss
from funcgrad.core import batching
from funcgrad.numpy import _diagonal as diagonal_rules

jax.config.update("jax_enable_x64", True)

RNG = np.random.default_rng(7)
N = 5
A = RNG.standard_normal((N, N))
B = RNG.standard_normal((3, N))
V = RNG.standard_normal(N)

# (name, function of (np_, x), input): together they reach every diagonal rule, from both
# operand orders where a rule has two.
CASES = [
    ("product by an array", lambda np_, x: x * V, V),
    ("product, array first", lambda np_, x: V * np_.sin(x), V),
    ("product by a number", lambda np_, x: 2.5 * x * 3, V),
    ("product by a broadcast row", lambda np_, x: x * V[None, :3], RNG.standard_normal((2, 3))),
    ("product by a 0-d array", lambda np_, x: x * np_.asarray(1.5), V),
    ("product of two diagonals", lambda np_, x: x * x, V),
    ("sum and difference", lambda np_, x: (x + x) - np_.sin(x) * 2.0, V),
    ("difference, dense first", lambda np_, x: A @ x - x, V),
    ("difference, diagonal first", lambda np_, x: x - A @ x, V),
    ("sum, dense first", lambda np_, x: np_.tanh(A @ x) * x + x, V),
    ("negation", lambda np_, x: -np_.exp(x), V),
    ("matrix times vector", lambda np_, x: np_.tanh(A @ x) * x, V),
    ("wide matrix times vector", lambda np_, x: B @ np_.sin(x), V),
    ("vector times matrix", lambda np_, x: np_.cos(x @ A), V),
    ("vector times vector", lambda np_, x: np_.sin(x) @ V * x, V),
    ("where and maximum (ReLUs)",
     lambda np_, x: np_.where(x > 0, x, 0.0) * V + np_.maximum(x, 0.0) * 2.0,
     np.array([0.5, -1.0, 0.0, 2.0, -0.25])),
    ("clip", lambda np_, x: np_.clip(x * 3.0, -1.0, 1.0), V),
    ("softmax (a sum over the element)",
     lambda np_, x: np_.exp(x - np_.max(x)) / np_.sum(np_.exp(x - np_.max(x))), V),
    ("a sum over a matrix input, kept", lambda np_, x: x * np_.sum(x * x, keepdims=True),
     RNG.standard_normal((2, 3))),
    ("a sum over one axis of a matrix input", lambda np_, x: np_.sum(np_.sin(x), axis=1),
     RNG.standard_normal((2, 3))),
    ("reshape", lambda np_, x: np_.reshape(np_.sin(x), (-1,)) * np_.arange(6.0),
     RNG.standard_normal((2, 3))),
    ("a matrix input", lambda np_, x: np_.tanh(x @ A[:3]) * 2.0, RNG.standard_normal((4, 3))),
    ("float32 input, float64 output", lambda np_, x: x.astype(np_.float64) * V,
     V.astype(np.float32)),
]


@pytest.mark.parametrize("name, fun, x", CASES, ids=[case[0] for case in CASES])
@pytest.mark.parametrize("transform", ["jacrev", "jacfwd", "hessian"])
def test_diagonal_basis_matches_jax_and_the_dense_basis(transform, name, fun, x):
    if transform == "hessian":
        ours = fg.hessian(lambda x: fnp.sum(fnp.sin(fun(fnp, x))))
        dense = fg.jacfwd(fg.jacrev(lambda x: fnp.sum(fnp.sin(fun(fnp, x)))),
                          chunk_size=x.size - 1)
        theirs = jax.hessian(lambda x: jnp.sum(jnp.sin(fun(jnp, x))))
    else:
        ours = getattr(fg, transform)(lambda x: fun(fnp, x))
        dense = getattr(fg, transform)(lambda x: fun(fnp, x), chunk_size=x.size - 1)
        theirs = getattr(jax, transform)(lambda x: fun(jnp, x))
    result = ours(x)
    expected = np.asarray(jax.jit(theirs)(x))
    assert result.dtype == expected.dtype and result.shape == expected.shape
    np.testing.assert_allclose(result, expected, rtol=1e-12 if x.dtype == np.float64 else 1e-6,
                               atol=1e-12)
    # Chunks of another size than the whole basis may round differently in a later dense
    # product (BLAS picks its kernel by the sizes).
    np.testing.assert_allclose(result, dense(x), rtol=1e-14, atol=0)
    staged = fg.jit(ours)  # the whole basis, dense: jit's boxes are no constants
    for _ in range(2):  # traced, then interpreted: eager's bits, signed zeros included
        assert staged(x).tobytes() == result.tobytes()


def test_complex_holomorphic_basis_matches_jax():
    z = RNG.standard_normal(N) + 1j * RNG.standard_normal(N)
    c = RNG.standard_normal(N) + 1j * RNG.standard_normal(N)

    def fun(np_, z):
        return np_.conj(np_.conj(z) * c) - A @ z

    for transform in ("jacrev", "jacfwd"):
        ours = getattr(fg, transform)(lambda z: fun(fnp, z), holomorphic=True)(z)
        dense = getattr(fg, transform)(lambda z: fun(fnp, z), holomorphic=True,
                                       chunk_size=N - 1)(z)
        theirs = getattr(jax, transform)(lambda z: fun(jnp, z), holomorphic=True)(z)
        np.testing.assert_allclose(ours, np.asarray(theirs), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(ours, dense, rtol=1e-14, atol=0)


# Constants that put a NaN off the dense batch's diagonal (0 * inf, 0 * nan) or overflow:
# the Jacobian is the dense basis's, NaNs where it has them (the matrix product declines).
INFINITE = np.array([1.0, np.inf, 2.0, 3.0, 4.0])
NAN = np.array([1.0, 2.0, np.nan, 3.0, 4.0])
INFINITE_MATRIX = np.where(np.eye(N) > 0, np.inf, A)
NON_FINITE = [
    ("infinite factor", lambda np_, x: x * INFINITE),
    ("nan factor", lambda np_, x: np_.sin(x) * NAN),
    ("infinite number", lambda np_, x: x * np.inf),
    ("infinite matrix", lambda np_, x: INFINITE_MATRIX @ x),
    ("overflowing factor", lambda np_, x: x * np.full(N, 1e200)),
]


@pytest.mark.parametrize("name, fun", NON_FINITE, ids=[case[0] for case in NON_FINITE])
@pytest.mark.parametrize("transform", ["jacrev", "jacfwd"])
def test_non_finite_constants_give_the_dense_jacobian(transform, name, fun):
    ours = getattr(fg, transform)(lambda x: fun(fnp, x))(V)
    dense = getattr(fg, transform)(lambda x: fun(fnp, x), chunk_size=N - 1)(V)
    np.testing.assert_array_equal(ours, dense)
    assert fg.jit(getattr(fg, transform)(lambda x: fun(fnp, x)))(V).tobytes() == ours.tobytes()
    theirs = np.asarray(getattr(jax, transform)(lambda x: fun(jnp, x))(V))
    np.testing.assert_array_equal(np.isnan(ours), np.isnan(theirs))
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)


def _recording_rules(monkeypatch):
    """The names of the primitives whose diagonal rule computed a result, as they do."""
    kept = []
    for primitive, rule in list(batching._diagonal_rules.items()):
        def recording(primitive, trace, args, params, rule=rule):
            out = rule(primitive, trace, args, params)
            if out is not None:
                kept.append(primitive.name)
            return out
        monkeypatch.setitem(batching._diagonal_rules, primitive, recording)
    return kept


def test_rules_take_the_diagonal_path(monkeypatch):
    """jacrev of tanh(A @ x) * x (the vmap benchmark's) computes on the diagonal: products
    by the residuals, the matrix product as a scaling, the sum into a dense batch."""
    kept = _recording_rules(monkeypatch)
    materialized = []
    dense_value = batching.DiagonalBatchBox.value.fget
    monkeypatch.setattr(batching.DiagonalBatchBox, "value",
                        property(lambda box: materialized.append(box) or dense_value(box)))
    fg.jacrev(lambda x: fnp.tanh(A @ x) * x)(V)
    assert sorted(kept) == ["add", "matmul", "multiply", "multiply", "multiply"]
    assert materialized == []


# ---- each rule against the dense batch it stands for, bit for bit ---------------------------

SHAPE = (2, 3)
SPECIAL = np.array([[0.0, -0.0, np.inf], [np.nan, -1.5, 2.0]])


def _diagonal_pair(trace, seed):
    rng = np.random.default_rng(seed)
    diagonal = rng.standard_normal(SHAPE)
    off = np.where(rng.random(SHAPE) < 0.5, SPECIAL, rng.standard_normal(SHAPE))
    return batching.diagonal_batch(trace, diagonal, off)


def _dense_of(box):
    """The dense batch a box stands for: its value, with the batch in front."""
    return np.moveaxis(box.value, box.axis, 0)


BINARY = ["add", "subtract", "multiply", "true_divide", "maximum", "arctan2", "power"]
OPERANDS = ["diagonal, constant", "constant, diagonal", "diagonal, diagonal", "diagonal, dense",
            "dense, diagonal", "diagonal, row", "number, diagonal"]
CALLS = ([(name, operands) for name in BINARY for operands in OPERANDS]
         + [(name, "diagonal") for name in ["sin", "negative", "exp", "real", "conjugate"]]
         + [("where", "mask, diagonal, number"), ("where", "mask, constant, diagonal"),
            ("where", "mask, diagonal, diagonal")]
         # a special function implemented in Python (not a ufunc), of a constant order
         + [("scipy.special.iv", "number, diagonal")])


@pytest.mark.parametrize("name, operands", CALLS, ids=[" of ".join(call) for call in CALLS])
def test_elementwise_rules_give_the_dense_bits(name, operands):
    primitive = (getattr(fss, name.rpartition(".")[2]) if name.startswith("scipy")
                 else getattr(fnp, name))
    rng = np.random.default_rng(3)
    with fg.core.new_trace(batching.BatchTrace, 6) as trace:
        made = {"diagonal": lambda: _diagonal_pair(trace, 1),
                "constant": lambda: np.where(rng.random(SHAPE) < 0.3, SPECIAL,
                                             rng.standard_normal(SHAPE)),
                "row": lambda: rng.standard_normal(3),
                "number": lambda: -2.5,
                "mask": lambda: rng.random(SHAPE) < 0.5,
                "dense": lambda: batching.BatchBox(rng.standard_normal((2, 6, 3)), trace, 1)}
        args = [made[kind]() for kind in operands.split(", ")]
        dense_args = [batching.BatchBox(_dense_of(a), trace, 0)
                      if isinstance(a, batching.BatchBox) else a for a in args]
        with np.errstate(all="ignore"):
            out = primitive(*args)
            expected = primitive(*dense_args)
        # A diagonal result unless a dense batch was among the operands.
        assert (type(out) is batching.DiagonalBatchBox) == ("dense" not in operands)
        assert _dense_of(out).tobytes() == _dense_of(expected).tobytes()


MATRICES = {"random": RNG.standard_normal((N, 4)), "with a zero": np.eye(N, 4) + 1.0,
            "with an infinity": np.where(np.eye(N, 4) > 0, np.inf, 1.0)}


@pytest.mark.parametrize("order", ["diagonal @ matrix", "matrix @ diagonal",
                                   "diagonal @ vector"])
@pytest.mark.parametrize("matrix", list(MATRICES), ids=list(MATRICES))
@pytest.mark.parametrize("diagonal", ["random", "with a zero", "with a signed zero off it"])
def test_matrix_product_rule_gives_the_dense_bits(order, matrix, diagonal):
    m = MATRICES[matrix]
    scales = RNG.standard_normal(N)
    if diagonal == "with a zero":
        scales[2] = 0.0
    off = np.full(N, -0.0) if diagonal == "with a signed zero off it" else np.zeros(N)
    with fg.core.new_trace(batching.BatchTrace, N) as trace:
        box = batching.diagonal_batch(trace, scales, off)
        dense = batching.BatchBox(_dense_of(box), trace, 0)
        operands = {"diagonal @ matrix": lambda x: (x, m), "matrix @ diagonal": lambda x: (m.T, x),
                    "diagonal @ vector": lambda x: (x, m[:, 0])}[order]
        with np.errstate(all="ignore"):
            out = fnp.matmul(*operands(box))
            expected = fnp.matmul(*operands(dense))
        assert _dense_of(out).tobytes() == _dense_of(expected).tobytes()


def _nested(np_):
    return lambda x: np_.tanh(A @ x) * x + np_.sin(x) ** 2


# Inside another transform the residuals are that transform's boxes, not constants: the
# rules decline and the basis is dense.
NESTED = {
    "vmap(jacrev)": (lambda m: m.vmap(m.jacrev(_nested(m.numpy))), 2),
    "vmap(jacfwd)": (lambda m: m.vmap(m.jacfwd(_nested(m.numpy))), 2),
    "grad of a jacrev": (lambda m: m.grad(lambda x: m.numpy.sum(
        m.jacrev(_nested(m.numpy))(x) ** 2)), 1),
    "jacrev(jacrev)": (lambda m: m.jacrev(m.jacrev(_nested(m.numpy))), 1),
    "jacfwd(jacfwd)": (lambda m: m.jacfwd(m.jacfwd(_nested(m.numpy))), 1),
    "jacrev(checkpoint)": (lambda m: m.jacrev(m.checkpoint(_nested(m.numpy))), 1),
}


class _Jax:
    numpy = jnp
    vmap, jacrev, jacfwd, grad, checkpoint = jax.vmap, jax.jacrev, jax.jacfwd, jax.grad, \
        jax.checkpoint


@pytest.mark.parametrize("name", list(NESTED))
def test_jacobians_inside_other_transforms_match_jax(name):
    make, rank = NESTED[name]
    x = RNG.standard_normal((3, N)) if rank == 2 else V
    np.testing.assert_allclose(make(fg)(x), np.asarray(make(_Jax)(x)), rtol=1e-12, atol=1e-12)


def test_jit_records_the_diagonal_path_and_guards_its_decisions(monkeypatch):
    """Under jit the residuals are jit's values: the rules compute with primitives, which
    jit records, and the matrix product's tests of the values are guards. A zero in x
    zeroes a row of the scaled matrix: the guard fails, jit traces the dense product, and
    each call has eager's bits."""
    kept = _recording_rules(monkeypatch)
    fun = lambda x: fnp.tanh(A @ x) * x  # noqa: E731
    staged, eager = fg.jit(fg.jacrev(fun)), fg.jacrev(fun)
    with_zero, with_another_zero = V.copy(), V.copy()
    with_zero[2] = with_another_zero[4] = 0.0
    # (the guards are on the decisions: another zero decides the same, no new trace)
    for x, traces in [(V, 1), (V * 2.0, 1), (with_zero, 2), (with_another_zero, 2), (V, 2)]:
        assert staged(x).tobytes() == eager(x).tobytes()
        assert staged.trace_count == traces
    assert "matmul" in kept[:4] and kept[:4].count("multiply") == 3  # the first trace's


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("diagonal", ["random", "with a zero", "with a NaN", "nonzero off it"])
def test_sum_rule_gives_the_dense_bits(diagonal, keepdims):
    scales = RNG.standard_normal(SHAPE)
    off = np.full(SHAPE, -0.0)
    if diagonal == "with a zero":
        scales[0, 1] = -0.0
    elif diagonal == "with a NaN":
        scales[1, 0] = np.nan
    elif diagonal == "nonzero off it":
        off[1, 2] = 1e-300
    with fg.core.new_trace(batching.BatchTrace, 6) as trace:
        box = batching.diagonal_batch(trace, scales, off)
        dense = batching.BatchBox(_dense_of(box), trace, 0)
        out = fnp.sum(box, keepdims=keepdims)
        expected = fnp.sum(dense, keepdims=keepdims)
        assert _dense_of(out).tobytes() == _dense_of(expected).tobytes()
        assert _dense_of(out).shape == _dense_of(expected).shape


# Every ufunc primitive with the shared elementwise diagonal rule (NumPy's and SciPy's, in
# the registry once funcgrad.scipy.special is imported), in every layout its arity
# allows: the rule gives the dense batch's bits, or both raise the same error (an
# integer-only ufunc on floats).
ELEMENTWISE = sorted(
    (name, primitive.impl.nin) for name, primitive in fg.core.registry.items()
    if batching._diagonal_rules.get(primitive) is diagonal_rules.elementwise
    and isinstance(primitive.impl, np.ufunc) and primitive.impl.nin <= 2)
LAYOUTS = {1: ["diagonal"], 2: ["diagonal, constant", "constant, diagonal",
                                "diagonal, diagonal", "diagonal, dense", "dense, diagonal"]}
REGISTRY_CALLS = [(name, layout) for name, arity in ELEMENTWISE for layout in LAYOUTS[arity]]


@pytest.mark.parametrize("name, operands", REGISTRY_CALLS,
                         ids=[" of ".join(call) for call in REGISTRY_CALLS])
def test_every_elementwise_primitive_gives_the_dense_bits(name, operands):
    primitive = fg.core.registry[name]
    rng = np.random.default_rng(5)
    with fg.core.new_trace(batching.BatchTrace, 6) as trace:
        made = {"diagonal": lambda: _diagonal_pair(trace, 2),
                "constant": lambda: np.where(rng.random(SHAPE) < 0.3, SPECIAL,
                                             rng.standard_normal(SHAPE)),
                "dense": lambda: batching.BatchBox(rng.standard_normal((2, 6, 3)), trace, 1)}
        args = [made[kind]() for kind in operands.split(", ")]
        dense_args = [batching.BatchBox(_dense_of(a), trace, 0)
                      if isinstance(a, batching.BatchBox) else a for a in args]
        outcomes = []
        for operands_of_a_run in (args, dense_args):
            try:
                with np.errstate(all="ignore"):
                    out = primitive(*operands_of_a_run)
                outcomes.append(_dense_of(out))
            except TypeError as error:  # (ufuncs of integers: both refuse floats)
                outcomes.append(type(error))
        ours, dense = outcomes
        if isinstance(dense, type):
            assert ours is dense
        else:
            assert ours.dtype == dense.dtype and ours.tobytes() == dense.tobytes()
