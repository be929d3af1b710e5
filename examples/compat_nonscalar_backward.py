"""backward() of a non-scalar output takes the gradient of a loss with respect to it.

Run: python examples/compat_nonscalar_backward.py
"""
import compat as torch
from compat.autograd import Variable

x = Variable(torch.ones(2, 2), requires_grad=True)
y = 2 * x + 3
z = y * y * 3
print(z)

# z is 2x2: backward(g) computes the vector-Jacobian product g . dz/dx.
z.backward(torch.ones(2, 2), retain_graph=True)
print(x.grad)
x.grad.data.zero_()

z.backward(torch.Tensor([[0, 1], [1, 0]]), retain_graph=True)
print(x.grad)
x.grad.data.zero_()

# The gradient must have z's shape.
for gradient in (torch.Tensor([0, 1]), torch.Tensor([[0], [1]])):
    try:
        z.backward(gradient, retain_graph=True)
    except RuntimeError as error:
        print("RuntimeError:", "shape" in str(error))

# A scalar needs no gradient; a non-scalar does.
try:
    z.backward()
except RuntimeError as error:
    print("RuntimeError:", "scalar" in str(error))

# Weighting the outputs: a gradient that is not all ones.
x = Variable(torch.tensor([1.0, -2.0, 0.5]), requires_grad=True)
y = x * 2
y.backward(torch.FloatTensor([0.1, 1.0, 0.0001]))
print(x.grad)

# torch.autograd.grad returns gradients instead of accumulating them.
x = Variable(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), requires_grad=True)
w = torch.tensor([[0.5, -1.0], [2.0, 0.0]])
(grad_x,) = torch.autograd.grad(x.mm(w), x, grad_outputs=torch.ones(2, 2))
print(grad_x, x.grad)
