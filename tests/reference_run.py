"""The whole `agentconf run` against the in-process reference, made once per test session.

Three tests judge it: the stdio parity tests compare each piped check with it, the gallery
test asserts the reference passes every clause a mutant is charged to (the other half of a
mutant's verdict), and the main job's test reads its exit status and report files. Each made
its own run before (a minute of CPU each on 2 cores); one run, every clause, serves them all
(tests/once.py).
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from once import once, shared_root

RUN_BOUND_S = 3600  # only catches a hang
EXIT_FILE, CONSOLE_FILE = "exit-status", "console.txt"
Outcomes = tuple[dict[str, str], dict[str, str]]


def outcomes(report: Path, *arguments: str) -> Outcomes:
    """({clause id: status}, {check node id: outcome}) of `agentconf run -n 2 ARGUMENTS`; its exit
    status and console are kept beside the report (EXIT_FILE, CONSOLE_FILE)."""
    done = subprocess.run(
        [sys.executable, "-m", "agentconf", "run", "-n", "2", "--report", str(report), *arguments],
        capture_output=True,
        text=True,
        timeout=RUN_BOUND_S,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    (report.parent / EXIT_FILE).write_text(str(done.returncode))
    (report.parent / CONSOLE_FILE).write_text(done.stdout + done.stderr)
    document = json.loads((report / "conformance.json").read_text())
    clauses = {clause["id"]: clause["status"] for clause in document["clauses"]}
    events = [json.loads(line) for line in (report / "events.jsonl").read_text().splitlines()]
    tests = {e["nodeid"]: e["outcome"] for e in events if e["event"] == "test"}
    return clauses, tests


def reference_outcomes(tmp_path_factory: pytest.TempPathFactory) -> Outcomes:
    """The outcomes of the direct run: every clause, the reference in process."""
    return once(tmp_path_factory, "reference-direct", lambda folder: outcomes(folder / "report"))


def reference_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The report folder of the direct run (made first if it is not yet)."""
    reference_outcomes(tmp_path_factory)
    return shared_root(tmp_path_factory) / "once-reference-direct" / "report"
