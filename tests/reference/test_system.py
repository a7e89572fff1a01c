"""The system from outside: construction, the listing, and calls that must never raise."""

import asyncio
import os
import stat
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from reference_box import Box

from agentconf.contract import Workspace
from agentconf.reference import create
from agentconf.reference.sandbox.atomic import atomic_write


def test_the_listing_has_the_canonical_tools_in_a_fixed_order(box: Box) -> None:
    tools = box.system.list_tools()
    assert [t["name"] for t in tools] == [
        "read_file", "write_file", "edit_file", "apply_patch", "list_files", "grep", "bash", "exec",
        "tool_search", "make_directory", "move_file", "copy_file", "delete_file",
        "read_multiple_files", "directory_tree",
    ]
    for listed in tools:
        assert set(listed) == {"name", "description", "input_schema", "kind", "annotations"}
        assert listed["description"] and listed["input_schema"]["type"] == "object"
        jsonschema.Draft202012Validator.check_schema(listed["input_schema"])
    assert box.system.list_tools() == tools


def test_changing_a_listing_does_not_change_the_next_one(box: Box) -> None:
    box.system.list_tools()[0]["input_schema"]["properties"].clear()
    assert box.system.list_tools()[0]["input_schema"]["properties"]


def test_every_advertised_tool_is_callable(box: Box) -> None:
    for listed in box.system.list_tools():
        answer = box.call_raw(listed["name"], {})
        assert answer.get("error") != "TOOL_NOT_FOUND", listed["name"]


def test_a_disabled_tool_is_neither_listed_nor_callable(tmp_path: Path) -> None:
    system = create(Workspace(root=tmp_path), disabled=["bash"])
    assert "bash" not in [t["name"] for t in system.list_tools()]
    answer = asyncio.run(system.call_tool("bash", {"command": "true"}))
    assert answer["error"] == "TOOL_NOT_FOUND"


def test_a_feature_flag_can_switch_a_tool_off(tmp_path: Path) -> None:
    system = create(Workspace(root=tmp_path), feature_enabled=lambda name: name != "grep")
    assert "grep" not in [t["name"] for t in system.list_tools()]


@pytest.mark.parametrize(
    ("name", "arguments"),
    [(None, {}), (42, None), ("read_file", None), ("read_file", [1]), ("read_file", "a.txt"),
     ("list_files", {"path": {"nested": True}}), ("edit_file", {"path": "\udcff"})],
)
def test_hostile_calls_answer_envelopes_and_never_raise(
    box: Box, name: Any, arguments: Any
) -> None:
    answer = box.call_raw(name, arguments)
    assert answer["success"] is False and isinstance(answer["data"], str) and answer["data"]
    assert answer["error"] in {"TOOL_NOT_FOUND", "INVALID_ARGS"}


@pytest.mark.parametrize(
    ("config", "complaint"),
    [
        ({"disabled": ["teleport"]}, "unknown tool"),
        ({"grep_engine": "ag"}, "grep_engine"),
        ({"limits": {"max_bananas": 3}}, "unknown limit"),
        ({"call_timeout_s": 0}, "call_timeout_s"),
    ],
)
def test_bad_config_fails_at_construction_with_one_clear_message(
    tmp_path: Path, config: dict[str, Any], complaint: str
) -> None:
    with pytest.raises(ValueError, match=complaint):
        create(Workspace(root=tmp_path), **config)


def test_a_missing_root_fails_at_construction(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not an existing folder"):
        create(Workspace(root=tmp_path / "missing"))


def test_limits_can_be_given_whole_or_as_overrides(tmp_path: Path) -> None:
    overridden = create(Workspace(root=tmp_path), limits={"max_output_chars": 123})
    assert overridden.limits.max_output_chars == 123
    whole = create(Workspace(root=tmp_path), limits=overridden.limits)
    assert whole.limits == overridden.limits


def test_each_system_is_its_own_session(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\n")
    first, second = create(Workspace(root=tmp_path)), create(Workspace(root=tmp_path))
    asyncio.run(first.call_tool("read_file", {"path": "a.txt"}))
    edit = {"path": "a.txt", "old_text": "one", "new_text": "two"}
    assert asyncio.run(second.call_tool("edit_file", edit))["error"] == "NOT_READ"
    assert asyncio.run(first.call_tool("edit_file", edit))["success"]


# ---------------------------------------------------------------- atomic_write


def test_an_atomic_write_that_fails_leaves_the_target_and_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "dir"
    target.mkdir()
    with pytest.raises(IsADirectoryError):
        atomic_write(target, b"data")
    assert target.is_dir() and [p.name for p in tmp_path.iterdir()] == ["dir"]


def test_a_new_file_gets_the_umask_mode_not_the_temp_files(tmp_path: Path) -> None:
    mask = os.umask(0o022)
    os.umask(mask)
    atomic_write(tmp_path / "new.txt", b"x")
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o666 & ~mask
