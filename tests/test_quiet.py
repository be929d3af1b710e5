"""Quiet output: under a transform, values and derivatives at poles and through masked
branches are inf and nan as in JAX, with no RuntimeWarning from a library line, and
debug_nans still finds them. Outside transforms funcgrad.numpy warns as NumPy does.

The documented examples are checked where they run (tests/test_docs.py, the
tests/test_examples*.py files) with the same helper, tests/quiet.py.
"""
import subprocess
import sys

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.special as special
from quiet import ROOT, library_stays_quiet, library_warnings_printed


def _where_sqrt(x):
    return fnp.sum(fnp.where(x > 0, fnp.sqrt(x), 0.0))


# (what, computation, the derivative JAX gives)
CASES = [
    ("grad of norm at 0", lambda: fg.grad(fnp.linalg.norm)(np.zeros(3)), np.full(3, np.nan)),
    ("grad of sqrt at 0", lambda: fg.grad(fnp.sqrt)(0.0), np.inf),
    ("jvp of sqrt at 0", lambda: fg.jvp(fnp.sqrt, (0.0,), (1.0,))[1], np.inf),
    ("grad through an unselected sqrt", lambda: fg.grad(_where_sqrt)(np.array([0.0, 4.0])),
     np.array([np.nan, 0.25])),
    ("grad of x ** 0.5 at 0", lambda: fg.grad(lambda x: x ** 0.5)(0.0), np.inf),
    ("grad of arcsin at 1", lambda: fg.grad(fnp.arcsin)(1.0), np.inf),
    ("hessian of sqrt at 0", lambda: fg.hessian(fnp.sqrt)(0.0), -np.inf),
    ("jacfwd of arcsin at 1", lambda: fg.jacfwd(fnp.arcsin)(1.0), np.inf),
    ("grad of xlogy where x is 0", lambda: fg.grad(special.xlogy, 1)(0.0, 0.0), np.nan),
]


@pytest.mark.parametrize("what, compute, expected", CASES, ids=[case[0] for case in CASES])
def test_derivatives_at_poles_are_quiet(what, compute, expected):
    with library_stays_quiet(what):
        result = compute()
    np.testing.assert_array_equal(result, expected)


def test_debug_nans_still_finds_what_is_not_warned():
    with fg.debug_nans(), pytest.raises(FloatingPointError, match="VJP of 'sqrt'"):
        fg.grad(_where_sqrt)(np.array([0.0, 4.0]))
    with fg.debug_nans(), pytest.raises(FloatingPointError, match="'divide'"):
        fg.jvp(lambda x: 1.0 / x, (0.0,), (1.0,))  # quiet, as the whole of jvp is


def test_values_warn_as_numpy_does_outside_transforms():
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        fnp.log(0.0)
    with library_stays_quiet("grad of log at 0"):
        assert fg.grad(fnp.log)(0.0) == np.inf


def test_the_check_fails_on_a_library_warning():
    with pytest.raises(AssertionError, match="warned from library lines"):
        with library_stays_quiet("log of 0 outside a transform"):
            fnp.log(np.zeros(2))  # NumPy's warning, raised on funcgrad's line


def test_the_check_reads_library_warnings_from_stderr():
    code = "import funcgrad.numpy as fnp, numpy as np; fnp.log(np.zeros(2))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env={"PYTHONPATH": ROOT, "PATH": ""})
    assert library_warnings_printed(done.stderr), done.stderr
    assert not library_warnings_printed("x.py:3: RuntimeWarning: divide by zero\n")
