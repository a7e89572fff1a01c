"""A run of a few clauses is given only the suite modules that hold them (harness/run/
suite_files.py): every collected check must sit in a module given for each of its clauses and
categories, or a `--clauses` run would silently run fewer checks than a whole one."""

from collections import defaultdict
from pathlib import Path

from agentconf.contract import CATEGORIES, CLAUSES
from agentconf.harness.resources import suites_dir
from agentconf.harness.run.runner import collect_clause_tests
from agentconf.harness.run.suite_files import suite_files


def test_every_check_sits_in_a_module_given_for_its_clause_and_its_category() -> None:
    collected = collect_clause_tests()
    assert len(collected) > 1000
    holding: dict[str, set[str]] = defaultdict(set)
    for nodeid, clause_ids in collected.items():
        module = nodeid.split("::")[0].split("/")[-1]
        for clause_id in clause_ids:
            holding[clause_id].add(module)
            holding[clause_id.split("-")[0]].add(module)
    assert set(holding) - set(CATEGORIES) <= set(CLAUSES)
    missing = {}
    for name in sorted(set(CLAUSES) | set(CATEGORIES)):
        given = {path.name for path in suite_files(suites_dir(), [name])}
        if holding[name] - given:
            missing[name] = sorted(holding[name] - given)
    assert not missing, missing


def test_a_few_clauses_leave_the_other_modules_uncollected() -> None:
    given = {path.name for path in suite_files(suites_dir(), ["READ-01", "EOL"])}
    assert {"test_read.py", "test_eol.py"} <= given
    assert "test_shell.py" not in given and "test_grep.py" not in given


def test_a_module_naming_its_clauses_otherwise_is_always_given(tmp_path: Path) -> None:
    (tmp_path / "test_literal.py").write_text(
        "import pytest\n@pytest.mark.clause('READ-01')\ndef test_a(): pass\n", "utf-8")
    (tmp_path / "test_from_data.py").write_text(
        "import pytest\nIDS = ['EDIT-01']\n@pytest.mark.clause(*IDS)\ndef test_b(): pass\n",
        "utf-8")
    (tmp_path / "test_by_scenario.py").write_text(
        "import pytest\n@pytest.mark.scenario('GREP-01')\ndef test_c(): pass\n", "utf-8")
    given = {path.name for path in suite_files(tmp_path, ["SHELL"])}
    assert given == {"test_from_data.py", "test_by_scenario.py"}
    assert {p.name for p in suite_files(tmp_path, ["READ"])} == given | {"test_literal.py"}
