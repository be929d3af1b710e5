"""Choosing the tier jit replays a program in, for tests.

jit interprets a newly traced program until interpreting it has cost what compiling it
is estimated to (`COMPILE_SECONDS_PER_EQUATION` per equation), then compiles it. Within
``tier("interpreted")`` compiling is never worth it; within ``tier("compiled")`` it costs
nothing, so each program is compiled on its first replay. The setting is read on each
interpreted replay, so a block can move programs traced before it to the compiled tier.
"""
import contextlib
import importlib
import math

# (funcgrad.transforms.jit, the attribute, is the function: the module by its name)
jit_module = importlib.import_module("funcgrad.transforms.jit")

__all__ = ["TIERS", "tier"]

_COST_PER_EQUATION = {"interpreted": math.inf, "compiled": 0.0}
TIERS = tuple(_COST_PER_EQUATION)


@contextlib.contextmanager
def tier(name):
    saved = jit_module.COMPILE_SECONDS_PER_EQUATION
    jit_module.COMPILE_SECONDS_PER_EQUATION = _COST_PER_EQUATION[name]
    try:
        yield
    finally:
        jit_module.COMPILE_SECONDS_PER_EQUATION = saved
