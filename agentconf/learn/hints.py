"""Hints chosen by what a failing check saw, never by the clause alone: each hint of the course
names its clause (or `*` for any), the words of the evidence it answers (`when`, a regular
expression), an `example` of that evidence from a real run (tests/learn/test_hints.py holds every
hint to firing on its own example and on no other hint's), and the gallery's mutant that makes
the same mistake, when there is one.
"""

import re
from dataclasses import dataclass
from typing import Any

ANY_CLAUSE = "*"


class HintError(ValueError):
    """A hint entry the course cannot use."""


@dataclass(frozen=True, slots=True)
class Hint:
    clause: str  # a clause id, or ANY_CLAUSE
    when: re.Pattern[str]
    text: str
    example: str
    mutant: str = ""

    def fires(self, clause_id: str, evidence: str) -> bool:
        return self.clause in (clause_id, ANY_CLAUSE) and self.when.search(evidence) is not None


def hint_from(table: dict[str, Any]) -> Hint:
    try:
        when = re.compile(str(table["when"]))
        return Hint(clause=str(table["clause"]), when=when, text=str(table["text"]),
                    example=str(table["example"]), mutant=str(table.get("mutant", "")))
    except KeyError as missing:
        raise HintError(f"a [[hint]] needs clause, when, text and example (missing {missing})"
                        ) from None
    except re.error as error:
        raise HintError(f"a [[hint]]'s `when` is not a regular expression: {error}") from None


def choose(hints: tuple[Hint, ...], clause_id: str, evidence: str) -> Hint | None:
    """The first hint of the clause whose words are in the evidence, else the first of any clause
    (a crash, an escape: the same mistake whatever check met it); None when none fits."""
    own = [hint for hint in hints if hint.clause == clause_id]
    shared = [hint for hint in hints if hint.clause == ANY_CLAUSE]
    return next((hint for hint in [*own, *shared] if hint.fires(clause_id, evidence)), None)
