"""ANNOTATION: a tool's declared behaviour hints are true, judged on the disk (agentkit's
ToolAnnotations, MCP's readOnlyHint / idempotentHint / destructiveHint, dskcode's ToolKind).

Every advertised tool that makes a claim is driven, canonical or not, since the claim is what
says it is safe to run: a read-only tool with any arguments, an idempotent one twice, a
non-destructive one against existing files. Tools annotated openWorldHint reach beyond the disk
and are never driven here. A tool that declares no hint is n/a for the clause about that hint.
"""

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentconf.contract import declared_hint, declares_read_only
from agentconf.contract.tools import (
    DESTRUCTIVE_HINT,
    IDEMPOTENT_HINT,
    OPEN_WORLD_HINT,
    READ_ONLY_HINT,
)
from agentconf.harness.session.listing import (
    first_listing,
    listed,
    revealed_tools,
    string_arguments,
)
from agentconf.harness.verdicts.errors import judged_in_part, not_applicable
from agentconf.strategies import hostile_paths, valid_arguments

PROPERTY = settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    deadline=None,
)

# Strings a generated argument takes: paths of the seeded tree, new paths, patterns and words.
IN_ROOT = ("a.txt", "sub", "sub/b.txt", ".", "fresh.txt", "fresh/dir", "sub/../a.txt", "*",
           "**/*.txt", "beta")
# Values for the required string arguments of a tool called by hand: existing paths first, so a
# tool with a source and a destination gets an existing source and a new destination.
BY_HAND = ("a.txt", "fresh.txt", "sub", "sub/b.txt", "fresh/dir")


def _seed(ws: Any) -> None:
    if not ws.exists("a.txt"):
        ws.write("a.txt", "alpha\nbeta\n")
        ws.write("sub/b.txt", "beta\n")


def _driven(tool: dict[str, Any]) -> bool:
    """Tools whose effects the disk shows: none annotated openWorldHint."""
    return declared_hint(tool, OPEN_WORLD_HINT) is not True


def _claiming(client: Any, hint: str, value: bool) -> list[dict[str, Any]]:
    """Driven tools that are not read-only and declare `hint` == `value`; n/a when none."""
    tools = [
        tool for tool in first_listing(client)
        if declared_hint(tool, hint) is value and not declares_read_only(tool) and _driven(tool)
        and client.may_call(tool["name"])  # the profile's exclude_tools are never called
    ]
    if not tools:
        not_applicable(f"no tool that changes things declares {hint} {str(value).lower()}")
    return tools


def _changes(before: dict[str, bytes], after: dict[str, bytes]) -> str:
    """What differs between two trees, a path a line, for the assertion message."""
    lines = []
    for path in sorted(set(before) | set(after)):
        old, new = before.get(path), after.get(path)
        if old != new:
            lines.append(f"  {path}: {old!r:.60} -> {new!r:.60}")
    return "\n".join(lines)


def _arguments(data: Any, ws: Any, tool: dict[str, Any], *, hostile: bool) -> dict[str, Any]:
    strings: st.SearchStrategy[str] = st.sampled_from(IN_ROOT)
    if hostile:  # else a read outside is allowed, and the oracle would object
        strings = strings | hostile_paths(
            ws.root, outside=ws.outside, home=ws.home, sibling=ws.sibling
        )
    return data.draw(valid_arguments(tool["input_schema"], strings=strings), label="args")


# ---------------------------------------------------------------- ANNOTATION-01 read-only


@pytest.mark.clause("ANNOTATION-01")
def test_the_canonical_read_tools_change_nothing_on_disk(ws, client) -> None:
    ws.write("a.txt", "alpha\nbeta\n")
    ws.write("sub/b.txt", "beta\n")
    before = ws.tree()
    calls = [
        ("read_file", {"path": "a.txt"}),
        ("read_file", {"path": "sub/new.txt"}),
        ("list_files", {"path": "."}),
        ("list_files", {"path": "sub", "pattern": "*.txt"}),
        ("grep", {"pattern": "beta"}),
        ("grep", {"pattern": "beta", "path": "sub"}),
    ]
    ran = 0
    for tool, arguments in calls:
        entry = listed(client, tool)
        if entry is not None and declares_read_only(entry) and client.has(tool):
            client.call(tool, **arguments)
            ran += 1
    if not ran:
        not_applicable("none of read_file, list_files, grep is declared read-only")
    assert ws.tree() == before, _changes(before, ws.tree())


@pytest.mark.clause("ANNOTATION-01")
@PROPERTY
@given(data=st.data())
def test_a_read_only_tool_changes_nothing_whatever_its_arguments(ws, client, data) -> None:
    declared = [tool for tool in first_listing(client) if declares_read_only(tool)]
    tools = [tool for tool in declared if client.may_call(tool["name"])
             and not client.destructive(tool["name"])]  # hostile paths: harness/session/reach.py
    if not tools:
        not_applicable("no tool the kit may call is of kind read or annotated readOnlyHint")
    if uncalled := sorted(tool["name"] for tool in declared if tool not in tools):
        judged_in_part(f"{', '.join(uncalled)[:200]} declared read-only but never called: the "
                       "profile excludes them, or they are driven only inside the sandbox "
                       "(harness/session/reach.py)")
    _seed(ws)
    before = ws.tree()
    tool = data.draw(st.sampled_from(tools), label="tool")
    arguments = _arguments(data, ws, tool, hostile=client.has("confine_reads"))
    client.call_raw(tool["name"], arguments)
    after = ws.tree()
    assert after == before, f"{tool['name']}({arguments!r}) changed the root:\n" + _changes(
        before, after
    )


@pytest.mark.clause("ANNOTATION-01")
@pytest.mark.requires("tool_search")
@pytest.mark.parametrize("path", ["a.txt", "blob.bin", "sub", "pipe", ".", "missing.txt"])
def test_a_revealed_read_only_tool_changes_nothing_whatever_it_is_pointed_at(
    ws, client, path
) -> None:
    ws.write("a.txt", "alpha\nbeta\n")
    ws.write("blob.bin", b"\x00\x01\x02 binary")
    ws.write("sub/b.txt", "beta\n")
    ws.fifo("pipe")
    readers = [tool for tool in revealed_tools(client) if declares_read_only(tool)]
    callable_with_a_path = [
        (tool, arguments) for tool in readers if (arguments := string_arguments(tool, path))
    ]
    if not callable_with_a_path:
        not_applicable("no revealed read-only tool takes only string arguments")
    before = ws.tree()
    for tool, arguments in callable_with_a_path:
        client.call_raw(tool["name"], arguments)
        assert ws.tree() == before, f"{tool['name']}({arguments!r}) changed the root"


# ---------------------------------------------------------------- ANNOTATION-02 idempotent


@pytest.mark.clause("ANNOTATION-02")
@pytest.mark.requires("write_file")
def test_write_file_annotated_idempotent_leaves_after_two_writes_what_one_left(ws, client) -> None:
    entry = listed(client, "write_file")
    if entry is None or declared_hint(entry, IDEMPOTENT_HINT) is not True:
        not_applicable("write_file is not annotated idempotentHint")
    ws.write("old.txt", "before\n")
    if client.has("read_file"):  # an overwrite may need a prior read (read_before_edit)
        client.call("read_file", path="old.txt")
    for path in ("new.txt", "old.txt", "deep/new.txt"):
        client.call("write_file", path=path, content="once\n")
        once = ws.tree()
        second = client.call("write_file", path=path, content="once\n")
        assert ws.tree() == once, (
            f"the second identical write of {path} changed the disk:\n"
            + _changes(once, ws.tree()) + "\n" + second.evidence()
        )


@pytest.mark.clause("ANNOTATION-02")
@PROPERTY
@given(data=st.data())
def test_an_idempotent_tool_called_twice_leaves_what_one_call_left(ws, client, data) -> None:
    tools = _claiming(client, IDEMPOTENT_HINT, True)
    _seed(ws)
    tool = data.draw(st.sampled_from(tools), label="tool")
    arguments = _arguments(data, ws, tool, hostile=False)
    client.call_raw(tool["name"], arguments)
    once = ws.tree()
    second = client.call_raw(tool["name"], arguments)
    twice = ws.tree()
    assert twice == once, (
        f"{tool['name']}({arguments!r}), annotated idempotentHint, changed the disk again on the "
        f"second call:\n{_changes(once, twice)}\n{second.evidence()}"
    )


# ---------------------------------------------------------------- ANNOTATION-03 non-destructive


def _kept(before: dict[str, bytes], after: dict[str, bytes]) -> str:
    """The paths of `before` that `after` lost or changed; empty when the call only added."""
    return "\n".join(
        f"  {path}: {old!r:.60} -> {after[path]!r:.60}" if path in after else f"  {path}: removed"
        for path, old in before.items()
        if after.get(path) != old
    )


@pytest.mark.clause("ANNOTATION-03")
def test_a_non_destructive_tool_keeps_every_existing_file(ws, client) -> None:
    tools = _claiming(client, DESTRUCTIVE_HINT, False)
    _seed(ws)
    called = 0
    for tool in tools:
        for shift in range(len(BY_HAND)):
            arguments = string_arguments(tool, *BY_HAND[shift:], *BY_HAND[:shift])
            if arguments is None:
                break
            before = ws.tree()
            result = client.call_raw(tool["name"], arguments)
            called += 1
            lost = _kept(before, ws.tree())
            assert not lost, (
                f"{tool['name']}, annotated destructiveHint false, changed or removed what "
                f"existed:\n{lost}\n{result.evidence()}"
            )
    if not called:
        not_applicable("no non-destructive tool takes only string arguments")


@pytest.mark.clause("ANNOTATION-03")
@PROPERTY
@given(data=st.data())
def test_a_non_destructive_tool_only_adds_whatever_its_arguments(ws, client, data) -> None:
    tools = _claiming(client, DESTRUCTIVE_HINT, False)
    _seed(ws)
    tool = data.draw(st.sampled_from(tools), label="tool")
    arguments = _arguments(data, ws, tool, hostile=False)
    before = ws.tree()
    result = client.call_raw(tool["name"], arguments)
    lost = _kept(before, ws.tree())
    assert not lost, (
        f"{tool['name']}({arguments!r}), annotated destructiveHint false, changed or removed "
        f"what existed:\n{lost}\n{result.evidence()}"
    )


# ---------------------------------------------------------------- ANNOTATION-04 declared at all


@pytest.mark.clause("ANNOTATION-04")
def test_every_tool_declares_its_hints(client) -> None:
    missing = []
    for tool in client.list_tools():
        wanted = [READ_ONLY_HINT]
        if declared_hint(tool, READ_ONLY_HINT) is False:
            wanted += [DESTRUCTIVE_HINT, IDEMPOTENT_HINT]
        absent = [hint for hint in wanted if declared_hint(tool, hint) is None]
        if absent:
            missing.append(f"{tool.get('name')}: {', '.join(absent)}")
    assert not missing, "tools without hints:\n  " + "\n  ".join(missing)
