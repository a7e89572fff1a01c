"""Message snapshots catch a changed error message with a readable diff, and --snapshot-update
accepts the new wording; the quality checks beside them catch a leaked path and a page-long error.

The implementations are the reference wrapped so that one message changes (python: specs written
into the test's temp dir); the reference's files are untouched and the snapshots live in a temp
copy.
"""

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

from agentconf.harness.resources import fixtures_dir, suites_dir

SCENARIO = "test_message_snapshot[edit_file-edit-not-found-absent]"
SHIPPED = fixtures_dir() / "snapshots" / "reference" / "test_messages" / f"{SCENARIO}.txt"
NEW_TEXT = "old_text was not found anywhere; read the file again and copy the text exactly."

REWORDED = textwrap.dedent(f"""
    from agentconf.reference import create as create_reference

    class Reworded:
        def __init__(self, workspace):
            self.inner = create_reference(workspace)

        def list_tools(self):
            return self.inner.list_tools()

        async def call_tool(self, name, arguments):
            answer = await self.inner.call_tool(name, arguments)
            if answer.get("error") == "TEXT_NOT_FOUND":
                answer = {{**answer, "data": {NEW_TEXT!r}}}
            return answer

    def create(workspace):
        return Reworded(workspace)
""")


def _pytest(tmp_path: Path, snapshots: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("AGENTCONF_SNAPSHOT_DIR", None)
    command = [
        sys.executable,
        "-m",
        "pytest",
        str(suites_dir() / "test_messages.py"),
        "-p",
        "no:cacheprovider",
        "-q",
        "--color=no",
        "-k",
        "edit_file-edit-not-found-absent",
        "--agentconf-impl",
        "python:reworded:create",
        "--agentconf-snapshot-dir",
        str(snapshots),
        *extra,
    ]
    return subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )


def _snapshot_copy(tmp_path: Path) -> Path:
    snapshots = tmp_path / "snapshots"
    (snapshots / "test_messages").mkdir(parents=True)
    shutil.copyfile(SHIPPED, snapshots / "test_messages" / SHIPPED.name)
    return snapshots


def test_a_reworded_message_fails_with_a_diff_and_snapshot_update_accepts_it(
    tmp_path: Path,
) -> None:
    (tmp_path / "reworded.py").write_text(REWORDED, "utf-8")
    snapshots = _snapshot_copy(tmp_path)
    old_text = SHIPPED.read_text("utf-8").strip()
    assert old_text and old_text != NEW_TEXT

    changed = _pytest(tmp_path, snapshots)
    assert changed.returncode == 1, changed.stdout + changed.stderr
    assert f"- {old_text}" in changed.stdout and f"+ {NEW_TEXT}" in changed.stdout

    updated = _pytest(tmp_path, snapshots, "--snapshot-update")
    assert updated.returncode == 0, updated.stdout + updated.stderr
    assert (snapshots / "test_messages" / SHIPPED.name).read_text("utf-8") == NEW_TEXT

    again = _pytest(tmp_path, snapshots)
    assert again.returncode == 0, again.stdout + again.stderr
    assert SHIPPED.read_text("utf-8").strip() == old_text


def test_a_missing_snapshot_fails_and_names_the_command_that_records_it(tmp_path: Path) -> None:
    (tmp_path / "reworded.py").write_text(REWORDED, "utf-8")
    empty = tmp_path / "empty-snapshots"
    done = _pytest(tmp_path, empty)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "message not recorded" in done.stdout
    assert f"agentconf snapshots record --impl python:reworded:create --snapshot-dir {empty}" in (
        done.stdout)
    assert not empty.exists()  # checking writes nothing


def test_without_a_snapshot_folder_the_checks_are_n_a_naming_the_record_command(
    tmp_path: Path,
) -> None:
    (tmp_path / "reworded.py").write_text(REWORDED, "utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("AGENTCONF_SNAPSHOT_DIR", None)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", str(suites_dir() / "test_messages.py"), "-p",
         "no:cacheprovider", "-q", "-rs", "-k", "test_message_snapshot and edit-not-found",
         "--agentconf-impl", "python:reworded:create"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "n/a: no snapshot folder" in done.stdout
    assert "agentconf snapshots record --impl python:reworded:create --snapshot-dir DIR" in (
        done.stdout)


CARELESS = textwrap.dedent('''
    from pathlib import Path

    from agentconf.reference import create as create_reference

    class Careless:
        """Names the folder around the root in NOT_FOUND, and pads TEXT_NOT_FOUND to a page."""

        def __init__(self, workspace):
            self.inner = create_reference(workspace)
            self.around = str(Path(workspace.root).parent)

        def list_tools(self):
            return self.inner.list_tools()

        async def call_tool(self, name, arguments):
            answer = await self.inner.call_tool(name, arguments)
            if answer.get("error") == "NOT_FOUND":
                answer = {**answer, "data": answer["data"] + " (searched " + self.around + ")"}
            if answer.get("error") == "TEXT_NOT_FOUND":
                answer = {**answer, "data": answer["data"] + " Context: " + "x" * 5000}
            return answer

    def create(workspace):
        return Careless(workspace)
''')


def test_the_quality_checks_catch_a_leaked_path_and_an_overlong_message(tmp_path: Path) -> None:
    (tmp_path / "careless.py").write_text(CARELESS, "utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "PYTHONDONTWRITEBYTECODE": "1"}
    command = [
        sys.executable,
        "-m",
        "pytest",
        str(suites_dir() / "test_messages.py"),
        "-p",
        "no:cacheprovider",
        "-q",
        "--color=no",
        "-rf",
        "-k",
        "not snapshot and (read_file-read-missing or edit_file-edit-not-found-absent)",
        "--agentconf-impl",
        "python:careless:create",
    ]
    done = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    failed = {
        line.split("::")[1].split(" ")[0]
        for line in done.stdout.splitlines()
        if line.startswith("FAILED")
    }
    assert failed == {
        "test_message_reveals_no_path_outside_the_root[read_file-read-missing]",
        "test_failure_message_fits_the_budget[edit_file-edit-not-found-absent]",
    }, done.stdout
    assert "the answer reveals" in done.stdout
    assert "over the budget of" in done.stdout
