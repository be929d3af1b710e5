"""slice_scatter, select_scatter, diagonal_scatter and the *_copy functions against
PyTorch 2.13: values, strides, grad_fn names, the gradients of the input and of src, and
the errors, word for word."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from compat_harness import assert_same_error, check


def _leaves(torch, shape, transposed):
    """A leaf, and a tensor of `shape` made of it (laid out transposed if asked)."""
    numel = torch.Size(shape).numel()
    leaf = torch.linspace(-1.0, 2.0, numel, requires_grad=True)
    x = leaf.reshape(shape[::-1]).transpose(0, -1) if transposed else leaf.reshape(shape)
    return leaf, x


def _source(torch, shape):
    numel = torch.Size(shape).numel()
    leaf = torch.linspace(3.0, 4.0, numel, requires_grad=True)
    return leaf, leaf.reshape(shape)


def _strides(t):
    """t's strides but those of dimensions of length 1, where compat keeps NumPy's (see
    docs/guide-compat.md)."""
    return tuple(None if n == 1 else step for step, n in zip(t.stride(), t.shape))


def _weighted_sum(t, torch):
    return (t * torch.linspace(0.5, 1.5, t.numel()).reshape(t.shape)).sum()


shapes = st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple)


@given(shape=shapes, transposed=st.booleans(), data=st.data())
def test_slice_scatter_as_torch(shape, transposed, data):
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    start = data.draw(st.one_of(st.none(), st.integers(-5, 5)))
    end = data.draw(st.one_of(st.none(), st.integers(-5, 5)))
    step = data.draw(st.integers(1, 3))

    def case(torch):
        leaf, x = _leaves(torch, shape, transposed)
        index = (slice(None),) * (dim % len(shape)) + (slice(start, end, step),)
        src_leaf, src = _source(torch, x[index].shape)
        out = torch.slice_scatter(x, src, dim, start, end, step)
        method = x.slice_scatter(src, dim=dim, start=start, end=end, step=step)
        _weighted_sum(out * method, torch).backward()
        return out, _strides(out), method, leaf.grad, src_leaf.grad
    check(case)


@given(shape=shapes, transposed=st.booleans(), data=st.data())
def test_select_scatter_as_torch(shape, transposed, data):
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    index = data.draw(st.integers(-shape[dim], shape[dim] - 1))

    def case(torch):
        leaf, x = _leaves(torch, shape, transposed)
        src_leaf, src = _source(torch, x.select(dim, index).shape)
        out = torch.select_scatter(x, src, dim, index)
        method = x.select_scatter(src, dim, index)
        _weighted_sum(out * method, torch).backward()
        return out, _strides(out), method, leaf.grad, src_leaf.grad
    check(case)


@given(shape=st.lists(st.integers(1, 4), min_size=2, max_size=3).map(tuple),
       transposed=st.booleans(), data=st.data())
def test_diagonal_scatter_as_torch(shape, transposed, data):
    dim1, dim2 = data.draw(st.permutations(range(len(shape))))[:2]
    offset = data.draw(st.integers(-4, 4))

    def case(torch):
        leaf, x = _leaves(torch, shape, transposed)
        src_leaf, src = _source(torch, x.diagonal(offset, dim1, dim2).shape)
        out = torch.diagonal_scatter(x, src, offset, dim1, dim2)
        method = x.diagonal_scatter(src, offset=offset, dim1=dim1, dim2=dim2)
        _weighted_sum(out * method, torch).backward()
        return out, _strides(out), method, leaf.grad, src_leaf.grad
    check(case)


def test_scatters_cast_src_to_the_input_dtype_as_torch():
    def case(torch):
        x = torch.zeros(3, 4)
        return (torch.slice_scatter(x, torch.ones(3, 2, dtype=torch.float64), 1, 0, 4, 2),
                torch.select_scatter(x, torch.ones(4, dtype=torch.int64), 0, 1))
    check(case)


@pytest.mark.parametrize("expression", [
    "torch.slice_scatter(x, torch.ones(3, 3), 1, 0, 4, 2)",
    "torch.slice_scatter(x, torch.ones(3, 2), 5)",
    "torch.slice_scatter(x, torch.ones(3, 4), 0, step=0)",
    "torch.slice_scatter(x, torch.ones(3, 2), 1, 3, 1)",
    "torch.slice_scatter(torch.zeros(()), torch.ones(()), 0)",
    "torch.select_scatter(x, torch.ones(4), 0, 3)",
    "torch.select_scatter(x, torch.ones(3), 0, 1)",
    "torch.select_scatter(x, torch.ones(5), 5, 3)",
    "torch.select_scatter(torch.zeros(3), torch.ones(2, 2), 0, 1)",
    "torch.diagonal_scatter(x, torch.ones(2), 1)",
    "torch.diagonal_scatter(x, torch.ones(3), 1, 0, 0)",
    "torch.diagonal_scatter(x, torch.ones(4), 1)",
    "torch.diagonal_scatter(torch.zeros(3), torch.ones(2, 2))",
])
def test_scatter_errors_as_torch(expression):
    def case(torch):
        return eval(expression, {"torch": torch, "x": torch.zeros(3, 4)})
    assert_same_error(case)


# torch.*_copy calls on the 2x3x4 tensor x and its transpose y (x.transpose(0, 2)).
COPIES = [
    "torch.view_copy(x, (4, 6))", "torch.view_copy(y, (-1,))",
    "torch.transpose_copy(x, 0, 2)", "torch.transpose_copy(y, 1, -1)",
    "torch.permute_copy(x, (2, 0, 1))", "torch.permute_copy(y, (1, 0, 2))",
    "torch.expand_copy(x, (2, 2, 3, 4))", "torch.expand_copy(x[:, :1], (2, 3, 4))",
    "torch.t_copy(x[0])", "torch.t_copy(x[0, 0])",
    "torch.diagonal_copy(x)", "torch.diagonal_copy(y, 1, 1, 2)",
    "torch.select_copy(x, 1, 2)", "torch.select_copy(y, -1, 0)",
    "torch.slice_copy(x, 1, 0, 2)", "torch.slice_copy(y, 0, 1, None, 2)",
    "torch.slice_copy(x)",
    "torch.squeeze_copy(x[:, :1])", "torch.squeeze_copy(x[:1], 0)",
    "torch.squeeze_copy(x[:1], (0, 1))",
    "torch.unsqueeze_copy(x, 1)", "torch.unsqueeze_copy(y, -1)",
    "torch.unbind_copy(x, 1)", "torch.unbind_copy(y)",
    "torch.split_copy(x, 2, 1)", "torch.split_copy(y, 3)",
    "torch.split_with_sizes_copy(x, [1, 2], 1)", "torch.split_with_sizes_copy(y, [3, 1])",
    "torch.unfold_copy(x, 2, 2, 1)", "torch.unfold_copy(y, 0, 3, 2)",
    "torch.alias_copy(x)", "torch.alias_copy(y)", "torch.detach_copy(y)",
    "torch.as_strided_copy(x, (2, 2), (1, 1))", "torch.as_strided_copy(y, (3,), (2,), 1)",
    "torch.view_as_real_copy(torch.complex(x, y.transpose(0, 2) * 2))",
    "torch.view_as_complex_copy(x.detach()[..., :2])",
]


def _copy_inputs(torch):
    leaf = torch.linspace(-1.0, 2.0, 24, requires_grad=True)
    x = leaf.reshape(2, 3, 4) * 1.0
    return leaf, x, x.transpose(0, 2)


@pytest.mark.parametrize("expression", COPIES)
def test_copies_as_torch(expression):
    """Values in new row-major memory (no base), the node PyTorch names (``..._copy``) and
    the gradient reaching the leaf."""
    def case(torch):
        leaf, x, y = _copy_inputs(torch)
        out = eval(expression, {"torch": torch, "x": x, "y": y})
        pieces = out if isinstance(out, tuple) else (out,)
        described = [(p, _strides(p), p.is_contiguous(), p._base is None) for p in pieces]
        differentiable = [p for p in pieces if p.requires_grad]
        if differentiable:
            sum(_weighted_sum(p, torch) for p in differentiable).backward()
        return described, leaf.grad
    check(case)


@pytest.mark.parametrize("expression", [
    "torch.t_copy(x)",
    "torch.transpose_copy(x, 0, 3)",
    "torch.view_copy(x, (5,))",
    "torch.expand_copy(y, (2, 2, 3, 4))",
    "torch.slice_copy(x, 0, step=0)",
    "torch.select_copy(x, 0, 2)",
    "torch.view_as_complex_copy(x)",
    "torch.view_as_complex_copy(x[..., :2])",
    "torch.view_as_real_copy(x)",
])
def test_copy_errors_as_torch(expression):
    def case(torch):
        leaf, x, y = _copy_inputs(torch)
        return eval(expression, {"torch": torch, "x": x, "y": y})
    assert_same_error(case)


def test_detach_copy_records_a_node_that_cannot_be_differentiated_as_torch():
    def case(torch):
        leaf, x, y = _copy_inputs(torch)
        out = torch.detach_copy(y)
        out.sum().backward()
    assert_same_error(case)
