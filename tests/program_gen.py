"""Random straight-line programs over funcgrad.numpy's primitives, as Python source text.

`programs()` draws a `Program`: the text of ``def program(np, x0, x1, ...)`` that applies
elementwise functions (with broadcasting), reductions, shape operations, matmul, einsum,
indexing, where, concatenate and stack to its inputs, to constants and to its own earlier
values (any value may be used many times), plus outer, tensordot, triu, tril, diagonal,
trace, tile, repeat, pad (in every mode that copies entries), sort, norm, and inv, solve
and det of well-conditioned matrices.
The same text is run with ``np`` bound to funcgrad.numpy and to jax.numpy, so the two
sides cannot drift apart.

The generator tracks an interval holding every entry of every value, and applies a
function only where it is well conditioned: log and sqrt of values >= 1/4, exp of values
<= 3, division by values at least 1/4 from 0, and no value beyond +-`LARGEST`. Inputs are
drawn inside the intervals the program declares for them, so a derivative never sits at a
pole or a kink (maximum, minimum and where, whose kinks the program may reach through
ties, follow JAX's conventions, which funcgrad shares).
"""
import dataclasses
import itertools
import math
import string

import hypothesis.extra.numpy as hnp
import hypothesis.strategies as st
import numpy as np

from oracle import floats

LARGEST = 40.0  # no entry of any value beyond this: float64 rounding stays far below 1e-7


@dataclasses.dataclass(frozen=True)
class Value:
    name: str
    shape: tuple
    lo: float
    hi: float

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return math.prod(self.shape)

    @property
    def magnitude(self):
        return max(abs(self.lo), abs(self.hi))


@dataclasses.dataclass(frozen=True)
class Input:
    name: str
    shape: tuple
    lo: float
    hi: float
    dtype: np.dtype


@dataclasses.dataclass(frozen=True)
class Program:
    inputs: tuple   # of Input
    lines: tuple    # the body's statements
    outputs: tuple  # names of the values returned

    @property
    def text(self):
        names = ", ".join(["np"] + [x.name for x in self.inputs])
        result = self.outputs[0] if len(self.outputs) == 1 else \
            "(" + ", ".join(self.outputs) + ",)"
        body = "\n".join("    " + line for line in self.lines + (f"return {result}",))
        return f"def program({names}):\n{body}\n"

    def bind(self, namespace, **free):
        """The program as a function of its inputs, with ``np`` bound to ``namespace``
        (and the names a wrapped block uses, `wrapping`, bound to ``free``)."""
        scope = dict(free)
        exec(compile(self.text, "<random program>", "exec"), scope)
        fun = scope["program"]
        return lambda *inputs: fun(namespace, *inputs)

    def wrapping(self, start, stop, named=()):
        """The program with statements ``start:stop`` moved into a function of every value
        defined before them, called as ``wrap(block)(...)``: ``wrap`` and ``name`` are free
        names for `bind` (a transform such as checkpoint or custom_vjp, and
        checkpoint_name). The values of the statements numbered in ``named`` (a dict:
        statement -> name) pass through ``name(value, name)``."""
        defined = [x.name for x in self.inputs] + [_target(line) for line in self.lines[:start]]
        made = [_target(line) for line in self.lines[start:stop]]
        body = []
        for i, line in enumerate(self.lines[start:stop], start):
            body.append("    " + line)
            if i in named:
                body.append(f"    {_target(line)} = name({_target(line)}, {named[i]!r})")
        head = [f"def block({', '.join(defined)}):"]
        tail = [f"    return ({', '.join(made)},)",
                f"({', '.join(made)},) = wrap(block)({', '.join(defined)})"]
        lines = self.lines[:start] + tuple(head + body + tail) + self.lines[stop:]
        return dataclasses.replace(self, lines=lines)

    def __repr__(self):  # Hypothesis prints the failing program's text
        inputs = ", ".join(f"{x.name}: {np.dtype(x.dtype).name}{list(x.shape)} in "
                           f"[{x.lo}, {x.hi}]" for x in self.inputs)
        return f"\n# inputs: {inputs}\n{self.text}"


def _target(statement):
    """The name a ``vN = ...`` statement assigns."""
    return statement.split(" = ", 1)[0]


def _interval(values):
    values = [v for v in values if not math.isnan(v)]
    return min(values), max(values)


def _monotone(f):
    return lambda lo, hi: _interval([f(lo), f(hi)])


def _square(lo, hi):
    low = 0.0 if lo <= 0.0 <= hi else min(lo * lo, hi * hi)
    return low, max(lo * lo, hi * hi)


def _away_from_zero(v):
    return v.lo >= 0.25 or v.hi <= -0.25


def _anything(v):
    return True


# name: (where the function is well conditioned, the image of an interval)
UNARY = {
    "sin": (_anything, lambda lo, hi: (-1.0, 1.0)),
    "cos": (_anything, lambda lo, hi: (-1.0, 1.0)),
    "tanh": (_anything, _monotone(math.tanh)),
    "arctan": (_anything, _monotone(math.atan)),
    "arcsinh": (_anything, _monotone(math.asinh)),
    "negative": (_anything, lambda lo, hi: (-hi, -lo)),
    "square": (_anything, _square),
    "exp": (lambda v: v.hi <= 3.0, _monotone(math.exp)),
    "expm1": (lambda v: v.hi <= 3.0, _monotone(math.expm1)),
    "sinh": (lambda v: v.magnitude <= 3.0, _monotone(math.sinh)),
    "cosh": (lambda v: v.magnitude <= 3.0,
             lambda lo, hi: (1.0 if lo <= 0 <= hi else min(math.cosh(lo), math.cosh(hi)),
                             max(math.cosh(lo), math.cosh(hi)))),
    "log": (lambda v: v.lo >= 0.25, _monotone(math.log)),
    "log1p": (lambda v: v.lo >= -0.75, _monotone(math.log1p)),
    "sqrt": (lambda v: v.lo >= 0.25, _monotone(math.sqrt)),
    "cbrt": (_away_from_zero, _monotone(np.cbrt)),
    "reciprocal": (_away_from_zero, _monotone(lambda x: 1.0 / x)),
}


def _products(a, b):
    return _interval([x * y for x in (a.lo, a.hi) for y in (b.lo, b.hi)])


# name: (spelling, whether the second operand is acceptable, the image of two intervals)
BINARY = {
    "add": ("{a} + {b}", _anything, lambda a, b: (a.lo + b.lo, a.hi + b.hi)),
    "subtract": ("np.subtract({a}, {b})", _anything, lambda a, b: (a.lo - b.hi, a.hi - b.lo)),
    "multiply": ("{a} * {b}", _anything, _products),
    "divide": ("{a} / {b}", _away_from_zero,
               lambda a, b: _products(a, Value("", (), *_interval([1 / b.lo, 1 / b.hi])))),
    "maximum": ("np.maximum({a}, {b})", _anything,
                lambda a, b: (max(a.lo, b.lo), max(a.hi, b.hi))),
    "minimum": ("np.minimum({a}, {b})", _anything,
                lambda a, b: (min(a.lo, b.lo), min(a.hi, b.hi))),
    "arctan2": ("np.arctan2({a}, {b})", lambda v: v.lo >= 0.25,
                lambda a, b: (-math.pi / 2, math.pi / 2)),
    "logaddexp": ("np.logaddexp({a}, {b})", _anything,
                  lambda a, b: (max(a.lo, b.lo), max(a.hi, b.hi) + math.log(2.0))),
}


class _Builder:
    """The program being drawn: its inputs, its statements and what each value holds."""

    def __init__(self, draw, dtypes):
        self.draw = draw
        self.dtypes = dtypes
        self.inputs = []
        self.lines = []
        self.values = []
        self.names = (f"v{i}" for i in itertools.count())

    # ---- values ----------------------------------------------------------------------

    def new_input(self, shape, lo=None, hi=None):
        if lo is None:
            lo, hi = self.draw(st.sampled_from([(-2.0, 2.0), (0.5, 2.0), (-2.0, -0.5)]))
        dtype = self.draw(st.sampled_from(self.dtypes))
        value = Value(f"x{len(self.inputs)}", tuple(shape), lo, hi)
        self.inputs.append(Input(value.name, value.shape, lo, hi, np.dtype(dtype)))
        self.values.append(value)
        return value

    def constant(self, shape, lo=-2.0, hi=2.0, python_float=True):
        """A constant array literal (or a Python float for a scalar, half the time, where
        `python_float`)."""
        if not shape and python_float and self.draw(st.booleans()):
            x = self.draw(floats(lo, hi))
            return Value(repr(x), (), x, x)
        entries = self.draw(hnp.arrays(np.float64, tuple(shape), elements=floats(lo, hi)))
        # dtype spelled out: JAX types np.array(0.0) weakly, as a Python float, where
        # NumPy 2 (and funcgrad) promote it as the float64 array it is.
        text = f"np.array({entries.tolist()!r}, dtype=np.float64)"
        return Value(text, tuple(shape), float(entries.min()), float(entries.max()))

    def pick(self, accept=_anything):
        """An existing value that ``accept`` accepts, or None."""
        choices = [v for v in self.values if accept(v)]
        if not choices:
            return None
        # Later values more often, so programs grow deep rather than wide.
        weights = st.integers(0, len(choices) - 1).map(lambda i: choices[i])
        recent = st.sampled_from(choices[-3:])
        return self.draw(st.one_of(recent, weights))

    def operand(self, shape, accept=_anything, lo=-2.0, hi=2.0, python_float=True):
        """A value of ``shape`` that ``accept`` accepts: an existing one, a new input or a
        constant (a Python float only where `python_float`)."""
        existing = self.pick(lambda v: v.shape == tuple(shape) and accept(v))
        source = self.draw(st.sampled_from(["existing", "existing", "input", "constant"]))
        if existing is not None and source == "existing":
            return existing
        if source == "constant":
            return self.constant(shape, lo, hi, python_float)
        return self.new_input(shape, lo, hi)

    def emit(self, expression, shape, lo, hi):
        """``vN = expression``; refused (None) when the value could grow beyond LARGEST."""
        if not (math.isfinite(lo) and math.isfinite(hi)) or max(abs(lo), abs(hi)) > LARGEST:
            return None
        value = Value(next(self.names), tuple(int(n) for n in shape), float(lo), float(hi))
        self.lines.append(f"{value.name} = {expression}")
        self.values.append(value)
        return value

    # ---- drawing helpers -------------------------------------------------------------

    def axis(self, ndim, allow_none=True, allow_tuple=True):
        options = [st.none()] if allow_none else []
        if ndim:
            options.append(st.integers(-ndim, ndim - 1))
            if allow_tuple:
                options.append(st.lists(st.integers(0, ndim - 1), unique=True, min_size=1,
                                        max_size=ndim).map(tuple))
        return self.draw(st.one_of(*options))

    def broadcast_partner(self, shape):
        """A shape that broadcasts with ``shape`` (dropping leading axes, ones, new axes)."""
        shape = list(shape)
        keep = self.draw(st.integers(0, len(shape)))
        partner = [n if not self.draw(st.booleans()) else 1 for n in shape[len(shape) - keep:]]
        if keep < len(shape):
            return tuple(partner)
        lead = self.draw(st.lists(st.integers(1, 3), max_size=max(0, 2 - len(shape))))
        return tuple(lead + partner)


# ---- operations: each draws its arguments and emits one statement, or returns None -------


def _unary(b):
    name = b.draw(st.sampled_from(sorted(UNARY)))
    accept, image = UNARY[name]
    x = b.pick(accept)
    if x is None:
        return None
    spelling = b.draw(st.sampled_from([f"np.{name}({x.name})"] + (
        [f"-{x.name}"] if name == "negative" else
        [f"{x.name} ** 2"] if name == "square" else [])))
    return b.emit(spelling, x.shape, *image(x.lo, x.hi))


def _binary(b):
    name = b.draw(st.sampled_from(sorted(BINARY)))
    spelling, accept, image = BINARY[name]
    x = b.pick()
    other_shape = b.broadcast_partner(x.shape)
    lo, hi = (0.5, 2.0) if accept is not _anything else (-2.0, 2.0)
    y = b.operand(other_shape, accept, lo, hi)
    if b.draw(st.booleans()):
        x, y = y, x
        if not accept(y):
            return None
    shape = np.broadcast_shapes(x.shape, y.shape)
    return b.emit(spelling.format(a=x.name, b=y.name), shape, *image(x, y))


def _power(b):
    x = b.pick(lambda v: v.lo >= 0.25)
    if x is None:
        x = b.pick()
        exponent = b.draw(st.sampled_from([2, 3]))
    else:
        exponent = b.draw(st.sampled_from([0.5, 1.5, -1.0, 2.5]))
    image = _square if exponent == 2 else _monotone(lambda v: v ** exponent)
    return b.emit(f"{x.name} ** {exponent}", x.shape, *image(x.lo, x.hi))


def _reduction(b):
    x = b.pick(lambda v: v.ndim > 0)
    if x is None:
        return None
    name = b.draw(st.sampled_from(["sum", "mean", "max", "min", "prod", "var"]))
    axis = b.axis(x.ndim)
    keepdims = b.draw(st.booleans())
    axes = range(x.ndim) if axis is None else (axis,) if isinstance(axis, int) else axis
    axes = {a % x.ndim for a in axes}
    count = math.prod(x.shape[a] for a in axes)
    shape = [1 if a in axes else n for a, n in enumerate(x.shape)
             if keepdims or a not in axes]
    lo, hi = x.lo, x.hi
    if name == "sum":
        lo, hi = lo * count, hi * count
    elif name == "prod":
        lo, hi = -power_bound(x.magnitude, count), power_bound(x.magnitude, count)
    elif name == "var":
        lo, hi = 0.0, (x.hi - x.lo) ** 2
    method = b.draw(st.booleans()) and name != "var"
    expression = (f"{x.name}.{name}(axis={axis!r}, keepdims={keepdims})" if method else
                  f"np.{name}({x.name}, axis={axis!r}, keepdims={keepdims})")
    return b.emit(expression, shape, lo, hi)


def power_bound(magnitude, count):
    """``magnitude ** count``, a product's bound; inf (which `emit` refuses) where a float
    cannot hold it (the product of hundreds of entries up to 40)."""
    try:
        return magnitude ** count
    except OverflowError:
        return math.inf


def _cumsum(b):
    x = b.pick(lambda v: v.ndim > 0)
    if x is None:
        return None
    axis = b.draw(st.integers(-x.ndim, x.ndim - 1))
    n = x.shape[axis]
    return b.emit(f"np.cumsum({x.name}, axis={axis})", x.shape, min(x.lo, x.lo * n),
                  max(x.hi, x.hi * n))


def _reshape(b):
    x = b.pick(lambda v: v.size > 0)
    kind = b.draw(st.sampled_from(["flatten", "reverse", "ones", "transpose", "T",
                                   "swapaxes", "expand_dims", "squeeze", "broadcast_to",
                                   "flip", "moveaxis", "roll"]))
    shape = x.shape
    if kind == "flatten":
        return b.emit(f"np.reshape({x.name}, (-1,))", (x.size,), x.lo, x.hi)
    if kind == "reverse":
        return b.emit(f"{x.name}.reshape({shape[::-1]!r})", shape[::-1], x.lo, x.hi)
    if kind == "ones":
        position = b.draw(st.integers(0, x.ndim))
        new = shape[:position] + (1,) + shape[position:]
        return b.emit(f"np.reshape({x.name}, {new!r})", new, x.lo, x.hi)
    if kind == "expand_dims":
        axis = b.draw(st.integers(-x.ndim - 1, x.ndim))
        new = list(shape)
        new.insert(axis % (x.ndim + 1), 1)
        return b.emit(f"np.expand_dims({x.name}, {axis})", new, x.lo, x.hi)
    if kind == "broadcast_to":
        lead = b.draw(st.integers(1, 3))
        new = (lead,) + tuple(b.draw(st.sampled_from([n, 3])) if n == 1 else n for n in shape)
        return b.emit(f"np.broadcast_to({x.name}, {new!r})", new, x.lo, x.hi)
    if x.ndim == 0:
        return None
    if kind == "transpose":
        perm = tuple(b.draw(st.permutations(range(x.ndim))))
        return b.emit(f"np.transpose({x.name}, {perm!r})", [shape[p] for p in perm],
                      x.lo, x.hi)
    if kind == "T":
        return b.emit(f"{x.name}.T", shape[::-1], x.lo, x.hi)
    if kind == "swapaxes":
        i, j = b.draw(st.integers(-x.ndim, x.ndim - 1)), b.draw(st.integers(0, x.ndim - 1))
        new = list(shape)
        new[i], new[j] = new[j], new[i]
        return b.emit(f"np.swapaxes({x.name}, {i}, {j})", new, x.lo, x.hi)
    if kind == "moveaxis":
        i, j = b.draw(st.integers(0, x.ndim - 1)), b.draw(st.integers(-x.ndim, x.ndim - 1))
        new = list(shape)
        new.insert(j % x.ndim, new.pop(i))
        return b.emit(f"np.moveaxis({x.name}, {i}, {j})", new, x.lo, x.hi)
    if kind == "squeeze":
        ones = [a for a, n in enumerate(shape) if n == 1]
        if not ones:
            return None
        axis = b.draw(st.sampled_from(ones))
        return b.emit(f"np.squeeze({x.name}, axis={axis})",
                      [n for a, n in enumerate(shape) if a != axis], x.lo, x.hi)
    axis = b.axis(x.ndim, allow_none=kind == "flip", allow_tuple=True)
    if kind == "flip":
        return b.emit(f"np.flip({x.name}, axis={axis!r})", shape, x.lo, x.hi)
    shift = b.draw(st.integers(-3, 3))
    if isinstance(axis, tuple):
        shift = (shift,) * len(axis)
    return b.emit(f"np.roll({x.name}, {shift!r}, axis={axis!r})", shape, x.lo, x.hi)


def _matmul(b):
    x = b.pick(lambda v: v.ndim > 0)
    if x is None:
        return None
    n = x.shape[-1]
    other = b.draw(st.sampled_from(["vector", "matrix", "batched"]))
    m = b.draw(st.integers(1, 3))
    # A stack of matrices broadcasts against x's own stack (if any).
    k = x.shape[-3] if x.ndim >= 3 else b.draw(st.integers(1, 3))
    shape = {"vector": (n,), "matrix": (n, m), "batched": (k, n, m)}[other]
    y = b.operand(shape)
    left = x.shape[:-1]
    if other == "vector":
        out = left
    elif other == "matrix":
        out = left + (m,)
    else:
        out = np.broadcast_shapes(left[:-1], (k,)) + left[-1:] + (m,) if left else (k, m)
    bound = n * x.magnitude * y.magnitude
    spelling = b.draw(st.sampled_from(["{x} @ {y}", "np.matmul({x}, {y})"]))
    return b.emit(spelling.format(x=x.name, y=y.name), out, -bound, bound)


def _einsum(b):
    x = b.pick(lambda v: 0 < v.ndim <= 3)
    if x is None:
        return None
    letters = iter(string.ascii_lowercase)
    x_labels = [next(letters) for _ in x.shape]
    sizes = dict(zip(x_labels, x.shape))
    shared = b.draw(st.lists(st.sampled_from(x_labels), unique=True, max_size=x.ndim))
    fresh = [next(letters) for _ in range(b.draw(st.integers(0, 2)))]
    for label in fresh:
        sizes[label] = b.draw(st.integers(1, 3))
    y_labels = b.draw(st.permutations(shared + fresh))
    # (No Python float: NumPy's einsum, and so funcgrad's, makes it a float64 array, where
    # JAX keeps it weak; see test_random_programs.py.)
    y = b.operand([sizes[label] for label in y_labels], python_float=False)
    every = list(dict.fromkeys(x_labels + list(y_labels)))
    out = b.draw(st.lists(st.sampled_from(every), unique=True, max_size=3))
    summed = math.prod(sizes[label] for label in every if label not in out)
    spec = f"{''.join(x_labels)},{''.join(y_labels)}->{''.join(out)}"
    bound = summed * x.magnitude * y.magnitude
    return b.emit(f"np.einsum({spec!r}, {x.name}, {y.name})", [sizes[label] for label in out],
                  -bound, bound)


def _index(b):
    x = b.pick(lambda v: v.ndim > 0)
    if x is None:
        return None
    n = x.shape[0]
    kind = b.draw(st.sampled_from(["int", "slice", "array", "second", "ellipsis", "none"]))
    if kind == "int":
        i = b.draw(st.integers(-n, n - 1))
        return b.emit(f"{x.name}[{i}]", x.shape[1:], x.lo, x.hi)
    if kind == "slice":
        start = b.draw(st.integers(-n, n - 1))
        step = b.draw(st.sampled_from([1, 2, -1]))
        stop = None
        taken = len(range(n)[start::step])
        return b.emit(f"{x.name}[{start}:{stop}:{step}]", (taken,) + x.shape[1:], x.lo, x.hi)
    if kind == "array":
        indices = b.draw(st.lists(st.integers(-n, n - 1), min_size=1, max_size=4))
        return b.emit(f"{x.name}[np.array({indices!r})]", (len(indices),) + x.shape[1:],
                      x.lo, x.hi)
    if kind == "ellipsis":
        last = x.shape[-1]
        indices = b.draw(st.lists(st.integers(-last, last - 1), min_size=1, max_size=3))
        return b.emit(f"{x.name}[..., np.array({indices!r})]",
                      x.shape[:-1] + (len(indices),), x.lo, x.hi)
    if kind == "none":
        return b.emit(f"{x.name}[None]", (1,) + x.shape, x.lo, x.hi)
    if x.ndim < 2:
        return None
    i = b.draw(st.integers(-x.shape[1], x.shape[1] - 1))
    return b.emit(f"{x.name}[:, {i}]", x.shape[:1] + x.shape[2:], x.lo, x.hi)


def _where(b):
    c = b.pick()
    threshold = b.draw(floats(c.lo, c.hi)) if c.lo < c.hi else c.lo
    x = b.operand(b.broadcast_partner(c.shape))
    y = b.operand(b.broadcast_partner(np.broadcast_shapes(c.shape, x.shape)))
    shape = np.broadcast_shapes(c.shape, x.shape, y.shape)
    return b.emit(f"np.where({c.name} > {threshold!r}, {x.name}, {y.name})", shape,
                  min(x.lo, y.lo), max(x.hi, y.hi))


def _join(b):
    x = b.pick(lambda v: v.ndim > 0)
    if x is None:
        return None
    if b.draw(st.booleans()):
        axis = b.draw(st.integers(-x.ndim - 1, x.ndim))
        y = b.operand(x.shape)
        shape = list(x.shape)
        shape.insert(axis % (x.ndim + 1), 2)
        return b.emit(f"np.stack([{x.name}, {y.name}], axis={axis})", shape,
                      min(x.lo, y.lo), max(x.hi, y.hi))
    axis = b.draw(st.integers(-x.ndim, x.ndim - 1))
    other = list(x.shape)
    other[axis] = b.draw(st.integers(1, 3))
    y = b.operand(other)
    shape = list(x.shape)
    shape[axis] += other[axis]
    return b.emit(f"np.concatenate(({x.name}, {y.name}), axis={axis})", shape,
                  min(x.lo, y.lo), max(x.hi, y.hi))


def _outer(b):
    x, y = b.pick(), b.pick()
    bound = x.magnitude * y.magnitude
    return b.emit(f"np.outer({x.name}, {y.name})", (x.size, y.size), -bound, bound)


def _tensordot(b):
    x = b.pick(lambda v: v.ndim > 0)
    if x is None:
        return None
    n = x.shape[-1]
    tail = tuple(b.draw(st.lists(st.integers(1, 3), max_size=2)))
    y = b.operand((n,) + tail)
    bound = n * x.magnitude * y.magnitude
    return b.emit(f"np.tensordot({x.name}, {y.name}, axes=1)", x.shape[:-1] + tail,
                  -bound, bound)


def _matrix_part(b):
    """triu, tril, diagonal or trace of a value with two axes or more."""
    x = b.pick(lambda v: v.ndim >= 2)
    if x is None:
        return None
    kind = b.draw(st.sampled_from(["triu", "tril", "diagonal", "trace"]))
    lo, hi = min(x.lo, 0.0), max(x.hi, 0.0)
    if kind in ("triu", "tril"):
        k = b.draw(st.integers(-1, 1))
        return b.emit(f"np.{kind}({x.name}, {k})", x.shape, lo, hi)
    axis1 = b.draw(st.integers(0, x.ndim - 1))
    axis2 = b.draw(st.integers(0, x.ndim - 1).filter(lambda a: a != axis1))
    rest = tuple(n for a, n in enumerate(x.shape) if a not in (axis1, axis2))
    m = min(x.shape[axis1], x.shape[axis2])
    if kind == "diagonal":
        return b.emit(f"np.diagonal({x.name}, 0, {axis1}, {axis2})", rest + (m,), x.lo, x.hi)
    return b.emit(f"np.trace({x.name}, 0, {axis1}, {axis2})", rest, m * lo, m * hi)


def _repeat(b):
    x = b.pick(lambda v: v.ndim > 0)
    if x is None:
        return None
    if b.draw(st.booleans()):
        reps = tuple(b.draw(st.lists(st.integers(1, 2), min_size=1, max_size=x.ndim)))
        padded = (1,) * (x.ndim - len(reps)) + reps
        return b.emit(f"np.tile({x.name}, {reps!r})",
                      [n * r for n, r in zip(x.shape, padded)], x.lo, x.hi)
    axis = b.draw(st.integers(-x.ndim, x.ndim - 1))
    count = b.draw(st.integers(1, 3))
    shape = list(x.shape)
    shape[axis] *= count
    return b.emit(f"np.repeat({x.name}, {count}, axis={axis})", shape, x.lo, x.hi)


def _pad(b):
    """np.pad in each of its modes that copy entries (and "constant", with zeros): up to
    two entries a side, within what reflect and symmetric can mirror."""
    x = b.pick(lambda v: v.ndim > 0)
    if x is None:
        return None
    mode = b.draw(st.sampled_from(["constant", "edge", "reflect", "symmetric", "wrap"]))
    widths = []
    for n in x.shape:
        most = min(2, n - 1) if mode == "reflect" else min(2, n)
        widths.append((b.draw(st.integers(0, most)), b.draw(st.integers(0, most))))
    shape = [n + before + after for n, (before, after) in zip(x.shape, widths)]
    lo, hi = (min(x.lo, 0.0), max(x.hi, 0.0)) if mode == "constant" else (x.lo, x.hi)
    return b.emit(f"np.pad({x.name}, {widths!r}, mode={mode!r})", shape, lo, hi)


def _sort(b):
    x = b.pick(lambda v: v.ndim > 0)
    if x is None:
        return None
    axis = b.draw(st.integers(-x.ndim, x.ndim - 1))
    return b.emit(f"np.sort({x.name}, axis={axis})", x.shape, x.lo, x.hi)


def _linalg(b):
    """inv, solve or det of I + a square value scaled to norm <= 1/2: well conditioned
    (its inverse's entries within 2)."""
    x = b.pick(lambda v: v.ndim >= 2 and v.shape[-1] == v.shape[-2])
    if x is None:
        return None
    n = x.shape[-1]
    scale = 1.0 / (2.0 * n * max(x.magnitude, 1.0))
    matrix = f"({x.name} * {scale!r} + np.eye({n}))"
    kind = b.draw(st.sampled_from(["inv", "solve", "det"]))
    if kind == "inv":
        return b.emit(f"np.linalg.inv({matrix})", x.shape, -2.0, 2.0)
    if kind == "det":
        return b.emit(f"np.linalg.det({matrix})", x.shape[:-2], 0.5 ** n, 1.5 ** n)
    y = b.operand(x.shape[:-1] + (b.draw(st.integers(1, 2)),))
    bound = 2.0 * n * y.magnitude
    return b.emit(f"np.linalg.solve({matrix}, {y.name})", y.shape, -bound, bound)


def _norm(b):
    x = b.pick(_away_from_zero)
    if x is None:
        return None
    return b.emit(f"np.linalg.norm({x.name})", (), 0.0, x.magnitude * x.size ** 0.5)


OPERATIONS = (_unary, _binary, _power, _reduction, _cumsum, _reshape, _matmul, _einsum,
              _index, _where, _join, _outer, _tensordot, _matrix_part, _repeat, _pad,
              _sort, _linalg, _norm)


@st.composite
def programs(draw, min_steps=1, max_steps=8, dtypes=(np.float64,)):
    """A program of ``min_steps`` to ``max_steps`` statements whose result is a float
    array (or a tuple of two)."""
    b = _Builder(draw, dtypes)
    for _ in range(draw(st.integers(1, 2))):
        b.new_input(draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=3)))
    steps = draw(st.integers(min_steps, max_steps))
    while len(b.lines) < steps:
        operation = draw(st.sampled_from(OPERATIONS))
        operation(b)
    computed = [v for v in b.values if v.name.startswith("v")]
    outputs = (computed[-1].name,)
    if len(computed) > 1 and draw(st.booleans()):
        outputs += (draw(st.sampled_from(computed[:-1])).name,)
    return Program(tuple(b.inputs), tuple(b.lines), outputs)


def arguments(program):
    """A strategy for the program's inputs, each inside its declared interval."""
    return st.tuples(*(hnp.arrays(x.dtype, x.shape, elements=floats(x.lo, x.hi, x.dtype))
                       for x in program.inputs))
