"""Every composition of two transforms, against the same composition in JAX.

Each transform below maps a function of ``x`` (an array of shape (3,)) to another
function of ``x``, so any two compose: grad-of-jvp, jvp-of-grad, jacfwd-of-jacrev,
vmap-of-jit, jit-of-vmap, grad-of-vmap, vmap-of-vmap, ...
"""
import itertools

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

jax.config.update("jax_enable_x64", True)

X = np.array([0.3, -0.7, 1.1])
V = np.array([1.0, -0.5, 2.0])


def weights(shape):
    """A fixed cotangent of any shape."""
    return np.cos(np.arange(int(np.prod(shape)), dtype=float) + 1.0).reshape(shape)


def transforms(lib, np_):
    """The transforms of ``lib`` (funcgrad or jax), as ``f -> (x -> array)``."""
    def vjp(f):
        def pulled_back(x):
            out, pullback = lib.vjp(f, x)
            return pullback(weights(np.shape(out)))[0]
        return pulled_back

    return {
        "grad": lambda f: lib.grad(lambda x: np_.sum(np_.sin(f(x)))),
        "jvp": lambda f: lambda x: lib.jvp(f, (x,), (V,))[1],
        "vjp": vjp,
        "jacfwd": lambda f: lib.jacfwd(f),
        "jacrev": lambda f: lib.jacrev(f),
        "linearize": lambda f: lambda x: lib.linearize(f, x)[1](V),
        "checkpoint": lambda f: lib.checkpoint(f),
        "jit": lambda f: lib.jit(f),
        # f of a batch of two points beside x, batched along their last axis (in_axes=1),
        # the results' batch axis last.
        "vmap": lambda f: lambda x: lib.vmap(f, in_axes=1, out_axes=-1)(
            np_.stack([x, np_.sin(x) * 0.5], axis=1)),
    }


FUNCTIONS = {
    "elementwise": lambda np_, x: np_.sin(x) * x[::-1] + np_.exp(x) * x,
    "matmul": lambda np_, x: np_.tanh(np_.reshape(x, (3, 1)) @ np_.reshape(x, (1, 3)) @ x),
    "reduction": lambda np_, x: np_.sum(x ** 3) * np_.cos(x) + np_.max(x) * x,
}
NAMES = list(transforms(fg, fnp))
PAIRS = list(itertools.product(NAMES, NAMES))


def _all_compositions(lib, np_, function):
    table = transforms(lib, np_)
    f = lambda x: function(np_, x)  # noqa: E731
    return [table[outer](table[inner](f)) for outer, inner in PAIRS]


_JAX_RESULTS = {}


def jax_results(name):
    """JAX's value of every composition for one function, from one compilation."""
    if name not in _JAX_RESULTS:
        funs = _all_compositions(jax, jnp, FUNCTIONS[name])
        _JAX_RESULTS[name] = jax.jit(lambda x: [fun(x) for fun in funs])(X)
    return _JAX_RESULTS[name]


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_every_pair_of_transforms_matches_jax(name):
    ours = _all_compositions(fg, fnp, FUNCTIONS[name])
    failures = []
    for (outer, inner), fun, expected in zip(PAIRS, ours, jax_results(name)):
        result = np.asarray(fun(X))
        if result.shape != expected.shape or not np.allclose(result, expected, rtol=1e-9,
                                                             atol=1e-11):
            failures.append(f"{outer} of {inner}")
    assert not failures, f"{name}: {failures}"
