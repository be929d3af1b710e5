"""Gradients that are zero along a path (a zero slope, an overwrite), compared with PyTorch.

funcgrad's rules give None (a symbolic zero) for an argument whose derivative is zero;
PyTorch's give zeros tensors, which the nodes before then pull back as any gradient. compat
reaches those nodes as PyTorch does: their saved values are checked, their hooks and
retained gradients see zeros, and their rules run on zeros where they read values (so
that 0 * inf is NaN, and create_graph records the products PyTorch records).
"""
import pytest

from compat_harness import check

_ZERO_SLOPES = ["y.sign()", "y.floor()", "y.angle()", "(y > 0).to(y.dtype)",
                "torch.where(y > 0, torch.zeros_like(y), torch.ones_like(y))"]
_OVERWRITES = ["y.zero_()", "y.fill_(1.5)", "y.copy_(torch.ones_like(y))"]


def _x(torch, values=(0.5, -1.25, 2.0)):
    return torch.tensor(values, dtype=torch.float64, requires_grad=True)


def _zero_part(expression):
    """A statement making `z` from `y` with a zero derivative."""
    if expression in _OVERWRITES:
        return f"z = y * 1.0\n{expression.replace('y.', 'z.')}"
    return f"z = {expression}"


@pytest.mark.parametrize("update", ["v.mul_(-1)", "v.add_(1.0)", "v.zero_()"])
@pytest.mark.parametrize("zero", _ZERO_SLOPES + _OVERWRITES)
def test_a_saved_value_modified_in_place_before_a_zero_path_is_reported(zero, update):
    """Found by the random complex programs (``v0 = x2.exp()``, ``v0.mul_(-1)``, an
    angle of ``v0 + 9.3``: PyTorch raised, compat gave zeros). exp saves its result, which
    the update modifies; the backward reaches exp only through zeros."""
    def case(torch):
        x = _x(torch)
        v = x.exp()
        y = v * 1.0
        eval(compile(update, "<update>", "exec"))
        scope = {"torch": torch, "y": y}
        exec(_zero_part(zero), scope)
        (scope["z"] * 3.0).sum().backward()
        return x.grad
    check(case, messages=True)


@pytest.mark.parametrize("zero", _ZERO_SLOPES + _OVERWRITES)
def test_hooks_and_retained_gradients_before_a_zero_path_see_zeros(zero):
    def case(torch):
        x = _x(torch)
        y = x.sin()
        y.retain_grad()
        seen = []
        y.register_hook(lambda g: seen.append(g.clone()))
        scope = {"torch": torch, "y": y}
        exec(_zero_part(zero), scope)
        scope["z"].sum().backward()
        return seen, y.grad, x.grad
    check(case)


def test_a_hook_replacing_the_zeros_sends_its_gradient_on():
    def case(torch):
        x = _x(torch)
        y = x * 2.0
        y.register_hook(lambda g: g + 1.0)
        y.sign().sum().backward()
        return x.grad
    check(case)


@pytest.mark.parametrize("zero", ["y.sign()", "y.floor()"])
def test_zeros_through_an_infinite_derivative_are_nan_as_in_pytorch(zero):
    """log at 0 has an infinite derivative: PyTorch's zeros times it are NaN."""
    def case(torch):
        x = _x(torch, (0.0, 1.0))
        y = x.log()
        z = eval(zero, {"y": y})
        z.sum().backward()
        return x.grad
    check(case)


@pytest.mark.parametrize("before", ["x * 2.0", "x.sin()", "x.exp() * x"])
@pytest.mark.parametrize("zero", _ZERO_SLOPES + _OVERWRITES)
def test_second_derivative_through_a_zero_path(before, zero):
    """Whether the create_graph gradient has history, and what a second backward gives."""
    def case(torch):
        x = _x(torch)
        scope = {"torch": torch, "x": x}
        exec(f"y = {before}\n{_zero_part(zero)}", scope)
        (g,) = torch.autograd.grad((scope["z"] * scope["y"]).sum(), [x], create_graph=True)
        if not g.requires_grad:
            return g, None
        (h,) = torch.autograd.grad(g.sum(), [x], allow_unused=True)
        return g, h
    check(case, grad_fn_names=False)


def test_a_node_reached_twice_by_zeros_and_once_by_a_gradient():
    def case(torch):
        x = _x(torch)
        y = x.exp()
        out = y.sign() + y.floor() + y * 2.0
        out.sum().backward()
        return x.grad
    check(case)


def test_the_unused_outputs_of_a_node_with_several_results():
    """sort's indices carry no gradient; its values reach the node through zeros."""
    def case(torch):
        x = _x(torch)
        values, indices = x.exp().sort()
        (values.sign() * 2.0).sum().backward()
        return x.grad
    check(case)


def test_a_freed_node_reached_by_zeros_raises_as_pytorch():
    def case(torch):
        x = _x(torch)
        y = x.exp()
        z = y.sign()
        z.sum().backward()
        z.sum().backward()
    check(case, messages=True)


@pytest.mark.parametrize("materialize", [True, False])
@pytest.mark.parametrize("packed", [False, True])
def test_a_custom_function_reached_by_zeros_runs_its_backward_on_zeros(packed, materialize):
    """PyTorch's backward gets the zeros as tensors whatever set_materialize_grads says
    (they are defined tensors). Left out: a packed output that got nothing, which PyTorch
    gives as None without materializing and compat as zeros."""
    def case(torch):
        calls = []

        class Twice(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.set_materialize_grads(materialize)
                return (x * 2, x * 3) if packed else x * 2

            @staticmethod
            def backward(ctx, *grads):
                calls.append([g.clone() for g in grads])
                return grads[0] * 2 + 1

        x = _x(torch)
        out = Twice.apply(x)
        if packed:
            (out[0].sign() + out[1].floor()).sum().backward()
        else:
            out.sign().sum().backward()
        return calls, x.grad
    check(case)
