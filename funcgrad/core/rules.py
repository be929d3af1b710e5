"""Declaring a primitive's derivative rules.

Reverse mode needs one rule per primitive, its `vjp`, of this shape (DESIGN.md, decision 3):

    save(ans, args, params, wanted) -> residuals     run in the forward pass
    backward(residuals, params, g) -> cotangents     one per argument; None is a zero

`wanted` has one entry per argument, None where that argument's cotangent is not needed
(it is not traced). `residuals` are plain data: exactly the values the backward rule
needs, declared by the rule. A recorded node holds them (with the primitive, its params
and its parents), compat ties the arrays among them to version counters, and a backward
pass drops them once used.

Rules are easier to write one argument at a time, so `defvjp(primitive, *rules)` takes an
`ArgVJP` per argument and assembles the primitive's rule from them, once:

    ArgVJP(save, pull, saves=None)
        save(ans, *args, **params) -> a tuple: this argument's residuals
        pull(g, *residuals) -> this argument's cotangent
        saves: the positions in (ans, *args) of the arrays among save's values, in
               order, where save picks them (its other values are plain data: shapes,
               dtypes, flags, the primitive's parameters); save then reads no other
               argument's values

Rules are written with funcgrad.numpy, never raw NumPy on cotangents or traced values
(decision 2): run under an outer transform, that is what makes higher derivatives work.

Forward mode takes one rule per argument, ``rule(t, ans, *args, **params)`` giving the
output tangent contributed by that argument's tangent `t` (`defjvp`); an argument without
one is pushed forward by transposing its VJP (decision 5).
"""
from . import errors


class ArgVJP:
    """The VJP of one argument, in two halves: `save` (forward pass) returns the residual
    tuple that `pull` (backward pass) receives after the cotangent. `saves` declares that
    tuple's arrays, where `save` picks them from its arguments rather than computing them:
    their positions in ``(ans, *args)``, in order; its other values are plain data (shapes,
    dtypes, flags, parameters), and it reads no other argument's values (compat's
    create_graph replays the rule without checking them). None: undeclared."""

    __slots__ = ("save", "pull", "saves")

    def __init__(self, save, pull, saves=None):
        self.save = save
        self.pull = pull
        self.saves = saves


def _save_nothing(ans, *args, **params):
    return ()


def _pull_nothing(g):
    return None


# The rule of an argument the output depends on only through a function that is constant
# almost everywhere (rounding, signs, comparisons): it saves nothing and pulls back zero.
ZERO = ArgVJP(_save_nothing, _pull_nothing, saves=())


class PerArgumentVJP:
    """A primitive's VJP assembled from one ArgVJP per argument (`rules`; None for an
    argument that cannot be differentiated), or, for variadic primitives, from `any_arg`,
    an ArgVJP whose `save` takes the argument's position first."""

    __slots__ = ("name", "rules", "any_arg", "only")

    def __init__(self, name, rules=(), any_arg=None):
        self.name = name
        self.rules = rules
        self.any_arg = any_arg
        # A rule for the first argument alone (sin, sum, reshape, ...): the common case,
        # saved and pulled without the loops below.
        self.only = rules[0] if len(rules) == 1 else None

    def save(self, ans, args, params, wanted):
        only = self.only
        # Rules are called without an empty `**params` where there are none: most primitives
        # have none, and unpacking an empty dict costs a call about a third more.
        if only is not None:  # its residuals are the rule's own tuple
            if len(wanted) > 1:  # arguments past the first are constants, or an error
                self._check_only_first(wanted)
            return only.save(ans, *args, **params) if params else only.save(ans, *args)
        rules = self.rules
        if len(wanted) == 2 == len(rules) and not params:
            # Two arguments (matmul's), the next most common case, without the loop below
            # (an argument wanted without a rule is left to the loop's error).
            first, second = rules
            want_first, want_second = wanted
            if (first is not None or want_first is None) and (
                    second is not None or want_second is None):
                return (None if want_first is None else first.save(ans, *args),
                        None if want_second is None else second.save(ans, *args))
        residuals = []
        for argnum, want in enumerate(wanted):
            if want is None:
                residuals.append(None)
            elif argnum < len(rules):
                rule = rules[argnum]
                if rule is None:
                    raise errors.missing_vjp_rule(self.name, argnum)
                residuals.append(rule.save(ans, *args, **params) if params
                                 else rule.save(ans, *args))
            elif self.any_arg is not None:
                residuals.append(self.any_arg.save(argnum, ans, *args, **params))
            else:
                raise errors.missing_vjp_rule(self.name, argnum)
        # A tuple: once its values are found untracked the cyclic collector stops scanning
        # it, where it would scan a list for as long as the node lives (compat's tape).
        return tuple(residuals)

    def saved_positions(self, wanted):
        """The positions in ``(ans, *args)`` of the arrays that the residuals for `wanted`
        hold, as the rules declare them; None if a rule does not declare its residuals."""
        positions = ()
        for argnum, want in enumerate(wanted):
            if want is not None:
                rule = self.rules[argnum] if argnum < len(self.rules) else None
                if rule is None or rule.saves is None:
                    return None
                positions += rule.saves
        return positions

    def _check_only_first(self, wanted):
        for argnum, want in enumerate(wanted):
            if want is not None and argnum:
                raise errors.missing_vjp_rule(self.name, argnum)

    def backward(self, residuals, params, g):
        only = self.only
        if only is not None:
            return (only.pull(g, *residuals),)
        rules = self.rules
        if len(residuals) == 2 == len(rules):  # two arguments (as in `save`)
            first, second = residuals
            return (None if first is None else rules[0].pull(g, *first),
                    None if second is None else rules[1].pull(g, *second))
        cotangents = []
        for argnum, residual in enumerate(residuals):
            if residual is None:
                cotangents.append(None)
            else:
                rule = rules[argnum] if argnum < len(rules) else self.any_arg
                cotangents.append(rule.pull(g, *residual))
        return cotangents


class VJPRule:
    """A primitive's VJP written directly: `save(ans, args, params, wanted)` and
    `backward(residuals, params, g)`, as the module docstring describes."""

    __slots__ = ("save", "backward")

    def __init__(self, save, backward):
        self.save = save
        self.backward = backward

    def saved_positions(self, wanted):
        """None: a rule written whole computes its residuals (see PerArgumentVJP's)."""
        return None


def defvjp(primitive, *rules):
    """Give `primitive` one ArgVJP per positional argument (None: not differentiable)."""
    primitive.vjp = PerArgumentVJP(primitive.name, rules)


def defvjp_any_arg(primitive, rule):
    """Give a variadic primitive one ArgVJP for every argument; its ``save(argnum, ans,
    *args, **params)`` takes the argument's position first."""
    primitive.vjp = PerArgumentVJP(primitive.name, any_arg=rule)


def defvjp_rule(primitive, save, backward):
    """Give `primitive` a VJP written for all its arguments at once."""
    primitive.vjp = VJPRule(save, backward)


def defjvp(primitive, *rules):
    """Give `primitive` one JVP rule per positional argument (None: transpose the VJP)."""
    primitive.jvp_rules = rules


def defjvp_any_arg(primitive, rule):
    """One JVP rule ``rule(argnum, t, ans, *args, **params)`` for every argument."""
    primitive.jvp_rule_any_arg = rule
