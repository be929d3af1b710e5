"""Random PyTorch programs for compat: tensor methods and functions of one or two values
(on tensors and nn.Parameters), torch.nn.functional operations (linear, conv2d, layer_norm,
softmax, log_softmax, cross_entropy, dropout in eval) whose weights are new leaves,
in-place operations on tensors and their views, detach and clone, no_grad blocks, hooks,
retain_grad and backward passes (once, or twice with retain_graph), then maybe two steps
of an optimizer over the leaves, as the text of ``def program(torch)`` (torch_programs).
Three more kinds: complex_programs (complex leaves and complex values of real ones, their
arithmetic, parts, views and products, and the backward of a real scalar of them),
higher_order_programs (autograd.grad(create_graph=True), then the derivatives of a scalar
of the gradients) and nn_training_programs (Embedding, Conv1d, BatchNorm1d, LayerNorm and
Linear modules after manual_seed, trained for a few steps by SGD or Adam).

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
    tolerance: float = 1e-12  # rtol and atol of the comparison (float32 programs: looser)

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


class _Drawing:
    """What the program builders share: the draw function, the program's lines, its values
    and leaves, and picking a drawn value."""

    def __init__(self, draw):
        self.draw = draw
        self.lines = []
        self.values = []
        self.leaves = []

    def pick(self, accept=lambda v: True):
        choices = [v for v in self.values if accept(v)]
        return self.draw(st.sampled_from(choices)) if choices else None


class _Builder(_Drawing):
    def __init__(self, draw, second_order=False):
        super().__init__(draw)
        # For second derivatives (PyTorch's layer_norm has none with a bias and no weight)
        self.second_order = second_order
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
        elements = floats(-1.5, 1.5)
        if self.second_order:
            # PyTorch's double backward of prod divides by the input: at 1e-51 its second
            # derivative was 0 where the function's is 0.0625 (and PyTorch's at 0 too).
            elements = elements.map(lambda v: 0.0 if abs(v) < 1e-6 else v)
        entries = self.draw(hnp.arrays(np.float64, shape, elements=elements))
        name = f"x{len(self.leaves)}"
        value = _Value(name, shape, leaf=True, storage=name)
        data = f"torch.tensor({entries.tolist()!r}, dtype=torch.float64"
        # A leaf is a tensor that requires grad, or an nn.Parameter (a Tensor subclass).
        self.lines.append(f"{value.name} = torch.nn.Parameter({data}))" if self.draw(
            st.booleans()) else f"{value.name} = {data}, requires_grad=True)")
        self.leaves.append(value)
        self.values.append(value)
        return value

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
        weight = _optional_leaf(b, (n,))
        bias = "None" if b.second_order and weight == "None" else _optional_leaf(b, (n,))
        return b.emit(f"{F}.layer_norm({x.name}, [{n}], {weight}, {bias}, eps=0.1)", x.shape)
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


# Reductions along one dim: var without correction (one entry has none to divide by), norm
# (0 at a zero row in both), max/min's values (the first of tied entries gets the gradient
# in both), prod (zeros: relu's, a clamp's).
REDUCTIONS = ("sum", "mean", "amax", "prod", "logsumexp", "norm", "max", "min", "var")


def _reduce(b):
    x = b.pick()
    name = b.draw(st.sampled_from(REDUCTIONS))
    dim = b.draw(st.integers(-len(x.shape), len(x.shape) - 1))
    keepdim = b.draw(st.booleans())
    shape = [1 if i == dim % len(x.shape) else n for i, n in enumerate(x.shape)
             if keepdim or i != dim % len(x.shape)]
    arguments = f"dim={dim}, keepdim={keepdim}"
    expression = {"logsumexp": f"torch.logsumexp({x.name}, {arguments})",
                  "max": f"{x.name}.max({arguments}).values",
                  "min": f"torch.min({x.name}, {arguments})[0]",
                  "var": f"{x.name}.var({arguments}, correction=0)"
                  }.get(name, f"{x.name}.{name}({arguments})")
    if not shape:
        return _scalar_result(b, expression)
    return b.emit(expression, shape)


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


# Functions with no pole at any finite input, each of one value: smooth ones and kinked
# ones (clamps, shrinks, abs inside log1p). Inputs exactly at a kink (0, 1.0, 0.5 are
# drawn) compare the one-sided derivatives both libraries pick.
MORE_UNARY = ("torch.erf({x})", "F.gelu({x})", "F.gelu({x}, approximate='tanh')",
              "F.silu({x})", "F.softplus({x})", "F.elu({x})", "F.leaky_relu({x}, 0.1)",
              "F.hardtanh({x})", "F.softsign({x})", "F.logsigmoid({x})", "F.hardswish({x})",
              "F.mish({x})", "F.softshrink({x}, 0.5)", "F.celu({x})", "F.selu({x})",
              "{x}.clamp(-0.5, 1.0)", "{x}.clamp(min=0.5)", "torch.log1p({x}.abs())",
              "torch.exp(-{x} * {x})")
# Zero slopes (their zero gradient reaches the nodes before them as PyTorch's zeros do), of
# leaves only: computed values may be 0 plus rounding noise (a layer_norm of equal
# entries), of either sign in either library, which these turn into whole units.
STEPS = ("{x}.sign()", "{x}.floor()", "{x}.frac()")


def _more_unary(b):
    x = b.pick()
    steps = x.leaf and b.draw(st.booleans())
    expression = b.draw(st.sampled_from(STEPS if steps else MORE_UNARY)).format(x=x.name)
    return b.emit(expression.replace("F.", f"{F}."), x.shape)


# Functions of two values of one shape (x and y may be one value: ties in maximum and
# minimum, whose gradient both libraries split).
PAIRWISE = ("torch.maximum({x}, {y})", "torch.minimum({x}, {y})", "torch.lerp({x}, {y}, 0.25)",
            "torch.addcmul({x}, {y}, {y}, value=0.5)", "{x} / (1.0 + {y} * {y})",
            "torch.atan2({x}, {y}.abs() + 1.0)", "torch.fmax({x}, {y})",
            "torch.hypot({x}, {y} + 2.0)", "F.mse_loss({x}, {y}, reduction='none')",
            "F.smooth_l1_loss({x}, {y}, reduction='none', beta=0.5)")


def _pairwise(b):
    x = b.pick()
    y = b.pick(lambda v: v.shape == x.shape)
    return b.emit(b.draw(st.sampled_from(PAIRWISE)).format(x=x.name, y=y.name)
                  .replace("F.", f"{F}."), x.shape)


def _more_views(b):
    """Views of one value: permutations, narrowing, pieces, strided slices, new axes."""
    x = b.pick()
    shape, last = x.shape, len(x.shape) - 1
    dim = b.draw(st.integers(0, last))
    half = (shape[dim] + 1) // 2
    kind = b.draw(st.sampled_from(["transpose", "narrow", "chunk", "unbind", "split",
                                   "step", "unsqueeze", "movedim", "diagonal", "unflatten"]))
    if kind == "transpose" and len(shape) == 2:
        return b.emit(f"{x.name}.transpose(0, 1)", shape[::-1], x)
    if kind == "movedim" and len(shape) == 2:
        return b.emit(f"{x.name}.movedim(0, -1)", shape[::-1], x)
    if kind == "diagonal" and len(shape) == 2:
        return b.emit(f"{x.name}.diagonal()", (min(shape),), x)
    if kind == "narrow":
        return b.emit(f"{x.name}.narrow({dim}, {shape[dim] - 1}, 1)",
                      shape[:dim] + (1,) + shape[dim + 1:], x)
    if kind == "chunk":
        return b.emit(f"{x.name}.chunk(2, {dim})[0]", shape[:dim] + (half,) + shape[dim + 1:],
                      x)
    if kind == "unbind":
        return b.emit(f"{x.name}.unbind({dim})[-1]", shape[:dim] + shape[dim + 1:], x) \
            if len(shape) == 2 else b.emit(f"{x.name}.unbind(0)[0].unsqueeze(0)", (1,), x)
    if kind == "split":
        return b.emit(f"{x.name}.split(1, {dim})[-1]", shape[:dim] + (1,) + shape[dim + 1:], x)
    if kind == "step":
        return b.emit(f"{x.name}[..., ::2]", shape[:-1] + ((shape[-1] + 1) // 2,), x)
    if kind == "unflatten":
        return b.emit(f"{x.name}.unflatten({dim}, ({shape[dim]}, 1))",
                      shape[:dim] + (shape[dim], 1) + shape[dim + 1:], x)
    return b.emit(f"{x.name}.unsqueeze(-1)", shape + (1,), x)


def _indexing(b):
    """Gathers by repeated indices (their gradients accumulate) and masked writes."""
    x = b.pick()
    rows = b.draw(st.lists(st.integers(0, x.shape[0] - 1), min_size=1, max_size=3))
    kind = b.draw(st.sampled_from(["advanced", "index_select", "masked_fill", "take",
                                   "scatter_add"]))
    if kind == "advanced":
        return b.emit(f"{x.name}[{rows!r}]", (len(rows),) + x.shape[1:])
    if kind == "index_select":
        return b.emit(f"{x.name}.index_select(0, torch.tensor({rows!r}))",
                      (len(rows),) + x.shape[1:])
    if kind == "take":
        return b.emit(f"{x.name}.take(torch.tensor({rows!r}))", (len(rows),))
    if kind == "scatter_add" and len(x.shape) == 1:
        y = b.pick(lambda v: v.shape == (len(rows),))
        if y is not None:
            return b.emit(f"{x.name}.scatter_add(0, torch.tensor({rows!r}), {y.name})",
                          x.shape)
    return b.emit(f"{x.name}.masked_fill({x.name} > 0.25, 0.5)", x.shape)


def _in_place(b):
    # Mostly on values that are not leaves; a leaf now and then (an error in both).
    x = b.pick(lambda v: not v.leaf or b.draw(st.integers(0, 9)) == 0)
    if x is None:
        return
    b.updated(x)
    kind = b.draw(st.sampled_from(["unary", "add_", "mul_", "setitem", "copy_", "other",
                                   "masked"]))
    if kind == "unary":
        b.lines.append(f"{x.name}.{b.draw(st.sampled_from(IN_PLACE_UNARY))}()")
    elif kind == "other":
        partner = b.partner(x.shape, x.storage)
        b.lines.append(f"{x.name}." + b.draw(st.sampled_from([
            "clamp_(-0.5, 0.5)", "div_(2.0)", f"sub_({partner}, alpha=0.5)",
            f"lerp_({x.name} * 0.0 + {partner}, 0.5)", "floor_()", "sign_()"])))
    elif kind == "masked":
        b.lines.append(b.draw(st.sampled_from([f"{x.name}.masked_fill_({x.name} > 0, 0.5)",
                                               f"{x.name}[{x.name} < 0] = 0.25"])))
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


def _no_grad_view(b):
    """A view taken under no_grad (PyTorch's NO_GRAD_MODE view: it requires grad if its
    base does, and refuses its history once its storage is updated)."""
    x = b.pick()
    name = next(b.names)
    kind = b.draw(st.sampled_from(["slice", "flat", "chunk"]))
    if kind == "slice":
        expression, shape = f"{x.name}[:1]", (1,) + x.shape[1:]
    elif kind == "chunk":
        expression, shape = f"{x.name}.chunk(2)[0]", ((x.shape[0] + 1) // 2,) + x.shape[1:]
    else:
        expression, shape = f"{x.name}.view(-1)", (int(np.prod(x.shape)),)
    b.lines += ["with torch.no_grad():", f"    {name} = {expression}"]
    b.values.append(_Value(name, shape, storage=x.storage))
    b.hookless.add(name)


# autograd.Functions: one that saves its input, one that returns it as it is, one that
# returns a view of it, one that updates it in place and marks it dirty.
# Each: the lines of forward(ctx, x), then those of backward(ctx, g).
FUNCTIONS = {
    "Square": (("ctx.save_for_backward(x)", "return x * x"),
               ("(x,) = ctx.saved_tensors", "return 2.0 * g * x")),
    "Same": (("return x",), ("return g * 2.0",)),
    "Flat": (("ctx.shape = x.shape", "return x.view(-1)"), ("return g.reshape(ctx.shape)",)),
    "Halve": (("x.mul_(0.5)", "ctx.mark_dirty(x)", "return x"), ("return g * 0.5",))}


def _custom_function(b):
    x = b.pick(lambda v: not v.leaf or b.draw(st.integers(0, 4)) == 0)
    if x is None:
        return
    kind = b.draw(st.sampled_from(sorted(FUNCTIONS)))
    forward, backward = FUNCTIONS[kind]
    name = next(b.names)
    b.lines += [f"class {kind}{name}(torch.autograd.Function):",
                "    @staticmethod", "    def forward(ctx, x):",
                *("        " + line for line in forward),
                "    @staticmethod", "    def backward(ctx, g):",
                *("        " + line for line in backward),
                f"{name} = {kind}{name}.apply({x.name})"]
    if kind == "Halve":
        b.updated(x)
    view_of = x if kind in ("Same", "Flat", "Halve") else None
    shape = (int(np.prod(x.shape)),) if kind == "Flat" else x.shape
    value = _Value(name, shape, storage=view_of.storage if view_of else name)
    b.values.append(value)
    b.hookless.add(name)


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
              _in_place, _in_place, _detach, _no_grad, _hook, _functional, _more_unary,
              _pairwise, _more_views, _indexing, _no_grad_view, _custom_function)

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


# ---- complex values ---------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class _Number:
    """A value of a complex program: complex or real, with a bound on its magnitudes
    (entries' absolute values), which keeps exp and angle away from overflow and poles."""
    name: str
    shape: tuple
    is_complex: bool
    bound: float
    # PyTorch's conj sets a lazy bit, which views keep, and refuses view_as_real of such a
    # tensor; compat conjugates at once (docs/guide-compat.md): none is viewed as real.
    conjugated: bool = False
    storage: str = ""  # the value whose memory it views, in PyTorch (its own if "")


# Complex dtypes and the real dtype of the same precision; the float32 programs compare at
# a looser tolerance.
PRECISIONS = {"complex128": ("float64", 1e-10), "complex64": ("float32", 1e-4)}
# Past this bound an operation is not drawn (it would grow the magnitudes further).
_LARGEST = 1e3


class _ComplexBuilder(_Drawing):
    def __init__(self, draw, dtype, second_order):
        super().__init__(draw)
        self.dtype = dtype
        # For second derivatives: |z|'' has a pole at z = 0, so no complex value is
        # taken the absolute value of near 0.
        self.second_order = second_order
        self.real_dtype = PRECISIONS[dtype][0]
        # Storages not to update in place: compat's copies of them would keep the old
        # values, or compat saves them where PyTorch does not (polar's angle).
        self.frozen = set()
        self.names = (f"v{i}" for i in itertools.count())

    def entries(self, shape, low=-1.5, high=1.5):
        # (no number subnormal in the program's precision: |z|'s gradient z / |z| is NaN
        # there in both libraries, and compat's NumPy warns)
        precision = np.dtype(self.real_dtype).type
        return self.draw(hnp.arrays(np.float64, shape, elements=floats(
            low, high, dtype=precision))).tolist()

    def leaf(self, shape, is_complex):
        name = f"x{len(self.leaves)}"
        if is_complex:
            data = (np.array(self.entries(shape)) + 1j * np.array(self.entries(shape))).tolist()
            line = f"{name} = torch.tensor({data!r}, dtype=torch.{self.dtype}, requires_grad=True)"
        else:
            line = (f"{name} = torch.tensor({self.entries(shape)!r}, "
                    f"dtype=torch.{self.real_dtype}, requires_grad=True)")
        self.lines.append(line)
        value = _Number(name, shape, is_complex, 1.5 * 2 ** 0.5)
        self.leaves.append(value)
        self.values.append(value)
        return value

    def emit(self, expression, shape, is_complex, bound, conjugated=False, view_of=None,
             copied=False):
        """A new value; `view_of` the value it views in PyTorch, which compat `copied`
        (conj, view_as_real, view_as_complex: docs/guide-compat.md), so that neither is
        updated in place after (the copy would keep the old values)."""
        storage = (view_of.storage or view_of.name) if view_of is not None else ""
        if copied:
            self.frozen.add(storage)
        value = _Number(next(self.names), tuple(shape), is_complex, bound, conjugated, storage)
        self.lines.append(f"{value.name} = {expression}")
        self.values.append(value)
        return value

    def small(self, accept=lambda v: True):
        """A value whose magnitudes a product or a sum keeps under the largest bound."""
        return self.pick(lambda v: v.bound * max(v.shape) * 2 <= _LARGEST ** 0.5 and accept(v))


def _complex_of_reals(b):
    """A complex value made of real ones: torch.complex, a product with 1j, torch.polar."""
    x = b.small(lambda v: not v.is_complex)
    if x is None:
        return
    kind = b.draw(st.sampled_from(["complex", "1j", "polar"]))
    if kind == "1j":
        return b.emit(f"{x.name} * 1j + 0.5", x.shape, True, x.bound + 0.5)
    y = b.pick(lambda v: not v.is_complex and v.shape == x.shape)
    if kind == "complex":
        return b.emit(f"torch.complex({x.name}, {y.name})", x.shape, True, x.bound + y.bound)
    # A positive radius: PyTorch leaves polar undefined at a negative one (its gradient
    # there has the wrong sign) and its gradient at 0 is 0, where the radius's is e^(i angle).
    # (compat saves its angle where PyTorch saves its result: neither is updated in place,
    # a strict xfail in test_compat_complex_build.py)
    b.frozen.add(y.storage or y.name)
    result = b.emit(f"torch.polar({x.name}.abs() + 0.5, {y.name})", x.shape, True,
                    x.bound + 0.5)
    b.frozen.add(result.name)
    return result


def _complex_arithmetic(b):
    x = b.small()
    y = b.small(lambda v: v.shape in (x.shape, x.shape[-1:]))
    operator = b.draw(st.sampled_from(["+", "-", "*", "/"]))
    is_complex = x.is_complex or y.is_complex
    if operator == "/":  # by a value whose real part is at least 1: no pole
        denominator = f"({y.name} * {y.name}.conj() + 1)" if y.is_complex \
            else f"({y.name}.abs() + 1)"
        return b.emit(f"{x.name} / {denominator}", x.shape, is_complex, x.bound)
    if b.draw(st.booleans()):  # a Python number (complex or real) for y
        number = b.draw(st.sampled_from([0.5, -2.0, 1.5j, (0.5 - 1j)]))
        return b.emit(f"{x.name} {operator} {number!r}", x.shape,
                      x.is_complex or isinstance(number, complex), x.bound * 2 + 2)
    bound = x.bound * y.bound if operator == "*" else x.bound + y.bound
    return b.emit(f"{x.name} {operator} {y.name}", x.shape, is_complex, bound)


def _complex_unary(b):
    x = b.pick()
    kind = b.draw(st.sampled_from(["conj", "abs", "real", "imag", "angle", "exp", "neg"]))
    if kind == "exp" and x.bound <= 5:
        return b.emit(f"{x.name}.exp()", x.shape, x.is_complex, float(np.exp(x.bound)))
    if kind == "angle" and not x.is_complex and b.second_order:
        # (a zero slope: under create_graph compat's gradient through it is a symbolic
        # zero, not recorded, a strict xfail in test_random_torch_programs.py)
        return b.emit(f"-{x.name}", x.shape, False, x.bound)
    if kind == "angle":  # shifted to the right half-plane, away from the branch point 0
        return b.emit(f"({x.name} + {x.bound + 1.0!r}).angle()", x.shape, False, np.pi)
    if kind in ("real", "imag") and x.is_complex:
        return b.emit(f"{x.name}.{kind}", x.shape, False, x.bound, view_of=x)
    if kind == "abs" and x.is_complex and b.second_order:
        return b.emit(f"({x.name} + {x.bound + 1.0!r}).abs()", x.shape, False, 2 * x.bound + 1)
    if kind == "abs":
        return b.emit(f"{x.name}.abs()", x.shape, False, x.bound)
    if kind == "conj":
        return b.emit(f"{x.name}.conj()", x.shape, x.is_complex, x.bound,
                      x.is_complex and not x.conjugated, view_of=x, copied=x.is_complex)
    return b.emit(f"-{x.name}", x.shape, x.is_complex, x.bound)


def _complex_reduce(b):
    x = b.small()
    if x is None:
        return
    name = b.draw(st.sampled_from(["sum", "mean"]))
    if len(x.shape) == 1 or b.draw(st.booleans()):
        return b.emit(f"{x.name}.{name}().reshape(1)", (1,), x.is_complex,
                      x.bound * int(np.prod(x.shape)))
    dim = b.draw(st.integers(0, len(x.shape) - 1))
    shape = x.shape[:dim] + x.shape[dim + 1:]
    return b.emit(f"{x.name}.{name}(dim={dim})", shape, x.is_complex, x.bound * x.shape[dim])


def _complex_matmul(b):
    x = b.small(lambda v: len(v.shape) == 2)
    if x is None:
        return
    # (complex @ real is an error in both)
    y = b.small(lambda v: v.shape == x.shape and v.is_complex == x.is_complex)
    transpose = b.draw(st.sampled_from([".t()", ".transpose(0, 1)", ".mT", ".mH"]))
    if transpose == ".mH":  # (a conjugate view in PyTorch, a copy in compat: see emit)
        b.frozen.add(y.storage or y.name)
    return b.emit(f"{x.name} @ {y.name}{transpose}", (x.shape[0], x.shape[0]),
                  x.is_complex or y.is_complex, x.bound * y.bound * x.shape[1])


def _complex_reshape(b):
    x = b.pick()
    size = int(np.prod(x.shape))
    kind = b.draw(st.sampled_from(["flat", "view", "transpose", "rows"]))
    if kind == "transpose" and len(x.shape) == 2:
        return b.emit(f"{x.name}.transpose(0, 1)", x.shape[::-1], x.is_complex, x.bound,
                      x.conjugated, view_of=x)
    # (A reshape that copies resolves the bit: the generator counts it as kept.)
    if kind == "rows" and size % 2 == 0:
        return b.emit(f"{x.name}.reshape(2, {size // 2})", (2, size // 2), x.is_complex,
                      x.bound, x.conjugated, view_of=x)
    # view(-1) of a transposed value is an error in both libraries
    method = "view" if kind == "view" else "reshape"
    return b.emit(f"{x.name}.{method}(-1)", (size,), x.is_complex, x.bound, x.conjugated,
                  view_of=x)


def _complex_real_view(b):
    """view_as_real of a complex value, or view_as_complex of a real pair (PyTorch
    refuses one that is not contiguous: an error compared)."""
    if b.draw(st.booleans()):
        x = b.pick(lambda v: v.is_complex and not v.conjugated)
        if x is not None:
            return b.emit(f"torch.view_as_real({x.name})", x.shape + (2,), False, x.bound,
                          view_of=x, copied=True)
    x = b.pick(lambda v: not v.is_complex and v.shape[-1] == 2 and len(v.shape) >= 2)
    if x is None:
        x = b.pick(lambda v: not v.is_complex)
        if x is None:
            return
        pair = f"torch.stack([{x.name}, {x.name} * 0.5], dim=-1)"
    else:
        pair = x.name
    if pair != x.name:  # (of a new stack)
        return b.emit(f"torch.view_as_complex({pair})", x.shape, True, x.bound)
    return b.emit(f"torch.view_as_complex({pair})", x.shape[:-1], True, x.bound, view_of=x,
                  copied=True)


def _complex_in_place(b):
    """An update in place that keeps the magnitudes' bound, of a value that is not a leaf
    (a view of one too: an error in both, as an update of a value a rule saved); none in
    the programs of second derivatives (compat's replay of a rule under create_graph
    refuses an update of any input: see HIGHER_ORDER_OPERATIONS)."""
    if b.second_order:
        return
    x = b.pick(lambda v: v not in b.leaves and (v.storage or v.name) not in b.frozen)
    if x is None:
        return
    updates = ["mul_(-1)", "div_(2)", "neg_()"]
    if x.is_complex:  # (a real value's mul_ by a complex number is an error in both)
        updates += ["mul_(0.5j)", "conj_physical_()"]
    b.lines.append(f"{x.name}.{b.draw(st.sampled_from(updates))}")


COMPLEX_OPERATIONS = (_complex_of_reals, _complex_arithmetic, _complex_arithmetic,
                      _complex_unary, _complex_unary, _complex_reduce, _complex_matmul,
                      _complex_reshape, _complex_real_view, _complex_in_place)
# A real scalar of the last value (complex: |z| summed, |z|^2 summed, or a mix of its parts).
COMPLEX_LOSSES = ("{v}.abs().sum()", "({v} * {v}.conj()).real.sum()",
                  "({v}.real * 0.5 + {v}.imag ** 2).sum()")


@st.composite
def complex_programs(draw, min_steps=2, max_steps=8):
    """Complex leaves (and real ones), complex operations, and the backward of a real
    scalar of the last value (or of its gradients' squared magnitudes, for second
    derivatives): values, .grad of every leaf and of retained results."""
    dtype = draw(st.sampled_from(sorted(PRECISIONS)))
    second_order = draw(st.booleans())
    b = _ComplexBuilder(draw, dtype, second_order)
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=2, min_side=1, max_side=3))
    b.leaf(shape, True)
    for _ in range(draw(st.integers(0, 2))):
        b.leaf(draw(st.sampled_from([shape, shape[-1:]])), draw(st.booleans()))
    for _ in range(draw(st.integers(min_steps, max_steps))):
        draw(st.sampled_from(COMPLEX_OPERATIONS))(b)
    last = b.values[-1]
    # (Retained gradients after a backward only: PyTorch's autograd.grad fills them too,
    # compat's does not, a strict xfail in test_random_torch_programs.py.)
    if last.name != b.leaves[-1].name and not second_order and draw(st.booleans()):
        b.lines.append(f"{last.name}.retain_grad()")
    losses = COMPLEX_LOSSES[1:] if second_order else COMPLEX_LOSSES  # (not |z| there)
    loss = draw(st.sampled_from(losses)) if last.is_complex else "({v} * {v}).sum()"
    b.lines.append(f"out = {loss.format(v=last.name)}")
    if second_order:
        leaves = "[" + ", ".join(v.name for v in b.leaves) + "]"
        b.lines += [f"first = torch.autograd.grad(out, {leaves}, create_graph=True, "
                    "allow_unused=True)",
                    "second = sum((g * g.conj()).real.sum() for g in first if g is not None)",
                    "second.backward()"]
    else:
        b.lines += ["out.backward()", "first = None"]
    every = ", ".join(v.name for v in b.values)
    b.lines.append(f"values = [{every}]")
    b.lines.append("grads = [v.grad if v.is_leaf or v.retains_grad else None for v in values]")
    b.lines.append("return {'values': values, 'grads': grads, 'out': out, 'first': first}")
    return TorchProgram(tuple(b.lines), PRECISIONS[dtype][1])


# ---- higher-order derivatives -----------------------------------------------------------

# The real operations whose derivatives are differentiable again (and views: their
# backward rules are recorded under create_graph). No in-place updates: an overwrite makes
# the gradient before it a constant, and PyTorch's gradient after a rule that reads its
# input (relu's, leaky_relu's) then has history where compat's has none (a strict xfail in
# test_random_torch_programs.py).
HIGHER_ORDER_OPERATIONS = (_unary, _unary, _binary, _binary, _reduce, _reordering,
                           _combining, _view, _detach, _functional, _more_unary, _pairwise,
                           _more_views, _indexing)


# A scalar of the first gradients g0, g1, ...: its derivatives are second derivatives.
GRADIENT_LOSSES = ("(g * g).sum()", "((g * g).sum() + g.sum())", "(g.sin() * 1.5).sum()")


@st.composite
def higher_order_programs(draw, min_steps=2, max_steps=8):
    """The first gradients of a random program by autograd.grad or backward (with
    create_graph=True), then a backward (or a second autograd.grad) through a scalar of
    them."""
    b = _Builder(draw, second_order=True)
    for _ in range(draw(st.integers(1, 2))):
        b.leaf()
    for _ in range(draw(st.integers(min_steps, max_steps))):
        draw(st.sampled_from(HIGHER_ORDER_OPERATIONS))(b)
    last = b.values[-1].name
    leaves = "[" + ", ".join(v.name for v in b.leaves) + "]"
    b.lines.append(f"out = ({last} * {last}).sum()")
    by_backward = draw(st.booleans())
    if by_backward:  # the first gradients in .grad
        b.lines += ["out.backward(create_graph=True)",
                    f"grads = [x.grad for x in {leaves}]"]
    else:
        # allow_unused: a leaf the last value does not depend on has no gradient (None).
        b.lines.append(f"grads = torch.autograd.grad(out, {leaves}, create_graph=True, "
                       "allow_unused=True)")
    loss = draw(st.sampled_from(GRADIENT_LOSSES))
    b.lines.append(f"second = sum({loss} for g in grads if g is not None)")
    # (Not a backward into a .grad that requires grad: PyTorch adds to it in place, compat
    # out of place, a strict xfail in test_random_torch_programs.py.)
    if not by_backward and draw(st.booleans()):
        b.lines.append("second.backward()")
        b.lines.append(f"hessian = [x.grad for x in {leaves}]")
    else:
        b.lines.append(f"hessian = torch.autograd.grad(second, {leaves}, allow_unused=True)")
    b.lines.append("return {'out': out, 'grads': grads, 'hessian': hessian}")
    return TorchProgram(tuple(b.lines))


# ---- torch.nn modules in training ------------------------------------------------------

# Normalisations' eps 0.1: at the default eps, a channel of equal values (after a relu)
# amplifies rounding noise by eps ** -1.5 (see layer_norm above).
# Smooth activations: a normalised channel of equal values is 0 in compat and rounding noise
# (1e-17, of either sign) in PyTorch's batch_norm, on which side of relu's kink it falls.
ACTIVATIONS = ("torch.nn.Tanh()", "torch.nn.SiLU()", "torch.nn.Sigmoid()")
NN_OPTIMIZERS = ("SGD({p}, lr=0.1, momentum=0.9)",
                 "SGD({p}, lr=0.05, momentum=0.5, nesterov=True, weight_decay=0.01)",
                 "Adam({p}, lr=0.05, eps=1e-3)",
                 "Adam({p}, lr=0.05, eps=1e-3, weight_decay=0.01, amsgrad=True)",
                 "AdamW({p}, lr=0.05, eps=1e-3)")


class _NetBuilder:
    """Modules m0, m1, ... in float64, and the forward pass through them as lines of the
    training loop; the shape of the running value h: (batch, channels, length) or
    (batch, features)."""

    def __init__(self, draw):
        self.draw = draw
        self.modules = []
        self.forward = []
        self.shape = None
        # The mean over the last axis of a LayerNorm's output is 0 plus rounding noise, of
        # either sign in either library, which later layers carry past the tolerance.
        self.layer_normed = False

    def module(self, constructor):
        name = f"m{len(self.modules)}"
        self.modules.append(f"{name} = torch.nn.{constructor}.double()")
        self.forward.append(f"h = {name}(h)")

    def step(self):
        batch, *rest = self.shape
        kind = self.draw(st.sampled_from(["conv", "batch_norm", "layer_norm", "linear",
                                          "activation", "flatten"]))
        layer_normed, self.layer_normed = self.layer_normed, kind == "layer_norm"
        if kind == "conv" and len(rest) == 2:
            channels, length = rest
            out, padding = self.draw(st.integers(1, 3)), self.draw(st.integers(0, 1))
            stride, dilation = self.draw(st.integers(1, 2)), self.draw(st.integers(1, 2))
            span = length + 2 * padding  # the kernel's reach, (kernel - 1) * dilation + 1
            kernel = self.draw(st.integers(1, (span - 1) // dilation + 1))
            bias = self.draw(st.booleans())
            self.module(f"Conv1d({channels}, {out}, {kernel}, stride={stride}, "
                        f"padding={padding}, dilation={dilation}, bias={bias})")
            self.shape = (batch, out, (span - (kernel - 1) * dilation - 1) // stride + 1)
        elif kind == "batch_norm":
            affine = self.draw(st.booleans())
            momentum = self.draw(st.sampled_from([0.3, None]))  # None: a cumulative average
            self.module(f"BatchNorm1d({rest[0]}, eps=0.1, momentum={momentum}, "
                        f"affine={affine})")
        elif kind == "layer_norm":
            self.module(f"LayerNorm({rest[-1]}, eps=0.1)")
        elif kind == "activation":
            self.forward.append(f"h = {self.draw(st.sampled_from(ACTIVATIONS))}(h)")
        elif len(rest) == 2:  # linear or flatten of (batch, channels, length)
            flatten = kind == "flatten" or layer_normed
            self.forward.append("h = h.flatten(1)" if flatten else "h = h.mean(2)")
            self.shape = (batch, rest[0] * rest[1] if flatten else rest[0])
        else:
            self.linear(self.draw(st.integers(1, 3)))

    def linear(self, out):
        self.module(f"Linear({self.shape[-1]}, {out}, bias={self.draw(st.booleans())})")
        self.shape = self.shape[:-1] + (out,)


@st.composite
def nn_training_programs(draw, min_layers=1, max_layers=5):
    """Modules after torch.manual_seed (PyTorch's initial weights), in training mode, a
    loss, and two or three optimizer steps: the losses, the parameters, their .grad and the
    buffers (BatchNorm's running statistics) after the steps, and the model's output in
    eval mode."""
    b = _NetBuilder(draw)
    batch = draw(st.integers(2, 4))
    lines = [f"torch.manual_seed({draw(st.integers(0, 2 ** 16))})"]
    start = draw(st.sampled_from(["embedding", "sequence", "features"]))
    if start == "embedding":
        words, width, length = draw(st.integers(2, 5)), draw(st.integers(1, 3)), \
            draw(st.integers(1, 3))
        indices = draw(hnp.arrays(np.int64, (batch, length),
                                  elements=st.integers(0, words - 1))).tolist()
        lines.append(f"x = torch.tensor({indices!r})")
        padding = draw(st.sampled_from(["", ", padding_idx=0"]))  # (row 0: no gradient)
        b.module(f"Embedding({words}, {width}{padding})")
        b.forward.append("h = h.transpose(1, 2)")
        b.shape = (batch, width, length)
    else:
        b.shape = (batch,) + draw(st.sampled_from([(2, 3), (1, 4), (3, 1)]) if start ==
                                  "sequence" else st.sampled_from([(1,), (2,), (3,)]))
        entries = draw(hnp.arrays(np.float64, b.shape, elements=floats(-1.5, 1.5))).tolist()
        lines.append(f"x = torch.tensor({entries!r}, dtype=torch.float64)")
    for _ in range(draw(st.integers(min_layers, max_layers))):
        b.step()
    if len(b.shape) == 3:
        b.forward.append("h = h.flatten(1)")
        b.shape = (batch, b.shape[1] * b.shape[2])
    classes = draw(st.integers(2, 3))
    b.linear(classes)
    if draw(st.booleans()):
        targets = [draw(st.integers(0, classes - 1)) for _ in range(batch)]
        loss = f"torch.nn.functional.cross_entropy(h, torch.tensor({targets!r}))"
    else:
        target = draw(hnp.arrays(np.float64, (batch, classes), elements=floats(-1, 1))).tolist()
        loss = f"torch.nn.functional.mse_loss(h, torch.tensor({target!r}, dtype=torch.float64))"
    lines += b.modules
    modules = ", ".join(f"m{i}" for i in range(len(b.modules)))
    optimizer = draw(st.sampled_from(NN_OPTIMIZERS)).format(p="model.parameters()")
    lines += [f"model = torch.nn.ModuleList([{modules}]).train()",
              f"optimizer = torch.optim.{optimizer}",
              "losses = []",
              f"for step in range({draw(st.integers(2, 3))}):",
              "    optimizer.zero_grad()",
              "    h = x"]
    lines += ["    " + line for line in b.forward]
    lines += [f"    loss = {loss}", "    loss.backward()", "    optimizer.step()",
              "    losses.append(loss.detach())",
              # the trained model in eval mode (BatchNorm: its running statistics)
              "model.eval()", "h = x"]
    lines += b.forward
    lines += ["return {'losses': losses, 'evaluated': h,",
              "        'parameters': dict(model.named_parameters()),",
              "        'grads': [p.grad for p in model.parameters()],",
              "        'buffers': dict(model.named_buffers())}"]
    return TorchProgram(tuple(lines), 1e-10)
