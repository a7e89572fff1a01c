"""`agentconf run` through the real CLI: pytest in a subprocess, reports on disk, exit status.

The implementation under test is a tiny Python module written into the test's temp dir: it
advertises read_file but answers every call with TOOL_NOT_FOUND, which breaks REGISTRY-03
(advertised == callable) and nothing about it depends on how the suites phrase their checks.
"""

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from cli import agentconf

from agentconf.harness.report import validate_document

BROKEN = '''
class _Tools:
    def list_tools(self):
        return [{"name": "read_file", "description": "Read a file.",
                 "input_schema": {"type": "object", "properties": {"path": {"type": "string"}},
                                  "required": ["path"]}}]

    def call_tool(self, name, arguments):
        return {"success": False, "data": f"there is no tool {name}", "error": "TOOL_NOT_FOUND"}


def create(workspace):
    return _Tools()
'''
CLAUSE = "REGISTRY-03"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "broken_tools.py").write_text(BROKEN)
    # A hostile project: its pytest config and conftest must not reach the suites' run.
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = --no-such-option\n")
    (tmp_path / "conftest.py").write_text("raise SystemExit('the user conftest was loaded')\n")
    return tmp_path


def statuses(report: Path) -> dict[str, str]:
    document = json.loads((report / "conformance.json").read_text())
    validate_document(document)
    return {clause["id"]: clause["status"] for clause in document["clauses"]}


def test_a_broken_implementation_gets_a_red_run_and_every_report(project: Path) -> None:
    done = agentconf("run", "--impl", "python:broken_tools:create", "--clauses", CLAUSE,
                     cwd=project)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    report = project / "reports" / "broken_tools"
    assert statuses(report) == {CLAUSE: "fail"}
    assert f"FAIL  {CLAUSE}" in done.stdout and "RED" in done.stdout
    first = json.loads((report / "events.jsonl").read_text().splitlines()[0])
    assert first["event"] == "run_start"
    cases = ET.parse(report / "junit.xml").getroot().iter("testcase")
    assert [case.get("name", "").split()[0] for case in cases] == [CLAUSE]
    markdown = (report / "report.md").read_text()
    assert "Reproduce: `agentconf replay --impl python:broken_tools:create " in markdown
    assert json.loads((report / "badge.json").read_text())["color"] == "red"


def test_a_baseline_turns_the_run_green_until_the_failure_is_fixed(project: Path) -> None:
    base = ["run", "--clauses", CLAUSE, "--report", "out"]
    broken = [*base, "--impl", "python:broken_tools:create"]

    written = agentconf(*broken, "--write-baseline", "known.toml", cwd=project)
    assert written.returncode == 0, written.stdout + written.stderr
    assert f'"{CLAUSE}" = ' in (project / "known.toml").read_text()

    again = agentconf(*broken, "--expected-failures", "known.toml", cwd=project)
    assert again.returncode == 0, again.stdout + again.stderr
    assert statuses(project / "out") == {CLAUSE: "xfail"}

    fixed = agentconf(*base, "--impl", "reference", "--expected-failures", "known.toml",
                      cwd=project)
    assert fixed.returncode == 1, fixed.stdout + fixed.stderr
    assert statuses(project / "out") == {CLAUSE: "xpass"}
    assert "now pass" in fixed.stdout


def test_the_profiles_expected_failures_count_as_well(project: Path) -> None:
    (project / "agentconf.toml").write_text(
        '[implementation]\nspec = "python:broken_tools:create"\nname = "broken"\n'
        f'[expected_failures]\n"{CLAUSE}" = "we know"\n'
    )
    done = agentconf("run", "--profile", "agentconf.toml", "--clauses", CLAUSE, cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert statuses(project / "reports" / "broken") == {CLAUSE: "xfail"}
