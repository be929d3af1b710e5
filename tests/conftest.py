"""Test configuration: JAX in float64 on the CPU, and Hypothesis profiles."""
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("JAX_ENABLE_X64", "1")
# The oracle compiles each case once per shape, and XLA's optimization passes were ~60% of
# its time: unoptimized code gives the same derivatives and the suite runs ~25% faster.
os.environ.setdefault("JAX_DISABLE_MOST_OPTIMIZATIONS", "1")

from hypothesis import HealthCheck, settings  # noqa: E402

# The default profile keeps the whole suite within minutes on 2 cores; `-m slow` tests
# and HYPOTHESIS_PROFILE=thorough search harder.
# In CI (CI=true) the examples are derandomized: the same examples every run, so a
# failure there reproduces locally with CI=true.
settings.register_profile(
    "default", max_examples=12, deadline=None, derandomize=bool(os.environ.get("CI")),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile(
    "thorough", max_examples=200, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

import funcgrad  # noqa: E402

# Anomaly-mode-style provenance in tests: a failing backward rule names the user's line.
funcgrad.config.provenance = True
