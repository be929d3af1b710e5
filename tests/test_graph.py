"""make_graph: the traced program as text and as Graphviz DOT, and rendering it."""
import importlib
import inspect
import os
import pkgutil
import shutil
import stat
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.core import (LeakedValueError, ReverseBox, ReverseTrace, dtype_of, leaf_node,
                           new_trace, shape_of)
from funcgrad.debug import provenance
from funcgrad.tools.dot import GraphvizNotFoundError, node_graph_to_dot
from funcgrad.tree_util import tree_flatten, tree_map
from oracle import EXPECTED_WARNINGS
import oracle_cases

pytestmark = EXPECTED_WARNINGS  # for the test that runs every oracle case


def test_text_lists_inputs_equations_and_outputs():
    graph = fg.make_graph(lambda x: fnp.sum(fnp.sin(x) * 2.0))(np.ones(3))
    assert str(graph) == textwrap.dedent("""\
        inputs:
          a:f64[3]  x
        equations:
          b:f64[3] = sin(a:f64[3])
          c:f64[3] = multiply(b:f64[3], 2.0)
          d:f64[] = sum(c:f64[3], axes=(0,), keepdims=False)
        outputs:
          d:f64[]  out""")
    assert graph.primitive_names == ["sin", "multiply", "sum"]
    assert graph.out == pytest.approx(2 * 3 * np.sin(1.0))


def test_pytrees_in_and_out_are_named_by_their_paths():
    def model(params, x):
        hidden = fnp.tanh(x @ params["w"] + params["b"])
        return {"loss": fnp.mean(hidden ** 2), "hidden": hidden}

    params = {"w": np.ones((3, 2), np.float32), "b": np.zeros(2, np.float32)}
    graph = fg.make_graph(model)(params, np.ones((4, 3), np.float32))
    text = str(graph)
    for line in ("a:f32[2]  params['b']", "b:f32[3,2]  params['w']", "c:f32[4,3]  x",
                 "d:f32[4,2] = matmul(c:f32[4,3], b:f32[3,2])"):
        assert line in text
    assert [name for name in graph.output_names] == ["out['hidden']", "out['loss']"]
    assert set(graph.out) == {"hidden", "loss"}


def test_grad_inside_shows_the_backward_pass():
    graph = fg.make_graph(fg.grad(lambda x: fnp.sum(fnp.sin(x))))(np.ones(3))
    # sin's VJP multiplies the cotangent by cos(x): both are recorded.
    assert graph.primitive_names[:2] == ["sin", "sum"]
    assert "cos" in graph.primitive_names and "multiply" in graph.primitive_names
    np.testing.assert_allclose(graph.out, np.cos(np.ones(3)))


def test_custom_vjp_shows_its_function_and_under_grad_its_bwd():
    @fg.custom_vjp
    def doubled_sin(x):
        return fnp.sin(x) * 2.0

    # A deliberately distinctive bwd (tanh), so the graph shows which rule ran.
    doubled_sin.defvjp(lambda x: (doubled_sin(x), x), lambda x, g: (g * fnp.tanh(x),))
    forward = fg.make_graph(doubled_sin)(np.ones(3))
    assert forward.primitive_names == ["sin", "multiply"]
    backward = fg.make_graph(fg.grad(lambda x: fnp.sum(doubled_sin(x))))(np.ones(3))
    assert "tanh" in backward.primitive_names and "cos" not in backward.primitive_names


def test_integer_and_boolean_values_are_linked_without_being_traced():
    graph = fg.make_graph(lambda x: fnp.where(x > 0, fnp.sqrt(fnp.abs(x)), 0.0))(
        np.array([-1.0, 4.0]))
    text = str(graph)
    assert "b:bool[2] = greater(a:f64[2], 0)" in text
    assert "where(b:bool[2]," in text


def test_multiple_results_are_one_equation():
    graph = fg.make_graph(lambda x: fnp.linalg.eigh(x))(np.eye(2))
    assert graph.primitive_names == ["linalg.eigh"]
    assert "b:f64[2], c:f64[2,2] = linalg.eigh(a:f64[2,2]" in str(graph)
    assert len(graph.outputs) == 2


def test_constants_are_listed():
    weights = np.arange(3.0)
    graph = fg.make_graph(lambda x: fnp.dot(x, weights))(np.ones(3))
    assert "constants:\n  k0:f64[3] = [0., 1., 2.]" in str(graph)


def test_keyword_arguments_pass_through_untraced():
    graph = fg.make_graph(lambda x, power=2: fnp.sum(x ** power))(np.ones(2), power=3)
    assert "power(a:f64[2], 3)" in str(graph)


def test_leaked_box_is_an_error():
    leaked = []
    fg.make_graph(lambda x: leaked.append(x) or fnp.sin(x))(1.0)
    with pytest.raises(LeakedValueError, match="make_graph"):
        fnp.cos(leaked[0])


def test_origins_are_shown_when_provenance_is_on():
    line = inspect.currentframe().f_lineno + 3

    def f(x):
        return fnp.exp(x)

    with provenance():
        graph = fg.make_graph(f)(1.0)
    assert f"# {__file__}:{line}" in graph.to_text(origins=True)


def test_dot_has_a_node_per_equation_and_escapes_labels():
    graph = fg.make_graph(lambda x: fnp.linalg.eigh(x)[0].sum())(np.eye(2))
    dot = graph.to_dot()
    assert dot.startswith('digraph "funcgrad" {') and dot.rstrip().endswith("}")
    assert '"eq0" [label="linalg.eigh\\nUPLO=\'L\'", shape="box"];' in dot
    assert '"in0" -> "eq0" [label="f64[2,2]"];' in dot
    assert dot.count("->") == 3  # x -> eigh -> sum -> output
    assert dot.count("{") == dot.count("}")


def test_node_graph_to_dot_draws_reverse_mode_nodes():
    with new_trace(ReverseTrace) as trace:
        x = ReverseBox(np.ones(2), trace, leaf_node())
        y = fnp.sin(x) * x
    dot = node_graph_to_dot([y.node])
    assert dot.count('label="leaf"') == 1
    assert 'label="sin' in dot and 'label="multiply' in dot  # (+ file:line with provenance)
    assert dot.count("->") == 3  # leaf -> sin, sin -> multiply, leaf -> multiply


def test_render_without_graphviz_says_how_to_install_it(monkeypatch, tmp_path):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    graph = fg.make_graph(fnp.sin)(1.0)
    with pytest.raises(GraphvizNotFoundError, match="apt-get install graphviz"):
        graph.render(tmp_path / "g.svg")


def test_render_calls_dot(monkeypatch, tmp_path):
    """A stand-in `dot` that records its arguments and copies its input to -o."""
    fake = tmp_path / "dot"
    fake.write_text(f"#!{sys.executable}\n"
                    "import sys\n"
                    "out = sys.argv[sys.argv.index('-o') + 1]\n"
                    "open(out, 'w').write(' '.join(sys.argv[1:2]) + '\\n' + sys.stdin.read())\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    graph = fg.make_graph(fnp.sin)(1.0)
    path = graph.render(str(tmp_path / "g.png"))
    written = open(path).read()
    assert written.startswith("-Tpng\ndigraph")
    with pytest.raises(ValueError, match="format 'gif'"):
        graph.render(str(tmp_path / "g.gif"))


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz `dot` is not installed")
def test_render_with_graphviz(tmp_path):
    graph = fg.make_graph(lambda x: fnp.sum(fnp.tanh(x)))(np.ones(3))
    path = graph.render(str(tmp_path / "g.svg"))
    assert "<svg" in open(path).read()


# ---- every oracle case, traced with its backward pass -----------------------------------

CASES = [case for module in pkgutil.iter_modules(oracle_cases.__path__)
         for case in importlib.import_module(f"oracle_cases.{module.name}").CASES]


def _forward_and_backward(case, static, diff):
    """fun(*args) and the VJP of its outputs (ones; zeros for integer outputs)."""
    fun = case.funcgrad_fun()

    def run(*args):
        def of_diff_args(*diff_args):
            full = list(args)
            for i, value in zip(diff, diff_args):
                full[i] = value
            return fun(*full, **static)

        out, pullback = fg.vjp(of_diff_args, *(args[i] for i in diff))
        ones = tree_map(lambda o: np.full(shape_of(o), dtype_of(o).kind in "fc",
                                          dtype_of(o)), out)
        return out, pullback(ones)
    return run


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
@settings(max_examples=1, database=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_oracle_case_traces_with_its_backward_pass(case, data):
    """make_graph handles every primitive, forward and backward, without changing results."""
    args, static = data.draw(case.args)
    diff = case.diff if case.diff is not None else tuple(
        i for i, a in enumerate(args) if np.result_type(a).kind in "fc")
    if case.differentiable and diff:
        run = _forward_and_backward(case, static, diff)
    else:
        run = lambda *args: case.funcgrad_fun()(*args, **static)  # noqa: E731
    expected = run(*args)
    graph = fg.make_graph(run)(*args)
    assert str(graph) and graph.to_dot()  # (no equations when the case is an identity)
    for ours, theirs in zip(tree_flatten(graph.out)[0], tree_flatten(expected)[0]):
        np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=1e-10,
                                   err_msg=case.name)
