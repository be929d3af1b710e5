"""Random PyTorch programs for compat: tensor methods and functions of one or two values
(on tensors and nn.Parameters), torch.nn.functional operations (linear, conv2d, layer_norm,
softmax, log_softmax, cross_entropy, dropout in eval) whose weights are new leaves,
in-place operations on tensors and their views, detach and clone, no_grad blocks, hooks,
retain_grad and backward passes (once, or twice with retain_graph), then maybe two steps
of an optimizer over the leaves, as the text of ``def program(torch)``.

The text is run with ``torch`` bound to compat and to PyTorch (tests/compat/
compat_harness.py compares what each returns or raises). Programs are not kept valid:
an in-place update of a leaf, or of a value a backward rule saved, makes both libraries
raise, and that error is compared. Every function used is bounded or applied to bounded
values, so no derivative meets a pole.
"""
import dataclasses
import itertools

import hypothesis.extra.numpy as hnp
import hypothesis.strategies as st
import numpy as np

from oracle import floats


@dataclasses.dataclass(frozen=True)
class TorchProgram:
    lines: tuple

    @property
    def text(self):
        body = "\n".join("    " + line for line in self.lines)
        return f"def program(torch):\n{body}\n"

    def bind(self):
        scope = {}
        exec(compile(self.text, "<random torch program>", "exec"), scope)
        return scope["program"]

    def __repr__(self):
        return "\n" + self.text


@dataclasses.dataclass(frozen=True)
class _Value:
    name: str
    shape: tuple
    storage: str  # the name of the value whose memory it views (its own if none)
    leaf: bool = False


# Bounded results for any input (relu and abs are kinked at 0, where both libraries give
# the derivative 0... and 1 for relu's: compared too).
UNARY = ("sin", "cos", "tanh", "sigmoid", "atan", "relu", "abs", "square")
# (tanh_ and sigmoid_ save their result: a second update of it is an error in both.)
IN_PLACE_UNARY = ("zero_", "neg_", "abs_", "tanh_", "sigmoid_", "sin_", "cos_")


class _Builder:
    def __init__(self, draw):
        self.draw = draw
        self.lines = []
        self.values = []
        self.leaves = []
        # Views of a storage updated in place after they were taken: PyTorch 2.13 crashes
        # (segmentation fault) registering a hook on one, so none is registered.
        self.hookless = set()
        # An update under no_grad makes PyTorch rebuild the grad_fn of the storage's views,
        # where compat keeps their history (docs/guide-compat.md): a storage with a hooked
        # view is not updated under no_grad, and a view of one updated so is neither hooked
        # nor retains its gradient.
        self.hooked = set()
        self.quietly_updated = set()
        self.names = (f"v{i}" for i in itertools.count())

    def leaf(self, shape=None):
        if shape is None:
            shape = self.draw(hnp.array_shapes(min_dims=1, max_dims=2, min_side=1, max_side=3))
        entries = self.draw(hnp.arrays(np.float64, shape, elements=floats(-1.5, 1.5)))
        name = f"x{len(self.leaves)}"
        value = _Value(name, shape, leaf=True, storage=name)
        data = f"torch.tensor({entries.tolist()!r}, dtype=torch.float64"
        # A leaf is a tensor that requires grad, or an nn.Parameter (a Tensor subclass).
        self.lines.append(f"{value.name} = torch.nn.Parameter({data}))" if self.draw(
            st.booleans()) else f"{value.name} = {data}, requires_grad=True)")
        self.leaves.append(value)
        self.values.append(value)
        return value

    def pick(self, accept=lambda v: True):
        choices = [v for v in self.values if accept(v)]
        return self.draw(st.sampled_from(choices)) if choices else None

    def emit(self, expression, shape, view_of=None):
        name = next(self.names)
        value = _Value(name, tuple(shape), storage=view_of.storage if view_of else name)
        self.lines.append(f"{value.name} = {expression}")
        self.values.append(value)
        return value

    def updated(self, x):
        """Note an in-place update of `x`'s storage."""
        self.hookless.update(v.name for v in self.values
                             if v.storage == x.storage and v.name != v.storage)

    def partner(self, shape, storage=None):
        """A value broadcastable to ``shape`` (same shape, or its last axis), or a number;
        for an in-place update of `storage`, not a view of it."""
        same = self.pick(lambda v: (v.shape == shape or v.shape == shape[-1:])
                         and v.storage != storage)
        if same is not None and self.draw(st.booleans()):
            return same.name
        return repr(self.draw(st.sampled_from([0.5, -2.0, 1.5])))


def _unary(b):
    x = b.pick()
    name = b.draw(st.sampled_from(UNARY))
    spelling = b.draw(st.sampled_from([f"{x.name}.{name}()", f"torch.{name}({x.name})"]))
    return b.emit(spelling, x.shape)


def _reordering(b):
    """An operation that moves or accumulates entries, keeping the shape."""
    x = b.pick()
    dim = b.draw(st.integers(-len(x.shape), len(x.shape) - 1))
    expression = b.draw(st.sampled_from([
        f"torch.flip({x.name}, [{dim}])", f"{x.name}.roll(1, {dim})",
        f"{x.name}.cumsum({dim})", f"torch.cummax({x.name}, {dim}).values",
        f"{x.name}.tril()" if len(x.shape) == 2 else f"{x.name}.flip({dim})"]))
    return b.emit(expression, x.shape)


def _combining(b):
    """An operation of two values: a concatenation, a stack, a matrix product, a choice."""
    x = b.pick()
    y = b.pick(lambda v: v.shape == x.shape)  # (x itself, at least)
    kind = b.draw(st.sampled_from(["cat", "stack", "where", "matmul", "softmax", "gather"]))
    if kind == "cat":
        return b.emit(f"torch.cat([{x.name}, {y.name}])", (2 * x.shape[0],) + x.shape[1:])
    if kind == "stack":
        return b.emit(f"torch.stack([{x.name}, {y.name}], dim=-1)", x.shape + (2,))
    if kind == "where":
        return b.emit(f"torch.where({x.name} > {y.name}, {x.name}, {y.name})", x.shape)
    if kind == "matmul" and len(x.shape) == 2:
        return b.emit(f"{x.name} @ {y.name}.t()", (x.shape[0], x.shape[0]))
    if kind == "gather":  # every entry from row 0
        index = np.zeros(x.shape, dtype=int).tolist()
        return b.emit(f"{x.name}.gather(0, torch.tensor({index!r}))", x.shape)
    return b.emit(f"torch.softmax({x.name}, dim=-1)", x.shape)


F = "torch.nn.functional"


def _scalar_result(b, result):
    """A 0-d `result` as a value of shape (1,): PyTorch's reshape(1) of it is a view of it,
    a storage no value names."""
    unnamed = _Value(result, (), storage=f"{result} (line {len(b.lines)})")
    return b.emit(f"{result}.reshape(1)", [1], view_of=unnamed)


def _optional_leaf(b, shape):
    return f"{b.leaf(shape).name}" if b.draw(st.booleans()) else "None"


def _functional(b):
    """A torch.nn.functional operation; its weights are new leaves."""
    x = b.pick()
    kind = b.draw(st.sampled_from(["linear", "conv2d", "layer_norm", "softmax",
                                   "log_softmax", "cross_entropy", "dropout"]))
    n = x.shape[-1]
    if kind == "linear":
        out = b.draw(st.integers(1, 3))
        weight = b.leaf((out, n))
        return b.emit(f"{F}.linear({x.name}, {weight.name}, {_optional_leaf(b, (out,))})",
                      x.shape[:-1] + (out,))
    if kind == "conv2d" and len(x.shape) == 2:
        height, width = x.shape
        channels, padding = b.draw(st.integers(1, 2)), b.draw(st.integers(0, 1))
        kernel = (b.draw(st.integers(1, height)), b.draw(st.integers(1, width)))
        weight = b.leaf((channels, 1) + kernel)
        rows = height + 2 * padding - kernel[0] + 1
        columns = width + 2 * padding - kernel[1] + 1
        result = (f"{F}.conv2d({x.name}[None, None], {weight.name}, "
                  f"{_optional_leaf(b, (channels,))}, padding={padding})")
        # A view of the unnamed (1, channels, rows, columns) result.
        unnamed = _Value(result, (), storage=f"{result} (line {len(b.lines)})")
        return b.emit(f"{result}.reshape({channels * rows}, {columns})",
                      (channels * rows, columns), view_of=unnamed)
    if kind == "layer_norm":
        # eps 0.1: the backward divides by (var + eps) ** 1.5, which amplifies rounding by
        # 3e7 at the default eps where var is 0 (a row of one entry, or of equal ones):
        # PyTorch's gradient there, 0 exactly, was -1e-11.
        return b.emit(f"{F}.layer_norm({x.name}, [{n}], {_optional_leaf(b, (n,))}, "
                      f"{_optional_leaf(b, (n,))}, eps=0.1)", x.shape)
    if kind == "cross_entropy":
        # A class index for each row (one for a 1-d x, unbatched).
        classes = [b.draw(st.integers(0, n - 1)) for _ in range(x.shape[0])] \
            if len(x.shape) == 2 else b.draw(st.integers(0, n - 1))
        target = f"torch.tensor({classes!r})"
        reduction = b.draw(st.sampled_from(["mean", "sum", "none"]))
        smoothing = b.draw(st.sampled_from([0.0, 0.25]))
        result = (f"{F}.cross_entropy({x.name}, {target}, reduction={reduction!r}, "
                  f"label_smoothing={smoothing})")
        if reduction == "none" and len(x.shape) == 2:
            return b.emit(result, x.shape[:1])
        return _scalar_result(b, result)
    if kind == "dropout":  # in eval, the input itself
        spelling = b.draw(st.sampled_from([f"{F}.dropout({x.name}, 0.5, training=False)",
                                           f"torch.nn.Dropout(0.25).eval()({x.name})"]))
        return b.emit(spelling, x.shape, x)
    dim = b.draw(st.integers(-len(x.shape), len(x.shape) - 1))
    name = "log_softmax" if kind == "log_softmax" else "softmax"
    return b.emit(f"{F}.{name}({x.name}, dim={dim})", x.shape)


def _binary(b):
    x = b.pick()
    operator = b.draw(st.sampled_from(["+", "-", "*"]))
    return b.emit(f"{x.name} {operator} {b.partner(x.shape)}", x.shape)


def _reduce(b):
    x = b.pick()
    name = b.draw(st.sampled_from(["sum", "mean", "amax"]))
    dim = b.draw(st.integers(-len(x.shape), len(x.shape) - 1))
    keepdim = b.draw(st.booleans())
    shape = [1 if i == dim % len(x.shape) else n for i, n in enumerate(x.shape)
             if keepdim or i != dim % len(x.shape)]
    if not shape:
        return _scalar_result(b, f"{x.name}.{name}(dim={dim}, keepdim={keepdim})")
    return b.emit(f"{x.name}.{name}(dim={dim}, keepdim={keepdim})", shape)


def _view(b):
    x = b.pick()
    kind = b.draw(st.sampled_from(["select", "slice", "flat", "unsqueeze", "t", "expand"]))
    if kind == "select" and len(x.shape) == 2:
        i = b.draw(st.integers(-x.shape[0], x.shape[0] - 1))
        return b.emit(f"{x.name}[{i}]", x.shape[1:], x)
    if kind == "slice":
        start = b.draw(st.integers(0, x.shape[0] - 1))
        return b.emit(f"{x.name}[{start}:]", (x.shape[0] - start,) + x.shape[1:], x)
    if kind == "t" and len(x.shape) == 2:
        return b.emit(f"{x.name}.t()", x.shape[::-1], x)
    if kind == "unsqueeze" and len(x.shape) == 1:
        return b.emit(f"{x.name}.unsqueeze(0)", (1,) + x.shape, x)
    if kind == "expand" and len(x.shape) == 1:
        return b.emit(f"{x.name}.expand(2, {x.shape[0]})", (2,) + x.shape, x)
    return b.emit(f"{x.name}.view(-1)", (int(np.prod(x.shape)),), x)


def _in_place(b):
    # Mostly on values that are not leaves; a leaf now and then (an error in both).
    x = b.pick(lambda v: not v.leaf or b.draw(st.integers(0, 9)) == 0)
    if x is None:
        return
    b.updated(x)
    kind = b.draw(st.sampled_from(["unary", "add_", "mul_", "setitem", "copy_"]))
    if kind == "unary":
        b.lines.append(f"{x.name}.{b.draw(st.sampled_from(IN_PLACE_UNARY))}()")
    elif kind == "setitem":
        b.lines.append(f"{x.name}[0] = {b.partner(x.shape[1:] or (1,), x.storage)}")
    elif kind == "copy_":
        same = b.pick(lambda v: v.shape == x.shape and v.storage != x.storage)
        if same is not None:
            b.lines.append(f"{x.name}.copy_({same.name})")
    else:
        b.lines.append(f"{x.name}.{kind}({b.partner(x.shape, x.storage)})")


def _detach(b):
    x = b.pick()
    if b.draw(st.booleans()):
        return b.emit(f"{x.name}.detach()", x.shape, x)  # shares x's memory
    return b.emit(f"{x.name}.clone()", x.shape)


def _no_grad(b):
    x = b.pick()
    if b.draw(st.booleans()):
        name = next(b.names)
        b.lines += ["with torch.no_grad():", f"    {name} = {x.name} * 2.0"]
        b.values.append(_Value(name, x.shape, storage=name))
    elif x.storage not in b.hooked:
        # An update under no_grad (leaves too): bumps the version, records nothing.
        b.updated(x)
        b.quietly_updated.add(x.storage)
        b.lines += ["with torch.no_grad():", f"    {x.name}.mul_(0.5)"]


def _hook(b):
    x = b.pick(lambda v: v.name not in b.hookless
               and (v.name == v.storage or v.storage not in b.quietly_updated))
    if x is None:
        return
    if b.draw(st.booleans()):
        b.lines.append(f"{x.name}.register_hook(lambda g: g * 2.0)")
        if x.name != x.storage:
            b.hooked.add(x.storage)
    else:
        b.lines.append(f"{x.name}.retain_grad()")


OPERATIONS = (_unary, _unary, _binary, _binary, _reduce, _reordering, _combining, _view,
              _in_place, _in_place, _detach, _no_grad, _hook, _functional)

# Optimizers and their options: eps 1e-3 where the step divides by a root of the squared
# gradients, so that a gradient of rounding noise (1e-17, where the other library's is 0)
# moves a weight by less than the comparison's 1e-12, not by lr * 1e-17 / 1e-8.
OPTIMIZERS = (
    "SGD({leaves}, lr=0.1)", "SGD({leaves}, lr=0.1, momentum=0.9, nesterov=True)",
    "SGD({leaves}, lr=0.1, momentum=0.5, dampening=0.1, weight_decay=0.01)",
    "Adam({leaves}, lr=0.1, eps=1e-3)", "Adam({leaves}, lr=0.1, eps=1e-3, amsgrad=True)",
    "AdamW({leaves}, lr=0.1, eps=1e-3, weight_decay=0.1)",
    "RMSprop({leaves}, lr=0.01, eps=1e-3, momentum=0.5, centered=True)",
    "Adagrad({leaves}, lr=0.1, eps=1e-3)", "Adadelta({leaves}, eps=1e-3)")


@st.composite
def torch_programs(draw, min_steps=2, max_steps=10):
    b = _Builder(draw)
    for _ in range(draw(st.integers(1, 2))):
        b.leaf()
    for _ in range(draw(st.integers(min_steps, max_steps))):
        draw(st.sampled_from(OPERATIONS))(b)
    last = b.values[-1].name
    twice = draw(st.booleans())
    b.lines.append(f"out = ({last} * {last}).sum()")
    b.lines.append(f"out.backward(retain_graph={twice})")
    if twice:
        b.lines.append("out.backward()")
    # Every value (its data, requires_grad, is_leaf, grad_fn) and every .grad (leaves',
    # retained ones', None elsewhere) after the backward passes; the leaves' data after the
    # optimizer's steps, if any.
    every = ", ".join(v.name for v in b.values)
    b.lines.append(f"values = [{every}]")
    b.lines.append("grads = [v.grad if v.is_leaf or v.retains_grad else None for v in values]")
    optimizer = draw(st.sampled_from((None,) + OPTIMIZERS))
    if optimizer is not None:
        leaves = "[" + ", ".join(v.name for v in b.leaves) + "]"
        b.lines += [f"optimizer = torch.optim.{optimizer.format(leaves=leaves)}",
                    "optimizer.step()", "optimizer.step()", "optimizer.zero_grad()"]
    b.lines.append("return {'values': values, 'grads': grads, 'out': out}")
    return TorchProgram(tuple(b.lines))
