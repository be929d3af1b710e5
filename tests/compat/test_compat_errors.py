"""compat's errors against PyTorch's, type and text word for word: each case is a snippet
that raises under both libraries (setup lines, then the line that raises)."""
import copy

import pytest

from compat_harness import check

CASES = {
    # autograd
    "saved output modified": "y = x.exp()\nwith torch.no_grad(): y.add_(1)\ny.sum().backward()",
    "saved input modified": ("b = x * 1\nc = (b * b).sum()\nwith torch.no_grad(): b.mul_(2)\n"
                             "c.backward()"),
    "saved leaf modified": "c = (x * x).sum()\nwith torch.no_grad(): x.mul_(2)\nc.backward()",
    "second backward": "z = (x * x).sum()\nz.backward()\nz.backward()",
    "leaf in-place": "x.add_(1)",
    "view of leaf in-place": "x[0].add_(1)",
    "implicit gradient": "(x * 2).backward()",
    "mismatched gradient": "(x * 2).backward(torch.ones(2))",
    "no grad_fn": "torch.ones(2).backward()",
    "integer requires grad": "torch.ones(2, dtype=torch.long).requires_grad_()",
    "non-leaf requires_grad": "(x * 2).requires_grad_(False)",
    "retain_grad without grad": "torch.ones(2).retain_grad()",
    "hook without grad": "torch.ones(2).register_hook(lambda g: g)",
    "unused input": "torch.autograd.grad((x * 2).sum(), torch.ones(2, requires_grad=True))",
    "input without grad": "torch.autograd.grad((x * 2).sum(), torch.ones(2))",
    "grad of another size": "x.grad = torch.ones(2)",
    "detach_ of a view": "x.view(3)[:2].detach_()",
    "deepcopy of a non-leaf": "copy.deepcopy(x * 2)",
    "backward inputs without grad": "x.sum().backward(inputs=[torch.ones(3)])",
    "backward of no inputs": "x.sum().backward(inputs=[])",
    "grad of no inputs": "torch.autograd.grad(x.sum(), [])",
    "fewer gradients than tensors": "torch.autograd.backward([x.sum(), x.sum()], torch.ones(()))",
    "fewer grad_outputs than outputs": "torch.autograd.grad([x.sum(), x.sum()], x, torch.ones(()))",
    "grad_outputs of another shape": "torch.autograd.grad(x.sum(), x, torch.ones(3))",
    "grad of another dtype": "x.grad = torch.ones(3, dtype=torch.long)",
    "grad of a float to a double": ("y = torch.ones(3, dtype=torch.float64, requires_grad=True)\n"
                                    "y.grad = torch.ones(3)"),
    "integer factory requires grad": "torch.ones(3, dtype=torch.long, requires_grad=True)",
    "integer data requires grad": "torch.tensor([1, 2], requires_grad=True)",
    "integer requires_grad set": "y = torch.ones(3, dtype=torch.long)\ny.requires_grad = True",
    # conversions
    "numpy of a tensor requiring grad": "x.numpy()",
    "item of several elements": "torch.ones(2).item()",
    "bool of several elements": "bool(torch.ones(2))",
    "bool of no elements": "bool(torch.ones(0))",
    "len of a scalar": "len(torch.tensor(1.))",
    "iteration over a scalar": "iter(torch.tensor(1.))",
    # shapes
    "view across strides": "torch.ones(2, 3).t().view(-1)",
    "view of a wrong size": "torch.ones(2, 3).view(4)",
    "two inferred lengths": "torch.ones(2, 3).view(-1, -1)",
    "negative length": "torch.ones(2, 3).view(-2, 3)",
    "t of 3 dimensions": "torch.ones(2, 3, 4).t()",
    "dim out of range": "x.sum(5)",
    "broadcast mismatch": "torch.ones(2, 3) + torch.ones(3, 2)",
    "mm shapes": "torch.ones(2, 3).mm(torch.ones(2, 3))",
    "permute length": "torch.ones(2, 3).permute(0)",
    "flatten order": "torch.ones(2, 3).flatten(1, 0)",
    "expand to fewer sizes": "torch.ones(2, 3).expand(3)",
    "expand a length": "torch.ones(2, 3).expand(3, -1)",
    "expand a new -1": "torch.ones(2, 3).expand(-1, 2, 3)",
}


@pytest.mark.parametrize("name", CASES)
def test_error_text_like_torch(name):
    def case(torch):
        x = torch.ones(3, requires_grad=True)
        exec(CASES[name], {"torch": torch, "x": x, "copy": copy})
    check(case, messages=True)
