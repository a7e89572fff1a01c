"""Each clause's test events of one `agentconf run` on a profile: the end-to-end runs of the
profile tests (profile/) and the verdict fixes (verdicts/) read their outcomes this way."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

RUN_BOUND_S = 900  # only turns a hang into a failure


def run(folder: Path, profile: Path, clauses: str) -> dict[str, list[dict[str, Any]]]:
    """Each clause's test events of one `agentconf run`."""
    report = folder / "report"
    done = subprocess.run(
        [sys.executable, "-m", "agentconf", "run", "--impl", str(profile), "--clauses", clauses,
         "--report", str(report)],
        cwd=folder, capture_output=True, text=True, timeout=RUN_BOUND_S, check=False,
    )
    assert (report / "events.jsonl").exists(), done.stdout[-2000:] + done.stderr[-2000:]
    by_clause: dict[str, list[dict[str, Any]]] = {}
    for line in (report / "events.jsonl").read_text().splitlines():
        event = json.loads(line)
        if event["event"] == "test":
            for clause in event["clauses"]:
                by_clause.setdefault(clause, []).append(event)
    return by_clause


def outcomes(events: list[dict[str, Any]]) -> set[str]:
    return {event["outcome"] for event in events}
