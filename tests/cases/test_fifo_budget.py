"""A golden case with a FIFO in its tree waits AT_ONCE_S for an answer, not the whole call
timeout: READ-10 asks for an answer at once, and a tool that blocks on the FIFO (the official
filesystem server's read does) would otherwise cost every run the call timeout, once per case.
"""

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from first_peer import PROFILE, needs_first_peer

from agentconf.harness.cases.load import load_cases
from agentconf.harness.session.client import AT_ONCE_S


@needs_first_peer
def test_a_case_with_a_fifo_gives_a_blocking_read_only_the_at_once_budget(tmp_path: Path) -> None:
    report = tmp_path / "report"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "HYPOTHESIS_"))}
    subprocess.run([sys.executable, "-m", "agentconf", "run", "--impl", str(PROFILE),
                    "--clauses", "READ-10", "-n", "0", "--report", str(report)], cwd=tmp_path,
                   env=env, capture_output=True, text=True, timeout=300, check=False,
                   stdin=subprocess.DEVNULL)
    events = [json.loads(line) for line in (report / "events.jsonl").read_text().splitlines()]
    case = next(e for e in events if e.get("nodeid", "").endswith("test_case[read-fifo]"))
    # The call timeout (10 s by default) would be named here instead.
    assert f"no answer within {AT_ONCE_S:g} s" in case["evidence"], case


def test_a_case_waits_when_a_command_has_a_timeout_or_its_tree_a_fifo() -> None:
    """Such cases are spread over a run's workers (harness/run/order.py), not bunched."""
    cases = {case.id: case for case in load_cases()}
    assert cases["shell-timeout"].waits and cases["read-fifo"].waits
    plain = cases["shell-echo"]
    assert not plain.waits
    timed = {"tool": "bash", "arguments": {"command": "sleep 9", "timeout_ms": 500}}
    assert replace(plain, calls=({"concurrently": [timed]},)).waits  # a concurrent call counts
    assert replace(plain, tree={"pipe": {"fifo": True}}).waits
    assert not replace(plain, calls=({"tool": "bash", "arguments": 7},)).waits  # hostile: none
