"""Outcomes of checks and the event stream (docs/ARCHITECTURE.md "Outcomes and the event stream").

Two halves: `phase_payload` runs where the test ran (an xdist worker, maybe) and classifies one
phase's report by the exception's type, which only exists there; `EventWriter` runs in the
controller, folds a test's phases into one outcome and writes a line per test.
"""

from __future__ import annotations

import json
import platform
import re
import shlex
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

import pytest
from hypothesis import settings

from agentconf import __version__
from agentconf.contract import CONTRACT_VERSION
from agentconf.harness.report.events import (
    FAILING,
    IN_PART_SAYS,
    RUN_END,
    RUN_START,
    Outcome,
    TestEvent,
    safe_text,
)
from agentconf.harness.session.result import neutralise
from agentconf.harness.verdicts.errors import (
    EscapeDetected,
    Finding,
    ImplementationFailure,
    MessageChanged,
    NotApplicable,
)

PROPERTY = "agentconf"
# A passing check that judged only part of what it names (verdicts/errors.py `judged_in_part`):
# the item's property holding what was not judged.
IN_PART = "agentconf_in_part"
_EVIDENCE_CHARS = 8000
_BLOB = re.compile(r"@reproduce_failure\([^)]*\)|@seed\(\d+\)")


def classify_exception(error: BaseException) -> Outcome:
    """message-changed for a message that differs from its snapshot, fail for any other
    assertion (escapes and contract violations too), error for the implementation's
    failures, harness-error for anything else. A group (hypothesis found several) takes the worst
    finding about the implementation."""
    leaves = list(_leaves(error))
    if leaves and all(isinstance(leaf, MessageChanged) for leaf in leaves):
        return Outcome.MESSAGE_CHANGED
    if any(isinstance(leaf, AssertionError | pytest.fail.Exception) for leaf in leaves):
        return Outcome.FAIL
    if any(isinstance(leaf, ImplementationFailure) for leaf in leaves):
        return Outcome.ERROR
    return Outcome.HARNESS_ERROR


def charge(error: BaseException, own: list[str]) -> tuple[list[str], str | None]:
    """The clauses a failure is charged to, and the clause it was found while checking.

    A check's own assertion fails its own clause. A finding of the harness (an escape, a crash,
    a malformed answer) met while checking another clause is charged to the finding's clause,
    so one departure is one failing clause, not a cascade over every check that ran into it."""
    leaves = list(_leaves(error))
    if any(isinstance(leaf, AssertionError | pytest.fail.Exception)
           and not isinstance(leaf, Finding) for leaf in leaves):
        return own, None
    findings = sorted((leaf for leaf in leaves if isinstance(leaf, Finding)),
                      key=lambda leaf: not isinstance(leaf, EscapeDetected))  # escapes first
    for finding in findings:
        elsewhere = finding.charged_to(own)
        if elsewhere is None:
            return own, None
        return [elsewhere], own[0] if own else None
    return own, None


def _leaves(error: BaseException) -> Any:
    if isinstance(error, BaseExceptionGroup):
        for inner in error.exceptions:
            yield from _leaves(inner)
    else:
        yield error


def phase_payload(
    report: pytest.TestReport, call: pytest.CallInfo[None], clauses: list[str], workspace: Any,
    snapshot: bool = False,
) -> dict[str, Any]:
    """What the worker that ran one phase knows of it, as plain JSON-able data (xdist sends it
    to the controller, which cannot pickle a lone surrogate: every text goes through safe_text)."""
    payload: dict[str, Any] = {"when": report.when, "clauses": clauses}
    if report.passed:
        payload["outcome"] = Outcome.PASS.value
        part = dict(report.user_properties).get(IN_PART)
        if part is not None:
            payload["evidence"] = safe_text(f"{IN_PART_SAYS}{part}")
    elif report.skipped:
        payload["outcome"] = Outcome.NA.value
        payload["evidence"] = safe_text(_skip_reason(report, call))
    else:
        excinfo = call.excinfo
        outcome = classify_exception(excinfo.value) if excinfo else Outcome.HARNESS_ERROR
        payload["outcome"] = outcome.value
        text = _describe(excinfo.value) if excinfo else str(report.longrepr)
        if outcome is Outcome.HARNESS_ERROR and excinfo:
            text = f"{excinfo.typename} (a bug in agentconf or in the test): {text}\n" + str(
                report.longrepr)[-2000:]
        if excinfo is not None and outcome is Outcome.FAIL:
            charged, found_while = charge(excinfo.value, clauses)
            if snapshot and charged != clauses:  # a finding met while recording a message
                payload["clauses"] = charged
                text = f"found while recording a message snapshot, charged to {charged[0]}: {text}"
            if found_while is not None:
                payload["clauses"], payload["found_while"] = charged, found_while
                text = (f"found while checking {found_while} ({report.nodeid}), charged to "
                        f"{charged[0]}: {text}")
        if workspace is not None:
            text = neutralise(text, ((str(workspace.root), "<ROOT>"),
                                     (str(workspace.sandbox), "<SANDBOX>")))
        payload["evidence"] = safe_text(_cut(text))
        blob = _BLOB.findall(text + "\n" + str(report.longrepr))
        if blob:
            payload["hypothesis"] = blob[0]
    case = dict(report.user_properties).get("case")
    if case is not None:
        payload["case"] = str(case)
    return payload


def _describe(error: BaseException) -> str:
    # An assertion's message is the evidence; any other exception is named by its type.
    name = "" if isinstance(error, AssertionError) else f"{type(error).__name__}: "
    text = f"{name}{error}"
    for leaf in _leaves(error) if isinstance(error, BaseExceptionGroup) else ():
        text += f"\n- {type(leaf).__name__}: {leaf}"
    notes = getattr(error, "__notes__", None)
    if notes:
        text += "\n" + "\n".join(map(str, notes))
    return text


def _skip_reason(report: pytest.TestReport, call: pytest.CallInfo[None]) -> str:
    error = call.excinfo.value if call.excinfo else None
    if isinstance(error, NotApplicable):
        return str(error)  # "n/a: <reason>", wherever it was raised
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        reason = str(longrepr[2])
        return reason.removeprefix("Skipped: ")
    return str(longrepr)


def _cut(text: str) -> str:
    if len(text) <= _EVIDENCE_CHARS:
        return text
    half = _EVIDENCE_CHARS // 2
    return f"{text[:half]}\n…[{len(text) - 2 * half} chars cut]…\n{text[-half:]}"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class _Test:
    __slots__ = ("ahead", "calls", "clauses", "duration", "paths", "phases", "start_s")

    def __init__(self) -> None:
        self.phases: list[dict[str, Any]] = []
        self.clauses: list[str] = []
        self.duration = 0.0
        self.calls = 0
        self.paths = 0
        self.start_s: float | None = None
        self.ahead = False


class EventWriter:
    """A pytest plugin object, registered in the controller only when events are asked for."""

    def __init__(
        self, path: Path, config: pytest.Config, implementation: dict[str, Any], replay: str
    ) -> None:
        self._config = config
        self._implementation = implementation
        self._replay = replay
        self._tests: dict[str, _Test] = {}
        self._started = False
        self._executed = 0
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._file: IO[str] | None = path.open("w", encoding="utf-8")
        except OSError as error:
            raise pytest.UsageError(f"--agentconf-events: cannot write {path}: {error}") from None

    # ---- run_start ---------------------------------------------------------------------------

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self._start(len(session.items))

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        self._start(len(ids))

    def _start(self, planned: int) -> None:
        if self._started:
            return
        self._started = True
        seed = self._config.getoption("hypothesis_seed", None)
        profile = settings.get_current_profile_name() if hasattr(
            settings, "get_current_profile_name") else None
        self._write({
            "event": RUN_START,
            "kit_version": __version__,
            "contract_version": CONTRACT_VERSION,
            "implementation": self._implementation,
            "hypothesis_profile": profile,
            "seed": str(seed) if seed is not None else (
                "derandomized" if settings.default and settings.default.derandomize else None),
            "platform": platform.platform(),
            "planned": planned,
            "started": _now(),
        })

    # ---- tests -------------------------------------------------------------------------------

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        payload: dict[str, Any] | None = dict(report.user_properties).get(PROPERTY)  # type: ignore[assignment]
        test = self._tests.get(report.nodeid)
        # "???": xdist's report of a worker that crashed, a phase pytest's types do not name.
        if payload is None and test is None and report.when != "???":  # type: ignore[comparison-overlap]
            return  # not a conformance check
        if test is None:
            test = self._tests[report.nodeid] = _Test()
        test.duration += float(getattr(report, "duration", 0.0) or 0.0)
        if payload is not None:
            test.clauses = test.clauses or list(payload.get("clauses", []))
            test.phases.append(payload)
            test.calls += int(payload.get("calls", 0))
            test.paths += int(payload.get("paths", 0))
            if payload.get("start_s") is not None:
                test.start_s = float(payload["start_s"])
                test.ahead = bool(payload.get("start_ahead"))
        elif report.failed:  # an xdist worker crashed while running the test
            test.phases.append({"when": report.when, "outcome": Outcome.ERROR.value,
                                "evidence": safe_text(_cut(str(report.longrepr)))})
        if report.when in ("teardown", "???"):
            self._finish(report.nodeid)

    def _finish(self, nodeid: str) -> None:
        test = self._tests.pop(nodeid, None)
        if test is None:
            return
        decided = _decide(test.phases)
        event = TestEvent(
            nodeid=nodeid,
            # A finding met on the way is charged to its own clause (see `charge`).
            clauses=tuple(decided.get("clauses") or test.clauses),
            outcome=Outcome(decided.get("outcome", Outcome.ERROR)),
            duration=test.duration,
            evidence=decided.get("evidence", ""),
            reproduce=self._reproduce(nodeid, decided.get("hypothesis")),
            case=next((phase["case"] for phase in test.phases if phase.get("case")), None),
            found_while=decided.get("found_while"),
            calls=test.calls,
            paths=test.paths,
            start_s=test.start_s,
            start_ahead=test.ahead,
        )
        self._executed += 1
        self._write(event.to_record())

    def _reproduce(self, nodeid: str, hypothesis: str | None) -> str:
        line = f"{self._replay} {shlex.quote(nodeid)}"
        return f"{line}  # hypothesis: {hypothesis}" if hypothesis else line

    # ---- run_end -----------------------------------------------------------------------------

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self._start(0)
        for nodeid in list(self._tests):
            self._finish(nodeid)
        # Where pytest made the sandboxes: a red run keeps its failures' there (harness/run).
        factory = getattr(session.config, "_tmp_path_factory", None)
        kept = str(factory.getbasetemp()) if factory is not None else None
        self._write({"event": RUN_END, "executed": self._executed, "finished": _now(),
                     "sandboxes": kept})
        if self._file is not None:
            self._file.close()
            self._file = None

    def _write(self, record: dict[str, Any]) -> None:
        if self._file is None:
            return
        line = safe_text(json.dumps(record, ensure_ascii=False))
        self._file.write(line + "\n")
        self._file.flush()


def _decide(phases: list[dict[str, Any]]) -> dict[str, Any]:
    """One outcome from setup, call and teardown: the first failure wins, then a changed message
    (a finding at teardown outranks the wording of the answer before it), then a skip, then pass."""
    for wanted in (FAILING, {Outcome.MESSAGE_CHANGED}):
        for phase in phases:
            if phase.get("outcome") in wanted:
                return phase
    for phase in phases:
        if phase.get("outcome") == Outcome.NA:
            return phase
    calls = [phase for phase in phases if phase.get("when") == "call"]
    return calls[0] if calls else {"outcome": Outcome.ERROR.value,
                                   "evidence": "the test never ran"}


def make_sendable(report: pytest.TestReport) -> None:
    """pytest's own text of a failure may quote an answer's lone surrogate, which xdist cannot
    send to the controller (the worker dies, the check is lost): keep that text, escaped."""
    if report.longrepr is not None and not isinstance(report.longrepr, tuple):
        text = str(report.longrepr)
        if safe_text(text) != text:
            report.longrepr = safe_text(text)
    report.sections = [(safe_text(title), safe_text(body))
                       for title, body in report.sections]
