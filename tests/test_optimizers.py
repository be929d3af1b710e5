"""funcgrad.example_libraries.optimizers against jax.example_libraries.optimizers: every
optimizer's trajectory, step by step, on a quadratic and on a nonconvex function over a
pytree of parameters; the schedules; the utilities; the state's (de)serialization."""
import pickle

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from jax.example_libraries import optimizers as jax_optimizers

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.example_libraries import optimizers
from funcgrad.flatten_util import ravel_pytree
from funcgrad.tree_util import tree_leaves

jax.config.update("jax_enable_x64", True)

rng = np.random.default_rng(0)
A = rng.standard_normal((3, 3))
A = A @ A.T + np.eye(3)  # positive definite
B = rng.standard_normal((2, 2))


def quadratic(np_, params):
    w, m, s = params["w"], params["m"], params["s"]
    return (0.5 * w @ A @ w - np_.sum(w) + np_.sum((m - B) ** 2) + 3.0 * (s - 0.5) ** 2)


def nonconvex(np_, params):
    x, y = params  # Rosenbrock in (x[0], y) plus a rippled bowl in x
    return ((1.0 - x[0]) ** 2 + 10.0 * (y - x[0] ** 2) ** 2
            + np_.sum(np_.sin(3.0 * x) * x ** 2) + 0.1 * np_.sum(x ** 4))


def initial_params(loss, dtype=np.float64, seed=1):
    """Starting parameters, the same whatever ran before: drawn from the module's generator
    they depended on which tests xdist gave the worker first (a float32 Adam trajectory
    then met JAX's within 2e-5 in some runs and not in others)."""
    draw = np.random.default_rng(seed)
    if loss is quadratic:
        return {"w": draw.standard_normal(3).astype(dtype),
                "m": draw.standard_normal((2, 2)).astype(dtype), "s": dtype(1.5)}
    return [draw.standard_normal(4).astype(dtype), dtype(-0.5)]


# (name, positional hyperparameters, keyword hyperparameters)
OPTIMIZERS = [
    ("sgd", (0.05,), {}),
    ("momentum", (0.02, 0.9), {}),
    ("nesterov", (0.02, 0.8), {}),
    ("adagrad", (0.3,), {}),
    ("adagrad", (0.3,), {"momentum": 0.5}),
    ("rmsprop", (0.02,), {}),
    ("rmsprop", (0.02,), {"gamma": 0.5, "eps": 1e-4}),
    ("rmsprop_momentum", (0.01,), {}),
    ("adam", (0.05,), {}),
    ("adam", (0.05,), {"b1": 0.5, "b2": 0.9, "eps": 1e-6}),
    ("adamax", (0.05,), {}),
    ("sm3", (0.3,), {}),
    ("sm3", (0.3,), {"momentum": 0.0}),
]
IDS = [f"{name}-{i}" for i, (name, _, _) in enumerate(OPTIMIZERS)]


def _run_both(spec, loss, params, steps, ours_schedule=None, jax_schedule=None):
    """Run our optimizer and JAX's side by side; compare parameters and state each step."""
    name, args, kwargs = spec
    ours_args = (ours_schedule,) + args[1:] if ours_schedule else args
    jax_args = (jax_schedule,) + args[1:] if jax_schedule else args
    init, update, get_params = getattr(optimizers, name)(*ours_args, **kwargs)
    jax_init, jax_update, jax_get_params = getattr(jax_optimizers, name)(*jax_args, **kwargs)
    state, jax_state = init(params), jax_init(params)
    grad_loss = fg.grad(lambda p: loss(fnp, p))
    jax_grad_loss = jax.grad(lambda p: loss(jnp, p))
    rtol = 1e-9 if tree_leaves(params)[0].dtype == np.float64 else 2e-5
    for step in range(steps):
        state = update(step, grad_loss(get_params(state)), state)
        jax_state = jax_update(step, jax_grad_loss(jax_get_params(jax_state)), jax_state)
        ours, theirs = tree_leaves(state), jax.tree_util.tree_leaves(jax_state)
        assert len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            assert np.asarray(a).dtype == np.asarray(b).dtype, (step, a, b)
            # Entries near 0 are compared against the problem's scale (parameters of order
            # 1), not only the leaf's: a step cancels to within a few ulps of the values it
            # is computed from, and a leaf converging to 0 (sm3's 8e-8) is smaller.
            scale = max(1.0, float(np.max(np.abs(np.asarray(b)), initial=0.0)))
            np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol * scale,
                                       err_msg=f"{name} differs from JAX at step {step}")
    assert np.all(np.isfinite(ravel_pytree(get_params(state))[0])), "the run diverged"
    return get_params(state)


@pytest.mark.parametrize("spec", OPTIMIZERS, ids=IDS)
def test_trajectory_on_a_quadratic_matches_jax(spec):
    params = initial_params(quadratic)
    final = _run_both(spec, quadratic, params, steps=25)
    # Also a sanity check that the run made progress.
    assert quadratic(np, final) < quadratic(np, params)


@pytest.mark.parametrize("spec", OPTIMIZERS, ids=IDS)
def test_trajectory_on_a_nonconvex_function_matches_jax(spec):
    name, args, kwargs = spec  # smaller steps: the Rosenbrock valley is steep
    _run_both((name, (args[0] / 5,) + args[1:], kwargs), nonconvex,
              initial_params(nonconvex), steps=20)


@pytest.mark.parametrize("spec", [OPTIMIZERS[i] for i in (0, 2, 3, 6, 8, 10, 11)],
                         ids=[IDS[i] for i in (0, 2, 3, 6, 8, 10, 11)])
def test_float32_parameters_stay_float32_and_match_jax(spec):
    _run_both(spec, quadratic, initial_params(quadratic, np.float32), steps=20)


SCHEDULES = [
    ("constant", (0.1,), {}),
    ("exponential_decay", (0.1, 5, 0.5), {}),
    ("inverse_time_decay", (0.1, 4, 2.0), {}),
    ("inverse_time_decay", (0.1, 4, 2.0), {"staircase": True}),
    ("polynomial_decay", (0.1, 10, 0.01), {}),
    ("polynomial_decay", (0.1, 10, 0.01), {"power": 2.0}),
    ("piecewise_constant", ([3, 8], [0.1, 0.05, 0.01]), {}),
]


@pytest.mark.parametrize("schedule", SCHEDULES, ids=[f"{s[0]}-{i}" for i, s in
                                                     enumerate(SCHEDULES)])
def test_schedules_match_jax(schedule):
    name, args, kwargs = schedule
    ours = getattr(optimizers, name)(*args, **kwargs)
    theirs = getattr(jax_optimizers, name)(*args, **kwargs)
    for step in range(25):
        np.testing.assert_allclose(ours(step), theirs(step), rtol=1e-14, err_msg=str(step))


@pytest.mark.parametrize("spec", [OPTIMIZERS[i] for i in (1, 5, 8, 11)],
                         ids=[IDS[i] for i in (1, 5, 8, 11)])
def test_optimizers_with_schedules_match_jax(spec):
    _run_both(spec, quadratic, initial_params(quadratic), steps=20,
              ours_schedule=optimizers.exponential_decay(spec[1][0], 5, 0.5),
              jax_schedule=jax_optimizers.exponential_decay(spec[1][0], 5, 0.5))
    _run_both(spec, quadratic, initial_params(quadratic), steps=20,
              ours_schedule=optimizers.piecewise_constant([5, 10], [spec[1][0], 0.01, 0.001]),
              jax_schedule=jax_optimizers.piecewise_constant([5, 10],
                                                             [spec[1][0], 0.01, 0.001]))


@given(step_size=st.floats(1e-3, 0.5), b1=st.floats(0.0, 0.99), b2=st.floats(0.5, 0.9999))
def test_adam_matches_jax_for_any_hyperparameters(step_size, b1, b2):
    _run_both(("adam", (step_size,), {"b1": b1, "b2": b2}), nonconvex,
              initial_params(nonconvex), steps=10)


def test_a_schedule_that_is_not_a_scalar_is_a_type_error():
    with pytest.raises(TypeError, match="scalar or a schedule.*shape \\(2,\\)"):
        optimizers.sgd(np.array([0.1, 0.2]))


def test_piecewise_constant_rejects_what_jax_rejects():
    for boundaries, values in (([1, 2], [0.1, 0.2]), ([[1]], [[0.1, 0.2]])):
        with pytest.raises(ValueError):
            jax_optimizers.piecewise_constant(boundaries, values)
        with pytest.raises(ValueError, match="piecewise_constant"):
            optimizers.piecewise_constant(boundaries, values)


def test_gradients_of_another_structure_are_a_type_error():
    init, update, _ = optimizers.adam(0.1)
    state = init({"w": np.ones(2), "b": np.zeros(1)})
    with pytest.raises(TypeError, match="structure"):
        jax_optimizers.adam(0.1)[1](0, [np.ones(2)], jax_optimizers.adam(0.1)[0](
            {"w": np.ones(2), "b": np.zeros(1)}))
    with pytest.raises(TypeError, match="gradients with structure.*initialized"):
        update(0, [np.ones(2)], state)


def test_a_state_that_is_not_an_optimizer_state_is_a_type_error():
    _, update, get_params = optimizers.sgd(0.1)
    with pytest.raises(TypeError, match="OptimizerState that init_fn"):
        get_params({"w": np.ones(2)})
    with pytest.raises(TypeError, match="OptimizerState that init_fn"):
        update(0, np.ones(2), np.ones(2))


def test_l2_norm_and_clip_grads_match_jax():
    tree = {"a": rng.standard_normal((2, 3)), "b": [rng.standard_normal(4), 0.5]}
    np.testing.assert_allclose(optimizers.l2_norm(tree), jax_optimizers.l2_norm(tree),
                               rtol=1e-14)
    for max_norm in (0.5, 100.0):
        ours = tree_leaves(optimizers.clip_grads(tree, max_norm))
        theirs = jax.tree_util.tree_leaves(jax_optimizers.clip_grads(tree, max_norm))
        for a, b in zip(ours, theirs):
            np.testing.assert_allclose(a, b, rtol=1e-14)
    grad_ours = fg.grad(lambda t: optimizers.l2_norm(optimizers.clip_grads(t, 1.0)) ** 2)(tree)
    grad_jax = jax.grad(lambda t: jax_optimizers.l2_norm(
        jax_optimizers.clip_grads(t, 1.0)) ** 2)(tree)
    for a, b in zip(tree_leaves(grad_ours), jax.tree_util.tree_leaves(grad_jax)):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-14)


def test_unpacked_state_pickles_and_packs_back_into_the_same_run():
    init, update, get_params = optimizers.adam(0.05)
    loss_grad = fg.grad(lambda p: quadratic(fnp, p))
    state = init(initial_params(quadratic))
    for step in range(3):
        state = update(step, loss_grad(get_params(state)), state)
    unpacked = unpack_compare = optimizers.unpack_optimizer_state(state)
    assert isinstance(unpacked["w"], optimizers.JoinPoint)
    restored = optimizers.pack_optimizer_state(pickle.loads(pickle.dumps(unpack_compare)))
    assert restored.tree_def == state.tree_def and restored.subtree_defs == state.subtree_defs
    for a, b in zip(tree_leaves(restored), tree_leaves(state)):
        np.testing.assert_array_equal(a, b)
    continued = update(3, loss_grad(get_params(state)), state)
    resumed = update(3, loss_grad(get_params(restored)), restored)
    for a, b in zip(tree_leaves(continued), tree_leaves(resumed)):
        np.testing.assert_array_equal(a, b)
    # JAX's unpacked state has the same layout.
    jax_state = jax_optimizers.adam(0.05)[0](initial_params(quadratic))
    assert [len(tree_leaves(p.subtree)) for p in tree_leaves(unpacked)] == [
        len(jax.tree_util.tree_leaves(p.subtree))
        for p in jax.tree_util.tree_leaves(jax_optimizers.unpack_optimizer_state(jax_state))]


def test_pack_rejects_leaves_that_are_not_join_points():
    with pytest.raises(TypeError, match="JoinPoint"):
        optimizers.pack_optimizer_state({"w": np.ones(2)})


def test_optimizer_decorator_lifts_a_users_per_array_optimizer_like_jax():
    def make_sign_descent(np_):
        def sign_descent(step_size):
            return (lambda x0: (x0, 0.0),
                    lambda i, g, state: (state[0] - step_size * np_.sign(g), state[1] + 1.0),
                    lambda state: state[0])
        return sign_descent

    ours = optimizers.optimizer(make_sign_descent(fnp))(0.1)
    theirs = jax_optimizers.optimizer(make_sign_descent(jnp))(0.1)
    params = initial_params(nonconvex)
    state, jax_state = ours.init_fn(params), theirs.init_fn(params)
    for step in range(5):
        state = ours.update_fn(step, fg.grad(lambda p: nonconvex(fnp, p))(
            ours.params_fn(state)), state)
        jax_state = theirs.update_fn(step, jax.grad(lambda p: nonconvex(jnp, p))(
            theirs.params_fn(jax_state)), jax_state)
    for a, b in zip(tree_leaves(state), jax.tree_util.tree_leaves(jax_state)):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_optimizer_state_is_a_pytree_whose_leaves_are_the_arrays():
    state = optimizers.momentum(0.1, 0.9)[0]({"w": np.ones(2), "b": np.zeros(3)})
    doubled = fg.tree_util.tree_map(lambda x: 2 * x, state)
    assert isinstance(doubled, optimizers.OptimizerState)
    assert doubled.tree_def == state.tree_def
    assert len(tree_leaves(state)) == 4


@pytest.mark.parametrize("name", ["sgd", "momentum", "rmsprop", "adam", "adagrad"])
def test_gradient_with_respect_to_the_step_size_through_the_updates_matches_jax(name):
    extra = (0.9,) if name == "momentum" else ()

    def final_loss(np_, library, step_size, params, grad_fun):
        init, update, get_params = getattr(library, name)(step_size, *extra)
        state = init(params)
        for step in range(5):
            state = update(step, grad_fun(get_params(state)), state)
        return nonconvex(np_, get_params(state))

    params = initial_params(nonconvex)
    ours = fg.grad(lambda lr: final_loss(fnp, optimizers, lr, params,
                                         fg.grad(lambda p: nonconvex(fnp, p))))(0.01)
    theirs = jax.grad(lambda lr: final_loss(jnp, jax_optimizers, lr, params,
                                            jax.grad(lambda p: nonconvex(jnp, p))))(0.01)
    np.testing.assert_allclose(ours, theirs, rtol=1e-8)
