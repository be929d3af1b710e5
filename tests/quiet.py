"""Library lines stay quiet: checks that running user code made no warning on a line of
funcgrad or compat (NumPy's RuntimeWarnings from a rule's masked branch, say).

Warnings from other lines (the user's, NumPy's own, a deliberate DeprecationWarning that
points at the caller) pass through unchanged.
"""
import contextlib
import os
import re
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIBRARY = tuple(os.path.join(ROOT, package, "") for package in ("funcgrad", "compat"))
# A warning as Python prints it on stderr: "path:line: SomeWarning: message".
_PRINTED_WARNING = re.compile(r"^(.+?):(\d+): (\w*Warning): (.*)$", re.MULTILINE)


def is_library_line(filename):
    return os.path.abspath(filename).startswith(LIBRARY)


@contextlib.contextmanager
def library_stays_quiet(what):
    """Fails if the block warns from a library line; other warnings are re-issued."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    loud = [w for w in caught if is_library_line(w.filename)]
    for w in caught:
        if w not in loud:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    assert not loud, f"{what} warned from library lines:\n" + "".join(
        warnings.formatwarning(w.message, w.category, w.filename, w.lineno) for w in loud)


def library_warnings_printed(stderr):
    """The warnings in a subprocess's stderr that a library line made."""
    return [match.group(0) for match in _PRINTED_WARNING.finditer(stderr)
            if is_library_line(match.group(1))]
