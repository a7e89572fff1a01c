"""`agentconf compare`: the clause x implementation matrix of several reports."""

import json
from pathlib import Path

from cli import agentconf, assert_usage_error
from runner_events import as_log, stream, test_event

from agentconf.contract import CLAUSES
from agentconf.harness.report import (
    Expectations,
    aggregate,
    build_document,
    verdict_of,
    write_reports,
)
from agentconf.harness.report.compare import ABSENT, compare_matrix

IDS = ["EDIT-01", "EDIT-02", "EOL-01"]


def report(folder: Path, name: str, outcomes: dict[str, str]) -> Path:
    records = stream([test_event(f"suites/t.py::{cid}", cid, o) for cid, o in outcomes.items()],
                     name=name)
    log = as_log(records)
    results = aggregate([CLAUSES[c] for c in outcomes], log.tests, Expectations())
    document = build_document(results, log, verdict_of(results, log), f"python:{name}:create")
    write_reports(document, folder / name)
    return folder / name / "conformance.json"


def test_the_matrix_has_one_row_per_clause_and_one_column_per_report(tmp_path: Path) -> None:
    a = report(tmp_path, "alpha", {"EDIT-01": "pass", "EDIT-02": "fail", "EOL-01": "n/a"})
    b = report(tmp_path, "beta", {"EDIT-01": "error", "EDIT-02": "pass"})
    documents = [json.loads(p.read_text()) for p in (a, b)]
    header, rows = compare_matrix(documents)
    assert header == ["clause", "level", "alpha 1.2.3", "beta 1.2.3"]
    cells = {row[0]: row[2:] for row in rows}
    assert cells["EDIT-01"] == ["pass", "error"]
    assert cells["EDIT-02"] == ["fail", "pass"]
    assert cells["EOL-01"] == ["n/a", ABSENT]  # beta's run did not cover EOL-01
    assert [row[0] for row in rows[:3]] == [cid for cid in CLAUSES if cid in IDS]
    assert cells["MUST passing"] == ["1/2", "1/2"]


def test_two_runs_of_one_implementation_stay_distinguishable(tmp_path: Path) -> None:
    a = report(tmp_path / "one", "same", {"EDIT-01": "pass"})
    b = report(tmp_path / "two", "same", {"EDIT-01": "fail"})
    header, _ = compare_matrix([json.loads(p.read_text()) for p in (a, b)])
    assert header[2:] == ["same 1.2.3 #1", "same 1.2.3 #2"]


def test_the_cli_prints_markdown_and_writes_html_on_request(tmp_path: Path) -> None:
    a = report(tmp_path, "alpha", {"EDIT-01": "pass", "EDIT-02": "fail"})
    b = report(tmp_path, "beta", {"EDIT-01": "fail", "EDIT-02": "pass"})
    done = agentconf("compare", str(a), str(b.parent), "--html", "cmp.html", cwd=tmp_path)
    # EDIT-01 passed in the first report and fails in the last: a regression, exit 1.
    assert done.returncode == 1, done.stderr
    assert "1 clause(s) regressed from the first report to the last: EDIT-01" in done.stderr
    assert "| EDIT-01 | MUST | pass | fail |" in done.stdout
    html = (tmp_path / "cmp.html").read_text()
    assert '<td class="fail">fail</td>' in html and "https://" not in html


def test_no_regression_exits_0_and_changed_only_hides_what_did_not_change(
    tmp_path: Path
) -> None:
    a = report(tmp_path, "old", {"EDIT-01": "pass", "EDIT-02": "fail", "EOL-01": "pass"})
    b = report(tmp_path, "new", {"EDIT-01": "pass", "EDIT-02": "pass", "EOL-01": "pass"})
    done = agentconf("compare", str(a), str(b), "--changed-only", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "| EDIT-02 | MUST | fail | pass |" in done.stdout
    assert "| EDIT-01 |" not in done.stdout and "| EOL-01 |" not in done.stdout
    assert "MUST passing" in done.stdout


def test_a_file_that_is_not_a_conformance_report_is_one_line_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text('{"schema_version": "1.0"}')
    assert_usage_error(agentconf("compare", "bad.json", cwd=tmp_path), "not a conformance report")
    (tmp_path / "junk.json").write_text("{")
    assert_usage_error(agentconf("compare", "junk.json", cwd=tmp_path), "junk.json")
    assert_usage_error(agentconf("compare", "missing.json", cwd=tmp_path), "does not exist")
