"""The jobs `.ci/run` ran as steps of their own after the tests, as tests: the main job (the whole
run against the reference, green, with every report file), the first real peer (the official MCP
filesystem server, green against its baseline) and the coverage gate. As steps they ran one after
another on an idle machine (a minute and a half of wall); here they share the session's workers
with everything else, and the README's test command runs them too (docs/benchmarks.md).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from first_peer import first_peer_run, needs_first_peer
from reference_run import CONSOLE_FILE, EXIT_FILE, reference_outcomes, reference_report

REPO = Path(__file__).resolve().parents[2]
REPORT_FILES = ("conformance.json", "report.md", "report.html", "junit.xml", "badge.svg",
                "badge.json", "events.jsonl")
# The gate: agentconf/reference and agentconf/contract covered by their own tests.
COVERED = "agentconf/reference/*,agentconf/contract/*"
FAIL_UNDER = "90"
BOUND_S = 1800  # only catches a hang


def test_the_main_job_is_green_and_writes_every_report_file(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """`agentconf run` against the reference (README, first line): the session's one full run."""
    report = reference_report(tmp_path_factory)
    console = (report.parent / CONSOLE_FILE).read_text()
    assert (report.parent / EXIT_FILE).read_text() == "0", console[-3000:]
    assert "GREEN" in console, console[-3000:]
    missing = [name for name in REPORT_FILES if not (report / name).is_file()]
    assert missing == [], missing
    document = json.loads((report / "conformance.json").read_text("utf-8"))
    assert document["verdict"]["green"] is True, document["verdict"]
    assert document["summary"]["executed"] == document["summary"]["planned"] > 1000


def test_the_reference_plays_and_passes_every_golden_case(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """A golden case the reference does not judge (n/a) judges its premise, not a tool: a rule
    meant for another clause's cases once made three of them n/a here, the clause still green."""
    from agentconf.harness.cases.load import load_cases

    _clauses, tests = reference_outcomes(tmp_path_factory)
    played = {node: outcome for node, outcome in tests.items() if "::test_case[" in node}
    assert len(played) == len(load_cases())
    assert {node: outcome for node, outcome in played.items() if outcome != "pass"} == {}


@needs_first_peer
def test_the_first_real_peer_is_green_against_its_baseline(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    run = first_peer_run(tmp_path_factory)
    assert run.status == 0, run.console[-3000:]
    assert "GREEN" in run.console, run.console[-3000:]
    assert run.document["summary"]["executed"] == run.document["summary"]["planned"] > 1000


def test_the_reference_and_the_contract_are_covered_by_their_own_tests(tmp_path: Path) -> None:
    """The coverage gate: their tests under coverage.py (the subprocesses they start too, as
    pyproject's [tool.coverage.run] says), the data kept in tmp_path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "COV_CORE"))}
    env["COVERAGE_FILE"] = str(tmp_path / ".coverage")

    def coverage(*arguments: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "coverage", *arguments], cwd=REPO, env=env,
                              capture_output=True, text=True, timeout=BOUND_S, check=False)

    # Its own basetemp: a numbered one would take part in pytest's clean-up of old numbered
    # folders, the outer session's among them.
    tested = coverage("run", "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
                      f"--basetemp={tmp_path / 'basetemp'}", "tests/reference", "tests/contract")
    assert tested.returncode == 0, tested.stdout[-3000:] + tested.stderr[-3000:]
    assert coverage("combine", "-q").returncode == 0
    report = coverage("report", f"--include={COVERED}", f"--fail-under={FAIL_UNDER}")
    assert report.returncode == 0, report.stdout[-3000:] + report.stderr[-3000:]
