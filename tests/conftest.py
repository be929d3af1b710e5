"""Test configuration: JAX in float64 on the CPU, and Hypothesis profiles."""
import importlib
import os
import pkgutil
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("JAX_ENABLE_X64", "1")
# The oracle compiles each case once per shape, and XLA's optimization passes were ~60% of
# its time: unoptimized code gives the same derivatives and the suite runs ~25% faster.
os.environ.setdefault("JAX_DISABLE_MOST_OPTIMIZATIONS", "1")

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402
from hypothesis.database import DirectoryBasedExampleDatabase  # noqa: E402

# The default run is the same on every machine and every run: derandomized, with no example
# database, so `python -m pytest` passes or fails for the code alone. Exploration is a separate,
# deliberate run before changes land (HYPOTHESIS_PROFILE=explore, with `-m "slow or not slow"`
# for everything): random seeds, more examples, finds saved in .hypothesis/; each find becomes
# a named example in tests/test_oracle_regressions.py.
_quiet_health = [HealthCheck.too_slow, HealthCheck.data_too_large]
settings.register_profile(
    "default", max_examples=12, deadline=None, derandomize=True, database=None,
    suppress_health_check=_quiet_health)
# A profile starts from the settings loaded when it is registered ("default" above), so
# exploration turns derandomizing off and names its database: without both, it replayed
# the default run's examples and kept no finds.
settings.register_profile(
    "explore", max_examples=200, deadline=None, derandomize=False,
    database=DirectoryBasedExampleDatabase(
        os.path.join(os.path.dirname(os.path.dirname(__file__)), ".hypothesis", "examples")),
    suppress_health_check=_quiet_health)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

import funcgrad  # noqa: E402
import compat  # noqa: E402


def _import_every_library_module():
    """Hypothesis draws some values from the literals of the project's non-test modules
    imported so far (its "local constants"), so a derandomized example would depend on which
    tests ran first (a file run alone drew other examples than in the full suite). With every
    module of funcgrad and compat imported before any test, the draws are the same however
    the suite is cut."""
    for package in (funcgrad, compat):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(module.name)


_import_every_library_module()

# Anomaly-mode-style provenance in tests: a failing backward rule names the user's line.
funcgrad.config.provenance = True


@pytest.fixture(autouse=True, scope="module")
def _release_compiled_oracles():
    """After each test module, free the JAX programs its oracle cases compiled
    (`oracle.release_compiled_oracles` says why)."""
    yield
    oracle = sys.modules.get("oracle")
    if oracle is not None:
        oracle.release_compiled_oracles()
