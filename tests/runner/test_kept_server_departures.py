"""A server kept after a check it failed (harness/target/reuse.py) reaches the verdict a fresh
server per check reaches, check by check, on a real server with many departures: the official
filesystem server, whose EOL and EDIT checks fail 30 times in 190 (CRLF turned to LF, an empty
old_text accepted, no replace_all...).

The same profile runs twice, as written (`reuse = "worker"`) and with `reuse` taken out. Both
start the server through a shell that counts its starts, so the test also sees the rule in
play: the kept run starts far fewer servers than it has failures (before the rule, each
failure retired its server), and the fresh run one per check that opened a session. The
report counts the same starts, and the console says when starting servers was most of the run.
"""

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from first_peer import PROFILE, SERVER_JS, needs_first_peer

CLAUSES = "EOL,EDIT"
BOUND_S = 900  # only catches a hang


def _run(folder: Path, kept: bool) -> tuple[dict[str, str], int]:
    """The outcome of every check, and how many servers the run started (the report and the
    console say the same)."""
    folder.mkdir()
    starts = folder / "starts.log"
    launcher = folder / "serve.sh"
    launcher.write_text(f"#!/bin/sh\necho start >> {shlex.quote(str(starts))}\n"
                        f'exec node {shlex.quote(str(SERVER_JS))} "$1"\n')
    launcher.chmod(0o755)
    lines = []
    for line in PROFILE.read_text("utf-8").splitlines():
        if line.startswith("spec = "):
            line = f"spec = {json.dumps(f'mcp:{launcher} {{root}}')}"
        elif line.startswith("reuse = ") and not kept:
            continue
        lines.append(line)
    profile = folder / "agentconf.toml"
    profile.write_text("\n".join(lines) + "\n", "utf-8")
    assert ("reuse = " in profile.read_text("utf-8")) is kept
    report = folder / "report"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "HYPOTHESIS_"))}
    done = subprocess.run([sys.executable, "-m", "agentconf", "run", "--impl", str(profile),
                           "--clauses", CLAUSES, "-n", "2", "--report", str(report)], cwd=folder,
                          env=env, capture_output=True, text=True, timeout=BOUND_S, check=False,
                          stdin=subprocess.DEVNULL)
    events = (report / "events.jsonl").read_text("utf-8").splitlines()
    outcomes = {e["nodeid"]: e["outcome"] for e in map(json.loads, events) if e["event"] == "test"}
    started = len(starts.read_text().splitlines())
    counted = json.loads((report / "conformance.json").read_text("utf-8"))["run"]["server_starts"]
    # Every start the shell saw but one: `agentconf run` starts the server once before the
    # checks, to stop at once with the cause when it cannot start (run/preflight.py).
    assert counted["count"] == started - 1, (counted, started)
    assert counted["reuse"] == ("worker" if kept else None), counted
    assert f"  servers: {started - 1} started for {len(outcomes)} checks" in done.stdout, \
        done.stdout
    # The advice to keep the server is for the run that started one per check.
    assert ('reuse = "worker" keeps one per worker' in done.stdout) is not kept, done.stdout
    return outcomes, started


# CI's form of this rule is tests/runner/test_stdio_parity.py (a stateful server kept through the
# EDIT checks) and tests/drafting/test_draft_sharing.py's second case.
@pytest.mark.thorough
@needs_first_peer
def test_a_server_kept_after_its_departures_reaches_the_verdict_of_a_fresh_one(
    tmp_path: Path,
) -> None:
    shared, shared_starts = _run(tmp_path / "kept", kept=True)
    alone, alone_starts = _run(tmp_path / "fresh", kept=False)
    assert len(shared) >= 150 and set(shared) == set(alone)
    failed = sum(outcome == "fail" for outcome in shared.values())
    assert failed >= 20, shared  # departures enough for the rule to come into play
    assert sum(outcome == "pass" for outcome in shared.values()) >= 50, shared
    differing = {n: (o, alone[n]) for n, o in shared.items() if alone[n] != o}
    assert not differing, differing
    # Kept: a few starts (one per worker, again after a hang); fresh: one per session.
    assert shared_starts < failed // 2 < failed < alone_starts, (shared_starts, alone_starts)
