"""What the oracle runs on other array libraries share (test_arrays_dask_oracle.py,
test_arrays_cupy_oracle.py): one case's value and VJP, compared with the NumPy run's, the
first line of an error, and the generated docs page with its class of each case."""
import difflib
import os
import traceback

import numpy as np
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

import funcgrad as fg
from funcgrad.tree_util import tree_flatten, tree_map
from oracle import _least_precise, _tolerance, bind


def differentiated(case, args):
    if case.diff is not None:
        return case.diff
    return tuple(i for i, a in enumerate(args) if np.result_type(a).kind in "fc")


def value_and_vjp(case, args, static):
    """The case's value and (if differentiable) its VJP of a ones cotangent."""
    diff = differentiated(case, args) if case.differentiable else ()
    if not diff:
        return case.funcgrad_fun()(*args, **static), None
    fun = bind(case.funcgrad_fun(), args, static, diff)
    out, pullback = fg.vjp(fun, *(args[i] for i in diff))
    if not any(np.result_type(leaf).kind in "fc" for leaf in tree_flatten(out)[0]):
        return out, None
    return out, pullback(tree_map(_ones_cotangent, out))


def _ones_cotangent(out):
    # An integer output's cotangent is zeros of its dtype, as in the oracle.
    return (np.ones_like if np.result_type(out).kind in "fc" else np.zeros_like)(out)


def assert_equal(case, computed, numpy_result, what, library, args, to_numpy=np.asarray):
    """``computed`` (on ``library``) equals NumPy's result of the case on ``args``, to the
    tolerance of the least precise of each result and the inputs: a float64 result that
    float32 inputs reach (a VJP cast back to a float64 argument's dtype) carries float32's
    rounding, which another library's kernels need not repeat bit for bit (the JAX
    oracle's rule)."""
    ours, _ = tree_flatten(computed)
    expected, _ = tree_flatten(numpy_result)
    assert len(ours) == len(expected), f"{case.name}: {what}: structure differs on {library}"
    single = _least_precise(args) == np.float32
    for a, b in zip(ours, expected):
        b = np.asarray(b)
        rtol, atol = _tolerance(case, np.float32 if single and b.dtype.kind in "fc"
                                else b.dtype)
        np.testing.assert_allclose(to_numpy(a), b, rtol=rtol, atol=atol, equal_nan=True,
                                   err_msg=f"{case.name}: {what} on {library} differs from NumPy")


def first_line(error):
    message = str(error).strip()
    if message:
        return f"{type(error).__name__}: {message.splitlines()[0][:100]}"
    frame = traceback.extract_tb(error.__traceback__)[-1]  # a bare assert, say: where
    where = frame.filename.split("site-packages" + os.sep)[-1]
    return f"{type(error).__name__} (no message) in {where}"


def worst_of_first_examples(case, classify, order):
    """The worst class ``classify(case, args, static)`` gives over the case's first two
    derandomized examples; ``order`` ranks the classes by their first word ("refuses:"
    counts as "refuses"), worst highest."""
    found = []

    @settings(max_examples=2, database=None, derandomize=True, phases=[Phase.generate])
    @given(data=st.data())
    def run(data):
        args, static = data.draw(case.args)
        found.append(classify(case, args, static))

    run()
    return max(found, key=lambda kind: order[kind.split()[0].rstrip(":")])


def counts(classes, kinds):
    """How many cases' classes start with each of ``kinds``."""
    return {kind: sum(1 for c in classes.values() if c.startswith(kind)) for kind in kinds}


def table_rows(classes):
    """The page's table: one row per case, by name."""
    return [f"| `{name}` | {classes[name].replace('|', '/')} |" for name in sorted(classes)]


def assert_page_current(path, page, command):
    """Write ``page`` to ``path`` when FUNCGRAD_WRITE_DOCS is set; otherwise fail with the
    changed lines when the committed page differs, saying to regenerate it with ``command``."""
    if os.environ.get("FUNCGRAD_WRITE_DOCS"):
        with open(path, "w") as file:
            file.write(page)
    with open(path) as file:
        committed = file.read()
    name = os.path.join("docs", os.path.basename(path))
    changed = [line for line in difflib.unified_diff(
        committed.splitlines(), page.splitlines(), name, "this run", lineterm="")
        if line.startswith(("+", "-"))]
    assert not changed, (f"{name} is out of date; regenerate it with\n"
                         f"    FUNCGRAD_WRITE_DOCS=1 {command}\n" + "\n".join(changed))
