"""The kit's own tests run with the kit's hypothesis profile (`ci`: derandomized, no database),
as its suites do; the plugin itself loads it only for conformance runs."""

import pytest

from agentconf.harness.plugin import load_hypothesis_profile


def pytest_configure(config: pytest.Config) -> None:
    load_hypothesis_profile(config)
