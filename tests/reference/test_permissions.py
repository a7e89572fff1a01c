"""The permission gate on its own, against a real temporary root: deny rules judged on the path a
call would really touch (however it is spelled), the first denial of several gates, async gates,
and the deny mode's rules as the contract ships them."""

import asyncio
import os
from pathlib import Path

import pytest

from agentconf.contract import ToolKind
from agentconf.contract.modes import ALLOWED_PROGRAMS, DENY, LOCKED_FOLDER, MODES, READ_ONLY
from agentconf.reference.permissions import (
    AllowAll,
    DenyRule,
    DenyRules,
    DenyTools,
    FirstDenial,
    PermissionRequest,
    ReadOnly,
    ask,
)


def request(tool: str, kind: ToolKind = ToolKind.EDIT, **arguments: object) -> PermissionRequest:
    return PermissionRequest(tool=tool, kind=kind, arguments=dict(arguments))


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    (root / LOCKED_FOLDER / "deep").mkdir(parents=True)
    (root / "open").mkdir()
    os.symlink(root / LOCKED_FOLDER, root / "open" / "door")
    return root.resolve()


def deny_mode(root: Path) -> DenyRules:
    return DenyRules(MODES[DENY].rules, root)


@pytest.mark.parametrize("path", [
    "locked/a.txt", "./locked/a.txt", "open/../locked/a.txt", "locked/deep/b.txt", "locked",
    "open/door/a.txt",  # through a link into the locked folder
])
def test_a_path_rule_denies_the_path_however_it_is_spelled(root: Path, path: str) -> None:
    denial = deny_mode(root).check(request("write_file", path=path, content="x"))
    assert denial is not None and denial.source == "config"
    assert "write_file:locked/**" in denial.reason and denial.hint


@pytest.mark.parametrize("path", ["open/a.txt", "lockedish/a.txt", "../outside.txt"])
def test_a_path_rule_leaves_other_paths_to_the_tool(root: Path, path: str) -> None:
    assert deny_mode(root).check(request("write_file", path=path, content="x")) is None


def test_every_path_of_a_patch_is_judged_the_move_destination_included(root: Path) -> None:
    rules = deny_mode(root)
    moved = "*** Begin Patch\n*** Update File: open/a.txt\n*** Move to: locked/a.txt\n" \
            "-a\n+b\n*** End Patch\n"
    denial = rules.check(request("apply_patch", patch=moved))
    assert denial is not None and "`locked/a.txt`" in denial.reason
    assert rules.check(request("apply_patch", patch="not a patch")) is None


def test_a_tool_rule_denies_every_call_and_read_tools_pass(root: Path) -> None:
    rules = deny_mode(root)
    assert rules.tools == {"bash", "write_file", "edit_file", "apply_patch"}
    denial = rules.check(request("bash", ToolKind.OTHER, command="ls"))
    assert denial is not None and "every call of bash" in denial.reason
    assert rules.check(request("read_file", ToolKind.READ, path="locked/a.txt")) is None


def test_a_command_glob_matches_the_command_text(root: Path) -> None:
    rules = DenyRules(["bash:npm run *"], root)
    assert rules.check(request("bash", ToolKind.OTHER, command="npm run test")) is not None
    assert rules.check(request("bash", ToolKind.OTHER, command="ls")) is None


@pytest.mark.parametrize("text", ["", ":x", "bash:"])
def test_a_malformed_rule_is_refused_with_an_example(text: str) -> None:
    with pytest.raises(ValueError, match="TOOL or TOOL:GLOB"):
        DenyRule.parse(text)


def test_the_read_only_gate_refuses_what_changes_things() -> None:
    assert ReadOnly().check(request("read_file", ToolKind.READ, path="a")) is None
    denial = ReadOnly().check(request("write_file", path="a", content=""))
    assert denial is not None and denial.source == "policy" and "read-only" in denial.reason


def test_the_first_denial_of_several_gates_wins_and_async_gates_are_awaited() -> None:
    class Later:
        async def check(self, request: PermissionRequest) -> None:
            await asyncio.sleep(0)

    gates = FirstDenial([AllowAll(), Later(), DenyTools(["bash"], reason="no shell"),
                         DenyTools(["bash"], reason="second")])
    denial = asyncio.run(ask(gates, request("bash", ToolKind.OTHER, command="ls")))
    assert denial is not None and denial.reason == "no shell"
    assert asyncio.run(ask(gates, request("grep", ToolKind.READ, pattern="x"))) is None


def test_the_contract_ships_its_modes_with_their_meaning() -> None:
    assert set(MODES) == {READ_ONLY, DENY, ALLOWED_PROGRAMS}
    assert all(mode.meaning for mode in MODES.values())
    assert MODES[READ_ONLY].rules == MODES[READ_ONLY].programs == ()
    assert all(DenyRule.parse(rule).tool for rule in MODES[DENY].rules)
    assert MODES[ALLOWED_PROGRAMS].programs and not MODES[ALLOWED_PROGRAMS].rules
