"""The parts of autograd's ``tracer`` module that scripts use on values: `getval`,
`isbox`, `Box`; and `primitive` / `notrace_primitive` (from `funcgrad.autograd.extend`).

autograd's tracing machinery itself (``trace``, ``Node``, user-defined node types) is not
offered: funcgrad's program representation is ``funcgrad.make_graph``.
"""
from ..core import Box, unbox_all
from .extend import notrace_primitive, primitive

getval = unbox_all  # the plain value under every level of tracing


def isbox(x):
    """Whether ``x`` is a value traced by a transform."""
    return isinstance(x, Box)


__all__ = ["Box", "getval", "isbox", "notrace_primitive", "primitive"]
