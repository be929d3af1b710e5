"""The eager tape (compat._tape) on its own: trace levels, replay for create_graph,
freeing, hooks, pruning, copy-on-write."""
import weakref

import numpy as np
import pytest

import funcgrad
import funcgrad.numpy as fnp
from compat._tape import CHECK_FIELDS, TAPE, backward, leaf_node, privatize, saved_values
from funcgrad.core import NO_PARAMS, Box
from funcgrad.numpy._base import sum_p


def leaf(value):
    node = leaf_node(sink=lambda: None)
    return TAPE.box(np.asarray(value, dtype=float), node), node


def test_functional_transforms_see_eager_values_as_constants():
    b, b_node = leaf([2.0, -1.0])
    a = np.array([3.0, 4.0])
    # grad over `a` treats b as a constant: d/da sum(a^2 b) = 2 a b ...
    g = funcgrad.grad(lambda a: fnp.sum(a * a * b))(a)
    assert isinstance(g, Box) and g._trace is TAPE
    np.testing.assert_allclose(g.value, 2 * a * b.value)
    # ... and the eager tape recorded how that gradient depends on b.
    found = backward([g.node], [np.ones(2)])
    np.testing.assert_allclose(found[b_node], 2 * a)


def test_eager_values_inside_nested_transforms_keep_their_levels():
    b, b_node = leaf(1.5)

    def f(x):
        return fnp.sin(x * b) * x

    second = funcgrad.grad(funcgrad.grad(f))(0.3)
    x, bv = 0.3, 1.5
    expected = -bv * bv * x * np.sin(x * bv) + 2 * bv * np.cos(x * bv)
    np.testing.assert_allclose(second.value, expected)
    assert second._trace is TAPE


def test_create_graph_replays_rules_on_boxes():
    x, x_node = leaf([1.0, 2.0, 3.0])
    y = fnp.sum(x * x * x)
    first = backward([y.node], [np.ones(())], retain_graph=True, create_graph=True)[x_node]
    assert isinstance(first, Box)
    np.testing.assert_allclose(first.value, 3 * x.value ** 2)
    second = backward([first.node], [np.ones(3)])[x_node]
    np.testing.assert_allclose(second, 6 * x.value)


def test_nodes_holding_values_are_freed_unless_retained():
    x, x_node = leaf([1.0, 2.0])
    y = fnp.sum(fnp.exp(x))
    backward([y.node], [np.ones(())], retain_graph=True)
    backward([y.node], [np.ones(())])
    with pytest.raises(RuntimeError, match="retain_graph=True"):
        backward([y.node], [np.ones(())])
    # A node that holds no values (a sum, a reshape) is never freed.
    z = fnp.sum(fnp.reshape(x, (2, 1)))
    for _ in range(3):
        np.testing.assert_allclose(backward([z.node], [np.ones(())])[x_node], [1.0, 1.0])


def test_hooks_replace_cotangents_and_wanted_prunes():
    x, x_node = leaf([1.0, 2.0])
    other, other_node = leaf([5.0])
    middle = x * 3.0
    middle.node.hooks = {0: lambda ct: ct * 10}
    y = fnp.sum(middle) + fnp.sum(fnp.exp(other))
    found = backward([y.node], [np.ones(())], wanted={x_node})
    assert set(found) == {x_node}
    np.testing.assert_allclose(found[x_node], [30.0, 30.0])
    # exp's node was not on the way to x: not visited, so not freed.
    assert found and backward([y.node], [np.ones(())], wanted={other_node})


def test_reached_with_zero_cotangent_is_reported_as_none():
    x, x_node = leaf([1.0, -2.0])
    y = fnp.sum(fnp.sign(x))
    assert backward([y.node], [np.ones(())]) == {x_node: None}


def test_saved_values_and_privatize():
    x, _ = leaf([1.0, 2.0])
    y = fnp.exp(x)
    held = y.node.held
    assert any(v is y.value for v in held)
    output = y.value
    privatize(y.node, output)
    output[:] = 0.0      # overwritten in place: the node keeps what it saw
    x_node = x.node
    found = backward([y.node], [np.ones(2)])
    np.testing.assert_allclose(found[x_node], np.exp([1.0, 2.0]))


@pytest.mark.parametrize("privatized", ["argument", "result"])
def test_create_graph_replays_a_privatized_node_on_its_copy(privatized):
    # sin saves its argument, exp its result: either is copied into the node's residuals
    # and its recipe, which create_graph replays the rule on.
    x, x_node = leaf([0.5, 1.5])
    original = x.value.copy()
    y = fnp.exp(fnp.sin(x))
    node = y.node if privatized == "result" else y.node.parents[0]
    overwritten = y.value if privatized == "result" else x.value
    privatize(node, overwritten)
    overwritten[:] = 0.0
    first = backward([y.node], [np.ones(2)], retain_graph=True, create_graph=True)[x_node]
    np.testing.assert_allclose(first.value, np.exp(np.sin(original)) * np.cos(original))
    second = backward([first.node], [np.ones(2)])[x_node]
    expected = np.exp(np.sin(original)) * (np.cos(original) ** 2 - np.sin(original))
    np.testing.assert_allclose(second, expected)


def test_create_graph_replays_a_node_with_constant_arguments():
    x, x_node = leaf([0.5, 1.5])
    c = np.array([2.0, -3.0])
    y = fnp.sum(c * x * x + fnp.maximum(x, c))
    first = backward([y.node], [np.ones(())], retain_graph=True, create_graph=True)[x_node]
    np.testing.assert_allclose(first.value, 2 * c * x.value + (x.value > c))
    second = backward([first.node], [np.ones(2)])[x_node]
    np.testing.assert_allclose(second, 2 * c)


def test_a_long_chain_is_not_recursive():
    x, x_node = leaf(1.0)
    y = x
    for _ in range(30000):
        y = fnp.multiply(y, 1.0)
    assert backward([y.node], [np.ones(())])[x_node] == 1.0


# ---- the direct recording path (compat._record.unary, with_number) -----------------------

def _recorded_state(t):
    """What the tape keeps for tensor `t`'s operation, with values compared by content."""
    node = t._box.node
    held = [np.asarray(v) for v in node.held]
    # all but the counter, and whether the check follows its tensor's later creators (the
    # key it follows is the tensor's id, another in each run)
    saved = [node.saved[start + 1:start + CHECK_FIELDS - 1]
             + (node.saved[start + CHECK_FIELDS - 1] is not None,)
             for start in range(0, len(node.saved), CHECK_FIELDS)]
    edges = tuple(None if e is None else (e.label, len(e.parents)) for e in node.edges)
    return (node.primitive, node.params, node.label, len(node.parents), edges, node.frees,
            node.recipe is not None, held, saved, t._data)


DIRECT_OPS = {
    "sin": lambda torch, x, w: torch.sin(x), "cos": lambda torch, x, w: torch.cos(x),
    "exp": lambda torch, x, w: torch.exp(x), "log": lambda torch, x, w: torch.log(x),
    "tanh": lambda torch, x, w: torch.tanh(x), "sqrt": lambda torch, x, w: torch.sqrt(x),
    "add": lambda torch, x, w: x + 0.5, "radd": lambda torch, x, w: 2 + x,
    "sub": lambda torch, x, w: x - 0.25, "mul": lambda torch, x, w: x * 1.5,
    "rmul": lambda torch, x, w: 3 * x, "div": lambda torch, x, w: x / 4.0,
    "add_tensor": lambda torch, x, w: x + w, "sub_tensor": lambda torch, x, w: w - x,
    "mul_tensor": lambda torch, x, w: x * w, "div_tensor": lambda torch, x, w: w / x,
    "mul_self": lambda torch, x, w: x * x, "floor_divide": lambda torch, x, w: w // x,
    "pow2": lambda torch, x, w: x ** 2,
    "mm": lambda torch, x, w: x.reshape(1, -1).mm(w.reshape(-1, 1)),
    "mm_t": lambda torch, x, w: w.reshape(-1, 1).mm(x.reshape(1, -1)),
    "clamp": lambda torch, x, w: x.clamp(min=0.5), "relu": lambda torch, x, w: x.clamp(min=0),
    "sum": lambda torch, x, w: x.sum(), "sum_dim": lambda torch, x, w: x.sum(-1, keepdim=True),
}


@pytest.mark.parametrize("op", ["sin", "exp", "square", "mul_self", "view_sin"])
def test_a_node_keeps_no_tensor_it_saved(op):
    """A saved input's check keeps its version counter and names, not the tensor: the
    cyclic collector would scan a kept tensor and its box for as long as the node lives,
    and a dropped intermediate is freed (its array stays with the node, and the gradient
    is PyTorch's)."""
    import torch
    import compat
    operations = {"sin": lambda y: y.sin(), "exp": lambda y: y.exp(),
                  "square": lambda y: y ** 2, "mul_self": lambda y: y * y,
                  "view_sin": lambda y: y[1:].sin()}
    gradients = []
    for library in (compat, torch):
        x = library.tensor([0.5, 1.0, 2.0], requires_grad=True)
        y = x * 2
        kept = weakref.ref(y)
        z = operations[op](y)
        del y
        if library is compat:
            assert kept() is None
        z.sum().backward()
        gradients.append(x.grad.numpy())
    np.testing.assert_allclose(*gradients, rtol=1e-6)


@pytest.mark.parametrize("w_requires_grad", [True, False])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3)])
@pytest.mark.parametrize("name", sorted(DIRECT_OPS))
def test_direct_recording_keeps_what_dispatch_through_boxes_keeps(name, shape, dtype,
                                                                  w_requires_grad,
                                                                  monkeypatch):
    """An operation recorded directly on tensors' arrays, with the saved values its rule
    declares (`_record._recorded`), leaves the node, checks and gradients that the
    primitive applied to the tensors' boxes leaves."""
    import compat as torch
    from compat import _record

    def run():
        x = torch.tensor(np.linspace(0.2, 0.8, int(np.prod(shape))).reshape(shape)
                         .astype(dtype), requires_grad=True)
        w = torch.tensor(np.linspace(1.5, 0.5, int(np.prod(shape))).reshape(shape)
                         .astype(dtype), requires_grad=w_requires_grad)
        w_in = w * 1.0 if w_requires_grad else w  # a non-leaf input has a labelled node
        y = DIRECT_OPS[name](torch, x * 1.0, w_in)
        state = _recorded_state(y)
        y.sum().backward()
        return state, x.grad.numpy(), None if w.grad is None else w.grad.numpy()

    calls = []
    direct = _record._recorded

    def counted(*args, **options):
        calls.append(args[0])
        return direct(*args, **options)

    def through_boxes(primitive, label, edges, values, parents, saves, frees=None,
                      saves_result=False, params=NO_PARAMS, ans=None, saves_inputs=False):
        # the values with each tensor's array replaced by its box (a where's condition
        # and other constants kept)
        boxes = {id(x._data): _record.engine(x) for x in edges if isinstance(x, torch.Tensor)}
        out = primitive(*[boxes.get(id(v), v) for v in values], **params)
        return _record.wrap(out, label, edges, saves_result=saves_result, frees=frees,
                            saves_inputs=saves_inputs)

    monkeypatch.setattr(_record, "_recorded", counted)
    direct_run = run()
    # the operation, x * 1.0, w * 1.0 and the sum
    assert len(calls) == (4 if w_requires_grad else 3)
    monkeypatch.setattr(_record, "_recorded", through_boxes)
    boxed_run = run()
    (d_state, *d_grads), (b_state, *b_grads) = direct_run, boxed_run
    for mine, theirs in zip(d_state, b_state):
        if isinstance(mine, np.ndarray):
            assert mine.dtype == theirs.dtype and mine.shape == theirs.shape
            np.testing.assert_array_equal(mine, theirs)
        elif isinstance(mine, list) and mine and isinstance(mine[0], np.ndarray):
            assert len(mine) == len(theirs)
            for a, b in zip(mine, theirs):
                np.testing.assert_array_equal(a, b)
        else:
            assert mine == theirs
    for mine, theirs in zip(d_grads, b_grads):
        np.testing.assert_array_equal(mine, theirs)


def test_direct_recording_raises_pytorchs_broadcast_error():
    import compat as torch
    x = torch.ones(2, 3, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(3\) must match the size "
                                           r"of tensor b \(4\) at non-singleton dimension 1"):
        x * torch.ones(2, 4)


@pytest.mark.parametrize("shape, axes, keepdims", [
    ((), (), False), ((3,), (0,), False), ((2, 3), (0, 1), True), ((2, 3), (1,), False),
    ((2, 0, 3), (0, 2), True)])
def test_sum_rule_holds_no_array_of_a_numpy_input(shape, axes, keepdims):
    """compat records sum directly with nothing saved to check (`_record.reduced`), which
    holds while sum's rule keeps no array of a NumPy input (only its shape)."""
    x = np.ones(shape, np.float32)
    params = {"axes": axes, "keepdims": keepdims}
    ans = sum_p.impl(x, **params)
    assert saved_values(sum_p.vjp.save(ans, (x,), params, (True,))) == ()


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("size", [9, 1_170])  # np.where's path, and the select by bits
def test_relu_keeps_a_recipe_that_gives_its_result(dtype, size):
    """clamp(min=0) computes its result by another formula than the where it records
    (`_ops._relu_value`): the recipe kept for create_graph's replays, applied, gives the
    result's bits, NaN and signed zeros included."""
    import compat as torch
    special = [-np.inf, -2.5, -1e-40, -0.0, 0.0, 1e-40, 0.5, np.inf, np.nan]
    x = torch.tensor(np.resize(np.array(special, dtype), size), requires_grad=True)
    y = (x * 1.0).clamp(min=0)
    node = y._box.node
    *values, ans = node.recipe
    bits = f"u{np.dtype(dtype).itemsize}"
    np.testing.assert_array_equal(node.primitive.impl(*values).view(bits), ans.view(bits))
    np.testing.assert_array_equal(y._data.view(bits), ans.view(bits))
