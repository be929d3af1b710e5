"""Edges of transform compositions, each compared with JAX: custom rules under vmap with a
derivative taken outside it, jit's static and donated arguments, argnums, float0
cotangents, empty batches and linear_transpose; each group tests one finding of a hunt
for wrong answers, and its neighbours."""
import functools
import types
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.tree_util import tree_flatten, tree_map

jax.config.update("jax_enable_x64", True)

# The two libraries under one set of names, so that each case is written once.
OURS = types.SimpleNamespace(lib=fg, np=fnp)
JAX = types.SimpleNamespace(lib=jax, np=jnp)

X = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]])
S = np.array([1.5, 0.5])


def float0_zeros(*shape):
    """The (co)tangent of integer and boolean values, in JAX and here."""
    return np.zeros(shape, dtype=jax.dtypes.float0)


def assert_same(ours, theirs):
    """Same structure, shapes, dtypes and values (to float64 rounding, or float32's)."""
    ours_flat, ours_tree = tree_flatten(ours)
    theirs_flat, theirs_tree = tree_flatten(tree_map(np.asarray, theirs))
    assert ours_tree == theirs_tree, f"structure {ours_tree} != JAX's {theirs_tree}"
    for a, b in zip(map(np.asarray, ours_flat), theirs_flat):
        assert a.shape == b.shape, f"shape {a.shape} != JAX's {b.shape}"
        assert a.dtype == b.dtype, f"dtype {a.dtype} != JAX's {b.dtype}"
        tight = b.dtype == np.float64
        np.testing.assert_allclose(a, b, rtol=1e-10 if tight else 2e-6,
                                   atol=1e-12 if tight else 1e-6)


def assert_matches_jax(program):
    """``program(ns)`` gives the same result with funcgrad as with JAX."""
    assert_same(program(OURS), program(JAX))


# ---- custom_vjp and custom_jvp under vmap, differentiated outside it --------------------
# Running the function on the batch would hide its rule from a transform beneath the vmap:
# each rule below differs from the function's own derivative, so using the wrong one shows.


def scaled_sine_vjp(ns, nondiff=False):
    """sin(x) * d["s"] (times k, a non-differentiated first argument, if ``nondiff``),
    whose bwd doubles the true cotangent of x and gives d["s"] a made-up one; pytree
    arguments and residuals."""
    N = ns.np

    def fun(k, x, d):
        return N.sin(x) * d["s"] * k

    def fwd(k, x, d):
        return fun(k, x, d), {"cos": N.cos(x), "d": d}

    def bwd(k, res, g):
        return (2 * g * res["cos"] * res["d"]["s"] * k,
                {"s": N.sum(g * N.sin(res["cos"])) * N.ones_like(res["d"]["s"])})

    if nondiff:
        custom = ns.lib.custom_vjp(fun, nondiff_argnums=(0,))
        custom.defvjp(fwd, bwd)
        return custom
    custom = ns.lib.custom_vjp(functools.partial(fun, 1.0))
    custom.defvjp(functools.partial(fwd, 1.0), functools.partial(bwd, 1.0))
    return custom


def scaled_sine_jvp(ns, nondiff=False):
    """sin(x) * y (times k, non-differentiated, if ``nondiff``), whose JVP rule triples
    x's true tangent."""
    N = ns.np

    def fun(k, x, y):
        return N.sin(x) * y * k

    def rule(k, primals, tangents):
        (x, y), (tx, ty) = primals, tangents
        return fun(k, x, y), (3 * N.cos(x) * tx * y + N.sin(x) * ty) * k

    if nondiff:
        custom = ns.lib.custom_jvp(fun, nondiff_argnums=(0,))
        custom.defjvp(rule)
        return custom
    custom = ns.lib.custom_jvp(functools.partial(fun, 1.0))
    custom.defjvp(functools.partial(rule, 1.0))
    return custom


def vjp_batched(ns, in_axes=(0, 0), nondiff=False):
    """The custom_vjp function mapped over a batch: x along in_axes[0], d["s"] along
    in_axes[1]; its output batched along axis 0."""
    custom = scaled_sine_vjp(ns, nondiff)
    call = (lambda x, s: custom(3.0, x, {"s": s})) if nondiff else (
        lambda x, s: custom(x, {"s": s}))
    return ns.lib.vmap(call, in_axes=in_axes)


def jvp_batched(ns, in_axes=(0, 0), nondiff=False):
    custom = scaled_sine_jvp(ns, nondiff)
    call = (lambda x, y: custom(3.0, x, y)) if nondiff else custom
    return ns.lib.vmap(call, in_axes=in_axes)


def loss_of(batched):
    """The gradient of a weighted sum of a batched function, with respect to both
    arguments."""
    def gradient(ns, x, s, **options):
        weights = np.cos(np.arange(6.0)).reshape(2, 3).astype(np.asarray(x).dtype)
        return ns.lib.grad(lambda x, s: ns.np.sum(batched(ns, **options)(x, s) * weights),
                           argnums=(0, 1))(x, s)
    return gradient


@pytest.mark.parametrize("batched", [vjp_batched, jvp_batched], ids=["custom_vjp",
                                                                    "custom_jvp"])
@pytest.mark.parametrize("in_axes, x, s", [
    ((0, 0), X, S),
    ((1, 0), X.T, S),          # x mapped along axis 1: its cotangent goes back there
    ((0, None), X, S[0]),      # s shared by the batch: its cotangents summed
], ids=["both-mapped", "axis-1", "shared"])
@pytest.mark.parametrize("nondiff", [False, True], ids=["", "nondiff_argnums"])
def test_grad_of_vmap_of_a_custom_rule_uses_the_rule(batched, in_axes, x, s, nondiff):
    gradient = loss_of(batched)
    assert_matches_jax(lambda ns: gradient(ns, x, s, in_axes=in_axes, nondiff=nondiff))


@pytest.mark.parametrize("batched", [vjp_batched, jvp_batched], ids=["custom_vjp",
                                                                    "custom_jvp"])
def test_grad_of_vmap_of_a_custom_rule_keeps_float32(batched):
    gradient = loss_of(batched)
    assert_matches_jax(lambda ns: gradient(ns, X.astype(np.float32), np.float32(S[0]),
                                           in_axes=(0, None)))


@pytest.mark.parametrize("batched", [vjp_batched, jvp_batched], ids=["custom_vjp",
                                                                    "custom_jvp"])
@pytest.mark.parametrize("outer", ["jacrev", "jit-grad", "vmap-grad", "linearize"])
def test_other_transforms_of_vmap_of_a_custom_rule_use_the_rule(batched, outer):
    def program(ns):
        def mapped(x):
            return batched(ns)(x, x[:, 0])

        if outer == "jacrev":
            return ns.lib.jacrev(mapped)(X)
        if outer == "linearize":
            return ns.lib.linearize(mapped, X)[1](np.cos(X))
        total = ns.lib.grad(lambda x: ns.np.sum(mapped(x) ** 2))
        if outer == "jit-grad":
            return ns.lib.jit(total)(X)
        return ns.lib.vmap(total)(np.stack([X, X[::-1]]))
    if outer == "linearize" and batched is vjp_batched:
        # JAX's linearize is forward mode, which a custom_vjp refuses; ours is reverse
        # mode: its answer is the VJP rule transposed, which jacrev gives too.
        ours = program(OURS)
        rows = np.einsum("ijkl,kl->ij", np.asarray(jax.jacrev(lambda x: jnp.asarray(
            batched(JAX)(x, x[:, 0])))(X)), np.cos(X))
        assert_same(ours, rows)
        return
    assert_matches_jax(program)


def test_forward_transforms_of_vmap_of_a_custom_jvp_use_the_rule():
    assert_matches_jax(lambda ns: ns.lib.jvp(jvp_batched(ns), (X, S), (np.cos(X), S)))
    assert_matches_jax(lambda ns: ns.lib.jacfwd(jvp_batched(ns), argnums=(0, 1))(X, S))
    assert_matches_jax(lambda ns: ns.lib.hessian(
        lambda x: ns.np.sum(jvp_batched(ns)(x, x[:, 1]) ** 2))(X))


def test_forward_mode_of_vmap_of_a_custom_vjp_is_refused_as_without_vmap():
    with pytest.raises(NotImplementedError, match="only a reverse-mode rule"):
        fg.jvp(lambda x: vjp_batched(OURS)(x, S), (X,), (X,))
    with pytest.raises(TypeError, match="forward-mode"):
        jax.jvp(lambda x: vjp_batched(JAX)(x, S), (X,), (X,))


def test_nested_vmaps_of_a_custom_rule_under_grad_use_the_rule():
    def program(ns):
        custom = scaled_sine_vjp(ns)
        inner = ns.lib.vmap(lambda x: custom(x, {"s": x[0]}))
        return ns.lib.grad(lambda x: ns.np.sum(ns.lib.vmap(inner, in_axes=1)(x) ** 2))(
            np.stack([X, X + 1], axis=1))
    assert_matches_jax(program)


def test_a_wrong_cotangent_from_a_batched_bwd_is_named_per_element():
    custom = fg.custom_vjp(lambda x: fnp.sin(x))
    custom.defvjp(lambda x: (fnp.sin(x), x), lambda x, g: (fnp.sum(g),))
    with pytest.raises(ValueError, match=r"shape \(\).*has shape \(3,\)"):
        fg.grad(lambda x: fnp.sum(fg.vmap(custom)(x)))(X)


def test_residuals_that_do_not_depend_on_the_batch_reach_bwd_as_they_are():
    def program(ns):
        N = ns.np
        custom = ns.lib.custom_vjp(lambda x, s: N.sin(x) * s)

        def bwd(residuals, g):
            cos, shape, s = residuals
            assert isinstance(shape, tuple)  # a shape stays a shape, not a batch of them
            return 2 * g * cos * s, N.sum(g * cos) + N.zeros(shape[:0])
        custom.defvjp(lambda x, s: (custom(x, s), (N.cos(x), x.shape, s)), bwd)

        def loss(x, s):
            return N.sum(ns.lib.vmap(custom, in_axes=(1, None))(x, s) ** 2)
        return ns.lib.grad(loss, argnums=(0, 1))(X, S[0])
    assert_matches_jax(program)


@pytest.mark.parametrize("mapped", [False, True], ids=["", "under-vmap"])
def test_custom_vjp_bwd_may_give_an_integer_argument_float0_zeros_as_in_jax(mapped):
    def program(ns):
        N = ns.np
        custom = ns.lib.custom_vjp(lambda x, n: N.sin(x) * n)
        custom.defvjp(lambda x, n: (custom(x, n), (x, n)),
                      lambda r, g: (2 * g * N.cos(r[0]) * r[1], float0_zeros(*np.shape(r[1]))))
        call = ns.lib.vmap(custom, in_axes=(0, None)) if mapped else custom
        x = X if mapped else X[0]
        return ns.lib.grad(lambda x: N.sum(call(x, np.array([1, 2, 3]))))(x)
    assert_matches_jax(program)


def test_forward_mode_refusal_under_vmap_names_a_partials_custom_vjp():
    custom = fg.custom_vjp(functools.partial(lambda k, x: fnp.sin(x) * k, 2.0))
    custom.defvjp(lambda x: (custom(x), x), lambda x, g: (g * x,))
    with pytest.raises(NotImplementedError, match="functools.partial"):
        fg.jvp(fg.vmap(custom), (X,), (X,))


# ---- custom_jvp with a non-differentiated argument that vmap maps ---------------------
# JAX lets a traced value be a custom_jvp's non-differentiated argument: no derivative flows
# through it, and a batch maps it, each element's rule receiving its own (a custom_vjp
# refuses it). K is such an argument, mapped along axis 0 with X's rows.

K = np.array([2.0, -0.5])


def nondiff_mapped(ns, in_axes=(0, 0, 0)):
    """sin(x) * y * k mapped over the batch, k the non-differentiated argument."""
    return ns.lib.vmap(scaled_sine_jvp(ns, nondiff=True), in_axes=in_axes)


def nondiff_mapped_loss(ns, k, x, y):
    weights = np.cos(np.arange(6.0)).reshape(2, 3)
    return ns.np.sum(nondiff_mapped(ns)(k, x, y) * weights)


NONDIFF_MAPPED_PROGRAMS = {
    "vmap": lambda ns: nondiff_mapped(ns)(K, X, X[::-1]),
    "vmap-k-only": lambda ns: nondiff_mapped(ns, (0, None, None))(K, X[0], X[1]),
    "vmap-k-axis-1": lambda ns: nondiff_mapped(ns, (1, 0, None))(np.stack([K, K, K]), X, 2.0),
    "jvp-of-vmap": lambda ns: ns.lib.jvp(nondiff_mapped(ns), (K, X, X[::-1]),
                                         (np.ones(2), np.cos(X), np.sin(X))),
    "jvp-of-vmap-x-shared": lambda ns: ns.lib.jvp(
        lambda x: nondiff_mapped(ns, (0, None, None))(K, x, 2.0), (X[0],), (np.cos(X[0]),)),
    "grad-of-vmap": lambda ns: ns.lib.grad(nondiff_mapped_loss, argnums=(1, 2, 3))(
        ns, K, X, X[::-1]),
    "grad-of-vmap-through-k": lambda ns: ns.lib.grad(nondiff_mapped_loss, argnums=1)(
        ns, K, X, X[::-1]),
    "jacrev-of-vmap": lambda ns: ns.lib.jacrev(
        lambda x: nondiff_mapped(ns)(K, x, X[::-1]))(X),
    "jacfwd-of-vmap": lambda ns: ns.lib.jacfwd(
        lambda x: nondiff_mapped(ns)(K, x, X[::-1]))(X),
    "hessian-of-vmap": lambda ns: ns.lib.hessian(
        lambda x: nondiff_mapped_loss(ns, K, x, x ** 2))(X),
    "vmap-of-grad": lambda ns: ns.lib.vmap(ns.lib.grad(
        lambda k, x, y: ns.np.sum(scaled_sine_jvp(ns, nondiff=True)(k, x, y)),
        argnums=(1, 2)))(K, X, X[::-1]),
    "jit-of-grad-of-vmap": lambda ns: ns.lib.jit(ns.lib.grad(
        lambda x, k: nondiff_mapped_loss(ns, k, x, x)))(X, K),
    "grad-of-nested-vmaps": lambda ns: ns.lib.grad(lambda x: ns.np.sum(ns.lib.vmap(
        lambda k, x: ns.lib.vmap(lambda x: scaled_sine_jvp(ns, nondiff=True)(k, x, x))(x))(
            K, x) ** 2))(X),
}


@pytest.mark.parametrize("program", NONDIFF_MAPPED_PROGRAMS.values(),
                         ids=NONDIFF_MAPPED_PROGRAMS.keys())
def test_custom_jvp_with_a_mapped_nondiff_argument_matches_jax(program):
    assert_matches_jax(program)


def test_custom_vjp_with_a_mapped_nondiff_argument_is_refused_as_in_jax():
    def program(ns):
        return ns.lib.vmap(scaled_sine_vjp(ns, nondiff=True))(K, X, {"s": X})
    with pytest.raises(jax.errors.UnexpectedTracerError, match="nondiff_argnums"):
        program(JAX)
    with pytest.raises(TypeError, match="argument 0 of fun is in nondiff_argnums but holds a "
                                        "value traced by a transform"):
        program(OURS)


# ---- custom rules of functions without a __name__ ------------------------------------


class Square:
    """A callable object: no __name__ of its own."""

    def __call__(self, x):
        return x ** 2


@pytest.mark.parametrize("fun", [functools.partial(lambda k, x: k * x ** 2, 1.0), Square()],
                         ids=["partial", "callable-object"])
def test_custom_rules_of_partials_and_callable_objects_differentiate_and_report(fun):
    def program(ns):
        custom = ns.lib.custom_vjp(fun)
        custom.defvjp(lambda x: (fun(x), x), lambda x, g: (3 * g * x,))
        return ns.lib.grad(lambda x: ns.np.sum(custom(x)))(X)
    assert_matches_jax(program)
    unruled = fg.custom_jvp(fun)
    with pytest.raises(TypeError, match="has no rule yet"):
        fg.grad(lambda x: fnp.sum(unruled(x)))(X)


# ---- jit: argument choices the function cannot take ----------------------------------


def power(x, k=2):
    return x ** k


@pytest.mark.parametrize("choices", [
    {"static_argnames": "kk"},                        # a typo: would be traced silently
    {"static_argnums": 2},
    {"donate_argnums": 5},
    {"static_argnums": 1, "donate_argnums": 1},
], ids=["unknown-name", "static-position", "donated-position", "static-and-donated"])
def test_jit_refuses_argument_choices_the_function_cannot_take_as_jax_does(choices):
    with pytest.raises(ValueError):
        jax.jit(power, **choices)
    with pytest.raises(ValueError, match="funcgrad.jit\\(power\\)"):
        fg.jit(power, **choices)


def test_jit_takes_any_position_or_name_a_function_of_varargs_and_kwargs_may_receive():
    def f(x, *args, **kwargs):
        return x * args[1] * kwargs["scale"]
    jitted = fg.jit(f, static_argnums=2, static_argnames="scale")
    assert_same(jitted(X, 1.0, 3, scale=2), jax.jit(f, static_argnums=2,
                                                    static_argnames="scale")(X, 1.0, 3,
                                                                            scale=2))


@pytest.mark.parametrize("first, second", [(2, 2.0), (2.0, 2), (1, True)])
@pytest.mark.parametrize("by_name", [False, True], ids=["argnums", "argnames"])
def test_jit_traces_equal_static_values_of_different_types_apart(first, second, by_name):
    def f(x, n):  # each type of n gives another program, as a dtype would
        return {float: x * 0.5, bool: x - 1}.get(type(n), x + n)
    for lib in (fg, jax):
        jitted = lib.jit(f, **({"static_argnames": "n"} if by_name else {"static_argnums": 1}))
        results = [jitted(X, n=n) if by_name else jitted(X, n) for n in (first, second, first)]
        assert_same(results, [f(X, n) for n in (first, second, first)])


def test_negative_static_argnums_count_from_the_end_of_each_call_as_in_jax():
    def kinds(x, b=1, c=2):  # which arguments were traced: their types differ
        return x * 0 + len({type(b).__name__, type(c).__name__}) * 10 + isinstance(b, int)
    # Called with c by keyword, -1 is x: a number, so that it can be static.
    calls = [((X, 2), {}), ((X, 2, 3), {}), ((1.5,), {"c": 3})]
    for args, kwargs in calls:
        assert_same(fg.jit(kinds, static_argnums=-1)(*args, **kwargs),
                    jax.jit(kinds, static_argnums=-1)(*args, **kwargs))
    with pytest.raises(ValueError):  # with keywords only, -1 names no argument
        jax.jit(kinds, static_argnums=-1)(x=X)
    with pytest.raises(ValueError, match="this call has 0; pass that argument positionally"):
        fg.jit(kinds, static_argnums=-1)(x=X)
    with pytest.raises(ValueError, match="static_argnums includes \\[-4\\]"):
        fg.jit(kinds, static_argnums=-4)


def test_negative_donate_argnums_donate_nothing_as_in_jax():
    def f(x, y):
        return fnp.sin(x) * 2.0 + y

    x, y = np.linspace(0.0, 1.0, 5000), np.linspace(1.0, 2.0, 5000)
    for donate in (-1, (-2, -1)):
        lowered = jax.jit(lambda x, y: jnp.sin(x) * 2.0 + y, donate_argnums=donate).lower(x, y)
        assert not any(arg.donated for arg in jax.tree_util.tree_leaves(lowered.args_info))
        with pytest.warns(UserWarning, match="count from the end; as in JAX, such a position "
                                             "donates nothing"):
            jitted = fg.jit(f, donate_argnums=donate)
        assert "out=a" not in jitted.lower(x, y).as_text()
        assert "out=b" not in jitted.lower(x, y).as_text()
        given = (x.copy(), y.copy())
        for _ in range(3):  # the first call traces, the next ones replay
            assert_same(jitted(*given), f(x, y))
        assert_same(given, (x, y))  # neither argument written into
    assert "out=a" in fg.jit(f, donate_argnums=0).lower(x, y).as_text()  # (what donating is)
    with pytest.raises(ValueError):
        jax.jit(f, donate_argnums=-3)
    with pytest.raises(ValueError, match="donate_argnums includes \\[-3\\]"):
        fg.jit(f, donate_argnums=-3)


# ---- argnums -------------------------------------------------------------------------


@pytest.mark.parametrize("transform", ["grad", "value_and_grad", "jacfwd", "jacrev"])
def test_argnums_naming_an_argument_twice_through_a_negative_index_is_refused(transform):
    f = getattr(fg, transform)(lambda p, q: fnp.sum(p ** 2) * q ** 2, argnums=(0, -2))
    with pytest.raises(ValueError, match=r"repeats an argument.*\(0, 0\)"):
        f(X[0], 2.0)


@pytest.mark.parametrize("argnums", [(-1, 0), (-2, -1), -2])
def test_negative_argnums_match_jax(argnums):
    assert_matches_jax(lambda ns: ns.lib.value_and_grad(
        lambda p, q: ns.np.sum(ns.np.sin(p) * q ** 2), argnums=argnums)(X[0], 2.0))
    assert_matches_jax(lambda ns: ns.lib.jacfwd(
        lambda p, q: ns.np.sin(p) * q ** 2, argnums=argnums)(X[0], 2.0))


# ---- vjp: cotangents of integer outputs ------------------------------------------------


@pytest.mark.parametrize("outer", ["none", "vmap", "jit"])
def test_vjp_takes_float0_cotangents_for_integer_and_boolean_outputs_as_jax(outer):
    def program(ns):
        N = ns.np

        def f(v):
            return N.sin(v), N.argmax(v), v > 0

        def pulled_back(x):
            return ns.lib.vjp(f, x)[1]((N.cos(x), float0_zeros(), float0_zeros(3)))
        if outer == "vmap":
            pullback = ns.lib.vjp(f, X[0])[1]
            return ns.lib.vmap(pullback)((np.cos(X), float0_zeros(2), float0_zeros(2, 3)))
        return ns.lib.jit(pulled_back)(X[0]) if outer == "jit" else pulled_back(X[0])
    assert_matches_jax(program)


def test_vjp_still_refuses_float0_cotangents_of_the_wrong_shape_or_for_float_outputs():
    pullback = fg.vjp(lambda v: (v * 2, fnp.argmax(v)), X[0])[1]
    with pytest.raises(ValueError, match="output 1 has shape \\(2,\\)"):
        pullback((X[0], float0_zeros(2)))
    with pytest.raises(ValueError, match="output 0 has shape \\(3,\\) and dtype"):
        pullback((float0_zeros(3), float0_zeros()))


# ---- batches of size 0 ---------------------------------------------------------------


@pytest.mark.parametrize("in_axes", [0, 2])
@pytest.mark.parametrize("function", ["argmax", "argmin", "median", "sort", "argsort", "ptp"])
def test_functions_over_all_axes_of_an_empty_batch_match_jax(function, in_axes):
    def program(ns):
        f = getattr(ns.np, function)
        call = (lambda r: f(r, axis=None)) if function in ("sort", "argsort") else f
        return ns.lib.vmap(call, in_axes=in_axes)(np.moveaxis(np.zeros((0, 3, 2)), 0, in_axes))
    assert_matches_jax(program)


def test_value_reading_functions_say_an_empty_batch_has_no_element_to_read():
    """flatnonzero's result shape depends on the values (JAX cannot vmap it at all)."""
    with warnings.catch_warnings():  # the loop's warning, given once per process
        warnings.simplefilter("ignore", fg.core.BatchingFallbackWarning)
        with pytest.raises(ValueError, match="batch of size 0 gives no element"):
            fg.vmap(fnp.flatnonzero)(np.zeros((0, 3, 3)))


# ---- linear_transpose -----------------------------------------------------------------


@pytest.mark.parametrize("nonlinear", [lambda v: v * v, lambda v: v * v[0], fnp.abs, fnp.sort,
                                       lambda v: fnp.maximum(v, 0.0)],
                         ids=["square", "product", "abs", "sort", "relu"])
def test_linear_transpose_refuses_nonlinear_functions_that_vanish_at_zero(nonlinear):
    # Each is zero at zero, where its VJP is what a transpose would be if it were linear.
    with pytest.raises(ValueError, match="not linear"):
        fg.linear_transpose(nonlinear, np.zeros(3))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_linear_transpose_of_linear_functions_matches_jax(dtype):
    matrix = (np.arange(12.0).reshape(4, 3) / 7).astype(dtype)

    def program(ns):
        def f(v, w):
            return {"m": matrix @ v + ns.np.cumsum(w)[::-1], "s": ns.np.sum(v) * 2}
        primals = (np.zeros(3, dtype), np.zeros(4, dtype))
        ct = {"m": np.cos(np.arange(4.0)).astype(dtype), "s": np.asarray(1.5, dtype)}
        return ns.lib.linear_transpose(f, *primals)(ct)
    assert_matches_jax(program)
