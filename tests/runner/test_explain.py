"""`agentconf explain CLAUSE`: the clause, why it exists, and what checks it."""

from pathlib import Path

from cli import agentconf, assert_usage_error

from agentconf.commands.explain import mutants_killing, static_tests
from agentconf.contract import CLAUSES
from agentconf.contract.sources import SOURCES
from agentconf.harness.resources import suites_dir
from agentconf.harness.run import runner


def test_explain_shows_requirement_level_rationale_and_capabilities(tmp_path: Path) -> None:
    clause = next(c for c in CLAUSES.values() if c.requires)
    done = agentconf("explain", clause.id.lower(), "--static", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{clause.id} ({clause.level.value}, {clause.category})")
    for text in (clause.requirement, clause.rationale, f"Source: {SOURCES[clause.source]}",
    *clause.requires):
        assert text in done.stdout


def test_an_unknown_clause_suggests_close_ids(tmp_path: Path) -> None:
    assert_usage_error(agentconf("explain", "CONFINE-5", cwd=tmp_path),
                       "unknown clause 'CONFINE-5'", "CONFINE-05")


def test_the_static_scan_finds_tests_by_their_clause_marker(tmp_path: Path) -> None:
    suites = tmp_path / "suites"
    suites.mkdir()
    (suites / "test_demo.py").write_text(
        "import pytest\n\n"
        "@pytest.mark.clause('EDIT-01', 'EDIT-02')\ndef test_one(): pass\n\n"
        "@pytest.mark.clause('EDIT-02')\nasync def test_two(): pass\n\n"
        "@pytest.mark.requires('EDIT-01')\ndef test_three(): pass\n"
    )
    assert static_tests("EDIT-01", suites) == ["suites/test_demo.py::test_one"]
    assert static_tests("EDIT-02", suites) == ["suites/test_demo.py::test_one",
                                               "suites/test_demo.py::test_two"]


def test_collection_finds_every_test_the_static_scan_finds() -> None:
    collected = runner.collect_clause_tests()
    assert collected, "collecting the suites found no test"
    for clause_id in ("REGISTRY-01", "RESULT-01"):
        for nodeid in static_tests(clause_id, suites_dir()):
            assert any(found == nodeid or found.startswith(nodeid + "[")
                       for found, ids in collected.items() if clause_id in ids), nodeid


def test_mutants_are_read_from_the_gallery_table(tmp_path: Path) -> None:
    readme = tmp_path / "mutants.md"
    assert mutants_killing("EDIT-03", (readme,)) is None
    readme.write_text("| clause | level | mutants |\n|---|---|---|\n| EDIT-03 | MUST | `a` |\n\n"
                      "| mutant | kills |\n|---|---|\n| first_match | EDIT-03, EDIT-04 |\n"
                      "| lf_only | EOL-01 |\n| EDIT-030 | no |\n")
    assert mutants_killing("EDIT-03", (readme,)) == ["first_match — EDIT-03, EDIT-04"]


def test_a_category_lists_its_clauses(tmp_path: Path) -> None:
    done = agentconf("explain", "EOL", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    listed = [line.split()[0] for line in done.stdout.splitlines()[1:]]
    assert listed == [c.id for c in CLAUSES.values() if c.category == "EOL" and not c.retired]
    assert CLAUSES["EOL-01"].requirement in done.stdout


def test_a_capability_lists_the_clauses_that_are_na_without_it(tmp_path: Path) -> None:
    done = agentconf("explain", "read_before_edit", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("read_before_edit (a capability): ")
    assert "EDIT-08" in done.stdout and "EOL-01" not in done.stdout
    tool = agentconf("explain", "grep", cwd=tmp_path)  # the tool; GREP is the category
    assert tool.stdout.startswith("grep (a capability)") and "GREP-02" in tool.stdout
    assert_usage_error(agentconf("explain", "nonsense", cwd=tmp_path), "a category such as EOL")
