"""``funcgrad.autograd.numpy`` and ``funcgrad.autograd.scipy`` are ``funcgrad.numpy`` and
``funcgrad.scipy`` under autograd's names.

``import funcgrad.autograd.scipy.stats.norm as norm`` gives the module
``funcgrad.scipy.stats.norm`` itself (not a copy), so the two spellings can never drift
apart, and a module added to funcgrad.scipy is at once importable under both.
"""
import importlib
import importlib.abc
import importlib.util
import sys

_PREFIX = "funcgrad.autograd."
_ALIASED_PACKAGES = ("numpy", "scipy")


class _AliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``funcgrad.autograd.numpy...`` and ``funcgrad.autograd.scipy...`` and loads
    each as the funcgrad module of the same name."""

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith(_PREFIX):
            return None
        if fullname[len(_PREFIX):].split(".")[0] not in _ALIASED_PACKAGES:
            return None
        return importlib.util.spec_from_loader(fullname, self, is_package=True)

    def create_module(self, spec):
        return None  # a placeholder module, replaced in exec_module

    def exec_module(self, module):
        # The import system returns whatever sys.modules holds for the name once this
        # returns, so the placeholder gives way to funcgrad's own module.
        sys.modules[module.__name__] = _funcgrad_module(module.__name__)


def _funcgrad_module(alias):
    name = "funcgrad." + alias[len(_PREFIX):]
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
    # Not a module file: an attribute that is a module.
    parent, _, child = name.rpartition(".")
    found = getattr(importlib.import_module(parent), child, None)
    if found is None or not isinstance(found, type(sys)):
        raise ModuleNotFoundError(
            f"No module named {alias!r}: it would be {name}, which funcgrad does not have.",
            name=alias)
    return found


def install():
    """Put the finder first, ahead of the file system finders, which would otherwise load
    a second copy of funcgrad's files under the alias names."""
    if not any(isinstance(finder, _AliasFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _AliasFinder())
