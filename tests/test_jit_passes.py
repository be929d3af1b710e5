"""jit's passes, each on graphs built by hand, then on traced programs: what each removes,
merges, folds or overwrites, and that the optimized program's results are bit for bit
those of the program as traced (and of eager funcgrad)."""
import hypothesis.extra.numpy as hnp
import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import example, given

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.core import registry
from funcgrad.numpy.elementwise import from_values_p
from funcgrad.transforms.codegen import Program
from funcgrad.transforms.graph import Constant, Equation, Graph, Literal, Var
from funcgrad.transforms import passes
from funcgrad.transforms.passes import (drop_identities, eliminate_common_subexpressions,
                                        eliminate_dead_code, fill_scalar_operands,
                                        fold_constants, optimize, reuse_buffers,
                                        square_powers, ufunc_products)
from funcgrad.transforms.staging import (CONVERSIONS, GuardFailed, array_bits, guard_p,
                                         passes_guard)
from funcgrad.tree_util import tree_flatten

SIN, COS, MUL, ADD = fnp.sin, fnp.cos, fnp.multiply, fnp.add
RESHAPE, SUM = registry["reshape"], registry["sum"]
TRANSPOSE, ASTYPE = registry["transpose"], registry["astype"]
CONCATENATE = registry["concatenate"]
EXP, MATMUL = fnp.exp, registry["matmul"]
POWER, MAXIMUM, MINIMUM = registry["power"], registry["maximum"], registry["minimum"]
FMAX, FMIN = registry["fmax"], registry["fmin"]


class Builder:
    """Writes a graph by hand: ``b.eq(SIN, x)`` appends an equation and returns its Var
    (its shape and dtype come from running the primitive on `example` values)."""

    def __init__(self, *examples):
        self.count = 0
        self.values = {}
        self.inputs = [self.var(value) for value in examples]
        self.equations = []
        self.constants = []

    def var(self, value):
        var = Var(self.count, value)
        self.count += 1
        self.values[var] = value
        return var

    def _value(self, atom):
        return self.values[atom] if isinstance(atom, Var) else atom.value

    def const(self, value):
        constant = Constant(len(self.constants), np.asarray(value))
        self.constants.append(constant)
        return constant

    def eq(self, primitive, *inputs, **params):
        value = primitive.impl(*[self._value(atom) for atom in inputs], **params)
        out = self.var(value)
        self.equations.append(Equation(primitive, inputs, params, (out,)))
        return out

    def guard(self, var, kind, expected):
        self.equations.append(Equation(guard_p, (var,), {"kind": kind, "expected": expected},
                                       ()))

    def graph(self, *outputs):
        _, tree = tree_flatten(tuple(self.inputs))
        _, out_tree = tree_flatten(tuple(outputs))
        return Graph(self.inputs, [f"x{i}" for i in range(len(self.inputs))],
                     self.equations, self.constants, list(outputs),
                     [f"out{i}" for i in range(len(outputs))], tree, out_tree, None)


def run(graph, *inputs):
    return Program(graph).function()(*inputs)


def assert_same_bits(ours, expected):
    assert len(ours) == len(expected)
    for a, b in zip(ours, expected):
        assert np.asarray(a).dtype == np.asarray(b).dtype
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes()


x = np.linspace(-1.0, 1.0, 300)


# ---- dead code ----------------------------------------------------------------------


def test_dead_code_drops_what_no_output_needs_and_keeps_guards():
    b = Builder(x)
    (a,) = b.inputs
    used = b.eq(SIN, a)
    unused = b.eq(COS, a)
    b.eq(MUL, unused, Literal(2.0))  # depends on dead code only
    checked = b.eq(SUM, a, axes=(0,), keepdims=False)
    b.guard(checked, "bool", True)
    graph = b.graph(used)
    pruned = eliminate_dead_code(graph)
    assert pruned.primitive_names == ["sin", "sum", "guard"]
    assert_same_bits(run(pruned, x), run(graph, x))
    assert len(graph.equations) == 5  # the input graph is left as it was


def test_jit_of_grad_computes_no_unused_gradient():
    f = fg.jit(fg.grad(lambda a, b: fnp.sum(fnp.sin(a) * fnp.exp(b))))
    names = f.lower(x, x).graph.primitive_names
    assert names.count("exp") == 1 and "cos" in names
    assert "sum" not in names  # the loss itself is not returned, so not computed


# ---- common subexpressions ----------------------------------------------------------


def test_common_subexpressions_are_computed_once():
    b = Builder(x)
    (a,) = b.inputs
    first, second = b.eq(SIN, a), b.eq(SIN, a)
    total = b.eq(ADD, b.eq(MUL, first, Literal(2.0)), b.eq(MUL, second, Literal(2.0)))
    graph = b.graph(total, second)
    merged = eliminate_common_subexpressions(graph)
    assert merged.primitive_names == ["sin", "multiply", "add"]
    assert merged.outputs[1] is first
    assert_same_bits(run(merged, x), run(graph, x))


def test_common_subexpressions_tell_literals_and_params_apart():
    b = Builder(x)
    (a,) = b.inputs
    outs = [b.eq(MUL, a, Literal(0.0)), b.eq(MUL, a, Literal(-0.0)),
            b.eq(MUL, a, Literal(np.float32(2.0))), b.eq(MUL, a, Literal(2.0)),
            b.eq(SUM, a, axes=(0,), keepdims=False), b.eq(SUM, a, axes=(0,), keepdims=True)]
    graph = b.graph(*outs)
    merged = eliminate_common_subexpressions(graph)
    assert len(merged.equations) == 6
    assert_same_bits(run(merged, x), run(graph, x))


def test_common_subexpressions_under_different_error_handling_stay_apart():
    b = Builder(x)
    (a,) = b.inputs
    quiet, raising = b.eq(SIN, a), b.eq(SIN, a)
    b.equations[-1].errstate = dict(np.geterr(), over="raise")
    merged = eliminate_common_subexpressions(b.graph(quiet, raising))
    assert merged.primitive_names == ["sin", "sin"]
    assert merged.equations[1].errstate["over"] == "raise"


# ---- constants ----------------------------------------------------------------------


def test_constant_folding_runs_constant_equations_once():
    b = Builder(x)
    (a,) = b.inputs
    k = b.const(np.arange(300.0))
    scale = b.eq(MUL, b.eq(SIN, k), Literal(3.0))
    out = b.eq(ADD, a, scale)
    b.guard(a, "array", (x.dtype.str, x.shape, x.tobytes()))  # guards are never folded
    graph = b.graph(out, scale)
    folded = fold_constants(graph)
    assert folded.primitive_names == ["add", "guard"]
    assert isinstance(folded.outputs[1], Constant)
    assert_same_bits(run(folded, x), run(graph, x))


# ---- identities ---------------------------------------------------------------------


def test_identities_are_dropped_and_their_uses_read_the_input():
    m = np.linspace(-1.0, 1.0, 12).reshape(3, 4)
    b = Builder(m)
    (a,) = b.inputs
    s = b.eq(SIN, a)
    ones = b.eq(MUL, b.const(np.ones((3, 4))), s)  # a sum's broadcast cotangent
    one = b.eq(MUL, ones, Literal(1.0))
    same = b.eq(RESHAPE, b.eq(TRANSPOSE, one, axes=(0, 1)), shape=(3, 4), order="C")
    cast = b.eq(ASTYPE, same, dtype=np.float64)
    out = b.eq(COS, cast)
    graph = b.graph(out, cast, a)
    dropped = drop_identities(graph)
    assert dropped.primitive_names == ["sin", "cos"]
    assert dropped.equations[1].inputs == (s,)
    assert list(dropped.outputs) == [out, s, a]
    assert_same_bits(run(dropped, m), run(graph, m))


def test_identities_keep_what_changes_shape_dtype_or_values():
    m = np.linspace(-1.0, 1.0, 12).reshape(3, 4)
    b = Builder(m, np.float32(2.0), m + 1j)
    a, f32, z = b.inputs
    kept = [b.eq(MUL, a, b.const(np.ones((2, 3, 4)))),  # broadcasts a
            b.eq(MUL, f32, Literal(np.float64(1.0))),  # promotes float32
            b.eq(MUL, a, b.const(np.full((3, 4), 1.0 + 1e-16 * 3))),  # not all ones
            b.eq(MUL, z, Literal(1.0)),  # complex: (inf + 0j) * 1 is not itself
            b.eq(TRANSPOSE, a, axes=(1, 0)),
            b.eq(RESHAPE, a, shape=(4, 3), order="C"),
            b.eq(ASTYPE, a, dtype=np.float32)]
    graph = b.graph(*kept)
    assert drop_identities(graph).equations == graph.equations


# ---- buffer reuse -------------------------------------------------------------------


def test_buffer_reuse_overwrites_dead_elementwise_intermediates():
    b = Builder(x)
    (a,) = b.inputs
    s = b.eq(SIN, a)  # input: never overwritten
    c = b.eq(COS, s)  # s's last use: overwritten
    m = b.eq(MUL, c, Literal(2.0))  # c's last use: overwritten
    graph = b.graph(m)
    reused = reuse_buffers(graph)
    assert [eq.overwrites for eq in reused.equations] == [None, s, c]
    assert "out=" in Program(reused).text
    assert_same_bits(run(reused, x), run(graph, x))
    original = x.copy()
    run(reused, x)
    assert_same_bits([x], [original])


def test_buffer_reuse_leaves_views_later_uses_outputs_and_small_arrays_alone():
    b = Builder(x)
    (a,) = b.inputs
    s = b.eq(SIN, a)
    view = b.eq(RESHAPE, s, shape=(3, 100), order="C")  # s may now be aliased
    c = b.eq(COS, s)
    e = b.eq(COS, a)
    later = b.eq(MUL, e, e)  # e read again below: not overwritten here
    out = b.eq(ADD, later, e)
    summed = b.eq(SUM, b.eq(SIN, b.eq(SIN, a)), axes=(0,), keepdims=False)
    graph = b.graph(view, c, out, summed)
    reused = reuse_buffers(graph)
    overwritten = {eq.outputs[0]: eq.overwrites for eq in reused.equations}
    assert overwritten[c] is None and overwritten[later] is None
    assert overwritten[out] is later  # last use of `later`
    assert_same_bits(run(reused, x), run(graph, x))
    small = reuse_buffers(graph, min_size=10_000)
    assert all(eq.overwrites is None for eq in small.equations)


def test_buffer_reuse_writes_into_an_intermediate_dead_before_the_equation():
    # A matmul does not write into its own inputs (NumPy would copy them first), but into
    # any buffer of its result's shape and dtype whose last use has passed; the program
    # keeps that buffer until then (its `del` comes after the write).
    m = np.linspace(-1.0, 1.0, 400).reshape(20, 20)
    b = Builder(m)
    (a,) = b.inputs
    s, c = b.eq(SIN, a), b.eq(COS, a)
    first = b.eq(MATMUL, s, c)  # the last use of s and c: not its own inputs
    second = b.eq(MATMUL, first, a)  # s or c is dead by now
    graph = b.graph(second)
    reused = reuse_buffers(ufunc_products(graph))  # (jit's order: matmul as its ufunc)
    assert reused.equations[2].overwrites is None
    assert reused.equations[3].overwrites in (s, c)
    assert_same_bits(run(reused, m), run(graph, m))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("shapes", [((5, 1), (1, 4)), ((3, 5, 1), (1, 4)),
                                    ((2, 1), (1, 1)), ((4, 3), (3, 2))])
def test_products_become_ufuncs_and_outer_products_of_real_floats_multiplies(shapes, dtype):
    rng = np.random.default_rng(0)
    a_value, b_value = (rng.standard_normal(shape).astype(dtype) for shape in shapes)
    b = Builder(a_value)
    (a,) = b.inputs
    product = b.eq(MATMUL, a, b.const(b_value))
    graph = b.graph(product)
    (eq,) = ufunc_products(graph).equations
    outer = shapes[0][-1] == 1 and shapes[1][-2] == 1 and dtype != np.complex128
    assert eq.primitive.impl is (np.multiply if outer else np.matmul)
    assert_same_bits(run(ufunc_products(graph), a_value), [np.matmul(a_value, b_value)])


def test_buffer_reuse_takes_what_an_allocating_primitive_read_and_not_what_a_view_did():
    # from_values returns memory of its own (a ReLU's mask read the pre-activation), so
    # what it read may be overwritten once dead; a reshape's result may be a view.
    b = Builder(x)
    (a,) = b.inputs
    c = b.eq(COS, a)
    view = b.eq(RESHAPE, c, shape=(3, 100), order="C")
    s = b.eq(SIN, a)
    mask = b.eq(from_values_p, s, compute=np.signbit, dtype=np.float64)
    e = b.eq(EXP, a)  # s is dead and free by now; c is not (a view of it may be alive)
    f = b.eq(EXP, b.eq(COS, a))
    graph = b.graph(b.eq(MUL, e, mask), view, f)
    reused = reuse_buffers(graph)
    overwritten = {eq.outputs[0]: eq.overwrites for eq in reused.equations}
    assert overwritten[e] is s and c not in overwritten.values()
    assert_same_bits(run(reused, x), run(graph, x))


@pytest.mark.parametrize("compute", [lambda v: v, lambda v: v[::-1], lambda v: v.reshape(3, 100),
                                     np.signbit])
def test_from_values_results_are_memory_of_their_own(compute):
    result = from_values_p.impl(x, compute=compute, dtype=x.dtype)
    assert not np.shares_memory(result, x)
    assert_same_bits([result], [np.asarray(compute(x), x.dtype)])


def test_buffer_reuse_needs_matching_shape_and_dtype():
    b = Builder(x, x[:1])
    a, one = b.inputs
    s = b.eq(SIN, one)  # shape (1,): broadcasting into it would change the shape
    wide = b.eq(ADD, s, a)
    f32 = b.eq(SIN, b.eq(registry["astype"], a, dtype=np.float32))
    f64 = b.eq(SIN, a)
    mixed = b.eq(MUL, f32, f64)  # float64: f32's buffer is the wrong dtype, f64's fits
    graph = b.graph(wide, mixed)
    reused = reuse_buffers(graph, min_size=1)
    assert reused.equations[1].overwrites is None
    assert reused.equations[-1].overwrites is f64
    assert_same_bits(run(reused, x, x[:1]), run(graph, x, x[:1]))


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min"])
@pytest.mark.parametrize("axes", [(), (0,), (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions_return_memory_of_their_own(name, axes, keepdims):
    # Declared `allocates`: jit neither copies their results for the caller nor checks
    # them, and buffer reuse may write into them, so none may be its argument or a view.
    primitive = registry[name]
    grid = x.reshape(20, 15)
    result = primitive.impl(grid, axes=axes, keepdims=keepdims)
    assert primitive.allocates and not np.shares_memory(result, grid)
    jitted = fg.jit(lambda v: primitive(v, axes=axes, keepdims=keepdims))
    for _ in range(2):  # traced, then replayed
        assert not np.shares_memory(jitted(grid), grid)


# ---- squares and filled operands ----------------------------------------------------


def _any_floats(dtype, shape):
    """Arrays of every bit pattern of `dtype`: NaNs with payloads, infinities, signed
    zeros, subnormals."""
    bits = np.dtype(f"u{np.dtype(dtype).itemsize}")
    return hnp.arrays(bits, shape).map(lambda a: a.view(dtype))


@pytest.mark.skipif(not passes._POWER_OF_2_IS_SQUARE,
                    reason="NumPy before 2.2 computes power(x, 2) with pow(), not as x * x")
@given(st.sampled_from([np.float32, np.float64]).flatmap(
    lambda dtype: _any_floats(dtype, st.sampled_from([(300,), (7, 40)]))))
def test_powers_of_two_become_squares_with_the_same_bits(m):
    counts = np.arange(m.size).reshape(m.shape)
    b = Builder(m, counts if m.dtype == np.float64 else counts.astype(np.float16))
    a, other = b.inputs
    with np.errstate(all="ignore"):  # (every bit pattern: overflows, NaNs)
        outs = [b.eq(POWER, a, Literal(2)), b.eq(POWER, a, Literal(2.0)),
                b.eq(POWER, b.eq(TRANSPOSE, a, axes=tuple(range(m.ndim))[::-1]), Literal(2)),
                b.eq(POWER, a, Literal(3)),  # not a square
                b.eq(POWER, a, Literal(np.float64(2.0))),  # not a Python number: left alone
                b.eq(POWER, other, Literal(2))]  # an int64 or float16 base: left alone
    graph = b.graph(*outs)
    squared = square_powers(graph)
    assert squared.primitive_names == ["square", "square", "transpose", "square", "power",
                                       "power", "power"]
    with np.errstate(all="ignore"):
        assert_same_bits(run(squared, m, b.values[other]), run(graph, m, b.values[other]))


_EXTREMA = [MAXIMUM, MINIMUM, FMAX, FMIN]


@given(st.sampled_from([np.float32, np.float64]).flatmap(
           lambda dtype: _any_floats(dtype, (8, 40))),
       st.sampled_from([0.0, -0.0, 0.5, -3, np.inf, -np.inf]),
       st.sampled_from(["C", "F", "reversed"]))
@example(m=np.array([[0.0, -0.0, np.nan, -np.inf]] * 10, np.float32).reshape(8, 5),
         number=0.0, layout="C").via("ReLU's ties: maximum(-0.0, 0.0) is 0.0, (0.0, -0.0) -0.0")
def test_extrema_against_a_number_compare_against_a_filled_array_with_the_same_bits(
        m, number, layout):
    # The layout of the value is not known when compiling: a C-contiguous one compares
    # against the array, any other against the number, with the result's layout NumPy's.
    b = Builder(m)
    (a,) = b.inputs
    outs = [b.eq(op, a, Literal(number)) for op in _EXTREMA]
    outs += [b.eq(op, Literal(number), a) for op in _EXTREMA]
    graph = b.graph(*outs)
    filled = fill_scalar_operands(graph)
    assert all(name.endswith("_filled") for name in filled.primitive_names[:4])
    assert all(name.endswith("_filled_first") for name in filled.primitive_names[4:])
    assert len(filled.constants) == 1  # one array of the number, shared
    value = {"C": m, "F": np.asfortranarray(m), "reversed": m[::-1, ::-1]}[layout]
    ours, expected = run(filled, value), run(graph, value)
    assert_same_bits(ours, expected)
    assert [r.strides for r in ours] == [r.strides for r in expected]


def test_extrema_keep_numbers_that_do_not_fit_and_other_operands():
    m32 = np.linspace(-1.0, 1.0, 300, dtype=np.float32)
    b = Builder(m32, x, x.astype(np.int64))
    a32, a64, ints = b.inputs
    kept = [b.eq(MAXIMUM, a32, Literal(0.1)),  # float32 cannot hold 0.1
            b.eq(MAXIMUM, a32, Literal(2 ** 24 + 1)),  # nor this int
            b.eq(MAXIMUM, a64, Literal(np.nan)),
            b.eq(MAXIMUM, a32, Literal(np.float64(0.5))),  # a float64 result
            b.eq(MAXIMUM, ints, Literal(0)),  # integers: vectorized either way
            b.eq(MAXIMUM, a64, a64)]
    with np.errstate(over="ignore"):
        kept.append(b.eq(MAXIMUM, a32, Literal(10 ** 300)))  # beyond float32: infinity
    graph = b.graph(*kept)
    assert fill_scalar_operands(graph) is graph
    b = Builder(x)
    large = b.graph(b.eq(MAXIMUM, b.inputs[0], Literal(0.0)))
    assert fill_scalar_operands(large, max_bytes=x.nbytes - 1) is large
    assert fill_scalar_operands(large, max_bytes=x.nbytes).primitive_names == [
        "maximum_filled"]


def test_a_jitted_relu_compares_against_a_filled_array():
    m = np.linspace(-1.0, 1.0, 300).reshape(20, 15)
    relu = fg.jit(lambda v: fnp.maximum(v, 0.0))
    assert "maximum_filled_(a, k" in relu.lower(m).as_text()
    for value in (m, m.T, m[::-1]):
        for _ in range(3):
            ours, expected = relu(value), np.maximum(value, 0.0)
            assert_same_bits([ours], [expected])
            assert ours.strides == expected.strides


# ---- passes with nothing to change ---------------------------------------------------


@pytest.mark.parametrize("optimization", [
    fold_constants, drop_identities, eliminate_common_subexpressions, eliminate_dead_code,
    square_powers, fill_scalar_operands, reuse_buffers])
def test_a_pass_with_nothing_to_change_keeps_every_equation(optimization):
    # Passes rebuild only the equations they change: jit runs them on programs of
    # thousands of equations.
    b = Builder(x, x)
    a, c = b.inputs
    s = b.eq(SIN, a)
    joined = b.eq(CONCATENATE, s, c, b.const(x), axis=0)
    scaled = b.eq(MUL, joined, Literal(2.0))
    graph = b.graph(scaled, s)
    optimized = optimization(graph)
    assert all(new is old for new, old in zip(optimized.equations, graph.equations,
                                              strict=True))
    assert list(optimized.outputs) == [scaled, s]


# ---- on traced programs -------------------------------------------------------------

# Bounded on the positive arguments they are given (no overflow in a chain of 12).
_UNARY = [fnp.sin, fnp.cos, fnp.tanh, lambda v: fnp.exp(-v), lambda v: v * 1.01,
          lambda v: v + 0.1, lambda v: -v, lambda v: v * fnp.tanh(v), fnp.sqrt,
          lambda v: fnp.maximum(v, 0.2), lambda v: fnp.maximum(0.5, v),
          lambda v: fnp.minimum(v ** 2, 4.0),
          lambda v: v.reshape(-1).reshape(v.shape), lambda v: v.T.T,
          lambda v: v - fnp.mean(v)]


@given(st.lists(st.integers(0, len(_UNARY) - 1), min_size=1, max_size=12),
       st.sampled_from([(300,), (20, 20), (3,)]), st.sampled_from([np.float32, np.float64]))
@example(ops=[0, 0], shape=(300,), dtype=np.float32).via(
    "optimizing an optimized graph reused a buffer an equation already wrote into")
def test_optimized_programs_equal_eager_funcgrad_bit_for_bit(ops, shape, dtype):
    def f(v):
        for op in ops:
            v = _UNARY[op](fnp.abs(v) + 0.5)
        return fnp.sum(v * v), v

    value = (np.arange(np.prod(shape)).reshape(shape) / 97.0).astype(dtype)
    for fun in (f, fg.grad(lambda v: f(v)[0]), fg.value_and_grad(lambda v: f(v)[0])):
        jitted = fg.jit(fun)
        jitted(value)  # traced
        assert_same_bits(tree_flatten(jitted(value))[0], tree_flatten(fun(value))[0])
        graph = jitted.lower(value).graph
        assert_same_bits(run(optimize(graph), value), tree_flatten(fun(value))[0])


# ---- guards in generated code ---------------------------------------------------------


@pytest.mark.parametrize("kind, traced, replayed", [
    ("bool", np.bool_(True), np.bool_(False)), ("int", np.int64(3), np.int64(4)),
    ("index", np.int64(3), np.int64(2)), ("float", np.float64(0.5), np.float64(-0.5)),
    ("float", np.float64(np.nan), np.float64(1.0)), ("complex", np.complex128(1j), 2j),
    ("array", np.array([1.0, np.nan]), np.array([1.0, 2.0]))])
def test_generated_guards_check_what_passes_guard_checks(kind, traced, replayed):
    b = Builder(traced)
    (a,) = b.inputs
    expected = array_bits(traced) if kind == "array" else CONVERSIONS[kind](traced)
    b.guard(a, kind, expected)
    program = Program(b.graph(a)).function()
    for value in (traced, replayed):
        if passes_guard(value, kind, expected):
            program(value)
        else:
            with pytest.raises(GuardFailed):
                program(value)
    assert passes_guard(traced, kind, expected)
    assert not passes_guard(replayed, kind, expected)


def test_reshapes_of_reshapes_compose_and_cancel():
    m = np.linspace(-1.0, 1.0, 12).reshape(3, 4)
    b = Builder(m)
    (a,) = b.inputs
    s = b.eq(SIN, a)
    there = b.eq(RESHAPE, s, shape=(12, 1), order="C")
    back = b.eq(RESHAPE, b.eq(RESHAPE, there, shape=(2, 6), order="C"), shape=(3, 4),
                order="C")  # where it began: s itself
    flat = b.eq(RESHAPE, there, shape=(12,), order="C")  # reshapes s directly
    other_order = b.eq(RESHAPE, there, shape=(4, 3), order="F")  # not composed
    graph = b.graph(b.eq(COS, back), flat, other_order)
    simplified = eliminate_dead_code(drop_identities(graph))
    assert simplified.primitive_names == ["sin", "reshape", "reshape", "reshape", "cos"]
    assert simplified.equations[-1].inputs == (s,)
    by_output = {eq.outputs[0]: eq for eq in simplified.equations}
    assert by_output[flat].inputs == (s,) and by_output[other_order].inputs == (there,)
    assert_same_bits(run(simplified, m), run(graph, m))
