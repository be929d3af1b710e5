"""funcgrad.numpy's r_, c_, row_stack, real_if_close, scalar-type names, einsum's
interleaved (operand, sublist) form, the dtype= of reductions, sliding_window_view's
arguments and matmul's outer products (computed as multiplies): against JAX where it has
them, else NumPy's values plus check_grads."""
import warnings

import hypothesis.strategies as st
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.test_util import check_grads

jax.config.update("jax_enable_x64", True)

rng = np.random.default_rng(0)
x3 = rng.standard_normal(3)
m23 = rng.standard_normal((2, 3))


# ---- r_ and c_ ------------------------------------------------------------------------

# Index expressions, each written once as a function of the concatenator and two arrays.
EXPRESSIONS = {
    "arrays": lambda r, a, b: r[a, b],
    "slice and scalar": lambda r, a, b: r[a, 0:3, 5.0, b],
    "negative step": lambda r, a, b: r[10:2:-3, a],
    "complex step": lambda r, a, b: r[a, 0:1:5j, b],
    "lists": lambda r, a, b: r[[7.0, 8.0], a],
    "0-d arrays": lambda r, a, b: r[a[0], b[1], a],
    "float32 and Python scalar": lambda r, a, b: r[1.5, np.float32([1, 2])],
    "axis 1, 2-d": lambda r, a, b: r["1,2", a, b],
    "rows of 1-d": lambda r, a, b: r["0,2", a, b],
    "trans1d 0": lambda r, a, b: r["0,2,0", a, b],
    "3-d, trans1d -2": lambda r, a, b: r["-1,3,-2", a, b],
    "axis only": lambda r, a, b: r["0", a, b],
}


# c_ joins columns, so its items need matching lengths (here 3).
C_EXPRESSIONS = {
    "vectors": lambda c, a, b: c[a, b],
    "matrix and vector": lambda c, a, b: c[np.ones((3, 2)), a, b],
    "slices": lambda c, a, b: c[a, 0:3, 0:1:3j, b],
    "lists": lambda c, a, b: c[[7.0, 8.0, 9.0], a],
    "axis 0": lambda c, a, b: c["0", a, b],
}
CASES = [("r_", name, EXPRESSIONS[name]) for name in sorted(EXPRESSIONS)] + [
    ("c_", name, C_EXPRESSIONS[name]) for name in sorted(C_EXPRESSIONS)]


@pytest.mark.parametrize("which, name, expression", CASES,
                         ids=[f"{which}-{name}" for which, name, _ in CASES])
def test_r_and_c_match_jax_and_numpy(which, name, expression):
    ours = expression(getattr(fnp, which), x3, 2 * x3)
    theirs = expression(getattr(jnp, which), x3, 2 * x3)
    numpys = expression(getattr(np, which), x3, 2 * x3)
    assert type(ours) is np.ndarray
    assert ours.dtype == numpys.dtype == theirs.dtype and ours.shape == theirs.shape
    np.testing.assert_array_equal(ours, numpys)
    np.testing.assert_allclose(ours, theirs, rtol=1e-15)


@pytest.mark.parametrize("name", ["arrays", "slice and scalar", "0-d arrays", "axis 1, 2-d",
                                  "trans1d 0", "3-d, trans1d -2", "complex step"])
def test_gradients_through_r_match_jax(name):
    expression = EXPRESSIONS[name]
    weights_of = lambda np_, out: np_.sum(np_.sin(out) * np_.arange(out.size).reshape(out.shape))
    ours = fg.grad(lambda a, b: weights_of(fnp, expression(fnp.r_, a, b)), (0, 1))(x3, 2 * x3)
    theirs = jax.grad(lambda a, b: weights_of(jnp, expression(jnp.r_, a, b)), (0, 1))(
        x3, 2 * x3)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-13)


@given(rows=st.integers(1, 3), columns=st.lists(st.integers(0, 3), min_size=1, max_size=3))
def test_c_joins_columns_of_any_width_like_jax(rows, columns):
    pieces = [rng.standard_normal((rows, n)) for n in columns] + [rng.standard_normal(rows)]

    def joined_sum(np_, *pieces):
        return np_.sum(np_.c_[tuple(pieces)] ** 3)

    ours = fg.value_and_grad(lambda *p: joined_sum(fnp, *p), tuple(range(len(pieces))))(*pieces)
    theirs = jax.value_and_grad(lambda *p: joined_sum(jnp, *p), tuple(range(len(pieces))))(
        *pieces)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-13)
    for a, b in zip(ours[1], theirs[1]):
        np.testing.assert_allclose(a, b, rtol=1e-13)


def test_r_and_c_second_order():
    check_grads(lambda a, b: fnp.r_[a, b ** 2, 0.5] * fnp.r_["0,2,0", a, b].sum(), (x3, m23[0]),
                order=2)
    check_grads(lambda a, s: fnp.c_[a, fnp.r_[0:s:3j]] ** 2, (x3, 2.0), order=2)


def test_r_and_c_reject_what_numpy_and_jax_cannot_do_here():
    with pytest.raises(ValueError, match=r"r_: the directives 'r' and 'c' build numpy.matrix"):
        fnp.r_["r", [1, 2], [3, 4]]
    with pytest.raises(ValueError, match="string directive must be the first item"):
        fnp.r_[x3, "0,2"]
    with pytest.raises(ValueError, match="unknown directive 'x'"):
        fnp.r_["x", x3]
    with pytest.raises(ValueError, match="nothing to join"):
        fnp.r_[()]
    with pytest.raises(ValueError, match="trans1d=5"):
        fnp.r_["0,3,5", x3]
    with pytest.raises(ValueError):
        np.r_["0,3,5", x3]  # NumPy fails too (transpose with repeated axes)


# ---- row_stack and real_if_close ----------------------------------------------------------


def test_row_stack_is_vstack():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # NumPy 2 deprecates the name
        expected = np.row_stack([x3, 2 * x3, m23])
    np.testing.assert_array_equal(fnp.row_stack([x3, 2 * x3, m23]), expected)
    check_grads(lambda a, b: fnp.row_stack([a, b, a * b]), (x3, m23), order=2)


REAL_IF_CLOSE_CASES = [
    (np.array([1.0 + 1e-15j, 2.0]), {}),            # within 100 eps: real
    (np.array([1.0 + 1e-10j, 2.0]), {}),            # not within: complex
    (np.array([1.0 + 1e-10j, 2.0]), {"tol": 1e-9}), # absolute tolerance
    (np.array([1.0 + 1e-5j], np.complex64), {}),    # complex64's eps
    (np.array([1.0 + 1e-7j], np.complex64), {}),
    (np.array([1.5, 2.0]), {}),                     # already real
]


@pytest.mark.parametrize("a, kwargs", REAL_IF_CLOSE_CASES)
def test_real_if_close_matches_numpy(a, kwargs):
    ours, numpys = fnp.real_if_close(a, **kwargs), np.real_if_close(a, **kwargs)
    assert ours.dtype == numpys.dtype
    np.testing.assert_array_equal(ours, numpys)


def test_real_if_close_differentiates_the_branch_taken():
    z = np.array([0.5 + 1e-17j, -1.0 + 0j])
    assert fnp.real_if_close(z).dtype == np.float64
    # Real perturbations keep a real input real: the real branch throughout.
    check_grads(lambda x: fnp.real_if_close(fnp.astype(x, complex) * 2.0) ** 2, (x3,),
                order=2)
    # Far from real, small perturbations keep the complex branch.
    check_grads(lambda z: fnp.real_if_close(z * 2.0) ** 2, (np.array([0.5 + 0.3j]),),
                order=2)
    # The real branch keeps the real part's derivative; the complex branch is identity.
    np.testing.assert_allclose(fg.grad(lambda z: fnp.sum(fnp.real_if_close(z)))(z),
                               np.ones(2, complex))
    far = np.array([0.5 + 0.1j])
    np.testing.assert_allclose(
        fg.grad(lambda z: fnp.sum(fnp.abs(fnp.real_if_close(z)) ** 2))(far),
        jax.grad(lambda z: jnp.sum(jnp.abs(z) ** 2))(far), rtol=1e-15)


# ---- dtype and scalar-type names ------------------------------------------------------


def _numpy_scalar_type_names():
    return sorted(name for name in dir(np) if not name.startswith("_")
                  and isinstance(getattr(np, name), type)
                  and issubclass(getattr(np, name), np.generic))


def test_every_numpy_scalar_type_name_is_in_funcgrad_numpy():
    names = _numpy_scalar_type_names()
    assert {"longdouble", "float64", "intp", "complexfloating", "bool"} <= set(names)
    missing = [name for name in names if getattr(fnp, name, None) != getattr(np, name)]
    assert not missing, f"funcgrad.numpy lacks NumPy's scalar types {missing}"


@pytest.mark.parametrize("name", _numpy_scalar_type_names())
def test_scalar_types_stand_for_numpys_wherever_numpy_takes_a_type(name):
    ours, numpys = getattr(fnp, name), getattr(np, name)
    assert ours == numpys and numpys == ours and hash(ours) == hash(numpys)
    assert {numpys: name}[ours] == name
    assert issubclass(ours, numpys) and issubclass(numpys, ours)
    if numpys in (np.generic, np.number, np.integer, np.floating, np.complexfloating,
                  np.inexact, np.signedinteger, np.unsignedinteger, np.flexible,
                  np.character) or np.dtype(numpys).kind not in "biufc":
        assert ours is numpys  # nothing to convert: NumPy's own
        return
    value = numpys(1)
    assert isinstance(value, ours) and type(ours(1)) is type(value) and ours(1) == value
    assert np.dtype(ours) == np.dtype(numpys) and np.issubdtype(ours, numpys)
    assert np.zeros(2, ours).dtype == np.zeros(2, numpys).dtype == fnp.zeros(2, ours).dtype
    assert np.ones(2).astype(ours).dtype == np.dtype(numpys)
    assert ours() == numpys()
    np.testing.assert_array_equal(ours([1.5, 2.0]), numpys([1.5, 2.0]))


def test_the_aliases_of_one_numpy_type_are_one_type():
    assert fnp.intp is fnp.int64 is fnp.int_ and fnp.bool_ is fnp.bool
    assert fnp.double is fnp.float64 and fnp.longdouble is fnp.float128


# Conversions by calling a scalar type on a traced value, as jnp's types convert tracers.
CONVERSIONS = ["float32", "float64", "int32", "int64", "uint8", "bool", "complex128",
               "complex64"]


def _converted_sum(namespace, name):
    """x -> sum(x * T(x)) + sum(T(sum(x))): T(x) of an array and of a traced scalar."""
    def f(x):
        converted = getattr(namespace, name)
        return namespace.sum(x * converted(x)) + namespace.sum(converted(namespace.sum(x)))
    return f


@pytest.mark.parametrize("name", CONVERSIONS)
def test_calling_a_scalar_type_converts_a_traced_value_as_jax(name):
    x = np.array([0.3, 1.7, 2.4, 0.0])  # (unsigned types: no negative values to wrap)
    ours, theirs = _converted_sum(fnp, name), _converted_sum(jnp, name)
    value, want = ours(x), theirs(x)
    assert np.result_type(value) == want.dtype
    np.testing.assert_allclose(value, want, rtol=1e-6)
    if np.dtype(name).kind == "c":  # a complex output has no real gradient
        return
    for transform in (fg.grad, lambda f: fg.jit(fg.grad(f))):
        gradient = transform(ours)(x)
        expected = jax.grad(theirs)(x)
        assert gradient.dtype == expected.dtype
        np.testing.assert_allclose(gradient, expected, rtol=1e-6)
    batched = fg.vmap(lambda v: getattr(fnp, name)(v) * 2)(x)
    expected = jax.vmap(lambda v: getattr(jnp, name)(v) * 2)(x)
    assert batched.dtype == expected.dtype
    np.testing.assert_allclose(batched, expected, rtol=1e-6)
    tangent = np.array([1.0, -0.5, 2.0, 0.25])
    out, out_tangent = fg.jvp(ours, (x,), (tangent,))
    want_out, want_tangent = jax.jvp(theirs, (x,), (tangent,))
    np.testing.assert_allclose(out, want_out, rtol=1e-6)
    np.testing.assert_allclose(out_tangent, want_tangent, rtol=1e-6)


def test_calling_a_scalar_type_on_a_dask_array_keeps_it_lazy():
    da = pytest.importorskip("dask.array")
    lazy = da.from_array(np.array([1.5, 2.5]), chunks=1)
    converted = fnp.int32(lazy)
    assert isinstance(converted, da.Array) and converted.dtype == np.int32
    np.testing.assert_array_equal(converted.compute(), [1, 2])


@pytest.mark.parametrize("name", ["typecodes", "sctypeDict", "ScalarType", "True_", "False_",
                                  "mintypecode", "typename", "dtype", "finfo", "iinfo",
                                  "promote_types", "result_type", "can_cast", "issubdtype",
                                  "isdtype"])
def test_dtype_tables_and_queries_are_numpys(name):
    assert getattr(fnp, name) is getattr(np, name)


def test_type_queries_read_traced_values():
    def f(x):
        assert fnp.common_type(x) is np.float64 and fnp.min_scalar_type(x).kind == "f"
        return fnp.sum(x ** 2)

    np.testing.assert_allclose(fg.grad(f)(x3), 2 * x3)
    assert fnp.common_type(np.ones(2, np.float32)) is np.common_type(np.ones(2, np.float32))
    assert fnp.min_scalar_type(300) == np.min_scalar_type(300)


# ---- einsum's interleaved (operand, sublist) form ------------------------------------------

# (operand shapes, sublists, output sublist or None)
SUBLIST_CASES = [
    ([(2, 3), (3, 4)], [[0, 1], [1, 2]], [0, 2]),
    ([(2, 3), (3, 4)], [[0, 1], [1, 2]], None),              # implicit output
    ([(3, 3)], [[0, 0]], []),                                 # trace
    ([(2, 3, 4), (4,)], [[Ellipsis, 1], [1]], None),         # ellipsis
    ([(2, 3, 4), (2, 4, 5)], [[0, 1, 2], [0, 2, 3]], [0, 1, 3]),
    ([(3,), (3,), (3,)], [[0], [0], [0]], []),
    ([(2, 5, 3)], [[Ellipsis, 51, 26]], [26, Ellipsis, 51]),  # the largest labels
]


@pytest.mark.parametrize("shapes, sublists, output", SUBLIST_CASES)
def test_einsum_sublist_form_matches_jax(shapes, sublists, output):
    operands = [rng.standard_normal(shape) for shape in shapes]

    def interleaved(np_, *ops):
        arguments = [item for op, sub in zip(ops, sublists) for item in (op, sub)]
        if output is not None:
            arguments.append(output)
        return np_.einsum(*arguments)

    ours = interleaved(fnp, *operands)
    np.testing.assert_allclose(ours, interleaved(np, *operands), rtol=1e-13)
    np.testing.assert_allclose(ours, interleaved(jnp, *operands), rtol=1e-13)
    argnums = tuple(range(len(operands)))
    ours_grad = fg.grad(lambda *o: fnp.sum(fnp.sin(interleaved(fnp, *o))), argnums)(*operands)
    jax_grad = jax.grad(lambda *o: jnp.sum(jnp.sin(interleaved(jnp, *o))), argnums)(*operands)
    for a, b in zip(ours_grad, jax_grad):
        np.testing.assert_allclose(a, b, rtol=1e-12)
    check_grads(lambda *o: interleaved(fnp, *o), tuple(operands), order=2)


def test_einsum_sublist_errors_name_the_bad_label():
    with pytest.raises(ValueError, match="axis label 52 in the sublist of operand 0"):
        fnp.einsum(m23, [0, 52])
    with pytest.raises(TypeError, match="the output sublist holds 'i'"):
        fnp.einsum(m23, [0, 1], ["i"])
    with pytest.raises(TypeError, match="sublist of operand 0 must be a list"):
        fnp.einsum(m23, 3)


# ---- dtype= of reductions and scans ---------------------------------------------------------

INTEGERS = np.array([[0, 1, 2], [4, 5, 7]], np.int32)
DTYPE_REDUCTIONS = ["sum", "prod", "cumsum", "cumprod", "nansum", "nanprod", "nancumsum",
                    "nancumprod", "trace", "mean"]


@pytest.mark.parametrize("name", DTYPE_REDUCTIONS + ["nanmean"])
@pytest.mark.parametrize("dtype", [np.int32, np.int16, np.complex64])
def test_reductions_compute_in_their_dtype_argument_as_jax(name, dtype):
    # (int32 and int16 results, which NumPy's reductions would otherwise widen to int64)
    inputs = [INTEGERS] if name == "nanmean" else [INTEGERS, INTEGERS.astype(np.float32)]
    for x in inputs:
        expected = getattr(jnp, name)(x, dtype=dtype)
        for ours in (getattr(fnp, name)(x, dtype=dtype),
                     fg.jit(lambda x: getattr(fnp, name)(x, dtype=dtype))(x)):
            assert ours.dtype == expected.dtype == getattr(np, name)(x, dtype=dtype).dtype
            np.testing.assert_array_equal(ours, expected)


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
@pytest.mark.parametrize("dtype", [np.int32, np.int16, np.complex64])
@pytest.mark.parametrize("axis", [None, 1])
def test_deviations_in_a_dtype_argument_are_numpys(name, dtype, axis):
    """An integer dtype= makes NumPy truncate the mean and the result (JAX computes in
    floats or refuses), a complex one gives a complex result (as JAX's); both as NumPy."""
    x = INTEGERS
    try:
        expected = getattr(np, name)(x, axis=axis, dtype=dtype)
    except TypeError as error:  # (NumPy's sqrt of int16 variances into themselves)
        with pytest.raises(type(error)):
            getattr(fnp, name)(x, axis=axis, dtype=dtype)
        return
    ours = getattr(fnp, name)(x, axis=axis, dtype=dtype)
    assert ours.dtype == expected.dtype
    np.testing.assert_allclose(ours, expected, rtol=1e-6)


@pytest.mark.parametrize("name", ["nanmean", "nanvar", "nanstd"])
def test_nan_statistics_of_floats_refuse_an_integer_dtype_as_numpy(name):
    x = INTEGERS.astype(np.float32)
    with pytest.raises(TypeError):
        getattr(np, name)(x, dtype=np.int32)
    with pytest.raises(TypeError, match=f"{name}: dtype=int32 for an array of float32"):
        getattr(fnp, name)(x, dtype=np.int32)


# ---- lib.stride_tricks.sliding_window_view ----------------------------------------------------
# (values and derivatives: tests/oracle_cases/stride_tricks.py)

sliding_window_view = fnp.lib.stride_tricks.sliding_window_view


def test_sliding_window_view_of_a_plain_array_is_numpys_view():
    x = np.arange(6.0)
    ours = sliding_window_view(x, 3)
    np.testing.assert_array_equal(ours, np.lib.stride_tricks.sliding_window_view(x, 3))
    assert np.shares_memory(ours, x) and not ours.flags.writeable
    sliding_window_view(x, [2], axis=[0], writeable=True)[1, 1] = 10.0  # writes reach x
    assert x[2] == 10.0


@pytest.mark.parametrize("window_shape, axis, error", [
    (-1, 0, ValueError),            # a negative window
    ((2,), None, ValueError),       # axis=None needs a size for every axis
    ((2, 2), 0, ValueError),        # one axis, two sizes
    (4, 0, ValueError),             # larger than the array
    ((2, 2), (1, 1), ValueError),   # the same axis twice, together larger than it
    (2, 2, np.exceptions.AxisError),
    (2.0, 0, TypeError),            # sizes are integers
])
def test_sliding_window_view_refuses_what_numpy_refuses(window_shape, axis, error):
    x = np.ones((3, 2))
    with pytest.raises(error):
        np.lib.stride_tricks.sliding_window_view(x, window_shape, axis)
    with pytest.raises(error, match="sliding_window_view"):
        fg.grad(lambda x: fnp.sum(sliding_window_view(x, window_shape, axis)))(x)


def test_sliding_window_view_of_a_traced_array_is_read_only():
    with pytest.raises(ValueError, match="writeable=True.*immutable"):
        fg.grad(lambda x: fnp.sum(sliding_window_view(x, 2, writeable=True)))(x3)


# ---- conversions, settings, printing ----------------------------------------------------------


@pytest.mark.parametrize("name", ["asanyarray", "ascontiguousarray", "asfortranarray",
                                  "asarray_chkfinite"])
def test_array_conversions_match_numpy_and_pass_traced_values_through(name):
    for value in (m23, [1.0, 2.0], 3.5, m23.T):
        ours, numpys = getattr(fnp, name)(value), getattr(np, name)(value)
        assert type(ours) is type(numpys) and ours.dtype == numpys.dtype
        np.testing.assert_array_equal(ours, numpys)
        assert ours.flags.c_contiguous == numpys.flags.c_contiguous
    ours = getattr(fnp, name)(m23, np.float32)
    assert ours.dtype == np.float32
    check_grads(lambda x: getattr(fnp, name)(fnp.sin(x)) * 2.0, (m23,), order=2)
    check_grads(lambda x: getattr(fnp, name)([x, x ** 2]), (x3,), order=1)


def test_asarray_chkfinite_checks_traced_values_too():
    bad = np.array([1.0, np.nan])
    with pytest.raises(ValueError, match="infs or NaNs"):
        np.asarray_chkfinite(bad)
    with pytest.raises(ValueError, match="infs or NaNs"):
        fg.grad(lambda x: fnp.sum(fnp.asarray_chkfinite(x)))(bad)


def test_settings_printing_and_files_are_numpys_and_read_traced_values(tmp_path):
    for name in ("seterr", "geterr", "errstate", "set_printoptions", "printoptions", "s_",
                 "index_exp", "mgrid", "ogrid", "ndindex", "load", "little_endian", "base_repr",
                 "binary_repr"):
        assert getattr(fnp, name) is getattr(np, name), name
    printed = {}

    def f(x):
        printed["str"], printed["repr"] = fnp.array_str(x), fnp.array_repr(x)
        printed["2string"] = fnp.array2string(x, precision=3)
        fnp.save(tmp_path / "x.npy", x)
        fnp.savetxt(tmp_path / "x.txt", x)
        with fnp.errstate(divide="ignore"):
            return fnp.sum(x ** 2)

    np.testing.assert_allclose(fg.grad(f)(x3), 2 * x3)
    assert printed == {"str": np.array_str(x3), "repr": np.array_repr(x3),
                       "2string": np.array2string(x3, precision=3)}
    np.testing.assert_array_equal(np.load(tmp_path / "x.npy"), x3)
    # The readers that take like= are NumPy's for NumPy (tests/like_calls.py: the others).
    np.testing.assert_allclose(fnp.loadtxt(tmp_path / "x.txt"), x3)
    x3.tofile(tmp_path / "x.bin")
    np.testing.assert_array_equal(fnp.fromfile(tmp_path / "x.bin"), x3)


# ---- matmul's outer products -----------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shapes", [((5, 1), (1, 4)), ((2, 3, 1), (1, 4)), ((3, 1), (2, 1, 6))])
def test_outer_products_give_numpys_matmul_bits(shapes, dtype):
    a, b = (rng.standard_normal(shape).astype(dtype) for shape in shapes)
    ours = fnp.matmul(a, b)
    assert ours.dtype == np.matmul(a, b).dtype
    assert ours.tobytes() == np.matmul(a, b).tobytes()


def test_vector_times_matrix_gradients_match_jax():
    # The matrix's cotangent is the outer product of the vector and the output's cotangent.
    x = rng.standard_normal(7).astype(np.float32)
    w = rng.standard_normal((7, 3)).astype(np.float32)
    f = lambda x, w: fnp.sum(fnp.tanh(x @ w) ** 2)  # noqa: E731
    g = lambda x, w: jnp.sum(jnp.tanh(x @ w) ** 2)  # noqa: E731
    for ours, theirs in zip(fg.grad(f, argnums=(0, 1))(x, w), jax.grad(g, argnums=(0, 1))(x, w)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)
