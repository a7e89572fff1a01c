"""A GREEN means something of the contract was judged: a run whose every MUST clause that needs
one of the contract's tools is n/a (a draft that mapped none) is red, and says why."""

from runner_events import as_log, stream, test_event

from agentconf.contract import CANONICAL_TOOLS, CLAUSES, Level
from agentconf.harness.report import Expectations, aggregate, verdict_of

TOOL_MUSTS = [c for c in CLAUSES.values()
              if c.level is Level.MUST and set(c.requires) & set(CANONICAL_TOOLS)]
OTHER_MUSTS = [c for c in CLAUSES.values()
               if c.level is Level.MUST and not set(c.requires) & set(CANONICAL_TOOLS)]


def _verdict(tool_outcome: str):  # type: ignore[no-untyped-def]
    tests = [test_event(f"t::{c.id}", c.id, tool_outcome) for c in TOOL_MUSTS]
    tests += [test_event(f"t::{c.id}", c.id, "pass") for c in OTHER_MUSTS]
    log = as_log(stream(tests))
    clauses = [*TOOL_MUSTS, *OTHER_MUSTS]
    return verdict_of(aggregate(clauses, log.tests, Expectations()), log, whole=True)


def test_a_run_that_judged_none_of_the_tools_is_red_and_says_so() -> None:
    verdict = _verdict("n/a")
    assert not verdict.green
    assert any(reason.startswith("nothing of the contract's tools was judged")
               for reason in verdict.reasons), verdict.reasons


def test_a_run_that_judged_the_tools_is_green_when_they_pass() -> None:
    assert _verdict("pass").green


def test_a_selection_of_clauses_is_not_held_to_it() -> None:
    tests = [test_event(f"t::{c.id}", c.id, "n/a") for c in TOOL_MUSTS[:1]]
    log = as_log(stream(tests))
    assert verdict_of(aggregate(TOOL_MUSTS[:1], log.tests, Expectations()), log).green
