"""Run HIPS autograd's own test suite on funcgrad.autograd. A check run by hand, not a
timing:

    python -m benchmarks.autograd_suite PATH/TO/autograd [pytest arguments ...]

PATH is a git checkout of github.com/HIPS/autograd (nothing is downloaded). Its tests/
folder is copied into a scratch folder with a conftest that makes ``import autograd...``
load ``funcgrad.autograd...``, and pytest runs there (one process), so every test the
suite has runs unchanged against funcgrad. Expect failures where docs/coming-from.md says
funcgrad differs on purpose (JAX's derivatives at kinks: ``abs`` and ``x ** 0`` at 0;
integer types that are not NumPy's; autograd's failure messages and docstrings) and
modules that import autograd's internals (``autograd.core``, ``misc.const_graph``, the
deprecated wrappers), which funcgrad does not offer.
"""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

ALIAS_CONFTEST = '''import importlib
import importlib.abc
import importlib.util
import sys


class _FuncgradAutograd(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """``autograd`` and ``autograd.X`` as ``funcgrad.autograd`` and its ``X``."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname == "autograd" or fullname.startswith("autograd."):
            return importlib.util.spec_from_loader(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        sys.modules[module.__name__] = importlib.import_module("funcgrad." + module.__name__)


sys.meta_path.insert(0, _FuncgradAutograd())

'''


def main(argv):
    if not argv or not os.path.isdir(os.path.join(argv[0], "tests")):
        sys.exit(__doc__)
    scratch = tempfile.mkdtemp(prefix="autograd_suite_")
    tests = os.path.join(scratch, "tests")
    shutil.copytree(os.path.join(argv[0], "tests"), tests)
    conftest = os.path.join(tests, "conftest.py")
    with open(conftest) as original:
        suite_conftest = original.read()
    with open(conftest, "w") as aliased:
        aliased.write(ALIAS_CONFTEST + suite_conftest)
    # The scratch folder's own pytest.ini keeps the project's pyproject options out.
    with open(os.path.join(scratch, "pytest.ini"), "w") as ini:
        ini.write("[pytest]\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [ROOT] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    command = [sys.executable, "-m", "pytest", "tests", "-p", "no:cacheprovider",
               "-p", "no:xdist", "-p", "no:benchmark", "-q", "--continue-on-collection-errors",
               "-rfE", *argv[1:]]
    print(f"running {' '.join(command[2:])} in {scratch}", flush=True)
    return subprocess.call(command, cwd=scratch, env=env)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
