"""make_graph: see the program a function traces, one primitive application per line.

    print(fg.make_graph(lambda x: fnp.sum(fnp.sin(x) * 2.0))(np.ones(3)))

    inputs:
      a:f64[3]  x
    equations:
      b:f64[3] = sin(a:f64[3])
      c:f64[3] = multiply(b:f64[3], 2.0)
      d:f64[] = sum(c:f64[3], axes=(0,), keepdims=False)
    outputs:
      d:f64[]  out

`GraphTrace` is a transform like any other: it opens its own trace level and records an
equation each time a primitive is applied to one of its boxes, then lets the primitive
run on the values inside. Transforms used inside the function run above it, so the
graph of a function that calls `grad` shows the backward pass's primitives as well.
Values are concrete while tracing (Python control flow works), so the graph is the one
program that ran for these arguments.
"""
import functools
import inspect

import numpy as np

from ..core import (Box, Trace, dtype_of, is_array, is_differentiable, new_trace,
                    quiet_floating_point, shape_of, tuple_get, unbox_all)
from ..debug import config, user_origin
from ..tools.dot import Digraph, render_dot
from ..tree_util import keystr, tree_flatten, tree_flatten_with_path, tree_unflatten
from ._checks import check_callable

__all__ = ["Constant", "Equation", "Graph", "GraphTrace", "Literal", "Var", "make_graph"]


# ---- the recorded program ---------------------------------------------------------------


def _short_dtype(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return "bool"
    if dtype.kind in "fciu":
        return f"{dtype.kind}{dtype.itemsize * 8}"
    return str(dtype) if dtype.names is None else "float0"


def _type_string(shape, dtype):
    return f"{_short_dtype(dtype)}[{','.join(map(str, shape))}]"


def _var_name(index):
    """a, b, ..., z, ba, bb, ...: short names, in the order values were created."""
    name = ""
    while True:
        index, digit = divmod(index, 26)
        name = chr(ord("a") + digit) + name
        if not index:
            return name


class Var:
    """A value the traced program computes (or takes as input): a shape and a dtype."""

    __slots__ = ("index", "shape", "dtype")

    def __init__(self, index, value):
        self.index = index
        self.shape = tuple(shape_of(value))
        self.dtype = dtype_of(value)

    @property
    def name(self):
        return _var_name(self.index)

    @property
    def type(self):
        return _type_string(self.shape, self.dtype)

    def __str__(self):
        return f"{self.name}:{self.type}"

    def __repr__(self):
        return f"Var({self})"


class Constant:
    """An array the program uses that does not depend on its inputs."""

    __slots__ = ("index", "value")

    def __init__(self, index, value):
        self.index = index
        self.value = value

    @property
    def name(self):
        return f"k{self.index}"

    @property
    def type(self):
        return _type_string(np.shape(self.value), dtype_of(self.value))

    def __str__(self):
        return f"{self.name}:{self.type}"

    def __repr__(self):
        return f"Constant({self})"


class Literal:
    """A value written into the program: a scalar (2.0, or 2.0:f32 when not Python's
    default type) or another non-array argument (a dtype, say)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __str__(self):
        value = self.value
        if not isinstance(value, (np.ndarray, np.generic, bool, int, float, complex)):
            return _param_text(value)
        text = repr(np.asarray(value).item())
        if isinstance(value, (bool, int, float, complex)):
            return text
        return f"{text}:{_short_dtype(dtype_of(value))}"

    def __repr__(self):
        return f"Literal({self})"


def _atom_text(atom):
    if isinstance(atom, tuple):
        return "(" + ", ".join(map(_atom_text, atom)) + ")"
    return str(atom)


def _param_text(value):
    if isinstance(value, np.ndarray):
        if value.size <= 8:
            return np.array2string(value, separator=", ").replace("\n", "")
        return f"array<{_type_string(value.shape, value.dtype)}>"
    if isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic)):
        return _short_dtype(value)
    if callable(value) and hasattr(value, "__name__"):
        return value.__name__
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class Equation:
    """One primitive application: ``outputs = primitive(*inputs, **params)``.

    `inputs` holds a Var, a Constant or a Literal per positional argument (a tuple of
    those for a tuple argument); `origin` is the user's line when
    `funcgrad.config.provenance` is on (always, for a guard), else None. `overwrites` is
    the Var whose buffer the result is written into (set by jit's buffer-reuse pass);
    `errstate` the NumPy error handling it ran under (`numpy.geterr()`) when a rule had
    changed it, else None.
    """

    __slots__ = ("primitive", "inputs", "params", "outputs", "origin", "overwrites",
                 "errstate")

    def __init__(self, primitive, inputs, params, outputs, origin=None, overwrites=None,
                 errstate=None):
        self.primitive = primitive
        self.inputs = inputs
        self.params = params
        self.outputs = outputs
        self.origin = origin
        self.overwrites = overwrites
        self.errstate = errstate

    def replace(self, **changes):
        """A copy with some fields changed (passes build new equations, never edit)."""
        fields = {name: getattr(self, name) for name in self.__slots__}
        fields.update(changes)
        return Equation(**fields)

    def __str__(self):
        arguments = [_atom_text(atom) for atom in self.inputs]
        arguments += [f"{key}={_param_text(value)}" for key, value in self.params.items()]
        outputs = ", ".join(map(str, self.outputs))
        text = f"{self.primitive.name}({', '.join(arguments)})"
        if self.overwrites is not None:
            text += f"  # in place of {self.overwrites.name}"
        return f"{outputs} = {text}" if outputs else text


class Graph:
    """The program traced by `make_graph`: inputs, equations and outputs.

    ``str(graph)`` is the program as text; ``graph.to_dot()`` is Graphviz DOT, and
    ``graph.render("graph.svg")`` draws it (needs Graphviz's `dot`). `inputs` and
    `outputs` are flat lists in pytree order (`in_tree`, `out_tree`); `out` is what the
    function returned.
    """

    def __init__(self, inputs, input_names, equations, constants, outputs, output_names,
                 in_tree, out_tree, out):
        self.inputs = inputs
        self.input_names = input_names
        self.equations = equations
        self.constants = constants
        self.outputs = outputs
        self.output_names = output_names
        self.in_tree = in_tree
        self.out_tree = out_tree
        self.out = out

    @property
    def primitive_names(self):
        """The names of the primitives applied, in order (handy in tests)."""
        return [eq.primitive.name for eq in self.equations]

    def to_text(self, origins=False):
        """The program as text; with ``origins=True`` each equation ends with the user's
        file:line that applied it (recorded while `funcgrad.config.provenance` is on)."""
        lines = ["inputs:"]
        lines += [f"  {var}  {name}" for var, name in zip(self.inputs, self.input_names)]
        if self.constants:
            lines.append("constants:")
            lines += [f"  {const} = {_param_text(const.value)}" for const in self.constants]
        lines.append("equations:")
        for eq in self.equations:
            line = f"  {eq}"
            if origins and eq.origin is not None:
                line += f"  # {eq.origin.filename}:{eq.origin.lineno}"
            lines.append(line)
        lines.append("outputs:")
        lines += [f"  {_atom_text(atom)}  {name}"
                  for atom, name in zip(self.outputs, self.output_names)]
        return "\n".join(lines)

    def __str__(self):
        return self.to_text()

    def __repr__(self):
        return (f"<Graph: {len(self.inputs)} inputs, {len(self.equations)} equations, "
                f"{len(self.outputs)} outputs>")

    def to_dot(self, name="funcgrad"):
        """Graphviz DOT: inputs and constants as ellipses, primitives as boxes, and an edge
        labelled with the value's type wherever a value flows."""
        dot = Digraph(name)
        producer = {}
        for i, (var, label) in enumerate(zip(self.inputs, self.input_names)):
            producer[var] = f"in{i}"
            dot.node(f"in{i}", label=f"{label}\n{var.type}", shape="ellipse", style="filled",
                     fillcolor="lightblue")
        for const in self.constants:
            producer[const] = const.name
            dot.node(const.name, label=f"{const.name}\n{const.type}", shape="ellipse",
                     style="dashed")
        for i, eq in enumerate(self.equations):
            node_id = f"eq{i}"
            label = [eq.primitive.name] + [f"{key}={_param_text(value)}"
                                           for key, value in eq.params.items()]
            literals = [str(a) for a in _flat_atoms(eq.inputs) if isinstance(a, Literal)]
            if literals:
                label.append("with " + ", ".join(literals))
            dot.node(node_id, label="\n".join(label), shape="box")
            for atom in _flat_atoms(eq.inputs):
                if atom in producer:
                    dot.edge(producer[atom], node_id, label=atom.type)
            for out in eq.outputs:
                producer[out] = node_id
        for i, (atom, name) in enumerate(zip(self.outputs, self.output_names)):
            dot.node(f"out{i}", label=name, shape="ellipse", style="filled",
                     fillcolor="lightyellow")
            if not isinstance(atom, Literal) and atom in producer:
                dot.edge(producer[atom], f"out{i}", label=atom.type)
        return dot.source()

    def render(self, path, format=None):
        """Draw the graph to `path` (format "svg", "png" or "pdf"; default: from `path`'s
        extension) with Graphviz's `dot`; raises GraphvizNotFoundError, saying how to
        install it, when `dot` is missing. Returns `path`."""
        return render_dot(self.to_dot(), path, format)


def _flat_atoms(atoms):
    for atom in atoms:
        if isinstance(atom, tuple):
            yield from _flat_atoms(atom)
        else:
            yield atom


# ---- the trace ------------------------------------------------------------------------


class GraphBox(Box):
    """A value watched by a graph trace; `var` names it in the program."""

    __slots__ = ("var",)

    def __init__(self, value, trace, var):
        self.value = value
        self._trace = trace
        self.var = var


class GraphTrace(Trace):
    """Records an Equation per primitive applied to its boxes."""

    __slots__ = ("equations", "constants", "_count", "_untraced")
    transform = "make_graph"
    box_class = GraphBox

    def __init__(self, level):
        super().__init__(level)
        self.equations = []
        self.constants = {}  # id -> (value, Constant); the value is kept so ids stay unique
        self._count = 0
        # Integer and boolean results are returned unboxed (like every transform does, so
        # indexing and control flow behave the same), and recognized by identity later.
        self._untraced = {}  # id -> (value, Var)

    def new_var(self, value):
        var = Var(self._count, value)
        self._count += 1
        return var

    def watch(self, value, var):
        """The value the traced program sees for `value`, produced as `var`."""
        if is_differentiable(value):
            return GraphBox(value, self, var)
        if isinstance(value, np.ndarray) or is_array(value) or (
                isinstance(value, np.generic) and not isinstance(value, np.bool_)):
            self._untraced[id(value)] = (value, var)  # (NumPy's bool scalars are shared)
        return value

    def atom(self, arg):
        """What an equation shows for an argument: a Var, a Constant or a Literal."""
        if isinstance(arg, (tuple, list)):
            return tuple(map(self.atom, arg))
        if isinstance(arg, GraphBox) and arg._trace is self:
            return arg.var
        known = self._untraced.get(id(arg))
        if known is not None and known[0] is arg:
            return known[1]
        return self.constant(self.outside_value(arg), arg)

    def outside_value(self, arg):
        """The value of an argument from outside the program: a box of a lower level's
        trace is a constant here."""
        return unbox_all(arg)

    def constant(self, value, key):
        """The atom of a value that does not depend on the inputs (`key` keeps its id)."""
        if not (isinstance(value, np.ndarray) or is_array(value)) or value.ndim == 0:
            return Literal(value)  # scalars and non-arrays (a dtype, say)
        known = self.constants.get(id(key))
        if known is None:
            known = self.constants[id(key)] = (key, Constant(len(self.constants), value))
        return known[1]

    def process_primitive(self, primitive, args, params):
        if primitive is tuple_get:  # one result of a multiple-results primitive: no equation
            (packed,), index = args, params["index"]
            return self.watch(packed.value[index], packed.var[index])
        values = list(args)
        inputs = []
        outer = False  # whether a lower level's box remains among the values
        for i, arg in enumerate(args):
            if isinstance(arg, GraphBox) and arg._trace is self:
                values[i] = value = arg.value
                inputs.append(arg.var)
                outer = outer or isinstance(value, Box)
            else:
                inputs.append(self.atom(arg))
                outer = outer or isinstance(arg, Box)
        # Lower the application one level: dispatch again if a box remains, else NumPy.
        ans = primitive(*values, **params) if outer else primitive.impl(*values, **params)
        if primitive.multiple_results:
            outputs = tuple(self.new_var(part) for part in ans)
            result = self.box_class(tuple(ans), self, outputs)  # split by tuple_get, above
        else:
            outputs = (self.new_var(ans),)
            result = self.watch(ans, outputs[0])
        origin = user_origin() if config.provenance else None
        self.equations.append(Equation(primitive, tuple(inputs), dict(params), outputs, origin))
        return result


def vars_in(atoms):
    """The Vars among an equation's atoms (nested tuples of them included), in order."""
    for atom in atoms:
        if isinstance(atom, tuple):
            yield from vars_in(atom)
        elif isinstance(atom, Var):
            yield atom


def positional_parameters(fun):
    """The names of `fun`'s positional parameters, in order ([] if it has no signature)."""
    try:
        parameters = list(inspect.signature(fun).parameters.values())
    except (TypeError, ValueError):
        parameters = []
    return [p.name for p in parameters
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


def argument_names(fun, args):
    """Names for the flattened inputs: the parameter's name plus the pytree path."""
    positional = positional_parameters(fun)
    names = []
    for path, _ in tree_flatten_with_path(tuple(args))[0]:
        position = path[0].idx  # args is a tuple, so each path starts at its position
        head = positional[position] if position < len(positional) else f"args[{position}]"
        names.append(head + keystr(path[1:]))
    return names


def make_graph(fun):
    """``make_graph(fun)(*args)`` runs ``fun(*args)`` and returns the traced program as a
    `Graph`: print it, ``.to_dot()`` for Graphviz, ``.render("g.svg")`` to draw it.

    Arguments and results may be pytrees of arrays; keyword arguments are passed through
    untraced. Floating-point inputs are traced; integer and boolean ones are listed as
    inputs too. Transforms called inside `fun` (grad, vjp, jvp, ...) show their primitives,
    backward passes included.
    """
    check_callable(fun, "make_graph")

    @functools.wraps(fun)
    def graph_fun(*args, **kwargs):
        flat, in_tree = tree_flatten(args)
        with new_trace(GraphTrace) as trace, quiet_floating_point():
            inputs = [trace.new_var(x) for x in flat]
            traced = [trace.watch(x, var) for x, var in zip(flat, inputs)]
            out = fun(*tree_unflatten(in_tree, traced), **kwargs)
        out_flat, out_tree = tree_flatten(out)
        outputs = [leaf.var if isinstance(leaf, GraphBox) and leaf._trace is trace
                   else trace.atom(leaf) for leaf in out_flat]
        values = [leaf.value if isinstance(leaf, GraphBox) and leaf._trace is trace else leaf
                  for leaf in out_flat]
        output_names = ["out" + keystr(path) for path, _ in tree_flatten_with_path(out)[0]]
        constants = [const for _, const in trace.constants.values()]
        return Graph(inputs, argument_names(fun, args), trace.equations, constants, outputs,
                     output_names, in_tree, out_tree, tree_unflatten(out_tree, values))

    return graph_fun
