"""compat.nn.utils.parametrizations (weight_norm, spectral_norm, orthogonal) against PyTorch
2.13: after the same seed, the same power-iteration vectors and normalized weights over
several forward calls in training and evaluation mode, the same orthogonal matrices for each
map; gradients, optimizer steps, state_dicts (the legacy weight_norm's loading too),
assignment, reprs, removal and PyTorch's error texts."""
import pytest

from compat_harness import (assert_same_error, check, check_printed, gradients, module_output,
                            seeded, trained)


def _names(module):
    return (type(module).__name__, [name for name, _ in module.named_parameters()],
            [name for name, _ in module.named_buffers()], list(module.state_dict()))


# ---- weight_norm -------------------------------------------------------------------------

WEIGHT_NORM_KINDS = {
    "linear": (lambda nn: nn.Linear(4, 3), "weight", lambda torch: torch.randn(2, 4)),
    "conv1d": (lambda nn: nn.Conv1d(2, 3, 3), "weight", lambda torch: torch.randn(1, 2, 6)),
    "conv2d": (lambda nn: nn.Conv2d(2, 3, 2), "weight", lambda torch: torch.randn(1, 2, 4, 4)),
    "embedding": (lambda nn: nn.Embedding(5, 3), "weight",
                  lambda torch: torch.tensor([[0, 4, 2]])),
    "rnn": (lambda nn: nn.RNN(3, 4), "weight_hh_l0", lambda torch: torch.randn(3, 1, 3)),
    "bias": (lambda nn: nn.Linear(4, 3), "bias", lambda torch: torch.randn(2, 4)),
}
WEIGHT_NORM_CASES = [(kind, 0) for kind in WEIGHT_NORM_KINDS] + [
    ("linear", 1), ("linear", None), ("linear", -1), ("linear", -2), ("conv1d", 1),
    ("conv1d", 2), ("conv2d", 2), ("conv2d", None)]


@pytest.mark.parametrize("kind, dim", WEIGHT_NORM_CASES)
def test_weight_norm_computes_trains_and_saves_as_torchs(kind, dim):
    make, name, input = WEIGHT_NORM_KINDS[kind]

    def case(torch):
        module = torch.nn.utils.parametrizations.weight_norm(make(torch.nn), name, dim)
        chain = module.parametrizations[name]
        x = input(torch)
        out = module_output(module, x)
        out.square().sum().backward()
        return (_names(module), getattr(module, name), chain.original0, chain.original1,
                out, gradients(module), trained(torch, module, x), getattr(module, name),
                module.state_dict())
    check(seeded(case))


@pytest.mark.parametrize("dim", [0, 1, None])
def test_weight_norm_loads_a_legacy_state_dict(dim):
    def case(torch):
        utils = torch.nn.utils
        legacy = utils.weight_norm(torch.nn.Linear(3, 4), dim=dim)
        modern = utils.parametrizations.weight_norm(torch.nn.Linear(3, 4), dim=dim)
        state = legacy.state_dict()
        result = modern.load_state_dict(state)
        return repr(result), list(state), modern.weight, legacy.weight, modern.state_dict()
    with pytest.warns(FutureWarning, match="`torch.nn.utils.weight_norm` is deprecated"):
        check(seeded(case))


def test_weight_norm_with_a_mismatched_state_dict():
    def case(torch):
        module = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(3, 4))
        loose = module.load_state_dict(torch.nn.Linear(3, 4).state_dict(), strict=False)
        return list(loose[0]), list(loose[1])
    check(seeded(case))
    assert_same_error(seeded(lambda torch: torch.nn.utils.parametrizations.weight_norm(
        torch.nn.Linear(3, 4)).load_state_dict(torch.nn.Linear(3, 4).state_dict())))


def test_weight_norm_removed():
    def case(torch):
        P = torch.nn.utils.parametrize
        module = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(3, 4))
        value = module.weight
        P.remove_parametrizations(module, "weight")
        return _names(module), module.weight, value, module.weight.is_leaf
    check(seeded(case))
    assert_same_error(seeded(lambda torch: torch.nn.utils.parametrize.remove_parametrizations(
        torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(3, 4)), "weight",
        leave_parametrized=False)))


# ---- spectral_norm -----------------------------------------------------------------------

SPECTRAL_KINDS = {
    "linear": (lambda nn: nn.Linear(5, 3), "weight", lambda torch: torch.randn(2, 5)),
    "linear64": (lambda nn: nn.Linear(5, 3).double(), "weight",
                 lambda torch: torch.randn(2, 5, dtype=torch.float64)),
    "conv1d": (lambda nn: nn.Conv1d(2, 3, 3), "weight", lambda torch: torch.randn(1, 2, 6)),
    "conv2d": (lambda nn: nn.Conv2d(2, 4, 2), "weight", lambda torch: torch.randn(1, 2, 4, 4)),
    "conv_transpose2d": (lambda nn: nn.ConvTranspose2d(3, 2, 2), "weight",
                         lambda torch: torch.randn(1, 3, 3, 3)),
    "embedding": (lambda nn: nn.Embedding(6, 3), "weight",
                  lambda torch: torch.tensor([[0, 5, 2]])),
    "rnn": (lambda nn: nn.RNN(3, 4), "weight_hh_l0", lambda torch: torch.randn(2, 1, 3)),
    "bias": (lambda nn: nn.Linear(5, 3), "bias", lambda torch: torch.randn(2, 5)),
}


def _vectors(module, name):
    spectral = module.parametrizations[name][0]
    return [tensor.clone() for _, tensor in spectral.named_buffers()]


@pytest.mark.parametrize("n_power_iterations", [1, 3])
@pytest.mark.parametrize("kind", sorted(SPECTRAL_KINDS))
def test_spectral_norm_after_a_seed_is_torchs(kind, n_power_iterations):
    make, name, input = SPECTRAL_KINDS[kind]

    def case(torch):
        module = torch.nn.utils.parametrizations.spectral_norm(
            make(torch.nn), name, n_power_iterations)
        x = input(torch)
        registered = _vectors(module, name)
        training = []
        for _ in range(3):  # each access steps the power iteration
            out = module_output(module, x)
            out.sum().backward()
            training.append((out, getattr(module, name), _vectors(module, name)))
        module.eval()
        evaluation = [(module_output(module, x), _vectors(module, name)) for _ in range(2)]
        module.train()
        return (_names(module), registered, training, gradients(module), evaluation,
                trained(torch, module, x), module.state_dict())
    check(seeded(case))


@pytest.mark.parametrize("dim", [1, -1, 2])
def test_spectral_norm_along_another_dimension(dim):
    def case(torch):
        module = torch.nn.utils.parametrizations.spectral_norm(torch.nn.Conv2d(2, 4, 3), dim=dim)
        x = torch.randn(1, 2, 5, 5)
        weights = [module.weight for _ in range(2)]
        module(x).sum().backward()
        return weights, _vectors(module, "weight"), gradients(module)
    check(seeded(case))


def test_spectral_norm_registered_in_eval_mode_steps_no_further():
    def case(torch):
        module = torch.nn.Linear(4, 3).eval()
        torch.nn.utils.parametrizations.spectral_norm(module)
        return ([m.training for m in module.modules()], _vectors(module, "weight"),
                module.weight, module.weight)
    check(seeded(case))


def test_spectral_norm_under_cached_steps_once():
    def case(torch):
        P = torch.nn.utils.parametrize
        module = torch.nn.utils.parametrizations.spectral_norm(torch.nn.Linear(4, 3))
        with P.cached():
            first, second = module.weight, module.weight
            vectors = _vectors(module, "weight")
        return first is second, vectors, module.weight, _vectors(module, "weight")
    check(seeded(case))


def test_spectral_norm_after_weight_norm():
    def case(torch):
        parametrizations = torch.nn.utils.parametrizations
        module = parametrizations.spectral_norm(
            parametrizations.weight_norm(torch.nn.Linear(4, 3)))
        x = torch.randn(2, 4)
        module(x).sum().backward()
        return (_names(module), repr(module), module.weight, _vectors(module, "weight"),
                gradients(module))
    check(seeded(case))


def test_spectral_norm_state_dict_round_trip_and_removal():
    def case(torch):
        parametrizations = torch.nn.utils.parametrizations
        source = parametrizations.spectral_norm(torch.nn.Linear(4, 3))
        target = parametrizations.spectral_norm(torch.nn.Linear(4, 3))
        loaded = repr(target.load_state_dict(source.state_dict()))
        value = target.weight
        torch.nn.utils.parametrize.remove_parametrizations(target, "weight")
        return loaded, value, _names(target), target.weight, _vectors(source, "weight")
    check(seeded(case))


def test_reprs_print_as_torchs():
    def case(torch):
        parametrizations = torch.nn.utils.parametrizations
        print(parametrizations.weight_norm(torch.nn.Linear(3, 4)))
        print(parametrizations.spectral_norm(torch.nn.Conv2d(2, 3, 2)))
        rnn = parametrizations.weight_norm(torch.nn.RNN(2, 2), "weight_hh_l0")
        print(parametrizations.spectral_norm(rnn, "weight_hh_l0"))
    check_printed(seeded(case))


# ---- orthogonal --------------------------------------------------------------------------

# In float64: PyTorch's float32 matrix_exp rounds more than compat's (after three steps its
# small gradients differ from float64's by 1e-3 relative, compat's by 1e-6).
ORTHOGONAL_KINDS = {
    "square": (lambda nn: nn.Linear(4, 4), (2, 4)),
    "tall": (lambda nn: nn.Linear(3, 5), (2, 3)),
    "wide": (lambda nn: nn.Linear(5, 3), (2, 5)),
    "batch": (lambda nn: nn.Conv1d(2, 4, 3), (1, 2, 6)),
}


def _orthogonal_cases():
    for kind in ORTHOGONAL_KINDS:
        for orthogonal_map in (None, "matrix_exp", "cayley", "householder"):
            for trivialization in (True, False):
                yield kind, orthogonal_map, trivialization


def _orthogonalized(torch, target):
    """`target` (a matrix or batch) with orthonormal columns, or rows if it is wide."""
    wide = target.size(-2) < target.size(-1)
    Q = torch.linalg.qr(target.mT if wide else target)[0]
    return Q.mT if wide else Q


@pytest.mark.parametrize("kind, orthogonal_map, use_trivialization", list(_orthogonal_cases()))
def test_orthogonal_computes_trains_and_assigns_as_torchs(kind, orthogonal_map,
                                                          use_trivialization):
    make, shape = ORTHOGONAL_KINDS[kind]

    def case(torch):
        module = torch.nn.utils.parametrizations.orthogonal(
            make(torch.nn).double(), orthogonal_map=orthogonal_map,
            use_trivialization=use_trivialization)
        registered = (_names(module), module.weight, module.state_dict())
        x = torch.randn(*shape, dtype=torch.float64)
        out = module(x)
        out.square().sum().backward()
        first = (out, gradients(module))
        after_steps = (trained(torch, module, x), module.weight)
        target = _orthogonalized(torch, torch.randn(module.weight.shape, dtype=torch.float64))
        try:
            module.weight = target
        except NotImplementedError as error:  # matrix_exp and cayley without a base
            return registered, first, after_steps, str(error)
        return registered, first, after_steps, target, module.weight, module.state_dict()
    check(seeded(case))


@pytest.mark.parametrize("dtype", ["float32", "complex64"])
@pytest.mark.parametrize("orthogonal_map", [None, "cayley"])
def test_orthogonal_in_single_precision(dtype, orthogonal_map):
    def case(torch):
        module = torch.nn.utils.parametrizations.orthogonal(
            torch.nn.Linear(3, 3, dtype=getattr(torch, dtype)), orthogonal_map=orthogonal_map)
        module.weight.abs().sum().backward()
        return module.weight, module.parametrizations.weight[0].base, gradients(module)
    check(seeded(case))


ORTHOGONAL_ERRORS = {
    "a vector": lambda torch: torch.nn.utils.parametrizations.orthogonal(
        torch.nn.Linear(3, 4), "bias"),
    "a missing tensor": lambda torch: torch.nn.utils.parametrizations.orthogonal(
        torch.nn.Linear(3, 4), "scale"),
    "an unknown map": lambda torch: torch.nn.utils.parametrizations.orthogonal(
        torch.nn.Linear(3, 4), orthogonal_map="qr"),
    "complex householder": lambda torch: torch.nn.utils.parametrizations.orthogonal(
        torch.nn.Linear(3, 4, dtype=torch.complex64), orthogonal_map="householder"),
    "assigned another shape": lambda torch: setattr(
        torch.nn.utils.parametrizations.orthogonal(torch.nn.Linear(3, 4)), "weight",
        torch.eye(3)),
}


@pytest.mark.parametrize("mistake", sorted(ORTHOGONAL_ERRORS))
def test_orthogonal_errors_as_torchs(mistake):
    assert_same_error(seeded(ORTHOGONAL_ERRORS[mistake]))


# ---- misuse: PyTorch's error texts ---------------------------------------------------------

ERRORS = {
    "weight_norm of a missing tensor": lambda torch: torch.nn.utils.parametrizations
    .weight_norm(torch.nn.Linear(3, 4), "scale"),
    "weight_norm dim out of range": lambda torch: torch.nn.utils.parametrizations
    .weight_norm(torch.nn.Linear(3, 4), dim=2),
    "spectral_norm of a missing tensor": lambda torch: torch.nn.utils.parametrizations
    .spectral_norm(torch.nn.Linear(3, 4), "scale"),
    "spectral_norm dim out of range": lambda torch: torch.nn.utils.parametrizations
    .spectral_norm(torch.nn.Linear(3, 4), dim=2),
    "spectral_norm negative dim out of range": lambda torch: torch.nn.utils.parametrizations
    .spectral_norm(torch.nn.Conv1d(3, 4, 2), dim=-4),
    "spectral_norm without iterations": lambda torch: torch.nn.utils.parametrizations
    .spectral_norm(torch.nn.Linear(3, 4), n_power_iterations=0),
}


@pytest.mark.parametrize("mistake", sorted(ERRORS))
def test_errors_as_torchs(mistake):
    assert_same_error(seeded(ERRORS[mistake]))
