"""vmap: JAX's in_axes/out_axes/axis_size semantics, compositions with every transform in
both orders, errors, and the fallback for primitives without a batching rule. Values are
compared with jax.vmap (float64); per-primitive checks are in test_vmap_oracle.py."""
import warnings

import hypothesis.extra.numpy as hnp
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.special  # noqa: F401 -- registers its primitives
import funcgrad.scipy.stats  # noqa: F401
from funcgrad.core import (ArgVJP, BatchingFallbackWarning, BatchTrace, ConversionError,
                           LeakedValueError, Primitive, defjvp, defvjp, registry)
from funcgrad.tree_util import tree_flatten, tree_map
from oracle import draw_batch
from test_oracle import CASES
from test_vmap_oracle import KEEP_POSITIONS, VALUE_DEPENDENT

jax.config.update("jax_enable_x64", True)


def assert_tree_close(ours, theirs, rtol=1e-10, atol=1e-12):
    ours_flat, ours_tree = tree_flatten(ours)
    theirs_flat, theirs_tree = tree_flatten(tree_map(np.asarray, theirs))
    assert ours_tree == theirs_tree, f"structure {ours_tree} != JAX's {theirs_tree}"
    for a, b in zip(ours_flat, theirs_flat):
        assert np.shape(a) == np.shape(b), f"shape {np.shape(a)} != JAX's {np.shape(b)}"
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)


def both(fun):
    """``fun(np)`` for funcgrad.numpy and jax.numpy."""
    return fun(fnp), fun(jnp)


def arrays(shape):
    # No subnormals: XLA flushes them to zero, NumPy does not.
    return hnp.arrays(np.float64, shape,
                      elements=st.floats(-2, 2, width=64, allow_subnormal=False))


# ---- in_axes, out_axes, axis_size ------------------------------------------------------


def model(np_):
    def f(params, x, scale):
        hidden = np_.tanh(x @ params["w"] + params["b"])
        return {"out": np_.sum(hidden ** 2) * scale, "hidden": hidden}
    return f


@given(w=arrays((3, 2)), b=arrays((2,)), x=arrays((4, 3)), scale=arrays(()))
def test_pytree_in_axes_and_out_axes_match_jax(w, b, x, scale):
    ours_f, jax_f = both(model)
    params = {"w": w, "b": b}
    for in_axes, out_axes, xs in [((None, 0, None), 0, x), ((None, 1, None), -1, x.T),
                                  (({"w": None, "b": None}, -1, None),
                                   {"out": 0, "hidden": 1}, x.T)]:
        ours = fg.vmap(ours_f, in_axes=in_axes, out_axes=out_axes)(params, xs, scale)
        theirs = jax.vmap(jax_f, in_axes=in_axes, out_axes=out_axes)(params, xs, scale)
        assert_tree_close(ours, theirs)


@given(w=arrays((5, 3, 2)), x=arrays((3,)))
def test_batched_parameters_and_shared_input(w, x):
    ours = fg.vmap(lambda w, x: fnp.tanh(x @ w), in_axes=(0, None))(w, x)
    theirs = jax.vmap(lambda w, x: jnp.tanh(x @ w), in_axes=(0, None))(w, x)
    assert_tree_close(ours, theirs)


def test_axis_size_broadcasts_outputs_that_do_not_depend_on_the_batch():
    x = np.arange(3.0)
    ours = fg.vmap(lambda x: x * 2, in_axes=None, axis_size=4)(x)
    theirs = jax.vmap(lambda x: x * 2, in_axes=None, axis_size=4)(x)
    assert_tree_close(ours, theirs)
    ours = fg.vmap(lambda a, x: (a + 1, x * 2), in_axes=(0, None), out_axes=(0, None))(
        np.ones(4), x)
    assert_tree_close(ours, (np.full(4, 2.0), x * 2))


def test_keyword_arguments_are_mapped_over_axis_0():
    x, y = np.arange(6.0).reshape(3, 2), np.arange(3.0)
    ours = fg.vmap(lambda x, y: x * y)(x, y=y)
    theirs = jax.vmap(lambda x, y: x * y)(x, y=y)
    assert_tree_close(ours, theirs)


@given(x=arrays((2, 3, 4)))
def test_nested_vmap_matches_jax(x):
    f = lambda np_: lambda v: np_.sum(np_.sin(v) * v)  # noqa: E731
    ours_f, jax_f = both(f)
    ours = fg.vmap(fg.vmap(ours_f, in_axes=1), in_axes=-1, out_axes=1)(x)
    theirs = jax.vmap(jax.vmap(jax_f, in_axes=1), in_axes=-1, out_axes=1)(x)
    assert_tree_close(ours, theirs)
    # Both arguments batched by different vmaps: an outer product.
    a, b = x[0, 0], x[1, :, 0]
    ours = fg.vmap(fg.vmap(lambda u, v: u * v, in_axes=(None, 0)), in_axes=(0, None))(a, b)
    assert_tree_close(ours, np.outer(a, b))


def test_outputs_belong_to_the_caller():
    x = np.arange(6.0).reshape(2, 3)
    out = fg.vmap(lambda v: v)(x)
    assert not np.shares_memory(out, x) and out.flags.writeable
    out = fg.vmap(lambda v: np.ones(2), axis_size=3, in_axes=None)(x)
    assert out.flags.writeable


# ---- compositions --------------------------------------------------------------------------


def loss(np_):
    def f(w, x, y):
        return np_.sum((np_.tanh(x @ w) - y) ** 2)
    return f


@given(w=arrays((3, 2)), x=arrays((5, 3)), y=arrays((5, 2)))
def test_per_example_gradients_vmap_of_grad(w, x, y):
    ours_f, jax_f = both(loss)
    ours = fg.vmap(fg.grad(ours_f), in_axes=(None, 0, 0))(w, x, y)
    theirs = jax.vmap(jax.grad(jax_f), in_axes=(None, 0, 0))(w, x, y)
    assert_tree_close(ours, theirs)


@given(w=arrays((3, 2)), x=arrays((5, 3)), y=arrays((5, 2)))
def test_grad_of_vmap_through_a_sum(w, x, y):
    ours_f, jax_f = both(loss)
    ours = fg.grad(lambda w: fnp.sum(fg.vmap(ours_f, in_axes=(None, 0, 0))(w, x, y)))(w)
    theirs = jax.grad(lambda w: jnp.sum(jax.vmap(jax_f, in_axes=(None, 0, 0))(w, x, y)))(w)
    assert_tree_close(ours, theirs)


@given(x=arrays((4, 3)), t=arrays((4, 3)))
def test_vmap_of_jvp_and_jacfwd_of_vmap(x, t):
    f = lambda np_: lambda v: np_.sin(v) * np_.sum(v ** 2)  # noqa: E731
    ours_f, jax_f = both(f)
    ours = fg.vmap(lambda v, u: fg.jvp(ours_f, (v,), (u,)))(x, t)
    theirs = jax.vmap(lambda v, u: jax.jvp(jax_f, (v,), (u,)))(x, t)
    assert_tree_close(ours, theirs)
    assert_tree_close(fg.jacfwd(fg.vmap(ours_f))(x), jax.jacfwd(jax.vmap(jax_f))(x))
    assert_tree_close(fg.jacrev(fg.vmap(ours_f))(x), jax.jacrev(jax.vmap(jax_f))(x))
    assert_tree_close(fg.vmap(fg.hessian(lambda v: fnp.sum(ours_f(v))))(x),
                      jax.vmap(jax.hessian(lambda v: jnp.sum(jax_f(v))))(x))


@fg.custom_vjp
def clipped_square(x):
    return x ** 2


clipped_square.defvjp(lambda x: (x ** 2, x), lambda x, g: (fnp.clip(2 * x * g, -1.0, 1.0),))


@jax.custom_vjp
def jax_clipped_square(x):
    return x ** 2


jax_clipped_square.defvjp(lambda x: (x ** 2, x), lambda x, g: (jnp.clip(2 * x * g, -1.0, 1.0),))


@given(x=arrays((4, 3)))
def test_vmap_of_custom_vjp_and_checkpoint(x):
    ours = fg.vmap(fg.grad(lambda v: fnp.sum(clipped_square(v))))(x)
    theirs = jax.vmap(jax.grad(lambda v: jnp.sum(jax_clipped_square(v))))(x)
    assert_tree_close(ours, theirs)
    assert_tree_close(fg.vmap(clipped_square)(x), x ** 2)
    block = fg.checkpoint(lambda v: fnp.sin(v) * v)
    jax_block = jax.checkpoint(lambda v: jnp.sin(v) * v)
    ours = fg.vmap(fg.grad(lambda v: fnp.sum(block(v) ** 2)))(x)
    theirs = jax.vmap(jax.grad(lambda v: jnp.sum(jax_block(v) ** 2)))(x)
    assert_tree_close(ours, theirs)
    ours = fg.grad(lambda v: fnp.sum(fg.vmap(block)(v)))(x)
    theirs = jax.grad(lambda v: jnp.sum(jax.vmap(jax_block)(v)))(x)
    assert_tree_close(ours, theirs)


@given(x=arrays((3, 4)))
def test_where_select_piecewise_and_clip_batch(x):
    def f(np_):
        def g(v):
            a = np_.where(v > 0, v, -v)
            b = np_.select([v > 1, v < -1], [v, 2 * v], 0.5)
            c = np_.clip(v, -0.5, 0.5)
            return np_.sum(a * b * c) + np_.sum(np_.piecewise(v, [v < 0], [np_.sin, np_.cos]))
        return g
    ours_f, jax_f = both(f)
    assert_tree_close(fg.vmap(ours_f)(x), jax.vmap(jax_f)(x))
    assert_tree_close(fg.vmap(fg.grad(ours_f))(x), jax.vmap(jax.grad(jax_f))(x))


def test_perturbation_confusion_across_vmap_and_grad():
    # d/dx [x * d/dy (x + y)] = 1, per element of the batch.
    out = fg.vmap(fg.grad(lambda x: x * fg.grad(lambda y: x + y)(1.0)))(np.arange(3.0))
    assert_tree_close(out, np.ones(3))


# ---- Jacobians batch their basis -------------------------------------------------------------


@given(x=arrays((4,)), chunk=st.integers(1, 5))
def test_jacobians_with_chunks_match_jax(x, chunk):
    a = np.arange(12.0).reshape(3, 4) / 10
    f = lambda np_: lambda v: np_.tanh(a @ v) * v[:3]  # noqa: E731
    ours_f, jax_f = both(f)
    assert_tree_close(fg.jacrev(ours_f, chunk_size=chunk)(x), jax.jacrev(jax_f)(x))
    assert_tree_close(fg.jacfwd(ours_f, chunk_size=chunk)(x), jax.jacfwd(jax_f)(x))
    s = lambda np_: lambda v: np_.sum(np_.tanh(a @ v) ** 2)  # noqa: E731
    ours_s, jax_s = both(s)
    assert_tree_close(fg.hessian(ours_s)(x), jax.hessian(jax_s)(x))


@pytest.mark.parametrize("chunk", [0, -1, 1.5, "2"])
def test_bad_chunk_size_is_refused(chunk):
    with pytest.raises(ValueError, match="chunk_size"):
        fg.jacrev(fnp.sin, chunk_size=chunk)(np.ones(2))


# ---- errors ------------------------------------------------------------------------------------


def test_mismatched_batch_sizes_name_the_arguments():
    with pytest.raises(ValueError, match=r"args\[0\] has 3, args\[1\]\['b'\] has 4"):
        fg.vmap(lambda x, d: x + d["b"])(np.ones(3), {"b": np.ones(4)})


def test_in_axes_of_the_wrong_structure_is_refused():
    with pytest.raises(ValueError, match="in_axes is a tuple of 1 entries.*2 positional"):
        fg.vmap(lambda x, y: x + y, in_axes=(0,))(np.ones(3), np.ones(3))
    with pytest.raises(ValueError, match=r"in_axes .* does not match the structure of args\[0\]"):
        fg.vmap(lambda d: d["a"], in_axes=({"b": 0},))({"a": np.ones(3)})
    with pytest.raises(TypeError, match="in_axes must be ints, None"):
        fg.vmap(fnp.sin, in_axes="0")


def test_axes_out_of_range_and_no_batch_size_are_refused():
    with pytest.raises(ValueError, match=r"maps args\[0\] over axis 2, but it has shape \(3,\)"):
        fg.vmap(fnp.sin, in_axes=2)(np.ones(3))
    with pytest.raises(ValueError, match="pass axis_size"):
        fg.vmap(fnp.sin, in_axes=None)(np.ones(3))
    with pytest.raises(ValueError, match="out_axes is None for output leaf 0, but it depends"):
        fg.vmap(fnp.sin, out_axes=None)(np.ones(3))
    with pytest.raises(ValueError, match="out_axes asks for axis 3"):
        fg.vmap(fnp.sin, out_axes=3)(np.ones((2, 2)))


@pytest.mark.parametrize("convert", [bool, int, float, lambda v: [0, 1][v]])
def test_python_control_flow_on_a_batched_value_says_to_use_where(convert):
    with pytest.raises(ConversionError, match="funcgrad.numpy.where"):
        fg.vmap(lambda v: v if convert(v > 0) else -v)(np.arange(3))


def test_batched_value_to_numpy_array_is_refused_clearly():
    with pytest.raises(TypeError, match="funcgrad.vmap: a batched value was converted"):
        fg.vmap(lambda v: np.asarray(v))(np.ones((2, 2)))


def test_leaked_batched_value_is_reported():
    leaked = []
    fg.vmap(lambda v: leaked.append(v) or v)(np.ones(2))
    with pytest.raises(LeakedValueError, match="vmap"):
        fnp.sin(leaked[0])


# ---- the fallback -----------------------------------------------------------------------------


def test_a_primitive_without_a_rule_loops_over_the_batch_and_warns_once():
    cube = Primitive("test_cube_without_batch_rule", lambda x: x ** 3, register=False)
    defvjp(cube, ArgVJP(lambda ans, x: (x,), lambda g, x: 3 * x ** 2 * g))
    defjvp(cube, lambda t, ans, x: 3 * x ** 2 * t)
    x = np.arange(6.0).reshape(2, 3)
    with pytest.warns(BatchingFallbackWarning, match="'test_cube_without_batch_rule' has no"):
        out = fg.vmap(cube, in_axes=1, out_axes=1)(x)
    assert_tree_close(out, x ** 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # reported once only
        assert_tree_close(fg.vmap(fg.grad(lambda v: fnp.sum(cube(v))))(x), 3 * x ** 2)
        assert_tree_close(fg.grad(lambda v: fnp.sum(fg.vmap(cube)(v)))(x), 3 * x ** 2)
        assert_tree_close(fg.vmap(fg.vmap(cube))(x), x ** 3)


# Registered primitives left on the fallback, and why.
FALLBACK = {
    "convolve": "NumPy's convolve takes 1-D arrays only; batches are rare (signal code "
                "calls it per signal), so the loop is the rule",
}


def test_every_registered_primitive_has_a_batching_rule_or_a_listed_reason():
    without = {name for name, p in registry.items() if p.batch_rule is None}
    assert without == set(FALLBACK), (
        f"primitives without a batching rule: {sorted(without - set(FALLBACK))}; give them "
        f"one (funcgrad.core.defbatch) or list them in FALLBACK with the reason")


def test_every_registered_primitive_is_batched_by_an_oracle_case(monkeypatch):
    """A primitive that no vmap oracle case applies to a batched value fails the suite."""
    seen = set()
    process = BatchTrace.process_primitive

    def recording(self, primitive, args, params):
        seen.add(primitive.name)
        return process(self, primitive, args, params)

    monkeypatch.setattr(BatchTrace, "process_primitive", recording)

    @settings(max_examples=3, database=None)
    @given(data=st.data())
    def run(case, data):
        args, static = data.draw(case.args)
        batched, in_axes, _ = draw_batch(data, args,
                                         keep_positions=case.name in KEEP_POSITIONS)
        if all(axis is None for axis in in_axes):
            return
        fun = lambda *a: case.fun(fnp, *a, **static)  # noqa: E731
        fg.vmap(fun, in_axes=in_axes)(*batched)
        diff = case.diff if case.diff is not None else tuple(
            i for i, a in enumerate(args) if np.result_type(a).kind == "f")
        floats = [np.result_type(leaf).kind in "fc" for leaf in tree_flatten(fun(*args))[0]]
        if case.differentiable and diff and any(floats):
            def weighted(*a):
                return sum(fnp.sum(fnp.real(leaf)) for leaf in tree_flatten(fun(*a))[0]
                           if leaf.dtype.kind in "fc")
            fg.vmap(fg.grad(weighted, argnums=diff), in_axes=in_axes)(*batched)

    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", BatchingFallbackWarning)
        warnings.simplefilter("ignore", RuntimeWarning)  # (cases provoke NumPy's on purpose)
        for case in CASES:
            if case.name not in VALUE_DEPENDENT:  # (may refuse vmap: checked elsewhere)
                run(case)
    missing = sorted(set(registry) - seen - set(FALLBACK))
    assert not missing, f"primitives no vmap oracle case batches: {missing}"


# ---- .at[] updates whose index differs per example ------------------------------------------

_AT_FORMS = {  # the index of one example, from its index arrays i and j
    "x.at[i]": lambda i, j: i, "x.at[:, j]": lambda i, j: (slice(None), j),
    "x.at[i, j]": lambda i, j: (i, j), "x.at[i, 1:]": lambda i, j: (i, slice(1, None)),
    "x.at[i, None, 0]": lambda i, j: (i, None, 0)}


@st.composite
def _batched_at_updates(draw):
    rows, cols, size = draw(st.integers(1, 4)), draw(st.integers(2, 4)), draw(st.integers(1, 3))
    form = draw(st.sampled_from(sorted(_AT_FORMS)))
    method = draw(st.sampled_from(["get", "set", "add", "subtract"]))
    mode = draw(st.sampled_from([None, "clip"]))
    spread = 2 if mode == "clip" else 0  # clip: out of range too
    k = draw(st.integers(1, 3))  # repeats likely: set's last write wins, add accumulates
    i = draw(hnp.arrays(np.int64, (size, k), elements=st.integers(-rows - spread,
                                                                   rows - 1 + spread)))
    j = draw(hnp.arrays(np.int64, (size, k), elements=st.integers(-cols - spread,
                                                                   cols - 1 + spread)))
    floats = st.floats(-3, 3, width=64)
    x_batched = draw(st.booleans())
    x = draw(hnp.arrays(np.float64, ((size,) if x_batched else ()) + (rows, cols),
                        elements=floats))
    shape = np.broadcast_to(np.empty((rows, cols)), (rows, cols))[
        _AT_FORMS[form](np.clip(i[0], -rows, rows - 1), np.clip(j[0], -cols, cols - 1))].shape
    values_batched = draw(st.booleans())
    values = draw(hnp.arrays(np.float64, ((size,) if values_batched else ()) + shape,
                             elements=floats))
    axes = (0 if x_batched else None, 0, 0, 0 if values_batched else None)
    return form, method, mode, axes, (x, i, j, values)


@settings(max_examples=60, deadline=None)
@given(_batched_at_updates())
def test_at_updates_with_per_example_indices_match_jax(case):
    form, method, mode, in_axes, args = case

    def make(np_):
        def update(x, i, j, values):
            index = _AT_FORMS[form](i, j)
            ref = fnp.at(x)[index] if np_ is fnp else jnp.asarray(x).at[index]
            options = {} if mode is None else {"mode": mode}
            if method == "get":
                return ref.get(**options)
            return getattr(ref, method)(values, **options)
        return update

    ours, theirs = both(make)
    assert_tree_close(fg.vmap(ours, in_axes=in_axes)(*args),
                      jax.vmap(theirs, in_axes=in_axes)(*args))
    weights = np.linspace(-1.0, 2.0, 7)

    def loss(np_, update):
        def weighted(x, i, j, values):
            out = update(x, i, j, values)
            return np_.sum(np_.sin(out) * weights[:1] + out ** 2 * weights[3])
        return weighted

    assert_tree_close(
        fg.vmap(fg.grad(loss(fnp, ours), argnums=(0, 3)), in_axes=in_axes)(*args),
        jax.vmap(jax.grad(loss(jnp, theirs), argnums=(0, 3)), in_axes=in_axes)(*args))


def test_at_updates_with_per_example_indices_compose_with_jit_and_nested_vmap():
    x = np.arange(12.0).reshape(3, 4)
    i = np.array([[[0, 2], [1, 1]], [[2, 2], [0, 1]]])  # two batch levels
    values = np.arange(8.0).reshape(2, 2, 2)
    ours = lambda x, i, v: fnp.at(x)[i].set(  # noqa: E731
        v[:, None] * 1.0 + fnp.take(x, i, axis=0))
    theirs = lambda x, i, v: jnp.asarray(x).at[i].set(  # noqa: E731
        v[:, None] * 1.0 + jnp.asarray(x)[i])
    nested = fg.vmap(fg.vmap(ours, in_axes=(None, 0, 0)), in_axes=(None, 0, 0))
    expected = jax.vmap(jax.vmap(theirs, in_axes=(None, 0, 0)), in_axes=(None, 0, 0))(
        x, i, values)
    assert_tree_close(nested(x, i, values), expected)
    jitted = fg.jit(fg.vmap(ours, in_axes=(None, 0, 0)))
    for shift in (0, 1):
        flat = (i[0] + shift) % 3
        assert_tree_close(jitted(x, flat, values[0]),
                          jax.vmap(theirs, in_axes=(None, 0, 0))(x, flat, values[0]))
    assert jitted.trace_count == 1  # the indices are arguments of the program's scatters


@pytest.mark.parametrize("method, mode", [("multiply", None), ("max", None), ("set", "drop")])
def test_at_updates_with_per_example_indices_say_what_is_not_supported(method, mode):
    update = lambda x, i: getattr(fnp.at(x)[i], method)(2.0, mode=mode)  # noqa: E731
    with pytest.raises(NotImplementedError, match=rf"x\.at\[\.\.\.\]\.{method}.*vmap"):
        fg.vmap(update, in_axes=(None, 0))(np.ones(3), np.array([[0], [1]]))


def test_value_reading_functions_elementwise_in_one_argument_batch_in_one_call(monkeypatch):
    # digitize, searchsorted and isin of a batch, the other arguments shared: one NumPy
    # call, no loop (and no warning); a batched second argument still loops.
    from funcgrad.numpy import _batching
    monkeypatch.setattr(_batching, "_reported", set())  # warn again, whatever ran before
    x = np.random.default_rng(1).normal(size=(4, 5))
    bins = np.linspace(-1.0, 1.0, 5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for ours, theirs, axis in [
                (lambda v: fnp.digitize(v, bins), lambda v: jnp.digitize(v, bins), 1),
                (lambda v: fnp.searchsorted(bins, v), lambda v: jnp.searchsorted(bins, v), 0),
                (lambda v: fnp.isin(fnp.round(v), [0.0, 1.0]),
                 lambda v: jnp.isin(jnp.round(v), jnp.array([0.0, 1.0])), -1)]:
            np.testing.assert_array_equal(fg.vmap(ours, in_axes=axis, out_axes=axis)(x),
                                          jax.vmap(theirs, in_axes=axis, out_axes=axis)(x))
    many_bins = np.sort(x, axis=1)
    with pytest.warns(BatchingFallbackWarning, match="searchsorted"):
        looped = fg.vmap(lambda a, v: fnp.searchsorted(a, v))(many_bins, x)
    np.testing.assert_array_equal(looped, jax.vmap(jnp.searchsorted)(many_bins, x))


# ---- masks computed from values: read across the whole batch ------------------------------


@pytest.mark.parametrize("make", [
    lambda np_: lambda x: np_.maximum(x, 0.0),  # a tie at 0 gives each side 1/2
    lambda np_: lambda x: np_.minimum(x, 2.0 * x),  # ties at 0
    lambda np_: lambda x: np_.hypot(x, 0.5 * x),  # hypot(0, 0)'s own derivative
], ids=["maximum", "minimum", "hypot"])
@pytest.mark.parametrize("batch", [
    [[0.0, 1.0, -2.0], [0.5, -1.0, 2.0]],  # the special value in one element only
    [[0.5, 1.0, -2.0], [0.5, -1.0, 2.0]],  # nowhere in the batch
], ids=["in one element", "in none"])
def test_value_dependent_derivatives_per_element_match_jax(make, batch):
    # A rule skips a mask's work where the mask holds nowhere; batched, it must hold
    # nowhere in the whole batch, and each element keeps its own derivative.
    ours, theirs = both(make)
    batch = np.array(batch)
    assert_tree_close(fg.vmap(fg.grad(lambda x: fnp.sum(ours(x))))(batch),
                      jax.vmap(jax.grad(lambda x: jnp.sum(theirs(x))))(batch))


def _tall_batch(rank_deficient):
    """Three 5 x 3 matrices (the middle one of rank 2 where asked) and right-hand sides."""
    rng_ = np.random.default_rng(6)
    a, b = rng_.normal(size=(3, 5, 3)), rng_.normal(size=(3, 5))
    for i in rank_deficient:
        a[i, :, 2] = a[i, :, 0] - a[i, :, 1]
    return a, b


@pytest.mark.parametrize("a, b", [
    _tall_batch(()),  # residuals for every element
    _tall_batch((0, 1, 2)),  # for none: every one rank deficient
    (np.random.default_rng(7).normal(size=(3, 2, 4)),  # wide: for none
     np.random.default_rng(8).normal(size=(3, 2, 2))),
], ids=["tall, full rank", "tall, rank deficient", "wide"])
def test_lstsq_under_vmap_gives_what_a_loop_of_numpy_gives(a, b):
    # Its rank, and so whether it has residuals, is read from the values of each element.
    batched = fg.vmap(fnp.linalg.lstsq)(a, b)
    looped = [np.linalg.lstsq(a[i], b[i]) for i in range(len(a))]
    for ours, theirs in zip(batched, zip(*looped)):
        np.testing.assert_allclose(ours, np.stack(theirs), rtol=1e-10, atol=1e-12)
    square = lambda np_: lambda a, b: np_.sum(np_.linalg.lstsq(a, b)[0] ** 2)  # noqa: E731
    ours, theirs = both(square)
    if np.linalg.matrix_rank(a).min() == min(a.shape[1:]):  # differentiable at full rank
        assert_tree_close(fg.vmap(fg.grad(ours, argnums=(0, 1)))(a, b),
                          jax.vmap(jax.grad(theirs, argnums=(0, 1)))(a, b), rtol=1e-8)


def test_lstsq_under_vmap_refuses_a_batch_with_and_without_residuals():
    with pytest.raises(ValueError, match="vmap: linalg.lstsq's residuals .* no one shape"):
        fg.vmap(fnp.linalg.lstsq)(*_tall_batch((1,)))


# ---- products with a shared matrix: one matrix product for the whole batch ------------------


@pytest.mark.parametrize("axes", [(0, 0), (1, 2), (2, 0)])
def test_batched_outer_products_match_jax(axes):
    # (M, 1) @ (1, N) per element (a vector-matrix product's VJP) is one einsum.
    rng_ = np.random.default_rng(4)
    a = np.moveaxis(rng_.normal(size=(3, 4, 1)), 0, axes[0])
    b = np.moveaxis(rng_.normal(size=(3, 1, 5)), 0, axes[1])
    ours, theirs = both(lambda np_: lambda u, v: np_.tanh(u @ v))
    assert_tree_close(fg.vmap(ours, in_axes=axes)(a, b), jax.vmap(theirs, in_axes=axes)(a, b))
    assert_tree_close(
        fg.vmap(fg.grad(lambda u, v: fnp.sum(ours(u, v)), argnums=(0, 1)), in_axes=axes)(a, b),
        jax.vmap(jax.grad(lambda u, v: jnp.sum(theirs(u, v)), argnums=(0, 1)),
                 in_axes=axes)(a, b))


@pytest.mark.parametrize("example_shape, shared_shape, batched_left", [
    ((4,), (4, 3), True), ((2, 4), (4, 3), True), ((2, 2, 4), (4, 3), True),
    ((4,), (5, 4), False), ((4, 1), (5, 4), False), ((4, 3), (5, 4), False)])
def test_products_with_a_shared_matrix_match_jax(example_shape, shared_shape, batched_left):
    rng_ = np.random.default_rng(3)
    shared = rng_.normal(size=shared_shape)
    for axis in range(len(example_shape) + 1):
        batch = rng_.normal(size=example_shape[:axis] + (5,) + example_shape[axis:])
        ours, theirs = both(lambda np_: (lambda v: np_.sin(v @ shared)) if batched_left
                            else (lambda v: np_.sin(shared @ v)))
        assert_tree_close(fg.vmap(ours, in_axes=axis)(batch),
                          jax.vmap(theirs, in_axes=axis)(batch))
        assert_tree_close(
            fg.vmap(fg.grad(lambda v: fnp.sum(ours(v) ** 2)), in_axes=axis)(batch),
            jax.vmap(jax.grad(lambda v: jnp.sum(theirs(v) ** 2)), in_axes=axis)(batch))
