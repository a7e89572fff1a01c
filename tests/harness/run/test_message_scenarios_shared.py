"""The message checks (the snapshot, RESULT-06, -07, -08) judge one scenario's last answer: it is
played once per worker, not once per check, so a waiting scenario (a shell timeout) waits once
and a server started per check starts once. What each check concludes is unchanged (compared
check by check with scripts/compare_verdicts.py; see docs/benchmarks.md)."""

import json
import subprocess
import sys
from pathlib import Path

RUN_BOUND_S = 900
SCENARIO = "[bash-shell-timeout]"


def test_a_message_scenario_is_played_once_and_judged_by_each_of_its_checks(
    tmp_path: Path,
) -> None:
    report = tmp_path / "report"
    # -n 0: one worker, so one play (the in-process reference: the calls are what is counted)
    subprocess.run(
        [sys.executable, "-m", "agentconf", "run", "-n", "0",
         "--clauses", "SHELL-04,RESULT-06,RESULT-07,RESULT-08", "--report", str(report)],
        cwd=tmp_path, capture_output=True, text=True, timeout=RUN_BOUND_S, check=False)
    events = [json.loads(line) for line in (report / "events.jsonl").read_text().splitlines()]
    checks = {e["nodeid"].split("::")[1]: e for e in events
              if e["event"] == "test" and e["nodeid"].startswith("suites/test_messages.py")
              and e["nodeid"].endswith(SCENARIO)}
    assert set(checks) == {f"{name}{SCENARIO}" for name in (
        "test_message_snapshot", "test_failure_message_says_what_to_do_next",
        "test_failure_message_fits_the_budget", "test_message_reveals_no_path_outside_the_root")}
    assert {e["outcome"] for e in checks.values()} <= {"pass", "n/a"}, checks
    played = [name for name, e in checks.items() if e.get("calls")]
    assert len(played) == 1, {name: e.get("calls") for name, e in checks.items()}
