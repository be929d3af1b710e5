"""checkpoint (remat): same derivatives, intermediates recomputed instead of kept; its
policies, static_argnums and prevent_cse against JAX."""
import functools
import tracemalloc
import types

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.ad_checkpoint import checkpoint_name

import funcgrad as fg
import funcgrad.numpy as fnp

jax.config.update("jax_enable_x64", True)

RNG = np.random.default_rng(2)


def block(x):
    """Eight elementwise steps: eight intermediates a VJP would keep."""
    for _ in range(8):
        x = fnp.sin(x) * 1.01
    return x


def chain(b):
    def f(x):
        for _ in range(8):
            x = b(x)
        return fnp.sum(x)
    return f


def test_same_derivatives_in_every_mode():
    x = RNG.standard_normal(5)
    plain, remat = chain(block), chain(fg.checkpoint(block))
    np.testing.assert_allclose(fg.grad(remat)(x), fg.grad(plain)(x), rtol=1e-12)
    np.testing.assert_allclose(fg.jvp(remat, (x,), (x,))[1], fg.jvp(plain, (x,), (x,))[1])
    np.testing.assert_allclose(fg.hessian(remat)(x), fg.hessian(plain)(x), rtol=1e-10)
    np.testing.assert_allclose(fg.grad(fg.grad(lambda x: remat(x * x)))(0.3),
                               fg.grad(fg.grad(lambda x: plain(x * x)))(0.3), rtol=1e-10)


def test_pytrees_keywords_constants_and_integer_outputs():
    @fg.remat
    def layer(params, x, *, scale):
        h = fnp.tanh(x @ params["w"]) * scale
        return {"h": h, "count": np.sum(np.asarray(fg.stop_gradient(h)) > 0)}

    def loss(params, x, scale):
        out = layer(params, x, scale=scale)
        return fnp.sum(out["h"] ** 2) + out["count"]

    params = {"w": RNG.standard_normal((3, 2))}
    x, scale = RNG.standard_normal((4, 3)), 1.5
    expected = fg.grad(lambda p, x, s: fnp.sum((fnp.tanh(x @ p["w"]) * s) ** 2),
                       argnums=(0, 1, 2))(params, x, scale)
    got = fg.grad(loss, argnums=(0, 1, 2))(params, x, scale)
    for a, b in zip(fg.tree_util.tree_leaves(got), fg.tree_util.tree_leaves(expected)):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_backward_pass_runs_the_function_again():
    calls = []

    @fg.checkpoint
    def f(x):
        calls.append(1)
        return fnp.exp(x)

    fg.grad(lambda x: f(x) * 2.0)(1.0)
    assert len(calls) == 2
    f(1.0)  # no transform: just a call
    assert len(calls) == 3


def _memory(f, x):
    """Bytes held by the VJP after the forward pass, and the peak during vjp + pullback."""
    tracemalloc.start()
    try:
        _, pullback = fg.vjp(f, x)
        held = tracemalloc.get_traced_memory()[0]
        pullback(1.0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return held, peak


def test_checkpoint_keeps_fewer_intermediates():
    x = np.linspace(0.0, 1.0, 20_000)  # 160 kB per intermediate
    held, peak = _memory(chain(block), x)
    held_remat, peak_remat = _memory(chain(fg.checkpoint(block)), x)
    # 64 intermediates kept without remat; with it, the 8 block inputs (and, during the
    # backward pass, one block's intermediates at a time).
    assert held_remat < held / 4, (held_remat, held)
    assert peak_remat < peak / 2, (peak_remat, peak)


def test_forward_mode_just_calls_the_function():
    f = fg.checkpoint(lambda x: fnp.sin(x) ** 2)
    out, tangent = fg.jvp(f, (0.5,), (1.0,))
    assert tangent == pytest.approx(np.sin(1.0))


# ---- policy, static_argnums and prevent_cse, against JAX --------------------------------

W1 = RNG.standard_normal((3, 4))
W2 = RNG.standard_normal((4, 2))
X = RNG.standard_normal((5, 3))
JAX_NAMES = types.SimpleNamespace(checkpoint_name=checkpoint_name,
                                  checkpoint_policies=jax.checkpoint_policies)
POLICIES = ["everything_saveable", "nothing_saveable", "dots_saveable", "checkpoint_dots",
            "dots_with_no_batch_dims_saveable", "checkpoint_dots_with_no_batch_dims",
            "save_only_these_names", "save_any_names_but_these", "save_from_both_policies"]


def policy_of(lib, name):
    """The policy called ``name`` in `lib` (fg, or JAX_NAMES), given names where it takes
    them."""
    policies = lib.checkpoint_policies
    if name == "save_only_these_names":
        return policies.save_only_these_names("h")
    if name == "save_any_names_but_these":
        return policies.save_any_names_but_these("other")
    if name == "save_from_both_policies":
        return policies.save_from_both_policies(policies.dots_saveable,
                                                policies.save_only_these_names("h"))
    return getattr(policies, name)


def mlp_loss(lib, np_, checkpoint, **options):
    """Two layers checkpointed as one block (the hidden one named "h"), then a loss."""
    @functools.partial(checkpoint, **options)
    def block(x):
        h = lib.checkpoint_name(np_.tanh(x @ W1), "h")
        return np_.sin(h @ W2)
    return lambda x: np_.sum(block(x) ** 2)


@pytest.mark.parametrize("policy", POLICIES)
def test_each_policy_gives_jax_values_and_derivatives(policy):
    ours = mlp_loss(fg, fnp, fg.checkpoint, policy=policy_of(fg, policy))
    theirs = mlp_loss(JAX_NAMES, jnp, jax.checkpoint, policy=policy_of(JAX_NAMES, policy))
    np.testing.assert_allclose(ours(X), theirs(X), rtol=1e-12)
    np.testing.assert_allclose(fg.grad(ours)(X), jax.grad(theirs)(X), rtol=1e-11)
    np.testing.assert_allclose(fg.hessian(ours)(X), jax.hessian(theirs)(X), rtol=1e-10,
                               atol=1e-12)
    rows = lambda lib, loss: lib.vmap(lib.grad(lambda row: loss(row[None])))  # noqa: E731
    np.testing.assert_allclose(rows(fg, ours)(X), rows(jax, theirs)(X), rtol=1e-11)
    np.testing.assert_allclose(fg.jit(fg.grad(ours))(X), jax.jit(jax.grad(theirs))(X),
                               rtol=1e-11)


def recomputed(loss, *names):
    """How many times grad's program applies each primitive named (its forward pass and
    what the backward pass reruns), read from the graph make_graph records."""
    applied = fg.make_graph(fg.grad(loss))(X).primitive_names
    return {name: applied.count(name) for name in names}


@pytest.mark.parametrize("policy, reruns", [
    (None, {"matmul": 2, "tanh": 1, "sin": 1}),                  # the default: everything
    ("nothing_saveable", {"matmul": 2, "tanh": 1, "sin": 1}),
    ("everything_saveable", {"matmul": 0, "tanh": 0, "sin": 0}),  # as without checkpoint
    ("dots_saveable", {"matmul": 0, "tanh": 1, "sin": 1}),
    ("dots_with_no_batch_dims_saveable", {"matmul": 0, "tanh": 1, "sin": 1}),
    ("save_only_these_names", {"matmul": 2, "tanh": 0, "sin": 1}),  # h, and what made it
])
def test_the_policy_decides_what_the_backward_pass_reruns(policy, reruns):
    names = ("matmul", "tanh", "sin")
    plain = recomputed(mlp_loss(fg, fnp, lambda f, **options: f), *names)
    options = {} if policy is None else {"policy": policy_of(fg, policy)}
    checkpointed = recomputed(mlp_loss(fg, fnp, fg.checkpoint, **options), *names)
    assert {name: checkpointed[name] - plain[name] for name in names} == reruns


@pytest.mark.parametrize("a_shape, b_shape", [
    ((3, 4), (4, 5)), ((2, 3, 4), (4, 5)), ((2, 3, 4), (2, 4, 5)), ((1, 3, 4), (2, 4, 5)),
    ((2, 3, 4), (1, 4, 5)), ((4,), (2, 4, 5)), ((2, 2, 3, 4), (2, 4, 5)),
])
def test_matmuls_count_as_batched_where_jax_gives_dot_general_batch_dimensions(a_shape,
                                                                               b_shape):
    a, b = np.ones(a_shape), np.ones(b_shape)
    (equation,) = [eq for eq in jax.make_jaxpr(jnp.matmul)(a, b).eqns
                   if eq.primitive.name == "dot_general"]
    (_, _), (batch_a, batch_b) = equation.params["dimension_numbers"]
    matmul = fg.make_graph(fnp.matmul)(a, b).equations[0].primitive
    policies = fg.checkpoint_policies
    assert policies.dots_with_no_batch_dims_saveable(matmul, a, b) == (not batch_a)
    assert policies.dots_saveable(matmul, a, b)


@pytest.mark.parametrize("subscripts, shapes", [
    ("ij,jk->ik", [(2, 3), (3, 4)]), ("bij,bjk->bik", [(2, 2, 3), (2, 3, 4)]),
    ("bij,bjk->ik", [(2, 2, 3), (2, 3, 4)]), ("i,j->ij", [(2,), (3,)]),
])
def test_einsums_count_as_batched_where_jax_gives_dot_general_batch_dimensions(subscripts,
                                                                               shapes):
    operands = [np.ones(shape) for shape in shapes]
    (equation,) = jax.make_jaxpr(lambda *o: jnp.einsum(subscripts, *o))(*operands).eqns
    (_, _), (batch, _) = equation.params["dimension_numbers"]
    (ours,) = fg.make_graph(lambda *o: fnp.einsum(subscripts, *o))(*operands).equations
    assert fg.checkpoint_policies.dots_with_no_batch_dims_saveable(
        ours.primitive, *operands, **ours.params) == (not batch)


def test_a_batched_matmul_is_rerun_under_dots_with_no_batch_dims_saveable():
    stack = RNG.standard_normal((2, 3, 3))

    def loss(policy):
        block = fg.checkpoint(lambda x: fnp.tanh(fnp.tanh(x @ stack) @ W1), policy=policy)
        return lambda x: fnp.sum(block(x))
    x = RNG.standard_normal((2, 5, 3))
    policies = fg.checkpoint_policies
    for policy, reruns in [(policies.dots_saveable, 0),
                           (policies.dots_with_no_batch_dims_saveable, 1)]:
        applied = fg.make_graph(fg.grad(loss(policy)))(x).primitive_names
        assert applied.count("matmul") == 4 + reruns  # 2 forward, 2 backward, the reruns
    theirs = jax.checkpoint(lambda x: jnp.tanh(jnp.tanh(x @ stack) @ W1),
                            policy=jax.checkpoint_policies.dots_with_no_batch_dims_saveable)
    np.testing.assert_allclose(
        fg.grad(loss(policies.dots_with_no_batch_dims_saveable))(x),
        jax.grad(lambda x: jnp.sum(theirs(x)))(x), rtol=1e-11)


@pytest.mark.parametrize("prevent_cse, tanh_calls", [(True, 2), (False, 1)])
def test_prevent_cse_keeps_jit_from_merging_the_rerun_into_the_first_run(prevent_cse,
                                                                         tanh_calls):
    loss = mlp_loss(fg, fnp, fg.checkpoint, prevent_cse=prevent_cse,
                    policy=fg.checkpoint_policies.dots_saveable)
    jitted = fg.jit(fg.value_and_grad(loss))
    assert jitted.lower(X).as_text().count("tanh_(") == tanh_calls
    theirs = mlp_loss(JAX_NAMES, jnp, jax.checkpoint, prevent_cse=prevent_cse)
    for a, b in zip(jitted(X), jax.value_and_grad(theirs)(X)):
        np.testing.assert_allclose(a, b, rtol=1e-11)


@pytest.mark.parametrize("static_argnums", [(1,), (-2,), 1])
def test_static_argnums_match_jax(static_argnums):
    def loss(lib, np_, x, shift):
        def block(x, n, shift):
            for _ in range(n):  # Python control flow on the static argument
                x = np_.sin(x) * shift
            return x
        return np_.sum(lib.checkpoint(block, static_argnums=static_argnums)(x, 3, shift))
    ours = fg.grad(lambda x, s: loss(fg, fnp, x, s), argnums=(0, 1))(X, 1.5)
    theirs = jax.grad(lambda x, s: loss(jax, jnp, x, s), argnums=(0, 1))(X, 1.5)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_static_argnums_out_of_range_are_refused_as_in_jax():
    def f(x, n):
        return x * n
    with pytest.raises(ValueError, match="static_argnums"):
        jax.checkpoint(f, static_argnums=(2,))(1.0, 2.0)
    with pytest.raises(ValueError, match="static_argnums includes 2, but the function was "
                                         "called with 2 positional arguments"):
        fg.checkpoint(f, static_argnums=(2,))(1.0, 2.0)


def test_a_function_that_runs_differently_the_second_time_is_reported():
    runs = []

    @functools.partial(fg.checkpoint, policy=fg.checkpoint_policies.everything_saveable)
    def impure(x):
        runs.append(1)
        return fnp.sin(x) if len(runs) == 1 else fnp.cos(x)

    with pytest.raises(RuntimeError, match="applied 'cos' where its first run applied 'sin'; "
                                           "a checkpointed function must be pure"):
        fg.grad(impure)(0.5)


def test_checkpoint_name_is_the_identity_in_every_mode():
    named = lambda x: fg.checkpoint_name(fnp.sin(x), "s") * 2.0  # noqa: E731
    plain = lambda x: fnp.sin(x) * 2.0  # noqa: E731
    x = RNG.standard_normal(4)
    np.testing.assert_allclose(named(x), plain(x))
    np.testing.assert_allclose(fg.jacfwd(named)(x), fg.jacrev(plain)(x))
    np.testing.assert_allclose(fg.vmap(fg.grad(lambda v: fnp.sum(named(v))))(x[:, None]),
                               fg.vmap(fg.grad(lambda v: fnp.sum(plain(v))))(x[:, None]))
    with pytest.raises(TypeError, match="name must be a string"):
        fg.checkpoint_name(x, 3)
