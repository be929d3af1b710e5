"""compat.nn.utils.parametrize against torch.nn.utils.parametrize 2.13: the generated
``Parametrized<Class>``, where the unconstrained tensors live (``original``,
``original0``...), right_inverse at registration and on assignment, chains, the values,
gradients and optimizer steps through a parametrized tensor, state_dicts, caching,
removal, copies, and PyTorch's error texts for each misuse."""
import copy
import functools
import io
import pickle

import pytest

from compat_harness import (assert_same_error, check, check_printed, gradients, module_output,
                            seeded, trained)


@functools.lru_cache(maxsize=None)
def _parametrizations(torch):
    """The parametrization classes of the tests, written against `torch`'s nn.Module."""
    nn = torch.nn

    class Symmetric(nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).transpose(-1, -2)

        def right_inverse(self, A):
            return A.triu()

    class Double(nn.Module):
        def forward(self, X):
            return 2 * X

        def right_inverse(self, X):
            return X / 2

    class Skew(nn.Module):  # no right_inverse: assigning is refused
        def forward(self, X):
            return X - X.transpose(-1, -2)

    class Halves(nn.Module):  # two unconstrained tensors
        def __init__(self):
            super().__init__()
            self.parts = 2

        def forward(self, upper, lower):
            return upper + lower

        def right_inverse(self, X):
            return [X.triu(), X.tril(-1)][:self.parts]

    class Counting(nn.Module):
        def __init__(self):
            super().__init__()
            self.calls = 0

        def forward(self, X):
            self.calls += 1
            return X.exp()

    class NoInverse(nn.Module):  # right_inverse raising NotImplementedError: the identity
        def forward(self, X):
            return X * 3

        def right_inverse(self, X):
            raise NotImplementedError

    class Returns(nn.Module):  # forward and right_inverse give what they are told to
        def __init__(self, forward=None, inverse=None):
            super().__init__()
            self.result, self.inverse = forward, inverse

        def forward(self, *X):
            return X[0] if self.result is None else self.result(X[0])

        def right_inverse(self, X):
            return X if self.inverse is None else self.inverse(X)

    return {cls.__name__: cls for cls in (Symmetric, Double, Skew, Halves, Counting,
                                          NoInverse, Returns)}


def _make(torch, name, *args, **kwargs):
    return _parametrizations(torch)[name](*args, **kwargs)


# Module kinds with a square-matrix tensor (or batch of them), and an input for each.
KINDS = {
    "linear": (lambda nn: nn.Linear(4, 4), "weight", lambda torch: torch.randn(2, 4)),
    "conv1d": (lambda nn: nn.Conv1d(3, 3, 3), "weight", lambda torch: torch.randn(1, 3, 6)),
    "conv2d": (lambda nn: nn.Conv2d(2, 3, 3), "weight",
               lambda torch: torch.randn(1, 2, 5, 5)),
    "embedding": (lambda nn: nn.Embedding(4, 4), "weight",
                  lambda torch: torch.tensor([[0, 3, 1]])),
    "rnn": (lambda nn: nn.RNN(4, 4), "weight_hh_l0", lambda torch: torch.randn(3, 1, 4)),
}


def _names(torch, module):
    return (type(module).__name__,
            torch.nn.utils.parametrize.type_before_parametrizations(module).__name__,
            [name for name, _ in module.named_parameters()],
            [name for name, _ in module.named_buffers()], list(module.state_dict()))


# ---- registration ------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_parametrized_tensor_computes_trains_and_saves_as_torchs(kind):
    make, name, input = KINDS[kind]

    def case(torch):
        P = torch.nn.utils.parametrize
        module = make(torch.nn)
        before = getattr(module, name)
        version = before._version
        P.register_parametrization(module, name, _make(torch, "Symmetric"))
        original = module.parametrizations[name].original
        x = input(torch)
        out = module_output(module, x)
        out.square().sum().backward()
        grads = gradients(module)
        return (_names(torch, module), original is before, original._version - version,
                getattr(module, name), out, grads, trained(torch, module, x),
                getattr(module, name), module.state_dict(),
                P.is_parametrized(module), P.is_parametrized(module, name),
                P.is_parametrized(module, "other"))
    check(seeded(case))


def test_a_parametrized_module_prints_as_torchs():
    def case(torch):
        P = torch.nn.utils.parametrize
        module = torch.nn.Linear(3, 3)
        P.register_parametrization(module, "weight", _make(torch, "Symmetric"))
        P.register_parametrization(module, "weight", _make(torch, "Double"))
        P.register_parametrization(module, "bias", _make(torch, "Double"))
        print(module)
        print(torch.nn.Sequential(module, torch.nn.ReLU()))
        print(module.parametrizations.weight)
    check_printed(seeded(case))


def test_right_inverse_sets_the_original_at_registration_and_on_assignment():
    def case(torch):
        P = torch.nn.utils.parametrize
        module = torch.nn.Linear(3, 3)
        P.register_parametrization(module, "weight", _make(torch, "Symmetric"))
        P.register_parametrization(module, "weight", _make(torch, "Double"))
        original = module.parametrizations.weight.original
        registered = (original.clone(), module.weight)
        target = torch.rand(3, 3)
        module.weight = target + target.T
        return (registered, original is module.parametrizations.weight.original, original,
                module.weight, original.requires_grad, original.is_leaf)
    check(seeded(case))


def test_assigning_after_a_forward_invalidates_its_backward():
    # (Assignment updates the original in place, as PyTorch's set_ does: a product that
    # saved it can no longer be differentiated.)
    def case(torch):
        P = torch.nn.utils.parametrize
        module = torch.nn.Linear(3, 3)
        P.register_parametrization(module, "weight", _make(torch, "Returns", lambda X: X * X))
        loss = module(torch.ones(1, 3)).sum()
        module.weight = torch.ones(3, 3)
        loss.backward()
    assert_same_error(seeded(case))


def test_a_parametrization_of_several_tensors():
    def case(torch):
        P = torch.nn.utils.parametrize
        module = torch.nn.Linear(3, 3)
        old = module.weight
        P.register_parametrization(module, "weight", _make(torch, "Halves"))
        chain = module.parametrizations.weight
        x = torch.randn(2, 3)
        module(x).sum().backward()
        first = (_names(torch, module), chain.is_tensor, chain.ntensors,
                 type(chain.original0).__name__, chain.original0.requires_grad,
                 module.weight, gradients(module), old)
        module.weight = torch.ones(3, 3)
        assigned = (chain.original0, chain.original1, module.weight)
        P.remove_parametrizations(module, "weight")
        return first, assigned, _names(torch, module), module.weight, module.weight is old
    check(seeded(case))


def test_a_parametrized_buffer():
    def case(torch):
        P = torch.nn.utils.parametrize
        module = torch.nn.BatchNorm1d(3)
        P.register_parametrization(module, "running_var", _make(torch, "Double"))
        out = module(torch.randn(4, 3))
        chain = module.parametrizations.running_var
        return (_names(torch, module), module.running_var, chain.original, out,
                chain.original.requires_grad, module.state_dict())
    check(seeded(case))


def test_right_inverse_raising_not_implemented_is_the_identity():
    def case(torch):
        P = torch.nn.utils.parametrize
        module = torch.nn.Linear(2, 2)
        P.register_parametrization(module, "weight", _make(torch, "NoInverse"))
        return module.parametrizations.weight.original, module.weight
    check(seeded(case))


def test_removing_an_unsafe_parametrization_of_another_shape():
    def case(torch):
        P = torch.nn.utils.parametrize
        module = torch.nn.Linear(3, 4)
        weight = module.weight
        P.register_parametrization(module, "weight", _make(torch, "Returns", lambda X: X.T),
                                   unsafe=True)
        P.remove_parametrizations(module, "weight")
        return module.weight, module.weight is weight, _names(torch, module)
    check(seeded(case))


def test_unsafe_allows_another_shape_and_dtype():
    def case(torch):
        P = torch.nn.utils.parametrize
        module = torch.nn.Linear(3, 4)
        transpose = _make(torch, "Returns", lambda X: X.T)
        P.register_parametrization(module, "weight", transpose, unsafe=True)
        P.register_parametrization(module, "weight", _make(torch, "Returns", lambda X: X.double()),
                                   unsafe=True)
        chain = module.parametrizations.weight
        return module.weight, chain.unsafe, module.weight.dtype, module.weight.shape
    check(seeded(case))


def test_the_parametrization_takes_the_modules_training_mode():
    def case(torch):
        P = torch.nn.utils.parametrize
        module = torch.nn.Linear(2, 2).eval()
        P.register_parametrization(module, "weight", _make(torch, "Double"))
        before = [m.training for m in module.modules()]
        module.train()
        return before, [m.training for m in module.modules()]
    check(case)


def test_an_optimizer_made_before_registration_keeps_training_the_original():
    def case(torch):
        P = torch.nn.utils.parametrize
        module = torch.nn.Linear(3, 3)
        optimizer = torch.optim.Adam(module.parameters(), lr=0.1)
        P.register_parametrization(module, "weight", _make(torch, "Symmetric"))
        for _ in range(3):
            optimizer.zero_grad()
            module(torch.ones(2, 3)).square().sum().backward()
            optimizer.step()
        return module.weight, module.parametrizations.weight.original
    check(seeded(case))


# ---- caching -----------------------------------------------------------------------------


def test_cached_computes_each_tensor_once_per_block():
    def case(torch):
        P = torch.nn.utils.parametrize
        module = torch.nn.Linear(2, 2)
        counting = _make(torch, "Counting")
        P.register_parametrization(module, "weight", counting)
        module.weight, module.weight
        uncached = counting.calls
        with P.cached():
            with P.cached():
                same = module.weight is module.weight
            nested = module.weight is module.weight
            module(torch.ones(1, 2)).sum().backward()
            inside = counting.calls
        after = module.weight is module.weight
        return uncached, same, nested, inside, counting.calls, after, gradients(module)
    check(seeded(case))


@pytest.mark.parametrize("layer", ["RNN", "LSTM", "GRU"])
def test_a_recurrent_layer_computes_a_parametrized_weight_as_often_as_torchs(layer):
    def case(torch):
        module = getattr(torch.nn, layer)(3, 4, num_layers=2)
        counting = _make(torch, "Counting")
        torch.nn.utils.parametrize.register_parametrization(module, "weight_hh_l1", counting)
        x = torch.randn(2, 1, 3)
        calls = []
        for _ in range(2):
            out = module(x)[0]
            calls.append(counting.calls)
        with torch.nn.utils.parametrize.cached():
            module(x)
        return calls, counting.calls, out
    check(seeded(case))


# ---- removal -----------------------------------------------------------------------------


@pytest.mark.parametrize("leave_parametrized", [True, False])
def test_removal_restores_the_class_and_keeps_the_original(leave_parametrized):
    def case(torch):
        P = torch.nn.utils.parametrize
        module = torch.nn.Linear(3, 3)
        P.register_parametrization(module, "weight", _make(torch, "Symmetric"))
        P.register_parametrization(module, "bias", _make(torch, "Double"))
        original = module.parametrizations.weight.original
        version = original._version
        P.remove_parametrizations(module, "weight", leave_parametrized=leave_parametrized)
        middle = (_names(torch, module), repr(module), module.weight is original,
                  module.weight, original._version - version)
        P.remove_parametrizations(module, "bias", leave_parametrized=leave_parametrized)
        return (middle, _names(torch, module), repr(module), module.bias,
                P.is_parametrized(module), hasattr(module, "parametrizations"))
    check(seeded(case))


# ---- state_dict, copies, transfer ----------------------------------------------------------


def _symmetric_linear(torch):
    module = torch.nn.Linear(3, 3)
    torch.nn.utils.parametrize.register_parametrization(module, "weight",
                                                        _make(torch, "Symmetric"))
    return module


def test_state_dict_round_trip_and_mismatch():
    def case(torch):
        source, target = _symmetric_linear(torch), _symmetric_linear(torch)
        loaded = repr(target.load_state_dict(source.state_dict()))
        plain = torch.nn.Linear(3, 3)
        loose = target.load_state_dict(plain.state_dict(), strict=False)
        return loaded, target.weight, source.weight, list(loose[0]), list(loose[1])
    check(seeded(case))
    assert_same_error(seeded(
        lambda torch: _symmetric_linear(torch).load_state_dict(
            torch.nn.Linear(3, 3).state_dict())))


def test_a_deep_copy_is_parametrized_and_independent():
    def case(torch):
        module = _symmetric_linear(torch)
        replica = copy.deepcopy(module)
        with torch.no_grad():
            replica.parametrizations.weight.original.add_(1)
        return (type(replica).__name__, repr(replica), module.weight, replica.weight,
                replica.parametrizations.weight.original is
                module.parametrizations.weight.original)
    check(seeded(case))


def test_pickling_a_parametrized_module_is_refused():
    assert_same_error(seeded(lambda torch: pickle.dumps(_symmetric_linear(torch))))
    assert_same_error(seeded(lambda torch: torch.save(_symmetric_linear(torch), io.BytesIO())))


def test_transfer_parametrizations_and_params():
    def case(torch):
        P = torch.nn.utils.parametrize
        source = _symmetric_linear(torch)
        P.register_parametrization(source, "bias", _make(torch, "Double"))
        target = torch.nn.Linear(3, 3)
        P.transfer_parametrizations_and_params(source, target, "weight")
        one = (_names(torch, target), target.weight,
               target.parametrizations.weight.original is
               source.parametrizations.weight.original)
        fresh = torch.nn.Module()
        P.transfer_parametrizations_and_params(source, fresh)
        unparametrized = P.transfer_parametrizations_and_params(torch.nn.Linear(2, 2), fresh)
        return one, _names(torch, fresh), fresh.weight, fresh.bias, unparametrized is fresh
    check(seeded(case))


# ---- misuse: PyTorch's error texts ---------------------------------------------------------


def _register(kind, *args, name="weight", unsafe=False, first=None, module=None):
    """A case registering parametrization `kind` (made with `args`) on a Linear(3, 4) (or
    `module`), after `first` if given."""
    def case(torch):
        P = torch.nn.utils.parametrize
        target = torch.nn.Linear(3, 4) if module is None else module(torch)
        if first is not None:
            P.register_parametrization(target, name, _make(torch, *first))
        return P.register_parametrization(target, name, _make(torch, kind, *args),
                                          unsafe=unsafe)
    return case


def _square(torch):
    return torch.nn.Linear(3, 3)


REGISTRATION_ERRORS = {
    "no such tensor": _register("Double", name="scale"),
    "shape changed": _register("Returns", lambda X: X.T),
    "dtype changed": _register("Returns", lambda X: X.double()),
    "not a tensor": _register("Returns", lambda X: 3),
    "right_inverse not a tensor": _register("Returns", None, lambda X: 3),
    "right_inverse element not a tensor": _register("Returns", None, lambda X: (X, 3)),
    "right_inverse changed dtype": _register("Returns", None, lambda X: X.double(),
                                             unsafe=True),
    "chained shape": _register("Returns", lambda X: X.T, first=("Double",)),
    "chained dtype": _register("Returns", lambda X: X.double(), first=("Double",)),
    "chained not a tensor": _register("Returns", lambda X: [X], first=("Double",)),
    "chained right_inverse not a tensor": _register("Returns", None, lambda X: (X,),
                                                    first=("Double",)),
    "chained right_inverse dtype": _register("Returns", None, lambda X: X.double(),
                                             first=("Double",)),
    "chained right_inverse shape": _register("Returns", None, lambda X: X[:1],
                                             first=("Double",)),
    "symmetric of a non-square matrix": _register("Symmetric"),
}


@pytest.mark.parametrize("mistake", sorted(REGISTRATION_ERRORS))
def test_registration_errors_as_torchs(mistake):
    assert_same_error(seeded(REGISTRATION_ERRORS[mistake]))


def _assign(kind, value, *args, after=None):
    """A case assigning `value(torch)` to the weight of a Linear(3, 3) parametrized with
    `kind` (`after(parametrization)` run before the assignment)."""
    def case(torch):
        module = torch.nn.Linear(3, 3)
        parametrization = _make(torch, kind, *args)
        torch.nn.utils.parametrize.register_parametrization(module, "weight", parametrization)
        if after is not None:
            after(parametrization)
        module.weight = value(torch)
    return case


def _set(name, value):
    return lambda parametrization: setattr(parametrization, name, value)


ASSIGNMENT_ERRORS = {
    "no right_inverse": _assign("Skew", lambda torch: torch.ones(3, 3)),
    "other dtype": _assign("Symmetric", lambda torch: torch.ones(3, 3, dtype=torch.float64)),
    "right_inverse not a tensor": _assign(
        "Returns", lambda torch: torch.ones(3, 3), after=_set("inverse", lambda X: [X])),
    "right_inverse not a sequence": _assign(
        "Halves", lambda torch: torch.ones(3, 3),
        after=_set("right_inverse", lambda X: X)),
    "right_inverse of another length": _assign(
        "Halves", lambda torch: torch.ones(3, 3), after=_set("parts", 1)),
    "element of another dtype": _assign(
        "Halves", lambda torch: torch.ones(3, 3, dtype=torch.float64)),
    "a Parameter": _assign("Symmetric", lambda torch: torch.nn.Parameter(torch.ones(3, 3))),
}


@pytest.mark.parametrize("mistake", sorted(ASSIGNMENT_ERRORS))
def test_assignment_errors_as_torchs(mistake):
    assert_same_error(seeded(ASSIGNMENT_ERRORS[mistake]))


def test_an_element_that_is_not_a_tensor_on_assignment():
    def case(torch):
        module = torch.nn.Linear(3, 3)
        halves = _make(torch, "Halves")
        torch.nn.utils.parametrize.register_parametrization(module, "weight", halves)
        halves.right_inverse = lambda X: [X, "lower"]
        module.weight = torch.ones(3, 3)
    assert_same_error(case)


def _remove(name, leave_parametrized=True, kind="Double"):
    def case(torch):
        P = torch.nn.utils.parametrize
        module = torch.nn.Linear(3, 3)
        P.register_parametrization(module, "weight", _make(torch, kind))
        P.remove_parametrizations(module, name, leave_parametrized)
    return case


def _remove_unsafe_dtype(name):
    """A case leaving parametrized a tensor whose dtype an unsafe parametrization changed."""
    def case(torch):
        P = torch.nn.utils.parametrize
        module = torch.nn.BatchNorm1d(3)
        P.register_parametrization(module, name, _make(torch, "Returns", lambda X: X.double()),
                                   unsafe=True)
        P.remove_parametrizations(module, name)
    return case


@pytest.mark.parametrize("case", [
    _remove("bias"), _remove("missing"), _remove("weight", False, "Halves"),
    _remove_unsafe_dtype("weight"), _remove_unsafe_dtype("running_mean")],
    ids=["not parametrized", "no such tensor", "several originals left unparametrized",
         "a parameter of another dtype", "a buffer of another dtype"])
def test_removal_errors_as_torchs(case):
    assert_same_error(case)


def test_an_empty_parametrization_list_is_refused():
    assert_same_error(lambda torch: torch.nn.utils.parametrize.ParametrizationList(
        [], torch.ones(2)))
