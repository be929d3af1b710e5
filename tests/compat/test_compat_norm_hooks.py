"""The legacy hooks nn.utils.weight_norm/remove_weight_norm and nn.utils.spectral_norm/
remove_spectral_norm against PyTorch 2.13: parameters and buffers (``weight_g``,
``weight_v``; ``weight_orig``, ``weight_u``, ``weight_v``), the weight recomputed before each
forward (the power iteration's vectors after the same seed, in training and evaluation
mode), gradients, optimizer steps, state_dicts (a version-0 spectral_norm checkpoint too),
removal, weight_norm's deprecation warning and PyTorch's error texts."""
import copy
import warnings

import pytest

from compat_harness import assert_same_error, check, gradients, module_output, seeded, trained

DEPRECATED = ("`torch.nn.utils.weight_norm` is deprecated in favor of "
              "`torch.nn.utils.parametrizations.weight_norm`.")
pytestmark = pytest.mark.filterwarnings(f"ignore:{DEPRECATED}:FutureWarning")


def _names(module):
    return (type(module).__name__, [name for name, _ in module.named_parameters()],
            [name for name, _ in module.named_buffers()], list(module.state_dict()),
            len(module._forward_pre_hooks))


def _buffers(module):
    return [buffer.clone() for _, buffer in module.named_buffers()]


KINDS = {
    "linear": (lambda nn: nn.Linear(5, 3), "weight", lambda torch: torch.randn(2, 5)),
    "conv1d": (lambda nn: nn.Conv1d(2, 3, 3), "weight", lambda torch: torch.randn(1, 2, 6)),
    "conv2d": (lambda nn: nn.Conv2d(2, 4, 2), "weight", lambda torch: torch.randn(1, 2, 4, 4)),
    "conv_transpose1d": (lambda nn: nn.ConvTranspose1d(3, 2, 2), "weight",
                         lambda torch: torch.randn(1, 3, 4)),
    "embedding": (lambda nn: nn.Embedding(6, 3), "weight",
                  lambda torch: torch.tensor([[0, 5, 2]])),
    "rnn": (lambda nn: nn.RNN(3, 4), "weight_hh_l0", lambda torch: torch.randn(2, 1, 3)),
}


# ---- weight_norm -------------------------------------------------------------------------


def test_weight_norm_warns_as_deprecated():
    def case(torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            torch.nn.utils.weight_norm(torch.nn.Linear(2, 2))
        return [(w.category.__name__, str(w.message)) for w in caught]
    assert check(case) == [("FutureWarning", DEPRECATED)]


@pytest.mark.parametrize("kind, dim", [(kind, 0) for kind in sorted(KINDS)] + [
    ("linear", 1), ("linear", None), ("conv2d", 2), ("conv1d", -2)])
def test_weight_norm_computes_trains_and_saves_as_torchs(kind, dim):
    make, name, input = KINDS[kind]

    def case(torch):
        module = torch.nn.utils.weight_norm(make(torch.nn), name, dim)
        registered = (_names(module), repr(module), getattr(module, name))
        x = input(torch)
        out = module_output(module, x)
        out.square().sum().backward()
        after_steps = trained(torch, module, x)
        module_output(module, x)  # the hook recomputes the weight from the trained g and v
        return (registered, out, gradients(module), after_steps, getattr(module, name),
                module.state_dict())
    check(seeded(case))


def test_remove_weight_norm():
    def case(torch):
        utils = torch.nn.utils
        module = utils.weight_norm(torch.nn.Linear(3, 4))
        trained(torch, module, torch.randn(2, 3))
        utils.remove_weight_norm(module)
        return _names(module), module.weight, module.weight.is_leaf
    check(seeded(case))


# ---- spectral_norm -----------------------------------------------------------------------


@pytest.mark.parametrize("n_power_iterations", [1, 2])
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_spectral_norm_after_a_seed_is_torchs(kind, n_power_iterations):
    make, name, input = KINDS[kind]

    def case(torch):
        module = torch.nn.utils.spectral_norm(make(torch.nn), name, n_power_iterations)
        registered = (_names(module), repr(module), getattr(module, name), _buffers(module))
        x = input(torch)
        training = []
        for _ in range(3):
            out = module_output(module, x)
            out.sum().backward()
            training.append((out, getattr(module, name), _buffers(module)))
        module.eval()
        evaluation = [(module_output(module, x), _buffers(module)) for _ in range(2)]
        module.train()
        return (registered, training, gradients(module), evaluation,
                trained(torch, module, x), module.state_dict())
    check(seeded(case))


def test_spectral_norm_state_dict_round_trip_and_removal():
    def case(torch):
        utils = torch.nn.utils
        source = utils.spectral_norm(torch.nn.Linear(4, 3))
        target = utils.spectral_norm(torch.nn.Linear(4, 3))
        source(torch.randn(2, 4))
        loaded = repr(target.load_state_dict(source.state_dict()))
        target(torch.randn(2, 4))
        utils.remove_spectral_norm(target)
        return loaded, _names(target), target.weight, source.weight
    check(seeded(case))


def test_spectral_norm_loads_a_version_0_state_dict():
    # (A tall weight: the conversion inverts W^T W, which must then be invertible.)
    def case(torch):
        utils = torch.nn.utils
        source = utils.spectral_norm(torch.nn.Linear(3, 5))
        source(torch.randn(2, 3))
        state = dict(source.state_dict())
        state["weight"] = source.weight.detach()  # version 0 kept the weight, not v
        del state["weight_v"]
        target = utils.spectral_norm(torch.nn.Linear(3, 5))
        loaded = repr(target.load_state_dict(state))
        return loaded, target.weight_v, source.weight_v, list(state), target(torch.ones(1, 3))
    check(seeded(case), rtol=1e-4, atol=1e-5)


def test_a_plain_state_dict_into_spectral_norm():
    def case(torch):
        module = torch.nn.utils.spectral_norm(torch.nn.Linear(4, 3))
        loose = module.load_state_dict(torch.nn.Linear(4, 3).state_dict(), strict=False)
        return list(loose[0]), list(loose[1])
    check(seeded(case))
    assert_same_error(seeded(lambda torch: torch.nn.utils.spectral_norm(
        torch.nn.Linear(4, 3)).load_state_dict(torch.nn.Linear(4, 3).state_dict())))


def test_the_load_hook_outlives_remove_spectral_norm_as_in_torch():
    def case(torch):
        utils = torch.nn.utils
        module = utils.remove_spectral_norm(utils.spectral_norm(torch.nn.Linear(4, 3)))
        module.load_state_dict(torch.nn.Linear(4, 3).state_dict())
    assert_same_error(seeded(case))


# ---- misuse: PyTorch's error texts ---------------------------------------------------------

ERRORS = {
    "weight_norm twice": lambda torch: torch.nn.utils.weight_norm(
        torch.nn.utils.weight_norm(torch.nn.Linear(2, 3))),
    "weight_norm of a missing parameter": lambda torch: torch.nn.utils.weight_norm(
        torch.nn.Linear(2, 3), "scale"),
    "weight_norm of a buffer": lambda torch: torch.nn.utils.weight_norm(
        torch.nn.BatchNorm1d(3), "running_mean"),
    "weight_norm of a lazy module": lambda torch: torch.nn.utils.weight_norm(
        torch.nn.LazyLinear(3)),
    "weight_norm dim out of range": lambda torch: torch.nn.utils.weight_norm(
        torch.nn.Linear(2, 3), dim=3),
    "deepcopy with weight_norm": lambda torch: copy.deepcopy(
        torch.nn.utils.weight_norm(torch.nn.Linear(2, 3))),
    "remove_weight_norm without one": lambda torch: torch.nn.utils.remove_weight_norm(
        torch.nn.utils.spectral_norm(torch.nn.Linear(2, 3))),
    "spectral_norm twice": lambda torch: torch.nn.utils.spectral_norm(
        torch.nn.utils.spectral_norm(torch.nn.Linear(2, 3))),
    "spectral_norm of a missing parameter": lambda torch: torch.nn.utils.spectral_norm(
        torch.nn.Linear(2, 3), "scale"),
    "spectral_norm of None": lambda torch: torch.nn.utils.spectral_norm(
        torch.nn.Linear(2, 3, bias=False), "bias"),
    "spectral_norm of a lazy module": lambda torch: torch.nn.utils.spectral_norm(
        torch.nn.LazyLinear(3)),
    "spectral_norm without iterations": lambda torch: torch.nn.utils.spectral_norm(
        torch.nn.Linear(2, 3), n_power_iterations=0),
    "remove_spectral_norm without one": lambda torch: torch.nn.utils.remove_spectral_norm(
        torch.nn.utils.weight_norm(torch.nn.Linear(2, 3)), "weight"),
}


@pytest.mark.parametrize("mistake", sorted(ERRORS))
def test_errors_as_torchs(mistake):
    assert_same_error(seeded(ERRORS[mistake]))
