"""The stdio path reaches the same verdicts as the in-process path: `agentconf serve` over the
`cmd:` protocol is the reference behind a pipe, so every check — suites, golden cases, message
snapshots — must come out the same."""

import json
import subprocess
import sys
from pathlib import Path

from agentconf.harness.resources import fixtures_dir

RUN_BOUND_S = 1800  # only catches a hang


def _outcomes(report: Path, *arguments: str) -> tuple[dict[str, str], dict[str, str]]:
    subprocess.run(
        [sys.executable, "-m", "agentconf", "run", "-n", "2", "--report", str(report), *arguments],
        capture_output=True,
        text=True,
        timeout=RUN_BOUND_S,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    document = json.loads((report / "conformance.json").read_text())
    clauses = {clause["id"]: clause["status"] for clause in document["clauses"]}
    events = [json.loads(line) for line in (report / "events.jsonl").read_text().splitlines()]
    tests = {e["nodeid"]: e["outcome"] for e in events if e["event"] == "test"}
    return clauses, tests


def test_the_reference_over_stdio_reaches_the_same_verdict_on_every_check(tmp_path: Path) -> None:
    direct_clauses, direct_tests = _outcomes(tmp_path / "direct")
    serve = f"cmd:{sys.executable} -m agentconf serve --root {{root}}"
    snapshots = fixtures_dir() / "snapshots" / "reference"
    piped_clauses, piped_tests = _outcomes(
        tmp_path / "piped", "--impl", serve, "--snapshot-dir", str(snapshots)
    )
    assert set(direct_clauses.values()) == {"pass"}
    assert piped_clauses == direct_clauses
    differing = {
        nodeid: (outcome, piped_tests.get(nodeid))
        for nodeid, outcome in direct_tests.items()
        if piped_tests.get(nodeid) != outcome
    }
    assert not differing, differing
    assert len(direct_tests) >= 120
