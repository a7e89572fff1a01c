"""report.md: the summary by level and category, then every failure with its evidence and the one
line that reproduces it (schemathesis "Reproduce with")."""

import re
from typing import Any

from .escapes import escapes
from .summary_tables import counts_table, implementation_title, partly_judged

NOT_GREEN = ("fail", "error", "xpass")


def fenced(text: str) -> str:
    """A code block whose fence no backtick run inside `text` can close."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}"


def na_reason(clause: dict[str, Any]) -> str:
    """Why a clause did not apply: the first test's skip reason, on one line."""
    for test in clause["tests"]:
        if test.get("evidence"):
            return test["evidence"].strip().splitlines()[0]
    return clause["evidence"] or "no reason given"


def message_name(test: dict[str, Any]) -> str:
    """A message check's scenario (`edit_file-edit-not-found-absent`) from its node id."""
    nodeid = str(test["nodeid"])
    return nodeid.rpartition("[")[2].rstrip("]") if "[" in nodeid else nodeid


def _heading(document: dict[str, Any]) -> list[str]:
    run, verdict = document["run"], document["verdict"]
    summary = document["summary"]
    facts = [
        f"implementation `{document['implementation']['spec']}`",
        f"contract {document['contract_version']}",
        f"agentconf {document['kit_version']}",
        f"hypothesis profile {run.get('hypothesis_profile') or 'default'}",
        f"seed {run.get('seed') or 'random'}",
        f"platform {run.get('platform') or 'unknown'}",
        f"started {run.get('started') or '?'}, finished {run.get('finished') or 'never'}",
    ]
    title = f"# agentconf conformance: {implementation_title(document)}"
    lines = [title, "", " · ".join(facts), ""]
    state = "GREEN" if verdict["green"] else "RED"
    lines.append(f"**{state}** (exit {verdict['exit_code']}): "
                 f"{summary['executed']} of {summary['planned']} planned checks executed.")
    lines += [f"- {reason}" for reason in verdict["reasons"]]
    lines += [f"- fact: {fact}" for fact in _facts(document)]
    found = escapes(document)
    if found:
        lines += ["", f"## Escapes ({len(found)})", "",
                  "The disk outside the root changed, or a canary's secret came back:", ""]
        for item in found:
            lines.append(f"- {item['clause']}: `{item['finding']}`")
            if item["reproduce"]:
                lines.append(f"  Reproduce: `{item['reproduce']}`")
    return lines


def _facts(document: dict[str, Any]) -> list[str]:
    """What the run found out about the implementation that is no clause's verdict."""
    shell = next((c for c in document["clauses"] if c["id"] == "SHELL-13"), None)
    if shell is not None and shell["status"] == "n/a" and "not confined" in shell["evidence"]:
        return ["the shell is not confined (it claims no sandbox): a command can reach anything "
                "the user can"]
    return []


def _clause_section(clause: dict[str, Any]) -> list[str]:
    lines = ["", f"### {clause['id']} ({clause['level']}, {clause['status']})", "",
             clause["requirement"], ""]
    for key, reason in (clause.get("expected_failure") or {}).items():
        lines.append(f"Expected failure `{key}`: {reason}")
    if clause["evidence"]:
        lines += [fenced(clause["evidence"]), ""]
    if clause["reproduce"]:
        lines.append(f"Reproduce: `{clause['reproduce']}`")
    return lines


def _judged_in_part(document: dict[str, Any]) -> list[str]:
    partly = partly_judged(document)
    if not partly:
        return []
    lines = ["", "## Judged in part", "",
             "Each verdict below stands on what was judged; the rest stood on a premise not "
             "proven (one the profile's draft could not prove, [unproven], or the scenario a "
             "check needed, which did not happen) or on a call the kit does not make (a "
             "destructive tool sent a path that may resolve outside the sandbox): a check not "
             "judged, or a check that judged some of what it names (some tools, say) and not "
             "the rest:", ""]
    for clause, unjudged in partly:
        first = str(unjudged[0].get("evidence") or "").strip().splitlines()[0]
        missing = sum(test["outcome"] == "n/a" for test in unjudged)
        said = [f"{count} {what}" for count, what in ((missing, "not judged"), (
            len(unjudged) - missing, "judged in part")) if count]
        lines.append(f"- {clause['id']} ({clause['status']}): of {len(clause['tests'])} checks "
                     f"{', '.join(said)}: {first}")
    return lines


def render_markdown(document: dict[str, Any]) -> str:
    clauses = document["clauses"]
    lines = _heading(document)
    lines += ["", "## By level", "", counts_table(document, "levels"),
              "", "## By category", "", counts_table(document, "categories")]
    sections = [
        ("Failures", [c for c in clauses if c["status"] in NOT_GREEN]),
        ("Expected failures", [c for c in clauses if c["status"] == "xfail"]),
    ]
    for title, chosen in sections:
        lines += ["", f"## {title}"]
        if not chosen:
            lines += ["", "None."]
        for clause in chosen:
            lines += _clause_section(clause)
    unchecked = document["summary"]["unchecked"]
    if unchecked:
        lines += ["", "## Not checked", "",
                  f"No test in the suites checks {', '.join(unchecked)} (reported n/a)."]
    lines += _judged_in_part(document)
    not_applicable = [c for c in clauses if c["status"] == "n/a" and c["tests"]]
    if not_applicable:
        lines += ["", "## Not applicable", ""]
        lines += [f"- {c['id']}: {na_reason(c)}" for c in not_applicable]
    messages = document.get("messages") or []
    if messages:
        lines += ["", "## Messages changed (wording, apart from the clauses)", "",
                  "Each message below differs from its recorded snapshot, or has none."]
        for test in messages:
            lines += ["", f"### {message_name(test)}", "", fenced(test.get("evidence") or "")]
            if test.get("reproduce"):
                lines.append(f"Reproduce: `{test['reproduce']}`")
    if document["harness_errors"]:
        lines += ["", "## Harness errors (bugs in agentconf, not in the implementation)"]
        for test in document["harness_errors"]:
            lines += ["", f"### {test['nodeid']}", "", fenced(test.get("evidence") or "")]
            if test.get("reproduce"):
                lines.append(f"Reproduce: `{test['reproduce']}`")
    return "\n".join(lines).rstrip() + "\n"
