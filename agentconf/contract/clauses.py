"""The clause catalogue: what an implementation must, should or may do, as data."""

from dataclasses import dataclass
from enum import StrEnum

from ._data import load
from .capabilities import CAPABILITIES


class Level(StrEnum):
    MUST = "MUST"
    SHOULD = "SHOULD"
    MAY = "MAY"


@dataclass(frozen=True, slots=True)
class Clause:
    id: str
    level: Level
    category: str
    requirement: str
    rationale: str
    source: str  # a key of SOURCES
    requires: tuple[str, ...]
    retired: str | None = None
    # It says how a failing input is answered: a crash in its check is its own departure.
    prescribes_failure: bool = False
    # Not a CONFINE or SYMLINK clause, yet its check judges the disk outside the root itself:
    # an escape in its check is its own departure, not CONFINE-14's.
    judges_confinement: bool = False
    # Its checks judge whether a failure's code can be read at all (RESULT-02): every other
    # clause judges a refusal by its behaviour, and its code only where one is read.
    judges_codes: bool = False


CATEGORIES: tuple[str, ...] = (
    "RESULT", "REGISTRY", "VALIDATE", "CONFINE", "SYMLINK", "EOL", "EDIT",
    "TRUNCATE", "SHELL", "GREP", "CONCUR", "READ", "LIST", "ANNOTATION", "PATCH", "SURFACE",
    "PERMISSION", "CANCEL",
)


def _load() -> dict[str, Clause]:
    catalogue: dict[str, Clause] = {}
    for entry in load("clauses.toml")["clause"]:
        clause = Clause(
            id=entry["id"],
            level=Level(entry["level"]),
            category=entry["category"],
            requirement=entry["requirement"],
            rationale=entry["rationale"],
            source=entry["source"],
            requires=tuple(entry.get("requires", ())),
            retired=entry.get("retired"),
            prescribes_failure=bool(entry.get("prescribes_failure", False)),
            judges_confinement=bool(entry.get("judges_confinement", False)),
            judges_codes=bool(entry.get("judges_codes", False)),
        )
        if clause.id in catalogue:
            raise ValueError(f"clause id {clause.id} appears twice in clauses.toml")
        if clause.category not in CATEGORIES or not clause.id.startswith(clause.category + "-"):
            raise ValueError(f"clause {clause.id} has category {clause.category!r}")
        unknown = [name for name in clause.requires if name not in CAPABILITIES]
        if unknown:
            raise ValueError(f"clause {clause.id} requires unknown capabilities {unknown}")
        catalogue[clause.id] = clause
    return catalogue


CLAUSES: dict[str, Clause] = _load()


def active_clauses() -> list[Clause]:
    return [clause for clause in CLAUSES.values() if clause.retired is None]
