"""A hidden implementation, correct but for an extra move_file confined by a lexical string-prefix
check, is flagged from its raw `init --from` draft: the draft maps move_file, CONFINE-16 fails."""

import json
import subprocess
import sys
from pathlib import Path

# A mutant of the gallery served over cmd:, by name.
SERVE = f"{sys.executable} -P -m agentconf.selfcheck.serve_mutant agentconf.selfcheck.gallery:"


def _agentconf(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "agentconf", *arguments], cwd=cwd,
                          capture_output=True, text=True, timeout=600, check=False,
                          stdin=subprocess.DEVNULL)


def test_a_prefix_confined_move_file_is_flagged_from_the_raw_draft(tmp_path: Path) -> None:
    spec = f"cmd:{SERVE}MovePrefixConfined {{root}}"
    drafted = _agentconf("init", "--from", spec, str(tmp_path), cwd=tmp_path)
    profile = tmp_path / "agentconf.toml"
    assert profile.is_file(), drafted.stdout + drafted.stderr
    assert "[tools.move_file]" in profile.read_text()
    done = _agentconf("run", "--profile", str(profile), "--clauses", "CONFINE-16", "--report",
                      str(tmp_path / "report"), cwd=tmp_path)
    # CONFINE-16 is what the draft's move_file entry lets the run judge. (The hostile-path
    # property also meets this mutant's crash on a source that is not there, RESULT-04.)
    clauses = json.loads((tmp_path / "report" / "conformance.json").read_text())["clauses"]
    status = {clause["id"]: clause["status"] for clause in clauses}
    assert status["CONFINE-16"] == "fail", done.stdout + done.stderr
    assert "MUST clause(s) fail: CONFINE-16" in done.stdout, done.stdout + done.stderr
    assert "root_evil" in (tmp_path / "report" / "report.md").read_text()
