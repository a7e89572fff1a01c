"""The whole conformance run against the Node example: `agentconf run` over the `cmd:` protocol.

This is the "working example in another language, run in CI": an independent implementation with
its own wording of every message must pass the suites, which judge codes, fields and the disk.
It runs every suite once (minutes, not seconds), through the example's own profile, whose kept
servers make this also a verdict-equality test of the sharing rule on an independent program
with session state: the checks that must fail without a fresh session (NOT_READ, STALE_READ) are
in it, and nothing may fail.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .node_server import NODE, SERVER_SCRIPT

# Its own profile: `node` from PATH (where NODE was found), and one server per worker, kept
# while no check shapes its session (it keeps read-before-edit state).
PROFILE = SERVER_SCRIPT.parent / "agentconf.toml"

RUN_BOUND_S = 3600  # only catches a hang; a full run takes minutes on a busy machine

# Suite checks this implementation may fail for a reason the contract does not give, each with
# its reason; none today. A check listed here may start passing; nothing else may fail.
DISPUTED: set[str] = set()


@pytest.mark.skipif(NODE is None, reason="node is not installed on this machine")
def test_the_node_example_passes_the_conformance_suites(tmp_path: Path) -> None:
    report = tmp_path / "report"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "agentconf",
            "run",
            "--impl",
            str(PROFILE),
            "--report",
            str(report),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=RUN_BOUND_S,
        check=False,
    )
    events = [json.loads(line) for line in (report / "events.jsonl").read_text().splitlines()]
    tests = [event for event in events if event["event"] == "test"]
    failing = {
        event["nodeid"]: event.get("evidence", "")[:600]
        for event in tests
        if event["outcome"] in ("fail", "error", "harness-error")
    }
    assert set(failing) <= DISPUTED, json.dumps(failing, indent=1) + "\n" + done.stdout[-3000:]
    assert sum(event["outcome"] == "pass" for event in tests) > 500
    end = next(event for event in events if event["event"] == "run_end")
    start = next(event for event in events if event["event"] == "run_start")
    assert end["executed"] == start["planned"]
