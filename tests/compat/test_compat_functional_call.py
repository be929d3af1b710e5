"""compat.func.functional_call (and nn.utils.stateless's, deprecated) against PyTorch 2.13:
outputs and gradients with replaced parameters and buffers, tied weights, strict keys, the
module's own tensors untouched (a BatchNorm's running statistics included), the errors;
Module.get_submodule/get_parameter/get_buffer."""
import warnings

import pytest

from compat_harness import assert_same_error, check, seeded


def _model(torch):
    return torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))


@pytest.mark.parametrize("replaced", [
    "{'0.weight': w}",
    "{'0.weight': w, '2.bias': b}",
    "({'0.weight': w}, {'2.bias': b})",
    "{}",
    "{'0.weight': w, 'extra': b}",
])
def test_outputs_and_gradients_reach_the_given_tensors(replaced):
    def case(torch):
        model = _model(torch)
        w = torch.randn(4, 3, requires_grad=True)
        b = torch.randn(2, requires_grad=True)
        x = torch.randn(5, 3)
        out = torch.func.functional_call(model, eval(replaced, {"w": w, "b": b}), (x,))
        out.sum().backward()
        return (out, w.grad, b.grad, [p.grad for p in model.parameters()],
                list(model.state_dict().items()), hasattr(model, "extra"))
    check(seeded(case, 3))


def test_a_meta_learning_step_differentiates_through_an_inner_update():
    """MAML's inner step: the adapted weights are a function of the model's, and the outer
    loss's gradient reaches the model through them."""
    def case(torch):
        model = _model(torch)
        x, y = torch.randn(6, 3), torch.randn(6, 2)
        params = dict(model.named_parameters())
        inner = ((torch.func.functional_call(model, params, x) - y) ** 2).mean()
        grads = torch.autograd.grad(inner, list(params.values()), create_graph=True)
        adapted = {name: p - 0.1 * g for (name, p), g in zip(params.items(), grads)}
        outer = ((torch.func.functional_call(model, adapted, (x,)) - y) ** 2).mean()
        outer.backward()
        return outer, [p.grad for p in model.parameters()]
    check(seeded(case, 1), grad_fn_names=False)


def test_buffers_and_keyword_arguments():
    def case(torch):
        norm = torch.nn.BatchNorm1d(2)
        x = torch.randn(4, 2)
        out = torch.func.functional_call(norm, {"running_mean": torch.ones(2)}, x)
        norm.eval()
        evaluated = torch.func.functional_call(
            norm, {"running_mean": torch.ones(2), "running_var": torch.full((2,), 4.0)},
            args=(), kwargs={"input": x})
        return out, evaluated, norm.running_mean, norm.running_var
    check(seeded(case, 2))


@pytest.mark.parametrize("tie_weights", [True, False])
@pytest.mark.parametrize("replaced", ["{'0.weight': w}", "{'0.weight': w, '1.weight': w}"])
def test_tied_weights(replaced, tie_weights):
    def case(torch):
        model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Linear(2, 2))
        model[1].weight = model[0].weight
        w = torch.zeros(2, 2)
        return torch.func.functional_call(model, eval(replaced, {"w": w}), torch.ones(1, 2),
                                          tie_weights=tie_weights)
    check(seeded(case, 0))


@pytest.mark.parametrize("call", [
    "functional_call(model, {'0.weight': w, '2.weight': torch.ones(2, 2)}, x)",
    "functional_call(model, {'0.weight': w}, x, strict=True)",
    "functional_call(model, {'0.weight': w, 'foo': w}, x, strict=True)",
    "functional_call(model, ({'0.weight': w}, {'0.weight': w}), x)",
    "functional_call(model, {'3.weight': w}, x)",
    "functional_call(model, {'0.weight': torch.ones(5)}, x)",
])
def test_errors_like_torch(call):
    def case(torch):
        model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Tanh(),
                                    torch.nn.Linear(2, 2))
        model[2].weight = model[0].weight
        scope = {"torch": torch, "model": model, "w": torch.zeros(2, 2),
                 "x": torch.ones(1, 2), "functional_call": torch.func.functional_call}
        return eval(call, scope)
    assert_same_error(case)


def test_the_module_is_restored_after_an_error():
    def case(torch):
        model = torch.nn.Linear(2, 2)
        before = [p.clone() for p in model.parameters()]
        try:
            torch.func.functional_call(model, {"weight": torch.ones(2, 2)}, torch.ones(3))
        except RuntimeError:
            pass
        return before, list(model.parameters()), [type(p).__name__ for p in model.parameters()]
    check(seeded(case, 4))


def test_stateless_functional_call_warns_as_deprecated():
    def case(torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = torch.nn.utils.stateless.functional_call(
                torch.nn.Linear(2, 1), {"bias": torch.zeros(1)}, torch.ones(1, 2))
        return out, [(w.category.__name__, str(w.message)) for w in caught]
    check(seeded(case, 5))


@pytest.mark.parametrize("call", [
    "get_submodule('0')", "get_submodule('')", "get_parameter('0.weight')",
    "get_buffer('1.running_mean')", "get_submodule('2')", "get_submodule('0.weight')",
    "get_parameter('0.foo')", "get_parameter('1.running_mean')", "get_buffer('0.weight')",
    "get_buffer('x.y')", "get_parameter('weight')"])
def test_submodule_parameter_and_buffer_lookups(call):
    def case(torch):
        model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.BatchNorm1d(2))
        found = eval(f"model.{call}")
        return found is model if call == "get_submodule('')" else repr(found)
    check(seeded(case, 0), messages=True)
