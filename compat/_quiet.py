"""compat's computations without NumPy's floating-point warnings.

PyTorch returns inf and NaN from overflow, division by zero and invalid operations without
a word; NumPy warns ("overflow encountered in exp"). compat runs its NumPy work in a
context (`contextvars`) where NumPy's error state ignores them, and the user's code,
outside compat's calls, keeps its own state: ``np.exp(1000.)`` in a script that imports
compat still warns. funcgrad.numpy, a NumPy library, keeps NumPy's warnings.

A context is entered with ``quiet().run(fn, *args)``: a fresh copy of one context made at
import, so that calls nest and threads run side by side (a context can be entered once at
a time). Measured with callgrind around ``np.sin`` of 3 elements: +750 instructions a call
(setting and resetting the error state's context variable: +2,200; ``np.errstate``, ~1 us,
more); a compat primitive with its backward (benchmarks.instructions compat_sin,
compat_mul) costs 6-11% more instructions than without. Inside it, other context variables have
their defaults: compat's computations do not depend on them, and user code (hooks, custom
Functions' backward) runs outside it, in the user's own context.
"""
import contextvars
import functools
import threading

import numpy as np

try:  # NumPy 2: the error state is a context variable
    from numpy._core._ufunc_config import _extobj_contextvar, _make_extobj
except ImportError:  # NumPy 1.26: a thread's state, set by np.errstate (~1 us)
    _extobj_contextvar = None


def _make_quiet_context():
    context = contextvars.Context()
    context.run(_extobj_contextvar.set, _make_extobj(all="ignore"))
    return context


class _ErrstateContext:
    """What `quiet()` gives on NumPy 1.26: a `run` under ``np.errstate(all="ignore")``."""

    __slots__ = ()

    @staticmethod
    def run(fn, *args, **kwargs):
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)


if _extobj_contextvar is not None:
    quiet = _make_quiet_context().copy
else:
    _ERRSTATE_CONTEXT = _ErrstateContext()

    def quiet():
        return _ERRSTATE_CONTEXT


class _Caller(threading.local):
    """The context of the user code that started a quiet backward pass, in which the
    pass runs the user's hooks and custom Functions' backward."""

    context = None


_CALLER = _Caller()


def quietly_calling_back(fn, *args):
    """``fn(*args)`` (a backward pass) with NumPy's floating-point warnings off, except in
    the user code it calls through `as_user`."""
    outer = _CALLER.context
    _CALLER.context = contextvars.copy_context()
    try:
        return quiet().run(fn, *args)
    finally:
        _CALLER.context = outer


def as_user(fn, *args):
    """``fn(*args)``, user code that compat calls back, in the user's own context (a copy:
    a context is entered once at a time, and the user code may start another pass)."""
    context = _CALLER.context
    return fn(*args) if context is None else context.copy().run(fn, *args)


def quieted(fn):
    """`fn`, a compat function that calls no user code and warns nothing itself (a frame
    more would shift its warnings' stacklevel), run with NumPy's floating-point warnings
    off."""
    @functools.wraps(fn)
    def quiet_fn(*args, **kwargs):
        return quiet().run(fn, *args, **kwargs)
    return quiet_fn
