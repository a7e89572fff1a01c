"""CONFINE-16's property over every path tool reports an escape as a failure of the clause.

A make_directory that makes whatever path it is given (as the filesystem server 2025.3.28's
create_directory does with `../root_evil/x`) leaves a folder beside the root at the first
example that escapes. Found first on that server's run of the matrix. Without
the canaries put back before each example, hypothesis' replay of that example met the folder
at its first call (tools/list, judged by the oracle) before it drew anything, and the run
reported FlakyStrategyDefinition as the kit's own harness error instead of the escape.
"""

import json
import subprocess
import sys
from pathlib import Path

PROPERTY = ("suites/confine/test_path_tools.py::"
            "test_no_hostile_path_through_any_path_tool_reaches_outside")


def test_an_escape_found_by_the_path_tool_property_is_a_failure_not_a_harness_error(
        tmp_path: Path) -> None:
    report = tmp_path / "report"
    done = subprocess.run(
        [sys.executable, "-m", "agentconf", "run", "--impl",
         "python:agentconf.selfcheck.gallery:MakeDirectoryUnconfined", "--clauses", "CONFINE-16",
         "--report", str(report)],
        cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False,
        stdin=subprocess.DEVNULL)
    assert (report / "conformance.json").is_file(), done.stdout + done.stderr
    run = json.loads((report / "conformance.json").read_text())
    assert run["harness_errors"] == [], run["harness_errors"][0]["evidence"][:2000]
    outcomes = {test["nodeid"]: test for clause in run["clauses"] for test in clause["tests"]}
    assert outcomes[PROPERTY]["outcome"] == "fail", outcomes[PROPERTY]
    assert "escape after make_directory" in outcomes[PROPERTY]["evidence"]
