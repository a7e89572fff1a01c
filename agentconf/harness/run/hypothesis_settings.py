"""The kit's hypothesis settings profiles, registered whenever the plugin is loaded: `ci` (the
default of conformance runs), `deep` (a person's fuzzing run) and `agentconf` (an author's own
property tests built on the testkit); and when the kit loads one itself.
"""

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.errors import InvalidArgument

_FAST: dict[str, Any] = {"deadline": None, "database": None, "print_blob": True,
         "suppress_health_check": [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]}
# `ci`, the default, reports a failing property with the first input that failed, unshrunk.
# Generation starts from the simplest input (an empty string, no key, zero), so where every input
# fails, as when a tool lacks what a clause asks, the first one is already the smallest; and
# shrinking re-runs the check hundreds of times (29 s for one failing check in process). Where a
# program fails one property in two ways, the first failure found is the one reported, where
# the shrinker could slip to the other (docs/benchmarks.md, fourth round). `deep` (a person's
# fuzzing run) shrinks, to show the smallest input it found.
CI_PHASES = tuple(phase for phase in Phase if phase not in (Phase.shrink, Phase.explain))
settings.register_profile("ci", derandomize=True, max_examples=25, phases=CI_PHASES, **_FAST)
settings.register_profile("deep", max_examples=2000, **_FAST)
# For an author's own property tests built on the testkit (docs/testkit.md): a sandbox per example
# is slow on a busy machine, so no deadline and no too_slow health check; shrinking kept.
settings.register_profile("agentconf", deadline=None, suppress_health_check=[
    HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def load_hypothesis_profile(config: pytest.Config) -> None:
    """The kit's profile (HYPOTHESIS_PROFILE, else `ci`) unless --hypothesis-profile names one;
    for conformance runs and the kit's own conftests only."""
    if config.getoption("hypothesis_profile", None):
        return  # hypothesis's plugin loads the one asked for
    name = os.environ.get("HYPOTHESIS_PROFILE") or "ci"
    try:
        settings.load_profile(name)
    except InvalidArgument:
        raise pytest.UsageError(f"HYPOTHESIS_PROFILE={name!r} is not a registered hypothesis "
                                "profile (agentconf registers ci, deep and agentconf)") from None
