"""A two-layer ReLU network fitted to random data with hand-written gradient steps.

Run: python examples/compat_two_layer_net.py
"""
import numpy as np

import compat as torch
from compat.autograd import Variable

N, D_in, H, D_out = 64, 1000, 100, 10
dtype = torch.FloatTensor

# Random data from NumPy (seeded), so the same numbers can be fed to any implementation.
rng = np.random.default_rng(0)


def randn(*shape):
    return torch.from_numpy(rng.standard_normal(shape).astype(np.float32))


x = Variable(randn(N, D_in).type(dtype), requires_grad=False)
y = Variable(randn(N, D_out).type(dtype), requires_grad=False)
w1 = Variable(randn(D_in, H).type(dtype), requires_grad=True)
w2 = Variable(randn(H, D_out).type(dtype), requires_grad=True)

learning_rate = 1e-6
for t in range(300):
    y_pred = x.mm(w1).clamp(min=0).mm(w2)
    loss = (y_pred - y).pow(2).sum()
    if t % 50 == 0 or t == 299:
        print(t, loss.item())
    loss.backward()

    w1.data -= learning_rate * w1.grad.data
    w2.data -= learning_rate * w2.grad.data
    w1.grad.data.zero_()
    w2.grad.data.zero_()

print(loss)
print(w1.grad.shape, w1.grad.abs().sum().item())

# The same step, the modern way: updates under no_grad, gradients reset to None.
for t in range(3):
    loss = (x.mm(w1).relu().mm(w2) - y).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        w1 -= learning_rate * w1.grad
        w2 -= learning_rate * w2.grad
    w1.grad = None
    w2.grad = None
    print(t, f"{loss.item():.4g}")
