"""jit's first tier: run a traced `Graph` equation by equation, without compiling it.

A program jit has just traced is run by an `Interpreter` until the time spent
interpreting it reaches what optimizing and compiling it is estimated to cost (the rule
is in jit); then the compiled tier takes over. The interpreter makes the calls the
generated code makes, on the same values: each primitive's impl on plain arrays (no
Box, no dispatch), each guard checked by the guard primitive's own impl and failing with
`GuardFailed` of the equation's index, equations run under the `np.errstate` they were
traced under, and large intermediates freed after their last use. It runs the graph as
traced: no passes, so no buffer reuse and no donation (those belong to the compiled tier).
"""
import functools
import operator

import numpy as np

from .codegen import RELEASE_SIZE, released_after
from .graph import Var
from .staging import GuardFailed, guard_p

__all__ = ["Interpreter"]


def _nested(env, slot):
    return tuple([_nested(env, part) for part in slot]) if type(slot) is tuple else env[slot]


def _gatherer(reads, nested):
    """A function of a run's values returning an equation's arguments (a sequence), in C
    where it can be: itemgetter of several slots gives a tuple, of a slice a list.
    `nested`: whether a slot is a tuple of slots (an argument that is a tuple)."""
    if nested:
        return functools.partial(_nested, slot=tuple(reads))
    if len(reads) >= 2:
        return operator.itemgetter(*reads)
    return operator.itemgetter(slice(reads[0], reads[0] + 1) if reads else slice(0, 0))


def _run(steps, env):
    for impl, gather, params, writes, guard, release in steps:
        if params is None:
            result = impl(*gather(env))
        else:
            result = impl(*gather(env), **params)
        if guard is not None:
            if not result:
                raise GuardFailed(guard)
        elif type(writes) is int:
            env[writes] = result
        else:  # a primitive of several results
            for slot, value in zip(writes, result):
                env[slot] = value
        if release:
            for slot in release:
                env[slot] = None


class Interpreter:
    """``Interpreter(graph)(*inputs)``: the graph's flat outputs, as a tuple, computed by
    calling each equation's impl in order (see the module docstring)."""

    __slots__ = ("_template", "_segments", "_outputs")

    def __init__(self, graph):
        # A run's values are a list: inputs first, then constants and literals (in the
        # template each run copies), then results; a step names them by position.
        # (Plain loops: this runs once per equation of programs of thousands.)
        self._template = template = [None] * len(graph.inputs)
        slots = {var: index for index, var in enumerate(graph.inputs)}

        def slot_of(atom):
            slot = slots.get(atom)
            if slot is None:
                if type(atom) is tuple:
                    return tuple([slot_of(part) for part in atom])
                if type(atom) is Var:
                    raise ValueError(f"Interpreter: {atom} is used before it is computed")
                slot = slots[atom] = len(template)  # a Constant or a Literal
                template.append(atom.value)
            return slot

        released = released_after(graph, RELEASE_SIZE)
        self._segments = segments = []  # (errstate or None, [step, ...]) per setting
        errstate = steps = None
        for index, eq in enumerate(graph.equations):
            if eq.overwrites is not None:
                raise ValueError(
                    f"Interpreter: equation {index} ({eq}) writes into another value's "
                    f"buffer; buffer reuse belongs to the compiled tier: interpret the "
                    f"graph as traced, before the passes.")
            reads, nested = [], False
            for atom in eq.inputs:
                slot = slots.get(atom)
                if slot is None:
                    slot = slot_of(atom)
                    nested = nested or type(slot) is tuple
                reads.append(slot)
            guard = None
            if eq.primitive is guard_p:
                guard, writes = index, None
            elif eq.primitive.multiple_results:
                writes = []
                for var in eq.outputs:
                    writes.append(len(template))
                    slots[var] = len(template)
                    template.append(None)
                writes = tuple(writes)
            else:
                writes = slots[eq.outputs[0]] = len(template)
                template.append(None)
            release = index in released and tuple([slots[var] for var in released[index]])
            # A guard runs in whatever block it falls in, as in the generated code.
            if steps is None or (guard is None and eq.errstate != errstate):
                errstate = eq.errstate if guard is None else None
                steps = []
                segments.append((errstate, steps))
            steps.append((eq.primitive.impl, _gatherer(reads, nested), eq.params or None, writes,
                          guard, release))
        self._outputs = tuple([slot_of(atom) for atom in graph.outputs])

    def __call__(self, *inputs):
        env = self._template.copy()
        env[:len(inputs)] = inputs
        for errstate, steps in self._segments:
            if errstate is None:
                _run(steps, env)
            else:
                with np.errstate(**errstate):
                    _run(steps, env)
        return tuple([env[slot] for slot in self._outputs])
