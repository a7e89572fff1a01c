"""The escapes of a run, said first: a user must not read thirty clause sections to learn that
a file outside the root changed or a canary's secret came back.

An escape is a failing check whose evidence is the disk oracle's finding (harness/disk/oracle.py's
EscapeDetected: "escape after <call>: the disk outside the root changed: created ../x | the
answer contains the canaries' secret"). Each distinct finding is listed once per clause it
failed, with the line that reproduces it: one bug that lets several kinds of path out (a
`..`, an absolute path, a link) shows under each clause that found it.
"""

from typing import Any

# How the oracle's finding begins (harness/disk/oracle.py, DiskOracle.check).
ESCAPE_PREFIX = "escape after "
SHOWN = 10
_CHARS = 300


def escapes(document: dict[str, Any]) -> list[dict[str, str]]:
    """{clause, finding, reproduce} of every distinct escape of each clause, in clause order."""
    found: list[dict[str, str]] = []
    seen: set[tuple[str, str]] = set()
    for clause in document["clauses"]:
        for test in clause["tests"]:
            evidence = (test.get("evidence") or "").strip()
            if test["outcome"] != "fail" or not evidence.startswith(ESCAPE_PREFIX):
                continue
            finding = evidence.splitlines()[0]
            if (clause["id"], finding) in seen:
                continue
            seen.add((clause["id"], finding))
            found.append({"clause": clause["id"], "finding": _short(finding),
                          "reproduce": test.get("reproduce") or ""})
    return found


def escape_lines(document: dict[str, Any]) -> list[str]:
    """The summary's first lines: how many escapes, then each one (plain text)."""
    found = escapes(document)
    if not found:
        return []
    lines = [f"ESCAPES: {len(found)} (the disk outside the root changed, or a secret came back)"]
    lines += [f"  {item['clause']}: {item['finding']}" for item in found[:SHOWN]]
    if len(found) > SHOWN:
        lines.append(f"  ... and {len(found) - SHOWN} more (report.md lists them all)")
    return lines


def _short(text: str) -> str:
    return text if len(text) <= _CHARS else text[:_CHARS - 1] + "…"
