"""Variables, .data, .grad and .grad_fn, and how gradients accumulate.

Run: python examples/compat_basics.py
"""
import compat as torch
from compat.autograd import Variable

# A Variable is a tensor; requires_grad=True asks autograd to track it.
x = Variable(torch.ones(2, 2), requires_grad=True)
print(x)
print(x.data)                     # the same values, without autograd
print(type(x).__name__, x.requires_grad, x.is_leaf, x.grad_fn)

# Every operation on x records a node: grad_fn says which.
y = 3 * x - 1
z = y * y + torch.exp(x)
out = z.mean()
print(y)
print(out)
print(type(y.grad_fn).__name__, type(z.grad_fn).__name__, type(out.grad_fn).__name__)
print([type(fn).__name__ for fn, _ in z.grad_fn.next_functions])

# d(out)/dx = (6 * y + exp(x)) / 4 = (12 + e) / 4 at x = 1.
out.backward()
print(x.grad)

# Gradients accumulate: a second backward adds to x.grad...
out2 = (x * x).sum()
out2.backward(retain_graph=True)
print(x.grad)
out2.backward()
print(x.grad)

# ... until it is cleared.
x.grad.data.zero_()
(x * 5).sum().backward()
print(x.grad)

# Non-leaves have no .grad unless they ask for it.
a = Variable(torch.tensor([1.0, 2.0, 3.0]), requires_grad=True)
b = a * a
b.retain_grad()
b.sum().backward()
print(b.grad, a.grad)
