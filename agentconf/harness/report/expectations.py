"""Expected failures: the strict known-failures file (MCP conformance `--expected-failures`,
toml-test `-skip-must-err`, WPT expectations, DESIGN.md "Lessons").

Keys are `"CLAUSE-ID"` (the whole clause is known to fail) or `"CLAUSE-ID::case-id"` (one data case
of it is); values are the reason. A key naming no clause of the catalogue is an error, so a typo
cannot silently keep a CI green.
"""

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from agentconf.contract import CATEGORIES, CLAUSES

CASE_SEPARATOR = "::"


class ExpectationsError(ValueError):
    """An expected-failures file or table that cannot be used: one line for the user."""


@dataclass(frozen=True, slots=True)
class Expectations:
    # clause id -> (the key that listed it: the id itself or its category, reason)
    clauses: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    # (clause id, case id) -> reason
    cases: Mapping[tuple[str, str], str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.clauses or self.cases)

    def merged(self, other: "Expectations") -> "Expectations":
        # The later source (the command line's file) wins on a shared key: it is the more specific.
        return Expectations({**self.clauses, **other.clauses}, {**self.cases, **other.cases})

    def cases_of(self, clause_id: str) -> dict[str, str]:
        return {case: reason for (cid, case), reason in self.cases.items() if cid == clause_id}


def check_key(key: str) -> str:
    """An expected-failures key, in a profile or a baseline file alike: a clause id, a category,
    or `CLAUSE-ID::case-id`. ValueError, with the closest ids, when it names no clause."""
    clause_id, _, case = key.partition(CASE_SEPARATOR)
    if clause_id in CATEGORIES and not case:
        return key
    if clause_id not in CLAUSES:
        raise ValueError(f"unknown clause id {clause_id!r}{_suggest(clause_id)}")
    return key


def parse_expectations(table: Mapping[str, object], source: str) -> Expectations:
    """Keys as in a profile's [expected_failures]: a clause id, `CLAUSE-ID::case-id`, or a whole
    category (`SHELL`), which lists every clause of it."""
    clauses: dict[str, tuple[str, str]] = {}
    cases: dict[tuple[str, str], str] = {}
    for key, reason in table.items():
        if not isinstance(reason, str) or not reason.strip():
            raise ExpectationsError(f"{source}: {key!r} needs a reason string as its value")
        try:
            check_key(key)
        except ValueError as error:
            raise ExpectationsError(f"{source}: {error}") from None
        clause_id, _, case = key.partition(CASE_SEPARATOR)
        if clause_id in CATEGORIES and not case:
            for clause in CLAUSES.values():
                if clause.category == clause_id:
                    clauses.setdefault(clause.id, (key, reason))
            continue
        if case:
            cases[(clause_id, case)] = reason
        else:
            clauses[clause_id] = (key, reason)
    return Expectations(clauses, cases)


def load_expectations(path: Path) -> Expectations:
    try:
        table = tomllib.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        raise ExpectationsError(f"expected-failures file {path} does not exist") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ExpectationsError(f"cannot read expected-failures file {path}: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ExpectationsError(f"{path} is not valid TOML: {error}") from None
    # Accept the profile's spelling too, so a baseline can be pasted in either place.
    if set(table) == {"expected_failures"} and isinstance(table["expected_failures"], dict):
        table = table["expected_failures"]
    return parse_expectations(table, str(path))


def close_clause_ids(text: str, extra: Iterable[str] = ()) -> list[str]:
    """Catalogue ids (and `extra` names) a mistyped id probably meant: EDIT-3 -> EDIT-03."""
    from difflib import get_close_matches

    key = text.strip().upper()
    category, _, number = key.rpartition("-")
    padded = f"{category}-{number.zfill(2)}" if number.isdigit() else ""
    names = [*CLAUSES, *extra]
    close = [padded] if padded in CLAUSES else []
    close += get_close_matches(key, names, n=3, cutoff=0.6)
    return list(dict.fromkeys(close))[:3]


def _suggest(clause_id: str) -> str:
    close = close_clause_ids(clause_id, CATEGORIES)
    return f" (did you mean {', '.join(close)}?)" if close else ""


def render_baseline(entries: Iterable[tuple[str, str]], header: str) -> str:
    """A TOML expected-failures file: a comment header, then one `"KEY" = "reason"` per line."""
    import json

    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    # TOML basic strings share JSON's escapes for everything a reason may contain.
    lines += [f"{json.dumps(key)} = {json.dumps(reason)}" for key, reason in sorted(entries)]
    return "\n".join(lines) + "\n"
