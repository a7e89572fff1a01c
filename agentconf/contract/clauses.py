"""The clause catalogue: what an implementation must, should or may do, as data.

Each category's clauses live in its folder's `clauses.toml` (`suites/<category>/`, categories.py),
one `[[clause]]` table each. Ids are stable: never reuse or renumber one; retire it with
`retired = "reason"` instead. The keys:

- `id` (`EDIT-03`: the category, a number), `level` (MUST, SHOULD or MAY), `requirement` (one
  sentence), `rationale` (why), `source` (the project whose design it comes from: sources.py),
  `requires` (capability names from data/capabilities.toml).
- `prescribes_failure = true`: the clause says how a failing input is answered (an error code, a
  failure envelope), so a crash in one of its checks is its own departure; elsewhere a crash is
  charged to RESULT-04 alone.
- `judges_confinement = true`: not a CONFINE or SYMLINK clause, yet its check judges the disk
  outside the root itself.
- `judges_codes = true`: its checks judge whether a failure's code is read at all (RESULT-02);
  every other clause judges a refusal by its behaviour, and its code only where one is read.
"""

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from .capabilities import CAPABILITIES
from .categories import categories, read_clauses_file


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


# In the order reports, docs and the course show them (each folder's [category] order).
CATEGORIES: tuple[str, ...] = tuple(category.id for category in categories())


def _clause(entry: dict[str, Any], category: str, where: Path) -> Clause:
    clause = Clause(
        id=entry["id"],
        level=Level(entry["level"]),
        category=category,
        requirement=entry["requirement"],
        rationale=entry["rationale"],
        source=entry["source"],
        requires=tuple(entry.get("requires", ())),
        retired=entry.get("retired"),
        prescribes_failure=bool(entry.get("prescribes_failure", False)),
        judges_confinement=bool(entry.get("judges_confinement", False)),
        judges_codes=bool(entry.get("judges_codes", False)),
    )
    if not clause.id.startswith(category + "-") or entry.get("category", category) != category:
        raise ValueError(f"clause {clause.id} in {where} is not a {category} clause")
    unknown = [name for name in clause.requires if name not in CAPABILITIES]
    if unknown:
        raise ValueError(f"clause {clause.id} requires unknown capabilities {unknown}")
    return clause


def _load() -> dict[str, Clause]:
    """Every category's clauses, category by category in their order, each file in its order."""
    catalogue: dict[str, Clause] = {}
    for category in categories():
        for entry in read_clauses_file(category.clauses_file).get("clause", []):
            clause = _clause(entry, category.id, category.clauses_file)
            if clause.id in catalogue:
                raise ValueError(f"clause id {clause.id} appears twice")
            catalogue[clause.id] = clause
    return catalogue


CLAUSES: dict[str, Clause] = _load()


def active_clauses() -> list[Clause]:
    return [clause for clause in CLAUSES.values() if clause.retired is None]
