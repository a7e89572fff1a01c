"""The lesson view on the console: where the learner stands, and everything about the first
clause that fails (what happened, why it matters, the reference's code, the mutant, a hint)."""

import json
import textwrap

from .lesson import NOT_APPLICABLE, PASSING, ClauseOutcome, LessonOutcome
from .material import Material, material
from .project import Plan

WIDTH = 100
EVIDENCE_LINES = 24
EVIDENCE_LINE_CHARS = 220


def render_outcome(plan: Plan, outcome: LessonOutcome) -> str:
    lesson = outcome.lesson
    lines = [f"Lesson {plan.number(lesson)} of {len(plan.lessons)}: {lesson.title}",
             _counts(outcome), *_not_applicable(outcome), ""]
    if outcome.passed:
        lines += _passed(plan, outcome)
    elif not outcome.failing:
        lines += ["NOT JUDGED: the run stopped before every check had run; see the report."]
    else:
        first = outcome.failing[0]
        lines += render_failure(first, material(first.id, lesson, first.evidence))
        rest = [entry.id for entry in outcome.failing[1:]]
        if rest:
            lines += ["", f"Also failing in this lesson: {', '.join(rest)}"]
    if outcome.elsewhere:
        lines += ["", "Found on the way (clauses of other lessons):"]
        lines += [f"  {entry.id} {entry.status}: {_first_line(entry.evidence)}"
                  for entry in outcome.elsewhere]
    lines += ["", progress(plan), f"The lesson's page: agentconf learn show {lesson.id}"]
    return "\n".join(lines) + "\n"


def _counts(outcome: LessonOutcome) -> str:
    """Passed and n/a apart: an n/a lets a lesson pass, but it is never counted as a pass."""
    passing = sum(entry.status in PASSING for entry in outcome.clauses)
    na = sum(entry.status in NOT_APPLICABLE for entry in outcome.clauses)
    return f"{passing} of {len(outcome.clauses)} clauses pass" + (f", {na} n/a" if na else "")


def _not_applicable(outcome: LessonOutcome) -> list[str]:
    """n/a lets a lesson pass only with its reason in view."""
    return [f"  n/a {entry.id}: {entry.reason.removeprefix('n/a: ')}"
            for entry in outcome.clauses if entry.status in NOT_APPLICABLE]


def _passed(plan: Plan, outcome: LessonOutcome) -> list[str]:
    following = plan.after(outcome.lesson)
    lines = [f"PASSED: every clause of lesson {plan.number(outcome.lesson)} holds."]
    if following is None:
        return [*lines, "That was the last lesson. Check the whole contract now:",
                f"  agentconf run --profile {plan.profile}"]
    return [*lines, f"Next: lesson {plan.number(following)}, {following.title} "
            f"({', '.join(following.clauses)}). Run `agentconf learn` again."]


def render_failure(outcome: ClauseOutcome, facts: Material) -> list[str]:
    clause = facts.clause
    lines = [f"FAILS: {clause.id} ({clause.level.value}) {clause.requirement}", "",
             "What the model was told, and what happened on the disk:"]
    if "request:" not in outcome.evidence:  # say what was asked before what happened
        lines += _case_calls(outcome.case)
    lines += _indented(_evidence(outcome.evidence))
    if outcome.reproduce:
        lines += [f"  replay it: {outcome.reproduce}"]
    lines += ["", "Why it matters:", *_wrapped(clause.rationale),
              f"  Source: {facts.source}"]
    for incident in facts.incidents:
        lines += [f"  Incident: {incident.title}", *_wrapped(incident.text, "    ")]
        if incident.link:
            lines += [f"    {incident.link}"]
    if facts.code is not None:
        lines += ["", f"The reference does it like this ({facts.code.where}):"]
        lines += _indented(facts.code.text())
    for mutant in facts.mutants[:1]:
        known = f" Known from {mutant.known_from}." if mutant.known_from else ""
        lines += ["", f"The same mistake, as a mutant of the gallery: {mutant.name}",
                  *_wrapped(mutant.defect + known)]
    if facts.hint is not None:
        lines += ["", "Hint, for what the check saw:", *_wrapped(facts.hint.text)]
    elif facts.lesson_hint:
        lines += ["", "The lesson's hint (no hint of the course fits this evidence; read it "
                  "above):", *_wrapped(facts.lesson_hint)]
    return lines


def _case_calls(case_id: str | None) -> list[str]:
    """The calls a golden case made, for evidence that names the case but not its request."""
    if case_id is None:
        return []
    from agentconf.harness.cases.load import CaseFileError, load_cases

    try:
        case = next((case for case in load_cases() if case.id == case_id), None)
    except CaseFileError:
        return []
    if case is None:
        return []
    lines = [f"  the case {case.id}: {case.description}"]
    for call in case.calls:
        if "tool" in call:
            arguments = json.dumps(call.get("arguments", {}), ensure_ascii=False)
            lines.append(f"  request: {call['tool']} {arguments}"[:EVIDENCE_LINE_CHARS])
    return lines


def progress(plan: Plan) -> str:
    marks = "".join("#" if lesson.id in plan.passed else "." for lesson in plan.lessons)
    return (f"Progress: [{marks}] {len(plan.passed)} of {len(plan.lessons)} lessons passed; "
            f"current: {plan.current}")


def _evidence(text: str) -> str:
    lines = [line if len(line) <= EVIDENCE_LINE_CHARS
             else line[:EVIDENCE_LINE_CHARS] + f" …[{len(line) - EVIDENCE_LINE_CHARS} chars]"
             for line in text.strip().splitlines()]
    if len(lines) > EVIDENCE_LINES:
        lines = [*lines[:EVIDENCE_LINES], f"…[{len(lines) - EVIDENCE_LINES} more lines]"]
    return "\n".join(lines) or "(no evidence recorded)"


def _first_line(text: str) -> str:
    line = (text.strip().splitlines() or [""])[0]
    return line if len(line) <= EVIDENCE_LINE_CHARS else line[:EVIDENCE_LINE_CHARS] + " …"


def _indented(text: str, prefix: str = "  ") -> list[str]:
    return [prefix + line for line in text.splitlines()]


def _wrapped(text: str, prefix: str = "  ") -> list[str]:
    return textwrap.wrap(" ".join(text.split()), WIDTH, initial_indent=prefix,
                         subsequent_indent=prefix)
