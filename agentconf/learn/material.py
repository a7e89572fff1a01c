"""What the course says about one clause: the requirement, why (rationale, source project, real
incidents), the reference's code that meets it, the mutants that show the mistake, and a hint.
The console (`agentconf learn`) and the pages under docs/learn/ both render this."""

from dataclasses import dataclass
from functools import cache

from agentconf.contract import CLAUSES, Clause
from agentconf.contract.sources import SOURCES

from .course import Incident, Lesson, load_course
from .hints import Hint
from .quote import Quote, quote


@dataclass(frozen=True, slots=True)
class Mutant:
    name: str
    defect: str
    known_from: str


@dataclass(frozen=True, slots=True)
class Material:
    clause: Clause
    source: str  # the source project, described
    incidents: tuple[Incident, ...]
    code: Quote | None
    mutants: tuple[Mutant, ...]  # of a failure: the chosen hint's mutant; of a page: all
    hint: Hint | None  # of a failure: the one its evidence calls for
    hints: tuple[Hint, ...]  # every hint of the clause (the page lists them)
    lesson_hint: str  # the lesson's own, general hint


def material(clause_id: str, lesson: Lesson, evidence: str | None = None) -> Material:
    """What the course says about the clause; for a failure (`evidence` given) the hint and the
    mutant are the ones its evidence calls for, never the clause's first by default."""
    course = load_course()
    clause = CLAUSES[clause_id]
    target = course.reference_of(clause_id)
    killing = [mutant for mutant in gallery_mutants() if clause_id in mutant_kills(mutant)]
    hint = course.hint(clause_id, evidence) if evidence is not None else None
    if evidence is not None:
        killing = [mutant for mutant in gallery_mutants()
                   if hint is not None and mutant.name == hint.mutant]
    return Material(
        clause=clause,
        source=SOURCES.get(clause.source, clause.source),
        incidents=tuple(course.incidents_of(clause_id)),
        code=quote(target) if target else None,
        mutants=tuple(killing),
        hint=hint,
        hints=tuple(course.hints_of(clause_id)),
        lesson_hint=_course_lesson(lesson).hint,
    )


def _course_lesson(lesson: Lesson) -> Lesson:
    """The course's own lesson of that id (a learner's plan carries no hints), else `lesson`."""
    return next((entry for entry in load_course().lessons if entry.id == lesson.id), lesson)


@cache
def _gallery() -> dict[str, tuple[Mutant, tuple[str, ...]]]:
    """The mutant gallery (tests/mutants in a checkout, agentconf/_data/mutants in a wheel):
    each mutant with the clauses it names; empty when this installation has no gallery."""
    from agentconf.selfcheck.mutants import gallery

    try:
        entries = gallery().entries()
    except (FileNotFoundError, ImportError):
        return {}
    return {entry.name: (Mutant(entry.name, entry.defect, entry.known_from), tuple(entry.kills))
            for entry in entries}


def gallery_mutants() -> list[Mutant]:
    return [mutant for mutant, _ in _gallery().values()]


def mutant_kills(mutant: Mutant) -> tuple[str, ...]:
    return _gallery()[mutant.name][1]
