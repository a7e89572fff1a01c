"""The kit's own tests run with the kit's hypothesis profile (`ci`: derandomized, no database),
as its suites do; the plugin itself loads it only for conformance runs."""

import contextlib
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from agentconf.harness.disk.temproot import TEMPROOT_VARIABLE, memory_temproot
from agentconf.harness.disk.workspace import remove_tree
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


# The longest tests, each a whole run of the suites in a subprocess or waiting on one, longest
# first (their wall in a `-n 4` session, 2026-11-26; the piped runs and the Node example since
# measured alone, with kept servers): started first, so they overlap the many short tests
# instead of ending the session on one busy worker (longest first is the classic answer to
# scheduling jobs of uneven length). Single tests only, or a module whose tests share
# one run made once (tests/once.py): xdist hands out its first batch round-robin.
LONGEST_FIRST = (
    # The learner's walk (24 lesson runs one after another, three minutes of wall for one of
    # CPU), then the finished project's full run, on the same worker.
    "tests/learn/test_learner.py::test_a_lesson_is_red_before_its_solution_and_does_not_open_the_next[envelope]",
    "tests/mutants/test_gallery.py::test_the_suites_catch_every_mutant_at_its_named_clauses",
    "tests/independent/test_plain_conformance.py::test_the_run_executes_every_planned_check",
    "tests/independent/test_node_conformance.py",
    # The piped runs keep servers now (a third of the starts): a minute each, after the run
    # in process they are compared with.
    "tests/runner/test_stdio_parity.py::test_the_reference_over_mcp_reaches_the_same_verdict_on_every_check",
    "tests/runner/test_stdio_parity.py::test_the_reference_over_stdio_reaches_the_same_verdict_on_every_check",
    "tests/drafting/test_draft_sharing.py::test_a_kept_server_reaches_the_verdict_of_a_fresh_one_on_every_check",
    "tests/runner/test_init_from.py::test_a_draft_of_the_filesystem_server_judges_it_as_its_hand_written_profile_does",
    "tests/mutants/test_gallery.py::test_the_reference_passes_every_clause_the_gallery_names",
    "tests/runner/test_ci_jobs.py::test_the_reference_and_the_contract_are_covered_by_their_own_tests",
)


@pytest.fixture(scope="session", autouse=True)
def _child_runs_tmpdir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The processes these tests start (runs, servers, their pytest folders: sandboxes, and the
    kept ones of a run that is red on purpose) keep their temporary files in one folder of this
    test process, removed at its end. Left to themselves, red and killed runs left numbered
    folders in /dev/shm, and pytest spared a killed one's for three days (its lock stayed).
    TMPDIR, not pytest's own PYTEST_DEBUG_TEMPROOT: a test that gives a run its own TMPDIR (the
    robustness tests judge what lands there) must still win."""
    if os.environ.get("TMPDIR") or os.environ.get(TEMPROOT_VARIABLE):  # the user's choice
        yield
        return
    tmp_path_factory.getbasetemp()  # this session's own folder, chosen before TMPDIR is set
    folder = tempfile.mkdtemp(prefix="agentconf-test-runs-", dir=memory_temproot(os.environ))
    os.environ["TMPDIR"] = folder
    try:
        yield
    finally:
        del os.environ["TMPDIR"]
        with contextlib.suppress(OSError):  # a folder left is no failure of the tests
            remove_tree(Path(folder))


def _rank(item: pytest.Item) -> int:
    return next((i for i, prefix in enumerate(LONGEST_FIRST) if item.nodeid.startswith(prefix)),
                len(LONGEST_FIRST))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_rank)
