"""Primitives: the operations the engine differentiates, each declared once with its rules."""
from .box import Box

# Every primitive by name: the one registry both funcgrad's transforms and compat use.
registry = {}

# The params of every application that has none, shared: a node keeps its params, and an
# empty dict of its own costs 64 bytes (12.8 MB on a 200,000-primitive chain). Params are
# never mutated; a dict rather than a read-only mapping because `**params` of a dict is
# NumPy's and Python's fast path.
NO_PARAMS = {}


class Primitive:
    """A NumPy-level operation plus its derivative rules.

    Array arguments are passed positionally and everything else (axis, shapes,
    subscripts) as keyword parameters, so the engine can tell what may be traced.
    VJP rules are staged: ``rule(ans, *args, **params)`` runs in the forward pass
    and returns ``g -> cotangent`` for one argument (DESIGN.md, decision 3).
    """

    __slots__ = ("name", "impl", "vjp_rules", "vjp_rule_any_arg", "jvp_rules",
                 "jvp_rule_any_arg", "multiple_results", "__weakref__")

    def __init__(self, name, impl, multiple_results=False, register=True):
        self.name = name
        self.impl = impl
        self.vjp_rules = ()
        self.vjp_rule_any_arg = None
        self.jvp_rules = ()
        self.jvp_rule_any_arg = None
        self.multiple_results = multiple_results
        if register:
            if name in registry:
                raise ValueError(f"a primitive named {name!r} is already registered")
            registry[name] = self

    def __call__(self, *args, **params):
        top = None  # the innermost transform watching an argument (find_top_trace, inlined)
        for arg in args:
            if isinstance(arg, Box) and (top is None or arg._trace.level > top.level):
                top = arg._trace
        if top is None:  # the hot path: untraced arguments go straight to NumPy
            return self.impl(*args, **params)
        if self.multiple_results:
            return self.bind(top, args, params)
        return top.process_primitive(self, args, params or NO_PARAMS)  # bind, inlined

    def bind(self, top, args, params):
        """Hand this application to ``top``, the innermost transform watching its arguments."""
        out = top.process_primitive(self, args, params or NO_PARAMS)
        if self.multiple_results and isinstance(out, Box):
            return tuple(tuple_get(out, index=i) for i in range(len(out.value)))
        return out

    def stage_unary_vjp(self, ans, value, params):
        """`stage_vjp` of a one-argument application, the traces' hot path: no argument
        tuple to build, and no `**params` call when there are none."""
        rules = self.vjp_rules
        if not (rules and rules[0] is not None):
            return self.stage_vjp(0, ans, (value,), params)  # variadic rule, or error
        if params:
            return rules[0](ans, value, **params)
        return rules[0](ans, value)

    def stage_vjp(self, argnum, ans, args, params):
        """Run the rule for argument `argnum` in the forward pass; returns g -> cotangent."""
        if argnum < len(self.vjp_rules) and self.vjp_rules[argnum] is not None:
            return self.vjp_rules[argnum](ans, *args, **params)
        if self.vjp_rule_any_arg is not None:
            return self.vjp_rule_any_arg(argnum, ans, *args, **params)
        raise NotImplementedError(
            f"funcgrad: primitive '{self.name}' has no VJP rule for argument {argnum}, "
            f"so it cannot be differentiated with respect to that argument. Pass that "
            f"argument as a constant (wrap it in stop_gradient), or register a rule with "
            f"defvjp({self.name}, ...).")

    def __repr__(self):
        return f"<primitive {self.name}>"


def defvjp(primitive, *rules):
    """Register one staged VJP rule per positional argument (None: not differentiable)."""
    primitive.vjp_rules = rules


def defvjp_any_arg(primitive, rule):
    """Register one rule ``rule(argnum, ans, *args, **params)`` for variadic primitives."""
    primitive.vjp_rule_any_arg = rule


def defjvp(primitive, *rules):
    """Register one JVP rule per positional argument (None: no rule for that argument).

    ``rule(t, ans, *args, **params)`` returns the output tangent contributed by the
    tangent ``t`` of that argument; forward mode sums the contributions. Arguments
    without a rule fall back to transposing the VJP rule (DESIGN.md, decision 5).
    """
    primitive.jvp_rules = rules


def defjvp_any_arg(primitive, rule):
    """Register one JVP rule ``rule(argnum, t, ans, *args, **params)`` for variadic primitives."""
    primitive.jvp_rule_any_arg = rule


# A primitive with multiple results is boxed as one tuple, then split into one box per
# result by `tuple_get`; its VJP receives a tuple of cotangents (None: zero).
tuple_get = Primitive("tuple_get", lambda values, index: values[index], register=False)


def _tuple_get_vjp(ans, values, index):
    count = len(values)
    return lambda g: tuple(g if i == index else None for i in range(count))


defvjp(tuple_get, _tuple_get_vjp)
