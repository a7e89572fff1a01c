"""A disguised draft's verdicts against the reference's: every clause whose status differs,
beyond what allowed.py allows for this disguise, is a divergence (a mistake of the kit's
drafting or judging)."""

from dataclasses import dataclass

from .allowed import allowances
from .dimensions import Disguise
from .judge import Verdict

MISSING = "missing"


@dataclass(frozen=True)
class Divergence:
    clause: str
    reference: str
    disguised: str
    evidence: str  # the disguised run's, from its conformance.json


def divergences(reference: dict[str, Verdict], disguised: dict[str, Verdict],
                disguise: Disguise) -> list[Divergence]:
    allowed = allowances(disguise)
    found = []
    for clause in sorted(set(reference) | set(disguised)):
        ours = reference.get(clause, Verdict(MISSING, ""))
        theirs = disguised.get(clause, Verdict(MISSING, ""))
        if theirs.status == ours.status or any(a.covers(clause, theirs.status) for a in allowed):
            continue
        found.append(Divergence(clause, ours.status, theirs.status, theirs.evidence))
    return found


def expected_of_mutant(reference: dict[str, Verdict], kills: tuple[str, ...]
                       ) -> dict[str, Verdict]:
    """What a disguised mutant must come to: the reference's verdicts, except that each clause it
    is caught by fails."""
    return {clause: Verdict("fail", "") if clause in kills else verdict
            for clause, verdict in reference.items()}
