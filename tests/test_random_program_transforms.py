"""Random programs (tests/program_gen.py) against JAX under the transforms
test_random_programs.py leaves out: jacfwd, jacrev (with drawn chunk sizes), hessian and
their compositions; checkpoint with each policy, around the program or a drawn block of
it; custom_vjp and custom_jvp whose rules are funcgrad's own derivatives of the block
they wrap; and linearize. Each is composed with vmap, jit and grad where JAX composes
them, and compared, from one program text, with JAX in float64.

The default run checks 12 programs for each of the four (about 20 s in all);
``-m slow`` checks 500 programs of 4 to 12 statements for each (about 40 minutes). A
difference either run finds becomes a named regression test beside the code it fixes.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jax.ad_checkpoint import checkpoint_name as jax_checkpoint_name

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.tree_util import tree_flatten
from jit_tiers import TIERS, tier
from oracle import draw_batch
from program_gen import arguments, programs
from test_random_programs import (DTYPES, _draw_out_axes, _like, _tolerance, _weighted,
                                  assert_close)


def _identity(x, *names):
    return x


def _draw_argnums(data, args):
    """An int, or a tuple (in a drawn order) where the program has several inputs."""
    count = len(args)
    if count == 1:
        return data.draw(st.sampled_from([0, (0,)]), label="argnums")
    single = st.integers(0, count - 1)
    several = st.lists(st.integers(0, count - 1), min_size=1, max_size=count,
                       unique=True).map(tuple)
    return data.draw(st.one_of(single, several), label="argnums")


def _size(tree):
    return sum(int(np.size(leaf)) for leaf in tree_flatten(tree)[0])


def _selected(args, argnums):
    return [args[i] for i in ((argnums,) if isinstance(argnums, int) else argnums)]


def _chunk(data, n, what):
    return data.draw(st.one_of(st.none(), st.integers(1, max(n, 1))), label=what)


def _directional(namespace, gradient, directions):
    """x -> <gradient(x), directions>: a scalar, so that grad of it is reverse over
    reverse."""
    def inner(*args):
        total = 0.0
        for g, d in zip(tree_flatten(gradient(*args))[0], directions):
            total = total + namespace.sum(g * d)
        return total
    return inner


# ---- jacfwd, jacrev, hessian -----------------------------------------------------------


def check_jacobians(program, data):
    args = data.draw(arguments(program), label="args")
    ours, theirs = program.bind(fnp), program.bind(jnp)
    tolerance = _tolerance(args)
    argnums = _draw_argnums(data, args)
    value = ours(*args)
    ct = _like(value, data)
    forward_chunk = _chunk(data, _size(_selected(args, argnums)), "jacfwd chunk_size")
    reverse_chunk = _chunk(data, _size(value), "jacrev chunk_size")
    batched, in_axes, _ = draw_batch(data, args)

    def oracle(args, others, batched):
        weighted = _weighted(jnp, theirs, ct)
        return {
            "hessian, second call": jax.hessian(weighted, argnums)(*others),
            "vmap(jacfwd)": jax.vmap(jax.jacfwd(theirs, argnums), in_axes)(*batched),
            "vmap(jacrev)": jax.vmap(jax.jacrev(theirs, argnums), in_axes)(*batched),
            "jacfwd": jax.jacfwd(theirs, argnums)(*args),
            "jacrev": jax.jacrev(theirs, argnums)(*args),
            "hessian": jax.hessian(weighted, argnums)(*args),
            "jacfwd(jacrev)": jax.jacfwd(jax.jacrev(theirs, argnums), argnums)(*args),
            "jacrev(jacfwd)": jax.jacrev(jax.jacfwd(theirs, argnums), argnums)(*args),
        }
    others = _others(args)
    expected = jax.jit(oracle)(args, others, batched)

    what = f"(argnums={argnums}, chunk_size={forward_chunk}/{reverse_chunk})"
    assert_close(fg.jacfwd(ours, argnums)(*args), expected["jacfwd"], "jacfwd", tolerance)
    assert_close(fg.jacfwd(ours, argnums, chunk_size=forward_chunk)(*args),
                 expected["jacfwd"], f"jacfwd {what}", tolerance)
    assert_close(fg.jacrev(ours, argnums)(*args), expected["jacrev"], "jacrev", tolerance)
    assert_close(fg.jacrev(ours, argnums, chunk_size=reverse_chunk)(*args),
                 expected["jacrev"], f"jacrev {what}", tolerance)
    assert_close(fg.hessian(_weighted(fnp, ours, ct), argnums)(*args), expected["hessian"],
                 f"hessian {what}", tolerance)
    assert_close(fg.jacfwd(fg.jacrev(ours, argnums, chunk_size=reverse_chunk), argnums)(
        *args), expected["jacfwd(jacrev)"], f"jacfwd(jacrev) {what}", tolerance)
    assert_close(fg.jacrev(fg.jacfwd(ours, argnums, chunk_size=forward_chunk), argnums)(
        *args), expected["jacrev(jacfwd)"], f"jacrev(jacfwd) {what}", tolerance)
    assert_close(fg.jit(fg.jacrev(ours, argnums))(*args), expected["jacrev"],
                 "jit(jacrev)", tolerance)
    jitted_hessian = fg.jit(fg.hessian(_weighted(fnp, ours, ct), argnums))
    assert_close(jitted_hessian(*args), expected["hessian"], "jit(hessian)", tolerance)
    for name in TIERS:
        with tier(name):
            assert_close(jitted_hessian(*others), expected["hessian, second call"],
                         f"jit(hessian), {name} call", tolerance)
    assert_close(fg.vmap(fg.jacfwd(ours, argnums, chunk_size=forward_chunk), in_axes)(
        *batched), expected["vmap(jacfwd)"], f"vmap(jacfwd) (in_axes={in_axes}) {what}",
        tolerance)
    assert_close(fg.vmap(fg.jacrev(ours, argnums, chunk_size=reverse_chunk), in_axes)(
        *batched), expected["vmap(jacrev)"], f"vmap(jacrev) (in_axes={in_axes}) {what}",
        tolerance)


# ---- checkpoint and custom rules around a drawn block ----------------------------------


def _draw_block(data, program):
    """The statements ``start:stop`` to wrap: the whole program half the time."""
    n = len(program.lines)
    if data.draw(st.booleans(), label="whole program"):
        return 0, n
    start = data.draw(st.integers(0, n - 1), label="block start")
    return start, data.draw(st.integers(start + 1, n), label="block stop")


# name: (funcgrad's policy, JAX's)
POLICIES = {
    "default": (None, None),
    "everything_saveable": (fg.checkpoint_policies.everything_saveable,
                            jax.checkpoint_policies.everything_saveable),
    "nothing_saveable": (fg.checkpoint_policies.nothing_saveable,
                         jax.checkpoint_policies.nothing_saveable),
    "dots_saveable": (fg.checkpoint_policies.dots_saveable,
                      jax.checkpoint_policies.dots_saveable),
    "dots_with_no_batch_dims_saveable": (
        fg.checkpoint_policies.dots_with_no_batch_dims_saveable,
        jax.checkpoint_policies.dots_with_no_batch_dims_saveable),
    "save_only_these_names('a')": (fg.checkpoint_policies.save_only_these_names("a"),
                                   jax.checkpoint_policies.save_only_these_names("a")),
    "save_any_names_but_these('a')": (
        fg.checkpoint_policies.save_any_names_but_these("a"),
        jax.checkpoint_policies.save_any_names_but_these("a")),
    "save_from_both_policies(dots, 'b')": (
        fg.checkpoint_policies.save_from_both_policies(
            fg.checkpoint_policies.dots_saveable,
            fg.checkpoint_policies.save_only_these_names("b")),
        jax.checkpoint_policies.save_from_both_policies(
            jax.checkpoint_policies.dots_saveable,
            jax.checkpoint_policies.save_only_these_names("b"))),
}


def _draw_named(data, start, stop):
    """Some of the block's statements, each named "a" or "b" for the policies."""
    chosen = data.draw(st.lists(st.integers(start, stop - 1), unique=True,
                                max_size=stop - start), label="named statements")
    return {i: data.draw(st.sampled_from("ab"), label=f"name of {i}") for i in chosen}


def _derivatives_oracle(plain, wrapped, ct, tangents, directions, in_axes, out_axes):
    """JAX's value, vjp, jvp, jacrev, vmap, vmap of grad, forward and reverse over reverse
    of ``wrapped`` (its vjp is ``plain``'s where the two compute the same function)."""
    def oracle(args, others, batched):
        argnums = tuple(range(len(args)))
        value, pullback = jax.vjp(wrapped, *args)
        gradient = jax.grad(_weighted(jnp, wrapped, ct), argnums=argnums)
        return {
            "value": value,
            "vjp": pullback(ct),
            "grad, second call": gradient(*others),
            "jvp": jax.jvp(wrapped, args, tangents)[1],
            "jacrev": jax.jacrev(wrapped, argnums)(*args),
            "hvp": jax.jvp(gradient, args, tangents)[1],
            "vmap": jax.vmap(wrapped, in_axes=in_axes, out_axes=out_axes)(*batched),
            "vmap(grad)": jax.vmap(gradient, in_axes=in_axes)(*batched),
            "grad(grad)": jax.grad(_directional(jnp, gradient, directions),
                                   argnums=argnums)(*args),
            "plain vjp": jax.vjp(plain, *args)[1](ct),
        }
    return jax.jit(oracle)


def _check_derivatives(ours, expected, draws, tolerance, what, forward=True):
    args, ct, tangents, directions, batched, in_axes, out_axes = draws
    argnums = tuple(range(len(args)))
    others = _others(args)
    assert_close(ours(*args), expected["value"], f"value {what}", tolerance)
    assert_close(fg.vjp(ours, *args)[1](ct), expected["vjp"], f"vjp {what}", tolerance)
    gradient = fg.grad(_weighted(fnp, ours, ct), argnums=argnums)
    assert_close(gradient(*args), expected["vjp"], f"grad {what}", tolerance)
    jitted_grad = fg.jit(gradient)
    assert_close(jitted_grad(*args), expected["vjp"], f"jit(grad) {what}", tolerance)
    for name in TIERS:
        with tier(name):
            assert_close(jitted_grad(*others), expected["grad, second call"],
                         f"jit(grad), {name} call {what}", tolerance)
    assert_close(fg.jit(ours)(*args), expected["value"], f"jit {what}", tolerance)
    assert_close(fg.jacrev(ours, argnums)(*args), expected["jacrev"], f"jacrev {what}",
                 tolerance)
    assert_close(fg.hvp(_weighted(fnp, ours, ct), args, tangents), expected["hvp"],
                 f"hvp {what}", tolerance)
    if forward:
        assert_close(fg.jvp(ours, args, tangents)[1], expected["jvp"], f"jvp {what}",
                     tolerance)
    assert_close(fg.vmap(ours, in_axes=in_axes, out_axes=out_axes)(*batched),
                 expected["vmap"], f"vmap (in_axes={in_axes}, out_axes={out_axes}) {what}",
                 tolerance)
    vmapped_grad = fg.vmap(gradient, in_axes=in_axes)
    assert_close(vmapped_grad(*batched), expected["vmap(grad)"],
                 f"vmap(grad) (in_axes={in_axes}) {what}", tolerance)
    assert_close(fg.jit(vmapped_grad)(*batched), expected["vmap(grad)"],
                 f"jit(vmap(grad)) (in_axes={in_axes}) {what}", tolerance)
    assert_close(fg.grad(_directional(fnp, gradient, directions), argnums=argnums)(*args),
                 expected["grad(grad)"], f"grad(grad) {what}", tolerance)


def _others(args):
    """Other values in the same domains, for a jitted function's second call."""
    return tuple(np.flip(a).copy() for a in args)


def _draws(data, program):
    args = data.draw(arguments(program), label="args")
    value = program.bind(fnp)(*args)
    ct = _like(value, data)
    tangents = _like(args, data)
    directions = tree_flatten(_like(args, data))[0]
    batched, in_axes, _ = draw_batch(data, args)
    return args, ct, tangents, directions, batched, in_axes, _draw_out_axes(data, value)


def check_checkpoint(program, data):
    start, stop = _draw_block(data, program)
    named = _draw_named(data, start, stop)
    policy_name = data.draw(st.sampled_from(sorted(POLICIES)), label="policy")
    prevent_cse = data.draw(st.booleans(), label="prevent_cse")
    ours_policy, jax_policy = POLICIES[policy_name]
    wrapped = program.wrapping(start, stop, named)
    ours = wrapped.bind(fnp, name=fg.checkpoint_name, wrap=lambda block: fg.checkpoint(
        block, policy=ours_policy, prevent_cse=prevent_cse))
    theirs = wrapped.bind(jnp, name=jax_checkpoint_name, wrap=lambda block: jax.checkpoint(
        block, policy=jax_policy, prevent_cse=prevent_cse))
    draws = _draws(data, program)
    args, ct, tangents, directions, batched, in_axes, out_axes = draws
    expected = _derivatives_oracle(program.bind(jnp), theirs, ct, tangents, directions,
                                   in_axes, out_axes)(args, _others(args), batched)
    assert_close(expected["vjp"], expected["plain vjp"], "JAX's checkpoint's vjp",
                 _tolerance(args))
    what = f"(checkpoint, policy={policy_name}, prevent_cse={prevent_cse})"
    _check_derivatives(ours, expected, draws, _tolerance(args), what)


def _custom_vjp_of(block):
    """``block`` with a custom_vjp whose rule is funcgrad's own vjp of it."""
    wrapped = fg.custom_vjp(block)
    wrapped.defvjp(lambda *args: (block(*args), args),
                   lambda args, ct: fg.vjp(block, *args)[1](ct))
    return wrapped


def _custom_jvp_of(block):
    """``block`` with a custom_jvp whose rule is funcgrad's own jvp of it."""
    wrapped = fg.custom_jvp(block)
    wrapped.defjvp(lambda primals, tangents: fg.jvp(block, primals, tangents))
    return wrapped


CUSTOM_RULES = {"custom_vjp": _custom_vjp_of, "custom_jvp": _custom_jvp_of}


def check_custom_rules(program, data):
    start, stop = _draw_block(data, program)
    kind = data.draw(st.sampled_from(sorted(CUSTOM_RULES)), label="rule")
    wrapped = program.wrapping(start, stop)
    ours = wrapped.bind(fnp, name=_identity, wrap=CUSTOM_RULES[kind])
    theirs = program.bind(jnp)
    draws = _draws(data, program)
    args, ct, tangents, directions, batched, in_axes, out_axes = draws
    expected = _derivatives_oracle(theirs, theirs, ct, tangents, directions, in_axes,
                                   out_axes)(args, _others(args), batched)
    # A custom_vjp has no forward mode, in JAX as in funcgrad.
    _check_derivatives(ours, expected, draws, _tolerance(args),
                       f"({kind} of statements {start}:{stop})", forward=kind == "custom_jvp")


# ---- linearize --------------------------------------------------------------------------


def check_linearize(program, data):
    args = data.draw(arguments(program), label="args")
    ours, theirs = program.bind(fnp), program.bind(jnp)
    tolerance = _tolerance(args)
    tangents = _like(args, data)
    others = _like(args, data)
    batched, in_axes, _ = draw_batch(data, tangents)

    def oracle(args):
        value, f_jvp = jax.linearize(theirs, *args)
        return {"value": value, "f_jvp": f_jvp(*tangents), "f_jvp, others": f_jvp(*others),
                "vmap(f_jvp)": jax.vmap(f_jvp, in_axes=in_axes)(*batched)}
    expected = jax.jit(oracle)(args)

    value, f_jvp = fg.linearize(ours, *args)
    assert_close(value, expected["value"], "linearize's value", tolerance)
    assert_close(f_jvp(*tangents), expected["f_jvp"], "f_jvp", tolerance)
    assert_close(f_jvp(*others), expected["f_jvp, others"], "f_jvp, second call", tolerance)
    assert_close(fg.jit(f_jvp)(*tangents), expected["f_jvp"], "jit(f_jvp)", tolerance)
    jitted_value, jitted_f_jvp = fg.linearize(fg.jit(ours), *args)
    assert_close(jitted_value, expected["value"], "linearize(jit)'s value", tolerance)
    assert_close(jitted_f_jvp(*tangents), expected["f_jvp"], "linearize(jit)'s f_jvp",
                 tolerance)
    assert_close(fg.vmap(f_jvp, in_axes=in_axes)(*batched), expected["vmap(f_jvp)"],
                 f"vmap(f_jvp) (in_axes={in_axes})", tolerance)


CHECKS = {"jacobians": check_jacobians, "checkpoint": check_checkpoint,
          "custom rules": check_custom_rules, "linearize": check_linearize}


@pytest.mark.parametrize("check", sorted(CHECKS))
@settings(max_examples=12)
@given(program=programs(dtypes=DTYPES), data=st.data())
def test_random_programs_match_jax_under(check, program, data):
    CHECKS[check](program, data)


@pytest.mark.slow
@pytest.mark.parametrize("check", sorted(CHECKS))
@settings(max_examples=500)
@given(program=programs(min_steps=4, max_steps=12, dtypes=DTYPES), data=st.data())
def test_random_programs_match_jax_under_long(check, program, data):
    CHECKS[check](program, data)
