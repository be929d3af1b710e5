"""autograd's ``extend``: user-defined primitives and their derivative rules, declared on
funcgrad's primitives (`funcgrad.core`'s `Primitive`, `defvjp`, `defjvp` and their
any-argument forms). This module is only that translation.

autograd's VJP maker ``(ans, *args, **kwargs) -> (g -> ct)`` is a rule staged in a
closure: it becomes an `ArgVJP` whose residual is that closure (so compat's checks see no
saved arrays in a user primitive's node). Its JVP function ``(g, ans, *args, **kwargs) ->
tangent`` is funcgrad's shape. What else differs: autograd's None rule means a zero
derivative (funcgrad's: no rule), the ``argnums=`` keyword, and the ``"same"`` JVP of a
function linear in that argument. An argument with a VJP rule but no JVP rule still works
in forward mode (funcgrad transposes the VJP).
"""
import functools

import numpy as np

from ..core import ArgVJP, Box, Primitive, defjvp as _defjvp, defjvp_any_arg
from ..core import defvjp as _defvjp
from ..core import defvjp_any_arg, unbox_all
from ..tree_util import tree_map
from .vspace import VSpace, vspace


def primitive(f_raw):
    """Make ``f_raw`` a primitive: transforms do not look inside it, and its derivatives
    come from the rules given to `defvjp`/`defjvp` (or their argnum forms)."""
    name = getattr(f_raw, "__qualname__", None) or getattr(f_raw, "__name__", repr(f_raw))
    # The user's, so not in funcgrad's registry of built-in primitives (as custom_vjp's).
    declared = Primitive(name, f_raw, register=False)

    @functools.wraps(f_raw)
    def f_wrapped(*args, **kwargs):
        out = declared(*args, **kwargs)
        if isinstance(out, Box) and isinstance(unbox_all(out), (tuple, list, dict)):
            raise TypeError(
                f"funcgrad.autograd: the primitive {name} returned a "
                f"{type(unbox_all(out)).__name__}; primitives must return arrays or scalars "
                f"here. Split it into one primitive per output, or give the function its "
                f"derivative with funcgrad.custom_vjp, which takes pytree outputs.")
        return out

    f_wrapped.fun = f_raw
    f_wrapped.primitive = declared
    return f_wrapped


def notrace_primitive(f_raw):
    """``f_raw`` applied to the plain values of its arguments: no derivative flows through."""
    @functools.wraps(f_raw)
    def f_wrapped(*args, **kwargs):
        return f_raw(*map(unbox_all, args), **{k: unbox_all(v) for k, v in kwargs.items()})
    return f_wrapped


def _declared(fun, definer):
    declared = getattr(fun, "primitive", None)
    if not isinstance(declared, Primitive):
        raise TypeError(f"funcgrad.autograd.{definer}: {fun!r} is not a primitive; decorate "
                        f"the function with funcgrad.autograd.extend.primitive first.")
    return declared


def _rules_by_argnum(rules, argnums, definer, name):
    """autograd's rules (one per argument, or one per entry of ``argnums``) by argnum."""
    argnums = range(len(rules)) if argnums is None else tuple(argnums)
    if len(argnums) != len(rules):
        raise TypeError(f"funcgrad.autograd.{definer}: {len(rules)} rules for {name}, but "
                        f"argnums names {len(argnums)} arguments.")
    return dict(zip(argnums, rules))


def _by_position(rules):
    """{argnum: rule} as funcgrad's tuple of rules by position (None: no rule)."""
    table = [None] * (max(rules, default=-1) + 1)
    for argnum, rule in rules.items():
        table[argnum] = rule
    return table


# ---- reverse mode ---------------------------------------------------------------------
# Each definition replaces the primitive's earlier VJP rules, as in autograd.


def defvjp(fun, *vjpmakers, argnums=None):
    """One VJP maker ``(ans, *args, **kwargs) -> (g -> ct)`` per argument, in order (or for
    the arguments in ``argnums``); None: that argument's derivative is zero."""
    declared = _declared(fun, "defvjp")
    rules = _rules_by_argnum(vjpmakers, argnums, "defvjp", declared.name)
    for argnum, maker in rules.items():
        if maker is None:
            maker = _zero_vjp(argnum)
        elif not callable(maker):
            raise TypeError(f"funcgrad.autograd.defvjp: a VJP of {declared.name} must be a "
                            f"function or None, got {maker!r}.")
        rules[argnum] = ArgVJP(_staged(maker), _call)
    _defvjp(declared, *_by_position(rules))


def _staged(maker):
    """The `save` of an autograd VJP maker: its closure is the residual."""
    def save(ans, *args, **kwargs):
        return (maker(ans, *args, **kwargs),)
    return save


def _call(g, vjp):
    return vjp(g)


def defvjp_argnum(fun, vjpmaker):
    """One VJP maker for every argument: ``(argnum, ans, args, kwargs) -> (g -> ct)``."""
    declared = _declared(fun, "defvjp_argnum")

    def save(argnum, ans, *args, **kwargs):
        return (vjpmaker(argnum, ans, args, kwargs),)
    defvjp_any_arg(declared, ArgVJP(save, _call))


def defvjp_argnums(fun, vjpmaker):
    """One VJP maker for a set of arguments: ``(argnums, ans, args, kwargs) -> (g ->``
    one cotangent per argnum``)``."""
    def save(argnum, ans, *args, **kwargs):
        joint = vjpmaker((argnum,), ans, args, kwargs)
        return (lambda g: next(iter(joint(g))),)

    declared = _declared(fun, "defvjp_argnums")
    defvjp_any_arg(declared, ArgVJP(save, _call))


def _zero_vjp(argnum):
    def zero(ans, *args, **kwargs):
        x = unbox_all(args[argnum])
        shape, dtype = np.shape(x), np.result_type(x)
        return lambda g: np.zeros(shape, dtype)
    return zero


# ---- forward mode ---------------------------------------------------------------------
# An argument with no JVP rule still has forward mode: funcgrad transposes its VJP rule.


def defjvp(fun, *jvpfuns, argnums=None):
    """One JVP ``(g, ans, *args, **kwargs) -> tangent`` per argument, in order (or for the
    arguments in ``argnums``); None: zero; "same": ``fun`` is linear in that argument, so
    its JVP is ``fun`` with g in that argument's place."""
    declared = _declared(fun, "defjvp")
    rules = _rules_by_argnum(jvpfuns, argnums, "defjvp", declared.name)
    for argnum, jvp in rules.items():
        if jvp is None:
            rules[argnum] = _zero_jvp
        elif isinstance(jvp, str) and jvp == "same":
            rules[argnum] = _linear_jvp(fun, argnum)
        elif not callable(jvp):
            raise TypeError(f"funcgrad.autograd.defjvp: a JVP of {declared.name} must be a "
                            f"function, None or 'same', got {jvp!r}.")
    _defjvp(declared, *_by_position(rules))
    defjvp_any_arg(declared, None)


def defjvp_argnum(fun, jvpmaker):
    """One JVP for every argument: ``(argnum, g, ans, args, kwargs) -> tangent``."""
    declared = _declared(fun, "defjvp_argnum")
    _defjvp(declared)
    defjvp_any_arg(declared, lambda argnum, g, ans, *args, **kwargs:
                   jvpmaker(argnum, g, ans, args, kwargs))


def defjvp_argnums(fun, jvpmaker):
    """One JVP for a set of arguments: ``(argnums, gs, ans, args, kwargs) -> tangent``."""
    declared = _declared(fun, "defjvp_argnums")
    _defjvp(declared)
    defjvp_any_arg(declared, lambda argnum, g, ans, *args, **kwargs:
                   jvpmaker((argnum,), (g,), ans, args, kwargs))


def def_linear(fun):
    """Declare ``fun`` linear in each argument: each JVP is ``fun`` of that tangent."""
    declared = _declared(fun, "def_linear")
    _defjvp(declared)
    defjvp_any_arg(declared, lambda argnum, g, ans, *args, **kwargs:
                   _linear_jvp(fun, argnum)(g, ans, *args, **kwargs))


def _zero_jvp(g, ans, *args, **kwargs):
    return tree_map(lambda x: np.zeros(np.shape(x), np.result_type(x)), unbox_all(ans))


def _linear_jvp(fun, argnum):
    def same(g, ans, *args, **kwargs):
        args = list(args)
        args[argnum] = g
        return fun(*args, **kwargs)
    return same


__all__ = ["Box", "VSpace", "def_linear", "defjvp", "defjvp_argnum", "defjvp_argnums",
           "defvjp", "defvjp_argnum", "defvjp_argnums", "notrace_primitive", "primitive",
           "vspace"]
