"""The lesson view, from a conformance.json written here (no suites run): the verdict of a lesson,
n/a reasons in view, and everything about the first failing clause."""

import json
from pathlib import Path
from typing import Any

from agentconf.learn.course import load_course
from agentconf.learn.lesson import read_outcome
from agentconf.learn.project import Plan
from agentconf.learn.render import render_outcome

COURSE = load_course()
CONFINEMENT = COURSE.lesson("confinement")


def _report(tmp_path: Path, statuses: dict[str, str],
            tests: dict[str, list[dict[str, Any]]], complete: bool = True) -> Path:
    executed = 40
    clauses = [{"id": cid, "status": status, "evidence": "", "reproduce": "",
                "tests": tests.get(cid, [])} for cid, status in statuses.items()]
    document = {"clauses": clauses, "summary": {"planned": executed + 1 - complete,
                                                "executed": executed}}
    (tmp_path / "conformance.json").write_text(json.dumps(document), "utf-8")
    return tmp_path


def _plan(tmp_path: Path) -> Plan:
    return Plan(tmp_path, list(COURSE.lessons), "confinement", ["envelope", "registry"])


def test_a_lesson_passes_when_each_clause_passes_or_is_na_with_its_reason(tmp_path: Path) -> None:
    statuses = dict.fromkeys(CONFINEMENT.clause_ids(), "pass") | {"CONFINE-06": "n/a"}
    na = [{"outcome": "n/a", "evidence": "n/a: the implementation lacks mention_prefix"}]
    outcome = read_outcome(CONFINEMENT, _report(tmp_path, statuses, {"CONFINE-06": na}))
    assert outcome.passed
    view = render_outcome(_plan(tmp_path), outcome)
    assert "n/a CONFINE-06: the implementation lacks mention_prefix" in view
    assert "PASSED" in view and "Next: lesson 5, Links: judge the real path" in view
    total = len(CONFINEMENT.clause_ids())
    assert f"{total - 1} of {total} clauses pass, 1 n/a" in view  # an n/a is never a pass


def test_the_count_of_passes_leaves_out_failures_and_n_a(tmp_path: Path) -> None:
    ids = CONFINEMENT.clause_ids()
    statuses = dict.fromkeys(ids, "fail") | {ids[0]: "pass", ids[1]: "n/a"}
    view = render_outcome(_plan(tmp_path), read_outcome(CONFINEMENT, _report(tmp_path,
                                                                             statuses, {})))
    assert f"1 of {len(ids)} clauses pass, 1 n/a" in view, view


def test_a_failing_clause_is_taught_with_its_request_why_code_mutant_and_hint(
        tmp_path: Path) -> None:
    statuses = dict.fromkeys(CONFINEMENT.clause_ids(), "pass") | {
        "CONFINE-04": "fail", "CONFINE-05": "fail", "CONFINE-14": "fail"}
    tests = {"CONFINE-04": [
        {"outcome": "fail", "case": "confine-sibling-prefix-relative",
         "evidence": "found while checking X, charged to CONFINE-04: something"},
        {"outcome": "fail", "case": "confine-sibling-prefix-relative",
         "evidence": "escape after write_file: the disk outside the root changed: created "
                     "root_evil/x.txt (file of 1 bytes, mode 644)",
         "reproduce": "agentconf replay 'suites/test_cases.py::test_case[x]'"}],
        "CONFINE-14": [{"outcome": "fail", "evidence": "found while checking CONFINE-05: escape"}]}
    outcome = read_outcome(CONFINEMENT, _report(tmp_path, statuses, tests))
    assert not outcome.passed
    assert [entry.id for entry in outcome.failing] == ["CONFINE-04", "CONFINE-05"]
    view = render_outcome(_plan(tmp_path), outcome)
    for part in ("FAILS: CONFINE-04 (MUST)", "the case confine-sibling-prefix-relative",
                 "request: write_file", "escape after write_file", "replay it: agentconf",
                 "Source: dskcode", "CVE-2025-53110", "agentconf/reference/sandbox/paths.py:",
                 "def is_within(", "PrefixContainment", "Hint, for what the check saw:",
                 "Compare path components",
                 "Also failing in this lesson: CONFINE-05",
                 "CONFINE-14 fail: found while checking CONFINE-05", "Progress: [##.........."):
        assert part in view, view
    assert "found while checking X" not in view  # the clause's own failing check is shown


def test_a_clause_no_check_reached_is_na_with_that_reason(tmp_path: Path) -> None:
    statuses = dict.fromkeys(CONFINEMENT.clause_ids()[1:], "pass")
    outcome = read_outcome(CONFINEMENT, _report(tmp_path, statuses, {}))
    first = outcome.clauses[0]
    assert (first.id, first.status, first.reason) == ("CONFINE-01", "n/a", "no check ran")


def test_a_run_that_stopped_early_judges_no_lesson(tmp_path: Path) -> None:
    statuses = dict.fromkeys(CONFINEMENT.clause_ids(), "pass")
    outcome = read_outcome(CONFINEMENT, _report(tmp_path, statuses, {}, complete=False))
    assert not outcome.passed
    assert "NOT JUDGED" in render_outcome(_plan(tmp_path), outcome)
