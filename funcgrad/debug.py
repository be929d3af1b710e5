"""Debugging switches: provenance (which line made a node) and NaN/Inf checks.

    import funcgrad as fg
    fg.config.provenance = True        # nodes remember the user's line that created them
    with fg.debug_nans():              # raise at the first NaN or Inf, forward or backward
        fg.grad(loss)(w)

Both switches cost nothing while off. The trick: nothing on the hot path tests a flag.
Turning a switch on *swaps* each trace class's `process_primitive` for an instrumented
version that calls the original and then looks at what it returned (records the user's
line on the new node, checks the value, wraps the node's VJPs so that each checks the
cotangent it produces); turning every switch off puts the originals back. Finding the
user's line walks the Python stack, which costs about a quarter of a small primitive's
forward and backward pass (grad of a chain of sin on a (3,) array: +23-31% with
provenance, +105-157% with debug_nans), which is why provenance is a switch, not always on.
"""
import contextlib
import linecache
import os
import sys

import numpy as np

from .core import Box, Trace, unbox_all
from .core import eager  # noqa: F401 -- defines EagerTrace, which is instrumented too
from .core.reverse import Node, ReverseTrace

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
    value = unbox_all(value)
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


def _checked(vjp, node, argnum):
    def checked_vjp(g):
        _pulling_back.append(node)
        try:
            ct = vjp(g)
        finally:
            _pulling_back.pop()
        _check_cotangent(ct, node, argnum)
        return ct
    return checked_vjp


# ---- swapping instrumented methods in and out -----------------------------------------

_originals = {}  # trace class -> its own process_primitive, while instrumented


def _instrumented(process):
    def process_primitive(self, primitive, args, params):
        out = process(self, primitive, args, params)
        if isinstance(out, Box) and out._trace is self:
            node = out.node
            if (isinstance(node, Node) and node.primitive is primitive
                    and getattr(node, "origin", None) is None):
                node.origin = user_origin()
                if (_switches["debug_nans"] or _anomaly["check_nan"]) and node.vjps:
                    node.vjps = tuple(_checked(vjp, node, argnum)
                                      for vjp, argnum in zip(node.vjps, node.argnums))
        if _switches["debug_nans"]:
            _check_forward(primitive, out)
        return out
    process_primitive.__wrapped__ = process
    return process_primitive


def _trace_classes(base):
    found, stack = [], [base]
    while stack:
        cls = stack.pop()
        found.append(cls)
        stack.extend(cls.__subclasses__())
    return found


def _apply_switches():
    """Instrument the trace classes the switches need, and only those; put back the
    original methods of the others."""
    if _switches["debug_nans"]:
        wanted = _trace_classes(Trace)  # forward values are checked under every transform
    elif _switches["provenance"] or _anomaly["on"]:
        wanted = _trace_classes(ReverseTrace)  # only reverse-mode traces make Nodes
    else:
        wanted = []
    wanted = [cls for cls in wanted if cls is not Trace and "process_primitive" in vars(cls)]
    for cls in list(_originals):
        if cls not in wanted:
            original = _originals.pop(cls)
            if getattr(vars(cls)["process_primitive"], "__wrapped__", None) is original:
                cls.process_primitive = original  # (unless someone patched it since)
    for cls in wanted:
        if cls not in _originals:
            _originals[cls] = vars(cls)["process_primitive"]
            cls.process_primitive = _instrumented(_originals[cls])


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
