"""CONFINE of every tool that takes a path, not only the six (dskcode: one resolver): each path
argument of a path tool is confined like read_file's (CONFINE-16), and the system's temporary
folders are outside the root like any other place (CONFINE-17). How a path tool is driven:
suites/_path_tools.py.
"""

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from _path_tools import (
    CANARY_NAMES,
    accepted_once,
    call_with,
    judge_all,
    may_drive,
    nothing_brought_in,
    outer_folder,
    own_temp_folder,
    path_tools,
    prepare,
)
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from agentconf.harness.session.arguments import AsGiven
from agentconf.harness.verdicts.errors import not_applicable, not_judged_unless_failed
from agentconf.strategies import hostile_paths

PROPERTY = settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    deadline=None,
)
PathOf = Callable[[Any], str]


# ---------------------------------------------------------------- CONFINE-16 every path argument

HOSTILE: list[tuple[str, PathOf]] = [
    ("dotdot-secret", lambda ws: "../outside/secret.txt"),
    ("dotdot-new", lambda ws: "../outside/made-by-path-tool"),
    ("dotdot-folder", lambda ws: "../outside/dir"),
    ("sibling-secret", lambda ws: "../root_evil/secret.txt"),
    ("sibling-new", lambda ws: "../root_evil/moved.txt"),
    ("inside-then-out", lambda ws: "sub/../../outside/secret.txt"),
    ("absolute-secret", lambda ws: str(ws.outside / "secret.txt")),
    ("absolute-new", lambda ws: str(ws.outside / "made-by-path-tool")),
    ("absolute-folder", lambda ws: str(ws.outside)),
    ("absolute-home", lambda ws: str(ws.home / ".ssh" / "authorized_keys")),
    ("root-prefix", lambda ws: str(ws.root) + "_evil/secret.txt"),
    ("tilde", lambda ws: AsGiven("~/.ssh/authorized_keys")),
]


@pytest.mark.clause("CONFINE-16")
@pytest.mark.parametrize("path_of", [p for _, p in HOSTILE], ids=[n for n, _ in HOSTILE])
def test_every_path_argument_of_a_path_tool_is_confined(ws, client, path_of: PathOf) -> None:
    judge_all(ws, client, path_of(ws))


@pytest.mark.clause("CONFINE-16")
@PROPERTY
@given(data=st.data())
def test_no_hostile_path_through_any_path_tool_reaches_outside(ws, client, data) -> None:
    # Every example starts from the canaries as they were (as CONFINE-14's properties do): an
    # escape an example left outside would fail the next one's first call, tools/list, before
    # it draws anything, and hypothesis would call the property flaky instead of reporting it.
    ws.oracle.restore()
    if not ws.exists("sub/inner.txt"):
        ws.link_farm()
    tools = path_tools(client)
    if not tools:
        not_applicable("no path tool beyond the six is advertised or declared")
    tool = data.draw(st.sampled_from(tools), label="tool")
    target = data.draw(st.sampled_from(tool.targets), label="argument")
    path = data.draw(hostile_paths(ws.root, outside=ws.outside, home=ws.home,
                                   sibling=ws.sibling, beyond=ws.outer), label="path")
    assume(may_drive(client, tool, path))
    control = accepted_once(ws, client, tool, target)
    if control is not None:  # its refusals say nothing of the path: the disk is still judged
        not_judged_unless_failed(f"not judged: {tool.name}.{target} {control}")
    prepare(ws)
    result = call_with(client, tool, target, path)
    nothing_brought_in(ws, result)


# ---------------------------------------------------------------- CONFINE-17 the system's tmp

OUTER: list[tuple[str, Callable[[Path], str]]] = [
    ("secret", lambda folder: str(folder / "secret.txt")),
    ("new", lambda folder: str(folder / "made-by-agentconf.txt")),
    ("folder", lambda folder: str(folder)),
    ("mention", lambda folder: "@" + str(folder / "secret.txt")),
    ("dotdot-back", lambda folder: f"{folder}/../{folder.name}/secret.txt"),
]


@pytest.mark.clause("CONFINE-17")
@pytest.mark.requires("write_file")
@pytest.mark.parametrize("path_of", [p for _, p in OUTER], ids=[n for n, _ in OUTER])
def test_a_write_into_the_system_temporary_folder_changes_nothing_there(
    ws, client, path_of: Callable[[Path], str]
) -> None:
    for folder in ws.outer or [outer_folder(ws)]:
        # The oracle judges the canary folder byte for byte after the call: a refusal is right,
        # and so is a write that lands inside the root (`@/tmp/...` without mention stripping,
        # virtual absolute paths); a write there is the escape.
        client.call("write_file", path=path_of(Path(folder)), content="escaped\n")


@pytest.mark.clause("CONFINE-17")
@pytest.mark.parametrize("tool", ["read_file", "list_files", "grep"])
@pytest.mark.parametrize("path_of", [p for _, p in OUTER], ids=[n for n, _ in OUTER])
def test_a_read_of_the_system_temporary_folder_returns_nothing_of_it(
    ws, client, tool: str, path_of: Callable[[Path], str]
) -> None:
    if not client.has(tool) or not client.has("confine_reads"):
        not_applicable(f"the implementation lacks {tool} or confine_reads")
    for folder in [*ws.outer, own_temp_folder(ws)]:
        path = path_of(Path(folder))
        arguments = {"pattern": "agentconf-canary-", "path": path} if tool == "grep" else {
            "path": path}
        result = client.call(tool, **arguments)  # the oracle scans the answer for the secret
        if result.success and not client.judged_virtually(path):
            for name in (*CANARY_NAMES, "system tmp secret"):
                assert name not in result.data, result.evidence()


@pytest.mark.clause("CONFINE-17")
@pytest.mark.parametrize("path_of", [p for _, p in OUTER], ids=[n for n, _ in OUTER])
def test_a_path_tool_reaches_nothing_in_the_system_temporary_folder(
    ws, client, path_of: Callable[[Path], str]
) -> None:
    for folder in ws.outer or [outer_folder(ws)]:
        judge_all(ws, client, path_of(Path(folder)))
