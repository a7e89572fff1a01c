"""The contract's categories: one folder each under suites/, holding everything about its clauses.

`suites/<category>/` holds the category's clauses as data (`clauses.toml`), its checks
(`test_*.py`), its golden cases (`cases.json`), its mutants (`mutants.py`) and its course notes
(`course.toml`). A folder with a `clauses.toml` is a category: its `[category]` table names it
(`id`, the folder's name in capitals) and says where it stands in reports, docs and the course
(`order`, ascending; leave gaps, so a new category goes between two without renumbering them).
Adding a category is adding its folder; the changelog says which version added it.
"""

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .shipped import suites_dir

CLAUSES_FILE = "clauses.toml"
CASES_FILE = "cases.json"
MUTANTS_FILE = "mutants.py"
COURSE_FILE = "course.toml"


@dataclass(frozen=True, slots=True)
class Category:
    id: str  # EDIT
    order: int
    folder: Path  # suites/edit

    @property
    def clauses_file(self) -> Path:
        return self.folder / CLAUSES_FILE

    @property
    def cases_file(self) -> Path:
        return self.folder / CASES_FILE

    @property
    def mutants_file(self) -> Path:
        return self.folder / MUTANTS_FILE

    @property
    def course_file(self) -> Path:
        return self.folder / COURSE_FILE


@cache
def read_clauses_file(path: Path) -> dict[str, Any]:
    """A category's clauses.toml, parsed once."""
    try:
        return tomllib.loads(path.read_text("utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{path} is not valid TOML: {error}") from None


def _category(path: Path) -> Category:
    table = read_clauses_file(path).get("category")
    folder = path.parent
    if not isinstance(table, dict) or not isinstance(table.get("id"), str) \
            or not isinstance(table.get("order"), int):
        raise ValueError(f"{path} needs a [category] table with an id (text) and an order "
                         "(a number)")
    if table["id"] != folder.name.upper():
        raise ValueError(f"{path}: [category] id {table['id']!r} is not its folder's name "
                         f"in capitals ({folder.name.upper()!r})")
    return Category(table["id"], table["order"], folder)


@cache
def categories(suites: Path | None = None) -> tuple[Category, ...]:
    """Every category folder of the suites (the shipped ones by default), in their order."""
    found = [_category(path) for path in sorted((suites or suites_dir()).glob(f"*/{CLAUSES_FILE}"))]
    orders: dict[int, str] = {}
    for category in found:
        if category.order in orders:
            raise ValueError(f"categories {orders[category.order]} and {category.id} both have "
                             f"order {category.order}")
        orders[category.order] = category.id
    return tuple(sorted(found, key=lambda category: category.order))
