"""[setup].commands: the root prepared before the implementation starts, as a user prepares a
project (`git init` for a tool system whose writes work only in a repository): what they make is
the root's starting state and the implementation's own, never judged as an escape or a change."""

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agentconf.harness.disk.sandbox_workspace import SandboxWorkspace
from agentconf.harness.profile.model import parse_profile
from agentconf.harness.target.launch import run_setup_commands
from agentconf.harness.verdicts.errors import ImplementationFailure

BOUND_S = 600


def test_what_the_commands_make_in_the_root_is_its_starting_state(tmp_path: Path) -> None:
    ws = SandboxWorkspace(base=tmp_path / "sandbox")
    profile = parse_profile({"setup": {"commands": [
        ["mkdir", "-p", ".project/hooks"], ["sh", "-c", "echo {root} > .project/where"],
        ["touch", "project.toml"]]}})  # a file of its own at the top, as codemcp.toml is
    made = run_setup_commands(profile, ws.root, ws.home, ws.tmp)
    assert made == [ws.root / ".project", ws.root / "project.toml"]
    assert (ws.root / ".project" / "where").read_text().strip() == str(ws.root)
    ws.oracle.own_state(made)
    assert ws.tree() == {}  # the implementation's own: no check counts it as a change


def test_a_command_that_fails_stops_the_check_with_its_output(tmp_path: Path) -> None:
    ws = SandboxWorkspace(base=tmp_path / "sandbox")
    profile = parse_profile({"setup": {"commands": [["sh", "-c", "echo no repo >&2; exit 4"]]}})
    with pytest.raises(ImplementationFailure, match="exited 4: no repo"):
        run_setup_commands(profile, ws.root, ws.home, ws.tmp)


@pytest.mark.skipif(not os.path.exists("/usr/bin/git"), reason="git is not installed")
def test_a_run_on_a_root_made_a_repository_judges_as_on_a_plain_one(tmp_path: Path) -> None:
    (tmp_path / "agentconf.toml").write_text(
        '[implementation]\nspec = "reference"\n[setup]\ncommands = [["git", "init", "-q"]]\n',
        "utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "agentconf", "run", "--impl", "agentconf.toml", "--clauses",
         "CONFINE-01,EDIT-11,LIST-01", "--report", "report"], cwd=tmp_path,
        capture_output=True, text=True, timeout=BOUND_S, check=False, stdin=subprocess.DEVNULL)
    document: dict[str, Any] = json.loads((tmp_path / "report" / "conformance.json").read_text())
    assert done.returncode == 0, done.stdout[-2000:]
    assert {c["id"]: c["status"] for c in document["clauses"]} == dict.fromkeys(
        ("CONFINE-01", "EDIT-11", "LIST-01"), "pass")
