"""Every oracle case on Dask arrays: classified lazy / computes / refuses, and its value and
VJP equal to the NumPy run's. The classification is docs/dask.md's table, which this test
keeps true: regenerate it with

    FUNCGRAD_WRITE_DOCS=1 python -m pytest tests/test_arrays_dask_oracle.py

- lazy:     the value and the VJP are Dask arrays and no Dask computation started while
            tracing the function and pulling the cotangent back;
- computes: the results are right, but the function or a rule converted a Dask array to
            NumPy (np.asarray: a compute) or returned NumPy;
- refuses:  Dask (or funcgrad on a Dask array) raised an error, while tracing or when the
            result is computed.
"""
import contextlib
import os
import re
import sys
import warnings

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
import dask  # noqa: E402

from dask_helpers import counting_computes  # noqa: E402
from funcgrad.tree_util import tree_flatten  # noqa: E402
from library_oracle import (assert_equal, assert_page_current, counts, first_line,  # noqa: E402
                            table_rows, value_and_vjp, worst_of_first_examples)
from oracle import EXPECTED_WARNINGS  # noqa: E402
from test_oracle import CASES  # noqa: E402

pytestmark = EXPECTED_WARNINGS + [
    # Dask's fftshift of a complex array casts a complex value to real inside (the result,
    # checked here, is right).
    pytest.mark.filterwarnings("ignore:Casting complex values to real discards the "
                               "imaginary part:numpy.exceptions.ComplexWarning"),
]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = os.path.join(ROOT, "docs", "dask.md")


def _to_dask(value):
    """An ndarray as a Dask array of about two chunks per axis; other values unchanged."""
    if type(value) is not np.ndarray:
        return value
    return da.from_array(value, chunks=tuple(max(1, (side + 1) // 2) for side in value.shape))


def _is_lazy(tree):
    leaves, _ = tree_flatten(tree)
    return all(isinstance(leaf, da.Array) for leaf in leaves if np.ndim(leaf))


def classify(case, args, static):
    """'lazy', 'computes' or 'refuses: <error>' for one drawn example."""
    expected = value_and_vjp(case, args, static)
    dask_args = tuple(_to_dask(a) for a in args)
    try:
        with counting_computes() as computes, _conversions() as causes:
            result = value_and_vjp(case, dask_args, static)
    except Exception as error:  # noqa: BLE001 -- the class is what is recorded
        return f"refuses: {first_line(error)}"
    try:
        computed = dask.compute(result)[0]
    except Exception as error:  # noqa: BLE001 -- built lazily, but Dask's tasks fail
        return f"refuses (when computed): {first_line(error)}"
    assert_equal(case, computed[0], expected[0], "value", "Dask", args)
    if expected[1] is not None:
        assert_equal(case, computed[1], expected[1], "VJP", "Dask", args)
    any_dask = any(isinstance(a, da.Array) for a in dask_args)
    if computes or (any_dask and not _is_lazy(result)):
        return "computes" + (f" ({', '.join(sorted(causes))})" if causes else "")
    return "lazy"


_NOT_IN_DASK = re.compile(r"The `numpy\.([\w.]+)` function is not implemented by Dask")
_LIBRARY = os.path.join(ROOT, "funcgrad", "")


@contextlib.contextmanager
def _conversions():
    """A set that receives why a Dask array was converted to NumPy: a NumPy function Dask
    lacks (Dask computes its arguments, warning), or the funcgrad line that called
    np.asarray (Dask's __array__) on one."""
    causes = set()
    convert = da.Array.__array__

    def recorded(array, *args, **kwargs):
        frame = sys._getframe(1)
        while frame is not None and not frame.f_code.co_filename.startswith(_LIBRARY):
            frame = frame.f_back
        if frame is not None:
            where = os.path.relpath(frame.f_code.co_filename, ROOT)
            causes.add(f"np.asarray in {where}:{frame.f_code.co_name}")
        return convert(array, *args, **kwargs)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        da.Array.__array__ = recorded
        try:
            yield causes
        finally:
            da.Array.__array__ = convert
    for warning in caught:
        lacking = _NOT_IN_DASK.search(str(warning.message))
        if lacking:
            causes.add(f"Dask lacks np.{lacking.group(1)}")
        else:  # anything else goes on to the test's filters
            warnings.warn_explicit(warning.message, warning.category, warning.filename,
                                   warning.lineno)


_ORDER = {"lazy": 0, "computes": 1, "refuses": 2}


def _classify_case(case):
    """The worst class over the case's first two derandomized examples."""
    with dask.config.set(scheduler="threads"), np.errstate(all="ignore"):
        return worst_of_first_examples(case, classify, _ORDER)


def render(classes):
    count = counts(classes, ("lazy", "computes", "refuses"))
    lines = [
        "# funcgrad on Dask arrays: which functions stay lazy",
        "",
        "Generated by `FUNCGRAD_WRITE_DOCS=1 python -m pytest tests/test_arrays_dask_oracle.py`,",
        "which runs every oracle case (tests/oracle_cases/) on Dask arrays of two chunks per",
        "axis, `vjp` of its function and the pullback of a ones cotangent, and checks that the",
        "value and the VJP equal the NumPy run's. See docs/arrays.md for how arrays other than",
        "NumPy's flow through funcgrad.",
        "",
        "- **lazy**: the value and the VJP are Dask arrays and no Dask computation started;",
        "- **computes**: the results are right, but the function or one of its rules",
        "  converted a Dask array to NumPy (a compute of that array) or returned NumPy;",
        "- **refuses**: an error while tracing, or (marked) when the result is computed.",
        "",
        f"{count['lazy']} lazy, {count['computes']} computes, {count['refuses']} refuses "
        f"(of {len(classes)} cases).",
        "",
        "| case | on Dask |",
        "|---|---|",
        *table_rows(classes),
    ]
    return "\n".join(lines) + "\n"


def test_every_case_on_dask_matches_numpy_and_the_table_is_current():
    classes = {case.name: _classify_case(case) for case in CASES}
    assert_page_current(PAGE, render(classes),
                        "python -m pytest tests/test_arrays_dask_oracle.py")
