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
from compat_harness import assert_same_error, check

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
    total = sum(((t * (k + 1.5)).sum() for k, t in enumerate(tensors)),
                L.zeros((), dtype=L.float64))
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


def _x(L, requires_grad=True):
    return L.tensor([0.5, -1.25], requires_grad=requires_grad)


def _y(L):
    return L.tensor([[2.0], [0.75]], requires_grad=True)


def _captured(L):
    """A tensor that requires grad and is not one of the inputs."""
    return L.tensor([1.5, -0.5], requires_grad=True)


# Each raises under both libraries; the last call is the one that does.
ERRORS = {
    # what the inputs, the outputs and v may be
    "vjp: inputs in a list": lambda L, F: F.vjp(lambda a: a, [_x(L)], L.ones(2)),
    "jvp: a number among the inputs": lambda L, F: F.jvp(lambda a, b: a, (_x(L), 3.0)),
    "jacobian: a number as input": lambda L, F: F.jacobian(lambda a: a, 2.0),
    "hessian: inputs in a list": lambda L, F: F.hessian(lambda a: a.sum(), [_x(L)]),
    "vhp: integer inputs": lambda L, F: F.vhp(lambda a: a.sum(), L.tensor([1, 2]), L.ones(2)),
    "vjp: outputs in a list": lambda L, F: F.vjp(lambda a: [a], _x(L), L.ones(2)),
    "jvp: None among the outputs": lambda L, F: F.jvp(lambda a: (a, None), _x(L), L.ones(2)),
    "jacobian: a number as output": lambda L, F: F.jacobian(lambda a: 3.0, _x(L)),
    "jacobian: forward mode, a list as output": lambda L, F: F.jacobian(
        lambda a: [a], _x(L), vectorize=True, strategy="forward-mode"),
    "jacobian: forward mode, a number among the outputs": lambda L, F: F.jacobian(
        lambda a: (a, 1), _x(L), vectorize=True, strategy="forward-mode"),
    "hessian: a number as output": lambda L, F: F.hessian(lambda a: 3.0, _x(L)),
    "hvp: outputs in a list": lambda L, F: F.hvp(lambda a: [a.sum()], _x(L), L.ones(2)),
    "vjp: v in a list": lambda L, F: F.vjp(lambda a: a, _x(L), [L.ones(2)]),
    "vjp: a number in v": lambda L, F: F.vjp(lambda a: (a, a), _x(L), (L.ones(2), 1.0)),
    "vjp: v of another size": lambda L, F: F.vjp(lambda a: a, _x(L), L.ones(3)),
    "vjp: v entry of another size": lambda L, F: F.vjp(lambda a: (a, a), _x(L),
                                                       (L.ones(2), L.ones(2, 1))),
    "vjp: one v for two outputs": lambda L, F: F.vjp(lambda a: (a, a), _x(L), L.ones(2)),
    "vjp: two v for one output": lambda L, F: F.vjp(lambda a: a, _x(L), (L.ones(2),) * 2),
    "jvp: three v for two inputs": lambda L, F: F.jvp(lambda a, b: a, (_x(L), _x(L)),
                                                      (L.ones(2),) * 3),
    "vjp: no v for a vector output": lambda L, F: F.vjp(lambda a: a, _x(L)),
    "jvp: no v for a vector input": lambda L, F: F.jvp(lambda a: a.sum(), _x(L)),
    "vhp: no v for two inputs": lambda L, F: F.vhp(lambda a, b: (a * b).sum(),
                                                   (L.ones(1), L.ones(1))),
    "hvp: no v for a vector input": lambda L, F: F.hvp(lambda a: a.sum(), _x(L)),
    "vhp: two outputs": lambda L, F: F.vhp(lambda a: (a.sum(), a.sum()), _x(L), L.ones(2)),
    "hvp: a vector output": lambda L, F: F.hvp(lambda a: a * a, _x(L), L.ones(2)),
    "hessian: a vector output": lambda L, F: F.hessian(lambda a: a * a, _x(L)),
    "hessian: an output in a tuple": lambda L, F: F.hessian(lambda a: ((a * a).sum(),), _x(L)),
    "jvp: an integer output": lambda L, F: F.jvp(lambda a: a.long(), _x(L), L.ones(2)),
    "jacobian: an output with no elements": lambda L, F: F.jacobian(lambda a: a[:0], _x(L)),
    "vjp: an input updated in place": lambda L, F: F.vjp(lambda a: a.mul_(2), _x(L), L.ones(2)),
    "vjp: an input updated in place under create_graph": lambda L, F: F.vjp(
        lambda a: a.mul_(2), _x(L), L.ones(2), create_graph=True),
    # strategies and the options they refuse
    "jacobian: an unknown strategy": lambda L, F: F.jacobian(lambda a: a, 2.0, strategy="up"),
    "jacobian: forward mode and create_graph": lambda L, F: F.jacobian(
        lambda a: a, _x(L), create_graph=True, strict=True, vectorize=True,
        strategy="forward-mode"),
    "jacobian: forward mode and strict": lambda L, F: F.jacobian(
        lambda a: a, 2.0, strict=True, vectorize=True, strategy="forward-mode"),
    "jacobian: forward mode, bad inputs": lambda L, F: F.jacobian(
        lambda a: a, 2.0, strategy="forward-mode"),
    "jacobian: forward mode without vectorize": lambda L, F: F.jacobian(
        lambda a: a, _x(L), strategy="forward-mode"),
    "jacobian: vectorize and strict": lambda L, F: F.jacobian(
        lambda a: a, _x(L), strict=True, vectorize=True),
    "hessian: bad inputs, then an unknown strategy": lambda L, F: F.hessian(
        lambda a: a.sum(), 2.0, outer_jacobian_strategy="up"),
    "hessian: an unknown strategy": lambda L, F: F.hessian(
        lambda a: a.sum(), _x(L), outer_jacobian_strategy="up"),
    "hessian: forward mode and create_graph": lambda L, F: F.hessian(
        lambda a: a.sum(), _x(L), create_graph=True, outer_jacobian_strategy="forward-mode"),
    "hessian: forward mode and strict": lambda L, F: F.hessian(
        lambda a: a.sum(), _x(L), strict=True, outer_jacobian_strategy="forward-mode"),
    "hessian: forward mode without vectorize": lambda L, F: F.hessian(
        lambda a: a.sum(), _x(L), outer_jacobian_strategy="forward-mode"),
    "hessian: vectorize and strict": lambda L, F: F.hessian(
        lambda a: (a ** 3).sum(), _x(L), strict=True, vectorize=True),
    # strict mode
    "vjp strict: an output without grad": lambda L, F: F.vjp(
        lambda a: L.ones(2), _x(L), L.ones(2), strict=True),
    "vjp strict: an unused input": lambda L, F: F.vjp(
        lambda a, b: a * 2, (_x(L), _y(L)), L.ones(2), strict=True),
    "vjp strict: a constant Jacobian under create_graph": lambda L, F: F.vjp(
        lambda a: a * 2, _x(L), L.ones(2), create_graph=True, strict=True),
    "jvp strict: an unused input": lambda L, F: F.jvp(
        lambda a, b: a * 2, (_x(L), _y(L)), (L.ones(2), L.ones(2, 1)), strict=True),
    "jvp strict: a gradient without history": lambda L, F: F.jvp(
        lambda a: a.floor(), _x(L), L.ones(2), strict=True),
    "jvp strict: an output reached from no input": lambda L, F: F.jvp(
        lambda a: (a * 2, _captured(L) * 2), _x(L), L.ones(2), strict=True),
    "jvp strict: a constant Jacobian under create_graph": lambda L, F: F.jvp(
        lambda a: a * 2, _x(L), L.ones(2), create_graph=True, strict=True),
    "jacobian strict: an output without grad": lambda L, F: F.jacobian(
        lambda a: L.ones(2), _x(L), strict=True),
    "jacobian strict: an unused input": lambda L, F: F.jacobian(
        lambda a, b: a * 2, (_x(L), _y(L)), strict=True),
    "jacobian strict: a constant Jacobian under create_graph": lambda L, F: F.jacobian(
        lambda a, b: (a * b.sum(), a * 2), (_x(L), _y(L)), create_graph=True, strict=True),
    "hessian strict: a linear function": lambda L, F: F.hessian(
        lambda a: (a * 2).sum(), _x(L), strict=True),
    "hessian strict: an unused input": lambda L, F: F.hessian(
        lambda a, b: (a ** 3).sum(), (_x(L), _y(L)), strict=True),
    "hessian strict: a constant Hessian under create_graph": lambda L, F: F.hessian(
        lambda a: (a * a).sum(), _x(L), create_graph=True, strict=True),
    "vhp strict: a linear function": lambda L, F: F.vhp(
        lambda a: (a * 2).sum(), _x(L), L.ones(2), strict=True),
    "vhp strict: an unused input": lambda L, F: F.vhp(
        lambda a, b: (a ** 3).sum(), (_x(L), _y(L)), (L.ones(2), L.ones(2, 1)), strict=True),
    "vhp strict: a gradient independent of the inputs": lambda L, F: F.vhp(
        lambda a, b: (a ** 3).sum() + (b.view(2) * _captured(L)).sum(), (_x(L), _y(L)),
        (L.ones(2), L.ones(2, 1)), strict=True),
    "vhp strict: a constant Hessian under create_graph": lambda L, F: F.vhp(
        lambda a: (a * a).sum(), _x(L), L.ones(2), create_graph=True, strict=True),
    "hvp strict: a gradient independent of the inputs": lambda L, F: F.hvp(
        lambda a, b: (a ** 3).sum() + (b.view(2) * _captured(L)).sum(), (_x(L), _y(L)),
        (L.ones(2), L.ones(2, 1)), strict=True),
    "hvp strict: a constant Hessian under create_graph": lambda L, F: F.hvp(
        lambda a: (a * a).sum(), _x(L), L.ones(2), create_graph=True, strict=True),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors(name):
    assert_same_error(lambda L: ERRORS[name](L, L.autograd.functional))


# Each computes under both libraries.
RESULTS = {
    "the input also captured by the function": lambda L, F: _with_input_captured(
        L, lambda x: F.vjp(lambda a: a * x, x, L.ones(2))),
    "a tensor captured by the function": lambda L, F: F.vjp(
        lambda a: a * _captured(L), _x(L), L.ones(2)),
    "no_grad around create_graph": lambda L, F: _under_no_grad(L, lambda: F.vjp(
        lambda a: a.exp(), _x(L), L.ones(2), create_graph=True)),
    "no_grad around a forward-mode Jacobian": lambda L, F: _under_no_grad(L, lambda: F.jacobian(
        lambda a: a.exp(), _x(L, False), vectorize=True, strategy="forward-mode")),
    "vectorize, an output with no elements": lambda L, F: F.jacobian(
        lambda a: (a[:0], a * a), _x(L), create_graph=True, vectorize=True),
    "forward mode, an input with no elements": lambda L, F: F.jacobian(
        lambda a, b: (a.sum() * b.sum(), a.exp()), (L.ones(0), _y(L).detach()),
        vectorize=True, strategy="forward-mode"),
    "forward mode, a copy updated in place": lambda L, F: F.jacobian(
        lambda a: a.clone().mul_(a), _x(L, False), vectorize=True, strategy="forward-mode"),
    "v with history": lambda L, F: F.hvp(
        lambda a: (a ** 3).sum(), _x(L), _captured(L), create_graph=True),
    "v of another dtype": lambda L, F: F.vjp(
        lambda a: a.exp(), _x(L), L.ones(2, dtype=L.float64)),
}


def _with_input_captured(L, compute):
    """compute(x): the function is differentiated with respect to its argument, a stand-in
    for x, not x itself (which it captured)."""
    return compute(_x(L))


def _under_no_grad(L, compute):
    with L.no_grad():
        return compute()


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_results(name):
    _compare(lambda L: RESULTS[name](L, L.autograd.functional))


@given(drawn=arguments(GENERAL, ["exp_times_sum", "two_outputs", "float64_output"]))
def test_forward_mode_with_inputs_requiring_grad(drawn):
    """Where each derivative depends on every input that requires grad, the forward-mode
    Jacobian has history as PyTorch's has (and the same gradients flow back)."""
    name, inputs, as_tuple, _ = drawn
    inputs = [(array, dtype, True) for array, dtype, _ in inputs]
    function = GENERAL[name][1]

    def case(L):
        x = _inputs(L, inputs, as_tuple)
        result = L.autograd.functional.jacobian(function(L), x, vectorize=True,
                                                strategy="forward-mode")
        return _with_gradients(L, result, x, None)
    _compare(case)


def test_forward_mode_history():
    """compat's forward-mode Jacobian (computed in reverse, by the double-backward trick)
    has history where the derivative depends on the inputs; PyTorch's forward formulas
    decide otherwise in these cases (docs/guide-compat.md)."""
    F = {L: L.autograd.functional for L in (compat, torch)}
    jacobians = [F[L].jacobian(lambda a: a * 2, _x(L), vectorize=True,
                               strategy="forward-mode") for L in (compat, torch)]
    hessians = [F[L].hessian(lambda a: (a * a).sum(), _x(L, False), vectorize=True,
                             outer_jacobian_strategy="forward-mode") for L in (compat, torch)]
    for ours, theirs in (jacobians, hessians):
        assert np.array_equal(ours.numpy(), theirs.detach().numpy())
        assert (ours.requires_grad, theirs.requires_grad) == (False, True)
    # Of inputs (y, x) where x requires grad, d exp(y) / dy has history in compat only.
    mixed = [F[L].jacobian(lambda a, b: a.exp() + b, (_x(L, False), _x(L)), vectorize=True,
                           strategy="forward-mode")[0] for L in (compat, torch)]
    assert np.allclose(mixed[0].detach().numpy(), mixed[1].detach().numpy())
    assert (mixed[0].requires_grad, mixed[1].requires_grad) == (True, False)


def test_module_names():
    """compat.autograd.functional offers what torch.autograd.functional's __all__ lists."""
    assert compat.autograd.functional.__all__ == torch.autograd.functional.__all__
