"""autograd's ``builtins``: containers and type checks, as autograd scripts import them.

funcgrad traces arrays, never containers: a tuple, list or dict holding traced arrays is
an ordinary one, and transforms differentiate through it (it is a pytree). So autograd's
differentiable ``tuple``, ``list`` and ``dict`` are Python's own here. Arrays, though, are
traced, so `isinstance` and `type` look through the trace at the value, as autograd's do.
"""
import builtins

from ..core import unbox_all

tuple = builtins.tuple
list = builtins.list
dict = builtins.dict


def isinstance(obj, classinfo):
    """``isinstance`` of the value inside any traced wrapper: a traced float is a float."""
    return builtins.isinstance(unbox_all(obj), classinfo)


def type(obj):
    """``type`` of the value inside any traced wrapper."""
    return builtins.type(unbox_all(obj))
