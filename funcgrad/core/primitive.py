"""Primitives: the operations the engine differentiates, each declared once with its rules.

A primitive takes arrays positionally and everything else (axes, shapes, modes) as keyword
parameters, so the engine can tell what may be traced. Calling one on untraced values runs
its NumPy implementation; calling it on boxes hands the application to the innermost
transform watching them. Its rules (`funcgrad.core.rules`) say how each transform
processes it.
"""
from . import errors
from .rules import ArgVJP, defjvp, defvjp
from .trace import Box, find_top_trace, instruments

# Every primitive by name: the one registry both funcgrad's transforms and compat use.
registry = {}

# The params of every application that has none, shared: a node keeps its params, and an
# empty dict of its own would cost 64 bytes a node. Never mutated.
NO_PARAMS = {}


class Primitive:
    """A NumPy-level operation plus its derivative rules.

    `vjp` is its reverse-mode rule (None until one is declared): an object with
    ``save(ans, args, params, wanted) -> residuals``, run in the forward pass, and
    ``backward(residuals, params, g) -> cotangents`` (one per argument). `jvp_rules` are
    optional forward-mode rules, one per argument (`rules.defjvp`); without one, forward
    mode transposes the VJP (DESIGN.md, decision 5). `batch_rule` is its rule under vmap
    (`batching.defbatch`; None: run once per batch element). `allocates`: its impl always
    returns memory of its own, never an argument or a view of one (as NumPy's ufuncs do,
    which jit knows without it): jit's buffer reuse may then write into the result, and
    into what it read once that is dead.
    """

    __slots__ = ("name", "impl", "vjp", "jvp_rules", "jvp_rule_any_arg", "multiple_results",
                 "batch_rule", "allocates", "__weakref__")
    # The number of arrays of a primitive that takes a fixed number and NumPy's keywords
    # (ufuncs): a traced call with other arguments is checked by `traced_keywords`.
    nin = None

    def __init__(self, name, impl, multiple_results=False, register=True, allocates=False):
        self.name = name
        self.impl = impl
        self.allocates = allocates
        self.vjp = None
        self.jvp_rules = ()
        self.jvp_rule_any_arg = None
        self.batch_rule = None
        self.multiple_results = multiple_results
        if register:
            if name in registry:
                raise ValueError(f"a primitive named {name!r} is already registered")
            registry[name] = self

    def __call__(self, *args, **params):
        if len(args) == 1:  # the one fast path: a primitive of one array (sin, sum, ...)
            top = args[0]._trace if isinstance(args[0], Box) else None
        else:
            top = find_top_trace(args)
        if top is None:  # nothing traced: NumPy, with nothing in between
            try:  # (free in CPython 3.11+ until something is raised)
                # (no empty `**params`: it costs a ufunc call about a third more)
                return self.impl(*args, **params) if params else self.impl(*args)
            except Exception as error:
                errors.note_other_library(error, f"primitive '{self.name}'", args)
                raise
        if self.nin is not None and (params or len(args) != self.nin):
            params = self.traced_keywords(args, params)
        # Hand the application to `top`, the innermost transform watching its arguments.
        if not top.active:
            raise errors.leaked_value(f"'{self.name}'", top.transform)
        try:
            out = top.process_primitive(self, args, params or NO_PARAMS)
        except Exception as error:
            errors.note_other_library(error, f"primitive '{self.name}'", args)
            raise
        if instruments.on_result is not None:
            instruments.on_result(top, self, out)
        if self.multiple_results and isinstance(out, Box):
            # One box for the tuple of results, split into a box per result.
            return tuple([tuple_get(out, index=i) for i in range(len(out.value))])
        return out

    def __repr__(self):
        return f"<primitive {self.name}>"


def _tuple_get_impl(values, index):
    return values[index]


# A primitive with multiple results is boxed as one tuple, then split by `tuple_get`; its
# rules receive a tuple of cotangents or tangents, None standing for a zero.
tuple_get = Primitive("tuple_get", _tuple_get_impl, register=False)


def _tuple_get_save(ans, values, index):
    return len(values), index


def _tuple_get_pull(g, count, index):
    return tuple([g if i == index else None for i in range(count)])


def _tuple_get_jvp(t, ans, values, index):
    return t[index]


defvjp(tuple_get, ArgVJP(_tuple_get_save, _tuple_get_pull))
defjvp(tuple_get, _tuple_get_jvp)
