"""The matrix's index.html, from matrix.json alone: the implementations (with badges, and the
peers that could not run with their reasons), the clause x implementation grid with a summary row
per category, and each package's clauses across its versions."""

from collections.abc import Sequence
from html import escape
from typing import Any

from .html_assets import STYLE
from .matrix import PackageHistory
from .matrix_assets import MATRIX_SCRIPT, MATRIX_STYLE
from .matrix_history import changed_clauses, closed_departures, remaining_departures

MARKS = {"pass": "✓", "fail": "✗", "error": "E", "n/a": "–"}
TITLE = "agentconf conformance matrix"


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _impl_rows(document: dict[str, Any]) -> str:
    rows = []
    for entry in document["implementations"]:
        counts = entry["clause_counts"]
        homepage = (f' (<a href="{_e(entry["homepage"])}">home</a>)'
                    if entry.get("homepage") else "")
        badge = f'{entry["id"]}/badge.svg'
        rows.append(
            f'<tr id="impl-{_e(entry["id"])}"><td><a href="{_e(entry["page"])}">'
            f'{_e(entry["title"])}</a>{homepage}</td>'
            f"<td>{_e(entry['package'])} {_e(entry['version'])}</td>"
            f"<td>{_e(entry['registry'])}</td>"
            f'<td><a href="{_e(badge)}"><img src="{_e(badge)}" height="20" alt="MUST '
            f'{entry["must"]["passing"]}/{entry["must"]["applicable"]}"></a></td>'
            f"<td>{counts['fail'] + counts['xfail']}</td><td>{counts['error']}</td>"
            f"<td>{counts['n/a']}</td><td>{_e(', '.join(entry['escapes']) or 'none')}</td>"
            f"<td>{entry['executed']}/{entry['planned']}</td>"
            f"<td>{_e((entry['run']['started'] or '')[:10])}</td></tr>")
    for failed in document.get("could_not_run", []):
        rows.append(
            f'<tr id="impl-{_e(failed["id"])}" class="could-not-run"><td>{_e(failed["title"])}'
            f"</td><td>{_e(failed['package'])} {_e(failed['version'])}</td>"
            f"<td>{_e(failed['registry'])}</td><td colspan=\"7\"><b>could not run</b> "
            f"({_e(failed['stage'])}): {_e(failed['reason'])}</td></tr>")
    head = ("<tr><th>implementation</th><th>package</th><th>registry</th><th>MUST passing</th>"
            "<th>departures</th><th>errors</th><th>n/a</th><th>escapes</th>"
            "<th>checks executed</th><th>run</th></tr>")
    return f'<table class="impls">{head}{"".join(rows)}</table>'


def _cell_html(entry: dict[str, Any], clause_id: str) -> str:
    cell = entry["cells"].get(clause_id)
    anchor = _e(f'{clause_id}--{entry["id"]}')
    if cell is None:
        return f'<td id="{anchor}">—</td>'
    status = cell["status"]
    classes, mark = [status], MARKS.get(status, status)
    if cell.get("escape"):
        classes.append("escape")
        mark = "ESC"
    if cell.get("known"):
        classes.append("known")
    tip = f"{entry['title']} {entry['version']} · {clause_id}: {status}"
    if cell.get("known"):
        tip += f" (known: {cell['known']})"
    if cell.get("evidence"):
        tip += f" — {cell['evidence']}"
    return (f'<td id="{anchor}" class="{_e(" ".join(classes))}" data-status="{_e(status)}" '
            f'title="{_e(tip)}"><a href="{_e(entry["page"])}#{_e(clause_id)}">{mark}</a></td>')


def _category_row(category: str, clause_ids: Sequence[str],
                  entries: Sequence[dict[str, Any]]) -> str:
    """The category's name, and per implementation: clauses passing of those that apply."""
    scores = []
    for entry in entries:
        statuses = [entry["cells"][c]["status"] for c in clause_ids if c in entry["cells"]]
        applicable = [s for s in statuses if s != "n/a"]
        passing = applicable.count("pass")
        if not applicable:
            scores.append(f'<td class="score" title="{_e(entry["title"])}: no {_e(category)} '
                          'clause applies">–</td>')
            continue
        kind = "all" if passing == len(applicable) else "some"
        scores.append(f'<td class="score {kind}" title="{_e(entry["title"])}: {passing} of '
                      f'{len(applicable)} {_e(category)} clauses that apply pass">'
                      f"{passing}/{len(applicable)}</td>")
    return (f'<tr class="category" data-category="{_e(category)}" id="category-{_e(category)}">'
            f'<th class="rowhead">{_e(category)}</th>{"".join(scores)}</tr>')


def _searched(entry: dict[str, Any]) -> str:
    return " ".join((entry["id"], entry["title"], entry["package"])).lower()


def _grid(document: dict[str, Any]) -> str:
    entries = document["implementations"]
    heads = "".join(
        f'<th class="impl" data-search="{_e(_searched(e))}"><a href="#impl-{_e(e["id"])}" '
        f'title="{_e(e["title"])} {_e(e["version"])}">'
        f"{_e(e['title'])} {_e(e['version'])}</a></th>" for e in entries)
    body: list[str] = []
    by_category: dict[str, list[dict[str, Any]]] = {}
    for clause in document["clauses"]:
        by_category.setdefault(clause["category"], []).append(clause)
    for category, clauses in by_category.items():
        body.append(_category_row(category, [c["id"] for c in clauses], entries))
        for clause in clauses:
            cid = clause["id"]
            body.append(
                f'<tr class="clause" id="{_e(cid)}" data-category="{_e(category)}" '
                f'data-level="{_e(clause["level"])}"><th class="rowhead">'
                f'<a href="#{_e(cid)}" title="{_e(clause["requirement"])}">{_e(cid)}</a>'
                f'<span class="lvl">{_e(clause["level"])}</span></th>'
                + "".join(_cell_html(entry, cid) for entry in entries) + "</tr>")
    return (f'<div class="grid"><table class="matrix"><thead><tr><th class="rowhead">clause'
            f"</th>{heads}</tr></thead><tbody>{''.join(body)}</tbody></table></div>")


def _option_list(name: str, label: str, values: Sequence[str]) -> str:
    options = "".join(f'<option value="{_e(v)}">{_e(v)}</option>' for v in values)
    return (f'<label>{label} <select id="{name}"><option value="">all</option>{options}'
            "</select></label>")


def _filters(document: dict[str, Any]) -> str:
    categories = list(dict.fromkeys(c["category"] for c in document["clauses"]))
    levels = list(dict.fromkeys(c["level"] for c in document["clauses"]))
    return ('<div class="filters">'
            '<label><input type="checkbox" id="departures"> departures only</label>'
            + _option_list("status", "clauses where some implementation is",
                           ["fail", "error", "escape", "n/a", "pass"])
            + _option_list("category", "category", categories)
            + _option_list("level", "level", levels)
            + '<label>implementations <input type="search" id="impl" '
              'placeholder="filesystem langchain"></label>'
            '<span class="count" id="shown"></span></div>')


def _versions(document: dict[str, Any]) -> str:
    """Each package seen at two versions or more: the clauses whose verdict moved, and the
    departures its newest version keeps."""
    sections = []
    current = {(e["package"], e["version"]): e["id"] for e in document["implementations"]}
    pages = {(e["package"], e["version"]): e["page"] for e in document["implementations"]}
    for data in document.get("history", []):
        history = PackageHistory.model_validate(data)
        if len(history.versions) < 2:
            continue
        closed, remaining = closed_departures(history), remaining_departures(history)
        rows = list(dict.fromkeys([*changed_clauses(history), *remaining]))
        heads = "".join(
            f"<th>{_version_link(current, history.package, run.version)}</th>"
            for run in history.versions)
        lines = "".join(
            f'<tr><td><a href="#{_e(cid)}">{_e(cid)}</a></td>'
            + "".join(_version_cell(cid, run.verdicts.get(cid), cid in run.escapes,
                                    pages.get((history.package, run.version)))
                      for run in history.versions) + "</tr>" for cid in rows)
        sections.append(
            f'<h3 id="versions-{_e(history.package)}">{_e(history.title)} '
            f"<code>{_e(history.package)}</code></h3>"
            f"<p>Closed in the newest version: {_e(', '.join(closed) or 'none')}. "
            f"Departures the newest version keeps: {_e(', '.join(remaining) or 'none')}.</p>"
            f'<table class="versions"><tr><th>clause</th>{heads}</tr>{lines}</table>')
    if not sections:
        return ""
    return ("<h2>Across versions</h2><p>Each package judged at several versions: the clauses "
            "whose verdict changed between them, and the departures the newest keeps.</p>"
            + "".join(sections))


def _kit_changes(document: dict[str, Any]) -> str:
    """Each row whose cells moved because the kit changed (the package version is the same): the
    clause, its verdict before and now, and which kit judged it before."""
    current = {(e["package"], e["version"]): e for e in document["implementations"]}
    lines = []
    for data in document.get("history", []):
        history = PackageHistory.model_validate(data)
        for run in history.versions:
            entry = current.get((history.package, run.version))
            if entry is None or not run.kit_changes:
                continue
            moved = ", ".join(
                f'<a href="{_e(entry["page"])}#{_e(cid)}">{_e(cid)}</a> {_e(_shown_as(before))}'
                f" → {_e(_shown_as(run.verdicts.get(cid, 'n/a')))}"
                for cid, before in sorted(run.kit_changes.items()))
            lines.append(f'<li><a href="#impl-{_e(entry["id"])}">{_e(entry["title"])} '
                         f"{_e(run.version)}</a> (before: {_e(run.judged_before_by or '')}): "
                         f"{moved}</li>")
    if not lines:
        return ""
    return ('<h2 id="kit-changes">Changed by the kit</h2><p>Cells that moved while the package '
            "stayed at the same version: the kit or the contract changed how it judges them "
            "(a fixed mistake of the kit, a new or stricter check), not the implementation."
            f"</p><ul>{''.join(lines)}</ul>")


def _shown_as(status: str) -> str:
    return f"{MARKS.get(status, '')} {status}".strip()


def _version_link(current: dict[tuple[str, str], str], package: str, version: str) -> str:
    peer = current.get((package, version))
    return f'<a href="#impl-{_e(peer)}">{_e(version)}</a>' if peer else _e(version)


def _version_cell(clause_id: str, status: str | None, escaped: bool, page: str | None) -> str:
    """A version's verdict; a link to its report at the clause while it is on the matrix (an
    older run kept in history has its verdicts only)."""
    if status is None:
        return "<td>—</td>"
    classes = f"{status} escape" if escaped else status
    mark = "ESC" if escaped else MARKS.get(status, status)
    if page is not None:
        mark = f'<a href="{_e(page)}#{_e(clause_id)}">{mark}</a>'
    return f'<td class="{_e(classes)}" title="{_e(clause_id)}: {_e(status)}">{mark}</td>'


# How to read a cell, one line per status: what it promises and where its evidence is.
HOW_TO_READ = (
    ("pass", "✓ pass", "every check of the clause ran against it and held."),
    ("fail", "✗ fails", "a check departed from the clause; the cell opens the evidence and the "
                        "command that replays it."),
    ("escape", "ESC escape", "the disk outside the root changed, or a secret outside it was "
                             "read: judged on canaries, byte for byte."),
    ("fail known", "known", "a departure triaged in the peer's baseline and reproduced outside "
                            "the kit (its repro/); a race says in how many rounds it was seen."),
    ("error", "E could not be checked", "the implementation hung or died on the check; a bug "
                                        "of the kit is a harness error, never shown as this."),
    ("n/a", "– n/a", "a tool or feature it does not offer, or a premise the kit could not "
                     "prove (the report names it): not judged, never failed."),
    ("", "could not run", "the row says why (a hosted service the run cannot reach); no "
                          "verdict is shown for it."),
)


def _how_to_read() -> str:
    items = "".join(f'<li><span class="{_e(css)}">{_e(mark)}</span> {_e(meaning)}</li>'
                    for css, mark, meaning in HOW_TO_READ)
    return ('<details class="how-to-read" open><summary>How to read this</summary>'
            f"<ul>{items}</ul></details>")


def render_matrix_html(document: dict[str, Any]) -> str:
    legend = ('<p class="legend"><span class="pass">✓ pass</span><span class="fail">✗ fails'
              '</span><span class="escape">ESC escape</span><span class="fail known">known'
              '</span><span class="error">E could not be checked</span><span class="n/a">– n/a'
              "</span> A category's row: clauses passing of those that apply.</p>"
              + _how_to_read())
    failed = len(document.get("could_not_run", []))
    intro = (f"<p>Generated {_e(document['generated'])} by agentconf "
             f"{_e(document['kit_version'])}, contract {_e(document['contract_version'])}: "
             f"{len(document['implementations'])} implementations judged"
             + (f", {failed} could not run" if failed else "") +
             ". Every cell links to the implementation's report at that clause; every clause "
             "row and cell has its own anchor (<code>#EDIT-03</code>, "
             "<code>#EDIT-03--&lt;implementation&gt;</code>), and the filters are kept in the "
             'address. The data: <a href="matrix.json">matrix.json</a>.</p>')
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width,initial-scale=1">'
            f"<title>{TITLE}</title><style>{STYLE}{MATRIX_STYLE}</style>"
            f'<style id="column-filter"></style></head><body>'
            f"<h1>{TITLE}</h1>{intro}"
            f'<h2 id="grid">Clause × implementation</h2>{legend}{_filters(document)}'
            f'{_grid(document)}<h2 id="implementations">Implementations</h2>'
            f"{_impl_rows(document)}{_versions(document)}{_kit_changes(document)}<script>{MATRIX_SCRIPT}</script>"
            "</body></html>\n")
