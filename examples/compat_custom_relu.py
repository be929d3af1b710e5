"""An autograd.Function with its own backward: ReLU, used to train a small network, and a
cube whose backward is differentiable again (double backward).

Run: python examples/compat_custom_relu.py
"""
import numpy as np

import compat as torch
from compat.autograd import Variable


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


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input, scale):
        ctx.save_for_backward(input)
        ctx.scale = scale
        return scale * input ** 3

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output * 3 * ctx.scale * input ** 2, None   # no gradient for `scale`


# The custom ReLU agrees with the built-in one.
v = Variable(torch.tensor([-1.5, 0.0, 2.0, -0.1, 3.0]), requires_grad=True)
r = MyReLU.apply(v)
print(r, type(r.grad_fn).__name__)
(r * torch.arange(5.0)).sum().backward()
print(v.grad)

# Training with it.
rng = np.random.default_rng(1)
N, D_in, H, D_out = 16, 50, 20, 5
x = torch.from_numpy(rng.standard_normal((N, D_in)).astype(np.float32))
y = torch.from_numpy(rng.standard_normal((N, D_out)).astype(np.float32))
w1 = Variable(torch.from_numpy(rng.standard_normal((D_in, H)).astype(np.float32)),
              requires_grad=True)
w2 = Variable(torch.from_numpy(rng.standard_normal((H, D_out)).astype(np.float32)),
              requires_grad=True)
relu = MyReLU.apply
for t in range(100):
    loss = (relu(x.mm(w1)).mm(w2) - y).pow(2).sum()
    if t % 25 == 0:
        print(t, round(loss.item(), 2))
    loss.backward()
    w1.data -= 1e-4 * w1.grad.data
    w2.data -= 1e-4 * w2.grad.data
    w1.grad.data.zero_()
    w2.grad.data.zero_()

# Double backward through a custom Function whose backward uses differentiable operations.
c = Variable(torch.tensor([1.0, 2.0]), requires_grad=True)
out = Cube.apply(c, 0.5).sum()
(first,) = torch.autograd.grad(out, c, create_graph=True)     # 1.5 c^2
(second,) = torch.autograd.grad(first.sum(), c)                # 3 c
print(first, second)
