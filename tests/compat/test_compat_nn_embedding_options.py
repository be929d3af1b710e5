"""nn.Embedding's and F.embedding's max_norm (the rows looked up renormalised in the weight,
in place) and scale_grad_by_freq (each row's gradient divided by its frequency in the
batch) against PyTorch 2.13: values, the weight afterwards, gradients, the in-place rules,
and PyTorch's errors word for word."""
import pytest

from compat_harness import assert_same_error, check, seeded


@pytest.mark.parametrize("options", [
    {"max_norm": 1.0}, {"max_norm": 0.5, "norm_type": 1.0},
    {"max_norm": 1.5, "norm_type": float("inf")}, {"max_norm": 2.0, "norm_type": 3.0},
    {"scale_grad_by_freq": True}, {"scale_grad_by_freq": True, "padding_idx": 4},
    {"max_norm": 1.0, "scale_grad_by_freq": True, "padding_idx": 0},
])
def test_embedding_options_as_torch(options):
    def case(torch):
        table = torch.nn.Embedding(6, 3, **options)
        indices = torch.tensor([[1, 1, 4], [0, 1, 4], [5, 4, 1]])
        out = table(indices)
        (out * torch.randn(3, 3, 3)).sum().backward()
        return out, table.weight, table.weight.grad, repr(table)
    check(seeded(case))


def test_max_norm_renormalises_the_weight_in_place_as_torch():
    def case(torch):
        weight = torch.tensor([[3., 4.], [0.3, 0.4], [6., 8.], [1., 1.]], requires_grad=True)
        view = weight[:, :]  # sharing the weight's memory, which the update writes
        out = torch.nn.functional.embedding(torch.tensor([[0, 2], [2, 1]]), weight,
                                            max_norm=2.0)
        out.sum().backward()
        return out, weight, view.detach(), weight.grad, weight.is_leaf
    check(case)


@pytest.mark.parametrize("make", ["weight * 2", "weight.exp()"])
def test_max_norm_on_a_saved_weight_is_refused_at_backward_as_torch(make):
    """The renormalisation is an in-place update: a weight some operation saved (exp's
    result) can no longer be differentiated through; one nothing saved (a product's) can."""
    def case(torch):
        weight = torch.tensor([[3., 4.], [0.3, 0.4]], requires_grad=True)
        table = eval(make)
        out = torch.nn.functional.embedding(torch.tensor([0]), table, max_norm=1.0)
        out.sum().backward()
        return out, table, weight.grad
    check(case)


@pytest.mark.parametrize("expression", [
    "F.embedding(torch.tensor([0, 1]), torch.tensor([[3, 4], [0, 1]]), max_norm=1.0)",
    "F.embedding(torch.tensor([0, 5]), torch.tensor([[3., 4], [0, 1]]), max_norm=1.0)",
    "F.embedding(torch.tensor([-3, 5]), torch.tensor([[3., 4], [0, 1]]), max_norm=1.0)",
    "F.embedding(torch.tensor([-1, 0]), torch.tensor([[3., 4], [0, 1]]), max_norm=1.0)",
    "F.embedding(torch.tensor([0.]), torch.tensor([[3., 4], [0, 1]]), max_norm=1.0)",
    "F.embedding(torch.tensor([0]), None)", "F.embedding([0], torch.ones(2, 2))",
    "F.embedding(None, [[1.0]])",
])
def test_embedding_option_errors_as_torch(expression):
    assert_same_error(lambda torch: eval(expression, {"torch": torch,
                                                      "F": torch.nn.functional}))
