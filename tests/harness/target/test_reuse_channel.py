"""RESULT-09 is judged on a server kept from test to test (`reuse = "worker"`), as on one started
per test: the kept adapter's lease passes its stdout noise on. Without it every MCP peer of the
matrix with `reuse = "worker"` (the filesystem servers, Desktop Commander) showed RESULT-09 as
n/a, "not spoken to over stdio"."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

# A mutant of the gallery served over cmd:, by name.
SERVE = f"{sys.executable} -P -m agentconf.selfcheck.serve_mutant agentconf.selfcheck.gallery:"


def _result_09(tmp_path: Path, profile_text: str) -> dict[str, Any]:
    """RESULT-09's verdict in the report of a run of the profile."""
    profile = tmp_path / "agentconf.toml"
    profile.write_text(profile_text, "utf-8")
    report = tmp_path / "report"
    done = subprocess.run(
        [sys.executable, "-m", "agentconf", "run", "--profile", str(profile), "--clauses",
         "RESULT-09", "--report", str(report)],
        cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False,
        stdin=subprocess.DEVNULL)
    assert (report / "conformance.json").is_file(), done.stdout + done.stderr
    run = json.loads((report / "conformance.json").read_text())
    return next(clause for clause in run["clauses"] if clause["id"] == "RESULT-09")


def test_a_noisy_server_kept_per_worker_fails_result_09(tmp_path: Path) -> None:
    verdict = _result_09(tmp_path, "[implementation]\n"
                                   f'spec = "cmd:{SERVE}NoisyStartup {{root}}"\n'
                                   'reuse = "worker"\n'
                                   "[capabilities]\n"
                                   "read_before_edit = false\n"
                                   "stale_read = false\n")
    assert verdict["status"] == "fail", verdict["tests"]


def test_a_server_whose_tools_the_profile_maps_none_of_is_not_judged_on_a_listing(
        tmp_path: Path) -> None:
    verdict = _result_09(
        tmp_path, "[implementation]\n"
        f'spec = "cmd:{SERVE.replace("gallery:", "mutant_base:")}Mutant {{root}}"\n'
        'exclude_tools = ["read_file", "write_file", "edit_file", "list_files", "grep", "bash"]\n')
    assert verdict["status"] == "n/a", verdict["tests"]
