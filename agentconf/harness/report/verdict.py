"""Whether a run is green, and why not: the exit status of `agentconf run`.

Green (0) only when every MUST clause passes, is n/a, or is an expected failure, and, in a whole
run, not every one that needs a tool of the contract is n/a. Red (1) when a MUST clause fails or
errors, when a whole run judged none of the contract's tools, when an expected failure passes
(a stale baseline, DESIGN.md "Lessons"), when fewer checks ran than were planned (MCP
conformance #451), when a message differs from its recorded snapshot (apart from the clauses:
wording, not conformance), or when agentconf broke.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from agentconf.contract import CANONICAL_TOOLS, Level

from .aggregate import ClauseResult, Status
from .events import EventLog, TestEvent

EXIT_GREEN = 0
EXIT_RED = 1


@dataclass(frozen=True, slots=True)
class Verdict:
    exit_code: int
    reasons: tuple[str, ...]

    @property
    def green(self) -> bool:
        return self.exit_code == EXIT_GREEN


def _ids(results: Sequence[ClauseResult]) -> str:
    return ", ".join(result.clause.id for result in results)


def verdict_of(
    results: Sequence[ClauseResult], log: EventLog, pytest_status: int | None = None,
    whole: bool = False,
) -> Verdict:
    """`pytest_status` is the child's exit status: 0 and 1 (some test failed) are normal runs,
    anything else (collection error, usage error, internal error) means the run is not whole."""
    musts = [r for r in results if r.clause.level is Level.MUST]
    reasons = []
    failed = [r for r in musts if r.status is Status.FAIL]
    if failed:
        reasons.append(f"{len(failed)} MUST clause(s) fail: {_ids(failed)}")
    # A whole run that judged none of the contract's tools says nothing about them: never
    # green. (A selection of clauses the implementation cannot be judged on is the user's ask.)
    tools = [r for r in musts if set(r.clause.requires) & set(CANONICAL_TOOLS)]
    if whole and tools and all(r.status is Status.NA for r in tools):
        reasons.append(
            f"nothing of the contract's tools was judged: all {len(tools)} MUST clause(s) that "
            "need one of them are n/a (the profile maps none, or their premises are unproven: "
            "see the n/a reasons and agentconf.toml's [tools] tables)")
    errored = [r for r in musts if r.status is Status.ERROR]
    if errored:
        reasons.append(
            f"{len(errored)} MUST clause(s) could not be checked (error): {_ids(errored)}"
        )
    stale = [r for r in results if r.status is Status.XPASS]
    if stale:
        reasons.append(
            f"{len(stale)} expected failure(s) now pass: {_ids(stale)}; remove them from the "
            "expected failures (or rewrite the file with --write-baseline)"
        )
    if pytest_status not in (None, 0, 1):
        reasons.append(
            f"pytest exited with status {pytest_status} (a collection, usage or internal error): "
            "the run is incomplete; see pytest.log in the report folder"
        )
    if log.end is None:
        reasons.append("the run did not finish (no run_end event)")
    if log.executed < log.planned:
        reasons.append(f"only {log.executed} of {log.planned} planned checks were executed")
    changed = [t for t in log.tests if t.outcome == "message-changed"]
    if changed:
        # Snapshots were asked for (the reference ships its own): a changed message is a
        # regression to review, reported apart from the clauses, with the command that accepts it.
        missing = sum(t.evidence.startswith("message not recorded") for t in changed)
        what = f"{len(changed) - missing} changed" + (f", {missing} not recorded" if missing
                                                        else "")
        command = _snapshot_command(changed)
        reasons.append(f"{len(changed)} message(s) differ from their snapshots ({what}): see "
                       f"the messages section; to accept them: {command}")
    harness = [t for t in log.tests if t.outcome == "harness-error"]
    if harness:
        reasons.append(
            f"{len(harness)} check(s) hit a harness error: this is a bug in agentconf, "
            "please report it with the report's harness-error section"
        )
    return Verdict(EXIT_RED if reasons else EXIT_GREEN, tuple(reasons))


def _snapshot_command(changed: Sequence[TestEvent]) -> str:
    """The command the messages' evidence gives (it knows the implementation and the folder):
    `update` when a recorded message changed (it writes the missing ones too), else `record`."""
    lines = [line for test in changed for line in test.evidence.splitlines()]
    for prefix in ("accept the new wording: ", "record it: "):
        for line in lines:
            if line.startswith(prefix):
                return line.removeprefix(prefix)
    return "agentconf snapshots update"
