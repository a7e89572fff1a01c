"""A clause has a home: its category's folder under suites/ holds its clauses, its checks, its
golden cases and its mutants, each about that category alone, and every MUST clause of it has a
mutant in that folder that it kills. A new clause is then one folder's change (and the
changelog's line), never a hunt through six places."""

import ast
import json
from dataclasses import replace
from pathlib import Path

from agentconf.contract import CLAUSES, Level, active_clauses
from agentconf.contract.categories import Category, categories
from agentconf.selfcheck.gallery import Entry, entries

# A case plays calls on one usual session: checks that need the implementation started in a mode
# (SURFACE, PERMISSION) or a call cancelled while it runs (CANCEL) have no case shape, as
# tests/cases/test_lint.py holds the shipped cases to.
WITHOUT_CASES = {"SURFACE", "PERMISSION", "CANCEL"}


def _marked_clauses(module: Path) -> set[str]:
    """The clause ids a suite module names in its `clause(...)` marks."""
    found = set()
    for node in ast.walk(ast.parse(module.read_text("utf-8"))):
        if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("mark.clause"):
            found |= {arg.value for arg in node.args
                      if isinstance(arg, ast.Constant) and isinstance(arg.value, str)}
    return found


def _strays(category: Category) -> list[str]:
    """What the folder holds of another category: checks, cases or clauses."""
    strays = [f"{module.name}: {clause}"
              for module in sorted(category.folder.glob("test_*.py"))
              for clause in sorted(_marked_clauses(module))
              if CLAUSES[clause].category != category.id]
    if category.cases_file.is_file():
        cases = json.loads(category.cases_file.read_text("utf-8"))["cases"]
        strays += [f"cases.json: {case['id']} ({clause})" for case in cases
                   for clause in case["clauses"] if CLAUSES[clause].category != category.id]
    return strays


def test_every_category_folder_holds_its_clauses_checks_cases_and_mutants() -> None:
    assert len(categories()) == 19
    for category in categories():
        assert category.clauses_file.is_file(), category.folder
        assert list(category.folder.glob("test_*.py")), f"{category.folder} has no checks"
        assert category.mutants_file.is_file(), f"{category.folder} has no mutants.py"
        assert category.cases_file.is_file() is (category.id not in WITHOUT_CASES), category.id


def test_a_category_folder_holds_nothing_of_another_category() -> None:
    strays = {category.id: _strays(category) for category in categories()}
    assert all(not found for found in strays.values()), strays


def homeless(gallery: list[Entry]) -> list[str]:
    """The MUST clauses that no mutant of their own category's folder fails."""
    return [clause.id for clause in active_clauses() if clause.level is Level.MUST
            and not any(entry.module == clause.category.lower() and clause.id in entry.kills
                        for entry in gallery)]


def away(gallery: list[Entry]) -> list[str]:
    """The mutants that fail no clause of the folder they live in."""
    return [entry.name for entry in gallery
            if not any(CLAUSES[clause].category.lower() == entry.module for clause in entry.kills)]


def test_every_must_clause_kills_a_mutant_of_its_own_folder() -> None:
    assert homeless(entries()) == []


def test_every_mutant_fails_a_clause_of_the_folder_it_lives_in() -> None:
    assert away(entries()) == []


def test_the_checks_see_a_stray_clause_and_a_missing_file(tmp_path: Path) -> None:
    folder = tmp_path / "edit"
    folder.mkdir()
    (folder / "test_edit.py").write_text(
        "import pytest\n@pytest.mark.clause('READ-01')\ndef test_a(): pass\n", "utf-8")
    (folder / "cases.json").write_text(json.dumps({"cases": [
        {"id": "x", "clauses": ["EDIT-01"]}, {"id": "y", "clauses": ["GREP-01"]}]}), "utf-8")
    category = Category("EDIT", 70, folder)
    assert _strays(category) == ["test_edit.py: READ-01", "cases.json: y (GREP-01)"]
    assert not category.mutants_file.is_file()


def test_the_checks_see_a_mutant_away_from_home_and_a_clause_left_without_one() -> None:
    moved = [replace(entry, module="read") if entry.module == "edit" else entry
             for entry in entries()]
    assert "FirstMatchReplace" in away(moved)
    assert "EDIT-03" in homeless(moved)
