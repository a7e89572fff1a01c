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

from agentconf.harness.disk.sandbox_workspace import remove_tree
from agentconf.harness.disk.temproot import TEMPROOT_VARIABLE, memory_temproot
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
    # Under -n, whole files go to the workers in LONGEST_FIRST's order (below: why), unless the
    # command line asks for a --dist of its own. xdist reads both when its session starts.
    asked = any(arg.startswith(("--dist", "-d")) for arg in config.invocation_params.args)
    if getattr(config.option, "dist", "no") == "load" and not asked:
        config.option.dist = "loadfile"
        config.option.loadscopereorder = False


def pytest_unconfigure(config: pytest.Config) -> None:
    for folder in _made:
        shutil.rmtree(folder, ignore_errors=True)


# The test files that take longest, longest first (the sum of their tests' wall in a `-n 3`
# session on 2 cores, 2026-11-26: 208, 167, 105, 83, 75, 66, 54, 47, 46, 46, 41, 34, 33, 32 s),
# each a whole run of the suites in a subprocess or waiting on one. pytest_configure above hands
# whole files to xdist's workers (`--dist loadfile`), in this order (`--no-loadscope-reorder`),
# one more as a worker runs low: longest first is the classic answer to jobs of uneven length,
# and a file's module fixtures are made once. xdist's default (`load`) deals the first quarter of
# the tests out in consecutive blocks: every file of this list landed in the first worker's block,
# which ran for 536 s while the other two ended at 428 and 419 s (the same 1,383 s of tests).
LONGEST_FIRST = (
    # The learner's walk (24 lesson runs one after another, then the finished project's full
    # run, on the same worker: tests/once.py).
    "tests/learn/test_learner.py",
    "tests/robustness/test_hostile_implementations.py",
    "tests/runner/test_stdio_parity.py",
    "tests/selfcheck/test_gallery.py",
    "tests/drafting/test_draft_sharing.py",
    "tests/independent/test_node_conformance.py",
    "tests/harness/session/test_safe_runs.py",
    "tests/runner/test_ci_jobs.py",
    "tests/harness/plugin/test_plugin.py",
    "tests/selfcheck/test_verdict_precision.py",
    "tests/runner/test_kept_server_departures.py",
    "tests/runner/test_quickstarts.py",
    "tests/runner/test_snapshots_command.py",
    "tests/independent/test_plain_conformance.py",
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
    return next((i for i, name in enumerate(LONGEST_FIRST) if item.nodeid.split("::")[0] == name),
                len(LONGEST_FIRST))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_rank)
