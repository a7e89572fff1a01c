"""The course as data: lessons, hints, incidents and the reference code each clause points to.

The lessons, in the order the story is told, and the hints that fit any clause are read from
course.toml beside this module. What the course says of one category lives in that category's
folder (`suites/<category>/course.toml`, beside its clauses, checks, cases and mutants): the
lesson that teaches its MUST clauses no lesson names (so a new clause is taught without an edit
here), the reference code quoted, its hints, incidents and what is beyond the course. The command,
the pages under docs/learn/ and the learner test read the same data. Hints are chosen by evidence
(hints.py).
"""

import tomllib
from dataclasses import dataclass, replace
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from agentconf.contract import CATEGORIES, CLAUSES, Level
from agentconf.contract.categories import categories

from .hints import Hint, choose, hint_from


class CourseError(ValueError):
    """A lesson plan that names something the contract does not have."""


@dataclass(frozen=True, slots=True)
class Lesson:
    id: str
    title: str
    clauses: tuple[str, ...]  # clause ids or categories, as written
    story: str = ""
    hint: str = ""

    def clause_ids(self) -> list[str]:
        """The clause ids, categories expanded in catalogue order."""
        return expand(self.clauses)


@dataclass(frozen=True, slots=True)
class Incident:
    clauses: tuple[str, ...]
    title: str
    text: str
    link: str = ""


@dataclass(frozen=True, slots=True)
class Course:
    lessons: tuple[Lesson, ...]
    hints: tuple[Hint, ...]
    incidents: tuple[Incident, ...]
    reference: dict[str, str]  # clause id or category -> "FILE:QUALNAME" under reference/
    beyond: dict[str, str]  # clause id or category -> why the course leaves it out

    def lesson(self, lesson_id: str) -> Lesson:
        for lesson in self.lessons:
            if lesson.id == lesson_id:
                return lesson
        known = ", ".join(lesson.id for lesson in self.lessons)
        raise CourseError(f"unknown lesson {lesson_id!r}; the lessons are {known}")

    def hint(self, clause_id: str, evidence: str) -> Hint | None:
        """The hint for what this failure's evidence says (learn/hints.py), if one fits."""
        return choose(self.hints, clause_id, evidence)

    def hints_of(self, clause_id: str) -> list[Hint]:
        return [hint for hint in self.hints if hint.clause == clause_id]

    def incidents_of(self, clause_id: str) -> list[Incident]:
        return [incident for incident in self.incidents if clause_id in incident.clauses]

    def reference_of(self, clause_id: str) -> str | None:
        return self.reference.get(clause_id) or self.reference.get(CLAUSES[clause_id].category)


def expand(names: tuple[str, ...] | list[str]) -> list[str]:
    """Clause ids and categories -> clause ids (a category in catalogue order); CourseError for a
    name the contract does not know or has retired."""
    found: list[str] = []
    for name in names:
        if name in CATEGORIES:
            ids = [cid for cid, clause in CLAUSES.items()
                   if clause.category == name and not clause.retired]
        elif name in CLAUSES and CLAUSES[name].retired:
            raise CourseError(f"{name} is retired: {CLAUSES[name].retired}")
        elif name in CLAUSES:
            ids = [name]
        else:
            raise CourseError(f"{name!r} is neither a clause id nor a category of the contract")
        found += [cid for cid in ids if cid not in found]
    return found


def lesson_from(table: dict[str, Any]) -> Lesson:
    try:
        lesson = Lesson(id=str(table["id"]), title=str(table["title"]),
                        clauses=tuple(str(name) for name in table["clauses"]),
                        story=str(table.get("story", "")), hint=str(table.get("hint", "")))
    except (KeyError, TypeError) as error:
        raise CourseError(f"a lesson needs id, title and clauses (missing {error})") from None
    lesson.clause_ids()  # every name must exist
    return lesson


@cache
def load_course() -> Course:
    data = tomllib.loads(files(__package__).joinpath("course.toml").read_text("utf-8"))
    lessons = [lesson_from(table) for table in data["lesson"]]
    hints = [hint_from(table) for table in data.get("hint", [])]
    incidents: list[Incident] = []
    reference: dict[str, str] = {}
    beyond: dict[str, str] = {}
    teaches: dict[str, str] = {}  # category -> the lesson of its MUST clauses no lesson names
    for category in categories():
        if not category.course_file.is_file():
            continue
        notes = _notes(category.course_file)
        for key, into in (("reference", reference), ("beyond", beyond), ("lesson", teaches)):
            if key in notes:
                into[category.id] = str(notes[key])
        for clause_id, table in notes.get("clause", {}).items():
            if not clause_id.startswith(f"{category.id}-") or clause_id not in CLAUSES:
                raise CourseError(f"{category.course_file}: [clause.{clause_id}] is no clause "
                                  f"of {category.id}")
            for key, into in (("reference", reference), ("beyond", beyond)):
                if key in table:
                    into[clause_id] = str(table[key])
        hints += [hint_from(table) for table in notes.get("hint", [])]
        incidents += [Incident(clauses=tuple(entry["clauses"]), title=entry["title"],
                               text=entry["text"], link=entry.get("link", ""))
                      for entry in notes.get("incident", [])]
    return Course(lessons=_taught_by_default(lessons, teaches, beyond), hints=tuple(hints),
                  incidents=tuple(incidents), reference=reference, beyond=beyond)


_NOTE_KEYS = frozenset({"lesson", "reference", "beyond", "clause", "hint", "incident"})


def _notes(path: Path) -> dict[str, Any]:
    try:
        notes = tomllib.loads(path.read_text("utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise CourseError(f"{path} is not valid TOML: {error}") from None
    unknown = sorted(set(notes) - _NOTE_KEYS)
    if unknown:
        raise CourseError(f"{path}: unknown key(s) {', '.join(unknown)}; a category's course "
                          f"notes have {', '.join(sorted(_NOTE_KEYS))}")
    return notes


def _taught_by_default(lessons: list[Lesson], teaches: dict[str, str],
                       beyond: dict[str, str]) -> tuple[Lesson, ...]:
    """Each category's MUST clauses that no lesson names and the course does not leave out,
    added to the lesson its notes name: a new MUST clause is taught where its category is."""
    named = {clause_id for lesson in lessons for clause_id in lesson.clause_ids()}
    by_id = {lesson.id: index for index, lesson in enumerate(lessons)}
    for category, lesson_id in teaches.items():
        if lesson_id not in by_id:
            raise CourseError(f"suites/{category.lower()}/course.toml: lesson {lesson_id!r} is "
                              f"not a lesson of the course ({', '.join(by_id)})")
        if category in beyond:
            continue
        adopted = [clause_id for clause_id, clause in CLAUSES.items()
                   if clause.category == category and clause.level is Level.MUST
                   and not clause.retired and clause_id not in named and clause_id not in beyond]
        if adopted:
            index = by_id[lesson_id]
            lessons[index] = replace(lessons[index],
                                     clauses=(*lessons[index].clauses, *adopted))
    return tuple(lessons)
