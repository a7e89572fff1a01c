"""From per-test outcomes to per-clause statuses (docs/ARCHITECTURE.md, "Outcomes").

A clause is `fail` if any of its tests failed, else `error` if any errored, else `pass` if any
passed, else `n/a`. A harness-error (our bug) counts as an error here: no clause is reported as
passing while one of its checks could not conclude; the run lists those tests apart as well.
Expected failures then turn `fail` into `xfail` and `pass` into `xpass` (a stale baseline), but for
a race (a reason starting "race:"), whose pass stays `pass` with its entry kept beside it (the
matrix shows the race, and a rewritten baseline keeps it). A listed clause whose errors are all
the implementation's (it hung or died: reproduced outside the kit like a failure) is `xfail` too:
it does not hold either way. A harness-error, the kit's own, is never held by a baseline.
A check whose message differs from its snapshot (`message-changed`) counts for no clause.
"""

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum

from agentconf.contract import Clause

from .events import Outcome, TestEvent
from .expectations import CASE_SEPARATOR, Expectations


class Status(StrEnum):
    """A clause's verdict in a run: its checks' outcomes read against the expected failures."""

    PASS = "pass"
    FAIL = "fail"
    XFAIL = "xfail"
    XPASS = "xpass"
    NA = "n/a"
    ERROR = "error"


STATUSES: tuple[Status, ...] = tuple(Status)
MAX_EVIDENCE_TESTS = 3


@dataclass(frozen=True, slots=True)
class ClauseResult:
    clause: Clause
    status: Status
    tests: tuple[TestEvent, ...]
    # The expected-failures keys that applied, with their reasons.
    expected: tuple[tuple[str, str], ...] = ()

    @property
    def failing_tests(self) -> tuple[TestEvent, ...]:
        failed = self.status in (Status.FAIL, Status.XFAIL)
        bad = ("fail",) if failed else ("error", "harness-error")
        found = tuple(test for test in self.tests if test.outcome in bad)
        if not found and self.status is Status.XFAIL:  # a listed hang: its errors are the news
            return tuple(test for test in self.tests if test.outcome == "error")
        return found

    @property
    def evidence(self) -> str:
        if self.status in (Status.PASS, Status.XPASS):
            return ""
        if not self.tests:
            return "no test in the suites checks this clause"
        shown = self.failing_tests or self.tests
        parts = [f"{test.nodeid}\n{test.evidence}".rstrip() for test in shown[:MAX_EVIDENCE_TESTS]]
        if len(shown) > MAX_EVIDENCE_TESTS:
            parts.append(f"... and {len(shown) - MAX_EVIDENCE_TESTS} more failing test(s)")
        return "\n\n".join(parts)

    @property
    def reproduce(self) -> str:
        for test in self.failing_tests:
            if test.reproduce:
                return test.reproduce
        return ""


# An expected failure whose reason starts so is a real race the check catches in some runs only
# (a torn read, a cancel landing mid-write): a run that misses it passes the clause, and is not
# the stale entry an unexpected pass otherwise is. Reproduced outside the kit like any other.
RACE_PREFIX = "race:"


def is_race(reason: str) -> bool:
    return reason.lstrip().lower().startswith(RACE_PREFIX)


def _raw_status(tests: Iterable[TestEvent]) -> Status:
    outcomes = {test.outcome for test in tests}
    if "fail" in outcomes:
        return Status.FAIL
    if outcomes & {"error", "harness-error"}:
        return Status.ERROR
    if "pass" in outcomes:
        return Status.PASS
    return Status.NA


def hung_or_died(status: Status, tests: Iterable[TestEvent]) -> bool:
    """An error status the implementation alone made: every erring check hung or died, none by a
    bug of the kit's (a harness-error is never held by a baseline nor written into one)."""
    return status is Status.ERROR and all(test.outcome != "harness-error" for test in tests)


def _apply_expectations(
    clause_id: str, status: Status, tests: tuple[TestEvent, ...], expectations: Expectations
) -> tuple[Status, tuple[tuple[str, str], ...]]:
    if clause_id in expectations.clauses:
        key = (expectations.clauses[clause_id],)
        if status is Status.PASS and is_race(key[0][1]):
            return status, key  # a race the check missed this time: no news, not a stale entry
        if hung_or_died(status, tests):
            return Status.XFAIL, key
        return {Status.FAIL: Status.XFAIL, Status.PASS: Status.XPASS}.get(status, status), key
    listed = expectations.cases_of(clause_id)
    if not listed:
        return status, ()

    def keyed(cases: Iterable[str]) -> tuple[tuple[str, str], ...]:
        return tuple((f"{clause_id}{CASE_SEPARATOR}{c}", listed[c]) for c in sorted(set(cases)))

    if status is Status.FAIL:
        failing = [test for test in tests if test.outcome == "fail"]
        # Green only when every failure is a listed case: an unlisted one is a new regression.
        if all(test.case in listed for test in failing):
            return Status.XFAIL, keyed(test.case for test in failing if test.case)
        return status, ()
    if hung_or_died(status, tests):
        erring = [test for test in tests if test.outcome == "error"]
        if all(test.case in listed for test in erring):
            return Status.XFAIL, keyed(test.case for test in erring if test.case)
        return status, ()
    if status is Status.PASS:
        passed = [t.case for t in tests if t.outcome == "pass" and t.case in listed]
        if passed:
            return Status.XPASS, keyed(c for c in passed if c)
    return status, ()


def _not_judged(test: TestEvent) -> TestEvent:
    return replace(
        test, clauses=(test.found_while or "",), outcome=Outcome.NA, found_while=None,
        evidence=f"n/a: not judged by this check, which stopped at a finding charged to "
                 f"{', '.join(test.clauses)}:\n{test.evidence}",
    )


def aggregate(
    clauses: Iterable[Clause], tests: Iterable[TestEvent], expectations: Expectations
) -> list[ClauseResult]:
    """One result per clause given, in the order given; tests of other clauses are ignored."""
    by_clause: dict[str, list[TestEvent]] = {}
    for test in tests:
        if test.outcome is Outcome.MESSAGE_CHANGED:
            continue  # wording, not conformance: the report's message section has it
        for clause_id in test.clauses:
            by_clause.setdefault(clause_id, []).append(test)
        if test.found_while is not None:
            # The check's own clause was not judged by it: n/a there, never a cascade.
            by_clause.setdefault(test.found_while, []).append(_not_judged(test))
    results = []
    for clause in clauses:
        own = tuple(by_clause.get(clause.id, ()))
        status, expected = _apply_expectations(clause.id, _raw_status(own), own, expectations)
        results.append(ClauseResult(clause, status, own, expected))
    return results
