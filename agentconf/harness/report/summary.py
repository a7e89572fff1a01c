"""The step summary (`agentconf run --summary-md FILE`, GitHub's $GITHUB_STEP_SUMMARY): the
verdict in one line, then the escapes (the disk outside the root changed, or a secret outside it
came back), then every other failure, each with the one line that reproduces it. Short on purpose:
report.md and report.html hold the rest."""

import re
from typing import Any

from .console import reason_line
from .markdown import NOT_GREEN
from .matrix import escaped
from .summary_tables import REFERENCE_NOTE, checked_reference, implementation_title, must_score
from .visible import visible


def _code(text: str) -> str:
    """Inline code that a backtick inside cannot close (CommonMark: a longer fence)."""
    if "`" not in text:
        return f"`{text}`"
    fence = "`" * (max(len(run) for run in re.findall(r"`+", text)) + 1)
    return f"{fence} {text} {fence}"


def _line(clause: dict[str, Any]) -> list[str]:
    # The evidence's first words, past the node id that heads each failing check's part.
    reason = reason_line(clause.get("evidence") or "", 300)
    known = " (known: in the baseline)" if clause["status"] == "xfail" else ""
    lines = [f"- **{clause['id']}** ({clause['level']}, {clause['status']}){known}: "
             + (reason or clause["requirement"])]
    if clause.get("reproduce"):
        lines.append(f"  {_code(clause['reproduce'])}")
    return lines


def render_summary(document: dict[str, Any]) -> str:
    summary, verdict = document["summary"], document["verdict"]
    passing, applicable = must_score(document)
    state = "GREEN" if verdict["green"] else "RED"
    lines = [f"### agentconf: {implementation_title(document)} — {state}", "",
             f"MUST {passing}/{applicable} · {summary['executed']} of {summary['planned']} "
             f"planned checks executed · contract {document['contract_version']} · agentconf "
             f"{document['kit_version']}"]
    lines += [f"- {reason}" for reason in verdict["reasons"]]
    if checked_reference(document):
        lines += ["", f"**This checked {REFERENCE_NOTE}.**"]
    escapes = [c for c in document["clauses"] if escaped(c)]
    failures = [c for c in document["clauses"] if c["status"] in NOT_GREEN and c not in escapes]
    if escapes:
        lines += ["", f"#### Escapes ({len(escapes)}): the disk outside the root changed, or a "
                  "secret outside it came back", ""]
        lines += [line for clause in escapes for line in _line(clause)]
    lines += ["", f"#### Failures ({len(failures)})", ""]
    lines += [line for clause in failures for line in _line(clause)] or ["None."]
    known = [c["id"] for c in document["clauses"] if c["status"] == "xfail" and c not in escapes]
    if known:
        lines += ["", f"Expected failures (the baseline): {', '.join(known)}."]
    return visible("\n".join(lines) + "\n")
