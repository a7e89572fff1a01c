"""Where a disguised draft may get another status than the reference: the clauses whose
information a disguise removed, and what every raw draft over MCP cannot know. Kept small and
each entry justified; anything else that differs is a divergence, a mistake of the kit.

An allowance names the statuses a clause may come to instead of the reference's, never "any":
information removed makes a clause n/a (a capability the draft cannot see) or, for codes,
fails RESULT-02 alone.
"""

from dataclasses import dataclass

from .dimensions import Disguise


@dataclass(frozen=True)
class Allowance:
    clauses: tuple[str, ...]  # clause ids, or whole categories (`SURFACE`)
    becomes: tuple[str, ...]  # the statuses it may come to instead of the reference's
    why: str

    def covers(self, clause: str, status: str) -> bool:
        named = clause in self.clauses or clause.split("-")[0] in self.clauses
        return named and status in self.becomes


# Every raw draft of a server over MCP, the identity disguise too.
EVERY_DRAFT = (
    Allowance(("RESULT-09",), ("pass",),
              "stdout carrying protocol messages only is judged over stdio; the reference in "
              "process is n/a there"),
    Allowance(("SURFACE", "PERMISSION", "EXEC-07"), ("n/a",),
              "how to start a server read-only, with deny rules or with an allow-list of "
              "programs ([modes]) is in no listing and no answer: a draft cannot learn it"),
)
# Information a disguise removes -> the clauses that stand on it.
REMOVED: dict[str, tuple[Allowance, ...]] = {
    "codes": (Allowance(("RESULT-02",), ("fail",),
                        "no code in any answer: the refusals' codes cannot be read"),),
    "extras": (Allowance(("VALIDATE-04", "VALIDATE-05", "VALIDATE-06", "VALIDATE-07",
                          "VALIDATE-10", "VALIDATE-11", "RESULT-05", "EDIT-10"), ("n/a",),
                         "no structured content: no issues[], summary or diff to judge"),),
    "programs": (Allowance(("SHELL",), ("n/a",),
                           "the shell refuses programs outside its allow-list: checks that "
                           "need one are n/a"),),
}


def removed(disguise: Disguise) -> tuple[str, ...]:
    """The information `disguise` removes (keys of REMOVED)."""
    gone = []
    if disguise.codes == "absent":
        gone.append("codes")
    if disguise.text_only:
        gone.append("extras")
    if disguise.shell_gate is not None:
        gone.append("programs")
    return tuple(gone)


def allowances(disguise: Disguise) -> tuple[Allowance, ...]:
    return EVERY_DRAFT + tuple(entry for name in removed(disguise) for entry in REMOVED[name])
