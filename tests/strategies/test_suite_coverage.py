"""Every clause of the catalogue is checked by the suites, and the suites check enough.

The suites are read statically (their `@pytest.mark.clause(...)` decorators) so that this test
does not depend on an implementation, and collected once with pytest to count their checks.
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from agentconf.contract import CATEGORIES, CLAUSES, Level, active_clauses

SUITES = Path(__file__).resolve().parents[2] / "suites"
# A category's checks are the test modules of its folder (suites/<category>/test_*.py); the
# golden-file suites at the top (suites/test_cases.py) tag clauses of every category.
CATEGORY_MODULES = {category: sorted((SUITES / category.lower()).glob("test_*.py"))
                    for category in CATEGORIES}
MINIMUM_CHECKS = 120


def _clause_tags(module: Path) -> dict[str, list[str]]:
    """Test function name -> the clause ids its `@pytest.mark.clause(...)` decorators name."""
    tree = ast.parse(module.read_text("utf-8"), filename=str(module))
    tags: dict[str, list[str]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef) or not node.name.startswith("test_"):
            continue
        for decorator in node.decorator_list:
            if (
                isinstance(decorator, ast.Call)
                and isinstance(decorator.func, ast.Attribute)
                and decorator.func.attr == "clause"
            ):
                tags.setdefault(node.name, []).extend(
                    arg.value for arg in decorator.args if isinstance(arg, ast.Constant)
                )
    return tags


def _all_tags() -> dict[str, set[str]]:
    """Clause id -> the tests (module::function) that check it."""
    checked: dict[str, set[str]] = {}
    for module in sorted(SUITES.glob("test_*.py")) + sorted(SUITES.glob("*/test_*.py")):
        for test, ids in _clause_tags(module).items():
            for clause_id in ids:
                checked.setdefault(clause_id, set()).add(f"{module.name}::{test}")
    return checked


def test_every_must_clause_has_a_suite_test() -> None:
    checked = _all_tags()
    missing = [c.id for c in active_clauses() if c.level is Level.MUST and c.id not in checked]
    assert not missing, f"MUST clauses no suite test checks: {missing}"


def test_every_active_clause_has_a_suite_test() -> None:
    checked = _all_tags()
    missing = [clause.id for clause in active_clauses() if clause.id not in checked]
    assert not missing, f"clauses no suite test checks: {missing}"


def test_suites_tag_only_clauses_of_the_catalogue() -> None:
    unknown = sorted(set(_all_tags()) - set(CLAUSES))
    assert not unknown, f"unknown clause ids in the suites: {unknown}"


@pytest.mark.parametrize("category", CATEGORIES)
def test_each_category_module_checks_only_its_own_category(category: str) -> None:
    modules = CATEGORY_MODULES[category]
    assert modules, f"suites/{category.lower()}/ has no test module"
    for module in modules:
        tags = _clause_tags(module)
        assert tags, f"{module.name} has no clause-tagged test"
        for test, ids in tags.items():
            assert ids, f"{module.name}::{test} names no clause"
            assert all(cid.startswith(category + "-") for cid in ids), f"{test}: {ids}"


def test_every_test_function_in_a_category_module_is_tagged() -> None:
    for module in (module for modules in CATEGORY_MODULES.values() for module in modules):
        tree = ast.parse(module.read_text("utf-8"))
        tests = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)
                 and n.name.startswith("test_")]
        untagged = sorted(set(tests) - set(_clause_tags(module)))
        assert not untagged, f"{module.name}: untagged tests {untagged}"


def test_the_category_suites_hold_at_least_120_distinct_checks(tmp_path: Path) -> None:
    modules = [str(path) for paths in CATEGORY_MODULES.values() for path in paths]
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "--rootdir", str(tmp_path), *modules],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False,
    )
    node_ids = [line for line in collected.stdout.splitlines() if "::" in line]
    assert collected.returncode == 0, collected.stdout[-2000:] + collected.stderr[-2000:]
    assert len(node_ids) >= MINIMUM_CHECKS, f"only {len(node_ids)} checks collected"
