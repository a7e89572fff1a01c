"""The message-snapshot day, end to end through the commands a tool author types: record the
messages of an implementation, change one message, see exactly one "message changed" with its diff
(apart from every clause, which still passes), update, and be green again.

The implementation is the reference wrapped (a python: spec written into the test's temp dir)
whose edit_file TEXT_NOT_FOUND message is replaced when MINE_WORDING is set: the same
implementation before and after its author rewords one message.
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

SCENARIO = "edit_file-edit-not-found-absent"
NEW_WORDING = "old_text is not in the file; read it again and copy old_text exactly."

MINE = textwrap.dedent("""
    import os

    from agentconf.reference import create as create_reference

    class Mine:
        def __init__(self, workspace):
            self.inner = create_reference(workspace)

        def list_tools(self):
            return self.inner.list_tools()

        async def call_tool(self, name, arguments):
            answer = await self.inner.call_tool(name, arguments)
            wording = os.environ.get("MINE_WORDING")
            if wording and name == "edit_file" and answer.get("error") == "TEXT_NOT_FOUND":
                answer = {**answer, "data": wording}
            return answer

    def create(workspace):
        return Mine(workspace)
""")


def _agentconf(tmp_path: Path, *arguments: str, reworded: bool = False
               ) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTEST_", "HYPOTHESIS_", "AGENTCONF_", "MINE_"))}
    if reworded:
        env["MINE_WORDING"] = NEW_WORDING
    return subprocess.run(
        [sys.executable, "-m", "agentconf", *arguments, "--impl", "python:mine:create",
         "--snapshot-dir", "snapshots", "-n", "2"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900, check=False,
        stdin=subprocess.DEVNULL)


def test_record_change_one_message_see_it_update_and_be_green(tmp_path: Path) -> None:
    (tmp_path / "mine.py").write_text(MINE, "utf-8")
    snapshot = tmp_path / "snapshots" / "test_messages" / f"test_message_snapshot[{SCENARIO}].txt"

    recorded = _agentconf(tmp_path, "snapshots", "record")
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    assert "snapshots generated." in recorded.stdout  # syrupy's own count
    old_wording = snapshot.read_text("utf-8")
    assert old_wording and old_wording != NEW_WORDING

    checked = _agentconf(tmp_path, "snapshots", "check", reworded=True)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert checked.stdout.count("MESSAGE CHANGED") == 1, checked.stdout
    assert f"MESSAGE CHANGED {SCENARIO}" in checked.stdout
    assert f"- {old_wording}" in checked.stdout and f"+ {NEW_WORDING}" in checked.stdout
    assert "1 snapshot failed." in checked.stdout
    assert snapshot.read_text("utf-8") == old_wording  # check writes nothing

    # The full run keeps it apart: every EDIT clause passes, the run is red for the message alone.
    run = _agentconf(tmp_path, "run", "--clauses", "EDIT", "--report", "report", reworded=True)
    assert run.returncode == 1, run.stdout + run.stderr
    document = json.loads((tmp_path / "report" / "conformance.json").read_text("utf-8"))
    assert [c["id"] for c in document["clauses"] if c["status"] != "pass"] == []
    assert [m["nodeid"].rpartition("[")[2] for m in document["messages"]] == [f"{SCENARIO}]"]
    assert "--snapshot-dir" in document["messages"][0]["reproduce"]
    assert f"MESSAGE CHANGED {SCENARIO}" in run.stdout and f"+ {NEW_WORDING}" in run.stdout
    assert "1 snapshot failed." in run.stdout
    reasons = document["verdict"]["reasons"]
    assert len(reasons) == 1 and "1 message(s) differ" in reasons[0], reasons

    updated = _agentconf(tmp_path, "snapshots", "update", reworded=True)
    assert updated.returncode == 0, updated.stdout + updated.stderr
    assert "1 snapshot updated." in updated.stdout
    assert snapshot.read_text("utf-8") == NEW_WORDING

    green = _agentconf(tmp_path, "run", "--clauses", "EDIT", "--report", "report", reworded=True)
    assert green.returncode == 0, green.stdout + green.stderr
    assert "GREEN" in green.stdout and "MESSAGE CHANGED" not in green.stdout


def test_snapshots_needs_a_folder_for_anything_but_the_reference(tmp_path: Path) -> None:
    (tmp_path / "mine.py").write_text(MINE, "utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "agentconf", "snapshots", "check", "--impl", "python:mine:create"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
        stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "--snapshot-dir DIR is required" in done.stderr
