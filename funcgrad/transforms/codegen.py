"""Code generation: a `Graph` as straight-line Python calling each primitive's NumPy impl.

    def program(a, b):
        # a: f64[4,3] x
        # b: f64[3,2] w
        c = matmul_(a, b)
        d = tanh_(c, out=c)
        e = sum_(d, axes=(0, 1, ), keepdims=False)
        if not (bool(e) == True): fail(3)
        return (d, )

Everything the program refers to (impls, constants, parameters that have no literal
form) is a global of the compiled function, so a run is one Python frame of plain calls:
no boxes, no dispatch, no dictionaries of keyword arguments. Compiled once with
`compile`/`exec`; the text is kept for `Lowered.as_text()`.
"""
import builtins
import keyword
import math
import operator
import re

import numpy as np

from .graph import Constant, Var, index_name, vars_in
from .staging import GuardFailed, array_bits, guard_p

__all__ = ["Program", "generate", "released_after"]


# Intermediates of at least this many elements are deleted after their last use (for
# smaller ones the `del` costs more time than the memory is worth).
RELEASE_SIZE = 256


def _fail(index):
    raise GuardFailed(index)


def _literal_text(value):
    """Python source for a value that needs no global, or None."""
    kind = type(value)
    if value is None or kind is bool or kind is int or kind is str:
        return repr(value)
    if kind is float and math.isfinite(value):
        return repr(value)
    if kind is tuple:
        parts = [_literal_text(part) for part in value]
        if all(part is not None for part in parts):
            return "(" + "".join(part + ", " for part in parts) + ")"
    return None


class _Names:
    """The globals of one generated program. Their names never look like a variable's
    (lowercase letters, see `_var_name`): a function's own name ends in "_" (``sin_``),
    a value's name ends in its number (``k0`` a constant, ``g1`` anything else)."""

    def __init__(self):
        self.globals = {"fail": _fail}
        self._by_id = {}

    def function(self, name, function):
        """``name_`` for `function`, numbered if another function took that name."""
        known = self._by_id.get(id(function))
        if known is None:
            known = re.sub(r"\W", "_", name) + "_"  # fft.fft -> fft_fft_
            if not known.isidentifier():
                known = "f_" + known
            if known in self.globals:
                known += str(len(self._by_id))
            self._remember(known, function)
        return known

    def value(self, value, prefix="g"):
        """Source text for `value`: a literal if it has one, else a numbered global."""
        text = _literal_text(value)
        if text is not None:
            return text
        known = self._by_id.get(id(value))
        if known is None:
            known = f"{prefix}{len(self._by_id)}"
            self._remember(known, value)
        return known

    def _remember(self, name, value):
        self._by_id[id(value)] = name
        self.globals[name] = value


# Names a variable must not take: Python's keywords, builtins and the program's own.
_RESERVED = frozenset(keyword.kwlist) | frozenset(dir(builtins)) | {"fail"}


_names_by_index = []  # a var's name depends on its index only: made once per index


def _var_name(var):
    index = var.index
    if index >= len(_names_by_index):
        for missing in range(len(_names_by_index), index + 1):
            name = index_name(missing)
            _names_by_index.append(name + "_v" if name in _RESERVED else name)
    return _names_by_index[index]


def _atom(atom, names):
    kind = type(atom)
    if kind is Var:
        index = atom.index  # (_var_name inlined: a program has an atom per argument)
        return _names_by_index[index] if index < len(_names_by_index) else _var_name(atom)
    if kind is tuple:
        return "(" + "".join([_atom(part, names) + ", " for part in atom]) + ")"
    if kind is Constant:
        return names.value(atom.value, "k")
    return names.value(atom.value)  # a Literal


def _guard_line(index, eq, names):
    """The check of a guard equation: the conversion made while tracing, compared."""
    (var,) = eq.inputs
    kind, expected = eq.params["kind"], eq.params["expected"]
    value = _var_name(var)
    if kind == "array":
        test = f"{names.function('array_bits', array_bits)}({value}) == {names.value(expected)}"
    else:
        convert = names.function("index", operator.index) if kind == "index" else kind
        if isinstance(expected, float) and expected != expected:  # NaN: equal to itself
            test = f"{convert}({value}) != {convert}({value})"
        else:
            test = f"{convert}({value}) == {names.value(expected)}"
    return f"if not ({test}): fail({index})"


def _equation_line(eq, names):
    primitive = eq.primitive
    # Plain loops: a comprehension is a function call in itself, and this runs per equation.
    arguments = []
    for atom in eq.inputs:
        arguments.append(_atom(atom, names))
    for key, value in eq.params.items():
        arguments.append(key + "=" + names.value(value))
    if eq.overwrites is not None:
        arguments.append("out=" + _var_name(eq.overwrites))
    call = names.function(primitive.name, primitive.impl) + "(" + ", ".join(arguments) + ")"
    if primitive.multiple_results:
        targets = "(" + "".join([_var_name(out) + ", " for out in eq.outputs]) + ")"
    else:
        targets = _var_name(eq.outputs[0])
    return targets + " = " + call


def released_after(graph, min_size):
    """{equation index: the intermediates of at least `min_size` elements it is the last
    use of}: the program deletes them there, so their memory is freed as a backward pass
    frees what it has used, not when the program returns."""
    kept = set(graph.inputs) | set(vars_in(graph.outputs))
    large = set()  # the intermediates of at least min_size elements
    for eq in graph.equations:
        for var in eq.outputs:
            if var not in kept and math.prod(var.shape) >= min_size:
                large.add(var)
    if not large:  # (a program of small arrays: nothing to look for)
        return {}
    last_use = {}
    for index, eq in enumerate(graph.equations):
        for var in vars_in(eq.inputs):
            last_use[var] = index
        if eq.overwrites is not None:  # a dead intermediate's buffer, written into here
            last_use[eq.overwrites] = index
    released = {}
    for var, index in last_use.items():
        if var in large:
            released.setdefault(index, []).append(var)
    return released


def _whole_errstate(graph):
    """The np.errstate settings every equation but the guards ran under, when they all
    ran under one block (a transform's, such as grad's, around the whole function)."""
    settings = [eq.errstate for eq in graph.equations if eq.primitive is not guard_p]
    if settings and settings[0] is not None and all(s == settings[0] for s in settings):
        return settings[0]
    return None


def generate(graph, name="program", release_size=RELEASE_SIZE):
    """The source text and globals of `graph` as a Python function of its flat inputs."""
    names = _Names()
    lines = [f"def {name}({', '.join(_var_name(var) for var in graph.inputs)}):"]
    whole = _whole_errstate(graph)
    if whole is not None:
        # np.errstate as a decorator: the same block around the whole run, at half a
        # with statement's cost (no errstate object made, entered and left per run).
        block = names.function("errstate", np.errstate)
        lines.insert(0, f"@{block}(**{names.value(whole)})")
    lines += [f"    # {_var_name(var)}: {var.type} {label}"
              for var, label in zip(graph.inputs, graph.input_names)]
    released = released_after(graph, release_size)
    errstate = whole  # the np.errstate block the lines are in
    indent = "    "
    for index, eq in enumerate(graph.equations):
        if eq.primitive is guard_p:  # a guard computes nothing: it stays in any block
            lines.append(indent + _guard_line(index, eq, names))
        else:
            if eq.errstate != errstate:  # one block per run of equations under one setting
                errstate = eq.errstate
                indent = "    "
                if errstate is not None:
                    block = names.function("errstate", np.errstate)
                    lines.append(f"    with {block}(**{names.value(errstate)}):")
                    indent = "        "
            lines.append(indent + _equation_line(eq, names))
        if index in released:
            lines.append(f"{indent}del {', '.join(_var_name(var) for var in released[index])}")
    outputs = "".join(_atom(atom, names) + ", " for atom in graph.outputs)
    lines.append(f"    return ({outputs})")
    return "\n".join(lines) + "\n", names.globals


class Program:
    """A graph as Python: `text` is its source, ``function()`` the compiled function of
    its flat inputs, returning its flat outputs. Both are made when first asked for."""

    __slots__ = ("graph", "name", "_text", "_globals", "_function")

    def __init__(self, graph, name="program"):
        self.graph = graph
        self.name = name if name.isidentifier() and name not in _RESERVED else "program"
        self._text = self._function = None

    @property
    def text(self):
        if self._text is None:
            self._text, self._globals = generate(self.graph, self.name)
        return self._text

    def function(self):
        if self._function is None:
            exec(compile(self.text, f"<funcgrad.jit {self.name}>", "exec"), self._globals)
            self._function = self._globals[self.name]
        return self._function
