"""Autograd state and behaviour against PyTorch: accumulation, retain_graph, create_graph,
autograd.grad, hooks, retain_grad, grad modes, .data/detach, and in-place checks."""
import warnings

import pytest

from compat_harness import check, graph


def test_gradients_accumulate_and_zero_like_torch():
    def case(torch):
        x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        seen = [x.grad]
        out = (x * x).sum()
        out.backward(retain_graph=True)
        seen.append(x.grad.clone())
        out.backward()
        seen.append(x.grad.clone())
        grad_object = x.grad
        x.grad.data.zero_()
        (x * 3).sum().backward()
        seen.append(x.grad is grad_object)   # accumulated in place
        seen.append(x.grad)
        return seen
    check(case)


@pytest.mark.parametrize("expression", [
    "(x * 2).sum()", "(x + 2).sum()", "x.exp().sum()", "(x ** 2).sum()", "x.sum()",
    "(x.view(3, 1) * 1.0).sum()", "x.mean()", "(x / 3).sum()", "x.mm(x.t()).sum()",
    "x.sum(dim=1, keepdim=True).sum(0).sum()", "x.t().mm(x).clamp(min=0.5).sum()",
])
def test_second_backward_without_retain_graph_like_torch(expression):
    """PyTorch frees the operations that saved something (a number included) and raises
    when they are used again; the others can be pulled through again."""
    def case(torch):
        x = torch.tensor([[1.0, -2.0, 3.0]], requires_grad=True)
        out = eval(expression, {"x": x})
        out.backward()
        out.backward()
        return x.grad
    check(case)


def test_retain_graph_then_free_like_torch():
    def case(torch):
        x = torch.ones(2, requires_grad=True)
        o = (1 / 2) * torch.sum(5 * (x + 1) ** 2)
        o.backward(retain_graph=True)
        o.backward()
        first = x.grad.clone()
        o.backward()
        return first
    check(case)


def test_create_graph_double_backward_like_torch():
    def case(torch):
        x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
        y = (x.tanh() * x.exp() + x ** 3 / (1 + x * x)).sum()
        g, = torch.autograd.grad(y, x, create_graph=True)
        h, = torch.autograd.grad(g, x, torch.ones(3), retain_graph=True)
        third, = torch.autograd.grad((g * g).sum(), x)
        return g, h, third
    check(case, rtol=1e-4)


@pytest.mark.parametrize("expression", [
    "x.sigmoid()", "x.softmax(0)", "x.log_softmax(0)", "x.norm()", "x.std()", "x.abs()",
    "x.relu() * x", "x.clamp(min=0) ** 2", "x.max() * x", "x.prod()", "x.sqrt()",
    "x.mm(x.t())", "x.t().mm(x * 2).clamp(min=0.5) ** 2", "x.cumsum(0)", "torch.where(x > 0, x * x, -x)", "x[x > 0] ** 3",
])
def test_second_derivatives_like_torch(expression):
    def case(torch):
        x = torch.tensor([[0.5, -1.5, 2.0]], requires_grad=True)
        if expression in ("x.sqrt()",):
            x = torch.tensor([[0.5, 1.5, 2.0]], requires_grad=True)
        y = eval(expression, {"torch": torch, "x": x}).sum()
        g, = torch.autograd.grad(y, x, create_graph=True)
        if not g.requires_grad:
            return g, None
        h, = torch.autograd.grad((g * torch.tensor([[1.0, 2.0, 3.0]])).sum(), x,
                                 allow_unused=True)
        return g, h
    check(case, rtol=1e-4, atol=1e-5, grad_fn_names=False)


# PyTorch warns of the reference cycle this makes; the test makes it on purpose.
@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True:UserWarning")
def test_backward_create_graph_accumulates_graph_like_torch():
    def case(torch):
        x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
        (x ** 3).sum().backward(create_graph=True)
        g = x.grad
        x.grad = None
        g.sum().backward()
        return g, x.grad
    check(case)


def test_autograd_grad_like_torch():
    def case(torch):
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = torch.tensor([3.0, 4.0], requires_grad=True)
        c = torch.tensor([1.0], requires_grad=True)
        y = a * b
        both = torch.autograd.grad(y.sum(), [a, b], retain_graph=True)
        through_middle = torch.autograd.grad((y * y).sum(), y, retain_graph=True)
        unused = torch.autograd.grad(y.sum(), [a, c], allow_unused=True, retain_graph=True)
        zeros = torch.autograd.grad(y.sum(), [c], allow_unused=True, materialize_grads=True)
        return both, through_middle, unused, zeros, a.grad
    check(case)


@pytest.mark.parametrize("call", [
    "torch.autograd.grad((a * 2).sum(), [c])",
    "torch.autograd.grad((a * 2).sum(), [torch.ones(1)])",
    "torch.autograd.grad(a * 2, a)",
    "torch.autograd.grad(torch.ones(1), a)",
    "torch.autograd.backward([(a * 2).sum(), (a * a).sum()])",
    "torch.autograd.backward([a * 2], [torch.ones(2)])",
    "(a * 2).backward(torch.ones(3))",
    "(a * 2).backward()",
    "torch.ones(2).backward()",
    "(a * 2).sum().backward(inputs=[c])",
])
def test_backward_and_grad_calls_like_torch(call):
    def case(torch):
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        c = torch.tensor([1.0], requires_grad=True)
        result = eval(call, {"torch": torch, "a": a, "c": c})
        return result, a.grad
    check(case)


def test_hooks_like_torch():
    def case(torch):
        x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
        seen = []
        y = x * 2
        y.register_hook(lambda g: seen.append(g.clone()) or g * 10)
        handle = x.register_hook(lambda g: g + 1)
        (y * y).sum().backward()
        first = x.grad.clone()
        handle.remove()
        x.grad = None
        (x * 2).sum().backward()
        return seen, first, x.grad
    check(case)


def test_hook_on_tensor_without_grad_raises_like_torch():
    check(lambda torch: torch.ones(2).register_hook(lambda g: g))


def test_retain_grad_like_torch():
    def case(torch):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.retain_grad()
        z = y * y
        (z.sum()).backward(retain_graph=True)
        first = y.grad.clone()
        z.sum().backward()
        return first, y.grad, y.retains_grad, x.retains_grad, y.is_leaf
    check(case)


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("view", ["x.t()", "x.t() * 1.0", "x[:, :2]", "x * 1.0"])
def test_retained_gradient_is_a_new_row_major_tensor_each_backward(view, create_graph):
    """PyTorch's retain_grad hook keeps the first gradient as a row-major clone (recorded
    as one under create_graph) and adds each later one out of place: the .grad read after
    the first backward keeps its values, and a transposed view's gradient is contiguous."""
    def case(torch):
        x = torch.tensor([[0.5, 1.25, 2.0], [1.0, -1.0, 3.0]], dtype=torch.float64,
                         requires_grad=True)
        y = eval(view, {"x": x})
        y.retain_grad()
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", r"Using backward\(\) with create_graph=True",
                                    UserWarning)
            (y * y).sum().backward(retain_graph=True, create_graph=create_graph)
            first = y.grad
            layout = (first.stride(), first.is_contiguous())
            (y * y).sum().backward(create_graph=create_graph)
        return first, layout, y.grad, y.grad is first, y.grad.stride(), x.grad is None
    check(case)


def test_non_leaf_grad_is_none_with_a_warning_like_torch():
    def case(torch):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.sum().backward()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            grad = y.grad
        return grad, [w.category.__name__ for w in caught]
    check(case)


def test_grad_modes_like_torch():
    def case(torch):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        with torch.no_grad():
            a = x * 2
            with torch.enable_grad():
                b = x * 2
        with torch.set_grad_enabled(False):
            c = x * 2
        torch.set_grad_enabled(False)
        d = x * 2
        torch.set_grad_enabled(True)

        @torch.no_grad()
        def doubled(v):
            return v * 2

        @torch.no_grad
        def tripled(v):
            return v * 3

        @torch.enable_grad()
        def inside(v):
            return v * 2

        with torch.no_grad():
            e = inside(x)
        return (a.requires_grad, b.requires_grad, c.requires_grad, d.requires_grad,
                doubled(x).requires_grad, tripled(x).requires_grad, e.requires_grad,
                torch.is_grad_enabled(), graph(b))
    check(case)


def test_data_and_detach_share_storage_like_torch():
    def case(torch):
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        d = x.detach()
        d[0] = 10.0
        x.data[1] = 20.0
        x.data -= 1
        y = x * 2
        y.sum().backward()
        x.data = torch.tensor([5.0, 6.0, 7.0])
        return x, d, y, x.grad, x.data.requires_grad, x.is_leaf, d.requires_grad
    check(case)


def test_requires_grad_flags_like_torch():
    def case(torch):
        x = torch.ones(2)
        flags = [x.requires_grad, x.is_leaf]
        x.requires_grad_()
        flags += [x.requires_grad, x.is_leaf]
        y = x * 2
        flags += [y.requires_grad, y.is_leaf]
        x.requires_grad = False
        flags += [x.requires_grad, (x * 2).requires_grad, y.requires_grad]
        return flags
    check(case)


@pytest.mark.parametrize("statement", [
    "y.requires_grad_(False)", "torch.ones(2, dtype=torch.int64).requires_grad_()",
    "x.add_(1)", "x.zero_()", "x[0] = 1", "x[x > 0] = 0", "x.data.add_(1)",
])
def test_flag_and_leaf_errors_like_torch(statement):
    def case(torch):
        x = torch.ones(2, requires_grad=True)
        y = x * 2
        exec(statement, {"torch": torch, "x": x, "y": y})
        return x
    check(case)


@pytest.mark.parametrize("statements", [
    # modified after being saved for backward: an error in PyTorch and here
    "b = a.exp(); b.add_(1)", "b = a * a; a.add_(1)", "b = a.sigmoid(); b.mul_(2)",
    "b = a.tanh(); b[0] = 0", "b = a.pow(2); a.zero_()", "b = a.softmax(0); b.mul_(2)",
    "b = a.mm(a.view(3, 1).expand(3, 3)); a.sub_(1)",
    "b = a.sqrt(); with_no_grad(lambda: b.mul_(2))",
    "c = torch.ones(2, 1); b = c.mm(a); c.add_(1)",
    # the second of a node's two checks fails, then the first
    "w = torch.ones(1, 3, requires_grad=True) * 2; b = a * w; w.add_(1)",
    "w = torch.ones(1, 3, requires_grad=True) * 2; b = a * w; a.add_(1)",
    # clamp saves its input and tensor bounds (a bound that is a number: a ReLU's too)
    "b = a.clamp(min=0); a.add_(1)", "b = a.clamp(min=0.0, max=1.0); a.add_(1)",
    "b = a.clamp_min(0); a.add_(1)", "b = a.clamp_max(1); a.add_(1)",
    "b = a.clamp(max=0.5); a.add_(1)", "b = a.clamp(min=torch.zeros(1, 3)); a.add_(1)",
    "c = torch.zeros(1, 3, requires_grad=True) * 1; b = a.clamp(min=c); c.add_(1)",
    "c = torch.zeros(1, 3); b = a.clamp(max=c); c.add_(1)",
    "b = a.clamp(min=0); a.detach().add_(1)",
    # modified but not saved: fine in PyTorch and here
    "b = a + 1; a.add_(1)", "b = a * 3; b += 1", "b = a.sum() * 1; a.mul_(2)",
    "b = (a * 2).clamp(min=0); b.add_(1)", "b = a.view(3, 1).t() * 1; a.zero_()",
    "b = a[1:]; b = b * 2; a.add_(1)", "b = a.double().clamp(min=0); a.add_(1)",
    # mm saves an operand only for the other's gradient
    "b = a.mm(torch.ones(3, 2)); a.add_(1)", "b = torch.ones(2, 1).mm(a); a.add_(1)",
    # and so do the vector forms of matmul
    "b = torch.ones(2, 3).mv(a.view(3)); a.add_(1)", "b = a.view(3).dot(torch.ones(3)); a.add_(1)",
    "b = torch.matmul(a.view(3), torch.ones(3, 2)); a.add_(1)",
    "b = torch.matmul(torch.ones(2, 3), a.view(3)); a.add_(1)",
    "c = torch.ones(2, 3); b = c.mv(a.view(3)); c.add_(1)",
    "c = torch.ones(3); b = torch.matmul(a.view(3), c); c.add_(1)",
])
def test_version_counter_checks_like_torch(statements):
    def case(torch):
        x = torch.tensor([[0.5, 1.0, 2.0]], requires_grad=True)
        a = x * 1

        def with_no_grad(f):
            with torch.no_grad():
                return f()
        scope = {"torch": torch, "a": a, "with_no_grad": with_no_grad}
        exec(statements, scope)
        scope["b"].sum().backward()
        return x.grad
    check(case)


@pytest.mark.parametrize("statements", [
    "b = a / (x * 2 + 1); a.add_(1)", "b = a / (x * x + 1); a.mul_(-1)",
    "c = x * 2 + 1; b = a / c; c.add_(1)", "b = a / torch.full((1, 3), 2.0); a.add_(1)",
    "b = a / (x.exp() + 1); b.mul_(2)", "b = a / x.detach().exp(); a.add_(1)",
    "b = a.div(x * 2 + 1); a.add_(1)", "b = torch.true_divide(a, x + 1); a.add_(1)",
    "c = a * 1j; b = c / (x * 1j + 1); c.add_(1)", "b = 2.0 / (a + 1); a.add_(1)",
    "b = a / (a + 1); a.add_(1)"])
def test_division_saves_its_numerator_for_a_denominator_that_requires_grad(statements):
    """Found by the random complex programs (``v2 = v1 / (x0 * x0.conj() + 1)``, then
    ``v1.mul_(-1)``): PyTorch's DivBackward0 saves the numerator for the denominator's
    gradient, and refuses a backward after it is updated in place; compat's rule, which
    reads the quotient instead, checked the denominator only (and gave the gradient of
    the values before the update)."""
    def case(torch):
        x = torch.tensor([[0.5, 1.0, 2.0]], requires_grad=True)
        a = x * 1
        scope = {"torch": torch, "a": a, "x": x}
        exec(statements, scope)
        scope["b"].abs().sum().backward()
        return x.grad
    check(case, messages=True)


def test_version_error_names_a_complex_tensor_as_pytorch_does():
    """Found with the random complex programs' in-place updates."""
    def case(torch):
        x = torch.tensor([[0.5, 1.0, 2.0]], requires_grad=True)
        c = x * 1j
        b = c * c
        c.add_(1)
        b.abs().sum().backward()
    check(case, messages=True)


@pytest.mark.parametrize("statements", [
    "b = a * a; a.add_(1)", "b = a.exp(); b.add_(1)", "b = a.sin(); a.add_(1); a.mul_(2)",
    "c = a.exp(); b = c * 3; c.add_(1)", "v = a[:, :2]; b = a * a; v.add_(1)",
    "b = a * a; a[0, 1] = 5", "b = a * a; with_no_grad(lambda: a.add_(1))",
    "b = a.clamp(min=0); a.detach().add_(1)", "b = x * x; with_no_grad(lambda: x.add_(1))",
    # a Parameter (a Tensor subclass) saved by a product, either operand
    "p = torch.nn.Parameter(torch.ones(3, 2)); b = a.mm(p); with_no_grad(lambda: p.add_(1))",
    "p = torch.nn.Parameter(torch.ones(2, 1)); b = p.mm(a); with_no_grad(lambda: p.add_(1))",
    # an index or mask, saved though it is no input of the node
    "i = torch.tensor([[2, 0]]); b = a.gather(1, i); i.zero_()",
    "i = torch.tensor([1]); b = a.index_add(1, i, a[:, :1]); i.zero_()",
    # the saved tensor dropped by the program, its creator after the update all the same
    "c = a.exp(); b = c.sin(); c.mul_(2); del c",
    # saved without history, then given one by a recorded update
    "c = torch.ones(1, 3); b = x * c; c.add_(x)",
    # saved, then detached in place (and updated)
    "c = a.exp(); b = c.sin(); c.detach_()", "c = a.exp(); b = c.sin(); c.mul_(2); c.detach_()",
    "c = a.exp(); b = c * c; c.detach_()", "b = x.sin(); x.detach_()",
    # saved views of an updated base
    "v = a[:, 1:]; b = v.exp(); a.add_(1)", "v = a[:, 1:]; b = v.exp(); v.mul_(3)",
])
def test_inplace_error_names_the_saved_tensor_as_torch(statements):
    """PyTorch's error names a saved input by its creator after the in-place operations
    that failed the check (Add, CopySlices), a saved result by the node that saved it, and
    a leaf by its type and shape alone."""
    def case(torch):
        x = torch.tensor([[0.5, 1.0, 2.0]], requires_grad=True)

        def with_no_grad(f):
            with torch.no_grad():
                return f()
        scope = {"torch": torch, "x": x, "a": x * 1, "with_no_grad": with_no_grad}
        exec(statements, scope)
        scope["b"].sum().backward()
    check(case, messages=True)


def test_inplace_keeps_earlier_gradients_correct():
    """An output modified in place after its operation: the operation keeps the values it
    saw (here multiply's saved result), as in PyTorch where it saved nothing of it."""
    def case(torch):
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x * x
        z = y / x          # saves y
        y2 = x * 4
        y2.mul_(10)
        (z.sum() + y2.sum()).backward()
        return z, y2, x.grad
    check(case)


def test_views_share_version_with_base_like_torch():
    def case(torch):
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        a = x * 1
        b = a.exp()
        view = a[1:]
        with torch.no_grad():
            view.mul_(2)
        a.sum().backward()      # a itself saved nothing: fine
        b.sum().backward()      # exp saved its result... of a, which changed
        return x.grad
    check(case)


@pytest.mark.parametrize("statements", [
    "a.add_(1); a.mul_(2)", "b = a.detach(); b.add_(1)", "b = a.data; b.mul_(2)",
    "b = a[1:]; b.add_(1); a[0] = 5", "b = a.view(3, 1); b.t_(); b.copy_(torch.ones(1, 3))",
    "with torch.no_grad(): a -= 0.5",
    "a.data = torch.ones(3); a.data.add_(1)",
    "p = torch.nn.Parameter(torch.ones(2)); (p * 3).sum().backward(); b = p.grad;"
    " (p * 3).sum().backward()",
    "p = torch.nn.Parameter(torch.ones(2)); opt = torch.optim.SGD([p], lr=0.1, momentum=0.9);"
    " (p * 3).sum().backward(); opt.step(); opt.step(); b = p.grad;"
    " opt.zero_grad(set_to_none=False)",
    "p = torch.nn.Parameter(torch.ones(2)); opt = torch.optim.Adam([p], lr=0.1);"
    " (p * 3).sum().backward(); opt.step(); b = p.grad",
])
def test_version_is_an_int_counting_in_place_updates_like_torch(statements):
    """``_version`` counts the in-place updates of a tensor's storage, through it or any
    view or alias sharing its counter (detach(), .data), and is read-only."""
    def case(torch):
        a = torch.zeros(3, requires_grad=True).clone()
        scope = {"torch": torch, "a": a}
        exec(statements, scope)
        tensors = [scope[name] for name in ("a", "b", "p") if name in scope]
        return [(isinstance(t._version, int), t._version) for t in tensors]
    check(case)


def test_version_cannot_be_set_like_torch():
    def case(torch):
        a = torch.zeros(3)
        a._version = 3
    check(case)


def test_leaf_updates_under_no_grad_like_torch():
    def case(torch):
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        for _ in range(3):
            loss = (w * w).sum()
            loss.backward()
            with torch.no_grad():
                w -= 0.1 * w.grad
                w.grad.zero_()
        return w, w.grad, w.is_leaf, w.requires_grad
    check(case)


def test_deep_chain_backward_is_not_recursive():
    import compat
    x = compat.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(10000):  # far past Python's recursion limit
        y = y * 1.0001
    y.backward()
    assert abs(x.grad.item() - 1.0001 ** 10000) < 1e-3


# backward() may take a gradient it computed as .grad without copying it (PyTorch's
# AccumulateGrad does), but only one that nothing else holds: each case mutates whatever
# else could share .grad's memory and compares every value with PyTorch's.
@pytest.mark.parametrize("shared_by", ["two_leaves", "hook", "user_gradient", "retained",
                                       "later_backward"])
def test_gradients_taken_without_copy_share_memory_with_nothing_like_torch(shared_by):
    def case(torch):
        a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        b = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
        if shared_by == "two_leaves":  # add's VJP hands both leaves the same cotangent
            (a + b).backward(torch.ones(3))
            a.grad.mul_(10)
            return a.grad, b.grad
        if shared_by == "hook":
            kept = []
            a.register_hook(lambda g: kept.append(g) or None)
            (a * b).sum().backward()
            kept[0].mul_(10)
            return a.grad, kept[0]
        if shared_by == "user_gradient":
            gradient = torch.tensor([1.0, -1.0, 2.0])
            (a + 0.0).backward(gradient)
            gradient.mul_(10)
            return a.grad, gradient
        if shared_by == "retained":
            y = (a * b).sum()
            y.backward(retain_graph=True)
            first = a.grad
            y.backward()
            return first, a.grad, b.grad
        (a * b).sum().backward()
        first = a.grad
        (a * a).sum().backward()  # accumulates into the same .grad, in place
        return first, a.grad
    check(case)


def test_node_names_of_the_nodes_torch_writes_in_cpp():
    import torch

    import compat

    def names(library):
        x = library.ones(3, requires_grad=True)
        a = x * 2
        a[:2].add_(1)
        return [a.grad_fn.name(), a.grad_fn.next_functions[0][0].name(),
                (x * 1).grad_fn.next_functions[0][0].name(), (x * 1).grad_fn.name()]
    assert names(compat) == names(torch)
