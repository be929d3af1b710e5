"""Forward mode: pushing tangents through primitives alongside their values.

A `JVPTrace` is one forward-mode transform call. Its boxes carry their `tangent`; a value
the trace does not watch has a symbolic zero tangent and is never boxed. A primitive's
output tangent is the sum of one contribution per argument with a tangent: from the
primitive's JVP rule where it has one, otherwise from its VJP rule by transposition
(DESIGN.md, decision 5).
"""
import numpy as np

from . import errors
from .reverse import ReverseBox, ReverseTrace, backward_pass, leaf_node
from .trace import Box, Trace, new_trace
from .values import add_cotangents, dtype_of, is_differentiable, shape_of, zeros_like_value

# JAX's dtype for the tangents and cotangents of integer and boolean values: zero-sized
# elements, so a float0 array is a shape with no data.
float0 = np.dtype([("float0", np.void, 0)])


class JVPBox(Box):
    """A value watched by a forward trace, with its `tangent`."""

    __slots__ = ("tangent",)

    def __init__(self, value, trace, tangent):
        self.value = value
        self._trace = trace
        self.tangent = tangent


class JVPTrace(Trace):
    """Computes each primitive's output tangent as soon as its value is known."""

    __slots__ = ()
    transform = "a forward-mode transform (jvp, jacfwd, ...)"

    def process_primitive(self, primitive, args, params):
        primals = list(args)
        tangents = []
        outer = False  # is any value still boxed by an outer transform? (else call NumPy)
        for i, arg in enumerate(args):
            if isinstance(arg, Box):
                if arg._trace is self:
                    value = primals[i] = arg.value
                    tangents.append((i, arg.tangent))
                    outer = outer or isinstance(value, Box)
                else:
                    outer = True
        ans = primitive(*primals, **params) if outer else primitive.impl(*primals, **params)
        if not is_differentiable(ans):
            return ans
        out_tangent = None
        for argnum, tangent in tangents:
            out_tangent = add_cotangents(
                out_tangent, push_forward(primitive, argnum, tangent, ans, primals, params))
        if out_tangent is None:  # a symbolic zero: the output is a constant at this level
            return ans
        return JVPBox(ans, self, out_tangent)

    def to_python(self, box, kind):
        if kind is float or kind is complex:
            raise errors.conversion(kind, self.transform)
        return kind(box.value)


def push_forward(primitive, argnum, tangent, ans, primals, params):
    """The output tangent contributed by ``tangent``, the tangent of argument ``argnum``."""
    rules = primitive.jvp_rules
    try:
        if argnum < len(rules) and rules[argnum] is not None:
            out = rules[argnum](tangent, ans, *primals, **params)
        elif primitive.jvp_rule_any_arg is not None:
            out = primitive.jvp_rule_any_arg(argnum, tangent, ans, *primals, **params)
        else:
            return transpose_vjp(primitive, argnum, tangent, ans, primals, params)
    except Exception as error:
        error.add_note(f"funcgrad: raised while pushing a tangent through '{primitive.name}' "
                       f"for argument {argnum}")
        raise
    if out is not None:
        _check_rule_tangent(out, ans, primitive, argnum)
    return out


def transpose_vjp(primitive, argnum, tangent, ans, primals, params):
    """J·t from the VJP rule alone.

    The backward rule ``g -> J^T g`` is linear in ``g``, so tracing it once on a
    placeholder ``g`` and pulling ``tangent`` back through that trace applies its
    transpose, J. The placeholder's value is never used by a linear rule, so zeros do.
    """
    if primitive.vjp is None:
        raise errors.missing_vjp_rule(primitive.name, argnum)
    wanted = tuple(True if i == argnum else None for i in range(len(primals)))
    residuals = primitive.vjp.save(ans, tuple(primals), params, wanted)
    with new_trace(ReverseTrace) as trace:
        if primitive.multiple_results:
            leaves = tuple(leaf_node() if is_differentiable(part) else None for part in ans)
            g = tuple(None if leaf is None else ReverseBox(zeros_like_value(part), trace, leaf)
                      for leaf, part in zip(leaves, ans))
        else:
            leaves = (leaf_node(),)
            g = ReverseBox(zeros_like_value(ans), trace, leaves[0])
        ct = primitive.vjp.backward(residuals, params, g)[argnum]
    if not (isinstance(ct, ReverseBox) and ct._trace is trace):
        return None  # the cotangent does not depend on g: a zero map
    found = backward_pass(trace.tape, [ct.node], [tangent])
    if primitive.multiple_results:
        return tuple(found.get(leaf) for leaf in leaves)
    return found.get(leaves[0])


def _check_rule_tangent(out, ans, primitive, argnum):
    """A JVP rule's tangent must have its output's shape and dtype (parts, if several)."""
    pairs = zip(out, ans) if primitive.multiple_results else ((out, ans),)
    for part, primal in pairs:
        if part is None:
            continue
        if shape_of(part) != shape_of(primal) or dtype_of(part) != dtype_of(primal):
            raise TypeError(
                f"funcgrad: the JVP rule of '{primitive.name}' for argument {argnum} returned a "
                f"tangent of shape {shape_of(part)} and dtype {dtype_of(part)}, but the output "
                f"has shape {shape_of(primal)} and dtype {dtype_of(primal)}; a JVP rule must "
                f"return a tangent shaped like the output.")
