"""Each examples/compat_*.py runs as a script and prints what the same script prints with
real PyTorch (its two compat imports replaced by torch's): the same text, numbers equal
to float32 rounding. The legacy-API example uses spellings PyTorch 2.13 removed, so its
output is checked against the expected text instead."""
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from quiet import library_warnings_printed

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("compat_*.py"))
NOT_RUNNABLE_WITH_TORCH = {"compat_legacy_api.py"}
# Float32 matrix products summed in another order drift apart over many training steps.
TOLERANCE = {"compat_two_layer_net.py": 5e-3, "compat_nn_digits.py": 1e-3}
# One BLAS thread: the same summation order every run, and no oversubscribed cores. The
# checkout comes first on the path, so the examples run against the code under test.
ENV = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1",
           PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
_MARK = "=====compat-example-boundary====="


def as_torch_script(source):
    return (source.replace("import compat as torch", "import torch")
            .replace("from compat.autograd import", "from torch.autograd import"))


def run_python(arguments, **kwargs):
    return subprocess.run([sys.executable, *arguments], capture_output=True, text=True,
                          env=ENV, cwd=ROOT, timeout=300, **kwargs)


@pytest.fixture(scope="module")
def torch_outputs():
    """What each comparable example prints under torch (one process, torch imported once)."""
    names = [path.name for path in EXAMPLES if path.name not in NOT_RUNNABLE_WITH_TORCH]
    driver = "\n".join([
        "import contextlib, io, sys",
        "for name, source in SCRIPTS:",
        "    out = io.StringIO()",
        "    with contextlib.redirect_stdout(out):",
        "        exec(compile(source, name, 'exec'), {'__name__': '__main__'})",
        f"    print({_MARK!r} + name)",
        "    print(out.getvalue(), end='')",
    ])
    scripts = [(name, as_torch_script((ROOT / "examples" / name).read_text()))
               for name in names]
    result = run_python(["-c", f"SCRIPTS = {scripts!r}\n{driver}"])
    assert result.returncode == 0, result.stderr
    outputs = {}
    for chunk in result.stdout.split(_MARK)[1:]:
        name, _, text = chunk.partition("\n")
        outputs[name] = text
    return outputs


def assert_same_output(ours, theirs, rtol):
    ours, theirs = _ADDRESS.sub("0x?", ours), _ADDRESS.sub("0x?", theirs)
    message = f"\ncompat printed:\n{ours}\ntorch printed:\n{theirs}"
    assert _NUMBER.sub("#", ours) == _NUMBER.sub("#", theirs), message
    for a, b in zip(_NUMBER.findall(ours), _NUMBER.findall(theirs)):
        assert math.isclose(float(a), float(b), rel_tol=rtol, abs_tol=1e-12), \
            f"{a} != {b}{message}"


@pytest.mark.parametrize("path", [p for p in EXAMPLES if p.name not in NOT_RUNNABLE_WITH_TORCH],
                         ids=lambda p: p.name)
def test_example_prints_what_torch_prints(path, torch_outputs):
    result = run_python([str(path)])
    assert result.returncode == 0, result.stderr
    assert not library_warnings_printed(result.stderr), result.stderr
    assert result.stdout.strip(), "the example printed nothing"
    assert_same_output(result.stdout, torch_outputs[path.name], TOLERANCE.get(path.name, 1e-5))


LEGACY_OUTPUT = """\
None
AddBackward0
tensor([[4.5000, 4.5000],
        [4.5000, 4.5000]])
tensor([[9., 9.],
        [9., 9.]])
False False
4.0
tensor([1., 2.]) torch.FloatTensor torch.Size([2, 3]) torch.FloatTensor True
tensor([1., 2.], dtype=torch.float64) tensor([3, 4])
"""


def test_legacy_example_runs_with_deprecation_warnings():
    result = run_python([str(ROOT / "examples" / "compat_legacy_api.py")])
    assert result.returncode == 0, result.stderr
    assert not library_warnings_printed(result.stderr), result.stderr
    assert result.stdout == LEGACY_OUTPUT
    for modern in ("grad_fn", "retain_graph", "no_grad", "item()"):
        assert re.search(f"DeprecationWarning: .*{re.escape(modern)}", result.stderr), modern


def test_digits_example_writes_its_loss_curve(tmp_path):
    png = tmp_path / "loss.png"
    result = run_python([str(ROOT / "examples" / "compat_nn_digits.py"), str(png)])
    assert result.returncode == 0, result.stderr
    assert "wrote loss.png" in result.stdout
    assert png.read_bytes().startswith(b"\x89PNG")


def test_every_example_is_covered():
    assert {p.name for p in EXAMPLES} >= {
        "compat_basics.py", "compat_retain_graph.py", "compat_nonscalar_backward.py",
        "compat_two_layer_net.py", "compat_custom_relu.py", "compat_dynamic_graph.py",
        "compat_legacy_api.py", "compat_nn_digits.py"}
