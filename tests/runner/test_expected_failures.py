"""The strict known-failures file: parsing, merging with the profile, and baselines."""

from pathlib import Path

import pytest
from runner_events import events, test_event

from agentconf.contract import CLAUSES
from agentconf.harness.report import (
    Expectations,
    ExpectationsError,
    Status,
    aggregate,
    load_expectations,
    parse_expectations,
)
from agentconf.harness.report.expectations import render_baseline
from agentconf.harness.run.runner import baseline_entries


def test_clause_and_case_keys_are_told_apart(tmp_path: Path) -> None:
    file = tmp_path / "xfail.toml"
    file.write_text('"EDIT-03" = "first match on purpose"\n"EOL-01::bom" = "BOM dropped"\n')
    loaded = load_expectations(file)
    assert loaded.clauses == {"EDIT-03": ("EDIT-03", "first match on purpose")}
    assert loaded.cases == {("EOL-01", "bom"): "BOM dropped"}


def test_an_unknown_clause_id_is_an_error_that_suggests_the_close_one(tmp_path: Path) -> None:
    file = tmp_path / "xfail.toml"
    file.write_text('"EDIT-3" = "typo"\n')
    with pytest.raises(ExpectationsError, match=r"unknown clause id 'EDIT-3'.*EDIT-03"):
        load_expectations(file)


def test_an_unknown_clause_in_a_case_key_is_an_error() -> None:
    with pytest.raises(ExpectationsError, match="NOPE-01"):
        parse_expectations({"NOPE-01::case": "x"}, "file")


def test_a_key_without_a_reason_is_an_error() -> None:
    with pytest.raises(ExpectationsError, match="reason"):
        parse_expectations({"EDIT-03": ""}, "file")
    with pytest.raises(ExpectationsError, match="reason"):
        parse_expectations({"EDIT-03": 3}, "file")


def test_a_file_that_is_not_toml_or_missing_is_one_clear_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("EDIT-03 = = x\n")
    with pytest.raises(ExpectationsError, match="not valid TOML"):
        load_expectations(broken)
    with pytest.raises(ExpectationsError, match="does not exist"):
        load_expectations(tmp_path / "missing.toml")


def test_a_profile_style_table_is_accepted_too(tmp_path: Path) -> None:
    file = tmp_path / "xfail.toml"
    file.write_text('[expected_failures]\n"EDIT-03" = "pasted from a profile"\n')
    assert "EDIT-03" in load_expectations(file).clauses


def test_the_command_line_file_wins_over_the_profile_on_a_shared_key() -> None:
    profile = parse_expectations({"EDIT-03": "old", "EDIT-04": "kept"}, "profile")
    file = parse_expectations({"EDIT-03": "new"}, "file")
    merged = profile.merged(file)
    assert merged.clauses["EDIT-03"][1] == "new"
    assert merged.clauses["EDIT-04"][1] == "kept"


def test_a_rendered_baseline_reads_back_as_the_same_entries(tmp_path: Path) -> None:
    entries = [("EDIT-03", 'quote " and backslash \\ and é'), ("EOL-01::bom", "line\nbreak")]
    file = tmp_path / "baseline.toml"
    file.write_text(render_baseline(entries, "header line one\nline two"))
    assert file.read_text().startswith("# header line one\n# line two\n")
    loaded = load_expectations(file)
    assert loaded.clauses["EDIT-03"][1] == entries[0][1]
    assert loaded.cases[("EOL-01", "bom")] == "line\nbreak"


def test_a_baseline_lists_todays_failures_and_keeps_listed_reasons() -> None:
    clauses = [CLAUSES["EDIT-01"], CLAUSES["EDIT-02"], CLAUSES["EDIT-03"], CLAUSES["EOL-01"]]
    log = events(
        test_event("suites/test_edit.py::a", "EDIT-01", "fail", evidence="first line\nsecond"),
        test_event("suites/test_edit.py::b", "EDIT-02", "pass"),
        test_event("suites/test_edit.py::c", "EDIT-03", "fail"),
        test_event("suites/test_eol.py::d[bom]", "EOL-01", "fail", case="bom"),
        test_event("suites/test_eol.py::d[lf]", "EOL-01", "pass", case="lf"),
    )
    listed = parse_expectations({"EDIT-03": "listed long ago"}, "file")
    entries = dict(baseline_entries(aggregate(clauses, log, listed)))
    assert set(entries) == {"EDIT-01", "EDIT-03", "EOL-01::bom"}
    assert entries["EDIT-03"] == "listed long ago"
    assert "first line" in entries["EDIT-01"] and "second" not in entries["EDIT-01"]


def test_an_empty_expectations_object_is_falsy() -> None:
    assert not Expectations()
    assert parse_expectations({"EDIT-03": "x"}, "f")
    assert Status.XFAIL.value == "xfail"


def test_a_race_the_check_missed_is_a_pass_and_a_race_it_caught_is_an_expected_failure() -> None:
    listed = parse_expectations({
        "CONCUR-04": "race: write_file truncates, then writes; repro/torn_read.py",
        "EDIT-03": "first match on purpose"}, "test")
    missed = aggregate([CLAUSES["CONCUR-04"], CLAUSES["EDIT-03"]], events(
        test_event("suites/test_concur.py::torn", "CONCUR-04", "pass"),
        test_event("suites/test_edit.py::first", "EDIT-03", "pass")), listed)
    assert [r.status for r in missed] == [Status.PASS, Status.XPASS]  # only the plain one is stale
    caught = aggregate([CLAUSES["CONCUR-04"]], events(
        test_event("suites/test_concur.py::torn", "CONCUR-04", "fail")), listed)
    assert caught[0].status is Status.XFAIL
    # The missed race keeps its entry: a baseline rewritten after a lucky run still lists it.
    assert dict(missed[0].expected) == {"CONCUR-04": listed.clauses["CONCUR-04"][1]}
    assert "CONCUR-04" in dict(baseline_entries(missed))


def test_a_listed_race_is_the_same_matrix_cell_whether_or_not_the_run_caught_it() -> None:
    """A cell that followed one run's rounds would change between regenerations of an unchanged
    implementation; its evidence says which the run saw."""
    from agentconf.harness.report.matrix import _cell

    race = {"CONCUR-04": "race: write_file truncates, then writes; repro/torn_read.py"}

    def clause(status: str, evidence: str = "") -> dict[str, object]:
        return {"status": status, "expected_failure": race, "evidence": evidence,
                "reproduce": "agentconf replay x", "tests": []}

    missed = _cell(clause("pass"))
    caught = _cell(clause("xfail", "a race, seen in 3 of 24 rounds; the first, round 13"))
    assert (missed.status, missed.race, missed.known) == ("fail", True, race["CONCUR-04"])
    assert (caught.status, caught.race, caught.known) == ("fail", True, race["CONCUR-04"])
    assert "did not catch" in (missed.evidence or "") and "3 of 24" in (caught.evidence or "")
    plain = _cell({**clause("pass"), "expected_failure": None})
    assert (plain.status, plain.race) == ("pass", False)


def test_a_listed_clause_whose_check_hung_is_held_and_a_harness_error_never_is() -> None:
    listed = parse_expectations({
        "CANCEL-03": "the server answers nothing while a command runs; repro/departures.py",
        "EDIT-03": "first match on purpose",
        "EOL-01::bom": "the call on a BOM file never answers"}, "test")
    hung = aggregate([CLAUSES["CANCEL-03"], CLAUSES["EDIT-03"], CLAUSES["EOL-01"]], events(
        test_event("suites/test_cancel.py::next", "CANCEL-03", "error"),
        test_event("suites/test_edit.py::first", "EDIT-03", "harness-error"),
        test_event("suites/test_eol.py::d[bom]", "EOL-01", "error", case="bom"),
        test_event("suites/test_eol.py::d[lf]", "EOL-01", "pass", case="lf")), listed)
    assert [r.status for r in hung] == [Status.XFAIL, Status.ERROR, Status.XFAIL]
    unlisted_case = aggregate([CLAUSES["EOL-01"]], events(
        test_event("suites/test_eol.py::d[crlf]", "EOL-01", "error", case="crlf")), listed)
    assert unlisted_case[0].status is Status.ERROR
    nothing_listed = aggregate([CLAUSES["CANCEL-03"]], events(
        test_event("suites/test_cancel.py::next", "CANCEL-03", "error")), Expectations())
    assert nothing_listed[0].status is Status.ERROR


def test_a_baseline_lists_a_clause_whose_check_hung_but_not_a_harness_error() -> None:
    log = events(
        test_event("suites/test_cancel.py::next", "CANCEL-03", "error", evidence="no answer"),
        test_event("suites/test_edit.py::first", "EDIT-03", "harness-error"))
    results = aggregate([CLAUSES["CANCEL-03"], CLAUSES["EDIT-03"]], log, Expectations())
    entries = dict(baseline_entries(results))
    assert set(entries) == {"CANCEL-03"}
    assert "hangs or dies since" in entries["CANCEL-03"] and "no answer" in entries["CANCEL-03"]
