"""autograd.Function outputs that share an input's memory, compared with PyTorch: inputs
returned as they are and views of them (PyTorch's IN_CUSTOM_FUNCTION views, which refuse
in-place updates), and inputs modified in place and marked dirty (they take the Function's
node as their history, as after an in-place operation)."""
import pytest

from compat_harness import check


def _functions(torch):
    class Same(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 3

    class Head(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x[:2]

        @staticmethod
        def backward(ctx, g):
            out = torch.zeros(4, dtype=g.dtype)
            out[:2] = g
            return out

    class HeadAndSum(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.sum(), x.view(2, 2)

        @staticmethod
        def backward(ctx, g_sum, g_view):
            return g_sum.expand(4) + g_view.reshape(4)

    class Double(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class AddInto(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, w):
            x.add_(w)
            ctx.mark_dirty(x)
            return x, w * 3

        @staticmethod
        def backward(ctx, g_x, g_w):
            return g_x, g_x + 3 * g_w

    return {"Same": Same, "Head": Head, "HeadAndSum": HeadAndSum, "Double": Double,
            "AddInto": AddInto}


_VIEWING = {"same": "fn.Same.apply(y)", "head": "fn.Head.apply(y)",
            "second of two": "fn.HeadAndSum.apply(y)[1]"}
_AFTER = {"nothing": "pass", "output in place": "out.mul_(2)",
          "input in place": "y.mul_(2)", "output in no_grad": "with torch.no_grad(): out.mul_(2)",
          "input in no_grad": "with torch.no_grad(): y.mul_(2)"}
_USES = ["out.grad_fn", "out * 1.0", "out.sum().backward()", "out._version",
         "y._version", "out.detach()"]


@pytest.mark.parametrize("use", _USES)
@pytest.mark.parametrize("after", sorted(_AFTER))
@pytest.mark.parametrize("viewing", sorted(_VIEWING))
def test_an_output_that_is_or_views_an_input(viewing, after, use):
    def case(torch):
        x = torch.tensor([1.0, 2.0, 3.0, 4.0], dtype=torch.float64, requires_grad=True)
        scope = {"torch": torch, "fn": type("fn", (), _functions(torch)), "y": x * 1.0}
        exec(f"out = {_VIEWING[viewing]}", scope)
        exec(_AFTER[after], scope)
        exec(f"result = {use}", scope)
        return scope["result"], x.grad
    check(case, messages=True)


@pytest.mark.parametrize("program", [
    "o = fn.Double.apply(y); (o * o).sum().backward()",
    "o = fn.Double.apply(y[:2]); (y * y).sum().backward()",
    "o = fn.Double.apply(x)",
    "o = fn.Double.apply(x[:2])",
    "o, p = fn.AddInto.apply(y, w); (o * o + p).sum().backward()",
    "o, p = fn.AddInto.apply(plain, w); (o * o).sum().backward()",
    "z = y * y; o = fn.Double.apply(y); z.sum().backward()",
    "z = y.exp(); o = fn.Double.apply(y); z.sum().backward()",
    "v = y[1:]; o = fn.Double.apply(y); (v * 1.0).sum().backward()",
    "with torch.no_grad(): o = fn.Double.apply(y)"])
def test_an_input_marked_dirty(program):
    def case(torch):
        x = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
        w = torch.tensor([0.5, 1.0, -1.0], dtype=torch.float64, requires_grad=True)
        y = x * 1.0
        scope = {"torch": torch, "fn": type("fn", (), _functions(torch)), "x": x, "y": y,
                 "w": w, "plain": torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)}
        exec(program, scope)
        o = scope["o"]
        return (o is y or o is scope["plain"], o, y, y._version, y.grad_fn, x.grad, w.grad)
    check(case, messages=True)


@pytest.mark.parametrize("function", ["Same", "Double", "Head"])
@pytest.mark.parametrize("inputs", ["with history, in no_grad", "plain", "plain, in no_grad"])
def test_outputs_when_nothing_is_recorded(function, inputs):
    """PyTorch returns an input returned as it is as a view of it, and an input marked
    dirty itself, its version counted once more; under no_grad, an input that requires
    grad as a new tensor without its history."""
    def case(torch):
        x = torch.tensor([1.0, 2.0, 3.0, 4.0], dtype=torch.float64, requires_grad=True)
        y = x * 1.0 if inputs.startswith("with history") else x.detach().clone()
        apply = getattr(type("fn", (), _functions(torch)), function).apply
        if inputs.endswith("no_grad"):
            with torch.no_grad():
                out = apply(y)
        else:
            out = apply(y)
        return (out is y, out._base is y, out.requires_grad, out.grad_fn, out, y._version,
                out._version)
    check(case, messages=True)


@pytest.mark.parametrize("program", [
    "v = y.sum().reshape(1); v.register_hook(lambda g: g * 2.0); o = fn.Double.apply(v)",
    "v = y[:2]; v.register_hook(lambda g: g * 2.0); z = v * 3.0; o = fn.Double.apply(v)",
    "y.register_hook(lambda g: g * 2.0); o = fn.Double.apply(y)",
    "v = y[:2]; v.retain_grad(); o = fn.Double.apply(v)",
    "o = fn.AddInto.apply(y[:2], w[:2])"])
def test_hooks_of_an_input_marked_dirty(program):
    """A view marked dirty reaches its base's history past its own node and hooks (PyTorch's
    CopySlices); a Function cannot return several tensors then."""
    def case(torch):
        x = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
        w = torch.tensor([0.5, 1.0, -1.0], dtype=torch.float64, requires_grad=True)
        y = x * 1.0
        scope = {"torch": torch, "fn": type("fn", (), _functions(torch)), "y": y, "w": w}
        exec(program, scope)
        total = (scope["o"] * scope["o"]).sum() + (scope["z"].sum() if "z" in scope else 0.0)
        total.backward()
        v = scope.get("v")
        return x.grad, w.grad, v.grad if v is not None and v.retains_grad else None
    check(case, messages=True)


@pytest.mark.parametrize("then", ["plain.add_(w)", "out.add_(w)", "plain.add_(1.0)"])
def test_an_input_returned_when_nothing_is_recorded_is_refused_in_place(then):
    """Found by the random PyTorch programs: it is refused once its base gains history, as
    the views a Function returns are."""
    def case(torch):
        w = torch.tensor([0.5, 1.0, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
        plain = torch.tensor([1.0, 2.0, 3.0, 4.0], dtype=torch.float64)
        out = type("fn", (), _functions(torch)).Same.apply(plain)
        exec(then)
        return out.requires_grad, out.grad_fn, out * 2
    check(case, messages=True)
