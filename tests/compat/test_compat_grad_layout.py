"""The gradient layout contract against PyTorch (AccumulateGrad's): after any graph, .grad is
a dense, writable tensor of the leaf's shape and dtype, with the leaf's strides when the leaf
is dense (else row-major), sharing storage with nothing else; `view(-1)`, item assignment,
`.data.zero_()` and `.numpy()` on it behave as in PyTorch, once and after accumulation."""
import numpy as np
import pytest

from compat_harness import check

LEAVES = {
    "contiguous": "torch.arange(1., 13.).reshape(3, 4)",
    "transposed": "torch.arange(1., 13.).reshape(4, 3).t()",
    "strided": "torch.arange(1., 25.).reshape(3, 8)[:, ::2]",
    "expanded": "torch.arange(1., 5.).expand(3, 4)",
    "float64": "torch.arange(1., 13., dtype=torch.float64).reshape(3, 4)",
}

# Each graph is a function of the leaf x (3 x 4) and g, a tensor the user holds; `loss` is
# what backward starts from, with `gradient` when it is not a scalar.
GRAPHS = {
    "sum": "loss = x.sum()",
    "mean": "loss = x.mean()",
    "sum over a dim": "loss = x.sum(0).sum()",
    "amax": "loss = x.amax(1).sum()",
    "max": "loss = x.max()",
    "scale": "loss = (x * 2).sum()",
    "square": "loss = (x * x).sum()",
    "broadcast add": "loss = (x + torch.ones(4)).sum()",
    "broadcast mul": "loss = (x * torch.ones(3, 1)).sum()",
    "exp": "loss = x.exp().sum()",
    "index": "loss = x[0].sum()",
    "slice": "loss = x[:, 1:3].sum()",
    "fancy index": "loss = x[[0, 2, 0]].sum()",
    "expand": "loss = x.expand(2, 3, 4).sum()",
    "reshape": "loss = x.reshape(-1).sum()",
    "t": "loss = x.t().sum()",
    "permute matmul": "loss = x.permute(1, 0).matmul(torch.ones(3, 2)).sum()",
    "matmul": "loss = (x @ torch.ones(4, 2)).sum()",
    "softmax": "loss = (x.softmax(1) * torch.arange(4.)).sum()",
    "cat": "loss = torch.cat([x, x]).sum()",
    "leaf itself": "loss, gradient = x, g",
    "transposed view": "loss, gradient = x.t(), g.t()",
    "expanded gradient": "loss, gradient = x * 1, torch.ones(4).expand(3, 4)",
    "identity function": "loss, gradient = Identity.apply(x), g",
    "view function": "loss, gradient = ViewOfGradient.apply(x), g",
}


# Where the gradient given to backward reaches the leaf as a view of the user's tensor g,
# PyTorch takes that view as .grad (its refcount is 1), so writing to .grad changes g.
# compat copies it: .grad never shares storage (checked in the last test).
TORCH_SHARES_USERS_STORAGE = {"transposed view", "view function"}


def _functions(torch):
    class Identity(torch.autograd.Function):
        """Backward returns the incoming gradient itself."""

        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, grad):
            return grad

    class ViewOfGradient(torch.autograd.Function):
        """Backward returns a view of the incoming gradient."""

        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, grad):
            return grad.t().t()

    return {"Identity": Identity, "ViewOfGradient": ViewOfGradient}


def _layout(t):
    """Strides of the dimensions longer than 1 (PyTorch's contract ignores the others)."""
    return tuple(s for s, n in zip(t.stride(), t.shape) if n != 1)


@pytest.mark.parametrize("leaf", LEAVES)
@pytest.mark.parametrize("graph", GRAPHS)
def test_grad_is_dense_writable_and_its_own_like_torch(leaf, graph):
    def case(torch):
        dtype = torch.float64 if leaf == "float64" else torch.float32
        x = eval(LEAVES[leaf], {"torch": torch}).detach().requires_grad_()
        g = torch.arange(12., dtype=dtype).reshape(3, 4)
        scope = {"torch": torch, "x": x, "g": g, "gradient": None, **_functions(torch)}
        seen = []
        for _ in range(2):  # the second backward accumulates into the first's .grad
            exec(GRAPHS[graph], scope)
            loss, gradient = scope["loss"], scope["gradient"]
            loss.backward(gradient)
            grad = x.grad
            seen.append((grad.clone(), grad.dtype, _layout(grad), grad.is_contiguous()))
        seen.append(grad.view(-1) if grad.is_contiguous() else grad.reshape(-1))
        grad[0] = 1
        seen.append(grad.numpy().copy().tolist())
        grad.data.zero_()
        seen.append(grad.numpy().flags.writeable)
        seen.append((x.detach().clone(), x.grad.clone()))  # nothing else changed
        if graph not in TORCH_SHARES_USERS_STORAGE:
            seen.append(g.clone())
        return seen
    check(case)


@pytest.mark.parametrize("graph", sorted(GRAPHS))
def test_grad_shares_no_storage(graph):
    """compat's .grad never shares memory with the leaf, the gradient given to backward or
    the graph's tensors, in the graphs where PyTorch's does too."""
    import compat as torch
    x = torch.arange(1., 13.).reshape(3, 4).requires_grad_()
    g = torch.arange(12.).reshape(3, 4)
    scope = {"torch": torch, "x": x, "g": g, "gradient": None, **_functions(torch)}
    exec(GRAPHS[graph], scope)
    scope["loss"].backward(scope["gradient"])
    grad = x.grad.numpy()
    assert grad.flags.writeable and grad.flags.owndata
    for other in (x, g, scope["loss"], scope["gradient"]):
        if other is not None:
            assert not np.shares_memory(grad, other.detach().numpy())
