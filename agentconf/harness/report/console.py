"""What `agentconf run` prints: a progress stream while the checks run, a summary table after."""

import re
import sys
import textwrap
from collections.abc import Sequence
from typing import Any, TextIO

from .escapes import escape_lines
from .events import TestEvent
from .summary_tables import (
    REFERENCE_NOTE,
    checked_reference,
    counts_table,
    partly_judged,
    text_table,
)
from .visible import visible

PROGRESS_MARKS = {"pass": ".", "fail": "F", "n/a": "n", "error": "E", "harness-error": "!",
                  "message-changed": "M"}
PROGRESS_WIDTH = 60
SHOWN_HARNESS_ERRORS = 5
SHOWN_MESSAGES = 5
SHOWN_DIFF_LINES = 8


class Progress:
    """A dot per check (F fail, E error, n n/a, ! harness error, M message changed), a count at
    each line's end."""

    def __init__(self, planned: int = 0, stream: TextIO = sys.stdout) -> None:
        self.planned = planned
        self.stream = stream
        self.seen = 0

    def __call__(self, test: TestEvent) -> None:
        if self.seen == 0:
            self.stream.write(LEGEND + "\n")
        self.stream.write(PROGRESS_MARKS.get(test.outcome, "?"))
        self.seen += 1
        if self.seen % PROGRESS_WIDTH == 0:
            self.stream.write(f" {self.seen}/{self.planned or '?'}\n")
        self.stream.flush()

    def finish(self) -> None:
        if self.seen % PROGRESS_WIDTH:
            self.stream.write(f" {self.seen}/{self.planned or '?'}\n")
        self.stream.flush()


LEGEND = ("(. pass  F fail  E error: it hung or died  n n/a  ! harness error: our bug  "
          "M message changed from its snapshot)")
_REASON_CHARS = 160
_NODE_ID = re.compile(r"\S+\.py::\S+")
_FOUND_WHILE = re.compile(r"^found while checking (\S+) \(.*?\), charged to \S+: (.*)$")


def _reason(clause: dict[str, Any]) -> str:
    """One line of why, as pytest's short summary gives it."""
    if clause["status"] == "xpass":
        return "listed as an expected failure, but passes: remove it from the list"
    return reason_line(clause["evidence"], _REASON_CHARS)


def reason_line(evidence: str, width: int) -> str:
    """The evidence's most telling line, cut at a word boundary: past the node id, a finding's
    own words before the clause it was found while checking, and a golden case's first mismatch
    rather than its description."""
    lines = [line.strip() for line in evidence.splitlines()
             if line.strip() and not _NODE_ID.fullmatch(line.strip())]
    if not lines:
        return ""
    first = lines[0]
    found = _FOUND_WHILE.match(first)
    if found:
        first = f"{found[2]} (found while checking {found[1]})"
    elif first.startswith("case ") and len(lines) > 1 and lines[1].startswith("- "):
        first = f"{lines[1][2:]} ({first.split(':', 1)[0]})"
    elif first.startswith("("):  # hypothesis's arguments of the failing example: the assert next
        first = next((line for line in lines if line.startswith("assert ")), first)
    return textwrap.shorten(first, width, placeholder=" …")


def render_summary(
    document: dict[str, Any], report_dir: str, snapshots: Sequence[str] = ()
) -> str:
    """The tables, the failing MUST clauses, the messages and the verdict; `snapshots` is
    syrupy's own count of the message snapshots ("54 snapshots passed.")."""
    summary, verdict = document["summary"], document["verdict"]
    first = escape_lines(document)  # what matters most, before any table
    lines = ["", *first, *([""] if first else []),
             counts_table(document, "levels", text_table), "",
             counts_table(document, "categories", text_table), ""]
    lines.append(f"{summary['executed']} of {summary['planned']} planned checks executed.")
    partly = [clause["id"] for clause, _ in partly_judged(document)]
    if partly:
        lines.append(f"judged in part: {len(partly)} clause(s) came to their verdict with some "
                     "checks not judged or judged in part (a premise not proven, or a call the kit "
                     "does not make; report.md, "
                     "\"Judged in part\"): "
                     + ", ".join(partly))
    lines += time_lines(document)
    if summary["unchecked"]:
        lines.append(f"warning: no test checks {len(summary['unchecked'])} clause(s): "
                     + ", ".join(summary["unchecked"]))
    for clause in document["clauses"]:
        if clause["status"] in ("fail", "error", "xpass") and clause["level"] == "MUST":
            lines.append(f"  {clause['status'].upper():5} {clause['id']}  {_reason(clause)}")
            if clause["reproduce"]:
                lines.append(f"        {clause['reproduce']}")
    harness = document["harness_errors"]
    for test in harness[:SHOWN_HARNESS_ERRORS]:
        lines.append(f"  HARNESS-ERROR {test['nodeid']}")
    if len(harness) > SHOWN_HARNESS_ERRORS:
        lines.append(f"  ... and {len(harness) - SHOWN_HARNESS_ERRORS} more harness errors "
                     "(report.md lists them all)")
    if snapshots:
        lines.append("message snapshots: " + " ".join(snapshots))
    lines += _messages(document.get("messages") or [])
    lines += [f"- {reason}" for reason in verdict["reasons"]]
    state = "GREEN" if verdict["green"] else "RED"
    if checked_reference(document):
        state += f" for {REFERENCE_NOTE}"
    lines.append(f"{state}: report in {report_dir}")
    return visible("\n".join(lines) + "\n")


SHOWN_SLOWEST = 3


def time_lines(document: dict[str, Any]) -> list[str]:
    """Where the run's time went: the checks' own time by category and the slowest checks, so a
    slow run says what dominated it (a server started per check, a category that waits)."""
    durations: dict[str, tuple[str, float]] = {}  # node id -> (category, seconds), once each
    for clause in document["clauses"]:
        for test in clause["tests"]:
            durations.setdefault(test["nodeid"], (clause["category"], test["duration"] or 0.0))
    total = sum(seconds for _, seconds in durations.values())
    if not durations or total <= 0:
        return []
    by_category: dict[str, float] = {}
    for category, seconds in durations.values():
        by_category[category] = by_category.get(category, 0.0) + seconds
    top = sorted(by_category.items(), key=lambda item: -item[1])[:SHOWN_SLOWEST]
    slowest = sorted(durations.items(), key=lambda item: -item[1][1])[:SHOWN_SLOWEST]
    return [
        f"time: the checks took {total:.0f} s in all ({1000 * total / len(durations):.0f} ms "
        "each on average, session start included); most in "
        + ", ".join(f"{category} {seconds:.0f} s" for category, seconds in top),
        "  slowest: " + ", ".join(f"{nodeid.rpartition('::')[2]} {seconds:.1f} s"
                                  for nodeid, (_, seconds) in slowest),
        *_start_lines(document["run"].get("server_starts"), document["summary"]["executed"],
                      total),
    ]


# Starting servers is worth a word when it took this share of the checks' time or more, and
# happened for at least one check in four (a kept server's first start in each worker is not).
STARTS_DOMINATE = 0.25
# An in-process object's builds get a line from this share on: the reference's, a few
# microseconds each, would only add a figure of zero to every run's console.
BUILDS_WORTH_A_LINE = 0.05


def _start_lines(starts: dict[str, Any] | None, checks: int, total: float) -> list[str]:
    """How many servers the run started and what they cost; when that was most of the run, why
    and what would cut it."""
    if not starts or not starts["count"]:
        return []
    count, seconds, reuse = starts["count"], starts["seconds"], starts.get("reuse")
    share = seconds / total if total else 0.0
    if starts.get("in_process"):
        if share < BUILDS_WORTH_A_LINE:  # a cheap build (the reference's) is not news
            return []
        lines = [f"  builds: {count} objects built by the factory for {checks} checks, "
                 f"{seconds:.0f} s ({seconds / count:.2f} s a build, {share:.0%} of the "
                 "checks' time)"]
    else:
        ahead = starts.get("ahead") or 0
        if ahead:  # a spare's seconds are only a check's wait for it: no "s a start"
            lines = [f"  servers: {count} started for {checks} checks ({ahead} ahead of need, "
                     f"while earlier checks ran), {seconds:.0f} s waited for ({share:.0%} of "
                     "the checks' time)"]
        else:
            lines = [f"  servers: {count} started for {checks} checks, {seconds:.0f} s "
                     f"({seconds / count:.2f} s a start, {share:.0%} of the checks' time)"]
    if share < STARTS_DOMINATE or count < checks * STARTS_DOMINATE:
        return lines
    by_category = starts.get("by_category") or {}
    if by_category:
        lines.append("  started for the checks of: " + ", ".join(
            f"{category} {number}" for category, number in list(by_category.items())[:4]))
    if reuse is None:
        what = "building an object" if starts.get("in_process") else "starting a server"
        lines.append(f"  most of it {what} per check: [implementation] reuse = \"worker\" "
                     "keeps one per worker where that cannot change a verdict (docs/profiles.md; "
                     "`agentconf init --from` measures the start and probes for session state)")
    else:
        lines.append(f"  the kept server (reuse = \"{reuse}\") was started again and again: "
                     f"{_RETIRED_BY.get(reuse, _RETIRED_BY['worker'])}, as is one that hung, "
                     "died or failed after a command (docs/profiles.md)")
    return lines


# What replaces a kept server in each `reuse` mode (harness/target/reuse.py), for the line above.
_RETIRED_BY = {
    "worker": "a check whose verdict depends on a fresh session (one requiring read_before_edit, "
              "stale_read or tool_search) gets a new one once another check may have shaped it",
    "worker-stateful": "a check whose verdict depends on a fresh session (read_before_edit, "
                       "stale_read, tool_search) gets a new one once another check read, wrote, "
                       "ran a command or revealed tools",
    "worker-fresh-shell": "every check that ran a command or cancelled a call retires it",
}


def _messages(messages: list[dict[str, Any]]) -> list[str]:
    """Each changed message with the head of its diff; a missing one in a line of its own."""
    lines = []
    for test in messages[:SHOWN_MESSAGES]:
        evidence = (test.get("evidence") or "").splitlines()
        name = test["nodeid"].rpartition("[")[2].rstrip("]") or test["nodeid"]
        if evidence and evidence[0].startswith("message not recorded"):
            lines.append(f"  MESSAGE NOT RECORDED {name}")
            continue
        lines.append(f"  MESSAGE CHANGED {name}")
        diff = [line for line in evidence[1:] if line.startswith(("- ", "+ "))]
        lines += [f"        {line}" for line in diff[:SHOWN_DIFF_LINES]]
    if len(messages) > SHOWN_MESSAGES:
        lines.append(f"  ... and {len(messages) - SHOWN_MESSAGES} more messages "
                     "(report.md shows every diff)")
    return lines
