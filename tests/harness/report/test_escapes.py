"""The escapes said first (harness/report/escapes.py): every clause that found an escape is named,
each distinct finding once per clause."""

from typing import Any

from agentconf.harness.report.escapes import escape_lines, escapes

CREATED = "escape after write_file: the disk outside the root changed: created root_evil/x.txt"
SECRET = "escape after read_file: the answer contains the canaries' secret"


def _document(*tests: tuple[str, str, str]) -> dict[str, Any]:
    clauses: dict[str, list[dict[str, Any]]] = {}
    for clause, outcome, evidence in tests:
        clauses.setdefault(clause, []).append(
            {"outcome": outcome, "evidence": evidence, "reproduce": f"replay {clause}"})
    return {"clauses": [{"id": cid, "tests": found} for cid, found in clauses.items()]}


def test_one_finding_under_two_clauses_is_named_under_each() -> None:
    document = _document(("CONFINE-04", "fail", CREATED), ("CONFINE-04", "fail", CREATED),
                         ("CONFINE-11", "fail", CREATED), ("CONFINE-12", "fail", SECRET),
                         ("READ-01", "fail", "expected a refusal"), ("CONFINE-13", "pass", ""))
    assert [(item["clause"], item["finding"]) for item in escapes(document)] == [
        ("CONFINE-04", CREATED), ("CONFINE-11", CREATED), ("CONFINE-12", SECRET)]
    assert escape_lines(document)[0].startswith("ESCAPES: 3 ")
