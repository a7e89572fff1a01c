"""The whole run against the first real peer (the official MCP filesystem server, its hand-written
profile and baseline), made once per test session (tests/once.py).

Two tests judge it: the first real peer is green against its baseline (tests/runner/
test_ci_jobs.py), and a draft of the same server judges it as the hand-written profile does
(tests/runner/test_init_from.py), which compares its categories with this run instead of making
a run of the hand-written profile of its own.
"""

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from once import once

REPO = Path(__file__).resolve().parents[1]
FIRST_PEER = REPO / "peers" / "server-filesystem"
PROFILE = FIRST_PEER / "agentconf.toml"
SERVER_JS = (REPO / ".cache/peers/server-filesystem/node_modules/@modelcontextprotocol"
             "/server-filesystem/dist/index.js")
needs_first_peer = pytest.mark.skipif(
    not SERVER_JS.is_file(), reason="the server-filesystem peer is not installed: run "
    "scripts/install-peers.sh server-filesystem (the README's test command does)")
BOUND_S = 1800  # only catches a hang
# A baseline's listed failure is `xfail` in the run's clause statuses, and `xpass` once fixed.
WITHOUT_BASELINE = {"xfail": "fail", "xpass": "pass"}


@dataclass(frozen=True)
class PeerRun:
    status: int
    console: str
    document: dict

    def clause_statuses(self) -> dict[str, str]:
        """Each clause's status as a run without the baseline would give it."""
        return {clause["id"]: WITHOUT_BASELINE.get(clause["status"], clause["status"])
                for clause in self.document["clauses"]}


def _run(folder: Path) -> PeerRun:
    report = folder / "report"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "HYPOTHESIS_"))}
    env["HOME"] = str(folder)  # the session's AGENTCONF_CACHE stays (tests/conftest.py)
    done = subprocess.run(
        [sys.executable, "-m", "agentconf", "run", "--impl", str(PROFILE), "--expected-failures",
         str(FIRST_PEER / "expected-failures.toml"), "--report", str(report)],
        cwd=folder, env=env, capture_output=True, text=True, timeout=BOUND_S, check=False,
        stdin=subprocess.DEVNULL)
    conformance = report / "conformance.json"
    assert conformance.is_file(), done.stdout[-3000:] + done.stderr[-3000:]
    return PeerRun(done.returncode, done.stdout + done.stderr,
                   json.loads(conformance.read_text("utf-8")))


def first_peer_run(tmp_path_factory: pytest.TempPathFactory) -> PeerRun:
    return once(tmp_path_factory, "first-peer", _run)
