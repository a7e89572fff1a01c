"""`pytest --agentconf-impl SPEC` as a pytest plugin should behave: the packaged suites collected
from a folder with no tests, beside a project's own tests when asked, and a warning when the
option would otherwise check nothing; clause ids usable with `-k`; the kit's own frames left out
of a failure's traceback; a header that says what is checked and how it was chosen.

The plugin (harness/plugin.py) calls these from its hooks.
"""

from __future__ import annotations

import glob
import sys
from pathlib import Path

import pytest

import agentconf.harness
from agentconf.harness.report.events import Outcome
from agentconf.harness.resources import suites_dir
from agentconf.harness.verdicts.errors import EscapeDetected
from agentconf.harness.verdicts.outcomes import classify_exception

_TEST_PATTERNS = ("test_*.py", "*_test.py", "*/test_*.py", "*/*_test.py")


def collection_targets(config: pytest.Config, with_suites: bool) -> list[str]:
    """What pytest collects when the command line names no test paths: the suites, from a
    folder with no tests of its own; beside a project's own tests (its `testpaths`, else the
    folder pytest was started in, as pytest would) only when asked (--agentconf-suites), since
    an author's own tests of the testkit take the option too. Empty: pytest's usual collection."""
    rootdir = config.rootpath
    own: list[str] = []
    for entry in config.getini("testpaths"):
        own += sorted(glob.glob(str(rootdir / entry), recursive=True)) or [str(rootdir / entry)]
    here = config.invocation_params.dir
    if not own and holds_tests(here):
        own = [str(here)]
    if own and not with_suites:
        return []
    return [*own, str(suites_dir())]


def unused_warning(impl: str | None, profile: str | None) -> pytest.PytestWarning:
    """The option named an implementation, and no collected test uses it."""
    given = f"--agentconf-impl {impl}" if impl else f"--agentconf-profile {profile}"
    return pytest.PytestWarning(
        f"{given} checks nothing here: this project has tests of its own, so the conformance "
        "suites were not collected, and none of its tests uses the kit's fixtures. Add "
        "--agentconf-suites to run the suites beside them, or use `agentconf run`.")


def holds_tests(folder: Path) -> bool:
    """Test modules in the folder or one level below, as pytest's default collection finds."""
    return any(next(folder.glob(pattern), None) is not None for pattern in _TEST_PATTERNS)


def add_keywords(item: pytest.Item, clause_ids: list[str]) -> None:
    """`-k EOL-01` (or `-k EOL`) selects the checks of a clause (or a category)."""
    for clause_id in clause_ids:
        item.extra_keyword_matches.update({clause_id, clause_id.split("-")[0]})


def hide_kit_frames() -> None:
    """A check's failure shows the check and the implementation's answer, not the harness's
    frames between them: pytest's `__tracebackhide__`, set on every harness module (a frame's
    globals); `--fulltrace` shows them all, as it does pytest's own. A harness error (a bug of
    the kit) keeps them: they are where the bug is."""
    for name, module in list(sys.modules.items()):
        if name.startswith(f"{agentconf.harness.__name__}.") and module is not None:
            module.__dict__.setdefault("__tracebackhide__", _hidden)


def _hidden(excinfo: pytest.ExceptionInfo[BaseException]) -> bool:
    return classify_exception(excinfo.value) is not Outcome.HARNESS_ERROR


def escaped(error: BaseException) -> bool:
    """Whether the failure is (or holds) an escape the oracle saw."""
    if isinstance(error, BaseExceptionGroup):
        return any(escaped(inner) for inner in error.exceptions)
    return isinstance(error, EscapeDetected)


def header(impl: str | None, profile: str | None, origin: str, beside: bool) -> list[str]:
    checked = " ".join(part for part in (f"--agentconf-impl {impl}" if impl else "",
                                         f"--agentconf-profile {profile}" if profile else "")
                       if part) or "reference"
    lines = [f"agentconf: checking {checked}" + (f" ({origin})" if origin else "")]
    if beside:
        lines.append(f"agentconf: the conformance suites ({suites_dir()}) run beside this "
                     "project's own tests; name test paths to run only some of them")
    return lines
