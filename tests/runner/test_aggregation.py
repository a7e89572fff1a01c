"""Per-test outcomes become per-clause statuses by the rules of docs/ARCHITECTURE.md."""

import pytest
from runner_events import events

from agentconf.contract import CLAUSES
from agentconf.harness.report import Expectations, Status, aggregate, parse_expectations

EDIT = CLAUSES["EDIT-01"]
NONE = Expectations()


def status_of(*records: dict, expectations: Expectations = NONE) -> Status:
    [result] = aggregate([EDIT], events(*records), expectations)
    return result.status


def t(n: int, outcome: str, **extra: object) -> dict:
    from runner_events import test_event

    return test_event(f"suites/test_edit.py::test_{n}", "EDIT-01", outcome, **extra)


def test_a_clause_fails_when_any_of_its_tests_fails_even_if_others_pass_or_error() -> None:
    assert status_of(t(1, "pass"), t(2, "error"), t(3, "fail")) is Status.FAIL


def test_a_clause_with_an_error_and_no_failure_is_an_error() -> None:
    assert status_of(t(1, "pass"), t(2, "error"), t(3, "n/a")) is Status.ERROR


def test_a_harness_error_keeps_a_clause_from_passing() -> None:
    assert status_of(t(1, "pass"), t(2, "harness-error")) is Status.ERROR


def test_a_clause_passes_when_one_test_passes_and_the_rest_are_not_applicable() -> None:
    assert status_of(t(1, "n/a"), t(2, "pass")) is Status.PASS


def test_a_clause_whose_tests_are_all_not_applicable_is_not_applicable() -> None:
    assert status_of(t(1, "n/a"), t(2, "n/a")) is Status.NA


def test_a_clause_no_test_checks_is_not_applicable_and_says_why() -> None:
    [result] = aggregate([EDIT], [], NONE)
    assert result.status is Status.NA
    assert "no test" in result.evidence


def test_a_test_tagged_with_two_clauses_counts_for_both() -> None:
    from runner_events import test_event

    record = test_event("suites/test_edit.py::test_x", ["EDIT-01", "EDIT-02"], "fail")
    results = aggregate([EDIT, CLAUSES["EDIT-02"]], events(record), NONE)
    assert [r.status for r in results] == [Status.FAIL, Status.FAIL]


def test_clause_evidence_and_reproduce_come_from_the_failing_test() -> None:
    [result] = aggregate([EDIT], events(t(1, "pass"), t(2, "fail", evidence="boom",
                                                         reproduce="agentconf replay X")), NONE)
    assert "suites/test_edit.py::test_2" in result.evidence and "boom" in result.evidence
    assert result.reproduce == "agentconf replay X"


@pytest.mark.parametrize(("outcomes", "expected"), [
    (("fail",), Status.XFAIL),
    (("pass",), Status.XPASS),
    (("error",), Status.XFAIL),  # it hung or died: held as a failure is
    (("harness-error",), Status.ERROR),  # the kit's bug: never held
    (("n/a",), Status.NA),
])
def test_a_listed_clause_turns_fail_into_xfail_and_pass_into_xpass(
    outcomes: tuple[str, ...], expected: Status
) -> None:
    listed = parse_expectations({"EDIT-01": "known gap"}, "test")
    assert status_of(*(t(i, o) for i, o in enumerate(outcomes)), expectations=listed) is expected


def test_a_listed_category_lists_every_clause_of_it() -> None:
    listed = parse_expectations({"EDIT": "edits are not our focus"}, "test")
    [result] = aggregate([EDIT], events(t(1, "fail")), listed)
    assert result.status is Status.XFAIL
    assert result.expected == (("EDIT", "edits are not our focus"),)


def test_a_listed_case_that_fails_makes_the_clause_an_expected_failure() -> None:
    listed = parse_expectations({"EDIT-01::crlf": "known"}, "test")
    assert status_of(t(1, "pass", case="lf"), t(2, "fail", case="crlf"),
                     expectations=listed) is Status.XFAIL


def test_an_unlisted_case_failing_beside_a_listed_one_is_still_a_failure() -> None:
    listed = parse_expectations({"EDIT-01::crlf": "known"}, "test")
    assert status_of(t(1, "fail", case="lf"), t(2, "fail", case="crlf"),
                     expectations=listed) is Status.FAIL


def test_a_listed_case_that_passes_is_an_unexpected_pass() -> None:
    listed = parse_expectations({"EDIT-01::crlf": "known"}, "test")
    assert status_of(t(1, "pass", case="lf"), t(2, "pass", case="crlf"),
                     expectations=listed) is Status.XPASS


def test_a_failing_property_test_without_a_case_is_not_covered_by_a_case_listing() -> None:
    listed = parse_expectations({"EDIT-01::crlf": "known"}, "test")
    assert status_of(t(1, "fail"), expectations=listed) is Status.FAIL
