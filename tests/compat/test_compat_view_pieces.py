"""The views of a function that returns several views (chunk, split, unbind) after an
in-place update, compared with PyTorch: its refusals (error texts compared) and what stays
readable."""
import contextlib
import warnings

import pytest

from compat_harness import check

_PIECES = {"chunk": "y.chunk(2)", "split": "y.split(1)", "split_sizes": "y.split([1, 3])",
           "unbind": "y.unbind(0)", "unbind_dim": "y.view(2, 2).unbind(1)",
           "method": "torch.split(y, 2)", "iterate": "list(y.view(2, 2))"}
_UPDATES = {"base": "y.mul_(2)", "sibling": "pieces[1].add_(1)", "piece": "pieces[0].add_(1)",
            "view of piece": "pieces[0].view(-1).mul_(3)", "leaf base": "x.mul_(0.5)"}
_USES = ["piece * 2", "piece.grad_fn", "piece.is_leaf", "piece.clone()", "piece.view(-1)",
         "piece.retain_grad()", "piece.register_hook(lambda g: g) and None",
         "piece.sum().backward()", "repr(piece)", "piece.detach()", "piece.data",
         "piece.requires_grad", "piece.tolist()", "piece.grad", "kept.sum().backward()",
         "early_view * 2", "piece.add_(1)", "early_view.add_(1)"]


def _program(pieces, update, use, recorded):
    def case(torch):
        x = torch.tensor([0.5, -1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
        scope = {"torch": torch, "x": x, "y": x if update == "leaf base" else x * 1.0}
        exec(f"pieces = {_PIECES[pieces]}", scope)
        scope["piece"] = scope["pieces"][0]
        scope["early_view"] = scope["piece"].view(-1)
        scope["kept"] = scope["piece"] * 3.0
        quiet = contextlib.nullcontext() if recorded else torch.no_grad()
        with quiet:
            exec(_UPDATES[update], scope)
        with warnings.catch_warnings(record=True) as caught:  # (.grad of a non-leaf: both)
            warnings.simplefilter("always")
            result = eval(use, scope)
        return result, x.grad, [w.category.__name__ for w in caught]
    return case


@pytest.mark.parametrize("use", _USES)
@pytest.mark.parametrize("update", sorted(_UPDATES))
@pytest.mark.parametrize("recorded", [False, True])
def test_a_piece_after_an_update_of_its_storage(update, use, recorded):
    check(_program("chunk", update, use, recorded), messages=True)


@pytest.mark.parametrize("pieces", sorted(_PIECES))
@pytest.mark.parametrize("update", ["base", "sibling", "piece"])
@pytest.mark.parametrize("use", ["piece * 2", "piece.add_(1)", "early_view.add_(1)"])
def test_each_function_of_several_views(pieces, update, use):
    check(_program(pieces, update, use, recorded=True), messages=True)


@pytest.mark.parametrize("pieces", ["y.chunk(2)", "y.unbind(0)"])
def test_pieces_used_before_the_update_keep_their_gradients(pieces):
    """What was computed from the pieces before the update differentiates as before."""
    def case(torch):
        x = torch.tensor([0.5, -1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
        y = x * 2.0
        parts = eval(pieces)
        total = sum((p * p).sum() for p in parts)
        with torch.no_grad():
            y.zero_()
        total.backward()
        return x.grad
    check(case)


def test_pieces_of_a_tensor_without_gradients_are_updated_freely():
    def case(torch):
        y = torch.tensor([0.5, -1.0, 2.0, 3.0])
        first, second = y.chunk(2)
        first.add_(1)
        y.mul_(2)
        return first * 2, second.grad_fn, y
    check(case)


def test_unsafe_split_pieces_are_not_views():
    def case(torch):
        x = torch.tensor([0.5, -1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
        first, second = (x * 1.0).unsafe_split(2)
        first.mul_(2)
        (first * second).sum().backward()
        return first, x.grad
    check(case)


@pytest.mark.parametrize("alias", ["x.detach()", "x.data"])
def test_an_update_through_an_alias_that_is_no_view(alias):
    """Found by the random programs (``v0 = x0.detach()``, ``v4 = x0.chunk(2, 0)[0]``,
    ``v0.zero_()``: PyTorch refused v4's use, compat computed): the alias shares the
    storage's version counter, not its list of views."""
    def case(torch):
        x = torch.tensor([0.5, -1.0], dtype=torch.float64, requires_grad=True)
        alias_of_x = eval(alias)
        piece = x.chunk(2)[0]
        alias_of_x.zero_()
        (piece * piece).sum().backward()
        return x.grad
    check(case, messages=True)


def test_updates_after_a_piece_is_invalidated():
    """Found by the random programs (a piece detached, then two optimizer steps on its
    base: compat's second step read the invalidated piece's history): updates that record
    nothing still reach the storage, and the piece stays refused."""
    def case(torch):
        x = torch.tensor([0.5, -1.0], dtype=torch.float64, requires_grad=True)
        piece = x.chunk(2)[0]
        alias = piece.detach()
        optimizer = torch.optim.SGD([x], lr=0.1)
        for _ in range(2):
            (x * x).sum().backward()
            optimizer.step()
        with torch.no_grad():
            piece.add_(1)
            piece.mul_(2)
        return x, alias, repr(piece), piece.detach()
    check(case, messages=True)
