"""compat.nn's AdaptiveLogSoftmaxWithLoss against torch 2.13: parameters after the same
seed, forward's (output, loss), gradients, log_prob, predict (each of its three branches),
head_bias and div_value, the repr and the error texts."""
import pytest

from compat_harness import assert_same_error, check, graph, seeded


def _model(torch, **options):
    return torch.nn.AdaptiveLogSoftmaxWithLoss(64, 20, [4, 10, 15], **options)


@pytest.mark.parametrize("options", [{}, {"div_value": 2.0, "head_bias": True},
                                     {"div_value": 3.5, "dtype": "float64"}])
def test_forward_and_gradients(options):
    def case(torch):
        given = dict(options)
        if "dtype" in given:
            given["dtype"] = getattr(torch, given["dtype"])
        model = _model(torch, **given)
        x = torch.randn(9, 64, dtype=model.head.weight.dtype, requires_grad=True)
        target = torch.tensor([0, 5, 12, 19, 3, 4, 10, 16, 9])
        output, loss = model(x, target)
        loss.backward()
        return (repr(model), list(model.state_dict().items()), output, loss, x.grad,
                [p.grad for p in model.parameters()], graph(output))
    check(seeded(case))


@pytest.mark.parametrize("target", [[1, 3, 0], [4, 19, 12], [7]])
def test_targets_of_one_part_only(target):
    def case(torch):
        model = _model(torch)
        x = torch.randn(len(target), 64, requires_grad=True)
        result = model(x, torch.tensor(target))
        result.loss.backward()
        return result, x.grad
    check(seeded(case))


def test_unbatched_input():
    def case(torch):
        model = _model(torch)
        x = torch.randn(64, requires_grad=True)
        result = model(x, torch.tensor(12))
        result.loss.backward()
        return result, graph(result.output), x.grad
    check(seeded(case))


def test_log_prob():
    def case(torch):
        model = _model(torch, head_bias=True)
        x = torch.randn(5, 64, requires_grad=True)
        log_probabilities = model.log_prob(x)
        log_probabilities.exp().sum(1).mean().backward()
        return log_probabilities, log_probabilities.exp().sum(1), x.grad
    check(seeded(case))


@pytest.mark.parametrize("favoured", ["shortlist", "clusters", "mixed"])
def test_predict(favoured):
    """The head's bias pushed towards the shortlist, towards the clusters, or neither."""
    def case(torch):
        model = _model(torch, head_bias=True)
        with torch.no_grad():
            if favoured == "shortlist":
                model.head.bias[:4] += 10
            elif favoured == "clusters":
                model.head.bias[4:] += 10
            else:
                model.head.bias[:4] += 0.5
        x = torch.randn(12, 64)
        return model.predict(x), model.log_prob(x).argmax(1)
    check(seeded(case))


def test_reset_parameters_draws_as_torchs():
    def case(torch):
        model = _model(torch, head_bias=True)
        model.reset_parameters()
        return list(model.state_dict().items())
    check(seeded(case))


@pytest.mark.parametrize("case", [
    lambda torch: _model(torch).__class__(64, 20, []),
    lambda torch: _model(torch).__class__(64, 20, [10, 4]),
    lambda torch: _model(torch).__class__(64, 20, [0, 4]),
    lambda torch: _model(torch).__class__(64, 20, [4, 20]),
    lambda torch: _model(torch).__class__(64, 20, [4, 4]),
    lambda torch: _model(torch).__class__(64, 20, [4.5]),
    lambda torch: _model(torch)(torch.randn(3, 64), torch.tensor([1, 2])),
    lambda torch: _model(torch)(torch.randn(2, 1, 64), torch.tensor([1, 2])),
    lambda torch: _model(torch)(torch.randn(2, 64), torch.tensor(1)),
    lambda torch: _model(torch)(torch.randn(2, 64), torch.tensor([[1, 2]])),
    lambda torch: _model(torch)(torch.randn(2, 64), torch.tensor([1, 20])),
    lambda torch: _model(torch)(torch.randn(2, 64), torch.tensor([-1, 3])),
    lambda torch: _model(torch).log_prob(torch.randn(64)),
])
def test_errors(case):
    assert_same_error(seeded(case))
