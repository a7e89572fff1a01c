"""The conformance matrix: many implementations' conformance.json, clause x implementation.

`matrix_document` makes matrix.json (agentconf/schemas/matrix.schema.json), the data behind the
site; `render_matrix_html` makes its index.html from that document alone, so the page shows
nothing the data does not hold. Each implementation's own report.html is its page.

A cell is the run's clause status. An expected failure (xfail) is a departure that was triaged
and kept in the peer's baseline: shown as a failure, marked "known". A failure whose evidence is
the disk oracle's ("escape after ...": the disk outside the root changed, or a canary's secret
came back) is marked an escape: those are the verdicts a user must not miss.
"""

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from html import escape
from pathlib import Path
from typing import Any, Literal

import jsonschema
from pydantic import BaseModel, ConfigDict, Field

from agentconf import __version__
from agentconf.contract import CLAUSES, CONTRACT_VERSION, Level

from .document import StatusCounts
from .html_assets import STYLE
from .tables import must_score

SCHEMA_VERSION: Literal["1"] = "1"
SCHEMA_NAME = "matrix.schema.json"
SCHEMA_ID = "https://agentconf.dev/schemas/matrix.schema.json"
ESCAPE_MARK = "escape after "
# What a cell shows: a triaged departure (xfail) is a failure, marked known.
SHOWN = {"xfail": "fail", "xpass": "pass"}
CellStatus = Literal["pass", "fail", "error", "n/a"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Cell(_Strict):
    status: CellStatus
    known: str | None = Field(default=None,
                              description="A triaged departure: its baseline's reason.")
    unexpected_pass: bool = Field(default=False, description="In the baseline, yet it passed.")
    escape: bool = Field(default=False, description="The disk oracle saw the disk outside the root "
                         "change, or a secret outside it come back.")
    evidence: str | None = Field(default=None, description="The first line of why it did not pass.")
    reproduce: str | None = None


class MustScore(_Strict):
    passing: int = Field(ge=0)
    applicable: int = Field(ge=0)


class RunTimes(_Strict):
    started: str | None = None
    finished: str | None = None


class MatrixImplementation(_Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9.-]*$")
    title: str
    package: str
    version: str
    registry: Literal["npm", "pypi", "local"]
    homepage: str | None = None
    notes: str | None = None
    page: str = Field(description="Its report, relative to index.html.")
    profile: str = Field(description="The profile the run used, relative to the repository.")
    command: str = Field(description="The command that made the run.")
    kit_version: str
    contract_version: str
    run: RunTimes
    planned: int = Field(ge=0)
    executed: int = Field(ge=0)
    clause_counts: StatusCounts
    must: MustScore
    escapes: list[str]
    verdict_green: bool = Field(description="Green against its own baseline.")
    cells: dict[str, Cell]


class MatrixClause(_Strict):
    id: str
    category: str
    level: Level
    requirement: str


class Matrix(_Strict):
    schema_version: Literal["1"]
    kit_version: str
    contract_version: str
    generated: str
    clauses: list[MatrixClause]
    implementations: list[MatrixImplementation]


def matrix_json_schema() -> dict[str, Any]:
    schema = Matrix.model_json_schema(by_alias=True)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID, **schema}


def render_matrix_schema() -> str:
    return json.dumps(matrix_json_schema(), indent=2, sort_keys=True) + "\n"


def write_matrix_schema() -> Path:
    path = Path(__file__).resolve().parents[2] / "schemas" / SCHEMA_NAME
    path.write_text(render_matrix_schema(), encoding="utf-8")
    return path


def _escaped(clause: dict[str, Any]) -> bool:
    if clause["status"] not in ("fail", "xfail"):
        return False
    # Only the checks that failed it: a check n/a because an escape stopped it, charged to
    # CONFINE-14, quotes the escape too, and is no escape of this clause.
    return any(ESCAPE_MARK in (t.get("evidence") or "") for t in clause["tests"]
               if t["outcome"] == "fail")


def _cell(clause: dict[str, Any]) -> Cell:
    status = clause["status"]
    cell = Cell(status=SHOWN.get(status, status), escape=_escaped(clause),
                unexpected_pass=status == "xpass")
    if status in ("xfail", "xpass"):
        cell.known = "; ".join((clause.get("expected_failure") or {}).values()) or "expected"
    if cell.status in ("fail", "error"):
        lines = (clause.get("evidence") or "").strip().splitlines()
        cell.evidence = lines[0][:300] if lines else ""
        cell.reproduce = clause.get("reproduce") or None
    return cell


def implementation_entry(peer: dict[str, Any], document: dict[str, Any]) -> MatrixImplementation:
    """One implementation: what the peers folder says of it, and its run's verdicts."""
    passing, applicable = must_score(document)
    cells = {c["id"]: _cell(c) for c in document["clauses"]}
    summary = document["summary"]
    return MatrixImplementation(
        **peer,
        kit_version=document["kit_version"],
        contract_version=document["contract_version"],
        run=RunTimes(started=document["run"]["started"], finished=document["run"]["finished"]),
        planned=summary["planned"],
        executed=summary["executed"],
        clause_counts=StatusCounts.model_validate(summary["clauses"]),
        must=MustScore(passing=passing, applicable=applicable),
        escapes=sorted(cid for cid, cell in cells.items() if cell.escape),
        verdict_green=document["verdict"]["green"],
        cells=cells,
    )


def matrix_document(entries: Sequence[MatrixImplementation]) -> dict[str, Any]:
    ids = {cid for entry in entries for cid in entry.cells}
    clauses = [MatrixClause(id=c.id, category=c.category, level=c.level,
                            requirement=c.requirement)
               for cid, c in CLAUSES.items() if cid in ids]
    matrix = Matrix(schema_version=SCHEMA_VERSION, kit_version=__version__,
                    contract_version=CONTRACT_VERSION,
                    generated=datetime.now(UTC).replace(microsecond=0).isoformat(),
                    clauses=clauses, implementations=list(entries))
    document = matrix.model_dump(mode="json", by_alias=True, exclude_defaults=True)
    jsonschema.validate(document, matrix_json_schema())
    return document


def verdicts(document: dict[str, Any]) -> dict[tuple[str, str], str]:
    """(implementation id, clause id) -> status: what two regenerations must agree on."""
    return {(entry["id"], cid): cell["status"]
            for entry in document["implementations"] for cid, cell in entry["cells"].items()}


_MATRIX_STYLE = """
body{max-width:none}
table.matrix td,table.matrix th{text-align:center;padding:.15rem .35rem;font-size:.85em}
table.matrix td:first-child,table.matrix th:first-child{text-align:left;white-space:nowrap}
table.matrix th.impl{writing-mode:vertical-rl;transform:rotate(180deg);vertical-align:bottom;
  white-space:nowrap;font-weight:normal}
table.matrix tr.category th{background:#f0f0f0;text-align:left}
table.matrix td a{color:inherit;text-decoration:none;display:block}
.escape{background:#b71c1c;color:#fff;font-weight:bold}
td.known{outline:2px dashed #999;outline-offset:-3px}
td:target,tr:target td{box-shadow:inset 0 0 0 3px #1a73e8}
.legend span{display:inline-block;padding:0 .4rem;margin-right:.3rem;border:1px solid #ccc}
table.impls td,table.impls th{text-align:left}
"""

_MATRIX_SCRIPT = """
(function () {
  var rows = Array.prototype.slice.call(document.querySelectorAll("tr.clause"));
  var heads = Array.prototype.slice.call(document.querySelectorAll("tr.category"));
  var status = document.getElementById("status");
  var category = document.getElementById("category");
  var level = document.getElementById("level");
  function apply(write) {
    rows.forEach(function (row) {
      var cells = Array.prototype.slice.call(row.querySelectorAll("td[data-status]"));
      var ok = (!category.value || row.dataset.category === category.value) &&
               (!level.value || row.dataset.level === level.value) &&
               (!status.value || cells.some(function (c) {
                  return status.value === "escape" ? c.classList.contains("escape")
                                                   : c.dataset.status === status.value; }));
      row.hidden = !ok;
    });
    heads.forEach(function (head) {
      head.hidden = !rows.some(function (r) {
        return !r.hidden && r.dataset.category === head.dataset.category; });
    });
    if (write && window.history && history.replaceState) {
      var q = [];
      if (status.value) { q.push("status=" + status.value); }
      if (category.value) { q.push("category=" + category.value); }
      if (level.value) { q.push("level=" + level.value); }
      history.replaceState(null, "", (q.length ? "?" + q.join("&") : "?") + location.hash);
    }
  }
  var params = new URLSearchParams(location.search);
  status.value = params.get("status") || "";
  category.value = params.get("category") || "";
  level.value = params.get("level") || "";
  [status, category, level].forEach(function (s) {
    s.addEventListener("change", function () { apply(true); });
  });
  apply(false);
})();
"""


def _option_list(name: str, label: str, values: Sequence[str]) -> str:
    options = "".join(f'<option value="{escape(v)}">{escape(v)}</option>' for v in values)
    return (f'<label>{label} <select id="{name}"><option value="">all</option>{options}'
            "</select></label>")


def _impl_rows(document: dict[str, Any]) -> str:
    rows = []
    for entry in document["implementations"]:
        counts = entry["clause_counts"]
        departures = counts["fail"] + counts["xfail"]
        page = escape(entry["page"], quote=True)
        link = f'<a href="{page}">{escape(entry["title"])}</a>'
        homepage = (f' (<a href="{escape(entry["homepage"], quote=True)}">home</a>)'
                    if entry.get("homepage") else "")
        escapes = ", ".join(entry["escapes"]) or "none"
        rows.append(
            f'<tr id="impl-{escape(entry["id"])}"><td>{link}{homepage}</td>'
            f"<td>{escape(entry['package'])} {escape(entry['version'])}</td>"
            f"<td>{escape(entry['registry'])}</td>"
            f"<td>{entry['must']['passing']}/{entry['must']['applicable']}</td>"
            f"<td>{departures}</td><td>{counts['error']}</td><td>{counts['n/a']}</td>"
            f"<td>{escape(escapes)}</td>"
            f"<td>{entry['executed']}/{entry['planned']}</td>"
            f"<td>{escape(entry['run']['started'][:10])}</td></tr>")
    head = ("<tr><th>implementation</th><th>package</th><th>registry</th><th>MUST passing</th>"
            "<th>departures</th><th>errors</th><th>n/a</th><th>escapes</th>"
            "<th>checks executed</th><th>run</th></tr>")
    return f'<table class="impls">{head}{"".join(rows)}</table>'


def _cell_html(entry: dict[str, Any], clause_id: str) -> str:
    cell = entry["cells"].get(clause_id)
    anchor = f'{clause_id}--{entry["id"]}'
    if cell is None:
        return f'<td id="{escape(anchor)}">—</td>'
    status = cell["status"]
    classes = [status.replace("/", "\\/")] if status != "n/a" else ["n/a"]
    mark = {"pass": "✓", "fail": "✗", "error": "E", "n/a": "–"}.get(status, status)
    if cell.get("escape"):
        classes.append("escape")
        mark = "ESC"
    if cell.get("known"):
        classes.append("known")
    tip = f"{entry['title']} · {clause_id}: {status}"
    if cell.get("known"):
        tip += f" (known: {cell['known']})"
    if cell.get("evidence"):
        tip += f" — {cell['evidence']}"
    href = f'{entry["page"]}#{clause_id}'
    return (f'<td id="{escape(anchor)}" class="{escape(" ".join(classes))}" '
            f'data-status="{escape(status)}" title="{escape(tip, quote=True)}">'
            f'<a href="{escape(href, quote=True)}">{mark}</a></td>')


def render_matrix_html(document: dict[str, Any]) -> str:
    entries = document["implementations"]
    heads = "".join(f'<th class="impl"><a href="#impl-{escape(e["id"])}">'
                    f"{escape(e['title'])} {escape(e['version'])}</a></th>" for e in entries)
    body = []
    category = None
    for clause in document["clauses"]:
        if clause["category"] != category:
            category = clause["category"]
            body.append(f'<tr class="category" data-category="{escape(category)}">'
                        f'<th colspan="{len(entries) + 2}">{escape(category)}</th></tr>')
        cid = clause["id"]
        cells = "".join(_cell_html(entry, cid) for entry in entries)
        body.append(
            f'<tr class="clause" id="{escape(cid)}" data-category="{escape(clause["category"])}" '
            f'data-level="{escape(clause["level"])}">'
            f'<td><a href="#{escape(cid)}" title="{escape(clause["requirement"], quote=True)}">'
            f"{escape(cid)}</a></td><td>{escape(clause['level'])}</td>{cells}</tr>")
    categories = list(dict.fromkeys(c["category"] for c in document["clauses"]))
    levels = list(dict.fromkeys(c["level"] for c in document["clauses"]))
    filters = ('<div class="filters">'
               + _option_list("status", "show clauses where some implementation is",
                              ["fail", "error", "escape", "n/a", "pass"])
               + _option_list("category", "category", categories)
               + _option_list("level", "level", levels) + "</div>")
    legend = ('<p class="legend"><span class="pass">✓ pass</span><span class="fail">✗ fails'
              '</span><span class="escape">ESC escape: the disk outside the root changed or a '
              'secret outside it was read</span><span class="fail known">known: a triaged '
              'departure in its baseline</span><span class="error">E could not be checked'
              '</span><span class="n/a">– n/a: a tool or feature it does not offer</span></p>')
    title = "agentconf conformance matrix"
    intro = (f"<p>Generated {escape(document['generated'])} by agentconf "
             f"{escape(document['kit_version'])}, contract {escape(document['contract_version'])}"
             f". Every cell links to the implementation's report at that clause; every clause "
             f"row and cell has its own anchor (<code>#EDIT-03</code>, "
             f"<code>#EDIT-03--&lt;implementation&gt;</code>). The data: "
             f'<a href="matrix.json">matrix.json</a>.</p>')
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width,initial-scale=1">'
            f"<title>{title}</title><style>{STYLE}{_MATRIX_STYLE}</style></head><body>"
            f"<h1>{title}</h1>{intro}<h2>Implementations</h2>{_impl_rows(document)}"
            f"<h2>Clause × implementation</h2>{legend}{filters}"
            f'<table class="matrix"><tr><th>clause</th><th>level</th>{heads}</tr>'
            f"{''.join(body)}</table><script>{_MATRIX_SCRIPT}</script></body></html>\n")
