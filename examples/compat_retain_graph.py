"""backward() frees the graph's saved values; retain_graph=True keeps them.

Run: python examples/compat_retain_graph.py
"""
import compat as torch
from compat.autograd import Variable

x = Variable(torch.ones(2), requires_grad=True)
y = 5 * (x + 1) ** 2
o = (1 / 2) * torch.sum(y)
print(y)
print(o)

o.backward(retain_graph=True)     # keep the graph for one more pass
print(x.grad)
o.backward()                      # the graph is freed after this one
print(x.grad)

try:
    o.backward()
except RuntimeError as error:
    print("RuntimeError:", "retain_graph=True" in str(error))

# Without retain_graph, the first backward already frees it.
x.grad = None
p = (x.exp() * 2).sum()
p.backward()
print(x.grad)
try:
    p.backward()
except RuntimeError as error:
    print("RuntimeError:", "retain_graph=True" in str(error))
