"""The kit's own tests run with the kit's hypothesis profile (`ci`: derandomized, no database),
as its suites do; the plugin itself loads it only for conformance runs."""

import pytest

from agentconf.harness.plugin import load_hypothesis_profile


def pytest_configure(config: pytest.Config) -> None:
    load_hypothesis_profile(config)


# The longest tests, each a whole run of the suites in a subprocess: started first, so under
# `-n 2` they overlap the many short tests instead of ending the session on one busy worker
# (longest first is the classic answer to scheduling jobs of uneven length). Single tests only:
# xdist hands out its first batch round-robin, so the tests of one module-scoped run placed
# here would be split between workers and the run made twice.
LONGEST_FIRST = (
    "tests/runner/test_stdio_parity.py",
    "tests/independent/test_node_conformance.py",
    "tests/mutants/test_gallery.py::test_the_reference_passes_every_clause_the_gallery_names",
    "tests/mutants/test_gallery.py::test_the_suites_catch_the_mutant_at_its_named_clauses[LinkLoopSpins]",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: not item.nodeid.startswith(LONGEST_FIRST))
