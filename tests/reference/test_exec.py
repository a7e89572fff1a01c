"""The reference's exec: an argv handed to the program as it is, a missing or unrunnable program
told apart from one that ran, and the allow-list asked before anything starts."""

import asyncio
from pathlib import Path
from typing import Any

import pytest

from agentconf.contract import Workspace
from agentconf.reference import config_from_environment, create


def _call(root: Path, arguments: dict[str, Any], **config: Any) -> dict[str, Any]:
    system = create(Workspace(root=root), **config)
    return asyncio.run(system.call_tool("exec", arguments))


def test_every_argument_reaches_the_program_whole(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("")
    answer = _call(tmp_path, {"argv": ["printf", "<%s>", "a b", "*.txt", "$HOME", ";", ""]})
    assert answer["success"] and answer["data"] == "<a b><*.txt><$HOME><;><>", answer


def test_a_missing_program_is_not_found_and_an_unrunnable_one_is_denied(tmp_path: Path) -> None:
    (tmp_path / "plain.txt").write_text("not a program")
    assert _call(tmp_path, {"argv": ["agentconf-no-such-program"]})["error"] == "NOT_FOUND"
    assert _call(tmp_path, {"argv": [""]})["error"] == "NOT_FOUND"
    assert _call(tmp_path, {"argv": ["./plain.txt"]})["error"] == "PERMISSION_DENIED"


@pytest.mark.parametrize("program", ["touch", "/usr/bin/touch", "./touch"])
def test_the_allow_list_refuses_a_program_by_any_spelling_before_it_runs(
        tmp_path: Path, program: str) -> None:
    answer = _call(tmp_path, {"argv": [program, "made.txt"]}, allowed_programs=["echo"])
    assert answer["error"] == "PERMISSION_DENIED" and answer["denial"]["source"] == "config"
    assert not (tmp_path / "made.txt").exists()
    allowed = _call(tmp_path, {"argv": ["/bin/echo", "ran"]}, allowed_programs=["echo"])
    assert allowed["success"] and allowed["data"] == "ran\n"


def test_the_allow_list_comes_from_the_environment_like_the_modes() -> None:
    assert config_from_environment({"AGENTCONF_ALLOWED_PROGRAMS": "echo 'my tool'"}) == {
        "allowed_programs": ["echo", "my tool"]}


def test_an_empty_argv_is_invalid(tmp_path: Path) -> None:
    answer = _call(tmp_path, {"argv": []})
    assert answer["error"] == "INVALID_ARGS" and answer["issues"], answer
