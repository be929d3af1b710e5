"""torch.as_strided, Tensor.as_strided_ and as_strided_scatter against PyTorch 2.13: values,
strides and storage offsets of views into a tensor's storage (from the storage of a view's
base), writes through them showing in the base, AsStridedBackward0's gradient (windows
that overlap add up), grad_fn names, and the errors, word for word."""
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

import compat
from compat_harness import assert_same_error, check, run_both

# Inputs over a storage of `n` elements: the base itself, or one of its views.
_INPUTS = {
    "base": lambda base: base,
    "tail": lambda base: base[2:],
    "every other": lambda base: base[1::2],
    "transposed": lambda base: base[:12].view(3, 4).t(),
}


@st.composite
def geometries(draw, max_dims=3):
    """(size, stride, storage_offset or None) of a view of a storage of 14 elements: mostly
    within it, sometimes past its end (PyTorch's error); perhaps of no elements."""
    ndim = draw(st.integers(0, max_dims))
    size = tuple(draw(st.lists(st.integers(0, 4), min_size=ndim, max_size=ndim)))
    stride = tuple(draw(st.lists(st.integers(0, 4), min_size=ndim, max_size=ndim)))
    span = 1 + sum((n - 1) * step for n, step in zip(size, stride)) if all(size) else 0
    offset = draw(st.one_of(st.none(), st.integers(0, max(14 - span, 0))))
    return size, stride, offset


def _storage(torch):
    leaf = torch.linspace(-1.0, 2.0, 14, requires_grad=True)
    return leaf, leaf * 1.5  # a base with a history, whose views may be updated in place


def _weighted_sum(t, torch):
    return (t * torch.linspace(0.5, 1.5, t.numel()).reshape(t.shape)).sum()


@given(geometry=geometries(), source=st.sampled_from(sorted(_INPUTS)))
def test_as_strided_views_storage_as_torch(geometry, source):
    """Values, strides, storage offset, base and grad_fn of the view, and the gradient
    (overlapping windows adding up) reaching the leaf; out-of-bounds views raise PyTorch's
    error word for word."""
    size, stride, offset = geometry

    def case(torch):
        leaf, base = _storage(torch)
        view = torch.as_strided(_INPUTS[source](base), size, stride, offset)
        _weighted_sum(view, torch).backward()
        return view, view.stride(), view.storage_offset(), view._base is base, leaf.grad
    check(case, messages=True)


@given(geometry=geometries(), source=st.sampled_from(sorted(_INPUTS)))
def test_as_strided_method_and_copy_as_torch(geometry, source):
    """Tensor.as_strided is torch.as_strided; as_strided_copy the same values in new
    row-major memory (AsStridedBackward0_copy)."""
    size, stride, offset = geometry

    def case(torch):
        leaf, base = _storage(torch)
        view = _INPUTS[source](base).as_strided(size, stride, offset)
        copy = torch.as_strided_copy(_INPUTS[source](base), size, stride, offset)
        _weighted_sum(view + copy, torch).backward()
        # (compat gives a copy of no elements NumPy's strides: see docs/guide-compat.md)
        return view, copy, copy.numel() and copy.stride(), copy._base is None, leaf.grad
    check(case, messages=True)


def test_as_strided_of_an_expanded_tensor_shares_the_gradient_out_as_torch():
    """Elements of the input that share a storage element (an expand's) share its
    gradient equally."""
    def case(torch):
        leaf = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        view = torch.as_strided(leaf.expand(2, 3), (2, 2), (1, 1))
        _weighted_sum(view, torch).backward()
        return view, leaf.grad
    check(case)


@given(geometry=geometries(max_dims=2), source=st.sampled_from(sorted(_INPUTS)))
def test_writes_through_an_as_strided_view_show_in_the_base_as_torch(geometry, source):
    """An unrecorded write into the view is a write into the base's memory and the other
    way round."""
    size, stride, offset = geometry

    def case(torch):
        base = torch.arange(14.0)
        view = torch.as_strided(_INPUTS[source](base), size, stride, offset)
        view.fill_(-1.0)
        written = base.clone()
        base.mul_(2.0)
        return written, view
    check(case, messages=True)


@st.composite
def separate_windows(draw, length):
    """(size, stride, offset or None) of a view into `length` elements whose elements do
    not overlap (updates in place of overlapping elements are undefined in PyTorch)."""
    ndim = draw(st.integers(0, 2))
    size = tuple(draw(st.lists(st.integers(1, 3), min_size=ndim, max_size=ndim)))
    stride = [1] * ndim
    for d in reversed(range(ndim - 1)):  # each step past the inner dimensions' span
        stride[d] = stride[d + 1] * size[d + 1] + draw(st.integers(0, 1))
    span = 1 + sum((n - 1) * step for n, step in zip(size, stride))
    offset = draw(st.one_of(st.none(), st.integers(0, length - span)))
    return size, tuple(stride), offset


@given(geometry=separate_windows(14))
def test_recorded_updates_through_an_as_strided_view_as_torch(geometry):
    """A recorded in-place update of the view updates its base (CopySlices), and the
    gradient reaches the leaf through both."""
    size, stride, offset = geometry

    def case(torch):
        leaf, base = _storage(torch)
        view = torch.as_strided(base, size, stride, offset)
        view.mul_(3.0)
        _weighted_sum(base, torch).backward()
        return base, view, leaf.grad
    check(case, messages=True)


@given(geometry=geometries(), source=st.sampled_from(sorted(_INPUTS)))
def test_as_strided_in_place_as_torch(geometry, source):
    """as_strided_ gives the tensor itself the view's sizes, strides and storage offset
    (AsStridedBackward1)."""
    size, stride, offset = geometry

    def case(torch):
        leaf, base = _storage(torch)
        t = _INPUTS[source](base)
        same = t.as_strided_(size, stride, offset) is t
        _weighted_sum(t, torch).backward()
        return same, t, t.stride(), t.storage_offset(), leaf.grad
    check(case, messages=True)


@pytest.mark.parametrize("expression", [
    "torch.as_strided(x, (3, 3), (4, 1), 5)",
    "torch.as_strided(x, (3, 3), (1, -1))",
    "torch.as_strided(x, (-1,), (-1,))",
    "torch.as_strided(x, (3, -3), (1, 1))",
    "torch.as_strided(x, (3, 3), (1,))",
    "torch.as_strided(x, (2, 3), (-1,), -1)",
    "torch.as_strided(x, (3, 3), (1, 1), -1)",
    "torch.as_strided(x, (2, -3), (1, 1), -1)",
    "torch.as_strided(x, [3], [1], 2.0)",
    "torch.as_strided(x, 3, (1,))",
    "torch.as_strided(x, (3,), 1)",
    "torch.as_strided(x, (3.0,), (1,))",
    "x.as_strided(3, 1)",
    "x.as_strided((3,), (1,), 1.0)",
    "x[4:].as_strided((9,), (1,))",
    "torch.as_strided_copy(x, (13,), (1,))",
    "torch.as_strided(torch.zeros(3, dtype=torch.float64), (4,), (1,))",
    "torch.as_strided_scatter(x, torch.ones(3), (2,), (2,), 1)",
    "torch.as_strided_scatter(x, torch.ones(2), (2,), (2,), 11)",
    "torch.as_strided_scatter(x, torch.ones(4), (2, 2), (1, 1))",
    "torch.as_strided_scatter(x, torch.ones(2), (2,), (-2,))",
    "leaf.as_strided_((2,), (1,))",
    "leaf[1:].as_strided_((2,), (1,))",
])
def test_as_strided_errors_as_torch(expression):
    def case(torch):
        leaf = torch.ones(3, requires_grad=True)
        x = torch.arange(12.0)
        return eval(expression, {"torch": torch, "x": x, "leaf": leaf})
    assert_same_error(case)


@given(geometry=separate_windows(12), source=st.sampled_from(["base", "transposed"]))
def test_as_strided_scatter_as_torch(geometry, source):
    """Values (laid out as the input), strides, grad_fn and src's gradient, of the function
    and the method. (Not src's gradient for a transposed input: PyTorch 2.13's
    AsStridedScatterBackward0 reads the gradient as if the result were row-major.)"""
    size, stride, offset = geometry

    def case(torch):
        x = _INPUTS[source](torch.linspace(-1.0, 2.0, 12))
        src = torch.linspace(3.0, 4.0, torch.Size(size).numel(),
                             requires_grad=source == "base")
        out = torch.as_strided_scatter(x, src.reshape(size), size, stride, offset)
        method = x.as_strided_scatter(src.reshape(size), size, stride, offset)
        if src.requires_grad:
            _weighted_sum(out + method, torch).backward()
        return out, out.stride(), method, src.grad
    check(case)


def test_as_strided_scatter_refuses_an_offset_before_the_inputs_own():
    """PyTorch writes such a view outside the input's copy (undefined memory): compat
    refuses it."""
    with pytest.raises(RuntimeError, match="storage_offset 1 lies before the input's own"):
        compat.as_strided_scatter(compat.arange(8.0)[2:], compat.ones(2), (2,), (1,), 1)


def _scattered(torch, x, src, size, stride, offset):
    """as_strided_scatter; under PyTorch its definition, a clone whose view is copied into:
    PyTorch 2.13's AsStridedScatterBackward0 gives the input the gradient of the elements
    src replaced (zero elsewhere), the reverse of the derivative."""
    if torch.__name__ == "compat":
        return torch.as_strided_scatter(x, src, size, stride, offset)
    out = x.clone()
    out.as_strided(size, stride, offset).copy_(src)
    return out


@given(geometry=separate_windows(12))
def test_as_strided_scatter_differentiates_both_inputs(geometry):
    """The input's gradient is zero where src was written, src's the gradient there."""
    size, stride, offset = geometry

    def case(torch):
        leaf, base = _storage(torch)
        src = torch.linspace(3.0, 4.0, torch.Size(size).numel(), requires_grad=True)
        out = _scattered(torch, base[:12], src.reshape(size), size, stride, offset)
        _weighted_sum(out, torch).backward()
        return out.detach(), leaf.grad, src.grad
    check(case)


def test_as_strided_scatter_of_a_transposed_input_that_requires_grad_is_refused():
    """PyTorch refuses it (with an internal assertion whose text ends as compat's)."""
    def case(torch):
        x = torch.ones(2, 2, requires_grad=True).t()
        return torch.as_strided_scatter(x, torch.ones(2), (2,), (1,))
    ours, theirs = run_both(case)
    assert ours.type == theirs.type == "RuntimeError"
    assert theirs.message.endswith(ours.message)


@given(geometry=geometries(), source=st.sampled_from(sorted(_INPUTS)))
def test_as_strided_views_save_and_load_as_torch(geometry, source):
    """torch.save and torch.load keep a view's storage: its strides, storage offset and the
    memory it shares with its base, also after as_strided_ moved a tensor in its own."""
    size, stride, offset = geometry

    def case(torch):
        base = torch.arange(14.0)
        try:
            view = torch.as_strided(_INPUTS[source](base), size, stride, offset)
        except RuntimeError as error:
            return str(error)
        moved = torch.arange(14.0).as_strided_(size, stride, offset)
        buffer = io.BytesIO()
        torch.save([base, view, moved], buffer)
        buffer.seek(0)
        base, view, moved = torch.load(buffer)
        base.mul_(-1.0)
        # (compat saves a tensor of no elements as a storage of its own, at offset 0)
        return [(t, t.stride(), t.numel() and t.storage_offset()) for t in (view, moved)]
    check(case)
