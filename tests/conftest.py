"""The kit's own tests run with the kit's hypothesis profile (`ci`: derandomized, no database),
as its suites do; the plugin itself loads it only for conformance runs."""

import os
import shutil
import sys
import tempfile

import pytest

from agentconf.harness.plugin import load_hypothesis_profile

_made: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    load_hypothesis_profile(config)
    # As in an activated virtual environment: a profile's `python3` (examples/plain-python,
    # its peer, the quickstarts) is the interpreter running the tests, not whatever a version
    # manager's shim picks (pyenv's costs 0.07 s of CPU per start; a run starts hundreds).
    # xdist's workers and every process a test starts inherit it.
    here = os.path.dirname(sys.executable)
    if os.environ.get("PATH", "").split(os.pathsep)[0] != here:
        os.environ["PATH"] = os.pathsep.join([here, os.environ.get("PATH", "")])
    # The runs these tests start keep their bytecode in the kit's cache: one in the temp folder
    # for the whole session (shared by its runs, so each compiles nothing twice), never ~/.cache.
    # xdist's workers inherit it from the controller, which made it and removes it.
    if "AGENTCONF_CACHE" not in os.environ:
        _made.append(tempfile.mkdtemp(prefix="agentconf-test-cache-"))
        os.environ["AGENTCONF_CACHE"] = _made[0]


def pytest_unconfigure(config: pytest.Config) -> None:
    for folder in _made:
        shutil.rmtree(folder, ignore_errors=True)


# The longest tests, each a whole run of the suites in a subprocess: started first, so under
# `-n 2` they overlap the many short tests instead of ending the session on one busy worker
# (longest first is the classic answer to scheduling jobs of uneven length). Single tests only:
# xdist hands out its first batch round-robin, so the tests of one module-scoped run placed
# here would be split between workers and the run made twice.
LONGEST_FIRST = (
    "tests/runner/test_stdio_parity.py",
    "tests/independent/test_node_conformance.py",
    "tests/mutants/test_gallery.py::test_the_reference_passes_every_clause_the_gallery_names",
    # The whole gallery in one session: the longest of all.
    "tests/mutants/test_gallery.py::test_the_suites_catch_every_mutant_at_its_named_clauses",
    "tests/runner/test_init_from.py::test_a_draft_of_the_filesystem_server_judges_it_as_its_hand_written_profile_does",
    "tests/runner/test_ci_jobs.py::test_the_reference_and_the_contract_are_covered_by_their_own_tests",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: not item.nodeid.startswith(LONGEST_FIRST))
