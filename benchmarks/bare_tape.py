"""The floor of an eager tape written in Python: the seed network's step with the least a
tape can do (one object and one backward closure per operation, a topological walk,
gradients handed to the leaves), for the network-step table.

It keeps none of PyTorch's contracts that compat keeps (version counters and the checks of
saved values, hooks, grad_fn, dtype promotion, argument checks, gradient layout), so its
ratio to hand-written NumPy bounds what any Python implementation of PyTorch's eager API
can reach on this step, on this machine.
"""
import numpy as np


class Value:
    """An array on the tape: `parents` and `pull` (cotangent -> the parents' cotangents)
    for a computed value; a leaf has neither and receives its gradient in `grad`."""

    __slots__ = ("data", "grad", "parents", "pull")

    def __init__(self, data, parents=(), pull=None):
        self.data = data
        self.grad = None
        self.parents = parents
        self.pull = pull

    def mm(self, other):
        a, b = self.data, other.data
        return Value(a @ b, (self, other), lambda g: (g @ b.T, a.T @ g))

    def rmm(self, constant):
        """constant @ self, for an array `constant` that takes no gradient."""
        return Value(constant @ self.data, (self,), lambda g: (constant.T @ g,))

    def relu(self):
        positive = self.data > 0
        return Value(np.where(positive, self.data, 0), (self,),
                     lambda g: (np.where(positive, g, 0),))

    def minus(self, constant):
        return Value(self.data - constant, (self,), lambda g: (g,))

    def square(self):
        x = self.data
        return Value(x * x, (self,), lambda g: (2 * x * g,))

    def sum(self):
        shape = self.data.shape
        return Value(self.data.sum(), (self,), lambda g: (np.broadcast_to(g, shape),))

    def backward(self):
        for node, g in _pull_back(self):
            node.grad = g if node.grad is None else node.grad + g


def _pull_back(root):
    """(leaf, cotangent) pairs, from a walk of the graph in reverse topological order."""
    order, seen, stack = [], set(), [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            order.append(node)
        elif node not in seen:
            seen.add(node)
            stack.append((node, True))
            stack.extend((parent, False) for parent in node.parents)
    cotangents = {root: np.ones_like(root.data)}
    for node in reversed(order):
        g = cotangents.pop(node, None)
        if g is None:
            continue
        if node.pull is None:
            yield node, g
            continue
        for parent, parent_g in zip(node.parents, node.pull(g)):
            cotangents[parent] = parent_g if parent not in cotangents else (
                cotangents[parent] + parent_g)


def network_step(x, y, w1, w2, learning_rate):
    """The seed step on this tape, updating w1 and w2 in place."""
    weights = Value(w1), Value(w2)

    def run():
        loss = weights[0].rmm(x).relu().mm(weights[1]).minus(y).square().sum()
        loss.backward()
        for w in weights:
            w.data -= learning_rate * w.grad
            w.grad = None
        return loss.data
    return run
