"""The graph is built as the code runs: loops and branches decide what is differentiated.

Run: python examples/compat_dynamic_graph.py
"""
import compat as torch
from compat.autograd import Variable

x = Variable(torch.tensor([0.25, -0.5, 1.0]), requires_grad=True)

# A loop whose length depends on the data.
y = x * 2
steps = 1
while y.data.norm() < 100:
    y = y * 2
    steps += 1
print(steps, y)

gradients = torch.FloatTensor([0.1, 1.0, 0.0001])
y.backward(gradients)
print(x.grad)


# A branch taken per call: each call records the graph of the path it took.
def f(v):
    if v.sum() > 0:
        return (v * v).sum()
    return v.abs().sum() * 3


for start in ([1.0, 2.0], [-1.0, -2.0]):
    v = Variable(torch.tensor(start), requires_grad=True)
    out = f(v)
    out.backward()
    print(out, type(out.grad_fn).__name__, v.grad)

# Nodes of a graph are visible: walk it from the output to the leaves.
a = Variable(torch.tensor([1.0, 2.0]), requires_grad=True)
out = (a.exp() + a * 3).sum()
names = []
stack = [out.grad_fn]
while stack:
    node = stack.pop()
    names.append(type(node).__name__)
    stack.extend(fn for fn, _ in node.next_functions if fn is not None)
print(sorted(names))
