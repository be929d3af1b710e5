"""The workloads of `benchmarks.instructions`, run in a fresh process:
``python instruction_workloads.py TREE NAME N`` imports funcgrad from TREE and runs NAME
with N repetitions (primitives in a chain, or calls)."""
import sys

tree, name, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, tree)

import numpy as np  # noqa: E402

import compat as torch  # noqa: E402
import funcgrad  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402

x0 = np.linspace(0.1, 0.5, 3)
rng = np.random.default_rng(0)
W1, W2, X = rng.standard_normal((4, 8)), rng.standard_normal((8, 2)), rng.standard_normal((5, 4))
W3 = np.eye(3) * 1.01
# benchmarks.vmap's Jacobian workloads at n = 50
A50, X50 = rng.standard_normal((50, 50)) / np.sqrt(50), rng.standard_normal(50)


# Each chain's loop is written out: a helper called per step would add its own cost.
def sin_chain(x):
    for _ in range(n):
        x = fnp.sin(x)
    return fnp.sum(x)


def mul_chain(x):
    for _ in range(n):
        x = x * 1.01
    return fnp.sum(x)


def matvec_chain(x):
    for _ in range(n):
        x = W3 @ x
    return fnp.sum(x)


def compat_chain(multiply):
    x = torch.tensor(x0, requires_grad=True)
    y = x
    for _ in range(n):
        y = y * 1.01 if multiply else y.sin()
    y.sum().backward()


def compat_links():
    """issue 16's chain: n links of sin(x) * 1.01 + 0.1, three recorded operations each."""
    x = torch.tensor(x0, requires_grad=True)
    y = x
    for _ in range(n):
        y = torch.sin(y) * 1.01 + 0.1
    y.sum().backward()


def net(params):
    w1, w2 = params
    return fnp.sum((fnp.tanh(X @ w1) @ w2) ** 2)


def net_steps():
    step = funcgrad.value_and_grad(net)
    for _ in range(n):
        step((W1, W2))


def compat_net():
    w1, w2 = torch.tensor(W1, requires_grad=True), torch.tensor(W2, requires_grad=True)
    xt = torch.tensor(X)
    for _ in range(n):
        ((xt.mm(w1).tanh()).mm(w2) ** 2).sum().backward()


def _until_compiled(jitted, *args):
    """Call `jitted` until its program is compiled (trees from before jit's interpreted
    tier, which have no compile_count, compile on the second call)."""
    jitted(*args)  # traced
    jitted(*args)
    while getattr(jitted, "compile_count", 1) == 0:
        jitted(*args)


def jit_net_steps():
    step = funcgrad.jit(funcgrad.value_and_grad(net))
    _until_compiled(step, (W1, W2))
    for _ in range(n):
        step((W1, W2))


def jit_calls():
    """A jitted one-primitive function: what a call costs around its program."""
    sine = funcgrad.jit(fnp.sin)
    _until_compiled(sine, x0)
    for _ in range(n):
        sine(x0)


def jit_seed_steps():
    """The seed network's step as `benchmarks.jit` times it: jit(value_and_grad), compiled,
    then SGD in place (against numpy_seed_steps, the hand-written step)."""
    from benchmarks import jit as timed, workloads
    value_and_grad, loss = workloads._functional_network("funcgrad")
    jitted = funcgrad.jit(value_and_grad(loss, argnums=(0, 1)))
    step = timed._in_place_step(jitted, workloads.network_data())
    timed.until_compiled(step, jitted)
    for _ in range(n):
        step()


def numpy_seed_steps():
    from benchmarks import workloads
    x, y, w1, w2 = workloads.network_data()
    for _ in range(n):
        workloads.numpy_step(x, y, w1, w2)


FIRST_CALL_LINKS = 100  # of sin(x) * 1.01 + 0.1: 300 primitives


def links(x):
    for _ in range(FIRST_CALL_LINKS):
        x = fnp.sin(x) * 1.01 + 0.1
    return fnp.sum(x)


def jit_first_calls():
    """A fresh jit(grad) of a 300-primitive chain called twice: tracing, then an
    interpreted run (before jit's interpreted tier: the passes, code generation and
    compilation, and a run)."""
    for _ in range(n):
        gradient = funcgrad.jit(funcgrad.grad(links))
        gradient(x0)
        gradient(x0)


def links_grad_calls():
    gradient = funcgrad.grad(links)
    for _ in range(n):
        gradient(x0)


def grad_calls():
    gradient = funcgrad.grad(fnp.sum)
    for _ in range(n):
        gradient(x0)


def jacrev_calls():
    jacobian = funcgrad.jacrev(lambda x: fnp.tanh(A50 @ x) * x)
    for _ in range(n):
        jacobian(X50)


def hessian_calls():
    hessian = funcgrad.hessian(lambda x: fnp.sum(fnp.tanh(A50 @ x) ** 2))
    for _ in range(n):
        hessian(X50)


def per_example_calls():
    """benchmarks.vmap's per-example gradients at tiny shapes (a batch of 5, 4-8-2): the
    Python around their NumPy operations."""
    def loss(w1, w2, x, y):
        return fnp.sum((fnp.maximum(x @ w1, 0.0) @ w2 - y) ** 2)
    per_example = funcgrad.vmap(funcgrad.grad(loss, argnums=(0, 1)), in_axes=(None, None, 0, 0))
    y = rng.standard_normal((5, 2))
    for _ in range(n):
        per_example(W1, W2, X, y)


WORKLOADS = {
    # grad of an n-primitive chain: a primitive forward and backward per repetition
    "sin": lambda: funcgrad.grad(sin_chain)(x0),
    "mul": lambda: funcgrad.grad(mul_chain)(x0),
    "matvec": lambda: funcgrad.grad(matvec_chain)(x0),
    "compat_sin": lambda: compat_chain(multiply=False),
    "compat_mul": lambda: compat_chain(multiply=True),
    "compat_link": compat_links,  # per link: three operations
    # a whole call per repetition
    "net": net_steps,
    "compat_net": compat_net,
    "grad_call": grad_calls,
    "jit_net": jit_net_steps,
    "jit_call": jit_calls,
    "jit_seed_step": jit_seed_steps,
    "numpy_seed_step": numpy_seed_steps,
    # the first two calls of a jitted function, and an eager call of the same
    "jit_first_calls": jit_first_calls,
    "links_grad_call": links_grad_calls,
    "jacrev_call": jacrev_calls,
    "hessian_call": hessian_calls,
    "per_example_call": per_example_calls,
}

WORKLOADS[name]()
