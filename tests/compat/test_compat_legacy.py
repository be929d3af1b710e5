"""The 2017 API: Variable, volatile, .creator, retain_variables, loss.data[0], legacy types.

PyTorch 2.13 still has Variable (a constructor of tensors) and accepts volatile, which the
comparisons below cover; it removed .creator and retain_variables and turned 0-d
``t[0]`` into an IndexError, which compat keeps working with a DeprecationWarning."""
import warnings

import pytest

import compat
from compat.autograd import Variable
from compat_harness import check


def test_variable_is_a_tensor_constructor_like_torch():
    def case(torch):
        from_torch = torch.autograd.Variable
        t = torch.ones(2, 2)
        plain = from_torch(t)
        tracked = from_torch(t, requires_grad=True)
        tracked.data.add_(1)                  # shares t's storage
        y = tracked * 2
        detached = from_torch(y)
        return (type(tracked).__name__, isinstance(t, from_torch), plain.requires_grad,
                tracked.requires_grad, tracked.is_leaf, t, detached.requires_grad,
                detached.grad_fn, plain.grad)
    check(case)


def test_variable_rejects_non_tensors_like_torch():
    check(lambda torch: torch.autograd.Variable([1.0, 2.0]))


def test_volatile_has_no_effect_like_torch():
    def case(torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            v = torch.autograd.Variable(torch.ones(3), volatile=True)
        return v.requires_grad, (v * 2).requires_grad
    check(case)


@pytest.mark.filterwarnings("ignore:volatile was removed:UserWarning")  # both warn
def test_volatile_with_requires_grad_raises_like_torch():
    check(lambda torch: torch.autograd.Variable(torch.ones(3), requires_grad=True,
                                                volatile=True))


def _deprecation(action):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = action()
    deprecations = [str(w.message) for w in caught if w.category is DeprecationWarning]
    assert deprecations, "expected a DeprecationWarning"
    return result, deprecations[0]


def test_volatile_warns_with_the_modern_spelling():
    v, message = _deprecation(lambda: Variable(compat.ones(3), volatile=True))
    assert "no_grad" in message and not v.requires_grad
    volatile, message = _deprecation(lambda: v.volatile)
    assert volatile is False and "no_grad" in message


def test_creator_is_grad_fn_with_a_warning():
    x = Variable(compat.ones(2, 2), requires_grad=True)
    y = x + 2
    creator, message = _deprecation(lambda: y.creator)
    assert creator is y.grad_fn and type(creator).__name__ == "AddBackward0"
    assert "grad_fn" in message
    assert _deprecation(lambda: x.creator)[0] is None


def test_retain_variables_is_retain_graph_with_a_warning():
    x = Variable(compat.ones(2, 2), requires_grad=True)
    out = (x * x).mean()
    _, message = _deprecation(lambda: out.backward(retain_variables=True))
    assert "retain_graph" in message
    out.backward()
    assert x.grad.tolist() == [[1.0, 1.0], [1.0, 1.0]]
    with pytest.raises(RuntimeError, match="retain_graph=True"):
        out.backward()


def test_data_index_zero_reads_a_one_element_tensor_with_a_warning():
    loss = (Variable(compat.ones(3), requires_grad=True) * 2).sum()
    value, message = _deprecation(lambda: loss.data[0])
    assert value == 6.0 and type(value) is float and "item()" in message
    same, _ = _deprecation(lambda: loss[0])      # with history: the 0-d tensor itself
    assert same is loss
    # One-element 1-D tensors index normally, with no warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert compat.ones(1)[0].item() == 1.0


def test_legacy_types_like_torch():
    def case(torch):
        t = torch.FloatTensor([1.0, 2.0])
        u = torch.Tensor(2, 3)
        return (t, t.type(), u.shape, u.dtype, u.type(), isinstance(t, torch.FloatTensor),
                isinstance(t, torch.LongTensor), t.type(torch.DoubleTensor),
                torch.LongTensor([3, 4]), torch.DoubleTensor(2).dtype,
                torch.ones(2).type(torch.LongTensor), torch.Tensor([[0, 1], [1, 0]]),
                torch.FloatTensor(torch.FloatTensor([5.0])), torch.ByteTensor([1, 2]).dtype,
                torch.IntTensor([1]).dtype, torch.BoolTensor([True]).dtype)
    check(case)


def test_legacy_constructor_errors_like_torch():
    check(lambda torch: torch.FloatTensor(torch.LongTensor([1])))
