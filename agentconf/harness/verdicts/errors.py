"""How a check can end other than by passing: each exception maps to one outcome.

A `Finding` is a departure the harness itself notices on any call (an escape on the disk, an answer
that is not an envelope, a crash instead of an answer), whatever the check was about. It belongs to
its own clause: a check of another clause that runs into it does not fail for it, the finding is
charged to `clause` instead (docs/ARCHITECTURE.md, "One clause per check").
"""

from typing import Any, NoReturn

from _pytest.outcomes import Skipped  # pytest.skip.Exception, by a name a type checker follows

from agentconf.contract import CLAUSES


class ImplementationFailure(Exception):
    """The implementation hung, died or could not start: outcome `error`."""


class Finding(AssertionError):
    """A departure the harness found by itself: outcome `fail`, charged to `clause` unless the
    check's own clause is one of `owners` (clause ids or whole categories) or carries the
    contract's `owning_flag` (a clause whose requirement covers this departure for its input)."""

    clause = "RESULT-01"
    owners: tuple[str, ...] = ("RESULT-01",)
    owning_flag: str | None = None

    def __init__(self, message: str, *, clause: str | None = None,
                 owners: tuple[str, ...] | None = None, owning_flag: str | None = None) -> None:
        super().__init__(message)
        if clause is not None:
            self.clause = clause
        if owners is not None:
            self.owners = owners
        if owning_flag is not None:
            self.owning_flag = owning_flag

    def charged_to(self, own: list[str]) -> str | None:
        """The clause to charge instead of the check's `own`, or None to keep them."""
        if not own:
            return self.clause  # a check of no clause (a message snapshot): the finding's own
        return None if any(self._owned_by(cid) for cid in own) else self.clause

    def _owned_by(self, cid: str) -> bool:
        if cid == self.clause or cid in self.owners or cid.split("-")[0] in self.owners:
            return True
        clause = CLAUSES.get(cid)
        return bool(clause and self.owning_flag and getattr(clause, self.owning_flag))


class ContractViolation(Finding):
    """The implementation answered, but not with a valid envelope or listing (RESULT-01 unless
    said otherwise; a crash instead of an answer is RESULT-04)."""


class EscapeDetected(Finding):
    """The disk outside the root changed, or a canary's secret came back. Every check watches the
    disk; one that is not about confinement charges what it saw to CONFINE-14 ("no sequence of
    calls ... changes anything outside the root")."""

    clause = "CONFINE-14"
    owners = ("CONFINE", "SYMLINK")
    owning_flag = "judges_confinement"  # PATCH-03: a patch's paths are confined like a write's


# A crash, a protocol error or an exception where an envelope was owed (RESULT-04); REGISTRY-04
# checks the same of an unknown tool's name.
# A clause that prescribes how a failing input is answered owns a crash on that input.
CRASH: dict[str, Any] = {"clause": "RESULT-04", "owners": ("RESULT-04", "REGISTRY-04"),
                         "owning_flag": "prescribes_failure"}
# A listing or schema of the wrong shape.
LISTING: dict[str, Any] = {"clause": "REGISTRY-01", "owners": ("REGISTRY",)}


class CancelUnsupported(Exception):
    """The implementation offers no way to cancel a running call: the CANCEL checks are n/a."""


class NotApplicable(Skipped):
    """The check cannot be judged on this implementation (a capability it lacks or switched off,
    a shell that does not allow a program the check needs): outcome `n/a` with this reason,
    never a failure. n/a is this type, not a string: raise it (or call `not_applicable`) in a
    test, a fixture or a hypothesis test alike. It is pytest's skip (`pytest.skip.Exception`)
    underneath, so pytest and hypothesis let it through wherever it is raised; its message
    keeps the `n/a:` prefix that reports have always shown."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"{NA_PREFIX}{reason}")
        self.reason = reason


NA_PREFIX = "n/a: "
NOT_JUDGED = "not judged: "


def not_judged(tool: str, why: str) -> str:
    """The n/a reason of a check standing on a premise the draft could not prove."""
    return f"{NOT_JUDGED}{tool}: {why} ([unproven.{tool}])"


def not_applicable(reason: str) -> NoReturn:
    """End the check as n/a with `reason` (what the implementation lacks, and why)."""
    raise NotApplicable(reason)


# Reasons the running check is not judged unless it fails on what it could judge. A process runs
# one check at a time (pytest and each xdist worker alike), so one list serves.
_UNLESS_FAILED: list[str] = []


def not_judged_unless_failed(reason: str) -> None:
    """A premise of this check is unproven (a refusal the profile cannot read as one): the check
    goes on judging what stands without it (the disk, the rest of the answer), and ends n/a with
    `reason` where it would have passed (harness/plugin.py `pytest_runtest_call`)."""
    _UNLESS_FAILED.append(reason)


def take_not_judged() -> str | None:
    """The first reason the check that just ran recorded, forgetting them all."""
    return _first_of(_UNLESS_FAILED)


_IN_PART: list[str] = []


def judged_in_part(reason: str) -> None:
    """This check judged some of what it names and not the rest (each tool it drives, say, where
    one could not be driven): a pass is a pass on what was judged, and says so — its evidence
    reads "judged in part: <reason>" and the report lists the clause under "Judged in part".
    A failure on what was judged stays a failure."""
    _IN_PART.append(reason)


def take_judged_in_part() -> str | None:
    return _first_of(_IN_PART)


def _first_of(reasons: list[str]) -> str | None:
    reason = reasons[0] if reasons else None
    reasons.clear()
    return reason


class MessageChanged(AssertionError):
    """A message differs from its recorded snapshot, or has none: outcome `message-changed`.

    Not a departure from any clause (the wording of a message is the implementation's to choose),
    so it is reported in a section of its own with the diff, and never fails the clause of the
    scenario that produced the message."""

    def __init__(self, message: str, *, missing: bool = False) -> None:
        super().__init__(message)
        self.missing = missing


class ExcludedToolCall(Exception):
    """A suite tried to call a tool the profile's exclude_tools forbids: the kit's own bug, never
    sent (outcome `harness-error`)."""
