"""The 2017 spellings still work in compat, each with a DeprecationWarning naming today's.

PyTorch itself removed .creator and backward(retain_variables=...), and no longer lets
loss.data[0] read a scalar; compat keeps them so that old scripts run unchanged.

Run: python examples/compat_legacy_api.py
"""
import warnings

import compat as torch
from compat.autograd import Variable

warnings.simplefilter("always", DeprecationWarning)

x = Variable(torch.ones(2, 2), requires_grad=True)
print(x.creator)                              # the old name of grad_fn

y = x + 2
print(type(y.creator).__name__)

z = y * y * 3
out = z.mean()
out.backward(retain_variables=True)           # the old name of retain_graph
print(x.grad)
out.backward()
print(x.grad)

v = Variable(torch.ones(3), volatile=True)    # volatile has no effect any more
print(v.requires_grad, v.volatile)

loss = (x * x).sum()
print(loss.data[0])                           # today: loss.item()

# Legacy tensor types and constructors.
t = torch.FloatTensor([1.0, 2.0])
u = torch.Tensor(2, 3)                        # uninitialised
print(t, t.type(), u.shape, u.type(), isinstance(t, torch.FloatTensor))
print(t.type(torch.DoubleTensor), torch.LongTensor([3, 4]))
