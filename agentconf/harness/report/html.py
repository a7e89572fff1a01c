"""report.html: one self-contained page (inline style and script, no external assets).

Every clause has its anchor (`report.html#EDIT-03`) and a header that says its id, status, level
and requirement; clause ids anywhere in the page (reasons, evidence) link to it. Filters by status
and category, and a copy button beside each reproduce line, come from a small inline script
(report/html_assets.py); without the script every clause is listed, failures open.
"""

import re
from html import escape
from typing import Any

from .escapes import escapes
from .html_assets import SCRIPT, STYLE
from .markdown import NOT_GREEN, message_name, na_reason
from .summary_tables import STATUS_COLUMNS, implementation_title, summary_rows

# Shown first when present; when the run has none of them, every status is shown.
ATTENTION = ("fail", "error", "xpass", "xfail")
SHOWN_TESTS = 40
_CLAUSE_ID = re.compile(r"\b[A-Z]+-\d{2}\b")


def _linked(text: str, ids: set[str]) -> str:
    """`text` escaped, with every clause id of this report a link to its anchor."""
    return _CLAUSE_ID.sub(
        lambda m: f'<a href="#{m[0]}">{m[0]}</a>' if m[0] in ids else m[0], escape(text))


def _matrix(document: dict[str, Any], by: str, label: str) -> str:
    head = "".join(f"<th>{escape(s)}</th>" for s in STATUS_COLUMNS)
    rows = []
    for name, counts in summary_rows(document, by):
        cells = "".join(
            f'<td class="{escape(s) if n else "zero"}">{n}</td>'
            for s, n in zip(STATUS_COLUMNS, counts, strict=True)
        )
        title = escape(name)
        if by == "categories":  # a click shows that category's clauses
            title = f'<a href="#clauses" data-category="{title}">{title}</a>'
        rows.append(f"<tr><td>{title}</td>{cells}</tr>")
    return f"<table><tr><th>{label}</th>{head}</tr>{''.join(rows)}</table>"


def _reproduce(line: str) -> str:
    quoted = escape(line, quote=True)
    return (f'<div class="reproduce"><code>{escape(line)}</code>'
            f'<button type="button" class="copy" data-copy="{quoted}" '
            f'title="copy the command">Copy</button></div>')


def _tests(clause: dict[str, Any]) -> str:
    tests = clause["tests"]
    items = "".join(f'<li><span class="status {escape(t["outcome"])}">{escape(t["outcome"])}'
                    f"</span><code>{escape(t['nodeid'])}</code></li>"
                    for t in tests[:SHOWN_TESTS])
    more = f"<li>… and {len(tests) - SHOWN_TESTS} more</li>" if len(tests) > SHOWN_TESTS else ""
    return f"<p>{len(tests)} check(s):</p><ul>{items}{more}</ul>" if tests else ""


def _clause(clause: dict[str, Any], ids: set[str]) -> str:
    cid, status = clause["id"], clause["status"]
    parts = []
    for key, reason in (clause.get("expected_failure") or {}).items():
        parts.append(f"<p>Expected failure <code>{escape(key)}</code>: {escape(reason)}</p>")
    if status == "n/a":
        parts.append(f"<p>{_linked(na_reason(clause), ids)}</p>")
    elif clause["evidence"]:
        parts.append(f"<pre>{_linked(clause['evidence'], ids)}</pre>")
    if clause["reproduce"]:
        parts.append(_reproduce(clause["reproduce"]))
    parts.append(_tests(clause))
    header = (f'<a class="id" href="#{cid}">{cid}</a>'
              f'<span class="status {escape(status)}">{escape(status)}</span>'
              f'<span class="level">{escape(clause["level"])}</span>'
              f'<span class="requirement">{escape(clause["requirement"])}</span>')
    opened = " open" if status in NOT_GREEN else ""
    return (f'<details class="clause {escape(status)}" id="{cid}" data-status="{escape(status)}" '
            f'data-category="{escape(clause["category"])}"{opened}><summary>{header}</summary>'
            f"{''.join(parts)}</details>")


def _filters(document: dict[str, Any]) -> str:
    counts = document["summary"]["clauses"]
    present = [s for s in ATTENTION if counts.get(s)]
    boxes = "".join(
        f'<label><input type="checkbox" name="status" value="{escape(s)}"'
        f'{" checked" if (s in present or not present) else ""}> {escape(s)} '
        f'<span class="count">({counts.get(s, 0)})</span></label>'
        for s in STATUS_COLUMNS)
    options = "".join(f'<option value="{escape(c)}">{escape(c)}</option>'
                      for c in document["summary"]["categories"])
    return (f'<div class="filters" id="filters" hidden><strong>Show</strong>{boxes}'
            f'<label>category <select id="category"><option value="">all</option>{options}'
            f"</select></label></div>")


def _diff(evidence: str) -> str:
    lines = []
    for line in evidence.splitlines():
        kind = "del" if line.startswith("- ") else "add" if line.startswith("+ ") else ""
        lines.append(f'<span class="{kind}">{escape(line)}</span>' if kind else escape(line))
    joined = "\n".join(lines)
    return f'<pre class="diff">{joined}</pre>'


def _messages(document: dict[str, Any]) -> str:
    messages = document.get("messages") or []
    if not messages:
        return ""
    items = "".join(
        f'<details class="message-changed" id="message-{escape(message_name(t))}" open>'
        f"<summary>{escape(message_name(t))}</summary>{_diff(t.get('evidence') or '')}"
        f"{_reproduce(t['reproduce']) if t.get('reproduce') else ''}</details>"
        for t in messages)
    return ("<h2 id=\"messages\">Messages changed</h2><p>Wording, apart from the clauses: each "
            f"message differs from its recorded snapshot, or has none.</p>{items}")


def _escapes(document: dict[str, Any], ids: set[str]) -> str:
    found = escapes(document)
    if not found:
        return ""
    items = "".join(
        f'<li><a href="#{escape(item["clause"])}">{escape(item["clause"])}</a>: '
        f'<code>{escape(item["finding"])}</code>'
        f'{_reproduce(item["reproduce"]) if item["reproduce"] else ""}</li>' for item in found)
    return (f'<h2 id="escapes">Escapes ({len(found)})</h2><p>The disk outside the root changed, '
            f"or a canary's secret came back:</p><ul class=\"escapes\">{items}</ul>")


def render_html(document: dict[str, Any]) -> str:
    verdict, summary, run = document["verdict"], document["summary"], document["run"]
    clauses = document["clauses"]
    ids = {c["id"] for c in clauses}
    title = f"agentconf conformance: {implementation_title(document)}"
    state = "green" if verdict["green"] else "red"
    reasons = "".join(f"<li>{_linked(r, ids)}</li>" for r in verdict["reasons"])
    facts = (f"implementation <code>{escape(document['implementation']['spec'])}</code> · "
             f"contract {escape(document['contract_version'])} · "
             f"agentconf {escape(document['kit_version'])} · "
             f"hypothesis profile {escape(str(run.get('hypothesis_profile') or 'default'))} · "
             f"seed {escape(str(run.get('seed') or 'random'))} · "
             f"{escape(str(run.get('platform') or ''))}")
    harness = "".join(
        f"<details><summary>{escape(t['nodeid'])}</summary>"
        f"<pre>{_linked(t.get('evidence') or '', ids)}</pre>"
        f"{_reproduce(t['reproduce']) if t.get('reproduce') else ''}</details>"
        for t in document["harness_errors"]
    )
    body = [
        f"<h1>{escape(title)}</h1><p>{facts}</p>",
        f'<p><span class="verdict {state}">{state.upper()}</span> '
        f"{summary['executed']} of {summary['planned']} planned checks executed.</p>",
        f"<ul>{reasons}</ul>" if reasons else "",
        '<section id="linked" hidden><h2>The linked clause</h2></section>',
        _escapes(document, ids),
        "<h2>By level</h2>", _matrix(document, "levels", "level"),
        "<h2>By category</h2>", _matrix(document, "categories", "category"),
        _messages(document),
        '<h2 id="clauses">Clauses</h2>', _filters(document),
        "".join(_clause(c, ids) for c in clauses),
        '<p id="no-match" hidden>No clause matches the filters.</p>',
        f"<h2>Harness errors (bugs in agentconf)</h2>{harness}" if harness else "",
    ]
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{STYLE}</style></head>"
            f"<body>{''.join(body)}<script>{SCRIPT}</script></body></html>\n")
