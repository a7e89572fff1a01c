"""`agentconf compare`: several conformance.json files side by side, clause x implementation, the
way bowtie.report shows validators against the JSON Schema suite."""

import json
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

import jsonschema

from agentconf.contract import CLAUSES

from .document import validate_document
from .html import STYLE
from .summary_tables import implementation_title, markdown_table, must_score

ABSENT = "—"


class CompareError(ValueError):
    """A file that is not a conformance report: one line for the user."""


def load_document(path: Path) -> dict[str, Any]:
    try:
        document = json.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        raise CompareError(f"{path} does not exist") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise CompareError(f"{path} is not a readable JSON file: {error}") from None
    try:
        validate_document(document)
    except jsonschema.ValidationError as error:
        where = "/".join(map(str, error.absolute_path)) or "top level"
        message = f"{path} is not a conformance report ({where}: {error.message})"
        raise CompareError(message) from None
    return document


def _column_names(documents: Sequence[dict[str, Any]]) -> list[str]:
    names = [implementation_title(d) for d in documents]
    # Two runs of one implementation (say two versions or profiles) must stay distinguishable.
    return [f"{n} #{i + 1}" if names.count(n) > 1 else n for i, n in enumerate(names)]


def compare_matrix(documents: Sequence[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """Header and rows: one row per clause found in any report, catalogue order first."""
    statuses = [{c["id"]: c["status"] for c in d["clauses"]} for d in documents]
    levels = {c["id"]: c["level"] for d in documents for c in d["clauses"]}
    order = [cid for cid in CLAUSES if cid in levels]
    order += sorted(set(levels) - set(order))  # from a newer catalogue than ours
    header = ["clause", "level", *_column_names(documents)]
    rows = [[cid, levels[cid], *(s.get(cid, ABSENT) for s in statuses)] for cid in order]
    score = [f"{p}/{a}" for p, a in map(must_score, documents)]
    rows.append(["MUST passing", "", *score])
    return header, rows


# A clause that passed (or was an expected failure, or n/a) and now fails or errs.
_GOOD = frozenset({"pass", "xfail", "n/a"})
_BAD = frozenset({"fail", "error", "xpass"})


def regressions(documents: Sequence[dict[str, Any]]) -> list[str]:
    """Clause ids good in the first report and bad in the last (`compare OLD NEW`)."""
    if len(documents) < 2:
        return []
    first = {c["id"]: c["status"] for c in documents[0]["clauses"]}
    last = {c["id"]: c["status"] for c in documents[-1]["clauses"]}
    return [cid for cid in CLAUSES if first.get(cid) in _GOOD and last.get(cid) in _BAD]


def changed_only(header: list[str], rows: list[list[str]]) -> list[list[str]]:
    """The clause rows whose status differs between the reports (the score row is kept)."""
    return [row for row in rows[:-1] if len(set(row[2:])) > 1] + rows[-1:]


def render_compare_markdown(documents: Sequence[dict[str, Any]], changed: bool = False) -> str:
    header, rows = compare_matrix(documents)
    if changed:
        rows = changed_only(header, rows)
    return "# agentconf comparison\n\n" + markdown_table(header, rows) + "\n"


def render_compare_html(documents: Sequence[dict[str, Any]]) -> str:
    header, rows = compare_matrix(documents)
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = []
    for row in rows:
        label = "".join(f"<td>{escape(cell)}</td>" for cell in row[:2])
        cells = "".join(f'<td class="{escape(cell)}">{escape(cell)}</td>' for cell in row[2:])
        body.append(f"<tr>{label}{cells}</tr>")
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>agentconf comparison</title><style>{STYLE}</style></head><body>"
            f"<h1>agentconf comparison</h1><table><tr>{head}</tr>{''.join(body)}</table>"
            "</body></html>\n")
