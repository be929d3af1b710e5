"""What rule modules share: declaring primitives, and what a rule saves of an argument."""
# The rule declarations are re-exported so each rule module imports from one place.
from ..core import (ZERO, ArgVJP, Primitive, defbatch, defdiagonal, defjvp,  # noqa: F401
                    defjvp_any_arg, defvjp, defvjp_any_arg, defvjp_rule, dtype_of, errors,
                    shape_of)


def primitive(impl, name=None, multiple_results=False, allocates=False):
    """Declare ``impl`` (a NumPy function) as a funcgrad primitive (`allocates`: see
    `Primitive`)."""
    return Primitive(name or impl.__name__, impl, multiple_results, allocates=allocates)


def aval(x):
    """What a rule remembers of an argument whose value it does not need: shape and dtype."""
    try:  # arrays and boxes (shape_of and dtype_of, inlined: every binary rule calls this)
        return x.shape, x.dtype
    except AttributeError:
        return shape_of(x), dtype_of(x)


def reject_out(out, function):
    """The one refusal of an output buffer (`out=`) in funcgrad.numpy."""
    if out is not None:
        raise errors.out_argument(f"funcgrad.numpy.{function}")
