"""Views made in no_grad mode or inference_mode, and pieces (chunk, split, unbind) of a
tensor without history, after an in-place update of their storage, compared with PyTorch:
which uses it refuses (error texts compared) and what stays allowed."""
import warnings

import pytest

from compat_harness import check

_VIEWS = {"slice": "base[:2]", "view": "base.view(2, 2)", "transpose": "base.view(2, 2).t()",
          "chunk": "base.chunk(2)[0]", "unbind": "base.unbind(0)[1]",
          "split": "base.split([1, 3])[1]", "view of chunk": "base.chunk(2)[1].view(-1)",
          "detach": "base.detach()", "alias": "base[...]"}
_BASES = {"leaf": "torch.tensor([0.5, -1.0, 2.0, 3.0], dtype=torch.float64)",
          "grad": "torch.tensor([0.5, -1.0, 2.0, 3.0], dtype=torch.float64, "
                  "requires_grad=True) * 1.0"}
_UPDATES = {"base with grad": "base.mul_(w)", "base plain": "base.mul_(2)",
            "base in no_grad": "with torch.no_grad(): base.mul_(w)",
            "view with grad": "view.mul_(w[:view.numel()].view(view.shape))",
            "view plain": "view.mul_(2)", "none": "pass"}
_USES = ["view.grad_fn", "view.requires_grad", "view.is_leaf", "view * 2",
         "view.sum().backward()", "view.detach()", "repr(view)", "view.clone()",
         "view.view(-1)", "view.retain_grad()", "view.add_(1)",
         "with torch.no_grad(): view.add_(1)"]


def _program(view, made_in, base, update, use):
    def case(torch):
        w = torch.tensor([1.5, 2.0, -0.5, 4.0], dtype=torch.float64, requires_grad=True)
        scope = {"torch": torch, "w": w, "base": eval(_BASES[base], {"torch": torch})}
        if made_in in ("no_grad", "inference_mode"):
            with getattr(torch, made_in)():
                scope["view"] = eval(_VIEWS[view], scope)
        else:
            scope["view"] = eval(_VIEWS[view], scope)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(_UPDATES[update], scope)
            exec(f"result = {use}" if not use.startswith("with") else use, scope)
        return scope.get("result"), w.grad
    return case


@pytest.mark.parametrize("use", _USES)
@pytest.mark.parametrize("update", sorted(_UPDATES))
@pytest.mark.parametrize("base", sorted(_BASES))
@pytest.mark.parametrize("view", ["slice", "chunk", "view of chunk"])
@pytest.mark.parametrize("mode", ["no_grad", "inference_mode"])
def test_a_view_made_in_no_grad_or_inference_mode(mode, view, base, update, use):
    check(_program(view, mode, base, update, use), messages=True)


_STALE_HISTORY = pytest.mark.xfail(strict=True, reason=(
    "PyTorch refuses an in-place update of a view whose base gained history in place as a "
    "leaf's until the view's history is read; compat rebuilds the view's history at once"))


def _without_history_cases():
    for view in ["chunk", "unbind", "split", "view of chunk", "slice", "detach", "alias"]:
        for update in sorted(_UPDATES):
            for use in _USES:
                stale = (view in ("slice", "alias") and update == "base with grad"
                         and use == "view.add_(1)")
                yield pytest.param(view, update, use, marks=[_STALE_HISTORY] if stale else [])


@pytest.mark.parametrize("view, update, use", _without_history_cases())
def test_a_view_of_a_tensor_without_history(view, update, use):
    check(_program(view, "grad", "leaf", update, use), messages=True)


@pytest.mark.parametrize("view", sorted(_VIEWS))
@pytest.mark.parametrize("update", ["base with grad", "view with grad"])
@pytest.mark.parametrize("base", sorted(_BASES))
@pytest.mark.parametrize("mode", ["no_grad", "inference_mode"])
def test_each_view_function_in_no_grad_or_inference_mode(mode, view, base, update):
    check(_program(view, mode, base, update, "view * 2"), messages=True)


@pytest.mark.parametrize("outer, inner", [("inference_mode", "no_grad"),
                                          ("no_grad", "inference_mode"),
                                          ("inference_mode", "enable_grad")])
def test_a_view_of_a_view_made_in_another_mode(outer, inner):
    """The first non-default mode stays, except that inference_mode's is never replaced."""
    def case(torch):
        x, y, view = _no_grad_view_of_history(torch)
        with getattr(torch, outer)():
            first = y[:3]
        with getattr(torch, inner)():
            second = first[1:]
        y.mul_(2)
        return second.grad_fn
    check(case, messages=True)


def _no_grad_view_of_history(torch):
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], dtype=torch.float64, requires_grad=True)
    y = x * 1.0
    with torch.no_grad():
        view = y[:2]
    return x, y, view


def test_a_no_grad_view_of_a_tensor_with_history_drops_its_gradient():
    """It requires grad but is a leaf whose gradient goes nowhere: no .grad, None among
    the next_functions of what uses it, and autograd.grad finds it unused."""
    def case(torch):
        x, y, view = _no_grad_view_of_history(torch)
        used = view * x[:2]
        used.sum().backward(retain_graph=True)
        try:
            torch.autograd.grad(used.sum(), view)
        except RuntimeError as error:
            refused = str(error)
        return (view.requires_grad, view.is_leaf, view.grad_fn, view.grad, x.grad,
                [name for name, _ in used.grad_fn.next_functions], refused)
    check(case, messages=True)


@pytest.mark.parametrize("then", ["view.view(-1).mul_(w[:2])", "view.t().grad_fn",
                                  "view.view(-1).grad_fn"])
def test_a_view_of_a_no_grad_view_made_in_grad_mode_keeps_its_mode(then):
    """PyTorch's errors name such a view as "a view of a view which was created in no_grad
    mode"."""
    def case(torch):
        x, y, view = _no_grad_view_of_history(torch)
        w = torch.tensor([2.0, 3.0], dtype=torch.float64, requires_grad=True)
        if then.endswith("grad_fn"):
            later = eval(then.removesuffix(".grad_fn"))
            y.mul_(2)
            return later.grad_fn
        exec(then)
    check(case, messages=True)


def test_pieces_of_a_detached_tensor_after_it_gained_history():
    """Found by the random PyTorch programs: pieces of a detach()ed tensor updated with a
    value that requires grad."""
    def case(torch):
        x = torch.tensor([0.0], dtype=torch.float64, requires_grad=True)
        alias = x.detach()
        piece = alias.chunk(2, 0)[0]
        alias.add_(x.sin())
        return [alias, piece.requires_grad, repr(piece), piece.detach(), piece * 2]
    check(case, messages=True)


@pytest.mark.parametrize("pieces", ["view.chunk(2)[0]", "view.unbind()[1]",
                                    "view.split(1)[0].view(-1)"])
def test_pieces_of_a_no_grad_view_are_refused_as_pieces(pieces):
    """Found by the random PyTorch programs: a function of several views applied in grad
    mode to a view made in no_grad mode gives views of its own mode (MULTI_OUTPUT_NODE)."""
    def case(torch):
        x, y, view = _no_grad_view_of_history(torch)
        piece = eval(pieces)
        with torch.no_grad():
            y.mul_(0.5)
        return piece.requires_grad, piece.is_leaf
    check(case, messages=True)
