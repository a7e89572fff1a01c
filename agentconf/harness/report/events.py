"""Reads the plugin's event stream (docs/ARCHITECTURE.md, "Outcomes and the event stream").

The stream is newline-delimited JSON written while the run goes on, so a reader may meet a last line
that is only half written (the run was killed): that line is ignored, anything else malformed is an
`EventStreamError`, because the plugin is ours and a broken stream is our bug.
"""

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TEST_OUTCOMES = ("pass", "fail", "n/a", "error", "harness-error")


class EventStreamError(Exception):
    """The events file is missing or malformed: a bug in agentconf, not in the implementation."""


@dataclass(frozen=True, slots=True)
class TestEvent:
    nodeid: str
    clauses: tuple[str, ...]
    outcome: str
    duration: float = 0.0
    evidence: str = ""
    reproduce: str = ""
    case: str | None = None


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
        outcome = record["outcome"]
        if outcome not in TEST_OUTCOMES:
            raise EventStreamError(f"unknown test outcome {outcome!r} for {record.get('nodeid')}")
        return TestEvent(
            nodeid=str(record["nodeid"]),
            clauses=tuple(record.get("clauses") or ()),
            outcome=outcome,
            duration=float(record.get("duration") or 0.0),
            evidence=str(record.get("evidence") or ""),
            reproduce=str(record.get("reproduce") or ""),
            case=record.get("case") or None,
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
        if kind == "run_start":
            log.start = record
        elif kind == "test":
            log.tests.append(parse_test_event(record))
        elif kind == "run_end":
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
