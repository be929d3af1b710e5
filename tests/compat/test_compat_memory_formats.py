"""Memory formats and the small torch names around strides against PyTorch 2.13:
contiguous/clone/empty_like with channels_last (PyTorch's strides), is_contiguous in a
format, torch.strided and Tensor.layout, empty_strided, the constants pi/e/inf/nan/newaxis,
conj_physical(_), adjoint, resolve_conj/resolve_neg and is_signed."""
import pickle
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

from compat_harness import assert_same_error, check

FORMATS = ["contiguous_format", "preserve_format", "channels_last", "channels_last_3d"]


def _strides(t):
    """t's strides but those of dimensions of length 1, where compat keeps NumPy's (see
    docs/guide-compat.md)."""
    return tuple(None if n == 1 else step for step, n in zip(t.stride(), t.shape))


@st.composite
def inputs(draw):
    """(shape, permutation) of a tensor of 3 to 5 dimensions laid out permuted."""
    ndim = draw(st.integers(3, 5))
    shape = tuple(draw(st.lists(st.integers(1, 3), min_size=ndim, max_size=ndim)))
    return shape, tuple(draw(st.permutations(range(ndim))))


def _laid_out(torch, shape, permutation):
    leaf = torch.linspace(-1.0, 1.0, torch.Size(shape).numel(), requires_grad=True)
    stored = [shape[d] for d in permutation]
    inverse = sorted(range(len(shape)), key=permutation.__getitem__)
    return leaf, leaf.reshape(stored).permute(inverse)


@given(layout=inputs(), name=st.sampled_from(FORMATS))
def test_copies_in_a_memory_format_as_torch(layout, name):
    """clone, contiguous and empty_like in each format: strides (PyTorch's refusals of a
    format of another rank), contiguity in the format, and the gradient through the copy."""
    def case(torch):
        leaf, x = _laid_out(torch, *layout)
        form = getattr(torch, name)
        results = []
        for make in (lambda: x.clone(memory_format=form),
                     lambda: torch.clone(x, memory_format=form),
                     lambda: x.contiguous(memory_format=form),
                     lambda: torch.empty_like(x, memory_format=form)):
            try:
                out = make()
            except RuntimeError as error:
                results.append(str(error))
                continue
            results.append((_strides(out), out.is_contiguous(),
                            out.is_contiguous(memory_format=form) if name != "preserve_format"
                            else None, out is x))
            if out.requires_grad:
                (out * torch.linspace(0.5, 1.5, out.numel()).reshape(out.shape)).sum().backward()
        results.append(leaf.grad)
        return results, x.is_contiguous(memory_format=torch.channels_last)
    check(case)


@pytest.mark.parametrize("expression", [
    "x.contiguous(memory_format=torch.preserve_format)",
    "x.contiguous(memory_format=1)",
    "torch.empty(2, 3).clone(memory_format=torch.channels_last)",
    "torch.empty(2, 3).contiguous(memory_format=torch.channels_last_3d)",
    "torch.empty_like(torch.empty(2, 3), memory_format=torch.channels_last)",
])
def test_memory_format_errors_as_torch(expression):
    def case(torch):
        x = torch.empty(2, 3, 4, 5).transpose(0, 1)
        return eval(expression, {"torch": torch, "x": x})
    assert_same_error(case)


def test_memory_formats_and_layout_print_and_pickle_as_torch():
    def case(torch):
        names = FORMATS + ["strided"]
        objects = [getattr(torch, name) for name in names]
        return ([repr(o) for o in objects], [str(o) for o in objects],
                [pickle.loads(pickle.dumps(o)) is o for o in objects],
                torch.ones(2).layout is torch.strided, isinstance(torch.strided, torch.layout),
                isinstance(torch.channels_last, torch.memory_format),
                torch.channels_last == torch.channels_last,
                torch.channels_last == torch.contiguous_format)
    check(case)


@given(size=st.lists(st.integers(0, 3), max_size=3), data=st.data())
def test_empty_strided_as_torch(size, data):
    stride = data.draw(st.lists(st.integers(0, 7), min_size=len(size), max_size=len(size)))

    def case(torch):
        out = torch.empty_strided(size, stride, dtype=torch.float64, requires_grad=True)
        new = torch.ones(2, dtype=torch.int32).new_empty_strided(size, stride)
        return (out.shape, out.stride(), out.dtype, out.requires_grad, out.is_leaf,
                new.stride(), new.dtype)
    check(case)


@pytest.mark.parametrize("expression", [
    "torch.empty_strided((2, 3), (1,))",
    "torch.empty_strided((2, 3), (1, -2))",
    "torch.empty_strided((2, -3), (1, 2))",
])
def test_empty_strided_errors_as_torch(expression):
    assert_same_error(lambda torch: eval(expression, {"torch": torch}))


def test_constants_as_torch():
    check(lambda torch: (torch.pi, torch.e, torch.inf, torch.nan, torch.newaxis,
                         torch.ones(2, 3)[torch.newaxis].shape))


@pytest.mark.parametrize("expression", [
    "torch.conj_physical(c)", "c.conj_physical()", "torch.conj_physical(r) is r",
    "r.conj_physical() is r", "torch.conj_physical_(c.detach().clone())",
    "c * 1 + c.clone().conj_physical_()", "r * 1 + r.clone().conj_physical_()",
    "(r * 1).conj_physical_()",
    "torch.resolve_conj(c.conj()) is not None", "torch.resolve_conj(r) is r",
    "torch.resolve_neg(c.conj())", "torch.resolve_neg(r) is r",
    "torch.adjoint(r.reshape(2, 1, 3))", "torch.adjoint(c.reshape(1, 3))",
    "torch.conj_physical(r * 2)",
    "r.reshape(3, 2).adjoint()",
    "[torch.is_signed(torch.ones(1, dtype=d)) for d in "
    "(torch.uint8, torch.int8, torch.bool, torch.float16, torch.complex64)]",
])
def test_conjugates_adjoint_and_is_signed_as_torch(expression):
    def case(torch):
        r = torch.tensor([0.5, -1.0, 2.0, 1.5, 0.25, -0.75], requires_grad=True)
        c = torch.tensor([1 + 2j, -0.5j, 3.0])  # (compat differentiates real tensors only)
        out = eval(expression, {"torch": torch, "r": r, "c": c})
        if isinstance(out, torch.Tensor) and out.requires_grad:
            (out * torch.linspace(0.5, 1.5, out.numel()).reshape(out.shape)).sum().backward()
            return out, r.grad
        return out
    check(case)


def test_adjoint_of_a_scalar_warns_and_of_a_vector_raises_as_torch():
    def case(torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = torch.adjoint(torch.tensor(2.0))
        return out, [str(w.message).split(" (Triggered")[0] for w in caught]
    check(case)
    assert_same_error(lambda torch: torch.adjoint(torch.ones(3)))
    assert_same_error(lambda torch: torch.ones(3).mH)
