"""Synthetic event streams, shaped as docs/ARCHITECTURE.md says the plugin writes them."""

import json
from pathlib import Path
from typing import Any

from agentconf.harness.report.events import EventLog, TestEvent


def test_event(nodeid: str, clauses: str | list[str], outcome: str, **extra: Any) -> dict[str, Any]:
    ids = [clauses] if isinstance(clauses, str) else clauses
    record: dict[str, Any] = {"event": "test", "nodeid": nodeid, "clauses": ids,
                              "outcome": outcome, "duration": 0.01}
    if outcome != "pass":
        record.setdefault("evidence", f"evidence of {nodeid}: {outcome}")
        record.setdefault("reproduce", f"agentconf replay --impl reference {nodeid}")
    record.update(extra)
    return record


test_event.__test__ = False  # type: ignore[attr-defined]  # a helper, not a test


def run_start(planned: int, name: str = "fake-impl") -> dict[str, Any]:
    return {
        "event": "run_start", "kit_version": "0.1.0", "contract_version": "0.1.0",
        "implementation": {"spec": f"python:{name}:create", "name": name, "version": "1.2.3"},
        "hypothesis_profile": "ci", "seed": "12345", "platform": "linux", "planned": planned,
        "started": "2026-01-01T00:00:00+00:00",
    }


def stream(tests: list[dict[str, Any]], planned: int | None = None, ended: bool = True,
           name: str = "fake-impl") -> list[dict[str, Any]]:
    records = [run_start(len(tests) if planned is None else planned, name), *tests]
    if ended:
        records.append({"event": "run_end", "executed": len(tests),
                        "finished": "2026-01-01T00:00:05+00:00"})
    return records


def write_stream(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def as_log(records: list[dict[str, Any]]) -> EventLog:
    from agentconf.harness.report.events import parse_lines

    return parse_lines([json.dumps(r) for r in records])


def events(*records: dict[str, Any]) -> list[TestEvent]:
    return as_log(stream(list(records))).tests
