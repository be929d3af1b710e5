"""jit's interpreted tier: the `Interpreter` on hand-built graphs against the generated
code of the same graphs, and the rule that moves a program to the compiled tier.

(test_jit.py runs all of jit's behaviour in both tiers; test_jit_oracle.py checks each
tier against eager funcgrad and JAX.)
"""
import importlib
import itertools

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.core import Primitive, registry
from funcgrad.transforms.graph import Equation
from funcgrad.transforms.interpret import Interpreter
from funcgrad.transforms.passes import reuse_buffers
from funcgrad.transforms.staging import CONVERSIONS, GuardFailed, array_bits, passes_guard
from jit_tiers import tier
from test_jit_passes import ADD, CONCATENATE, COS, MUL, SIN, SUM, Builder, assert_same_bits, run

jit_module = importlib.import_module("funcgrad.transforms.jit")
FREXP = registry["frexp"]
# A primitive taking a tuple argument (an equation's input atom that is a tuple).
TUPLE_SUM = Primitive("tuple_sum", lambda parts, scale: sum(parts) * scale, register=False)


def test_interpreter_computes_what_the_generated_code_does():
    x = np.linspace(-2.0, 2.0, 300)
    b = Builder(x)
    (a,) = b.inputs
    s = b.eq(SIN, a)
    scaled = b.eq(MUL, s, b.const(np.full(300, 1.5)))
    joined = b.eq(CONCATENATE, scaled, b.eq(COS, a), axis=0)
    mantissa, exponent = b.var(np.frexp(x)[0]), b.var(np.frexp(x)[1])
    b.equations.append(Equation(FREXP, (joined,), {}, (mantissa, exponent)))
    b.values[mantissa], b.values[exponent] = np.frexp(b.values[joined])
    paired = b.var(x)
    b.equations.append(Equation(TUPLE_SUM, ((s, scaled, a),), {"scale": 0.5}, (paired,)))
    total = b.eq(SUM, paired, axes=(0,), keepdims=False)
    b.guard(total, "float", float(b.values[total]))
    graph = b.graph(b.eq(ADD, mantissa, exponent), paired, total, a)
    for value in (x, x[::-1].copy()):
        try:
            expected = run(graph, value)
        except GuardFailed as failure:
            with pytest.raises(GuardFailed) as interpreted:
                Interpreter(graph)(value)
            assert interpreted.value.index == failure.index == len(graph.equations) - 2
        else:
            assert_same_bits(Interpreter(graph)(value), expected)


@pytest.mark.parametrize("kind, traced, replayed", [
    ("bool", np.bool_(True), np.bool_(False)), ("int", np.int64(3), np.int64(4)),
    ("index", np.int64(3), np.int64(2)), ("float", np.float64(0.5), np.float64(-0.5)),
    ("float", np.float64(np.nan), np.float64(1.0)), ("complex", np.complex128(1j), 2j),
    ("array", np.array([1.0, np.nan]), np.array([1.0, 2.0]))])
def test_interpreted_guards_check_what_passes_guard_checks(kind, traced, replayed):
    b = Builder(traced)
    (a,) = b.inputs
    expected = array_bits(traced) if kind == "array" else CONVERSIONS[kind](traced)
    b.eq(SIN, a)
    b.guard(a, kind, expected)
    interpreter = Interpreter(b.graph(a))
    assert interpreter(traced)[0] is traced
    assert not passes_guard(replayed, kind, expected)
    with pytest.raises(GuardFailed) as failure:
        interpreter(replayed)
    assert failure.value.index == 1


def test_equations_run_under_their_errstate_and_guards_in_any_block():
    b = Builder(np.float64(1.0))
    (a,) = b.inputs
    b.guard(a, "float", 1.0)  # before the block: checked first
    with np.errstate(divide="ignore"):
        ratio = b.eq(fnp.divide, a, b.const(0.0))
    b.equations[-1].errstate = {"divide": "raise", "over": "warn", "under": "ignore",
                                "invalid": "warn"}
    b.guard(ratio, "float", np.inf)  # inside it (a guard computes nothing)
    interpreter = Interpreter(b.graph(ratio))
    assert [len(steps) for _, steps in interpreter._segments] == [1, 2]
    with pytest.raises(FloatingPointError):  # the block's setting, as generated code has
        interpreter(np.float64(1.0))
    with pytest.raises(GuardFailed) as failure:
        interpreter(np.float64(2.0))
    assert failure.value.index == 0


def test_interpreter_refuses_a_graph_whose_buffers_are_reused():
    x = np.linspace(0.0, 1.0, 300)
    b = Builder(x)
    (a,) = b.inputs
    graph = reuse_buffers(b.graph(b.eq(COS, b.eq(SIN, a))))
    assert graph.equations[1].overwrites is not None
    with pytest.raises(ValueError, match="buffer reuse belongs to the compiled tier"):
        Interpreter(graph)


def test_the_interpreted_tier_neither_reuses_buffers_nor_writes_donated_arrays():
    f = lambda x, y: fnp.sin(x) * 2.0 + y  # noqa: E731
    x, y = np.linspace(0.0, 1.0, 300), np.linspace(1.0, 2.0, 300)
    donating = fg.jit(f, donate_argnums=0)
    with tier("interpreted"):
        for _ in range(3):
            given = x.copy()
            assert_same_bits([donating(given, y)], [f(x, y)])
            assert np.array_equal(given, x)
    assert donating.compile_count == 0
    assert "out=a" in donating.lower(x, y).as_text()  # what the compiled tier would do


@pytest.mark.parametrize("cost_per_equation", [0.0, 1.0, 2.5])
def test_tier_up_comes_when_interpreting_has_cost_what_compiling_would(monkeypatch,
                                                                      cost_per_equation):
    # Each interpreted run takes one second by this clock; the program has 3 equations
    # (sin, multiply, add), so compiling is estimated at 3 * cost_per_equation seconds:
    # the replays are interpreted until that much time is spent, and the next compiles.
    ticks = itertools.count()
    monkeypatch.setattr(jit_module, "_clock", lambda: next(ticks))
    monkeypatch.setattr(jit_module, "COMPILE_SECONDS_PER_EQUATION", cost_per_equation)
    f = fg.jit(lambda x: fnp.sin(x) * 2.0 + 1.0)
    x = np.linspace(0.0, 1.0, 3)
    interpreted = int(np.ceil(3 * cost_per_equation))
    counts = []
    for _ in range(1 + interpreted + 3):
        assert_same_bits([f(x)], [np.sin(x) * 2.0 + 1.0])
        counts.append(f.compile_count)
    # The first call traces; `interpreted` replays interpret; the next compiles.
    assert counts == [0] * (1 + interpreted) + [1, 1, 1]
    assert f.trace_count == 1


def test_lower_shows_the_optimized_program_while_the_function_is_interpreted():
    f = fg.jit(fg.grad(lambda a, b: fnp.sum(fnp.sin(a) * fnp.exp(b))))
    x = np.linspace(0.0, 1.0, 3)
    with tier("interpreted"):
        f(x, x), f(x, x)
        names = f.lower(x, x).graph.primitive_names
    assert "sum" not in names and names.count("exp") == 1  # dead code eliminated
    assert f.compile_count == 0 and f.trace_count == 2
