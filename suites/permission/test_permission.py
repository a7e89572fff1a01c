"""PERMISSION: the implementation started with deny rules (its deny mode: bash denied, and
write_file, edit_file and apply_patch denied under locked/) refuses those calls with a denial
the model can act on, before any side effect, whatever the spelling of the path, and serves
everything else (dskcode's denial, agentkit's permission preflight).

Each check opens a second session in the deny mode (contract/modes.py; `open_mode` in
conftest.py) beside the usual one, on the same workspace.
"""

from typing import Any

import pytest
from _checks import carried_by_the_refusal, read_first, refused

from agentconf.contract.modes import DENY, LOCKED_FOLDER
from agentconf.harness.verdicts.errors import not_applicable

LOCKED = LOCKED_FOLDER


def _seed(ws: Any) -> None:
    ws.write(f"{LOCKED}/kept.txt", "alpha\nbeta\n")
    ws.write("open/notes.txt", "gamma\n")


def _denied_calls(client: Any, ws: Any) -> list[tuple[str, dict[str, Any]]]:
    """One call per rule of the deny mode, for the canonical tools the implementation has."""
    calls = [
        ("write_file", {"path": f"{LOCKED}/deep/new.txt", "content": "written\n"}),
        ("edit_file", {"path": f"{LOCKED}/kept.txt", "old_text": "alpha", "new_text": "omega"}),
        ("apply_patch", {"patch": "*** Begin Patch\n*** Add File: open/ok.txt\n+fine\n"
                                  f"*** Add File: {LOCKED}/planted.txt\n+x\n*** End Patch\n"}),
        ("bash", {"command": f"echo started > {ws.tmp / 'bash-ran'}; echo BASH-OUTPUT"}),
    ]
    present = [(tool, arguments) for tool, arguments in calls if client.has(tool)]
    if not present:
        not_applicable("none of write_file, edit_file, apply_patch, bash is advertised")
    return present


@pytest.mark.clause("PERMISSION-01")
def test_a_denied_call_says_who_denied_it_why_and_what_to_do(ws, client, open_mode) -> None:
    _seed(ws)
    denying = open_mode(DENY)
    for tool, arguments in _denied_calls(client, ws):
        if tool == "edit_file":
            read_first(client, arguments["path"], session=denying)
        result = denying.call(tool, **arguments)
        refused(result, "PERMISSION_DENIED")
        assert result.data.strip(), result.evidence()
        carried_by_the_refusal(result)
        denial = result.denial or {}
        for part in ("source", "reason", "hint"):
            value = denial.get(part)
            assert isinstance(value, str) and value.strip(), (
                f"the denial has no {part}\n" + result.evidence()
            )


@pytest.mark.clause("PERMISSION-02")
def test_the_gate_runs_before_any_side_effect(ws, client, open_mode) -> None:
    _seed(ws)
    denying = open_mode(DENY)
    for tool, arguments in _denied_calls(client, ws):
        if tool == "edit_file":
            read_first(client, arguments["path"], session=denying)
        before = ws.tree()
        result = denying.call(tool, **arguments)
        refused(result)
        assert ws.tree() == before, f"the denied {tool} changed the disk\n" + result.evidence()
        if tool == "bash":
            assert not (ws.tmp / "bash-ran").exists(), "the denied command ran"
            assert "BASH-OUTPUT" not in result.data, result.evidence()


def _spellings(ws: Any, client: Any) -> dict[str, str]:
    """Other spellings of a path under the locked folder, each naming the same place."""
    spellings = {
        "dot-slash": f"./{LOCKED}/x.txt",
        "dotdot": f"open/../{LOCKED}/x.txt",
        "double-slash": f"{LOCKED}//x.txt",
        "missing-dotdot": f"nowhere/../{LOCKED}/x.txt",
    }
    if client.has("mention_prefix"):
        spellings["mention"] = f"@{LOCKED}/x.txt"
    if client.has("symlinks"):
        ws.symlink("door", LOCKED)
        spellings["folder-link"] = "door/x.txt"
    return spellings


@pytest.mark.clause("PERMISSION-03")
@pytest.mark.requires("write_file")
def test_a_path_rule_holds_whatever_the_spelling_of_the_path(ws, client, open_mode) -> None:
    _seed(ws)
    denying = open_mode(DENY)
    for name, path in _spellings(ws, client).items():
        before = ws.tree()
        result = denying.call("write_file", path=path, content="through another spelling\n")
        refused(result, "PERMISSION_DENIED", context=name)
        assert ws.tree() == before, f"{name}: the write landed\n{result.evidence()}"


@pytest.mark.clause("PERMISSION-03")
@pytest.mark.requires("apply_patch")
def test_a_path_rule_holds_for_every_path_of_a_patch(ws, client, open_mode) -> None:
    _seed(ws)
    denying = open_mode(DENY)
    sections = {
        "add": f"*** Add File: open/../{LOCKED}/p.txt\n+x\n",
        "move-into": f"*** Update File: open/notes.txt\n*** Move to: {LOCKED}/notes.txt\n"
                     "-gamma\n+delta\n",
    }
    for name, section in sections.items():
        before = ws.tree()
        result = denying.call("apply_patch", patch=f"*** Begin Patch\n{section}*** End Patch\n")
        refused(result, "PERMISSION_DENIED", context=name)
        assert ws.tree() == before, f"{name}: the patch landed\n{result.evidence()}"


@pytest.mark.clause("PERMISSION-04")
def test_calls_no_rule_denies_are_served_as_usual(ws, client, open_mode) -> None:
    _seed(ws)
    denying = open_mode(DENY)
    served = 0
    if client.has("read_file"):
        result = denying.call("read_file", path=f"{LOCKED}/kept.txt")
        assert result.success and "beta" in result.data, result.evidence()
        served += 1
    if client.has("list_files"):
        result = denying.call("list_files", path=LOCKED)
        assert result.success and "kept.txt" in result.data, result.evidence()
        served += 1
    if client.has("write_file"):
        result = denying.call("write_file", path="open/new.txt", content="allowed\n")
        assert result.success, result.evidence()
        assert ws.read_bytes("open/new.txt") == b"allowed\n"
        served += 1
    if not served:
        not_applicable("none of read_file, list_files, write_file is advertised")


@pytest.mark.clause("PERMISSION-01")
@pytest.mark.parametrize("tool", ["write_file", "bash"])
def test_the_denial_message_is_pinned(ws, client, open_mode, message_snapshot, tool) -> None:
    """The words a model reads when it is denied (a snapshot, like suites/test_messages.py)."""
    _seed(ws)
    calls = dict(_denied_calls(client, ws))
    if tool not in calls:
        not_applicable(f"the implementation lacks {tool}")
    arguments = {**calls[tool], "command": "echo hello"} if tool == "bash" else calls[tool]
    result = open_mode(DENY).call(tool, **arguments)
    message_snapshot(result.data.replace(str(ws.root), "<ROOT>"))
