"""jacfwd, jacrev, hessian and hvp against JAX: layouts, options, and random programs."""
import hypothesis.strategies as st
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given

import funcgrad as fg
import funcgrad.numpy as fnp
from oracle import array, floats

jax.config.update("jax_enable_x64", True)

RNG = np.random.default_rng(1)
X = RNG.standard_normal(2)
Y = RNG.standard_normal(3)


def assert_tree_close(ours, theirs, rtol=1e-9, atol=1e-11):
    ours_leaves, ours_tree = jax.tree_util.tree_flatten(ours)
    theirs_leaves, theirs_tree = jax.tree_util.tree_flatten(theirs)
    assert ours_tree == theirs_tree
    for a, b in zip(ours_leaves, theirs_leaves):
        assert np.shape(a) == np.shape(b)
        assert np.asarray(a).dtype == np.asarray(b).dtype
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=atol)


def pytree_fun(np_, x, y):
    return {"a": np_.sin(x)[:, None] * y, "b": (np_.sum(x * x) * y[0], x)}


@pytest.mark.parametrize("argnums", [0, 1, (0, 1), (1,)])
@pytest.mark.parametrize("name", ["jacfwd", "jacrev"])
def test_layout_matches_jax(name, argnums):
    ours = getattr(fg, name)(lambda x, y: pytree_fun(fnp, x, y), argnums)(X, Y)
    theirs = jax.jit(getattr(jax, name)(lambda x, y: pytree_fun(jnp, x, y), argnums))(X, Y)
    assert_tree_close(ours, theirs)


@pytest.mark.parametrize("name", ["jacfwd", "jacrev"])
def test_pytree_inputs_and_has_aux(name):
    def f(np_, params):
        return np_.tanh(params["w"] @ params["x"]), {"norm": np_.sum(params["x"] ** 2)}

    params = {"w": RNG.standard_normal((2, 3)), "x": Y}
    ours = getattr(fg, name)(lambda p: f(fnp, p), has_aux=True)(params)
    theirs = jax.jit(getattr(jax, name)(lambda p: f(jnp, p), has_aux=True))(params)
    assert_tree_close(ours, theirs)


@pytest.mark.parametrize("argnums", [0, (0, 1)])
def test_hessian_matches_jax(argnums):
    def f(np_, x, y):
        return np_.sum(np_.tanh(x)[:, None] * y ** 2) + np_.prod(x) ** 2

    assert_tree_close(fg.hessian(lambda x, y: f(fnp, x, y), argnums)(X, Y),
                      jax.jit(jax.hessian(lambda x, y: f(jnp, x, y), argnums))(X, Y))


@pytest.mark.parametrize("name", ["jacfwd", "jacrev", "hessian"])
@pytest.mark.parametrize("shape", [(), (1,), (1, 1), (0,), (2, 0)])
def test_bases_of_one_and_no_element_match_jax(name, shape):
    # One basis array is differentiated without vmap, none gives empty blocks.
    def f(np_, x, y):
        return np_.sum(np_.sin(x) ** 2) * y + np_.sum(x) ** 3

    x = RNG.standard_normal(shape)
    ours = getattr(fg, name)(lambda x, y: f(fnp, x, y), (0, 1))(x, Y)
    theirs = getattr(jax, name)(lambda x, y: f(jnp, x, y), (0, 1))(x, Y)
    assert_tree_close(ours, theirs)
    scalar = getattr(fg, name)(lambda x: f(fnp, x, 1.5))(x)
    assert_tree_close(scalar, getattr(jax, name)(lambda x: f(jnp, x, 1.5))(x))


@pytest.mark.parametrize("name", ["jacfwd", "jacrev"])
def test_empty_inputs_give_empty_jacobians(name):
    ours = getattr(fg, name)(lambda d: (fnp.ones(2), 5), has_aux=True)({})
    assert ours == ({}, 5)


def test_hvp_is_hessian_times_vector():
    def f(x, y):
        return fnp.sum(fnp.sin(x)[:, None] * fnp.exp(y))

    v = (RNG.standard_normal(2), RNG.standard_normal(3))
    (h_xx, h_xy), (h_yx, h_yy) = fg.hessian(f, (0, 1))(X, Y)
    assert_tree_close(fg.hvp(f, (X, Y), v),
                      (h_xx @ v[0] + h_xy @ v[1], h_yx @ v[0] + h_yy @ v[1]))


def test_holomorphic_and_complex_options_follow_jax():
    z = np.array([1.0 + 2j, 3j])
    for name in ("jacfwd", "jacrev"):
        ours = getattr(fg, name)(lambda z: z ** 2, holomorphic=True)(z)
        assert_tree_close(ours, getattr(jax, name)(lambda z: z ** 2, holomorphic=True)(z))
        with pytest.raises(TypeError, match="holomorphic=True needs complex"):
            getattr(fg, name)(lambda z: z ** 2, holomorphic=True)(X)
    with pytest.raises(TypeError, match="jacfwd: inputs must be real"):
        fg.jacfwd(lambda z: z ** 2)(z)
    with pytest.raises(TypeError, match="jacrev: outputs must be real"):
        fg.jacrev(lambda x: x * 1j)(X)
    assert_tree_close(fg.jacfwd(lambda x: x * 1j)(X), jax.jacfwd(lambda x: x * 1j)(X))
    assert_tree_close(fg.jacrev(lambda z: fnp.abs(z))(z), jax.jacrev(jnp.abs)(z))


def test_integers():
    n = np.array([1, 2])
    ours = fg.jacrev(lambda n, x: n * x, argnums=(0, 1), allow_int=True)(n, X)
    theirs = jax.jacrev(lambda n, x: n * x, argnums=(0, 1), allow_int=True)(n, X)
    assert_tree_close(ours, theirs)
    assert_tree_close(fg.jacfwd(lambda x: (x > 0).astype(int))(X),
                      jax.jacfwd(lambda x: (x > 0).astype(int))(X))
    with pytest.raises(TypeError, match="integer"):
        fg.jacrev(lambda x: (x > 0).astype(int))(X)
    with pytest.raises(TypeError, match="allow_int"):
        fg.jacrev(lambda n: n * 1.0)(n)


def test_grad_of_non_scalar_points_to_jacrev():
    with pytest.raises(TypeError, match="jacrev"):
        fg.grad(lambda x: x * 2)(X)


# ---- random programs -----------------------------------------------------------------
# A program is a list of steps over a growing pool of values of one shape (or that
# shape reduced with keepdims, which broadcasts back). Values stay small and smooth so
# that second derivatives are well conditioned and ties have probability zero.

UNARY = {
    "sin": lambda np_, a: np_.sin(a),
    "tanh": lambda np_, a: np_.tanh(a),
    "exp_tanh": lambda np_, a: np_.exp(np_.tanh(a)),
    "square": lambda np_, a: a * a,
    "log1p_sq": lambda np_, a: np_.log(1.0 + a * a),
    "sqrt1p_sq": lambda np_, a: np_.sqrt(a * a + 1.0),
    "neg_abs": lambda np_, a: -np_.abs(a),
    "flip": lambda np_, a: a[::-1],
    "roll": lambda np_, a: np_.concatenate([a[1:], a[:1]], axis=0),
    "sum_keep": lambda np_, a: np_.sum(a, axis=-1, keepdims=True),
    "mean_keep": lambda np_, a: np_.mean(a, axis=0, keepdims=True),
    "max_keep": lambda np_, a: np_.max(a, axis=-1, keepdims=True),
    "gram": lambda np_, a: a @ (np_.transpose(a) @ a) * 0.1,
}
BINARY = {
    "add": lambda np_, a, b: a + b,
    "sub": lambda np_, a, b: a - b,
    "mul": lambda np_, a, b: a * b,
    "div": lambda np_, a, b: a / (1.0 + b * b),
    "maximum": lambda np_, a, b: np_.maximum(a, b),
    "where": lambda np_, a, b: np_.where(a > b, a * 2.0, b),
    "einsum": lambda np_, a, b: np_.einsum("ij,kj->ik", a * b, a * b) @ (a * b) * 0.1,
}


@st.composite
def programs(draw):
    shape = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    n_inputs = draw(st.integers(1, 2))
    elements = floats(-2.0, 2.0)
    inputs = tuple(draw(array(shape, elements=elements)) for _ in range(n_inputs))
    steps = []
    for _ in range(draw(st.integers(1, 5))):
        pool = n_inputs + len(steps)
        if draw(st.booleans()):
            steps.append((draw(st.sampled_from(sorted(UNARY))), draw(st.integers(0, pool - 1))))
        else:
            steps.append((draw(st.sampled_from(sorted(BINARY))), draw(st.integers(0, pool - 1)),
                          draw(st.integers(0, pool - 1))))
    return steps, inputs


def run_program(np_, steps, *inputs):
    pool = list(inputs)
    for name, *operands in steps:
        op = UNARY.get(name) or BINARY[name]
        pool.append(op(np_, *(pool[i] for i in operands)))
    # Mix in every input so no output is constant.
    return pool[-1] + sum(np_.tanh(x) for x in inputs) * 0.5


def jax_derivatives(steps, n_inputs):
    """JAX's jvp, Jacobian and Hessian of a program, in one compilation."""
    argnums = tuple(range(n_inputs))

    def fun(*inputs):
        return run_program(jnp, steps, *inputs)

    def derivatives(inputs, tangents):
        return (jax.jvp(fun, inputs, tangents), jax.jacrev(fun, argnums)(*inputs),
                jax.hessian(lambda *a: jnp.sum(jnp.sin(fun(*a))), argnums)(*inputs))

    return jax.jit(derivatives)


@given(program=programs(), data=st.data())
def test_random_programs_match_jax(program, data):
    steps, inputs = program
    argnums = tuple(range(len(inputs)))
    tangents = tuple(data.draw(array(np.shape(x), low=-1.0, high=1.0)) for x in inputs)
    jvp, jacobian, hessian = jax_derivatives(steps, len(inputs))(inputs, tangents)

    def fun(*a):
        return run_program(fnp, steps, *a)

    assert_tree_close(fg.jvp(fun, inputs, tangents), jvp)
    assert_tree_close(fg.jacfwd(fun, argnums)(*inputs), jacobian)
    assert_tree_close(fg.jacrev(fun, argnums)(*inputs), jacobian)
    assert_tree_close(fg.hessian(lambda *a: fnp.sum(fnp.sin(fun(*a))), argnums)(*inputs),
                      hessian, rtol=1e-8)
