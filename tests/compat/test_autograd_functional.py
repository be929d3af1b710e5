"""compat.autograd.functional against torch.autograd.functional: vjp, jvp, jacobian,
hessian, vhp and hvp over random shapes, dtypes, functions and every combination of their
options, compared in values, dtypes, requires_grad and history (and the gradients that flow
back through results made with create_graph=True); their errors word for word."""
import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import compat
from compat_harness import assert_same_error, check, run_both

# torch's forward mode with vectorize=True runs its vmap, which builds on torch.jit.script.
pytestmark = pytest.mark.filterwarnings("ignore:`torch.jit.script` is deprecated")

# Functions written once against either library, with their number of inputs.
GENERAL = {
    "exp_times_sum": (1, lambda L: lambda a: a.exp() * a.sum()),
    "linear": (1, lambda L: lambda a: a * 2),
    "constant": (1, lambda L: lambda a: L.ones(2)),
    "detached": (1, lambda L: lambda a: a.detach().sin()),
    "integer_output": (1, lambda L: lambda a: (a * 2).long()),
    "float64_output": (1, lambda L: lambda a: a.double().tanh()),
    "two_outputs": (2, lambda L: lambda a, b: (a.sin() * b.sum(), (a * a).sum() * b.cos().sum())),
    "one_input_unused": (2, lambda L: lambda a, b: a.tanh().sum()),
    "shaped_as_b": (2, lambda L: lambda a, b: a.exp().sum() * b),
}
# Functions for hessian, vhp and hvp: most have one single-element output.
SCALAR = {
    "cubes": (1, lambda L: lambda a: (a ** 3).sum()),
    "quadratic": (1, lambda L: lambda a: (a * a).sum()),
    "linear": (1, lambda L: lambda a: (a * 2).sum()),
    "one_by_one": (1, lambda L: lambda a: (a.sin().sum() * a.cos().sum()).reshape(1, 1)),
    "constant": (1, lambda L: lambda a: L.ones(())),
    "vector": (1, lambda L: lambda a: a.exp()),
    "in_a_tuple": (1, lambda L: lambda a: ((a ** 3).sum(),)),
    "coupled": (2, lambda L: lambda a, b: a.exp().sum() * (b * b * b).sum()),
    "one_input_unused": (2, lambda L: lambda a, b: (a ** 3).sum()),
}
# A constant nonzero Hessian has history in PyTorch's forward mode (test_forward_mode_history).
FORWARD_HESSIAN = sorted(set(SCALAR) - {"quadratic"})

SHAPES = hnp.array_shapes(min_dims=0, max_dims=2, min_side=1, max_side=3)
DTYPES = st.sampled_from(["float32", "float64"])
V_KINDS = st.sampled_from(["none", "matching", "requiring_grad", "wrong_size", "wrong_count",
                           "a_list"])


@st.composite
def arguments(draw, functions, names=None):
    """A function's name, its inputs (arrays, dtypes, requires_grad), whether they are given
    as a tuple, and how v is made."""
    name = draw(st.sampled_from(names or sorted(functions)))
    count = functions[name][0]
    inputs = [(draw(hnp.arrays(np.float64, draw(SHAPES), elements=st.floats(-1.5, 1.5))),
               draw(DTYPES), draw(st.booleans())) for _ in range(count)]
    as_tuple = count > 1 or draw(st.booleans())
    return name, inputs, as_tuple, draw(V_KINDS)


def _inputs(L, inputs, as_tuple):
    made = tuple(L.tensor(array, dtype=getattr(L, dtype), requires_grad=requires_grad)
                 for array, dtype, requires_grad in inputs)
    return made if as_tuple else made[0]


def _v(L, kind, like):
    """v for tensors shaped and typed as `like` (a list of (shape, dtype name)): the right
    ones, or one of the wrong kinds."""
    if kind == "none":
        return None
    rng = np.random.RandomState(0)
    if kind == "wrong_size":
        like = [(shape + (2,), dtype) for shape, dtype in like]
    if kind == "wrong_count":
        like = like + like[:1]
    made = [L.tensor(rng.standard_normal(shape), dtype=getattr(L, dtype),
                     requires_grad=kind == "requiring_grad") for shape, dtype in like]
    if kind == "a_list":
        return made
    return tuple(made) if len(made) > 1 else made[0]


def _outputs_like(function, inputs):
    """(shape, dtype name) of each tensor the function returns under torch (empty if it
    returns something else or raises)."""
    try:
        out = function(torch)(*_inputs(torch, inputs, True))
    except Exception:  # the comparison shows what both libraries do with it
        return []
    outputs = out if isinstance(out, tuple) else (out,)
    return [(tuple(o.shape), str(o.dtype).split(".")[1]) for o in outputs
            if isinstance(o, torch.Tensor)]


def _with_gradients(L, result, inputs, v):
    """The result, and the gradients of a weighted sum of its tensors that have history
    with respect to the inputs and v that require grad."""
    tensors = [t for t in _flat(result) if t.requires_grad]
    sources = [t for t in _flat(inputs) + _flat(v) if t.requires_grad]
    if not tensors or not sources:
        return result
    total = sum(((t * (k + 1.5)).sum() for k, t in enumerate(tensors)), L.zeros((), dtype=L.float64))
    return result, L.autograd.grad(total, sources, allow_unused=True)


def _flat(value):
    if isinstance(value, (tuple, list)):
        return [t for item in value for t in _flat(item)]
    return [] if value is None else [value]


def _compare(case):
    check(case, rtol=1e-4, atol=1e-5, grad_fn_names=False, messages=True)


# Nodes recorded under create_graph=True are named after funcgrad's primitives
# (docs/guide-compat.md), so the history is compared by its presence (is_leaf), not names.

@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("strict", [False, True])
@given(drawn=arguments(GENERAL))
def test_vjp(drawn, strict, create_graph):
    name, inputs, as_tuple, v_kind = drawn
    function = GENERAL[name][1]
    like = _outputs_like(function, inputs)

    def case(L):
        x, v = _inputs(L, inputs, as_tuple), _v(L, v_kind, like)
        result = L.autograd.functional.vjp(function(L), x, v, create_graph=create_graph,
                                           strict=strict)
        return _with_gradients(L, result, x, v)
    _compare(case)


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("strict", [False, True])
@given(drawn=arguments(GENERAL))
def test_jvp(drawn, strict, create_graph):
    name, inputs, as_tuple, v_kind = drawn
    function = GENERAL[name][1]
    like = [(array.shape, dtype) for array, dtype, _ in inputs]

    def case(L):
        x, v = _inputs(L, inputs, as_tuple), _v(L, v_kind, like)
        result = L.autograd.functional.jvp(function(L), x, v, create_graph=create_graph,
                                           strict=strict)
        return _with_gradients(L, result, x, v)
    _compare(case)


@pytest.mark.parametrize("product", ["vhp", "hvp"])
@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("strict", [False, True])
@given(drawn=arguments(SCALAR))
def test_vhp_and_hvp(drawn, strict, create_graph, product):
    name, inputs, as_tuple, v_kind = drawn
    function = SCALAR[name][1]
    like = [(array.shape, dtype) for array, dtype, _ in inputs]

    def case(L):
        x, v = _inputs(L, inputs, as_tuple), _v(L, v_kind, like)
        result = getattr(L.autograd.functional, product)(
            function(L), x, v, create_graph=create_graph, strict=strict)
        return _with_gradients(L, result, x, v)
    _compare(case)


OPTIONS = [(create_graph, strict, vectorize, strategy)
           for create_graph in (False, True) for strict in (False, True)
           for vectorize in (False, True) for strategy in ("reverse-mode", "forward-mode")]


@pytest.mark.parametrize("create_graph, strict, vectorize, strategy", OPTIONS)
@given(drawn=arguments(GENERAL))
def test_jacobian(drawn, create_graph, strict, vectorize, strategy):
    name, inputs, as_tuple, _ = drawn
    function = GENERAL[name][1]
    if strategy == "forward-mode":  # see test_forward_mode_history
        inputs = [(array, dtype, False) for array, dtype, _ in inputs]

    def case(L):
        x = _inputs(L, inputs, as_tuple)
        result = L.autograd.functional.jacobian(function(L), x, create_graph, strict,
                                                vectorize, strategy)
        return _with_gradients(L, result, x, None)
    _compare(case)


@pytest.mark.parametrize("create_graph, strict, vectorize, strategy", OPTIONS)
@given(drawn=arguments(SCALAR), forward_drawn=arguments(SCALAR, FORWARD_HESSIAN))
def test_hessian(drawn, forward_drawn, create_graph, strict, vectorize, strategy):
    name, inputs, as_tuple, _ = forward_drawn if strategy == "forward-mode" else drawn
    function = SCALAR[name][1]

    def case(L):
        x = _inputs(L, inputs, as_tuple)
        result = L.autograd.functional.hessian(function(L), x, create_graph, strict,
                                               vectorize, strategy)
        return _with_gradients(L, result, x, None)
    _compare(case)
