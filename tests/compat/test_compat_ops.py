"""compat's operations against PyTorch: values, dtypes, gradients and grad_fn names."""
import numpy as np
import pytest

from compat_harness import (assert_same_error, check, check_printed, grad_fn_name,
                            graph, run_both)

POSITIVE = [[1.0, 2.0], [3.0, 0.5]]
# Zeros, ties and negatives: where derivatives have kinks and conventions matter.
MIXED = [[-1.5, 0.0], [2.0, 2.0]]

# Expressions in `x` (a 2x2 float32 leaf) for every operation with autograd.
EXPRESSIONS = [
    "x * 2", "2 * x", "x + 3", "x * x", "x / 2", "2 / x", "x ** 2", "2 ** x", "x ** x",
    "x - 1", "1 - x", "-x", "x.exp()", "x.log()", "x.sin()", "x.cos()", "x.tanh()",
    "x.sigmoid()", "x.sqrt()", "x.reciprocal()", "x.square()", "x.pow(2.0)",
    "x.add(x, alpha=2)", "x.sub(x.t(), alpha=0.5)", "torch.add(x, x)", "torch.mul(x, x)",
    "x.div(x.t())", "x + torch.tensor(2.)", "torch.tensor(2.) + x",
    "x.sum()", "x.sum(0)", "x.sum(dim=1, keepdim=True)", "x.mean()", "x.mean(1)",
    "x.mean((0, 1))", "x.prod()", "x.prod(0)", "x.std()", "x.std(0)", "x.var()", "x.var(1)",
    "x.var(0, unbiased=False)", "x.norm()", "x.norm(dim=1)", "x.norm(1)", "x.cumsum(0)",
    "x.cumsum(1)", "x.amax(0)", "x.softmax(0)", "x.log_softmax(1)", "torch.softmax(x, 1)",
    "x.mm(x)", "x @ x", "x.matmul(x)", "x[0].dot(x[1])", "torch.matmul(x, x[0])",
    "torch.matmul(x[0], x)", "x.t()", "x.T", "x.transpose(0, 1)", "x.permute(1, 0)",
    "x.view(4)", "x.view(-1, 1)", "x.reshape(4)", "x.t().reshape(4)", "x.flatten()",
    "x.expand(3, 2, 2)", "x.unsqueeze(0)", "x[None].squeeze()", "x[None].squeeze(0)",
    "torch.cat([x, x])", "torch.cat([x, x * 2], 1)", "torch.stack([x, x])",
    "torch.stack([x, x], 1)", "x[0]", "x[:, 1]", "x[[0, 1]]", "x[0, 1]", "x[0:1]", "x[:]",
    "x[..., 0]", "x[None]", "x[:, None]", "x.clone()", "x.double()", "x.double() * x",
    "x.exp().log()", "x.sum(1).sum()", "(1 / 2) * torch.sum(x)", "x % 2", "x % x.t()",
    "torch.div(x, 2, rounding_mode='floor')", "torch.div(x, 2, rounding_mode='trunc')",
    "torch.positive(x)", "x.conj()", "torch.fft.fft(x).conj().abs()",
]
KINKED = [
    "x.relu()", "x.abs()", "x.clamp(min=0)", "x.clamp(max=0)", "x.clamp(-1, 1)",
    "torch.clamp(x, min=0)", "x.clamp_min(0)", "x.clamp_max(0)", "x.max()", "x.min()",
    "x.max(0)[0]", "x.min(1)[0]", "x.max(0, keepdim=True)[0]", "torch.maximum(x, x.t())",
    "torch.minimum(x, x.t())", "torch.where(x > 0, x, x * 2)", "torch.where(x > 0, x, 0.)",
    "x.masked_fill(x > 0, 0.)", "x.masked_fill(x > 0, x[0, 0])", "x[x > 0]", "x.norm()",
]


def _gradient_case(expression, values):
    def case(torch):
        x = torch.tensor(values, requires_grad=True)
        y = eval(expression, {"torch": torch, "x": x})
        y.backward(torch.ones_like(y) if y.dim() else None)
        return y, x.grad, graph(y)
    return case


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_operation_matches_torch(expression):
    check(_gradient_case(expression, POSITIVE))


@pytest.mark.parametrize("expression", KINKED)
def test_derivative_at_kinks_and_ties_matches_torch(expression):
    check(_gradient_case(expression, MIXED))


def test_batched_matmul_matches_torch_values():
    def case(torch):
        a = torch.tensor(np.arange(12.0).reshape(3, 2, 2), dtype=torch.float32,
                         requires_grad=True)
        b = torch.tensor([[1.0, -1.0], [0.5, 2.0]], requires_grad=True)
        y = torch.matmul(a, b)
        y.sum().backward()
        return y, a.grad, b.grad, type(y.grad_fn).__name__
    check(case)


PROMOTIONS = [
    "torch.ones(2) * 2.5", "torch.ones(2, dtype=torch.int32) * 2.5", "torch.tensor(3) * 2.5",
    "torch.tensor([1, 2]) / torch.tensor([2, 2])", "torch.tensor([1, 2]) + 1.5",
    "torch.tensor([True]) + 1", "torch.tensor([True]) + True",
    "torch.tensor(2.0, dtype=torch.float64) * torch.ones(2)",
    "torch.ones(2) * torch.ones(2, dtype=torch.float64)",
    "torch.arange(3) + torch.ones(3)", "torch.arange(3) * torch.tensor(2.5, dtype=torch.float64)",
    "torch.tensor([1, 2], dtype=torch.int32) + torch.tensor(5)",
    "torch.tensor([1, 2], dtype=torch.uint8) + torch.tensor([1], dtype=torch.int8)",
    "torch.tensor([1, 2]).sum()", "torch.tensor([True, True]).sum()",
    "torch.tensor([1, 2], dtype=torch.uint8).sum()", "torch.arange(4).exp()",
    "torch.arange(4) ** 2", "torch.arange(4) > 1.5", "torch.ones(2) == torch.ones(2).double()",
    "torch.arange(4).float().mean()", "torch.ones(2, dtype=torch.float64).sum().dtype",
    "torch.tensor([1.5, -2.5]).long()", "torch.arange(3).clamp(min=1)",
    "torch.tensor([1, 2]).double().type()", "torch.tensor([[1, 2]]).t().prod()",
    "torch.arange(7) // 2", "torch.arange(7) % 3", "torch.arange(-3, 4) // 2.0",
]


@pytest.mark.parametrize("expression", PROMOTIONS)
def test_dtype_promotion_matches_torch(expression):
    check(lambda torch: eval(expression, {"torch": torch}))


FACTORIES = [
    "torch.arange(5)", "torch.arange(5.)", "torch.arange(1, 4, 0.5)", "torch.arange(2, 9, 3)",
    "torch.linspace(0, 1, 5)", "torch.eye(2, 3)", "torch.eye(3)", "torch.full((2,), 3)",
    "torch.full((2, 1), 3.)", "torch.full((1,), True)", "torch.zeros(2, 3)",
    "torch.ones((2, 3), dtype=torch.float64)", "torch.ones(2, requires_grad=True)",
    "torch.zeros_like(torch.ones(2, dtype=torch.int64))", "torch.ones_like(torch.eye(2))",
    "torch.full_like(torch.ones(2), 7)", "torch.tensor(3.5)", "torch.tensor([[1, 2], [3, 4]])",
    "torch.tensor([True, False])", "torch.tensor([1.0, 2.0], dtype=torch.float64)",
    "torch.tensor(np.array([1.0, 2.0]))", "torch.tensor(np.array([1, 2], np.int32))",
    "torch.tensor([], dtype=torch.float32)", "torch.FloatTensor([1.0, 2.0])",
    "torch.DoubleTensor([1, 2])", "torch.LongTensor([[1], [2]])", "torch.Tensor([[0, 1]])",
    "torch.Tensor()", "torch.Tensor(3, 4).shape", "torch.FloatTensor(2).shape",
    "torch.Tensor(torch.Size([2, 3])).shape", "torch.FloatTensor(2, torch.tensor(3)).shape",
    "torch.FloatTensor(2, torch.tensor([3])).shape", "torch.randn(3, 4).shape",
    "torch.rand(2).dtype", "torch.randn(2, dtype=torch.float64).dtype",
    "torch.randint(0, 5, (3,)).dtype", "torch.randperm(4).sort()[0] if False else 0",
    "torch.empty(2, 3).shape", "torch.from_numpy(np.arange(3.0))",
    "torch.as_tensor([1, 2])", "torch.tensor([[1, 2]]).size()", "torch.ones(2, 3).size(1)",
    # Python complex numbers: the default float's complex dtype (compat dropped their
    # imaginary parts into the default float)
    "torch.tensor([1 + 1j, 2])", "torch.tensor(1j)", "torch.tensor([[1, 2j], [3, 4]])",
    "torch.tensor([1 + 1j, 0], dtype=torch.bool)", "torch.tensor([2j], dtype=torch.complex128)",
]


@pytest.mark.parametrize("expression", FACTORIES)
def test_factory_matches_torch(expression):
    check(lambda torch: eval(expression, {"torch": torch, "np": np}))


def test_complex_numbers_in_the_default_float64_are_complex128_as_in_torch():
    def case(torch):
        torch.set_default_dtype(torch.float64)
        try:
            return torch.tensor([1j, 2.0])
        finally:
            torch.set_default_dtype(torch.float32)
    check(case)


@pytest.mark.parametrize("expression", [
    "torch.tensor([1 + 1j], dtype=torch.float32)", "torch.tensor([2, 1j], dtype=torch.int64)",
    "torch.tensor([np.complex128(1j)], dtype=torch.int32)"])
def test_complex_numbers_in_a_real_dtype_raise_torchs_error(expression):
    assert_same_error(lambda torch: eval(expression, {"torch": torch, "np": np}))


def test_tensor_conversions_match_torch():
    def case(torch):
        a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        scalar = torch.tensor(3.14159)
        return (a.size(), a.size(0), a.shape, a.dim(), a.numel(), a.type(), a.long().type(),
                a.dtype, a.is_leaf, (a * 2).is_leaf, a.float() is a, a.double().dtype,
                a.type(torch.DoubleTensor).dtype, a.type("torch.DoubleTensor").type(),
                a.to(torch.float64).dtype, scalar.item(), torch.tensor([5]).item(),
                torch.tensor([[1, 2]]).tolist(), f"{scalar:.2f}", float(torch.tensor([2.5])),
                int(torch.tensor(3)), len(a), [r.tolist() for r in a.detach()],
                isinstance(a, torch.FloatTensor), isinstance(a, torch.DoubleTensor),
                a.detach().numpy().tolist(), torch.is_tensor(a), a.is_floating_point())
    check(case)


def test_from_numpy_shares_memory_like_torch():
    def case(torch):
        array = np.ones(3, np.float32)
        t = torch.from_numpy(array)
        t.add_(1)
        array[0] = 10
        return t, array.tolist(), np.shares_memory(t.numpy(), array)
    check(case)


INDEXING = [
    "a[0]", "a[:, 1]", "a[a > 1]", "a[[1, 0]]", "a[1, 1]", "a[..., 0]", "a[None].shape",
    "a[0][1]", "a[-1]", "a[1:]", "a[::2]", "a[:, None, 0]", "a[torch.tensor([0, 0])]",
    "a[torch.tensor([True, False])]", "a[0, torch.tensor([1, 0])]", "a[5]", "a[0, 0, 0]",
]


@pytest.mark.parametrize("expression", INDEXING)
def test_indexing_matches_torch(expression):
    def case(torch):
        a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        y = eval(expression, {"torch": torch, "a": a})
        if isinstance(y, torch.Tensor) and y.requires_grad:
            y.sum().backward()
            return y, a.grad, graph(y)
        return y
    check(case)


SETITEM = [
    ("b[b > 0] = 0", False), ("b[0] = 5", False), ("b[:, 1] = v[:2]", True),
    ("b[[0, 1], [1, 0]] = v[:2]", True), ("b[1] = v[:2] * 2", True), ("b[0, 0] = v[2]", True),
    ("b[b < 2] = v[0]", True), ("b[:] = 1", False),
    ("b[0, 0][b[0, 0] > 0] = v[2]", True), ("b[1, 1][b[1, 1] > 9] = 0", False),  # 0-d masks
]


@pytest.mark.parametrize("statement, uses_v", SETITEM)
def test_index_assignment_matches_torch(statement, uses_v):
    def case(torch):
        a = torch.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)
        v = torch.tensor([7.0, 8.0, 9.0], requires_grad=True)
        b = a * 1
        exec(statement, {"torch": torch, "b": b, "v": v})
        (b * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
        return b, a.grad, v.grad if uses_v else None, graph(b)
    check(case)


def test_index_assignment_without_grad_matches_torch():
    def case(torch):
        b = torch.zeros(2, 3)
        b[0] = 1
        b[:, 2] = torch.tensor([4.0, 5.0])
        b[b == 0] = -1
        c = torch.arange(6)
        c[c > 2] = 0
        return b, c
    check(case)


INPLACE = [
    "b.add_(1)", "b.sub_(x)", "b.mul_(x)", "b.div_(2)", "b.clamp_(min=1.5)", "b.zero_()",
    "b.fill_(2.5)", "b.copy_(x.t())", "b.copy_(torch.ones(2))", "b += x", "b -= 1",
    "b *= x", "b /= 4", "b.neg_()", "b.exp_()", "b.pow_(2)",
]


@pytest.mark.parametrize("statement", INPLACE)
def test_inplace_operation_matches_torch(statement):
    def case(torch):
        x = torch.tensor([[1.0, 2.0], [3.0, 0.5]], requires_grad=True)
        b = x * 1
        exec(statement, {"torch": torch, "b": b, "x": x})
        (b * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
        return b, x.grad, graph(b)
    check(case)


def test_inplace_on_plain_tensors_matches_torch():
    def case(torch):
        a = torch.ones(2, 2)
        a.add_(torch.tensor([1.0, 2.0])).mul_(3)
        a -= 1
        i = torch.arange(4)
        i += 2
        i.clamp_(max=4)
        return a, i, torch.zeros(2).fill_(1.5)
    check(case)


def test_inplace_result_type_error_matches_torch():
    check(lambda torch: torch.arange(3).add_(1.5))


REDUCTIONS_WITH_INDICES = ["m.max(1)", "m.min(0)", "m.max(dim=0, keepdim=True)",
                           "torch.max(m, 1)", "m.argmax()", "m.argmin(1)"]


@pytest.mark.parametrize("expression", REDUCTIONS_WITH_INDICES)
def test_values_and_indices_match_torch(expression):
    def case(torch):
        m = torch.tensor([[1.0, 5.0, 5.0], [3.0, 2.0, -1.0]], requires_grad=True)
        result = eval(expression, {"torch": torch, "m": m})
        if isinstance(result, tuple):
            result.values.sum().backward()
            return result.values, result.indices, m.grad, repr(result)
        return result
    check(case)


# chunk, split, unbind and tensor_split, on a non-leaf `a` (2x3), vectors `v` (4) and `u`
# (1) and `e`, a 0x3 tensor: pieces (some empty), sizes as lists, tuples and tensors,
# indices out of order and past the end.
PIECES = [
    "a.chunk(2, 1)", "torch.chunk(v, 3)", "v.chunk(10)", "a.chunk(3, -1)", "e.chunk(3)",
    "a.split(2, 1)", "torch.split(v, [1, 3])", "v.split(3)", "a.split([0, 3], 1)",
    "a.split((1, 1), 0)", "v.split(torch.tensor(3))", "e.split(0)", "e.split([0, 0])",
    "torch.split(e, [])", "a.unbind()", "torch.unbind(a, 1)", "a.unbind(-1)", "v.unbind()",
    "u.unbind(0)", "torch.tensor_split(v, 3)", "a.tensor_split([1, 2], dim=1)",
    "v.tensor_split([3, 1])", "v.tensor_split((-2, 7))", "v.tensor_split(torch.tensor([1, 3]))",
    "v.tensor_split(torch.tensor(3))", "v.tensor_split([])", "e.tensor_split(2)",
]


def _pieces_of(expression, torch):
    """The pieces `expression` makes of the inputs named in it, those inputs by name, and
    the leaves they are computed from."""
    leaves = [torch.tensor([[0.5, -1.2, 2.0], [1.5, 0.3, -0.7]], requires_grad=True),
              torch.tensor([3.0, 1.0, 2.0, 5.0], requires_grad=True),
              torch.tensor([2.0], requires_grad=True), torch.ones(0, 3, requires_grad=True)]
    inputs = {name: leaf * 1 for name, leaf in zip("avue", leaves)}
    return eval(expression, {"torch": torch, **inputs}), inputs, leaves


def _base_name(piece, inputs):
    return next((name for name, t in inputs.items() if piece._base is t), None)


@pytest.mark.parametrize("expression", PIECES)
def test_pieces_match_torch(expression):
    """Values, gradients and grad_fn names; each piece a view of its input, one node for
    all the pieces but tensor_split's (which are separate slices), and the output of
    that node each piece is (the index in next_functions of what uses it)."""
    def case(torch):
        pieces, inputs, leaves = _pieces_of(expression, torch)
        loss = 0
        for piece in pieces:  # a weight per element, so that every gradient entry counts
            weights = torch.linspace(0.5, 1.5, piece.numel()).reshape(piece.shape)
            loss = loss + (piece * weights).sum()
        if pieces:
            loss.backward()
        return (pieces, [leaf.grad for leaf in leaves], [graph(p) for p in pieces],
                [graph(p * 1) for p in pieces], [_base_name(p, inputs) for p in pieces],
                [p.grad_fn is pieces[0].grad_fn for p in pieces])
    check(case)


@pytest.mark.parametrize("expression", ["a.chunk(2, 1)", "a.split([1, 2], 1)", "v.unbind()",
                                        "a.tensor_split(2, 1)"])
def test_pieces_share_their_inputs_version_like_torch(expression):
    """Modifying a piece in place modifies its input: a node that saved the input (exp's
    result, here) then refuses to backward, as PyTorch's does."""
    def case(torch):
        pieces, inputs, _ = _pieces_of(expression, torch)
        saved = inputs[expression[0]].exp()
        with torch.no_grad():
            pieces[-1].mul_(2)
        saved.sum().backward()
    check(case)


@pytest.mark.parametrize("expression", ["y.chunk(2, 1)", "y.split([1, 3], 1)", "y.unbind(1)",
                                        "y.tensor_split([1, 3], 1)"])
def test_double_backward_through_pieces_matches_torch(expression):
    def case(torch):
        x = torch.tensor([[0.5, -1.2, 2.0, 0.1], [1.5, 0.3, -0.7, 0.2]], requires_grad=True)
        pieces = eval(expression, {"y": x * x})
        total = sum((piece ** 3).sum() * (i + 1) for i, piece in enumerate(pieces))
        (g,) = torch.autograd.grad(total, x, create_graph=True)
        (g * g).sum().backward()
        return g, x.grad
    check(case)


@pytest.mark.parametrize("expression", ["x.chunk(2, 1)", "x.split([3, 1], 1)", "x.unbind(1)",
                                        "x.tensor_split([1, 2], 1)", "x[0].unbind()"])
def test_pieces_of_a_tensor_without_grad_are_views_like_torch(expression):
    def case(torch):
        x = torch.zeros(2, 4)
        pieces = eval(expression, {"x": x})
        pieces[-1].add_(1)
        return x, [p._base is x for p in pieces], [p.requires_grad for p in pieces]
    check(case)


ERRORS = [
    "torch.ones(2, 3).mm(torch.ones(2, 3))", "torch.ones(2, 3).t().view(-1)",
    "torch.ones(2).mm(torch.ones(2, 2))", "torch.ones(3) + torch.ones(2)",
    "torch.ones(2).dot(torch.ones(3))", "torch.arange(3).mean()",
    "torch.ones(2, 2).mm(torch.ones(2, 2, dtype=torch.float64))",
    "torch.ones(2, 2).transpose(0, 2)", "torch.ones(2).sum(1)", "torch.ones(2, 2)[0, 0, 0]",
    "torch.ones(2).item()", "bool(torch.ones(2))", "torch.stack([torch.ones(2), torch.ones(3)])",
    "torch.ones(2, 2).expand(3, 3)", "torch.arange(3).requires_grad_()",
    "torch.tensor([1, 2], requires_grad=True)", "torch.ones(2).expand(2, 2).add_(1)",
    "torch.ones(2, requires_grad=True).numpy()", "torch.cat([])",
]


@pytest.mark.parametrize("expression", ERRORS)
def test_error_type_matches_torch(expression):
    check(lambda torch: eval(expression, {"torch": torch}))


PRINTED = [
    "torch.ones(1, 2, requires_grad=True)", "torch.tensor([3., 15.], requires_grad=True).mean()",
    "torch.tensor([1, 2])", "torch.tensor([1e-5, 1e5])", "torch.tensor([1.23456789])",
    "torch.tensor([1, 2], dtype=torch.int32)", "torch.tensor([True, False])",
    "torch.ones(2, dtype=torch.float64, requires_grad=True)", "torch.arange(30.) * 1.5",
    "torch.arange(2000.)", "torch.tensor(2.5) * torch.ones(1, requires_grad=True)",
    "torch.ones(2).size()", "torch.ones(2).dtype", "torch.float64",
    "torch.ones(2, 2, requires_grad=True).max(1)",
]


@pytest.mark.parametrize("expression", PRINTED)
def test_printed_text_matches_torch(expression):
    check_printed(lambda torch: print(eval(expression, {"torch": torch})))


def test_random_draws_repeat_after_manual_seed():
    import compat
    compat.manual_seed(3)
    first = [compat.randn(2, 3), compat.rand(4), compat.randint(0, 10, (5,)),
             compat.randperm(6), compat.zeros(3).normal_(0.0, 2.0), compat.ones(2).uniform_(-1, 1)]
    compat.manual_seed(3)
    again = [compat.randn(2, 3), compat.rand(4), compat.randint(0, 10, (5,)),
             compat.randperm(6), compat.zeros(3).normal_(0.0, 2.0), compat.ones(2).uniform_(-1, 1)]
    for a, b in zip(first, again):
        assert a.dtype == b.dtype and a.tolist() == b.tolist()
    assert first[0].dtype == compat.float32 and first[2].dtype == compat.int64
    assert 0 <= first[1].min().item() and first[1].max().item() < 1
    assert -1 <= first[5].min().item() and first[5].max().item() <= 1


VIEW_UPDATES = [
    "a[0].mul_(10)", "a[:, 1:][1, 0] = 100.", "a.t()[2].add_(a[1, 0])", "a[1][a[1] > 4] = 0",
    "a.view(6)[::2].zero_()", "a[0, 1:].copy_(x[1, :2] * 3)", "a.view(3, 2).clamp_(max=3)",
]


@pytest.mark.parametrize("statement", VIEW_UPDATES)
def test_inplace_update_of_a_view_rewrites_its_base_like_torch(statement):
    def case(torch):
        x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        a = x * 1
        exec(statement, {"torch": torch, "a": a, "x": x})
        (a * torch.arange(6.0).view(2, 3)).sum().backward()
        return a, x.grad, graph(a)
    check(case)


def test_inplace_on_a_view_of_a_leaf_raises_like_torch():
    def case(torch):
        x = torch.ones(2, 3, requires_grad=True)
        x[0].add_(1)
    check(case)


def test_inplace_update_of_a_view_of_a_plain_tensor_like_torch():
    def case(torch):
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        buffer = torch.zeros(2, 2)
        buffer[0].add_(w * 3)
        buffer[:, 1].mul_(w)
        (buffer * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
        return buffer, w.grad, graph(buffer)
    check(case)


# A float tensor with a Python float or int takes compat's shortcut past the dtype lookup
# (`_ops._float_and_number`, and its inline copy in the operators, `_methods`); a bool, an
# integer tensor or an alpha takes the general path, a tensor that does not require grad
# the unrecorded one.
NUMBER_EXPRESSIONS = [
    "x + n", "n + x", "x - n", "n - x", "x * n", "n * x", "x / n", "n / x",
    "torch.add(x, n)", "torch.sub(x, n)", "torch.mul(x, n)", "torch.div(x, n)",
    "x.add(n)", "x.sub(n)", "x.mul(n)", "x.div(n)", "x.add(n, alpha=2)", "x.sub(n, alpha=2)",
    "x.long() * n", "x.long() + n", "x.detach() * n", "n + x.detach()", "x.detach() / n",
]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
# (float16 with numbers beyond its range: test_compat_half_opmath.py.)
@pytest.mark.parametrize("number", [2.5, -3, 6000, 1e-3, True])
@pytest.mark.parametrize("expression", NUMBER_EXPRESSIONS)
def test_float_tensor_with_a_python_number_matches_torch(expression, number, dtype):
    def case(torch):
        x = torch.tensor([[1.5, -2.0], [0.25, 3.0]], dtype=getattr(torch, dtype),
                         requires_grad=True)
        y = eval(expression, {"torch": torch, "x": x, "n": number})
        gradient = (torch.autograd.grad(y.sum(), x)[0] if y.requires_grad else None)
        return y, y.dtype, gradient, graph(y)
    check(case, rtol=0 if dtype == "float16" else 1e-5, atol=0 if dtype == "float16" else 1e-6)


TENSOR_EXPRESSIONS = ["x + y", "x - y", "x * y", "y - x", "torch.add(x, y)", "x.sub(y)",
                      "x.mul(y)", "x + y[0]", "x[:, :1] * y", "x.t() - y.t()"]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("expression", TENSOR_EXPRESSIONS)
def test_tensors_of_one_float_dtype_match_torch(expression, dtype):
    # add, sub and mul of two tensors of one float dtype skip the dtype lookups: values,
    # dtype, graph and both gradients as PyTorch's, broadcasting and strides included.
    def case(torch):
        x = torch.tensor([[1.5, -2.0], [0.25, 3.0]], dtype=getattr(torch, dtype),
                         requires_grad=True)
        y = torch.tensor([[0.1, 700.0], [-0.0, 1e-3]], dtype=getattr(torch, dtype),
                         requires_grad=True)
        out = eval(expression, {"torch": torch, "x": x, "y": y})
        gradients = torch.autograd.grad(out.sum(), (x, y))
        return out, out.dtype, out.stride(), gradients, graph(out)
    check(case, rtol=0, atol=0)


def test_tensors_of_one_float_dtype_that_do_not_broadcast_raise_torchs_error():
    def case(torch):
        with pytest.raises(RuntimeError) as error:
            torch.ones(2, 3) - torch.ones(4, 3)
        return str(error.value)
    check(case)


# Squares and clamps on their fast paths (a Python number, a float tensor): bit for bit,
# signed zeros, infinities, subnormals and float16 overflow included; NaN below.
_SPECIAL = [-np.inf, -70000.0, -2.5, -1e-40, -0.0, 0.0, 1e-40, 0.5, 300.0, np.inf]
_SQUARES = ["x.pow(2)", "x ** 2", "x.pow(2.0)", "x.square()"]
_CLAMPS = ["x.clamp(min=0)", "x.clamp(min=-0.0)", "x.clamp(min=0.5)", "x.clamp(min=-1)",
           "x.clamp(min=0).pow(2)"]


def _bits(t):
    """A tensor's values as comparable bits, NaN payloads aside (NaN is compared by place)."""
    values = t.detach().numpy()
    return np.isnan(values), np.where(np.isnan(values), 0, values).view(f"u{values.itemsize}")


def _check_bit_for_bit(expression, dtype, values):
    def case(torch):
        x = torch.tensor(values, dtype=getattr(torch, dtype), requires_grad=True)
        y = eval(expression, {"x": x, "torch": torch})
        y.backward(torch.ones_like(y))
        return y, x.grad
    (ours, our_grad), (theirs, their_grad) = run_both(case)
    assert grad_fn_name(ours) == grad_fn_name(theirs)
    for mine, torch_s, where in ((ours, theirs, "value"), (our_grad, their_grad, "grad")):
        assert mine.dtype.itemsize == torch_s.dtype.itemsize
        for a, b in zip(_bits(mine), _bits(torch_s)):
            np.testing.assert_array_equal(a, b, err_msg=f"{expression}: {where}")


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")  # float16's 70000
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("expression", _SQUARES + _CLAMPS)
def test_square_and_clamp_match_torch_bit_for_bit(expression, dtype):
    _check_bit_for_bit(expression, dtype, _SPECIAL)


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")  # float16's 70000
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("expression", _CLAMPS + ["torch.clamp(x, min=0.0)"])
def test_clamp_of_a_large_array_matches_torch_bit_for_bit(expression, dtype):
    # From 1,024 elements funcgrad's where selects by bits (a ReLU's value and mask among
    # them): values and gradients are still PyTorch's, NaN and signed zeros included.
    _check_bit_for_bit(expression, dtype, np.tile(_SPECIAL + [np.nan], 110))


@pytest.mark.parametrize("expression", _SQUARES)
def test_square_of_nan_matches_torch(expression):
    _check_bit_for_bit(expression, "float32", [np.nan, -np.nan, 1.0])


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("expression", [
    "x.clamp(min=0)", "x.clamp(max=0)", "x.clamp(-1, 1)", "x.clamp(1, -1)", "x.relu()",
    "torch.nn.functional.relu(x)", "x.clamp_min(0.0)", "x.clamp_max(0.0)",
    "x.clamp(min=torch.zeros(5))"])
def test_clamp_and_relu_at_nan_and_signed_zeros_match_torch(expression, dtype):
    # PyTorch's masks: clamp's derivative is 1 where min <= x <= max (0 at NaN), relu's
    # where x > 0 or NaN; both keep NaN and -0.0 in their value.
    _check_bit_for_bit(expression, dtype, [np.nan, -0.0, 0.0, -1.0, 2.0])


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("expression", [
    "x.clamp(min=float('nan'))", "x.clamp(max=float('nan'))", "x.clamp_min(float('nan'))",
    "x.clamp_max(float('nan'))",
    "x.clamp(min=torch.tensor([float('nan'), 0.0, 0.0, 0.0, float('nan')], dtype=x.dtype))",
    "x.clamp(max=torch.tensor([float('nan'), 0.0, 0.0, 0.0, float('nan')], dtype=x.dtype))"])
def test_clamp_by_one_nan_bound_matches_torch(expression, dtype):
    # A NaN bound gives NaN where it applies, and a zero derivative there.
    _check_bit_for_bit(expression, dtype, [np.nan, -0.0, 0.0, -1.0, 2.0])


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("expression", [
    "torch.maximum(x, y)", "torch.minimum(x, y)", "torch.max(x, y)", "torch.min(x, y)",
    "x.maximum(y)", "x.minimum(y)", "torch.maximum(x, y[:1])", "torch.minimum(x[:1], y)"])
def test_maximum_and_minimum_at_nan_and_ties_match_torch(expression, dtype):
    # PyTorch's derivative: both operands get the whole gradient where either is NaN, half
    # each at a tie, all to the larger (smaller) one elsewhere. (Which zero a tie of -0.0
    # and 0.0 gives differs between PyTorch's scalar and vectorised loops: not compared.)
    def case(torch):
        x, y = (torch.tensor(v, dtype=getattr(torch, dtype), requires_grad=True)
                for v in ([np.nan, 1.0, np.nan, 2.0, -0.5, 3.0, -1.0],
                          [0.0, np.nan, np.nan, 2.0, -0.5, -3.0, 4.0]))
        z = eval(expression, {"x": x, "y": y, "torch": torch})
        z.backward(torch.arange(1.0, z.numel() + 1, dtype=z.dtype))
        return z, x.grad, y.grad
    (ours, *our_grads), (theirs, *their_grads) = run_both(case)
    assert grad_fn_name(ours) == grad_fn_name(theirs)
    for mine, torch_s, where in zip((ours, *our_grads), (theirs, *their_grads),
                                    ("value", "x.grad", "y.grad")):
        for a, b in zip(_bits(mine), _bits(torch_s)):
            np.testing.assert_array_equal(a, b, err_msg=f"{expression}: {where}")


@pytest.mark.parametrize("expression", [
    "s[1:]", "s[::-1]", "s[0]", "s + (5,)", "(1,) + s", "s + torch.Size([1])", "s * 2",
    "2 * s", "s.numel()", "s.count(3)", "s.index(4)", "s == (2, 3, 4)"])
def test_size_arithmetic_gives_sizes_as_torch(expression):
    def case(torch):
        s = torch.ones(2, 3, 4).shape
        value = eval(expression, {"torch": torch, "s": s})
        return repr(value), type(value).__name__
    check(case)


@pytest.mark.parametrize("expression", [
    "x.is_complex()", "z.is_complex()", "torch.is_complex(z)", "x.is_signed()",
    "u.is_signed()", "b.is_signed()", "x.is_conj()", "torch.is_conj(z)", "x.is_neg()",
    "torch.is_neg(x)", "x.is_shared()", "x.is_pinned()", "x.is_sparse", "x.is_quantized",
    "x.is_meta", "x.is_mkldnn", "x.is_nested", "one.is_nonzero()", "zero.is_nonzero()",
    "nan.is_nonzero()", "torch.is_nonzero(one)", "x.is_nonzero()", "empty.is_nonzero()",
    "x.is_same_size(x.view(2, 1))", "x.is_same_size(x + 1)", "torch.is_same_size(x, one)",
    "x.is_set_to(x.view(2))", "x.is_set_to(x.clone())", "x.is_set_to(x[:1])",
    "torch.is_storage(x)"])
def test_predicates_answer_as_torch(expression):
    def case(torch):
        names = {"torch": torch, "x": torch.ones(2), "z": torch.ones(2, dtype=torch.complex64),
                 "u": torch.ones(2, dtype=torch.uint8), "b": torch.ones(2, dtype=torch.bool),
                 "one": torch.ones(1), "zero": torch.zeros(()), "nan": torch.tensor(float("nan")),
                 "empty": torch.ones(0)}
        return eval(expression, names)
    check(case, messages=True)
