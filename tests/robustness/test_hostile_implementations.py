"""Hostile cmd: implementations through the real `agentconf run` (the CLI in a subprocess).

Each run checks two clauses against `hostile/hostile.py MODE`. Whatever the program does, the
run finishes in bounded time, the clauses it breaks end in `error` with a clear message, nothing
it started is left running (its own pid, its children's and a setsid daemon's are recorded in a
state folder and looked up in /proc), its output does not fill the disk, and what it tried to
write outside its root landed inside this test's temporary folder.

The run's HOME, TMPDIR and cwd are the test's own temporary folder, so pytest's sandboxes, the
runner's files and the reports all live there.
"""

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

HOSTILE = Path(__file__).parent / "hostile" / "hostile.py"
CLAUSES = ("REGISTRY-02", "REGISTRY-04")
CALL_TIMEOUT_S = "1.5"
# Detects a hung harness; it does not measure speed (the machine is shared and noisy).
RUN_BOUND_S = 600
# The harness keeps at most 4 MB of a session's stderr; a 1 GB flood must not reach the disk.
DISK_BOUND_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Run:
    status: int
    output: str
    clauses: dict[str, dict]
    state: Path
    tmp: Path


def run_hostile(tmp_path: Path, mode: str) -> Run:
    state, home, temp = tmp_path / "state", tmp_path / "home", tmp_path / "temp"
    for folder in (state, home, temp):
        folder.mkdir()
    impl = f"cmd:{sys.executable} {HOSTILE} {mode} {state}"
    environ = {**os.environ, "HOME": str(home), "TMPDIR": str(temp),
               "AGENTCONF_TIMEOUT": CALL_TIMEOUT_S}
    done = subprocess.run(
        [sys.executable, "-m", "agentconf", "run", "--impl", impl, "--clauses", ",".join(CLAUSES),
         "--report", str(tmp_path / "report")],
        cwd=tmp_path, env=environ, capture_output=True, text=True, timeout=RUN_BOUND_S,
        stdin=subprocess.DEVNULL, check=False,
    )
    output = done.stdout + done.stderr
    report = tmp_path / "report" / "conformance.json"
    # No report when the program cannot even list its tools: the run stops before any check.
    document = json.loads(report.read_text()) if report.exists() else {"clauses": []}
    clauses = {clause["id"]: clause for clause in document["clauses"]}
    return Run(done.returncode, output, clauses, state, tmp_path)


def evidence(run: Run, clause: str) -> str:
    return "\n".join(test.get("evidence") or "" for test in run.clauses[clause]["tests"])


def recorded_pids(run: Run) -> list[int]:
    path = run.state / "pids"
    return [int(line) for line in path.read_text().split()] if path.exists() else []


def running(pid: int) -> bool:
    """Alive and not a zombie (a zombie is dead; reaping it is its parent's business)."""
    try:
        status = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return status[status.rindex(")") + 2] not in "ZX"


def disk_usage(top: Path) -> int:
    total = 0
    for folder, _, names in os.walk(top):
        for name in names:
            path = Path(folder, name)
            if not path.is_symlink():
                total += path.stat().st_size
    return total


def assert_contained(run: Run) -> None:
    pids = recorded_pids(run)
    assert pids, "the hostile program never started"
    left = [pid for pid in pids if running(pid)]
    assert not left, f"processes left behind: {left}"
    assert disk_usage(run.tmp) < DISK_BOUND_BYTES
    assert "Traceback" not in run.output, run.output[-3000:]


ERRORS = {
    # mode: (clause that must end in error, words its evidence must hold)
    "hang_call": ("REGISTRY-04", "did not answer tools/call within 1.5 s"),
    "exit_mid": ("REGISTRY-04", "exited before answering tools/call (exit status 5)"),
    "garbage": ("REGISTRY-04", "not JSON: this is not json"),
    "flood": ("REGISTRY-04", "bytes on stdout since the last newline"),
    "ignore_term": ("REGISTRY-04", "its process group was killed"),
    "wrong_id": ("REGISTRY-04", "answer to no open request (id 10"),
}


@pytest.mark.parametrize("mode", sorted(ERRORS))
def test_a_hostile_implementation_ends_in_a_clear_error_and_leaves_nothing(
    tmp_path: Path, mode: str
) -> None:
    clause, words = ERRORS[mode]
    run = run_hostile(tmp_path, mode)
    assert clause in run.clauses, f"no report; agentconf run said:\n{run.output[-3000:]}"
    assert run.clauses[clause]["status"] == "error", run.output[-3000:]
    assert words in evidence(run, clause), evidence(run, clause)
    assert run.status != 0
    assert_contained(run)


def test_a_program_that_never_lists_its_tools_stops_the_run_before_any_check(
    tmp_path: Path
) -> None:
    run = run_hostile(tmp_path, "hang_list")
    assert run.status == 2, run.output[-3000:]
    assert "did not start and list its tools, so nothing was checked" in run.output, run.output
    assert "did not answer tools/list within" in run.output, run.output
    assert not run.clauses, "a report of checks that never ran"
    assert_contained(run)


@pytest.mark.parametrize("mode", ["honest", "twice", "stderr_flood"])
def test_noise_around_correct_answers_does_not_change_the_verdict(
    tmp_path: Path, mode: str
) -> None:
    run = run_hostile(tmp_path, mode)
    statuses = {clause: run.clauses[clause]["status"] for clause in CLAUSES}
    assert statuses == dict.fromkeys(CLAUSES, "pass"), run.output[-3000:]
    assert_contained(run)


def test_a_daemon_that_left_the_process_group_is_killed(tmp_path: Path) -> None:
    run = run_hostile(tmp_path, "daemon")
    # The program itself and, for every session, the daemon it started.
    assert len(recorded_pids(run)) >= 2, "the daemon never started"
    assert {clause: run.clauses[clause]["status"] for clause in CLAUSES} == dict.fromkeys(
        CLAUSES, "pass"), run.output[-3000:]
    assert_contained(run)


def test_writes_to_home_and_above_the_root_are_contained_and_seen(tmp_path: Path) -> None:
    run = run_hostile(tmp_path, "escape")
    attempts = (run.state / "attempts").read_text().split()
    assert attempts
    for attempt in attempts:
        assert Path(attempt).is_relative_to(tmp_path.resolve()), attempt
    # Found while checking REGISTRY-02, charged to confinement alone (one departure, one clause).
    assert run.clauses["CONFINE-14"]["status"] == "fail", run.output[-3000:]
    assert run.clauses["REGISTRY-02"]["status"] == "n/a", run.output[-3000:]
    assert "found while checking REGISTRY-02" in evidence(run, "CONFINE-14")
    assert "hostile-escape.txt" in evidence(run, "CONFINE-14")  # above the root: an escape
    # Its HOME, written while starting, is its own state
    # (tests/harness/session/test_safe_runs.py); it was charged here only by a message check that
    # opened a session and judged none of it.
    assert "hostile-was-here.txt" not in evidence(run, "CONFINE-14")
    assert_contained(run)
