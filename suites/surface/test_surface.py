"""SURFACE: the implementation started in its read-only mode (@clarvis/agent-tools' readOnly)
lists the read tools alone, refuses the others as unknown, changes nothing on disk, and serves
its reads as the usual mode does.

Each check opens a second session in the read_only mode (contract/modes.py; `open_mode` in
conftest.py) beside the usual one, on the same workspace.
"""

import weakref
from typing import Any

import pytest
from _checks import refused
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentconf.contract import CANONICAL_TOOLS, declares_read_only
from agentconf.contract.modes import READ_ONLY
from agentconf.contract.tools import ToolKind
from agentconf.harness.session.listing import SEARCH_WORDS, first_listing, string_arguments
from agentconf.harness.verdicts.errors import not_applicable
from agentconf.strategies import valid_arguments

PROPERTY = settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    deadline=None,
)
IN_ROOT = ("a.txt", "sub", "sub/b.txt", ".", "made.txt", "made/dir", "alpha", "*")

# Calls of the canonical tools that change things, each harmful if it ran.
WRITES: dict[str, dict[str, Any]] = {
    "write_file": {"path": "made.txt", "content": "written\n"},
    "edit_file": {"path": "a.txt", "old_text": "alpha", "new_text": "omega"},
    "bash": {"command": "echo ran > ran.txt"},
    "apply_patch": {"patch": "*** Begin Patch\n*** Add File: made.txt\n+x\n*** End Patch\n"},
}


# The read-only session of a property test, by its usual session: hypothesis runs the body many
# times with the same fixtures, and one session serves them all.
_READ_ONLY: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()


def _seed(ws: Any) -> None:
    if not ws.exists("a.txt"):
        ws.write("a.txt", "alpha\nbeta\n")
        ws.write("sub/b.txt", "beta\n")


def _changers(client: Any) -> list[dict[str, Any]]:
    """The usual surface's tools that are not declared read-only, and that the kit may call. A
    tool the profile maps to looking alone (read_file, grep, ...) is no changer, declared or
    not: SURFACE-04 wants it answering in the read-only mode."""
    kinds = {name: tool.kind for name, tool in CANONICAL_TOOLS.items() if client.has(name)}
    looking = {client.tool_name(name) for name, kind in kinds.items() if kind is ToolKind.READ}
    looking -= {client.tool_name(name) for name, kind in kinds.items() if kind is not ToolKind.READ}
    return [tool for tool in first_listing(client) if not declares_read_only(tool)
            and client.may_call(tool["name"]) and tool["name"] not in looking]


@pytest.mark.clause("SURFACE-01")
def test_the_read_only_mode_lists_read_only_tools_alone(open_mode) -> None:
    listing = open_mode(READ_ONLY).list_tools()
    assert listing, "the read-only mode lists no tool at all"
    changers = [tool.get("name") for tool in listing if not declares_read_only(tool)]
    assert not changers, f"listed in the read-only mode, yet not declared read-only: {changers}"


@pytest.mark.clause("SURFACE-02")
def test_a_tool_that_changes_things_is_unknown_in_the_read_only_mode(ws, client, open_mode) -> None:
    _seed(ws)
    read_only = open_mode(READ_ONLY)
    before = ws.tree()
    called = 0
    for canonical, arguments in WRITES.items():
        if client.has(canonical):
            result = read_only.call(canonical, **arguments)
            called += 1
            refused(result, "TOOL_NOT_FOUND")
            assert ws.tree() == before, f"{canonical} changed the disk\n" + result.evidence()
    canonical_names = {client.tool_name(name) for name in WRITES}
    for tool in _changers(client):
        if tool["name"] in canonical_names:
            continue
        arguments = string_arguments(tool, "made.txt", "sub") or {}
        result = read_only.call_raw(tool["name"], arguments)
        called += 1
        refused(result, "TOOL_NOT_FOUND")
        assert ws.tree() == before, f"{tool['name']} changed the disk\n" + result.evidence()
    if not called:
        not_applicable("the usual mode has no tool that changes things")


@pytest.mark.clause("SURFACE-02")
@PROPERTY
@given(data=st.data())
def test_no_call_in_the_read_only_mode_changes_the_disk(ws, client, open_mode, data) -> None:
    _seed(ws)
    if client not in _READ_ONLY:  # one session per test, not per example
        _READ_ONLY[client] = open_mode(READ_ONLY)
    read_only = _READ_ONLY[client]
    tools = [tool for tool in first_listing(client) + first_listing(read_only)
             if client.may_call(tool["name"])]
    tool = data.draw(st.sampled_from(tools), label="tool")
    arguments = data.draw(
        valid_arguments(tool["input_schema"], strings=st.sampled_from(IN_ROOT)), label="args"
    )
    before = ws.tree()
    result = read_only.call_raw(tool["name"], arguments)
    assert ws.tree() == before, (
        f"{tool['name']}({arguments!r}) changed the disk in the read-only mode\n"
        + result.evidence()
    )


@pytest.mark.clause("SURFACE-03")
def test_every_tool_listed_in_the_read_only_mode_is_callable(ws, open_mode) -> None:
    _seed(ws)
    read_only = open_mode(READ_ONLY)
    for tool in read_only.list_tools():
        if not read_only.may_call(tool["name"]):
            continue
        result = read_only.call_raw(tool["name"], string_arguments(tool, "a.txt") or {})
        assert result.error != "TOOL_NOT_FOUND", result.evidence()


@pytest.mark.clause("SURFACE-03")
@pytest.mark.requires("tool_search")
def test_tool_search_in_the_read_only_mode_reveals_read_only_callable_tools(ws, open_mode) -> None:
    _seed(ws)
    read_only = open_mode(READ_ONLY)
    searcher = read_only.tool_name("tool_search")
    first = {tool["name"] for tool in read_only.list_tools()}
    if searcher not in first:
        not_applicable("the read-only mode does not list tool_search")
    for word in SEARCH_WORDS:
        read_only.call("tool_search", query=word)
    revealed = [tool for tool in read_only.list_tools() if tool["name"] not in first]
    if not revealed:
        not_applicable("tool_search revealed no deferred tool in the read-only mode")
    for tool in revealed:
        assert declares_read_only(tool), f"tool_search revealed {tool['name']}, not read-only"
        if not read_only.may_call(tool["name"]):
            continue  # outside the contract: judged from its listing alone (session/reach.py)
        result = read_only.call_raw(tool["name"], string_arguments(tool, "a.txt") or {})
        assert result.error != "TOOL_NOT_FOUND", result.evidence()


@pytest.mark.clause("SURFACE-04")
@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        pytest.param("read_file", {"path": "a.txt"}, marks=pytest.mark.requires("read_file")),
        pytest.param("read_file", {"path": "missing.txt"}, marks=pytest.mark.requires("read_file")),
        pytest.param("list_files", {"path": "sub"}, marks=pytest.mark.requires("list_files")),
        pytest.param("grep", {"pattern": "beta"}, marks=pytest.mark.requires("grep")),
    ],
)
def test_a_read_answers_as_in_the_usual_mode(ws, client, open_mode, tool, arguments) -> None:
    _seed(ws)
    usual = client.call(tool, **arguments)
    read_only = open_mode(READ_ONLY).call(tool, **arguments)
    assert (read_only.success, read_only.error) == (usual.success, usual.error), (
        f"usual mode:\n{usual.evidence()}\nread-only mode:\n{read_only.evidence()}"
    )
    assert read_only.data == usual.data, (
        f"usual mode:\n{usual.evidence()}\nread-only mode:\n{read_only.evidence()}"
    )


@pytest.mark.clause("SURFACE-02")
@pytest.mark.requires("write_file")
def test_the_message_for_a_hidden_tool_is_pinned(ws, open_mode, message_snapshot) -> None:
    """The words a model reads when it calls a tool the read-only mode hides (a snapshot)."""
    result = open_mode(READ_ONLY).call("write_file", path="made.txt", content="x")
    message_snapshot(result.data.replace(str(ws.root), "<ROOT>"))
