"""Every oracle case on CuPy arrays (GPU): its value and VJP equal the NumPy run's, and each
case is classified for docs/cupy.md, which this test keeps true. Skipped where CuPy or a
GPU is absent (CI); on a machine with both, regenerate the page with

    FUNCGRAD_WRITE_DOCS=1 python -m pytest -s tests/test_arrays_cupy_oracle.py

(-s prints each case's class as it is found).

- gpu:      every array in the value and the VJP is a CuPy array;
- host:     the results are right but one of them came back as a NumPy value;
- refuses:  CuPy (or funcgrad on a CuPy array) raised an error;
- wrong:    a value differs from NumPy's (the test fails).
"""
import os

import numpy as np
import pytest

cp = pytest.importorskip("cupy", reason="CuPy is not installed (the tests need a GPU)")
try:
    _GPUS = cp.cuda.runtime.getDeviceCount()
except cp.cuda.runtime.CUDARuntimeError:
    _GPUS = 0

from funcgrad.tree_util import tree_flatten  # noqa: E402
from library_oracle import (assert_equal, assert_page_current, counts, first_line,  # noqa: E402
                            table_rows, value_and_vjp, worst_of_first_examples)
from oracle import EXPECTED_WARNINGS  # noqa: E402
from test_oracle import CASES  # noqa: E402

pytestmark = EXPECTED_WARNINGS + [
    pytest.mark.skipif(_GPUS == 0, reason="no CUDA GPU visible to CuPy")]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = os.path.join(ROOT, "docs", "cupy.md")
_ORDER = {"gpu": 0, "no": 0, "host": 1, "refuses": 2, "wrong": 3}


def _to_numpy(value):
    return cp.asnumpy(value) if isinstance(value, cp.ndarray) else np.asarray(value)


def _on_host(tree):
    leaves, _ = tree_flatten(tree)
    return any(isinstance(leaf, (np.ndarray, np.generic)) for leaf in leaves)


def classify(case, args, static):
    expected = value_and_vjp(case, args, static)
    gpu_args = tuple(cp.asarray(a) if type(a) is np.ndarray else a for a in args)
    if not any(isinstance(a, cp.ndarray) for a in gpu_args):
        return "no array argument"
    try:
        result = value_and_vjp(case, gpu_args, static)
    except Exception as error:  # noqa: BLE001 -- the class is what is recorded
        return f"refuses: {first_line(error)}"
    try:
        assert_equal(case, result[0], expected[0], "value", "CuPy", args, _to_numpy)
        if expected[1] is not None:
            assert_equal(case, result[1], expected[1], "VJP", "CuPy", args, _to_numpy)
    except AssertionError as error:
        return f"wrong: {first_line(error)}"
    return "host" if _on_host(result) else "gpu"


def render(classes):
    count = counts(classes, ("gpu", "host", "refuses", "no array argument"))
    lines = [
        "# funcgrad on CuPy arrays: which functions run on the GPU",
        "",
        "Generated on a machine with a CUDA GPU by",
        "`FUNCGRAD_WRITE_DOCS=1 python -m pytest -s tests/test_arrays_cupy_oracle.py`, which runs",
        "every oracle case (tests/oracle_cases/) on CuPy arrays, `vjp` of its function and the",
        "pullback of a ones cotangent, and checks that the value and the VJP equal the NumPy",
        "run's. See docs/arrays.md for how arrays other than NumPy's flow through funcgrad.",
        "",
        "- **gpu**: the value and the VJP are CuPy arrays;",
        "- **host**: the results are right, but one of them is a NumPy value;",
        "- **refuses**: CuPy, or funcgrad on a CuPy array, raised an error (CuPy never",
        "  converts to NumPy implicitly, so a function NumPy-only code would need refuses);",
        "- **no array argument**: the case takes only static arguments.",
        "",
        f"{count['gpu']} gpu, {count['host']} host, {count['refuses']} refuses, "
        f"{count['no array argument']} with no array argument (of {len(classes)} cases).",
        "",
        "| case | on CuPy |",
        "|---|---|",
        *table_rows(classes),
    ]
    return "\n".join(lines) + "\n"


def test_every_case_on_cupy_matches_numpy_and_the_table_is_current():
    classes = {}
    for case in CASES:
        with np.errstate(all="ignore"):
            classes[case.name] = worst_of_first_examples(case, classify, _ORDER)
        print(f"{case.name}: {classes[case.name]}", flush=True)
    # The page lists wrong cases too, so it is written (when asked) before they fail the test.
    assert_page_current(PAGE, render(classes),
                        "python -m pytest tests/test_arrays_cupy_oracle.py  (on a GPU)")
    wrong = {name: c for name, c in classes.items() if c.startswith("wrong")}
    assert not wrong, "results on CuPy differ from NumPy's:\n" + "\n".join(
        f"{name}: {c}" for name, c in wrong.items())
