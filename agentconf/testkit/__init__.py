"""The suites' building blocks, for a tool author's own tests.

Everything here works alone, with no implementation spec and no ``agentconf run``:

- :func:`sandbox` — a private temporary sandbox: the root, canary files beside it holding a random
  secret, and the disk oracle that judges everything outside the root byte for byte.
- Builders that fill a folder with the traps the contract is about: :func:`link_farm` (links in,
  out, dangling, looping and in the middle of a path), :func:`eol_corpus` (CRLF, LF, CR, mixed,
  BOM, no final newline, each with one edit and the exact bytes it must leave),
  :func:`binary_files`, :func:`large_file` (sparse where the filesystem allows) and
  :func:`fake_home`; :func:`escape_paths` lists path strings that all lead out of a sandbox's root.
- The same as pytest fixtures, enabled with ``pytest_plugins = ["agentconf.testkit"]`` in a
  top-level ``conftest.py``: ``agentconf_sandbox``, ``agentconf_link_farm``,
  ``agentconf_eol_corpus``, ``agentconf_binary_files``, ``agentconf_large_file`` and
  ``agentconf_fake_home``. They carry the ``agentconf_`` prefix so they never shadow an author's
  own ``home`` or ``sandbox`` fixture. (``ws`` and ``client``, which the suites use, come from the
  harness plugin that pytest loads by itself.)

Property tests draw hostile inputs from :mod:`agentconf.strategies`; a fresh :func:`sandbox` per
example keeps the examples apart.

>>> with sandbox() as ws:
...     farm = link_farm(ws.root, ws.outside)
...     sorted(farm.links)[:2]
['dangling_out', 'link_in']
"""

# The public front: the builders live in private modules (_sandbox, _files); the pytest fixtures
# are defined here, in the module `pytest_plugins = ["agentconf.testkit"]` loads.
from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from pathlib import Path

import pytest

from agentconf.harness.disk.oracle import DiskOracle
from agentconf.harness.disk.sandbox_workspace import SandboxWorkspace
from agentconf.harness.verdicts.errors import EscapeDetected
from agentconf.testkit._files import (
    DEFAULT_LARGE_SIZE,
    EolSample,
    FakeHome,
    LargeFile,
    binary_files,
    eol_corpus,
    fake_home,
    large_file,
)
from agentconf.testkit._sandbox import LinkFarm, escape_paths, link_farm, sandbox

__all__ = [
    "DEFAULT_LARGE_SIZE",
    "DiskOracle",
    "EolSample",
    "EscapeDetected",
    "FakeHome",
    "LargeFile",
    "LinkFarm",
    "SandboxWorkspace",
    "agentconf_binary_files",
    "agentconf_eol_corpus",
    "agentconf_fake_home",
    "agentconf_large_file",
    "agentconf_link_farm",
    "agentconf_sandbox",
    "binary_files",
    "eol_corpus",
    "escape_paths",
    "fake_home",
    "large_file",
    "link_farm",
    "sandbox",
]


# ---------------------------------------------------------------- pytest fixtures

_CALL_FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    # Remembered so that the sandbox's teardown does not report an escape a second time.
    report: pytest.TestReport = yield
    if report.when == "call" and report.failed:
        item.stash[_CALL_FAILED] = True
    return report


@pytest.fixture
def agentconf_sandbox(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[SandboxWorkspace]:
    """A :class:`SandboxWorkspace` in the test's ``tmp_path``, judged when the test ends.

    An escape the test did not check for itself still fails the test, at teardown. A test that
    changes something outside the root on purpose calls ``ws.rebaseline()`` afterwards.
    """
    workspace = SandboxWorkspace(base=tmp_path / "agentconf-sandbox")
    yield workspace
    try:
        if not request.node.stash.get(_CALL_FAILED, False):
            workspace.oracle.check(what="the test")
    finally:
        workspace.close_outer()


@pytest.fixture
def agentconf_link_farm(agentconf_sandbox: SandboxWorkspace) -> LinkFarm:
    """:func:`link_farm` in the sandbox's root, its outward links aimed at its canaries."""
    return link_farm(agentconf_sandbox.root, agentconf_sandbox.outside)


@pytest.fixture
def agentconf_eol_corpus(agentconf_sandbox: SandboxWorkspace) -> dict[str, EolSample]:
    """:func:`eol_corpus` in ``<root>/eol``."""
    return eol_corpus(agentconf_sandbox.root / "eol")


@pytest.fixture
def agentconf_binary_files(agentconf_sandbox: SandboxWorkspace) -> dict[str, Path]:
    """:func:`binary_files` in ``<root>/binary``."""
    return binary_files(agentconf_sandbox.root / "binary")


@pytest.fixture
def agentconf_large_file(
    agentconf_sandbox: SandboxWorkspace,
) -> Callable[..., LargeFile]:
    """A factory: ``agentconf_large_file("big.log", size=...)`` makes it in the root on demand."""

    def make(
        rel: str = "large.log", size: int = DEFAULT_LARGE_SIZE, *, head: bytes | None = None,
        tail: bytes = b"the last line of a large file\n",
    ) -> LargeFile:
        return large_file(agentconf_sandbox.root / rel, size, head=head, tail=tail)

    return make


@pytest.fixture
def agentconf_fake_home(
    agentconf_sandbox: SandboxWorkspace, monkeypatch: pytest.MonkeyPatch
) -> FakeHome:
    """:func:`fake_home` in the sandbox's ``home``, with ``HOME`` pointing there for the test.

    The oracle watches it like every other canary, so a ``~`` that escapes is caught.
    """
    home = fake_home(agentconf_sandbox.home, agentconf_sandbox.secret)
    agentconf_sandbox.rebaseline()
    monkeypatch.setenv("HOME", str(home.path))
    return home
