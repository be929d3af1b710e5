"""Debugging switches: provenance (which line made a node) and NaN/Inf checks.

    import funcgrad as fg
    fg.config.provenance = True        # nodes remember the user's line that created them
    with fg.debug_nans():              # raise at the first NaN or Inf, forward or backward
        fg.grad(loss)(w)

The switches instrument the engine through its hooks (`funcgrad.core.instruments`): one
called after every primitive a transform processes (it records the user's line on the new
node and checks the value), one that runs each backward rule (and checks the cotangents it
gives). While every switch is off the hooks are None, which costs one attribute test per
primitive. Finding the user's line walks the Python stack, which costs about a quarter of
a small primitive's forward and backward pass, which is why provenance is a switch, not
always on.
"""
import contextlib
import linecache
import os
import sys

import numpy as np

from .core import ReverseBox, every_value, instruments

__all__ = ["Origin", "anomaly_mode", "config", "debug_nans", "is_anomaly_check_nan_enabled",
           "is_anomaly_enabled", "provenance", "register_internal_path", "user_origin"]


# ---- the user's line ------------------------------------------------------------------


class Origin:
    """A place in the user's code: file, line and function, printed like a traceback line."""

    __slots__ = ("filename", "lineno", "function")

    def __init__(self, filename, lineno, function):
        self.filename = filename
        self.lineno = lineno
        self.function = function

    @property
    def source(self):
        """The text of the line, or '' when the file cannot be read."""
        return linecache.getline(self.filename, self.lineno).strip()

    def __str__(self):
        where = f'  File "{self.filename}", line {self.lineno}, in {self.function}'
        source = self.source
        return f"{where}\n    {source}" if source else where

    def __repr__(self):
        return f"<Origin {os.path.basename(self.filename)}:{self.lineno} in {self.function}>"


# Frames in these directories are the library's, not the user's.
_internal_paths = [os.path.dirname(os.path.abspath(__file__)) + os.sep]
_is_internal_file = {}  # filename -> bool, so each frame costs one dict lookup


def register_internal_path(path):
    """Treat code under `path` (a package directory, e.g. compat's) as library code, so
    that provenance skips it when looking for the user's line."""
    _internal_paths.append(os.path.join(os.path.abspath(path), ""))
    _is_internal_file.clear()


def _classify(filename):
    internal = os.path.abspath(filename).startswith(tuple(_internal_paths))
    _is_internal_file[filename] = internal
    return internal


def user_origin(skip=1):
    """The innermost stack frame outside the library (skipping `skip` frames), as an
    Origin; None if every frame is the library's."""
    frame = sys._getframe(skip)
    while frame is not None:
        filename = frame.f_code.co_filename
        internal = _is_internal_file.get(filename)
        if internal is None:
            internal = _classify(filename)
        if not internal:
            return Origin(filename, frame.f_lineno, frame.f_code.co_name)
        frame = frame.f_back
    return None


# ---- NaN and Inf checks ---------------------------------------------------------------

# The nodes whose checked VJPs are running (innermost last), so that a non-finite value
# computed inside a backward pass is reported as such.
_pulling_back = []


def _nonfinite(value):
    """A description like 'nan (2 of 6 elements)' if `value` holds NaN or Inf, else None."""
    value = every_value(value)  # (all of a vmap batch: NaN in any element is reported)
    if type(value) in (tuple, list):  # the results of a multiple-results primitive
        return next(filter(None, map(_nonfinite, value)), None)
    dtype = getattr(value, "dtype", None)
    if dtype is None:
        if not isinstance(value, (float, complex)):
            return None  # None (a symbolic zero), or an integer
    elif dtype.kind not in "fc":
        return None
    array = np.asarray(value)
    finite = np.isfinite(array)
    if finite.all():
        return None
    bad = int(array.size - finite.sum())
    nans = int(np.isnan(array).sum())
    kinds = " and ".join(kind for kind, count in (("nan", nans), ("inf", bad - nans)) if count)
    return f"{kinds} ({bad} of {array.size} elements)"


def _applied_at(node):
    origin = getattr(node, "origin", None)
    return f"applied at\n{origin}" if origin is not None else "applied at an unknown line"


_WHERE_HINT = ("\n(A NaN gradient through a branch that where() did not select? See the "
               "double-where idiom in docs/debugging.md.)")


def _check_forward(primitive, out):
    found = _nonfinite(out)
    if not found:
        return
    origin = user_origin()
    message = f"funcgrad.debug_nans: the value computed by '{primitive.name}' holds {found}"
    if origin is not None:
        message += f", at\n{origin}"
    if _pulling_back:  # inside a VJP being traced by an outer transform
        node = _pulling_back[-1]
        message += (f"\nIt was computed in a backward pass, by the VJP of "
                    f"'{node.primitive.name}' {_applied_at(node)}{_WHERE_HINT}")
    raise FloatingPointError(message)


def _check_cotangent(ct, node, argnum):
    found = _nonfinite(ct)
    if found:
        raise FloatingPointError(
            f"funcgrad.debug_nans: backward pass: the VJP of '{node.primitive.name}' gave "
            f"argument {argnum} a cotangent holding {found}; that '{node.primitive.name}' was "
            f"{_applied_at(node)}" + _WHERE_HINT)


# ---- the hooks ----------------------------------------------------------------------


def _on_result(trace, primitive, out):
    """After `trace` processed `primitive`: note the user's line on a new node, and check
    the value under debug_nans."""
    if isinstance(out, ReverseBox) and out._trace is trace:
        node = out.node
        if node.primitive is primitive and getattr(node, "origin", None) is None:
            node.origin = user_origin()
    if _switches["debug_nans"]:
        _check_forward(primitive, out)


def _checked_pull(node, residuals, ct):
    """A node's backward rule, run with the node noted as being pulled back (for reports of
    values computed inside it), its cotangents checked."""
    _pulling_back.append(node)
    try:
        cts = node.primitive.vjp.backward(residuals, node.params, ct)
    finally:
        _pulling_back.pop()
    for argnum, parent_ct in enumerate(cts):
        _check_cotangent(parent_ct, node, argnum)
    return cts


def _apply_switches():
    """Set the engine's hooks to what the switches need: None for every hook when all are off."""
    checks_backward = _switches["debug_nans"] or _anomaly["check_nan"]
    watches = checks_backward or _switches["provenance"] or _anomaly["on"]
    instruments.on_result = _on_result if watches else None
    instruments.pull = _checked_pull if checks_backward else None


_switches = {"provenance": False, "debug_nans": False}
# PyTorch's anomaly mode (compat's detect_anomaly): provenance, and NaN checks in the
# backward pass only.
_anomaly = {"on": False, "check_nan": False}


class _Config:
    """funcgrad's global switches: assign to change them (``config.debug_nans = True``).

    provenance: every reverse-mode node records the user's file and line that applied
        its primitive; errors from the backward pass and NaN reports name that line.
    debug_nans: raise FloatingPointError at the first primitive whose value or
        cotangent holds a NaN or Inf (under a transform). Implies provenance.
    """

    __slots__ = ()

    def _set(self, name, value):
        _switches[name] = bool(value)
        _apply_switches()

    provenance = property(lambda self: _switches["provenance"],
                          lambda self, value: self._set("provenance", value))
    debug_nans = property(lambda self: _switches["debug_nans"],
                          lambda self, value: self._set("debug_nans", value))

    def update(self, name, value):
        """JAX's spelling: ``config.update("debug_nans", True)`` (a ``jax_`` prefix is ok)."""
        name = name.removeprefix("jax_")
        if name not in _switches:
            raise AttributeError(f"funcgrad.config has no switch {name!r}; the switches "
                                 f"are {', '.join(sorted(_switches))}.")
        setattr(self, name, value)

    def __repr__(self):
        return "funcgrad.config(" + ", ".join(f"{k}={v}" for k, v in _switches.items()) + ")"


config = _Config()


@contextlib.contextmanager
def _switched(name, enabled):
    previous = _switches[name]
    config._set(name, enabled)
    try:
        yield
    finally:
        config._set(name, previous)


def debug_nans(enabled=True):
    """``with funcgrad.debug_nans():`` turns `config.debug_nans` on for a block (also
    usable as a decorator). It raises FloatingPointError at the first primitive whose
    value, or whose cotangent in a backward pass, holds a NaN or Inf, naming the
    primitive and the line of your code that applied it."""
    return _switched("debug_nans", enabled)


def provenance(enabled=True):
    """``with funcgrad.debug.provenance():`` turns `config.provenance` on for a block."""
    return _switched("provenance", enabled)


@contextlib.contextmanager
def anomaly_mode(check_nan=True):
    """PyTorch's anomaly mode, for compat's ``autograd.detect_anomaly``: within the block,
    nodes record the user's line (as with provenance) and, with `check_nan`, the backward
    pass raises FloatingPointError at the first NaN or Inf cotangent. Unlike `debug_nans`,
    forward values are not checked (PyTorch does not check them either)."""
    previous = dict(_anomaly)
    _anomaly.update(on=True, check_nan=previous["check_nan"] or bool(check_nan))
    _apply_switches()
    try:
        yield
    finally:
        _anomaly.update(previous)
        _apply_switches()


def is_anomaly_enabled():
    """Whether an `anomaly_mode` block is active."""
    return _anomaly["on"]


def is_anomaly_check_nan_enabled():
    """Whether an active `anomaly_mode` block checks the backward pass for NaN and Inf."""
    return _anomaly["check_nan"]
