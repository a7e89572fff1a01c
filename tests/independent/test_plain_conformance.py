"""The whole conformance run against examples/plain-python, the second independent implementation.

plain-python-tools was written from the contract alone: its own wording, its own check order
(edit_file asks for a read before it looks whether the path is a folder), its own limits, and none
of the SHOULD features. A kit whose verdicts are right passes it on every MUST clause and fails it
only on SHOULD clauses; these tests keep both true. One run (minutes) serves all of them.
"""

import json
import os
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from once import once

from agentconf.contract import CANONICAL_TOOLS, CLAUSES, DEFAULT_LIMITS, PATH_TOOLS, Level
from agentconf.harness.profile.model import load_profile

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "plain-python"
PROFILE = EXAMPLE / "agentconf.toml"
RUN_BOUND_S = 3600  # only catches a hang; a full run takes minutes on a busy machine
WORKERS = "2"
NOT_PASSING = ("fail", "error", "harness-error")

# Features the implementation leaves out on purpose (README.md). A clause asking for one of them
# must not pass, or the implementation is not the "correct but different" peer it claims to be.
LEFT_OUT: dict[str, str] = {
    "RESULT-05": "no summary field",
    "EDIT-10": "no diff field",
    "EDIT-07": "old_text is matched exactly, no curly-quote folding",
    "EOL-07": "LF in old_text does not match CRLF in the file",
    "EDIT-13": "write_file replaces a file without a prior read",
    "READ-10": "read_file of a FIFO waits for a writer",
    "GREP-09": "grep of a FIFO named as its path waits for a writer",
    "GREP-06": "a pattern that does not compile is EXECUTION_ERROR, not INVALID_ARGS",
    "SHELL-09": "a command's stdin is a pipe that stays open",
    "SHELL-10": "a call waits until the command's output ends",
    "REGISTRY-05": "tools declare no kind",
    "VALIDATE-11": "an issue's message does not name its field",
}

# Checks the kit failed although the behaviour met the clause (examples/plain-python/
# KIT-FINDINGS.md): all four were fixed by issue 18 (EDIT-17 takes NOT_READ, one clause per case,
# message clauses n/a when a FIFO read gets no answer). Nothing charged to a MUST clause may fail.
KIT_FINDINGS: dict[str, set[str]] = {}

# The whole run takes minutes on 2 cores (the waits of the SHOULD features left out): CI runs
# the categories where this implementation differs on purpose and where the kit's false verdicts
# were; AGENTCONF_FULL_INDEPENDENT=1 runs every clause (the
# closing note of issue 18 records that run).
CI_CATEGORIES = "RESULT,REGISTRY,EDIT,EOL,READ,GREP,VALIDATE,CONFINE,CONCUR"


def _level(clause_id: str) -> Level:
    return CLAUSES[clause_id].level


def _run(where: Path) -> dict[str, Any]:
    report = where / "report"
    done = subprocess.run(
        [sys.executable, "-m", "agentconf", "run", "--impl", str(PROFILE), "--report",
         str(report), "-n", WORKERS,
         *([] if os.environ.get("AGENTCONF_FULL_INDEPENDENT") else ["--clauses", CI_CATEGORIES])],
        cwd=where, capture_output=True, text=True, timeout=RUN_BOUND_S, check=False,
    )
    conformance = report / "conformance.json"
    assert conformance.exists(), done.stdout[-3000:] + done.stderr[-3000:]
    events = [json.loads(line) for line in (report / "events.jsonl").read_text().splitlines()]
    return {"conformance": json.loads(conformance.read_text()), "events": events,
            "output": done.stdout[-3000:]}


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One `agentconf run` against the profile for the whole session (tests/once.py): its
    conformance.json, events and output."""
    return once(tmp_path_factory, "plain-python-run", _run)


def _clauses(run: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {clause["id"]: clause for clause in run["conformance"]["clauses"]}


# Clauses about the optional path tools: n/a when the program lists none of them (it has the
# six only), which no single capability in a clause's `requires` can say.
PATH_TOOL_CLAUSES = ("CONFINE-16", "SYMLINK-12")


def _explained(clause_id: str, absent: set[str]) -> bool:
    """An n/a that a declared or listed absence explains."""
    if clause_id in PATH_TOOL_CLAUSES:
        return set(PATH_TOOLS) <= absent
    return bool(set(CLAUSES[clause_id].requires) & absent)


def _declared_absent(root: Path) -> set[str]:
    """Capabilities the profile switches off, and canonical tools the program does not list."""
    off = {name for name, on in load_profile(PROFILE).capabilities.items() if not on}
    answer = subprocess.run(  # -B: no bytecode written beside the example's sources
        [sys.executable, "-B", str(EXAMPLE / "serve.py"), str(root)], cwd=root,
        input='{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n', capture_output=True,
        text=True, timeout=60, check=True,
    )
    listed = {tool["name"] for tool in json.loads(answer.stdout)["result"]["tools"]}
    return off | (set(CANONICAL_TOOLS) - listed)


def test_the_run_executes_every_planned_check(run: dict[str, Any]) -> None:
    summary = run["conformance"]["summary"]
    assert summary["executed"] == summary["planned"], run["output"]
    assert summary["tests"]["harness-error"] == 0, run["output"]
    assert summary["tests"]["pass"] > 500, summary


def test_only_should_clauses_fail_apart_from_the_kit_findings(run: dict[str, Any]) -> None:
    should = {clause_id for clause_id in CLAUSES if _level(clause_id) is Level.SHOULD}
    unexplained = {}
    for clause_id, clause in _clauses(run).items():
        for test in clause["tests"]:
            if test["outcome"] not in NOT_PASSING or clause_id in should:
                continue
            if test["nodeid"] not in KIT_FINDINGS.get(clause_id, set()):
                unexplained[f"{clause_id} {test['nodeid']}"] = (test["evidence"] or "")[:600]
    assert not unexplained, json.dumps(unexplained, indent=1) + "\n" + run["output"]


def test_a_must_clause_is_not_applicable_only_through_a_declared_absence(
    run: dict[str, Any], tmp_path: Path
) -> None:
    absent = _declared_absent(tmp_path)
    assert absent, "the profile declares nothing absent: the n/a rule below would be vacuous"
    unexplained = [
        clause_id for clause_id, clause in _clauses(run).items()
        if _level(clause_id) is Level.MUST and clause["status"] == "n/a"
        and not _explained(clause_id, absent)
    ]
    assert not unexplained, unexplained


def test_the_should_features_left_out_do_not_pass(run: dict[str, Any]) -> None:
    assert all(_level(clause_id) is Level.SHOULD for clause_id in LEFT_OUT), LEFT_OUT
    clauses = _clauses(run)
    judged = [clause_id for clause_id in LEFT_OUT if clause_id in clauses]  # the run's selection
    assert len(judged) >= 8, judged
    passing = {clause_id: LEFT_OUT[clause_id] for clause_id in judged
               if clauses[clause_id]["status"] not in NOT_PASSING}
    assert not passing, f"left out, yet judged as met: {passing}"


def test_every_must_clause_passes(run: dict[str, Any], tmp_path: Path) -> None:
    absent = _declared_absent(tmp_path)
    failing = {
        clause_id: clause["status"] for clause_id, clause in _clauses(run).items()
        if _level(clause_id) is Level.MUST and clause["status"] != "pass"
        and not (clause["status"] == "n/a" and _explained(clause_id, absent))
    }
    assert not failing, failing


def test_the_profile_declares_the_programs_own_limits() -> None:
    program = runpy.run_path(str(EXAMPLE / "plain" / "limits.py"))  # compiled, never cached
    declared = load_profile(PROFILE).limits
    assert declared.max_output_chars == program["MAX_OUTPUT_CHARS"]
    assert declared.max_read_bytes == program["MAX_READ_BYTES"]
    assert declared.shell_timeout_ms == program["SHELL_TIMEOUT_MS"]
    for name in ("max_output_chars", "max_read_bytes", "shell_timeout_ms"):
        assert getattr(declared, name) != getattr(DEFAULT_LIMITS, name), f"{name} is the default"
