"""The course as data: lessons, hints, incidents and the reference code each clause points to.

Everything here is read from course.toml, beside this module; the command, the pages under
docs/learn/ and the learner test read the same file. Hints are chosen by evidence (hints.py).
"""

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

from agentconf.contract import CATEGORIES, CLAUSES

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
    return Course(
        lessons=tuple(lesson_from(table) for table in data["lesson"]),
        hints=tuple(hint_from(table) for table in data.get("hint", [])),
        incidents=tuple(Incident(clauses=tuple(entry["clauses"]), title=entry["title"],
                                 text=entry["text"], link=entry.get("link", ""))
                        for entry in data.get("incident", [])),
        reference=dict(data.get("reference", {})),
        beyond=dict(data.get("beyond", {})),
    )
