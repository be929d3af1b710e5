"""Elementwise behaviour the JAX oracle cannot express: constants under tracing, NumPy's
keyword arguments, dtypes where JAX differs from NumPy, and derivatives JAX gets wrong."""
import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.numpy.elementwise import Ufunc

PREDICATES = [fnp.isfinite, fnp.isinf, fnp.isnan, fnp.isneginf, fnp.isposinf, fnp.signbit,
              fnp.isreal, fnp.iscomplex, fnp.logical_not]


@pytest.mark.parametrize("predicate", PREDICATES, ids=lambda p: p.name)
def test_predicates_return_plain_boolean_arrays_under_grad(predicate):
    seen = []

    def f(x):
        result = predicate(x)
        seen.append(result)
        return fnp.sum(fnp.where(result, x, 2 * x))

    x = np.array([1.0, -np.inf, np.nan, -0.0])
    fg.grad(f)(x)
    assert type(seen[0]) is np.ndarray and seen[0].dtype == np.bool_
    np.testing.assert_array_equal(seen[0], predicate(x))


def test_comparisons_and_logic_return_plain_booleans_under_grad():
    def f(x):
        masks = [x < 1, fnp.equal(x, 0), fnp.logical_and(x > 0, x < 2),
                 fnp.logical_xor(x > 0, True), fnp.logical_or(x > 5, x < -5)]
        assert all(type(m) is np.ndarray and m.dtype == np.bool_ for m in masks)
        return fnp.sum(x)

    fg.grad(f)(np.array([0.0, 1.5, -7.0]))


@pytest.mark.parametrize("call, option", [
    (lambda x: fnp.sin(x, out=np.empty(3)), "out="),
    (lambda x: fnp.add(x, 1.0, where=x > 0), "where="),
    (lambda x: fnp.multiply(x, x, dtype=np.float32), "dtype="),
    (lambda x: fnp.maximum(x, 0.0, casting="unsafe"), "casting="),
    (lambda x: fnp.round(x, out=np.empty(3)), "out="),
    (lambda x: fnp.fix(x, out=np.empty(3)), "out="),
    (lambda x: fnp.clip(x, 0.0, 1.0, out=np.empty(3)), "out="),
])
def test_ufunc_options_on_traced_values_raise_clear_errors(call, option):
    with pytest.raises(TypeError, match=option):
        fg.grad(lambda x: fnp.sum(call(x)))(np.array([0.5, -1.0, 2.0]))


def test_positional_output_and_unknown_keywords_raise_clear_errors():
    x = np.array([0.5, 2.0])
    with pytest.raises(TypeError, match="funcgrad.numpy.exp: out= is not supported"):
        fg.grad(lambda x: fnp.sum(fnp.exp(x, np.empty(2))))(x)
    with pytest.raises(TypeError, match="unexpected keyword argument 'axis'"):
        fg.grad(lambda x: fnp.sum(fnp.exp(x, axis=0)))(x)


def test_default_ufunc_options_are_accepted_on_traced_values():
    x = np.array([0.5, 2.0])
    grad = fg.grad(lambda x: fnp.sum(fnp.exp(x, out=None, where=True, casting="same_kind")))(x)
    np.testing.assert_allclose(grad, np.exp(x))


def test_untraced_calls_are_numpys_own():
    out = np.empty(3)
    x = np.array([0.5, -1.5, 2.5])
    assert fnp.sin(x, out=out) is out
    np.testing.assert_array_equal(fnp.add(x, 1.0, where=x > 0, out=np.zeros(3)),
                                  np.add(x, 1.0, where=x > 0, out=np.zeros(3)))
    assert type(fnp.exp(np.float32(1.0))) is np.float32
    assert fnp.round(x, 0, np.empty(3)).dtype == np.float64
    np.testing.assert_array_equal(fnp.clip(x, -1, 1, out=out), np.clip(x, -1, 1))
    np.testing.assert_array_equal(fnp.divmod(x, 0.7)[1], np.remainder(x, 0.7))


def test_clip_takes_min_and_max_or_a_min_and_a_max_not_both():
    with pytest.raises(TypeError, match="not both"):
        fnp.clip(np.ones(2), 0.0, min=0.5)


def test_float_power_computes_in_float64_and_gives_float32_cotangents():
    x = np.array([1.5, 2.0], np.float32)
    value, pullback = fg.vjp(lambda x: fnp.float_power(x, 2), x)
    assert value.dtype == np.float64
    (ct,) = pullback(np.ones(2))
    assert ct.dtype == np.float32
    np.testing.assert_allclose(ct, 2 * x)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_traced_float_power_gives_the_untraced_bits(dtype):
    """NumPy's float64 power rounds differently from float_power in the last bit (1.312409
    ** 3, found by the jit oracle's exploration): traced calls must run float_power's loop."""
    x = np.concatenate([[1.312409], np.random.default_rng(0).uniform(0, 3, 200)]).astype(dtype)
    y = np.concatenate([[3.0], np.random.default_rng(1).uniform(-3, 3, 200)])
    expected = np.float_power(x, y)
    for traced in (fg.vjp(lambda a: fnp.float_power(a, y), x)[0],
                   fg.jit(fnp.float_power)(x, y),
                   fg.vmap(fnp.float_power)(x, y)):
        assert traced.tobytes() == expected.tobytes()


def test_power_by_a_mapped_integer_exponent_has_slope_zero_at_zero_exponent():
    """d/dx x**0 is 0 even at x = 0 (JAX's convention for integer exponents); an exponent
    that vmap maps is traced, and took the float path's 0 * 0**-1 = NaN (found by the vmap
    oracle's exploration, case power_integer_exponent_array)."""
    import jax
    import jax.numpy as jnp

    x = np.array([[0.0], [2.0]])
    n = np.array([[0, 1, 3], [0, 0, 2]])

    def ours(x, n):
        return fnp.sum(fnp.power(x, n) + x ** fnp.abs(n))

    def theirs(x, n):
        return jnp.sum(jnp.power(x, n) + x ** jnp.abs(n))

    expected = jax.vmap(jax.grad(theirs), in_axes=(None, 0))(x, n)
    for transform in (lambda f: f, fg.jit):
        got = transform(fg.vmap(fg.grad(ours), in_axes=(None, 0)))(x, n)
        np.testing.assert_allclose(got, expected, rtol=1e-12)
    tangents = jax.vmap(lambda n: jax.jvp(lambda x: jnp.power(x, n), (x,), (x + 1,))[1])(n)
    got = fg.vmap(lambda n: fg.jvp(lambda x: fnp.power(x, n), (x,), (x + 1,))[1])(n)
    np.testing.assert_allclose(got, tangents, rtol=1e-12)


def test_sinc_derivatives_at_zero_to_fourth_order():
    f = fnp.sinc
    expected = [1.0, 0.0, -np.pi ** 2 / 3, 0.0, np.pi ** 4 / 5]
    for order, value in enumerate(expected):
        np.testing.assert_allclose(f(0.0), value, atol=1e-12)
        f = fg.grad(f)


def test_i0_second_derivative_at_zero_is_one_half():
    # JAX gives 0 here; I0(x) = 1 + x**2 / 4 + ..., so the true value is 1/2.
    np.testing.assert_allclose(fg.grad(fg.grad(fnp.i0))(0.0), 0.5)
    np.testing.assert_allclose(fg.grad(fg.grad(fg.grad(fnp.i0)))(0.0), 0.0, atol=1e-15)


def test_i0_derivative_matches_scipy_i1_over_a_wide_range():
    special = pytest.importorskip("scipy.special")
    x = np.concatenate([np.linspace(-40.0, 40.0, 161), [24.999, 25.0, 25.001, 300.0, -500.0]])
    grad = fg.vjp(fnp.i0, x)[1](np.ones_like(x))[0]
    np.testing.assert_allclose(grad, special.i1(x), rtol=1e-13)


# Tiny normal values, where I1(x) / x loses its digits (SciPy's iv(2, x) is nan at 2.2e-308).
_TINY = [2.2250738585072014e-308, -2.2250738585072014e-308, 1e-200, 1e-17, -3e-16]


def _derivatives(f, x, orders):
    values = []
    for _ in range(orders):
        f = fg.grad(f)
        values.append(float(f(x)))
    return values


@pytest.mark.parametrize("name", ["i0", "i1", "i0e", "i1e"])
def test_bessel_derivatives_near_zero_match_jax(name):
    jax = pytest.importorskip("jax")
    fs = pytest.importorskip("funcgrad.scipy.special")
    # JAX's i0'(0) is 1 and i0e'(0) -1, not 0: zero is checked for i1 and i1e only.
    points = _TINY + ([0.0] if name in ("i1", "i1e") else [])
    ours = [fg.grad(getattr(fs, name))(x) for x in points]
    theirs = [jax.grad(getattr(jax.scipy.special, name))(x) for x in points]
    np.testing.assert_allclose(ours, theirs, rtol=1e-15, atol=1e-15)


@pytest.mark.parametrize("x", _TINY)
def test_bessel_i1_taylor_coefficients_near_zero(x):
    # I1(x) = x/2 + x**3/16 + ...; exp(-|x|) I1(x) = x/2 - |x| x/2 + 5 x**3/16 + ...
    # (JAX's second derivatives here are 1 and 0.)
    fs = pytest.importorskip("funcgrad.scipy.special")
    np.testing.assert_allclose(_derivatives(fs.i1, x, 3), [0.5, 0.0, 0.375], atol=1e-15)
    np.testing.assert_allclose(_derivatives(fs.i1e, x, 3), [0.5, -np.sign(x), 1.875],
                               atol=1e-15)
    np.testing.assert_allclose(_derivatives(fnp.i0, x, 4), [0.0, 0.5, 0.0, 0.375], atol=1e-15)


@pytest.mark.parametrize("fun", [fnp.floor, fnp.ceil, fnp.rint, fnp.trunc, fnp.fix, fnp.round,
                                 fnp.sign, lambda x: fnp.floor_divide(x, 0.7)])
def test_zero_derivatives_in_both_modes(fun):
    x = np.array([0.3, -1.7, 2.5])
    np.testing.assert_array_equal(fg.grad(lambda x: fnp.sum(fun(x)))(x), np.zeros(3))
    _, tangent = fg.jvp(fun, (x,), (np.ones(3),))
    np.testing.assert_array_equal(tangent, np.zeros(3))


def test_frexp_exponent_is_a_constant_integer_array_under_grad():
    def f(x):
        mantissa, exponent = fnp.frexp(x)
        assert type(exponent) is np.ndarray and exponent.dtype.kind == "i"
        return fnp.sum(mantissa * exponent)

    x = np.array([3.0, 0.1, -8.0])
    np.testing.assert_allclose(fg.grad(f)(x), np.frexp(x)[1] * 2.0 ** -np.frexp(x)[1])


def test_ldexp_slope_is_a_power_of_two_at_zero_too():
    # JAX gives slope 1 at x == 0; ldexp(x, n) = x 2**n everywhere.
    np.testing.assert_allclose(fg.grad(lambda x: fnp.ldexp(x, 3))(0.0), 8.0)
    np.testing.assert_allclose(fg.grad(lambda x: fnp.ldexp(x, -2))(0.0), 0.25)


def test_hypot_hessian_is_exact_where_the_arguments_tie():
    # JAX's hypot is built from max and min, so its Hessian is off at |x| == |y|.
    hessian = fg.hessian(lambda v: fnp.hypot(v[0], v[1]))(np.array([1.0, -1.0]))
    np.testing.assert_allclose(hessian, np.array([[1.0, 1.0], [1.0, 1.0]]) / 2 ** 1.5)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_arctanh_has_infinite_slope_at_its_poles(dtype):
    slopes = fg.vjp(fnp.arctanh, np.array([-1.0, 1.0], dtype))[1](np.ones(2, dtype))[0]
    np.testing.assert_array_equal(slopes, [np.inf, np.inf])
    assert slopes.dtype == dtype


def test_hypot_hessian_matches_its_formula():
    rng = np.random.default_rng(0)
    for x, y in rng.normal(size=(5, 2)):
        hessian = fg.hessian(lambda v: fnp.hypot(v[0], v[1]))(np.array([x, y]))
        expected = np.array([[y * y, -x * y], [-x * y, x * x]]) / np.hypot(x, y) ** 3
        np.testing.assert_allclose(hessian, expected, rtol=1e-12)


_SPECIALS = [np.nan, -np.nan, -0.0, 0.0, np.inf, -np.inf, 1e-40, -1e-40, 65504.0, -2.5]


@settings(deadline=None)
@given(data=st.data(), dtype=st.sampled_from([np.float16, np.float32, np.float64]),
       shape=st.sampled_from([(3, 5), (1024,), (32, 40), (4, 16, 17)]),
       layout=st.sampled_from(["C", "F", "strided", "broadcast condition"]))
def test_where_and_its_cotangents_are_nps_where_bit_for_bit(data, dtype, shape, layout):
    # where selects large float arrays by their bits: its values and cotangents must be
    # np.where's bits (NaN payloads, -0.0, infinities kept where chosen; +0.0 for a
    # cotangent elsewhere), dtype and strides, on its fast path and off it.
    values = hnp.arrays(dtype, shape, elements=st.sampled_from(_SPECIALS)
                        | st.floats(-1e4, 1e4, width=16))
    x, y, g = (data.draw(values, label=name) for name in ("x", "y", "cotangent"))
    condition = data.draw(hnp.arrays(np.bool_, shape), label="condition")
    if layout == "F":
        x, g, condition = np.asfortranarray(x), np.asfortranarray(g), np.asfortranarray(condition)
    elif layout == "strided":
        x, g = (np.repeat(a, 2, axis=-1)[..., ::2] for a in (x, g))
    elif layout == "broadcast condition":
        condition = condition[..., :1]
    value, pullback = fg.vjp(lambda x, y: fnp.where(condition, x, y), x, y)
    results = [(value, np.where(condition, x, y)), (fnp.where(condition, x, 0.0),
                                                    np.where(condition, x, 0.0))]
    results += zip(pullback(g), (np.where(condition, g, 0.0), np.where(condition, 0.0, g)))
    for ours, expected in results:
        assert ours.dtype == expected.dtype and ours.strides == expected.strides
        np.testing.assert_array_equal(ours.view(f"u{g.itemsize}"),
                                      expected.view(f"u{g.itemsize}"))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("name", ["maximum", "minimum"])
def test_maximum_and_minimum_split_ties_in_the_argument_dtype_as_jax(dtype, name):
    # The 1/2 at ties is written into a mask of the argument's dtype (the bool-array
    # fast path) or by np.where (a NumPy bool; a batch under vmap): all as JAX's.
    jax = pytest.importorskip("jax")
    x = np.array([0.0, 1.0, -1.0, 0.0, 2.0, np.nan], dtype)
    y = np.array([0.0, 0.0, 0.0, 1.0, 2.0, 1.0], dtype)

    def f(np_, a, b):
        return np_.sum(getattr(np_, name)(a, b) * np_.arange(1, 7, dtype=dtype))

    expected = jax.grad(lambda a, b: f(jax.numpy, a, b), argnums=(0, 1))(x, y)
    ours = fg.grad(lambda a, b: f(fnp, a, b), argnums=(0, 1))
    for got in (ours(x, y), fg.jit(ours)(x, y), fg.jit(ours)(x, y)):
        for g, e in zip(got, expected):
            assert g.dtype == dtype
            np.testing.assert_array_equal(g, np.asarray(e))
    # Per element, batched: the masks are a batch of NumPy bools.
    expected = jax.vmap(jax.grad(getattr(jax.numpy, name), argnums=(0, 1)))(x, y)
    got = fg.vmap(fg.grad(getattr(fnp, name), argnums=(0, 1)))(x, y)
    for g, e in zip(got, expected):
        np.testing.assert_array_equal(g, np.asarray(e))


_FLOAT_BITS = {np.float16: np.uint16, np.float32: np.uint32, np.float64: np.uint64}


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(_FLOAT_BITS, key=lambda d: np.dtype(d).itemsize)),
       st.integers(1024, 5000), st.sampled_from(["two arrays", "x and 0.0", "0.0 and y"]),
       st.integers(0, 2**32 - 1))
def test_where_selecting_by_bits_gives_np_where_bits(dtype, size, operands, seed):
    """where's impl selects large float arrays by integer arithmetic on their bits
    (`_where_impl`): every bit pattern (NaN payloads, -0.0, subnormals) comes out as
    np.where gives it."""
    rng = np.random.default_rng(seed)
    bits = _FLOAT_BITS[dtype]
    x, y = (rng.integers(0, np.iinfo(bits).max, size, bits, endpoint=True).view(dtype)
            for _ in range(2))
    x, y = {"two arrays": (x, y), "x and 0.0": (x, 0.0), "0.0 and y": (0.0, y)}[operands]
    condition = rng.random(size) < rng.random()
    got = fnp.where(condition, x, y)
    expected = np.where(condition, x, y)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got.view(bits), expected.view(bits))



_BINARY_UFUNCS = sorted(
    {f for f in vars(fnp).values()
     if isinstance(f, Ufunc) and f.nin == 2}, key=lambda f: f.name)


def _outcome(fun, x):
    """fun's gradient and tangent at x, or the type of what it raised."""
    try:
        return fg.grad(fun)(x), fg.jvp(fun, (x,), (np.ones_like(x),))[1]
    except Exception as error:
        return type(error)


@pytest.mark.parametrize("ufunc", _BINARY_UFUNCS, ids=lambda f: f.name)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("sequence", [list, tuple])
@pytest.mark.parametrize("first", [True, False], ids=["x_first", "x_second"])
def test_binary_ufuncs_differentiate_sequences_as_the_arrays_numpy_makes_of_them(
        ufunc, dtype, sequence, first):
    """NumPy takes lists and tuples for arrays; power's and arctan2's rules read a list's
    dtype with np.result_type, which took it for a structured dtype's fields."""
    x = np.array([0.75, 1.5], dtype)

    def applied(other):
        return lambda x: fnp.sum(ufunc(x, other) if first else ufunc(other, x))

    ours = _outcome(applied(sequence([0.5, 2.0])), x)
    expected = _outcome(applied(np.array([0.5, 2.0])), x)
    if isinstance(expected, type):
        assert ours is expected
    else:
        for a, b in zip(ours, expected):
            np.testing.assert_array_equal(a, b)
            assert np.result_type(a) == np.result_type(b)
