"""jit: caching per signature, replay as generated code, composition, guards, errors.

Replayed results are compared bit for bit with eager funcgrad (jit's passes promise
equality, not closeness); JAX is the oracle of eager funcgrad elsewhere, and of jit in
test_jit_oracle.py. Every test runs twice: with replays interpreted, and with each
program compiled on its first replay (`jit_tiers`); tests of what only the compiled tier
does (buffer reuse, donation, generated code) pin it with the `compiled` fixture.
"""
import sys
import warnings
from collections import namedtuple

import numpy as np
import hypothesis.extra.numpy as hnp
import hypothesis.strategies as st
import pytest
from hypothesis import example, given

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.transforms import passes
from funcgrad.transforms.jit import JitRecompileWarning
from funcgrad.tree_util import tree_flatten
from jit_tiers import TIERS, tier

rng = np.random.default_rng(0)


@pytest.fixture(autouse=True, scope="module", params=TIERS)
def replay_tier(request):
    with tier(request.param):
        yield request.param


@pytest.fixture
def compiled():
    """For a test of the compiled tier: each program compiled on its first replay."""
    with tier("compiled"):
        yield


def assert_identical(ours, expected):
    ours, ours_tree = tree_flatten(ours)
    expected, expected_tree = tree_flatten(expected)
    assert ours_tree == expected_tree
    for a, b in zip(ours, expected):
        assert np.result_type(a) == np.result_type(b)
        assert np.shape(a) == np.shape(b)
        np.testing.assert_array_equal(a, b, strict=False)
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes()


def loss(w, x):
    return fnp.sum(fnp.tanh(x @ w) ** 2)


# ---- caching and replay ---------------------------------------------------------------


def test_traces_once_per_signature_and_replays():
    f = fg.jit(loss)
    w, x = rng.normal(size=(3, 2)), rng.normal(size=(4, 3))
    for scale in (1.0, 2.0, -0.5):
        assert_identical(f(w * scale, x), loss(w * scale, x))
    assert f.trace_count == 1
    f(w.astype(np.float32), x)  # a new dtype
    f(rng.normal(size=(3, 5)), x)  # a new shape
    assert f.trace_count == 3
    f(w, x)
    assert f.trace_count == 3


def test_python_numbers_are_weakly_typed_one_signature():
    f = fg.jit(lambda x, c: x * c)
    x = np.ones(3, np.float32)
    assert_identical(f(x, 2.0), x * 2.0)
    assert_identical(f(x, 3.5), x * 3.5)  # float32 kept, as NumPy does
    assert f.trace_count == 1
    assert_identical(f(x, 2), x * 2)  # an int is another signature
    assert f.trace_count == 2


def test_pytrees_in_and_out():
    Pair = namedtuple("Pair", "a b")

    def f(params, xs):
        return {"sum": params["w"] * xs[0] + xs[1], "pair": Pair(fnp.sin(xs[0]), 1.0)}

    params, xs = {"w": rng.normal(size=3)}, [rng.normal(size=3), rng.normal(size=3)]
    jf = fg.jit(f)
    assert_identical(jf(params, xs), f(params, xs))
    assert_identical(jf(params, xs), f(params, xs))
    assert jf.trace_count == 1


def test_static_argnums_and_argnames():
    def f(x, power, *, axis):
        return fnp.sum(x ** power, axis=axis)

    jf = fg.jit(f, static_argnums=1, static_argnames="axis")
    x = rng.normal(size=(2, 3))
    assert_identical(jf(x, 2, axis=0), f(x, 2, axis=0))
    assert_identical(jf(x, 3, axis=0), f(x, 3, axis=0))
    assert_identical(jf(x, 3, axis=1), f(x, 3, axis=1))
    assert_identical(jf(x + 1, 3, axis=1), f(x + 1, 3, axis=1))
    assert jf.trace_count == 3
    # static_argnames names a positional parameter too
    jg = fg.jit(f, static_argnames=("power", "axis"))
    assert_identical(jg(x, 2, axis=1), f(x, 2, axis=1))


def test_lower_shows_the_generated_program_and_clear_cache_forgets():
    f = fg.jit(loss)
    w, x = rng.normal(size=(3, 2)), rng.normal(size=(4, 3))
    lowered = f.lower(w, x)
    text = lowered.as_text()
    assert text.startswith("def loss(w, x):") or text.startswith("def loss(a, b):")
    # (the optimized program: NumPy 2.2 on computes power(x, 2) as square(x), faster)
    names = ["matmul", "tanh", "square" if passes._POWER_OF_2_IS_SQUARE else "power", "sum"]
    for name in names:
        assert f"{name}_(" in text
    assert lowered.graph.primitive_names == names
    f(w, x)
    f.clear_cache()
    f(w, x)
    assert f.trace_count == 3  # lower, then one trace before and one after clear_cache


def test_decorator_forms():
    @fg.jit
    def f(x):
        return x * 2.0

    @fg.jit(static_argnums=(1,))
    def g(x, n):
        return x * n

    assert_identical(f(np.ones(2)), np.ones(2) * 2.0)
    assert_identical(g(np.ones(2), 3), np.ones(2) * 3)
    assert f.__name__ == "f"


def test_replay_creates_no_box_and_runs_no_engine_code(replay_tier):
    """A cached program calls NumPy impls only: no function of funcgrad.core or of the
    transforms (where boxes are made and primitives dispatched) runs, in either tier."""
    f = fg.jit(fg.grad(loss))
    w, x = rng.normal(size=(3, 2)), rng.normal(size=(4, 3))
    expected = fg.grad(loss)(w * 2, x)
    f(w, x)  # traces
    f(w, x)  # interprets it, or optimizes and compiles the program, then runs it
    called = []

    def profile(frame, event, arg):
        if event == "call":
            called.append((frame.f_code.co_filename, frame.f_code.co_name))

    sys.setprofile(profile)
    try:
        result = f(w * 2, x)
    finally:
        sys.setprofile(None)
    assert_identical(result, expected)
    runner = "jit.py" if replay_tier == "compiled" else "interpret.py"
    engine = [call for call in called if (
              "funcgrad/core" in call[0] or call[1] in ("bind", "process_primitive")
              or ("funcgrad/transforms" in call[0]
                  and not call[0].endswith(("jit.py", runner))))]
    assert engine == []
    compiled_ran = any(filename.startswith("<funcgrad.jit") for filename, _ in called)
    assert compiled_ran == (replay_tier == "compiled")


def _calls_during(call):
    """The names of the Python functions `call()` runs, and its result."""
    called = []

    def profile(frame, event, arg):
        if event == "call":
            called.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        result = call()
    finally:
        sys.setprofile(None)
    return called, result


def test_replays_on_the_same_kind_of_arrays_skip_flattening_and_others_do_not():
    """Positional NumPy arrays of the types, shapes and dtypes of the first fitting replay
    run its program without flattening or a cache lookup; anything else takes the path
    that does, and gets what it would have without the shortcut."""
    def f(a, b):
        return fnp.sin(a) * b

    jf = fg.jit(f)
    a, b = rng.normal(size=(3, 2)), rng.normal(size=2)
    jf(a, b)  # traces
    jf(a, b)  # replays through the cache (and keeps the program for the shortcut)
    called, result = _calls_during(lambda: jf(a * 2, b))
    assert "tree_flatten" not in called
    assert_identical(result, f(a * 2, b))

    class Sub(np.ndarray):
        pass

    others = [(a.astype(np.float32), b),  # another dtype
              (a[:2], b),  # another shape
              (a.view(Sub), b),  # another type of array
              (a, 2.0),  # a Python number
              (a, np.float64(2.0)),  # a NumPy scalar
              ]
    for args in others:
        called, result = _calls_during(lambda: jf(*args))
        assert "tree_flatten" in called
        assert_identical(result, f(*args))
    assert jf.trace_count == 6
    # keyword arguments, and values an enclosing transform traces (inline)
    assert_identical(jf(a, b=b), f(a, b=b))
    assert_identical(fg.grad(lambda a: fnp.sum(jf(a, b)))(a), fg.grad(lambda a: fnp.sum(f(a, b)))(a))
    called, _ = _calls_during(lambda: jf(a, b))
    assert "tree_flatten" not in called
    jf.clear_cache()  # forgets the shortcut's program too
    jf(a, b)
    assert jf.trace_count == 8


def test_programs_with_guards_or_donations_take_no_shortcut():
    guarded = fg.jit(lambda x: x * 2.0 if float(x[0]) > 0 else x * 3.0)
    donating = fg.jit(lambda x: fnp.sin(x) * 2.0, donate_argnums=0)
    for f in (guarded, donating):
        for sign in (1.0, -1.0, 1.0, -1.0):
            x = np.full(300, sign)
            called, result = _calls_during(lambda: f(x.copy()))
            assert "tree_flatten" in called
            assert_identical(result, f.fun(x.copy()))
    assert guarded.trace_count == 2 and donating.trace_count == 1


def test_results_belong_to_the_caller():
    const = np.arange(3.0)
    f = fg.jit(lambda x: (x, x.reshape(3), const, x * 2.0))
    x = np.ones(3)
    for _ in range(4):  # a trace, then replays (the fast path's from the third call)
        a, b, c, d = f(x)
        assert not np.shares_memory(a, x) and not np.shares_memory(b, x)
        assert not np.shares_memory(b, a) and not np.shares_memory(c, const)
        c[0] = 10.0
    assert const[0] == 0.0


def test_results_of_dropped_identities_and_views_of_fresh_results_are_copied():
    # x * 1.0 and astype to its own dtype become x itself (drop_identities); a view of a
    # fresh result shares its memory: each is copied, only when the run returns it.
    f = fg.jit(lambda x: (x * 1.0, x.astype(x.dtype), fnp.sin(x), fnp.sin(x).reshape(3, 1)))
    x = np.linspace(0.0, 1.0, 3)
    for _ in range(3):
        outs = f(x)
        for i, a in enumerate(outs):
            assert a.flags.writeable and not np.shares_memory(a, x)
            assert not any(np.shares_memory(a, b) for b in outs[i + 1:])
        assert_identical(outs, (x, x, np.sin(x), np.sin(x).reshape(3, 1)))


# ---- composition -----------------------------------------------------------------------


def test_jit_of_grad_hessian_value_and_grad_jacrev():
    w, x = rng.normal(size=(3, 2)), rng.normal(size=(4, 3))
    v = rng.normal(size=4)
    f = lambda v: fnp.sum(fnp.tanh(v) ** 2) * fnp.prod(fnp.cos(v))  # noqa: E731
    for transform, args in [(fg.grad(loss), (w, x)), (fg.grad(loss, argnums=(0, 1)), (w, x)),
                            (fg.value_and_grad(loss), (w, x)), (fg.hessian(f), (v,)),
                            (fg.jacrev(lambda v: fnp.tanh(v) * v), (v,)),
                            (fg.jacfwd(lambda v: fnp.sin(v) * v), (v,))]:
        jitted = fg.jit(transform)
        for scale in (1.0, -2.0):
            scaled = (args[0] * scale,) + args[1:]
            assert_identical(jitted(*scaled), transform(*scaled))
        assert jitted.trace_count == 1


def test_grad_of_jit_and_jit_inside_jit():
    w, x = rng.normal(size=(3, 2)), rng.normal(size=(4, 3))
    inner = fg.jit(loss)
    assert_identical(fg.grad(inner)(w, x), fg.grad(loss)(w, x))
    assert_identical(fg.hessian(inner)(w, x), fg.hessian(loss)(w, x))
    outer = fg.jit(lambda w, x: inner(w, x) * 2.0 + inner(w * 2.0, x))
    expected = loss(w, x) * 2.0 + loss(w * 2.0, x)
    assert_identical(outer(w, x), expected)
    assert_identical(outer(w, x), expected)
    assert_identical(fg.jit(fg.grad(inner))(w, x), fg.grad(loss)(w, x))


def test_jit_reading_a_value_traced_by_an_enclosing_grad_runs_inline():
    x = rng.normal(size=3)

    def outer(w):
        return fnp.sum(fg.jit(lambda y: y * w)(x))

    assert_identical(fg.grad(outer)(np.ones(3)), x)


def test_stop_gradient_inside_jit_of_grad():
    f = lambda x: fnp.sum(x * fg.stop_gradient(x) ** 2)  # noqa: E731
    jitted = fg.jit(fg.grad(f))
    for x in (np.arange(3.0), np.arange(3.0) - 5):
        assert_identical(jitted(x), fg.grad(f)(x))
    assert jitted.trace_count == 1


@pytest.mark.parametrize("f", [lambda x: fnp.sum(fnp.maximum(x, 0.0) ** 2),
                               lambda x: fnp.sum(fnp.abs(x) * x),
                               lambda x: fnp.max(x, axis=1).sum() + fnp.min(x)])
def test_slopes_and_tie_shares_computed_from_values_are_staged_not_guarded(f):
    """maximum's slope, abs's sign and max's share of ties are computed from the values by
    an equation of the program, so a new input replays the same program."""
    jitted = fg.jit(fg.grad(f))
    for x in [rng.normal(size=(2, 5)) for _ in range(3)] + [np.ones((2, 5))]:
        assert_identical(jitted(x), fg.grad(f)(x))
    assert jitted.trace_count == 1


# ---- guards --------------------------------------------------------------------------


def test_branch_on_a_value_retraces_and_is_correct():
    def f(x):
        if fnp.sum(x) > 0:
            return fnp.sin(x)
        return fnp.cos(x)

    jf = fg.jit(f)
    xs = [np.array([1.0, 2.0]), np.array([-1.0, -2.0]), np.array([3.0, 1.0]),
          np.array([-3.0, 1.0])]
    for x in xs:
        assert_identical(jf(x), f(x))
    assert jf.trace_count == 2  # one program per branch, each replayed after
    assert "if not (bool(" in jf.lower(xs[0]).as_text()


def test_int_of_a_value_as_loop_count():
    def f(x, n):
        for _ in range(int(n)):
            x = fnp.sin(x) * 1.5
        return x

    jf = fg.jit(f)
    x = rng.normal(size=3)
    for n in (1, 3, 1, 3, 2):
        assert_identical(jf(x, np.int64(n)), f(x, np.int64(n)))
        assert_identical(jf(x, n), f(x, n))
    assert jf.trace_count == 6  # three counts, as a NumPy int and as a Python int


def test_boolean_mask_whose_count_changes():
    f = lambda x: fnp.sum(x[x > 0] ** 2) + fnp.nonzero(x)[0].shape[0]  # noqa: E731
    jf = fg.jit(f)
    for x in (np.array([1.0, -1.0, 2.0]), np.array([1.0, 1.0, 2.0]),
              np.array([-1.0, -1.0, 0.0]), np.array([1.0, -1.0, 2.0])):
        assert_identical(jf(x), f(x))
        assert_identical(fg.jit(fg.grad(f))(x), fg.grad(f)(x))


def test_item_tolist_and_asarray_are_guarded():
    def f(x):
        scale = x[0].item()
        rows = x.tolist()
        return x * scale + np.asarray(x).sum() + len(rows)

    jf = fg.jit(f)
    for x in (np.array([1.0, 2.0]), np.array([3.0, 2.0]), np.array([1.0, 2.0])):
        assert_identical(jf(x), f(x))
    assert jf.trace_count == 2


def test_cache_limit_warns_once_naming_the_line_then_runs_eagerly():
    f = fg.jit(lambda x: x * float(x[0]), cache_size=3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for i in range(8):
            x = np.array([float(i), 1.0])
            assert_identical(f(x), x * float(i))
    assert f.trace_count == 3
    assert len(caught) == 1 and caught[0].category is JitRecompileWarning
    message = str(caught[0].message)
    assert "test_jit.py" in message and "float(x[0])" in message
    assert "3 programs" in message


# ---- errors ----------------------------------------------------------------------------


def test_unhashable_static_argument_is_named():
    f = fg.jit(lambda x, shape: fnp.reshape(x, shape), static_argnums=1)
    with pytest.raises(TypeError, match=r"static argument 1 is a list.*hashable"):
        f(np.ones(4), [2, 2])


def test_mutating_an_argument_inside_jit_is_refused():
    def f(x):
        x[0] = 1.0
        return x

    with pytest.raises(TypeError, match=r"assigns into the argument 'x' in place"):
        fg.jit(f)(np.zeros(3))


def test_non_array_argument_and_return_are_named():
    with pytest.raises(TypeError, match=r"argument args\[1\] is a str.*static"):
        fg.jit(lambda x, mode: x)(np.ones(2), "fast")
    with pytest.raises(TypeError, match=r"output out\[1\] is a str"):
        fg.jit(lambda x: (x, "done"))(np.ones(2))


def _warnings_of(call, *args):
    """(the RuntimeWarnings `call(*args)` emits under the caller's settings, its result)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call(*args)
    return [(w.category, str(w.message)) for w in caught], result


@pytest.mark.parametrize("settings", [{}, {"divide": "ignore"}, {"all": "warn"}])
def test_jitted_functions_warn_as_eager_code_does(settings):
    # jit(f) replays f's NumPy calls under the caller's np.errstate, as f runs eagerly:
    # the same RuntimeWarnings on every call, traced or replayed.
    def f(x):
        return fnp.log(x) + fnp.sqrt(x - 1.0)

    jf = fg.jit(f)
    x = np.zeros(3)
    with np.errstate(**settings):
        expected, value = _warnings_of(f, x)
        for _ in range(3):
            caught, result = _warnings_of(jf, x)
            assert caught == expected
            assert_identical(result, value)
    with np.errstate(divide="raise"), pytest.raises(FloatingPointError, match="divide"):
        jf(x)  # the caller's settings, not those of the trace


def test_jitted_transforms_are_as_quiet_as_eager_ones():
    # grad quiets its own computation (log(0) is -inf, quietly): replayed in a block.
    df = fg.grad(lambda x: fnp.sum(fnp.log(x) + fnp.sqrt(x - 1.0)))
    jdf = fg.jit(df)
    x = np.zeros(3)
    with np.errstate(all="raise"):
        expected, value = _warnings_of(df, x)
        assert expected == []
        for _ in range(3):
            caught, result = _warnings_of(jdf, x)
            assert caught == []
            assert_identical(result, value)
    # grad's block holds every equation: np.errstate decorates the whole program
    text = jdf.lower(x).as_text()
    assert text.startswith("@errstate_(") and "with errstate_(" not in text


def test_numpy_error_state_of_a_block_is_replayed():
    def f(x):
        with np.errstate(divide="raise"):
            return fnp.log(x)

    jf = fg.jit(f)
    x = np.ones(3)
    for _ in range(3):
        assert_identical(jf(x), f(x))
    assert jf.lower(x).as_text().startswith("@errstate_(")
    with pytest.raises(FloatingPointError, match="divide by zero"):
        jf(x - 1.0)  # the replayed program raises inside the block, as eagerly


def test_numpy_error_state_of_part_of_a_function_is_a_block_of_its_lines():
    def f(x):
        y = fnp.log(x)  # under the caller's settings
        with np.errstate(divide="raise"):
            return y + fnp.log(x + 1.0)

    jf = fg.jit(f)
    x = np.array([0.0, 2.0, 3.0])
    with np.errstate(divide="ignore", invalid="ignore"):
        text = jf.lower(x).as_text()
        assert text.startswith("def ") and "    with errstate_(" in text
        for _ in range(3):
            assert_identical(jf(x), f(x))  # log(0) quietly, outside the block
        with pytest.raises(FloatingPointError, match="divide by zero"):
            jf(x - 1.0)  # log(0) inside the block raises, as eagerly


def test_methods_and_make_graph_of_a_jitted_function():
    class Model:
        def __init__(self, scale):
            self.scale = scale

        def __hash__(self):
            return hash(self.scale)

        def __eq__(self, other):
            return self.scale == other.scale

        @fg.jit(static_argnums=0)
        def apply(self, x):
            return fnp.sin(x) * self.scale

    x = rng.normal(size=3)
    assert_identical(Model(2.0).apply(x), fnp.sin(x) * 2.0)
    assert_identical(Model(3.0).apply(x), fnp.sin(x) * 3.0)
    graph = fg.make_graph(fg.jit(loss))(rng.normal(size=(3, 2)), rng.normal(size=(4, 3)))
    assert graph.primitive_names == ["matmul", "tanh", "power", "sum"]



def test_integer_arguments_are_staged_and_shapes_they_decide_guarded():
    def f(x, idx, reps):
        return fnp.repeat(x[idx] * 2.0, reps) + fnp.sum(idx * 3)

    jf = fg.jit(f)
    x = rng.normal(size=5)
    for idx, reps in [([0, 2], 2), ([1, 3], 2), ([0, 2], 3), ([4, 4], 1)]:
        idx, reps = np.array(idx), np.int64(reps)
        assert_identical(jf(x, idx, reps), f(x, idx, reps))
    # The count decides the result's shape: guarded (a trace per count); the index is
    # a gather's argument, any value replays.
    assert jf.trace_count == 3


def test_mutating_an_argument_through_another_reference_is_detected():
    shared = np.zeros(3)

    def f(x):
        shared[0] = 1.0  # `shared` is also the argument
        return x * 2.0

    with pytest.raises(TypeError, match=r"modified its argument 'x' in place"):
        fg.jit(f)(shared)


def test_primitives_with_dotted_names_replay():
    f = fg.jit(lambda x: fnp.fft.fft(x) * 2.0)
    x = rng.normal(size=4)
    for _ in range(2):
        assert_identical(f(x), fnp.fft.fft(x) * 2.0)
    assert "fft_fftn_(" in f.lower(x).as_text()  # the primitive fft.fftn


def _outcome(call, *args):
    try:
        return "value", call(*args)
    except FloatingPointError as error:
        return "error", str(error).split(", at")[0]


def test_debug_nans_makes_jitted_functions_behave_as_eager_ones():
    # The docs: with debug_nans on a jitted function runs eagerly, so every value is
    # checked, even where a program for its signature is cached already.
    f = lambda x: fnp.sum(fnp.log(x))  # noqa: E731
    x = np.zeros(2)
    for eager in (f, fg.grad(f)):
        jitted = fg.jit(eager)
        with np.errstate(divide="ignore"):  # log(0) warns in f, as eagerly
            jitted(x), jitted(x)  # traced and compiled
            with fg.debug_nans():
                kind, ours = _outcome(jitted, x)
                expected_kind, expected = _outcome(eager, x)
                assert kind == expected_kind
                if kind == "error":
                    assert ours == expected and "'log' holds inf" in ours
                else:
                    assert_identical(ours, expected)
            assert_identical(jitted(x), eager(x))
        assert jitted.trace_count == 1


# ---- indices that are values of the program ---------------------------------------------


@st.composite
def _dynamic_gathers(draw):
    """(x, [index values of one signature]): an integer array (or a Python int) picking
    rows of x, in range, negative ones included."""
    rows = draw(st.integers(1, 5))
    x = draw(hnp.arrays(np.float64, (rows, 3), elements=st.floats(-3, 3, width=64)))
    index = st.integers(-rows, rows - 1)
    if draw(st.booleans()):
        return x, draw(st.lists(index, min_size=2, max_size=3))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=2, max_side=3))
    return x, [np.asarray(draw(hnp.arrays(np.int64, shape, elements=index)))
               for _ in range(3)]


@given(_dynamic_gathers())
# A 0-d array index is an integer array to NumPy: its transpose adds (0.0 + -0.0 is 0.0)
# where an int's assigns, as eagerly.
@example((np.array([[-0.0, -0.0, -0.0]]), [np.array(0), np.array(0), np.array(0)]))
@example((np.array([[-0.0, -0.0, -0.0]]), [0, -1]))
def test_traced_integer_indices_replay_for_every_value(case):
    # x[i] with i an argument is a gather of the program (as in JAX): one trace for the
    # signature, not one per value; results are eager funcgrad's bit for bit, JAX's.
    import jax
    import jax.numpy as jnp

    x, indices = case
    f = lambda x, i: fnp.sin(x[i]) * x[i]  # noqa: E731
    loss = lambda x, i: fnp.sum(f(x, i) ** 2)  # noqa: E731
    jitted, jitted_grad = fg.jit(f), fg.jit(fg.grad(loss))
    jax_f = jax.jit(lambda x, i: jnp.sin(x[i]) * x[i])
    jax_grad = jax.jit(jax.grad(lambda x, i: jnp.sum((jnp.sin(x[i]) * x[i]) ** 2)))
    for i in indices:
        assert_identical(jitted(x, i), f(x, i))
        assert_identical(jitted_grad(x, i), fg.grad(loss)(x, i))
        np.testing.assert_allclose(jitted(x, i), jax_f(x, i), rtol=1e-13, atol=1e-13)
        np.testing.assert_allclose(jitted_grad(x, i), jax_grad(x, i), rtol=1e-13, atol=1e-13)
    assert jitted.trace_count == jitted_grad.trace_count == 1
    assert "guard" not in str(jitted.lower(x, indices[0]).graph)


def test_traced_indices_out_of_range_raise_as_eagerly_and_masks_still_guard():
    x = np.arange(6.0).reshape(3, 2)
    f = fg.jit(lambda x, i: x[i])
    f(x, np.array([0, 2]))
    for bad in (np.array([0, 3]), np.array([-4, 0])):
        with pytest.raises(IndexError, match="out of bounds"):
            f(x, bad)
    masked = fg.jit(lambda x, m: x[m])  # a mask's count decides the shape: guarded
    for mask in ([True, False, True], [True, True, True], [True, False, True]):
        assert_identical(masked(x, np.array(mask)), x[np.array(mask)])
    assert masked.trace_count == 2


# ---- donated arguments --------------------------------------------------------------------


def test_donated_arguments_are_buffers_the_program_reuses(compiled):
    # As JAX's donate_argnums: the program writes into the donated array (its contents
    # are undefined afterwards); results are eager funcgrad's bit for bit.
    f = lambda x, y: fnp.sin(x) * 2.0 + y  # noqa: E731
    x, y = np.linspace(0.0, 1.0, 300), np.linspace(1.0, 2.0, 300)
    donating = fg.jit(f, donate_argnums=0)
    assert "sin_(a, out=a)" in donating.lower(x, y).as_text()
    assert "out=a" not in fg.jit(f).lower(x, y).as_text()  # nothing donated: never
    for call in range(3):
        given = x.copy()
        result = donating(given, y)
        assert_identical(result, f(x, y))
        # Replayed (not the first, traced, call): the donated buffer became the result.
        assert np.shares_memory(result, given) == (call > 0)
    kept = x.copy()
    fg.jit(f)(kept, y), fg.jit(f)(kept, y)
    assert_identical(kept, x)


def test_donated_arrays_that_cannot_be_given_up_are_copied(compiled):
    f = lambda x, y: fnp.sin(x) * 2.0 + y  # noqa: E731
    x = np.linspace(0.0, 1.0, 300)
    donating = fg.jit(f, donate_argnums=(0,))
    donating(x.copy(), x.copy())
    read_only = x.copy()
    read_only.flags.writeable = False
    assert_identical(donating(read_only, x), f(x, x))
    assert_identical(read_only, x)
    aliased = x.copy()  # donated, and also the other argument: not overwritten
    assert_identical(donating(aliased, aliased), f(x, x))
    assert_identical(aliased, x)
    view_of_other = np.concatenate([x, x])
    assert_identical(donating(view_of_other[:300], view_of_other[300:]), f(x, x))
    assert_identical(view_of_other[300:], x)


def test_donated_arrays_are_not_written_by_programs_with_guards(compiled):
    # A guard may fail after the donated array was written: the function is then traced
    # again on that array, so such programs do not write into it.
    def f(x):
        y = fnp.sin(x) * 2.0
        return y + 1.0 if float(fnp.sum(y)) > 0 else y - 1.0

    donating = fg.jit(f, donate_argnums=0)
    x = np.linspace(0.0, 1.0, 300)
    for sign in (1.0, 1.0, -1.0, -1.0, 1.0):
        assert_identical(donating(x * sign), f(x * sign))
    assert "out=a" not in donating.lower(x.copy()).as_text()


def test_donated_weights_of_a_jitted_gradient(compiled):
    # jit(grad) with the weights donated: the gradient may be written into them.
    w, xs = rng.normal(size=(30, 20)), rng.normal(size=(8, 30))
    step = lambda w, x: w - 0.1 * fg.grad(loss)(w, x)  # noqa: E731
    donating = fg.jit(step, donate_argnums=0)
    for _ in range(3):
        assert_identical(donating(w.copy(), xs), step(w, xs))
    assert "out=a" in donating.lower(w.copy(), xs).as_text()
