"""The event stream, defined once (docs/ARCHITECTURE.md, "Outcomes and the event stream"): the
`Outcome`s, the `TestEvent` record the plugin writes
(harness/verdicts/outcomes.py) and the reader here.

The stream is newline-delimited JSON written while the run goes on, so a reader may meet a last line
that is only half written (the run was killed): that line is ignored, anything else malformed is an
`EventStreamError`, because the plugin is ours and a broken stream is our bug.
"""

import json
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any


class Outcome(StrEnum):
    """What one check came to. The writer (verdicts/outcomes.py) and every reader use these."""

    PASS = "pass"
    FAIL = "fail"  # the implementation departs from the clause (an assertion, an escape)
    NA = "n/a"  # the clause does not apply: a capability is missing or switched off
    ERROR = "error"  # the implementation hung, died or could not start: nothing to judge
    HARNESS_ERROR = "harness-error"  # a bug of agentconf, never of the implementation
    # A message differs from its recorded snapshot (or has none): a regression of wording, kept
    # apart from every clause's verdict and reported with its diff.
    MESSAGE_CHANGED = "message-changed"


TEST_OUTCOMES: tuple[str, ...] = tuple(Outcome)
# How the evidence of a pass that judged only part of what it names begins (what was not judged
# follows): the report lists its clause under "Judged in part".
IN_PART_SAYS = "judged in part: "
# The stream's three kinds of line (the `"event"` field): one run_start (what was planned, with
# what), one test per check (TestEvent), one run_end (how many were executed).
RUN_START, TEST, RUN_END = "run_start", "test", "run_end"
# The outcomes that keep a check from passing; the first of a test's phases among them decides.
FAILING = frozenset({Outcome.FAIL, Outcome.ERROR, Outcome.HARNESS_ERROR})


def safe_text(text: str) -> str:
    """Any text made writable as UTF-8 JSON: a lone surrogate (an implementation may answer one,
    `json.loads` accepts it) becomes its escape instead of crashing a writer or an xdist worker."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


class EventStreamError(Exception):
    """The events file is missing or malformed: a bug in agentconf, not in the implementation."""


@dataclass(frozen=True, slots=True)
class TestEvent:
    """One check's line of the stream (`"event": "test"`), as written and as read."""

    nodeid: str
    clauses: tuple[str, ...]
    outcome: Outcome
    duration: float = 0.0
    evidence: str = ""
    reproduce: str = ""
    case: str | None = None
    # The clause of the check that ran into a finding charged to `clauses` instead (an escape
    # seen while checking RESULT-04 is CONFINE-14's); that clause itself was not judged.
    found_while: str | None = None
    calls: int = 0
    paths: int = 0
    # Seconds the check spent starting a server of its own (cmd: and mcp:, up to its first
    # answer) or building an in-process object, None when it started none: a kept one served
    # it. `start_ahead`: the server was a spare, started while earlier checks ran, and start_s
    # is only what this check still waited for it (harness/target/spare.py).
    start_s: float | None = None
    start_ahead: bool = False

    def to_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "event": TEST, "nodeid": self.nodeid, "clauses": list(self.clauses),
            "outcome": str(self.outcome), "duration": round(self.duration, 4),
            "evidence": safe_text(self.evidence), "reproduce": self.reproduce,
        }
        if self.calls:
            record["calls"], record["paths"] = self.calls, self.paths
        if self.start_s is not None:
            record["start_s"] = round(self.start_s, 4)
            if self.start_ahead:
                record["start_ahead"] = True
        if self.case is not None:
            record["case"] = self.case
        if self.found_while is not None:
            record["found_while"] = self.found_while
        return record


@dataclass(slots=True)
class EventLog:
    start: dict[str, Any] = field(default_factory=dict)
    tests: list[TestEvent] = field(default_factory=list)
    end: dict[str, Any] | None = None

    @property
    def planned(self) -> int:
        return int(self.start.get("planned", 0))

    @property
    def executed(self) -> int:
        # A run that died before run_end executed what it reported, no more.
        if self.end is not None and "executed" in self.end:
            return int(self.end["executed"])
        return len(self.tests)


def parse_test_event(record: dict[str, Any]) -> TestEvent:
    try:
        try:
            outcome = Outcome(record["outcome"])
        except ValueError:
            raise EventStreamError(f"unknown test outcome {record['outcome']!r} for "
                                   f"{record.get('nodeid')}") from None
        return TestEvent(
            nodeid=str(record["nodeid"]),
            clauses=tuple(record.get("clauses") or ()),
            outcome=outcome,
            duration=float(record.get("duration") or 0.0),
            evidence=str(record.get("evidence") or ""),
            reproduce=str(record.get("reproduce") or ""),
            case=record.get("case") or None,
            found_while=record.get("found_while") or None,
            calls=int(record.get("calls") or 0),
            paths=int(record.get("paths") or 0),
            start_s=None if record.get("start_s") is None else float(record["start_s"]),
            start_ahead=bool(record.get("start_ahead")),
        )
    except KeyError as missing:
        raise EventStreamError(f"test event without {missing}: {record}") from None


def parse_lines(lines: list[str]) -> EventLog:
    log = EventLog()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            if number == len(lines):
                break  # the writer was stopped mid-line
            raise EventStreamError(f"line {number} of the event stream is not JSON") from None
        kind = record.get("event") if isinstance(record, dict) else None
        if kind == RUN_START:
            log.start = record
        elif kind == TEST:
            log.tests.append(parse_test_event(record))
        elif kind == RUN_END:
            log.end = record
        # Unknown event kinds are left for newer readers.
    return log


def read_events(path: Path) -> EventLog:
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        raise EventStreamError(f"no event stream at {path}") from None
    log = parse_lines(text.splitlines())
    if not log.start:
        raise EventStreamError(f"the event stream {path} has no run_start event")
    return log
