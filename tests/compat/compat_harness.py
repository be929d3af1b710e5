"""Running one snippet under compat and under PyTorch, and comparing what they give.

A *case* is a function of one argument, the library (``compat`` or ``torch``), written
once against PyTorch's API. `check(case)` runs it with both and compares the results:
tensors by shape, dtype, requires_grad, is_leaf, grad_fn name and values; exceptions by
type; numbers, strings (printed text, with object addresses masked), None-ness and
containers recursively.
"""
import contextlib
import io
import math
import re
import warnings

import numpy as np
import torch

import compat

LIBRARIES = {"compat": compat, "torch": torch}
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


class Raised:
    """What a case raised (compared by exception type)."""

    def __init__(self, error):
        self.type = type(error).__name__
        self.message = str(error)

    def __repr__(self):
        return f"Raised({self.type}: {self.message[:200]})"


def run(case, library):
    try:
        return case(LIBRARIES[library])
    except Exception as error:  # compared against the other library's behaviour
        return Raised(error)


def run_both(case):
    return run(case, "compat"), run(case, "torch")


def seeded(case, seed=0):
    """`case` run after manual_seed(seed) in its library."""
    def run(library):
        library.manual_seed(seed)
        return case(library)
    return run


def assert_same_error(case):
    """Both libraries raise the same exception type with the same message (warnings on
    the way, compared elsewhere, are silenced)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = run_both(case)
    assert isinstance(theirs, Raised), f"torch did not raise: {theirs!r}"
    assert isinstance(ours, Raised), f"compat did not raise; torch raised {theirs}"
    assert (ours.type, ours.message) == (theirs.type, theirs.message)


def gradients(module):
    """A module's parameters' gradients, by name."""
    return [(name, p.grad) for name, p in module.named_parameters()]


def module_output(module, x):
    """module(x), or its first output where it returns a tuple (an RNN's output, state)."""
    out = module(x)
    return out[0] if isinstance(out, tuple) else out


def trained(torch, module, x, steps=3):
    """The module's parameters and buffers, by name, after a few SGD steps (momentum) on
    its squared output."""
    optimizer = torch.optim.SGD(module.parameters(), lr=0.05, momentum=0.9)
    for _ in range(steps):
        optimizer.zero_grad()
        module_output(module, x).square().sum().backward()
        optimizer.step()
    return list(module.named_parameters()), list(module.named_buffers())


def check(case, rtol=1e-5, atol=1e-6, grad_fn_names=True, messages=False):
    """Run `case` under both libraries and assert they agree; returns compat's result.
    `grad_fn_names=False` skips comparing the grad_fn of result tensors (PyTorch names the
    nodes of a double backward after its own backward kernels); `messages=True` compares
    the text of what both raise, not only its type."""
    ours, theirs = run_both(case)
    assert_same(ours, theirs, rtol, atol, names=grad_fn_names)
    if messages and isinstance(theirs, Raised):
        assert ours.message == theirs.message, \
            f"compat raised {ours.message!r}, torch raised {theirs.message!r}"
    return ours


def printed(case, library):
    """What `case(library)` prints, with object addresses masked."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        case(LIBRARIES[library])
    return _ADDRESS.sub("0x?", out.getvalue())


_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def check_printed(case, rtol=0.0):
    """Assert that `case` prints the same text under both libraries: exactly, or with
    numbers equal within `rtol` (float32 sums in another order differ in the last digits)."""
    ours, theirs = printed(case, "compat"), printed(case, "torch")
    message = f"\ncompat printed:\n{ours}\ntorch printed:\n{theirs}"
    if not rtol:
        assert ours == theirs, message
        return ours
    assert _NUMBER.sub("#", ours) == _NUMBER.sub("#", theirs), message
    for a, b in zip(_NUMBER.findall(ours), _NUMBER.findall(theirs)):
        assert math.isclose(float(a), float(b), rel_tol=rtol), f"{a} != {b}{message}"
    return ours


def grad_fn_name(t):
    return None if t.grad_fn is None else type(t.grad_fn).__name__


def assert_same(ours, theirs, rtol=1e-5, atol=1e-6, where="result", names=True):
    if isinstance(theirs, Raised) or isinstance(ours, Raised):
        assert isinstance(ours, Raised) and isinstance(theirs, Raised), \
            f"{where}: compat gave {ours!r}, torch gave {theirs!r}"
        assert ours.type == theirs.type, f"{where}: compat raised {ours}, torch raised {theirs}"
        return
    if isinstance(theirs, torch.Tensor):
        _assert_same_tensor(ours, theirs, rtol, atol, where, names)
    elif isinstance(theirs, torch.dtype):
        assert str(ours) == str(theirs), f"{where}: dtype {ours} != {theirs}"
    elif isinstance(theirs, torch.device):
        assert isinstance(ours, compat.device) and repr(ours) == repr(theirs), \
            f"{where}: device {ours!r} != {theirs!r}"
    elif isinstance(theirs, torch.autograd.graph.Node):
        assert type(ours).__name__ == type(theirs).__name__, \
            f"{where}: node {type(ours).__name__} != {type(theirs).__name__}"
    elif isinstance(theirs, (tuple, list)):
        assert isinstance(ours, (tuple, list)), f"{where}: compat gave {ours!r}"
        assert len(ours) == len(theirs), f"{where}: lengths {len(ours)} != {len(theirs)}"
        for i, (a, b) in enumerate(zip(ours, theirs)):
            assert_same(a, b, rtol, atol, f"{where}[{i}]", names)
    elif isinstance(theirs, dict):
        assert ours.keys() == theirs.keys(), f"{where}: keys {ours.keys()} != {theirs.keys()}"
        for key in theirs:
            assert_same(ours[key], theirs[key], rtol, atol, f"{where}[{key!r}]", names)
    elif isinstance(theirs, float) and not isinstance(ours, bool):
        assert isinstance(ours, float), f"{where}: compat gave {ours!r}, torch {theirs!r}"
        assert math.isclose(ours, theirs, rel_tol=rtol, abs_tol=atol) or (
            math.isnan(ours) and math.isnan(theirs)), f"{where}: {ours} != {theirs}"
    elif isinstance(theirs, str):
        assert _ADDRESS.sub("0x?", ours) == _ADDRESS.sub("0x?", theirs), \
            f"{where}:\ncompat: {ours}\ntorch:  {theirs}"
    else:
        assert type(ours) is type(theirs) and ours == theirs, \
            f"{where}: compat gave {ours!r}, torch gave {theirs!r}"


def _assert_same_tensor(ours, theirs, rtol, atol, where, names):
    assert isinstance(ours, compat.Tensor), f"{where}: compat gave {ours!r}, not a Tensor"
    assert tuple(ours.shape) == tuple(theirs.shape), \
        f"{where}: shape {tuple(ours.shape)} != {tuple(theirs.shape)}"
    assert str(ours.dtype) == str(theirs.dtype), f"{where}: dtype {ours.dtype} != {theirs.dtype}"
    assert ours.requires_grad == theirs.requires_grad, f"{where}: requires_grad differs"
    # (a view of a function's several views raises on both after an update of its storage)
    assert _read(ours, "is_leaf") == _read(theirs, "is_leaf"), f"{where}: is_leaf differs"
    assert not names or _read(ours, grad_fn_name) == _read(theirs, grad_fn_name), \
        f"{where}: grad_fn {_read(ours, grad_fn_name)} != {_read(theirs, grad_fn_name)}"
    a, b = ours.detach().numpy(), theirs.detach().numpy(force=True)
    if b.dtype.kind in "fc":
        assert np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True), \
            f"{where}: values differ\ncompat: {a}\ntorch:  {b}"
    else:
        assert np.array_equal(a, b), f"{where}: values differ\ncompat: {a}\ntorch:  {b}"


def _read(t, attribute):
    """t's attribute (or a function of t), or what reading it raised (type and text)."""
    try:
        return attribute(t) if callable(attribute) else getattr(t, attribute)
    except RuntimeError as error:
        return ("raised", str(error))


def graph_names(t):
    """grad_fn name of t and the names of its next_functions, without their output indices
    (where compat names one node after a PyTorch kernel with several outputs)."""
    fn = t.grad_fn
    if fn is None:
        return None
    return type(fn).__name__, [None if f is None else type(f).__name__
                               for f, _ in fn.next_functions]


def graph(t):
    """grad_fn name of t and the names of its next_functions (what a case returns to
    compare a tensor's history)."""
    fn = t.grad_fn
    if fn is None:
        return None
    return (type(fn).__name__,
            tuple((None if f is None else type(f).__name__, i) for f, i in fn.next_functions))


def tensors_in(result, torch):
    """The tensors in a case's result, looking into tuples and lists."""
    if isinstance(result, torch.Tensor):
        return [result]
    if isinstance(result, (tuple, list)):
        return [t for item in result for t in tensors_in(item, torch)]
    return []


def weighted_gradients(expression, inputs, leaves):
    """A case: `expression` evaluated over the names that `inputs(torch)` gives, and the
    gradients, of the leaves named by the letters of `leaves`, of a weighted sum of its
    results that require grad."""
    def case(torch):
        env = inputs(torch)
        result = eval(expression, env)
        outputs = [t for t in tensors_in(result, torch) if t.requires_grad]
        if outputs:
            loss = 0
            for out in outputs:
                weights = torch.linspace(0.5, 1.5, out.numel()).reshape(out.shape)
                loss = loss + (out * weights.to(out.dtype)).sum()
            loss.backward()
        return result, [env[name].grad for name in leaves]
    return case
