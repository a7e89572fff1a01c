"""What `agentconf run` prints: a progress stream while the checks run, a summary table after."""

import sys
from typing import Any, TextIO

from .events import TestEvent
from .tables import counts_table, text_table

PROGRESS_MARKS = {"pass": ".", "fail": "F", "n/a": "n", "error": "E", "harness-error": "!"}
PROGRESS_WIDTH = 60
SHOWN_HARNESS_ERRORS = 5


class Progress:
    """A dot per check (F fail, E error, n n/a, ! harness error), a count at each line's end."""

    def __init__(self, planned: int = 0, stream: TextIO = sys.stdout) -> None:
        self.planned = planned
        self.stream = stream
        self.seen = 0

    def __call__(self, test: TestEvent) -> None:
        self.stream.write(PROGRESS_MARKS.get(test.outcome, "?"))
        self.seen += 1
        if self.seen % PROGRESS_WIDTH == 0:
            self.stream.write(f" {self.seen}/{self.planned or '?'}\n")
        self.stream.flush()

    def finish(self) -> None:
        if self.seen % PROGRESS_WIDTH:
            self.stream.write(f" {self.seen}/{self.planned or '?'}\n")
        self.stream.flush()


def render_summary(document: dict[str, Any], report_dir: str) -> str:
    summary, verdict = document["summary"], document["verdict"]
    lines = ["", counts_table(document, "levels", text_table), "",
             counts_table(document, "categories", text_table), ""]
    lines.append(f"{summary['executed']} of {summary['planned']} planned checks executed.")
    if summary["unchecked"]:
        lines.append(f"warning: no test checks {len(summary['unchecked'])} clause(s): "
                     + ", ".join(summary["unchecked"]))
    for clause in document["clauses"]:
        if clause["status"] in ("fail", "error", "xpass") and clause["level"] == "MUST":
            lines.append(f"  {clause['status'].upper():5} {clause['id']}  {clause['reproduce']}")
    harness = document["harness_errors"]
    for test in harness[:SHOWN_HARNESS_ERRORS]:
        lines.append(f"  HARNESS-ERROR {test['nodeid']}")
    if len(harness) > SHOWN_HARNESS_ERRORS:
        lines.append(f"  ... and {len(harness) - SHOWN_HARNESS_ERRORS} more harness errors "
                     "(report.md lists them all)")
    lines += [f"- {reason}" for reason in verdict["reasons"]]
    state = "GREEN" if verdict["green"] else "RED"
    lines.append(f"{state}: report in {report_dir}")
    return "\n".join(lines) + "\n"
