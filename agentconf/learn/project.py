"""A learner's project folder: the naive tool system `learn new` writes, and learn.toml, which
holds the plan of lessons (copied from the course) and the learner's progress."""

import tomllib
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any

from .course import CourseError, Lesson, lesson_from, load_course

PLAN = "learn.toml"
PROFILE = "agentconf.toml"
TEMPLATE_SUFFIX = ".tmpl"
LANGUAGES = ("python",)


class ProjectError(ValueError):
    """A project folder the course cannot use; the message says why, in one line."""


@dataclass(slots=True)
class Plan:
    folder: Path
    lessons: list[Lesson]
    current: str
    passed: list[str] = field(default_factory=list)
    profile: str = PROFILE

    def lesson(self, lesson_id: str | None = None) -> Lesson:
        wanted = lesson_id or self.current
        for lesson in self.lessons:
            if lesson.id == wanted:
                return lesson
        known = ", ".join(lesson.id for lesson in self.lessons)
        raise ProjectError(f"unknown lesson {wanted!r} in {self.folder / PLAN}; "
                           f"the lessons are {known}")

    def number(self, lesson: Lesson) -> int:
        return [entry.id for entry in self.lessons].index(lesson.id) + 1

    def after(self, lesson: Lesson) -> Lesson | None:
        index = self.number(lesson)
        return self.lessons[index] if index < len(self.lessons) else None

    def record_pass(self, lesson: Lesson) -> None:
        if lesson.id not in self.passed:
            self.passed.append(lesson.id)
        following = self.after(lesson)
        if lesson.id == self.current and following is not None:
            self.current = following.id

    def save(self) -> None:
        (self.folder / PLAN).write_text(render_plan(self), encoding="utf-8")


def starter(lang: str) -> Any:
    if lang not in LANGUAGES:
        raise ProjectError(f"no starting point in {lang!r}; there is: {', '.join(LANGUAGES)}")
    return files(__package__).joinpath("starter", lang)


def create_project(folder: Path, lang: str = "python") -> Plan:
    """Writes the naive tool system and learn.toml into `folder` (new, or empty)."""
    template = starter(lang)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ProjectError(f"{folder} exists and is not an empty folder")
    folder.mkdir(parents=True, exist_ok=True)
    _copy(template, folder)
    course = load_course()
    plan = Plan(folder, list(course.lessons), course.lessons[0].id)
    plan.save()
    return plan


def _copy(source: Any, target: Path) -> None:
    for entry in source.iterdir():
        if entry.is_dir():
            (target / entry.name).mkdir(exist_ok=True)
            _copy(entry, target / entry.name)
        elif entry.name.endswith(TEMPLATE_SUFFIX):
            name = entry.name.removesuffix(TEMPLATE_SUFFIX)
            (target / name).write_text(entry.read_text("utf-8"), encoding="utf-8")


def load_plan(folder: Path) -> Plan:
    path = folder / PLAN
    if not path.is_file():
        raise ProjectError(f"no {PLAN} in {folder}: start a project with "
                           "`agentconf learn new DIR`, or point at one with --dir")
    try:
        data = tomllib.loads(path.read_text("utf-8"))
        lessons = [lesson_from(table) for table in data["lesson"]]
        plan = Plan(folder, lessons, str(data["current"]),
                    [str(done) for done in data.get("passed", [])],
                    str(data.get("profile", PROFILE)))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ProjectError(f"{path} is not valid TOML: {error}") from None
    except (KeyError, TypeError) as error:
        raise ProjectError(f"{path} lacks {error} (a [[lesson]] list and `current`)") from None
    except CourseError as error:
        raise ProjectError(f"{path}: {error}") from None
    if not lessons:
        raise ProjectError(f"{path} has no [[lesson]]")
    plan.lesson()  # `current` must name one
    return plan


def render_plan(plan: Plan) -> str:
    lines = [
        "# agentconf learn: the plan of lessons and your progress.",
        "# `agentconf learn` runs the current lesson's clauses; when they pass, the next opens.",
        f"profile = {_string(plan.profile)}",
        f"current = {_string(plan.current)}",
        f"passed = [{', '.join(_string(done) for done in plan.passed)}]",
    ]
    for lesson in plan.lessons:
        lines += ["", "[[lesson]]", f"id = {_string(lesson.id)}",
                  f"title = {_string(lesson.title)}",
                  f"clauses = [{', '.join(_string(name) for name in lesson.clauses)}]"]
    return "\n".join(lines) + "\n"


def _string(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's for the characters used here)."""
    import json

    return json.dumps(text, ensure_ascii=False)
