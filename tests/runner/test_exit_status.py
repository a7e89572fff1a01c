"""When a run is green (exit 0) and when it is red (exit 1), from synthetic event streams."""

import io
import json
from pathlib import Path

import pytest
from runner_events import as_log, stream, test_event

from agentconf.contract import CLAUSES, Level
from agentconf.harness.report import Expectations, parse_expectations
from agentconf.harness.run.runner import RunOptions, finish
from agentconf.harness.target.spec import ImplSpec

MUST = "EDIT-01"
SHOULD = next(c.id for c in CLAUSES.values() if c.level is Level.SHOULD)
NOTHING_LISTED = Expectations()
SPEC = ImplSpec("python:fake_impl:create", "python", "fake_impl:create")


def run_finish(tmp_path: Path, records: list[dict], expectations: Expectations = NOTHING_LISTED,
               baseline: Path | None = None, pytest_status: int = 0) -> tuple[int, str, dict]:
    options = RunOptions(spec=SPEC, impl=SPEC.text, profile=None, report_dir=tmp_path / "report",
                         expectations=expectations, write_baseline=baseline)
    out = io.StringIO()
    clauses = [CLAUSES[MUST], CLAUSES[SHOULD]]
    code = finish(options, clauses, as_log(records), out, pytest_status)
    document = json.loads((tmp_path / "report" / "conformance.json").read_text())
    return code, out.getvalue(), document


def ok(clause: str, outcome: str = "pass", **extra: object) -> dict:
    return test_event(f"suites/test_x.py::{clause}_{outcome}", clause, outcome, **extra)


def test_every_must_passing_is_green(tmp_path: Path) -> None:
    code, out, document = run_finish(tmp_path, stream([ok(MUST), ok(SHOULD)]))
    assert code == 0 and document["verdict"]["green"]
    assert "GREEN" in out


def test_a_failing_must_clause_is_red_and_named(tmp_path: Path) -> None:
    code, out, document = run_finish(tmp_path, stream([ok(MUST, "fail"), ok(SHOULD)]))
    assert code == 1
    assert any(MUST in reason for reason in document["verdict"]["reasons"])
    assert "RED" in out and MUST in out


def test_an_erroring_must_clause_is_red(tmp_path: Path) -> None:
    code, _, _ = run_finish(tmp_path, stream([ok(MUST, "error"), ok(SHOULD)]))
    assert code == 1


def test_a_failing_should_clause_alone_stays_green(tmp_path: Path) -> None:
    code, _, document = run_finish(tmp_path, stream([ok(MUST), ok(SHOULD, "fail")]))
    assert code == 0
    assert document["summary"]["levels"]["SHOULD"]["fail"] == 1


def test_a_listed_failing_clause_becomes_xfail_and_the_run_green(tmp_path: Path) -> None:
    listed = parse_expectations({MUST: "known gap"}, "test")
    code, _, document = run_finish(tmp_path, stream([ok(MUST, "fail"), ok(SHOULD)]), listed)
    assert code == 0
    [record] = [c for c in document["clauses"] if c["id"] == MUST]
    assert record["status"] == "xfail"
    assert record["expected_failure"] == {MUST: "known gap"}


def test_an_unexpected_pass_of_a_listed_clause_makes_the_run_red(tmp_path: Path) -> None:
    listed = parse_expectations({SHOULD: "known gap"}, "test")
    code, out, document = run_finish(tmp_path, stream([ok(MUST), ok(SHOULD)]), listed)
    assert code == 1 and SHOULD in out
    assert "now pass" in " ".join(document["verdict"]["reasons"])


def test_fewer_executed_than_planned_is_red_and_says_so(tmp_path: Path) -> None:
    code, out, _ = run_finish(tmp_path, stream([ok(MUST), ok(SHOULD)], planned=5))
    assert code == 1
    assert "only 2 of 5 planned checks were executed" in out


def test_a_run_that_never_ended_is_red(tmp_path: Path) -> None:
    code, out, _ = run_finish(tmp_path, stream([ok(MUST), ok(SHOULD)], ended=False))
    assert code == 1 and "did not finish" in out


def test_a_harness_error_is_red_and_blamed_on_agentconf(tmp_path: Path) -> None:
    code, out, document = run_finish(
        tmp_path, stream([ok(MUST), ok(SHOULD), ok(SHOULD, "harness-error")])
    )
    assert code == 1
    assert "bug in agentconf" in out
    assert [t["outcome"] for t in document["harness_errors"]] == ["harness-error"]


@pytest.mark.parametrize("status", [2, 3, 4])
def test_a_pytest_collection_or_internal_error_is_red(tmp_path: Path, status: int) -> None:
    code, out, _ = run_finish(tmp_path, stream([ok(MUST), ok(SHOULD)]), pytest_status=status)
    assert code == 1 and f"status {status}" in out


def test_writing_a_baseline_records_todays_failures_and_turns_the_run_green(
    tmp_path: Path,
) -> None:
    baseline = tmp_path / "ci" / "expected-failures.toml"
    code, _, document = run_finish(tmp_path, stream([ok(MUST, "fail"), ok(SHOULD)]),
                                   baseline=baseline)
    assert code == 0
    text = baseline.read_text()
    assert text.startswith("#")
    assert f'"{MUST}" = ' in text and SHOULD not in text
    assert {c["id"]: c["status"] for c in document["clauses"]}[MUST] == "xfail"


def test_a_rewritten_baseline_drops_entries_that_now_pass(tmp_path: Path) -> None:
    baseline = tmp_path / "expected.toml"
    stale = parse_expectations({SHOULD: "was broken"}, "test")
    code, _, _ = run_finish(tmp_path, stream([ok(MUST), ok(SHOULD)]), stale, baseline=baseline)
    assert code == 0
    assert SHOULD not in baseline.read_text()
