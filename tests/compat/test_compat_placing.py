"""index_copy, index_put, put, index_reduce, renorm and unique_consecutive against PyTorch
2.13 beyond the table's generic checks (tests/compat/test_torch_names.py): PyTorch's error
texts word for word, in its order of checks; ties of amax/amin; in-place forms on views and
leaves; the uint8 masks indexing shares with index_put."""
import warnings

import pytest

from compat_harness import assert_same_error, check


def _inputs(torch):
    return {
        "torch": torch,
        "a": torch.tensor([[0.5, -1.2, 2.0], [1.5, 0.3, -0.7]], requires_grad=True),
        "p": torch.tensor([[0.2, 0.5, 0.9], [0.1, 0.7, 0.4]], requires_grad=True),
        "s": torch.tensor(2.0, requires_grad=True),
        "t": torch.tensor([[1.0, 3.0, 3.0], [2.0, 0.0, 3.0]], requires_grad=True),
    }


ERRORS = [
    # index_copy: index shape, dtype; self/source dtypes; scalar source; dimensionality;
    # slice shapes; number of indices; range (no index counted from the end)
    "a.index_copy(1, torch.tensor([[2., 0]]), p[:, :2])",
    "a.index_copy(1, torch.tensor([2, 0], dtype=torch.int32), p[:, :2])",
    "a.index_copy(1, torch.tensor([2, 0, 1]), p[:1, :2].double())",
    "a[0].index_copy(0, torch.tensor([1, 2]), p[0, 0])",
    "a.index_copy(1, torch.tensor([0, 1]), p[:1, :2, None])",
    "a.index_copy(1, torch.tensor([0, 1, 2]), p[:1, :2])",
    "a.index_copy(0, torch.tensor(1), p[0, 0])",
    "a.index_copy(0, torch.tensor(1), p[:2])",
    "a.index_copy(1, torch.tensor([2, -1]), p[:, :2])",
    "s.index_copy(0, torch.tensor([1]), torch.tensor(3.0))",
    "a.index_copy(3, torch.tensor([2, 0]), p[:, :2])",
    "a.index_copy(1, torch.tensor([0, 1]), 1.0)",
    # index_put: too many indices; index dtype; mask shape; broadcast of the indices;
    # values' shape (leading ones not dropped); dtypes; range; argument types
    "a.index_put((torch.tensor([0., 1]), torch.tensor([0, 1]), torch.tensor([0])), p[0])",
    "a.index_put((torch.tensor([0., 1]),), p[0, :3].double())",
    "a.index_put((torch.tensor([True, False, True]),), p[0, :3])",
    "a.index_put((torch.tensor([0, 1]), torch.tensor([0, 1, 2])), p[0, :3].double())",
    "a.index_put((torch.tensor([0, 1]), torch.tensor([0, 5])), p[0, :3].double())",
    "a.index_put((torch.tensor([0, 1]),), torch.tensor([[[1.0]]]))",
    "a.index_put((torch.tensor([], dtype=torch.long),), p[0, :2])",
    "a.index_put((torch.tensor([0, 1]),), torch.tensor(2), accumulate=True)",
    "a.index_put((torch.tensor([0, 1]), torch.tensor([0, -4])), p[0, :2])",
    "a.index_put((torch.tensor([0, 1]), torch.tensor([0, 5])), p[0, :1], accumulate=True)",
    "torch.tensor(1.).index_put((torch.tensor(0),), torch.tensor(2.))",
    "a.index_put((torch.tensor([0, 1]),), 1.0)",
    "a.index_put(torch.tensor([0, 1]), p)",
    # put: index dtype; dtypes; numbers of elements; an empty tensor; range
    "a.put(torch.tensor([[0., 1]]), p[0, :3])",
    "a.put(torch.tensor([0, 10, 1]), p[0, :2].double())",
    "a.put(torch.tensor([0, 1]), p[0])",
    "a[:, :0].put(torch.tensor([0]), p[0, :1])",
    "a.put(torch.tensor([0, -7]), p[0, :2])",
    "a.put([0, 1], p[0, :2])",
    "a.put(torch.tensor([0, 1]), 1.0)",
    # index_reduce: reduction; dim; index shape, dtype; source's dimensions, dtype;
    # number of indices; shapes; range
    "a.index_reduce(3, torch.tensor([0, 1]), p[:, :2], 'sum')",
    "a.index_reduce(3, torch.tensor([0, 1]), p[:, :2], 'amax')",
    "a.index_reduce(1, torch.tensor([[0., 1]]), p[:1, :2].double(), 'amax')",
    "a.index_reduce(1, torch.tensor([0., 7]), p[:, :2], 'amax')",
    "a.index_reduce(1, torch.tensor(1), p[:, 1], 'amax')",
    "a.index_reduce(1, torch.tensor([0, 1]), p[:1, :2].double(), 'amax')",
    "a.index_reduce(1, torch.tensor([0, 5, 1]), p[:1, :2], 'amax')",
    "a.index_reduce(1, torch.tensor([0, 5]), p[:1, :2], 'amax')",
    "s.index_reduce(0, torch.tensor(0), p[0, :1], 'mean')",
    "a.index_reduce(1, torch.tensor([0, -1]), p[:, :2], 'amax')",
    "a.index_reduce(1, [0, 1], p[:, :2], 'amax')",
    # index_add shares index_reduce's checks
    "a.index_add(1, torch.tensor([[0., 1]]), p[:, :2])",
    "a.index_add(1, torch.tensor(1), p[:, 1])",
    "a.index_add(1, torch.tensor([0, 1, 1]), p[:, :2].double())",
    "a[0].index_add(0, torch.tensor(0), p[0, 0])",
    "a.index_add(1, torch.tensor([0, 7]), p[:, :2])",
    # renorm: p; maxnorm; dimensions; dim; dtype
    "a.renorm(-1, 3, -1)", "a[0].renorm(2, 3, -1.5)", "a[0].renorm(2, 3, 1)",
    "a.renorm(2, 2, 1.0)", "a.int().renorm(2, 0, 1)",
    # unique_consecutive: dim of a 0-d tensor, out of range
    "torch.unique_consecutive(torch.tensor(3.0), dim=0)",
    "torch.unique_consecutive(a.detach(), dim=2)",
]


@pytest.mark.parametrize("expression", ERRORS)
def test_errors_are_torchs_word_for_word(expression):
    assert_same_error(lambda torch: eval(expression, _inputs(torch)))


def _gradients(expression):
    def case(torch):
        env = _inputs(torch)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "index_reduce", UserWarning)
            out = eval(expression, env)
        out.backward(torch.linspace(0.5, 1.5, out.numel()).reshape(out.shape))
        return out, [env[name].grad for name in "apst"]
    return case


# Ties of an amax/amin that leaves self out: PyTorch counts self's equal value among the
# ties that share the derivative, and gives self no part of it.
@pytest.mark.parametrize("expression", [
    "t.index_reduce(1, torch.tensor([1, 2, 2]), t * 1, 'amin', include_self=False)",
    "t.index_reduce(1, torch.tensor([1, 2, 2]), t * 1, 'amax', include_self=False)",
    "t.scatter_reduce(1, torch.tensor([[1, 2, 2], [1, 2, 2]]), t * 1, 'amax', "
    "include_self=False)",
    "t.index_reduce(0, torch.tensor([1, 1]), t.flip(0) * 1, 'amax')",
])
def test_ties_share_the_derivative_as_in_torch(expression):
    check(_gradients(expression))


@pytest.mark.parametrize("expression", [
    "torch.tensor([[1, 2], [3, 4]]).index_reduce(0, torch.tensor([0, 0]), "
    "torch.tensor([[-6, -7], [5, 3]]), 'mean', include_self=False)",
    "torch.tensor([[1, 2], [3, 4]]).index_reduce(0, torch.tensor([0, 0]), "
    "torch.tensor([[-6, -7], [5, 3]]), 'mean')",
    "torch.tensor([[1, 2], [3, 4]]).index_reduce(0, torch.tensor([1, 1]), "
    "torch.tensor([[5, 6], [7, 8]]), 'amin', include_self=False)",
    "torch.tensor([[True, False]]).index_reduce(0, torch.tensor([0]), "
    "torch.tensor([[True, True]]), 'amin')",
    "torch.tensor([[1., 2.]], dtype=torch.float64).renorm(2, 1, 1.)",
    "torch.tensor([[3., 4.]]).renorm(2, 0, 4.99999)",
    "torch.zeros(2, 0).renorm(2, 0, 1.)",
    "torch.unique_consecutive(torch.tensor([float('nan'), float('nan'), 1.]), "
    "return_counts=True)",
    "torch.unique_consecutive(torch.tensor([]), return_inverse=True, return_counts=True)",
    "torch.unique_consecutive(torch.zeros(0, 2), return_inverse=True, return_counts=True, "
    "dim=0)",
    "torch.unique_consecutive(torch.tensor(3.0), return_inverse=True, return_counts=True)",
    "torch.tensor([[1, 1], [1, 1], [2, 3]]).unique_consecutive(dim=-1, return_inverse=True)",
])
@pytest.mark.filterwarnings("ignore:index_reduce\\(\\) is in beta:UserWarning")
def test_integer_bool_and_edge_values_as_torch(expression):
    check(lambda torch: eval(expression, {"torch": torch}))


@pytest.mark.parametrize("update", [
    "x.index_copy_(0, torch.tensor([1]), p[:1])",
    "x.index_put_((torch.tensor([0, 1]), torch.tensor([2, 0])), p[0, :2], accumulate=True)",
    "x.put_(torch.tensor([5, 0]), p[1, :2])",
    "x.index_reduce_(1, torch.tensor([0, 0]), p[:, :2], 'prod')",
    "x.renorm_(2, 0, 1.0)",
])
@pytest.mark.filterwarnings("ignore:index_reduce\\(\\) is in beta:UserWarning")
def test_inplace_forms_update_views_and_refuse_leaves_as_torch(update):
    def through_a_view(torch):
        env = _inputs(torch)
        base = env["a"] * 1
        env["x"] = base[:, :]
        out = eval(update, env)
        (base * torch.linspace(0.5, 1.5, 6).reshape(2, 3)).sum().backward()
        return out is env["x"], base, env["a"].grad, env["p"].grad

    def on_a_leaf(torch):
        env = _inputs(torch)
        env["x"] = env["a"]
        return eval(update, env)
    check(through_a_view)
    assert_same_error(on_a_leaf)


@pytest.mark.parametrize("expression", [
    "a[torch.tensor([1, 0], dtype=torch.uint8)]",
    "a.index_put((torch.tensor([1, 0], dtype=torch.uint8),), a[1])",
])
def test_a_uint8_index_is_a_mask_as_in_torch(expression):
    def case(torch):
        a = torch.tensor([[0.5, -1.2, 2.0], [1.5, 0.3, -0.7]])
        with pytest.warns(UserWarning, match="indexing with dtype torch.uint8 is now deprecated"):
            return eval(expression, {"torch": torch, "a": a})
    check(case)


def test_index_reduce_warns_that_it_is_in_beta_as_torch():
    def case(torch):
        torch.set_warn_always(True)  # (PyTorch warns once a process)
        try:
            with pytest.warns(UserWarning, match=r"index_reduce\(\) is in beta") as caught:
                torch.zeros(3).index_reduce(0, torch.tensor([1]), torch.ones(1), "amax")
        finally:
            torch.set_warn_always(False)
        return caught[0].filename
    assert check(case) == __file__


def test_a_put_without_accumulate_writes_the_last_repeated_index_as_torch():
    check(lambda torch: torch.zeros(4).put(torch.tensor([1, 1, -3]), torch.tensor([1., 2., 3.])))
