"""The course as data: every name it uses exists (clauses, reference code, mutants), every MUST
clause is taught or said to be beyond the course, and the starter and the solutions line up with
the lessons."""

import re
from dataclasses import replace
from pathlib import Path

import pytest

from agentconf.contract import CLAUSES, Level
from agentconf.learn.course import CourseError, expand, lesson_from, load_course
from agentconf.learn.material import gallery_mutants, material, mutant_kills
from agentconf.learn.quote import QuoteError, quote

from .journey import FROM_PLAIN, PLAIN, SOLUTIONS

COURSE = load_course()
STARTER = Path(__file__).resolve().parents[2] / "agentconf" / "learn" / "starter" / "python"


def test_lessons_have_unique_ids_and_each_clause_is_taught_once() -> None:
    ids = [lesson.id for lesson in COURSE.lessons]
    assert len(ids) == len(set(ids)) == 12
    taught = [cid for lesson in COURSE.lessons for cid in lesson.clause_ids()]
    assert len(taught) == len(set(taught)), "a clause in two lessons"


def test_every_must_clause_is_taught_or_said_to_be_beyond_the_course() -> None:
    taught = {cid for lesson in COURSE.lessons for cid in lesson.clause_ids()}
    beyond = set(expand(list(COURSE.beyond)))
    musts = {cid for cid, clause in CLAUSES.items()
             if clause.level is Level.MUST and not clause.retired}
    assert musts - taught - beyond == set()
    assert not taught & beyond


def test_hints_and_incidents_name_clauses_of_the_contract() -> None:
    assert {hint.clause for hint in COURSE.hints} <= set(CLAUSES) | {"*"}
    for incident in COURSE.incidents:
        assert set(incident.clauses) <= set(CLAUSES), incident.title


@pytest.mark.parametrize("clause_id", sorted({cid for lesson in COURSE.lessons
                                              for cid in lesson.clause_ids()}))
def test_every_taught_clause_quotes_reference_code_that_exists(clause_id: str) -> None:
    target = COURSE.reference_of(clause_id)
    assert target is not None, f"{clause_id}: no [reference] entry for it or its category"
    found = quote(target)
    name = target.rpartition(".")[2].rpartition(":")[2]
    assert re.match(rf"\s*(async def|def|class) {name}\b", found.lines[0]) or \
        found.lines[0].lstrip().startswith("@"), found.lines[0]


def test_a_quote_of_code_the_reference_does_not_have_is_refused() -> None:
    with pytest.raises(QuoteError):
        quote("sandbox/paths.py:no_such_function")
    with pytest.raises(QuoteError):
        quote("no/such/file.py:confine")


def test_a_lesson_naming_an_unknown_or_retired_clause_is_refused() -> None:
    with pytest.raises(CourseError, match="neither a clause id nor a category"):
        lesson_from({"id": "x", "title": "X", "clauses": ["CONFINE-99"]})
    with pytest.raises(CourseError, match="retired"):
        lesson_from({"id": "x", "title": "X", "clauses": ["REGISTRY-06"]})


def test_the_famous_mistakes_come_with_their_incident_and_mutant() -> None:
    prefix = material("CONFINE-04", COURSE.lesson("confinement"))
    assert any("CVE-2025-53110" in incident.title for incident in prefix.incidents)
    assert "PrefixContainment" in [mutant.name for mutant in prefix.mutants]
    links = material("SYMLINK-01", COURSE.lesson("symlinks"))
    assert any("CVE-2025-53109" in incident.title for incident in links.incidents)
    assert all("CONFINE-04" in mutant_kills(mutant) for mutant in prefix.mutants)
    assert gallery_mutants()


def test_the_course_names_source_projects_never_seed_files() -> None:
    text = (Path(__file__).resolve().parents[2] / "agentconf" / "learn" /
            "course.toml").read_text("utf-8")
    assert not re.search(r"(?i)\bseed\b", text)


def test_the_starter_is_python_that_compiles() -> None:
    templates = sorted(STARTER.rglob("*.py.tmpl"))
    assert len(templates) >= 14
    for template in templates:
        compile(template.read_text("utf-8"), str(template), "exec")


def test_there_is_one_solution_per_lesson_and_it_names_real_files() -> None:
    assert sorted(path.name for path in SOLUTIONS.iterdir()) == \
        sorted(lesson.id for lesson in COURSE.lessons)
    for folder in SOLUTIONS.iterdir():
        listed = folder / FROM_PLAIN
        names = listed.read_text("utf-8").split() if listed.is_file() else []
        own = [path for path in folder.rglob("*") if path.is_file() and path.name != FROM_PLAIN]
        assert names or own, f"{folder.name}: an empty solution"
        assert all((PLAIN / name).is_file() for name in names), folder.name


def test_a_must_clause_no_lesson_names_is_taught_by_its_category_folders_lesson() -> None:
    """A new clause is one folder's change: its category's course notes name the lesson that
    takes it. Shown by leaving two clauses out of the lessons as written: each comes back where
    its folder says, SHOULD clauses are never adopted, and what is beyond stays out."""
    from agentconf.learn.course import _taught_by_default

    edits = COURSE.lesson("edit-safety")
    without = [lesson if lesson.id != "edit-safety" else
               replace(lesson, clauses=tuple(c for c in lesson.clauses
                                             if c not in ("EDIT-03", "EDIT-09")))
               for lesson in COURSE.lessons]
    taught = _taught_by_default(without, {"EDIT": "edit-safety", "CANCEL": "shell"},
                                {"CANCEL": "async only"})
    adopted = next(lesson for lesson in taught if lesson.id == "edit-safety")
    assert set(adopted.clause_ids()) == set(edits.clause_ids())
    assert adopted.clauses[-2:] == ("EDIT-03", "EDIT-09")
    assert not any(cid.startswith("CANCEL") for lesson in taught for cid in lesson.clause_ids())
    with pytest.raises(CourseError, match="lesson 'no-such-lesson' is not a lesson"):
        _taught_by_default(list(COURSE.lessons), {"EDIT": "no-such-lesson"}, {})


def test_per_category_notes_live_in_the_category_folders() -> None:
    import tomllib

    from agentconf.contract.categories import categories

    shared = tomllib.loads((STARTER.parents[1] / "course.toml").read_text("utf-8"))
    assert set(shared) == {"lesson", "hint"}
    assert {hint["clause"] for hint in shared["hint"]} == {"*"}
    folders = {category.id for category in categories() if category.course_file.is_file()}
    assert {cid.split("-")[0] for cid in COURSE.reference} <= folders
    assert {hint.clause.split("-")[0] for hint in COURSE.hints} - {"*"} <= folders


def test_a_category_note_with_an_unknown_key_is_refused(tmp_path: Path) -> None:
    from agentconf.learn.course import _notes

    notes = tmp_path / "course.toml"
    notes.write_text('lesson = "shell"\nreferences = "tools/bash.py:handler"\n', "utf-8")
    with pytest.raises(CourseError, match="unknown key\\(s\\) references"):
        _notes(notes)
