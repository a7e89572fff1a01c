"""The summary tables every report shares, read from a conformance document (a dict)."""

import re
from typing import Any

from .events import IN_PART_SAYS

STATUS_COLUMNS = ("pass", "fail", "xfail", "xpass", "n/a", "error")


def summary_rows(document: dict[str, Any], by: str) -> list[tuple[str, list[int]]]:
    """(`level` or `category`, counts in STATUS_COLUMNS order) for `by` in levels|categories."""
    table = document["summary"][by]
    return [(name, [counts[s] for s in STATUS_COLUMNS]) for name, counts in table.items()]


def implementation_title(document: dict[str, Any]) -> str:
    implementation = document["implementation"]
    version = implementation.get("version")
    return f"{implementation['name']} {version}" if version else implementation["name"]


# What a report of the built-in reference says of itself, so that a green run of it is never read
# as a verdict on an implementation the user meant to check.
REFERENCE_NOTE = ("the built-in reference tool system, not an implementation of yours "
                  "(name yours with --impl or a profile)")


def checked_reference(document: dict[str, Any]) -> bool:
    return bool(document["implementation"].get("spec") == "reference")


def must_score(document: dict[str, Any]) -> tuple[int, int]:
    """(MUST clauses passing, MUST clauses that apply): the badge's number."""
    musts = document["summary"]["levels"]["MUST"]
    applicable = sum(musts[s] for s in STATUS_COLUMNS if s != "n/a")
    return musts["pass"], applicable


def text_table(header: list[str], rows: list[list[str]]) -> str:
    """A plain aligned table for a terminal."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows, strict=True)]
    lines = [header, ["-" * w for w in widths], *rows]
    return "\n".join(
        "  ".join(str(cell).ljust(w) if i == 0 else str(cell).rjust(w) for i, (cell, w) in
                  enumerate(zip(line, widths, strict=True))).rstrip()
        for line in lines
    )


def markdown_table(header: list[str], rows: list[list[str]], numeric: bool = True) -> str:
    """`numeric`: every column after the first holds numbers (right-aligned)."""
    def line(cells: list[str]) -> str:
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

    aligns = ["---"] + ["---:" if numeric else "---"] * (len(header) - 1)
    return "\n".join([line(header), "| " + " | ".join(aligns) + " |", *map(line, rows)])


def counts_table(document: dict[str, Any], by: str, render: Any = markdown_table) -> str:
    label = "level" if by == "levels" else "category"
    rows = [[name, *map(str, counts)] for name, counts in summary_rows(document, by)]
    return render([label, *STATUS_COLUMNS], rows)


# A check that did not judge its clause because a premise is not proven (the profile's, or the
# scenario the check needed) says "not judged: <premise>"; one stopped by another clause's
# finding says "not judged by this check" and is that clause's cascade, not a gap.
# A premise not proven ("not judged: ..."), or a check stopped by another clause's finding
# (charged there): either way this clause's verdict does not cover it.
_UNPROVEN = re.compile(r"\bnot judged(?:: | by this check)")


def _in_part(test: dict[str, Any]) -> bool:
    evidence = test.get("evidence") or ""
    if test["outcome"] == "n/a":
        return bool(_UNPROVEN.search(evidence[:300]))
    return test["outcome"] == "pass" and evidence.startswith(IN_PART_SAYS)


def partly_judged(document: dict[str, Any]) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """The clauses that came to a verdict on some checks while others stood on a premise not
    proven (or passed on part of what they name): the verdict stands on what was judged only,
    which a bare "pass" would hide. Each with those checks."""
    found = []
    for clause in document["clauses"]:
        if clause["status"] == "n/a":
            continue
        unjudged = [test for test in clause["tests"] if _in_part(test)]
        if unjudged:
            found.append((clause, unjudged))
    return found
