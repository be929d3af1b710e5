"""The five seed tutorials (shared/seeds/), re-typed as sequences of API calls and run with
only the imports changed: under compat and under PyTorch 2.13 they print the same.

Notebook cells that display a value print it here. Both libraries are seeded alike, and
compat's random streams are PyTorch's, so random draws are the same; uninitialised tensors
are compared by structure only. The 2017 idioms PyTorch 2.13 removed (.creator,
retain_variables, loss.data[0]) run under compat as written, and under torch through a
test-only shim that does what PyTorch 0.3 did."""
import contextlib
import warnings

import pytest
import torch

from compat_harness import LIBRARIES, check_printed


@pytest.fixture(autouse=True)
def same_random_draws():
    """Both libraries start from the same seed: compat draws what torch draws."""
    for library in LIBRARIES.values():
        library.manual_seed(2017)
    yield


@contextlib.contextmanager
def torch_as_in_2017():
    """Give real torch the removed 2017 spellings, as PyTorch 0.3 had them."""
    original_backward = torch.Tensor.backward
    original_getitem = torch.Tensor.__getitem__

    def backward(self, gradient=None, retain_graph=None, create_graph=False,
                 retain_variables=None):
        retain = retain_graph if retain_variables is None else retain_variables
        return original_backward(self, gradient, retain, create_graph)

    def getitem(self, index):
        if self.dim() == 0 and index == 0:
            return self.item()
        return original_getitem(self, index)

    torch.Tensor.creator = property(lambda self: self.grad_fn)
    torch.Tensor.backward = backward
    torch.Tensor.__getitem__ = getitem
    try:
        yield
    finally:
        del torch.Tensor.creator
        torch.Tensor.backward = original_backward
        torch.Tensor.__getitem__ = original_getitem


def run_seed(seed):
    """Print what `seed(torch, Variable)` prints under both libraries and compare."""
    def case(library):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            seed(library, library.autograd.Variable)
    with torch_as_in_2017():
        return check_printed(case, rtol=1e-4)


def shape_only(t):
    """Uninitialised memory prints differently every time: show its structure."""
    text = repr(t)
    print(text.startswith("tensor("), tuple(t.shape), t.dtype, t.requires_grad)


def seed_000(torch, Variable):
    x = Variable(torch.ones(1, 1), requires_grad=True)
    print(x)
    print(x.data)
    y = 2 * x + 3
    print(y)
    z = y * y * 3
    print(z)
    if x.grad is not None:
        x.grad.data.zero_()
    z.backward(retain_graph=True)
    print(x.grad)

    x = Variable(torch.ones(2, 2), requires_grad=True)
    y = 2 * x + 3
    z = y * y * 3
    print(z)
    z.backward(torch.ones(2, 2), retain_graph=True)
    print(x.grad)
    x.grad.data.zero_()
    z.backward(torch.Tensor([[0, 1], [1, 0]]), retain_graph=True)
    print(x.grad)
    x.grad.data.zero_()
    for wrong in (torch.Tensor([0, 1]), torch.Tensor([[0], [1]])):  # each stops the cell
        try:
            z.backward(wrong, retain_graph=True)
        except RuntimeError as error:
            print(type(error).__name__)
        print(x.grad)
        x.grad.data.zero_()


def seed_001(torch, Variable):
    x_tensor = torch.Tensor(3, 4)
    shape_only(x_tensor)
    x_variable = Variable(x_tensor)
    shape_only(x_variable)
    shape_only(x_variable.data)
    print(x_variable.grad)
    print(x_variable.requires_grad)
    x_variable = Variable(x_tensor, requires_grad=True)
    print(x_variable.requires_grad)
    x_variable = Variable(x_tensor, volatile=True)
    print(x_variable.grad, x_variable.requires_grad, x_variable.volatile)

    x = Variable(torch.FloatTensor(3, 4), requires_grad=True)
    y = x ** 2 + 4 * x
    z = 2 * y + 3
    print(x.requires_grad, y.requires_grad, z.requires_grad)
    gradient = torch.FloatTensor(3, 4)
    z.backward(gradient)
    shape_only(x.grad)
    print(y.grad, z.grad)


def seed_002(torch, Variable):
    a = Variable(torch.ones((3, 2)), requires_grad=True)
    print(a)
    print(type(a).__name__)
    b = Variable(torch.ones((3, 2)), requires_grad=True)
    print(b)
    print(a + b)
    print(torch.add(a, b))
    print(a * b)
    print(torch.mul(a, b))

    x = Variable(torch.ones((2)), requires_grad=True)
    print(x)
    y = 5 * (x + 1) ** 2
    print(y)
    o = (1 / 2) * torch.sum(y)
    print(o)
    o.backward()
    print(x.grad)
    try:
        o.backward(torch.FloatTensor([1.0, 1.0]))
    except RuntimeError as error:
        print(type(error).__name__, "retain_graph=True" in str(error))


def seed_003(torch, Variable):
    x = Variable(torch.ones(2, 2), requires_grad=True)
    y = x + 2
    z = torch.add(x, y)
    z = y * y * 2
    out = z.mean()
    out.backward()
    print(x.grad)

    x = Variable(torch.ones(2, 2), requires_grad=True)
    y = x + 1
    print(x.grad_fn)
    print(y.grad_fn)

    dtype = torch.FloatTensor
    N, D_in, H, D_out = 64, 1000, 100, 10
    x = Variable(torch.randn(N, D_in).type(dtype), requires_grad=False)
    y = Variable(torch.randn(N, D_out).type(dtype), requires_grad=False)
    w1 = Variable(torch.randn(D_in, H).type(dtype), requires_grad=True)
    w2 = Variable(torch.randn(H, D_out).type(dtype), requires_grad=True)
    learning_rate = 1e-6
    for t in range(4):  # the tutorial runs 500 steps
        y_pred = x.mm(w1).clamp(min=0).mm(w2)
        loss = (y_pred - y).pow(2).sum()
        print(t, loss.data[0])
        loss.backward()
        w1.data -= learning_rate * w1.grad.data
        w2.data -= learning_rate * w2.grad.data
        w1.grad.data.zero_()
        w2.grad.data.zero_()

    class MyReLU(torch.autograd.Function):
        @staticmethod
        def forward(ctx, input):
            ctx.save_for_backward(input)
            return input.clamp(min=0)

        @staticmethod
        def backward(ctx, grad_output):
            input, = ctx.saved_tensors
            grad_input = grad_output.clone()
            grad_input[input < 0] = 0
            return grad_input

    w1 = Variable(torch.randn(D_in, H).type(dtype), requires_grad=True)
    w2 = Variable(torch.randn(H, D_out).type(dtype), requires_grad=True)
    for t in range(4):
        relu = MyReLU.apply
        y_pred = relu(x.mm(w1)).mm(w2)
        loss = (y_pred - y).pow(2).sum()
        print(t, loss.data[0])
        loss.backward()
        w1.data -= learning_rate * w1.grad.data
        w2.data -= learning_rate * w2.grad.data
        w1.grad.data.zero_()
        w2.grad.data.zero_()

    x = torch.randn(3)
    x = Variable(x, requires_grad=True)
    y = x * 2
    while y.data.norm() < 100:
        y = y * 2
    print(y)

    z = Variable(torch.ones(2, 2), requires_grad=True) * 3
    out = z.mean()
    out.backward()
    gradients = torch.FloatTensor([0.1, 1.0, 0.0001])
    y.backward(gradients)
    print(x.grad)


def seed_004(torch, Variable):
    x = Variable(torch.ones(2, 2), requires_grad=True)
    print(x)
    print(x.data)
    print(x.grad)
    print(x.creator)
    y = x + 2
    print(y)
    print(y.creator)
    z = y * y * 3
    out = z.mean()
    print(z, out)
    out.backward()
    print(x.grad)

    x = Variable(torch.ones(2, 2), requires_grad=True)
    y = x + 2
    y.backward(torch.ones(2, 2), retain_variables=True)
    print(x.grad)
    z = y * y
    print(z)
    gradient = torch.randn(2, 2)
    y.backward(gradient)
    print(x.grad)


@pytest.mark.parametrize("seed", [seed_000, seed_001, seed_002, seed_003, seed_004],
                         ids=lambda seed: seed.__name__)
def test_seed_tutorial_prints_what_torch_prints(seed):
    assert run_seed(seed)
