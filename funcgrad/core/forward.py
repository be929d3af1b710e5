"""Forward mode: pushing tangents through primitives alongside their values.

A `JVPTrace` is one forward-mode transform call. Its boxes carry their tangent in the
node slot; a value the trace does not watch has a symbolic zero tangent and is never
boxed. A primitive's output tangent is the sum of one contribution per argument with a
tangent: from the primitive's JVP rule where it has one, otherwise from its VJP rule by
transposition (DESIGN.md, decision 5).
"""
import numpy as np

from .box import Box, Trace, new_box
from .primitive import defjvp, tuple_get
from .reverse import LeakedBoxError, Node, ReverseTrace, backward_pass
from .values import add_cotangents, dtype_of, is_differentiable, shape_of, zeros_like_value

# JAX's dtype for the tangents and cotangents of integer and boolean values: zero-sized
# elements, so a float0 array is a shape with no data.
float0 = np.dtype([("float0", np.void, 0)])


class JVPTrace(Trace):
    """Computes each primitive's output tangent as soon as its value is known."""

    __slots__ = ()

    def process_primitive(self, primitive, args, params):
        if not self.active:
            raise LeakedBoxError(
                f"funcgrad: '{primitive.name}' was applied to a value traced by a forward-mode "
                f"transform (jvp, jacfwd, ...) that has already returned (it leaked out, e.g. "
                f"through a global or a closure). Return it from the transformed function "
                f"instead.")
        primals = list(args)
        tangents = []
        outer = False  # is any value still boxed by an outer transform? (else call NumPy)
        for i, arg in enumerate(args):
            if isinstance(arg, Box):
                if arg._trace is self:
                    value = primals[i] = arg.value
                    tangents.append((i, arg.node))
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
        return new_box(ans, self, out_tangent)


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

    The staged VJP closure ``g -> J^T g`` is linear in ``g``, so tracing it once on a
    placeholder ``g`` and pulling ``tangent`` back through that trace applies its
    transpose, J. The placeholder's value is never used by a linear closure, so zeros do.
    """
    vjp = primitive.stage_vjp(argnum, ans, primals, params)
    trace = ReverseTrace()
    if primitive.multiple_results:
        leaves = tuple(Node.leaf() if is_differentiable(part) else None for part in ans)
        g = tuple(None if leaf is None else new_box(zeros_like_value(part), trace, leaf)
                  for leaf, part in zip(leaves, ans))
    else:
        leaves = (Node.leaf(),)
        g = new_box(zeros_like_value(ans), trace, leaves[0])
    try:
        ct = vjp(g)
    finally:
        trace.active = False
    if not (isinstance(ct, Box) and ct._trace is trace):
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


# A multiple-results primitive's tangent is a tuple (None: zero); each result takes its part.
defjvp(tuple_get, lambda t, ans, values, index: t[index])
