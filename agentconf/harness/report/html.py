"""report.html: one self-contained page (inline CSS, no scripts, no external assets) with the
category x status matrix and every failure expandable in a <details> element."""

from html import escape
from typing import Any

from .markdown import NOT_GREEN, na_reason
from .tables import STATUS_COLUMNS, implementation_title, summary_rows

STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#222}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}
th,td{border:1px solid #ccc;padding:.25rem .6rem;text-align:right}
th:first-child,td:first-child{text-align:left}
td.zero{color:#bbb}
.pass{background:#e6f4ea}.fail,.xpass{background:#fce8e6}.error{background:#fef7e0}
.xfail{background:#eef}.n\\/a{background:#f3f3f3}
.verdict{font-weight:bold;padding:.4rem .8rem;display:inline-block;border-radius:4px}
.green{background:#2e7d32;color:#fff}.red{background:#c62828;color:#fff}
details{border:1px solid #ddd;border-radius:4px;margin:.4rem 0;padding:.3rem .6rem}
summary{cursor:pointer}
pre{background:#f6f8fa;padding:.6rem;overflow:auto;white-space:pre-wrap}
code{background:#f6f8fa;padding:0 .2rem}
"""


def _matrix(document: dict[str, Any], by: str, label: str) -> str:
    head = "".join(f"<th>{escape(s)}</th>" for s in STATUS_COLUMNS)
    rows = []
    for name, counts in summary_rows(document, by):
        cells = "".join(
            f'<td class="{escape(s) if n else "zero"}">{n}</td>'
            for s, n in zip(STATUS_COLUMNS, counts, strict=True)
        )
        rows.append(f"<tr><td>{escape(name)}</td>{cells}</tr>")
    return f"<table><tr><th>{label}</th>{head}</tr>{''.join(rows)}</table>"


def _details(clause: dict[str, Any]) -> str:
    parts = [f"<p>{escape(clause['requirement'])}</p>"]
    for key, reason in (clause.get("expected_failure") or {}).items():
        parts.append(f"<p>Expected failure <code>{escape(key)}</code>: {escape(reason)}</p>")
    if clause["evidence"]:
        parts.append(f"<pre>{escape(clause['evidence'])}</pre>")
    if clause["reproduce"]:
        parts.append(f"<p>Reproduce: <code>{escape(clause['reproduce'])}</code></p>")
    title = f"{clause['id']} ({clause['level']}, {clause['status']})"
    return (f'<details class="{escape(clause["status"])}"><summary>{escape(title)}</summary>'
            f"{''.join(parts)}</details>")


def render_html(document: dict[str, Any]) -> str:
    verdict, summary, run = document["verdict"], document["summary"], document["run"]
    title = f"agentconf conformance: {implementation_title(document)}"
    state = "green" if verdict["green"] else "red"
    reasons = "".join(f"<li>{escape(r)}</li>" for r in verdict["reasons"])
    facts = (f"implementation <code>{escape(document['implementation']['spec'])}</code> · "
             f"contract {escape(document['contract_version'])} · "
             f"agentconf {escape(document['kit_version'])} · "
             f"hypothesis profile {escape(str(run.get('hypothesis_profile') or 'default'))} · "
             f"seed {escape(str(run.get('seed') or 'random'))} · "
             f"{escape(str(run.get('platform') or ''))}")
    clauses = document["clauses"]
    failing = "".join(_details(c) for c in clauses if c["status"] in NOT_GREEN) or "<p>None.</p>"
    expected = "".join(_details(c) for c in clauses if c["status"] == "xfail") or "<p>None.</p>"
    na = "".join(f"<li>{escape(c['id'])}: {escape(na_reason(c))}</li>"
                 for c in clauses if c["status"] == "n/a")
    harness = "".join(
        f"<details><summary>{escape(t['nodeid'])}</summary>"
        f"<pre>{escape(t.get('evidence') or '')}</pre></details>"
        for t in document["harness_errors"]
    )
    body = [
        f"<h1>{escape(title)}</h1><p>{facts}</p>",
        f'<p><span class="verdict {state}">{state.upper()}</span> '
        f"{summary['executed']} of {summary['planned']} planned checks executed.</p>",
        f"<ul>{reasons}</ul>" if reasons else "",
        "<h2>By level</h2>", _matrix(document, "levels", "level"),
        "<h2>By category</h2>", _matrix(document, "categories", "category"),
        "<h2>Failures</h2>", failing,
        "<h2>Expected failures</h2>", expected,
        f"<h2>Not applicable</h2><ul>{na}</ul>" if na else "",
        f"<h2>Harness errors (bugs in agentconf)</h2>{harness}" if harness else "",
    ]
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{escape(title)}</title><style>{STYLE}</style></head>"
            f"<body>{''.join(body)}</body></html>\n")
