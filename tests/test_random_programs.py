"""Random programs (tests/program_gen.py) against JAX: value, vjp, grad, jvp, hvp, jit and
vmap of each, and the compositions of vmap with jit and grad (jit of vmap, vmap of jit, grad
of vmap, vmap of grad, jit of vmap of grad) with drawn in_axes and out_axes, from one
program text run with funcgrad.numpy and with jax.numpy.

The default run checks 40 programs (15 s of CPU); ``-m slow`` checks 3,000 programs of 4 to
14 statements. A failure either run finds becomes a named regression test beside the
code it fixes. test_random_program_transforms.py runs the same programs under jacfwd,
jacrev, hessian, checkpoint, custom_vjp, custom_jvp and linearize.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.tree_util import tree_flatten, tree_map
from jit_tiers import TIERS, tier
from oracle import TOLERANCES, draw_batch, release_compiled_oracles, weights
from program_gen import arguments, power_bound, programs


def _tolerance(args):
    single = any(np.result_type(a) == np.float32 for a in args)
    return TOLERANCES[np.dtype(np.float32 if single else np.float64)]


def assert_close(ours, theirs, what, tolerance):
    ours_flat, theirs_flat = tree_flatten(ours)[0], tree_flatten(theirs)[0]
    assert len(ours_flat) == len(theirs_flat), f"{what}: structure differs from JAX's"
    rtol, atol = tolerance
    for a, b in zip(ours_flat, theirs_flat):
        a, b = np.asarray(a), np.asarray(b)
        assert a.shape == b.shape, f"{what}: shape {a.shape} != JAX's {b.shape}"
        assert a.dtype == b.dtype, f"{what}: dtype {a.dtype} != JAX's {b.dtype}"
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=f"{what} differs")


def _weighted(namespace, fun, ct):
    """x -> sum <fun(x), ct>: a scalar whose gradient is the vjp of ``ct``."""
    def weighted(*args):
        total = 0.0
        for leaf, c in zip(tree_flatten(fun(*args))[0], tree_flatten(ct)[0]):
            total = total + namespace.sum(leaf * c)
        return total
    return weighted


def _like(tree, data, high=2.0):
    return tree_map(lambda leaf: data.draw(weights(np.shape(leaf), np.asarray(leaf).dtype,
                                                   high)), tree)


def _jax_oracle(theirs, ct, in_axes, out_axes, batched_ct):
    """Everything the checks compare with, from JAX, in one compiled function per program
    (compiling each JAX operation eagerly cost ~40 compilations a program)."""
    weighted = _weighted(jnp, theirs, ct)
    vmapped = jax.vmap(theirs, in_axes=in_axes, out_axes=out_axes)

    def oracle(args, tangents, others, batched):
        argnums = tuple(range(len(args)))
        value, pullback = jax.vjp(theirs, *args)
        gradient = jax.grad(weighted, argnums=argnums)
        return {
            "value": value,
            "vjp": pullback(ct),
            "jvp": jax.jvp(theirs, args, tangents)[1],
            "hvp": jax.jvp(gradient, args, tangents)[1],
            "value, second call": theirs(*others),
            "grad, second call": gradient(*others),
            "vmap": vmapped(*batched),
            "grad(vmap)": jax.grad(_weighted(jnp, vmapped, batched_ct), argnums=argnums)(
                *batched),
            "vmap(grad)": jax.vmap(gradient, in_axes=in_axes)(*batched),
        }
    return jax.jit(oracle)


_programs_checked = 0


def check_program(program, data):
    args = data.draw(arguments(program), label="args")
    ours, theirs = program.bind(fnp), program.bind(jnp)
    tolerance = _tolerance(args)
    argnums = tuple(range(len(args)))
    value = ours(*args)
    ct = _like(value, data)
    tangents = _like(args, data)
    others = tuple(np.flip(a).copy() for a in args)  # other values in the same domains
    batched, in_axes, size = draw_batch(data, args)
    out_axes = _draw_out_axes(data, value)
    batched_ct = _like(tree_map(lambda leaf: _batched_like(leaf, size, out_axes), value), data)
    expected = _jax_oracle(theirs, ct, in_axes, out_axes, batched_ct)(
        args, tangents, others, batched)
    _release_compiled_programs()

    assert_close(value, expected["value"], "value", tolerance)
    _, pullback = fg.vjp(ours, *args)
    assert_close(pullback(ct), expected["vjp"], "vjp", tolerance)
    weighted = _weighted(fnp, ours, ct)
    gradient = fg.grad(weighted, argnums=argnums)
    assert_close(gradient(*args), expected["vjp"], "grad", tolerance)
    assert_close(fg.jvp(ours, args, tangents)[1], expected["jvp"], "jvp", tolerance)
    assert_close(fg.hvp(weighted, args, tangents), expected["hvp"], "hvp", tolerance)

    # jit: traced on the first call, replayed from its cache on the others (other values),
    # interpreted, then compiled (jit_tiers).
    jitted, jitted_grad = fg.jit(ours), fg.jit(gradient)
    assert_close(jitted(*args), expected["value"], "jit", tolerance)
    assert_close(jitted_grad(*args), expected["vjp"], "jit(grad)", tolerance)
    for name in TIERS:
        with tier(name):
            assert_close(jitted(*others), expected["value, second call"],
                         f"jit, {name} call", tolerance)
            assert_close(jitted_grad(*others), expected["grad, second call"],
                         f"jit(grad), {name} call", tolerance)

    axes = f"(in_axes={in_axes}, out_axes={out_axes})"
    vmapped = fg.vmap(ours, in_axes=in_axes, out_axes=out_axes)
    assert_close(vmapped(*batched), expected["vmap"], f"vmap {axes}", tolerance)
    assert_close(fg.jit(vmapped)(*batched), expected["vmap"], f"jit(vmap) {axes}", tolerance)
    assert_close(fg.vmap(jitted, in_axes=in_axes, out_axes=out_axes)(*batched),
                 expected["vmap"], f"vmap(jit) {axes}", tolerance)
    assert_close(fg.grad(_weighted(fnp, vmapped, batched_ct), argnums=argnums)(*batched),
                 expected["grad(vmap)"], f"grad(vmap) {axes}", tolerance)
    vmapped_grad = fg.vmap(gradient, in_axes=in_axes)
    assert_close(vmapped_grad(*batched), expected["vmap(grad)"],
                 f"vmap(grad) (in_axes={in_axes})", tolerance)
    assert_close(fg.jit(vmapped_grad)(*batched), expected["vmap(grad)"],
                 f"jit(vmap(grad)) (in_axes={in_axes})", tolerance)


def _draw_out_axes(data, value):
    """An out_axes for every output: an axis (negative ones too) of the batched result
    of the output with the fewest axes."""
    least = min(np.ndim(leaf) for leaf in tree_flatten(value)[0]) + 1
    return data.draw(st.integers(-least, least - 1), label="out_axes")


def _batched_like(leaf, size, out_axes):
    """A stand-in of the shape (and dtype) of vmap's result for the output `leaf`."""
    shape = list(np.shape(leaf))
    shape.insert(out_axes % (len(shape) + 1), size)
    return np.zeros(shape, np.asarray(leaf).dtype)


def _release_compiled_programs():
    """Free JAX's compiled programs now and then (oracle.release_compiled_oracles says
    why)."""
    global _programs_checked
    _programs_checked += 1
    if _programs_checked % 100 == 0:
        release_compiled_oracles()


# Mostly float64; one input in three float32, so promotion meets every primitive too.
DTYPES = (np.float64, np.float64, np.float32)


@settings(max_examples=40)
@given(program=programs(dtypes=DTYPES), data=st.data())
def test_random_programs_match_jax(program, data):
    check_program(program, data)


@pytest.mark.slow
@settings(max_examples=3000)
@given(program=programs(min_steps=4, max_steps=14, dtypes=DTYPES), data=st.data())
def test_random_programs_match_jax_long(program, data):
    check_program(program, data)


def test_an_untyped_constant_is_weak_in_jax_only():
    """A difference the long run found, a JAX convention (so program_gen spells
    constants np.array(..., dtype=np.float64)): jnp.array(0.0) is weakly typed, like a
    Python float, and leaves float32 as it is; NumPy 2's (and funcgrad's) np.array(0.0) is
    a float64 array and promotes."""
    x = np.ones(2, np.float32)
    assert fnp.where(x > 0, x, np.array(0.0)).dtype == np.float64
    assert np.where(x > 0, x, np.array(0.0)).dtype == np.float64
    assert jnp.where(x > 0, x, jnp.array(0.0)).dtype == jnp.float32
    assert jnp.where(x > 0, x, jnp.array(0.0, dtype=jnp.float64)).dtype == jnp.float64


def test_einsum_makes_a_python_float_a_float64_array_as_numpy_does():
    """The other difference the long run found (programs 2556 and 2557 of 3,000): einsum of
    a float32 array and a Python float is float64 in NumPy and funcgrad, which follows it,
    and float32 in JAX, which keeps the float weak (so program_gen gives einsum arrays)."""
    x = np.ones((1, 1), np.float32)
    assert np.einsum("ab,->", x, -1.5).dtype == np.float64
    assert np.asarray(fnp.einsum("ab,->", x, -1.5)).dtype == np.float64
    assert jnp.einsum("ab,->", x, -1.5).dtype == jnp.float32


def test_a_product_too_large_for_a_float_is_refused_not_an_error():
    """What the long transforms run found (tests/test_random_program_transforms.py): the
    bound of prod over 729 entries up to 40 overflowed, and drawing the program raised
    OverflowError; the bound is now inf, which the generator refuses like any unbounded
    value."""
    assert power_bound(40.0, 729) == float("inf")
    assert power_bound(2.0, 3) == 8.0
