"""CONFINE and SYMLINK of every tool that takes a path, not only the six (dskcode: one resolver).

The optional path tools (move_file, copy_file, delete_file, make_directory, read_multiple_files,
directory_tree, file_info) and every tool a profile declares under `[tools.extra]` get each of
their path arguments driven with hostile paths, the others benign. The disk oracle judges after
every call (nothing outside changed, no secret in the answer); the checks here add that nothing
from outside was brought into the root and that a listing of a folder outside names nothing in it.

Destructive tools (move, copy, delete, a declared tool unless `destructive = false`) are driven
only with paths that resolve inside the kit's own sandbox: the client refuses anything else
(harness/session/reach.py), and the checks leave such paths out before they try.
"""

import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from agentconf.contract import PATH_TOOLS, READING_PATH_TOOLS
from agentconf.harness.session.arguments import path_for
from agentconf.harness.session.client import set_target
from agentconf.harness.session.reach import escaping_strings
from agentconf.harness.verdicts.errors import not_applicable
from agentconf.strategies import hostile_paths

PROPERTY = settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    deadline=None,
)
PathOf = Callable[[Any], str]
# Names only a listing of the canary folders holds (never sent in a request).
_CANARY_NAMES = ("notes.md", "crlf.txt", "nested.txt")


@dataclass(frozen=True)
class PathTool:
    name: str  # the implementation's
    canonical: str | None  # None: declared under [tools.extra]
    targets: tuple[str, ...]  # canonical argument names, or the declared targets
    destructive: bool
    schema: dict[str, Any]

    def reads(self) -> bool:
        return self.canonical in READING_PATH_TOOLS or (
            self.canonical is None and not self.destructive)


def path_tools(client: Any) -> list[PathTool]:
    """Every path tool the implementation advertises (deferred ones revealed first)."""
    listing = {tool["name"]: tool for tool in client.list_tools()}
    hidden = [c for c in PATH_TOOLS if client.tool_name(c) not in listing]
    if hidden and client.has("tool_search"):
        for canonical in hidden:
            client.call("tool_search", query=client.tool_name(canonical))
        listing = {tool["name"]: tool for tool in client.list_tools()}
    found = []
    for canonical, targets in PATH_TOOLS.items():
        name = client.tool_name(canonical)
        if name in listing and client.profile.capabilities.get(canonical) is not False:
            found.append(PathTool(name, canonical, targets, client.destructive(name),
                                  _schema(listing[name])))
    for name, declared in client.profile.path_tools.items():
        if name in listing and client.may_call(name):
            found.append(PathTool(name, None, tuple(declared.paths), client.destructive(name),
                                  _schema(listing[name])))
    return found


def _schema(tool: dict[str, Any]) -> dict[str, Any]:
    schema = tool.get("input_schema", tool.get("inputSchema"))
    return schema if isinstance(schema, dict) else {}


def _benign(target: str, serial: int) -> str:
    return f"moved-{serial}.txt" if target == "destination" else "a.txt"


def call_with(client: Any, tool: PathTool, hostile_at: str, path: str, serial: int = 0) -> Any:
    """Calls `tool` with `path` at the argument `hostile_at`, benign values at the others."""
    values: dict[str, Any] = {t: _benign(t, serial) for t in tool.targets}
    values[hostile_at] = path
    if tool.canonical is not None:
        if "paths" in values:
            values["paths"] = ["a.txt", path] if hostile_at == "paths" else ["a.txt"]
        return client.call(tool.canonical, **values)
    arguments: dict[str, Any] = {}
    required = tool.schema.get("required", [])
    properties = tool.schema.get("properties", {})
    for name in required if isinstance(required, list) else ():
        if isinstance(properties, dict) and properties.get(name, {}).get("type") == "string":
            arguments[name] = "agentconf"
    for target, value in values.items():
        set_target(arguments, target, path_for(value, client.profile, client.root))
    return client.call_raw(tool.name, arguments)


def may_drive(client: Any, tool: PathTool, path: str) -> bool:
    """False for a destructive tool and a path that may resolve outside the sandbox."""
    sent = path_for(path, client.profile, client.root)
    return not (tool.destructive and escaping_strings(sent, client.root, client.sandbox))


def drives(client: Any, tools: list[PathTool], path: str) -> Iterator[tuple[PathTool, str]]:
    for tool in tools:
        for target in tool.targets:
            if may_drive(client, tool, path):
                yield tool, target


def _prepare(ws: Any, links: dict[str, str] | None = None) -> None:
    """The files every drive starts from, and the root's links as they were before the first:
    a destructive tool driven before (move_file or delete_file of `link_out`, which may move or
    remove the link itself) must not leave the next tool judged on a root without the link."""
    ws.write("a.txt", "alpha\n")
    ws.write("sub/inner.txt", "inner\n")
    for rel, target in (links or {}).items():
        path = Path(ws.root, rel)
        if path.is_symlink() and os.readlink(path) == target:
            continue
        if path.is_symlink() or path.is_file():
            path.unlink()
        elif path.is_dir():
            shutil.rmtree(path)  # a real folder inside the root, made where the link was
        path.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, path)


def _links(root: Path) -> dict[str, str]:
    """Every link under the root (not followed), by relative path, with its target."""
    found = {}
    for folder, dirs, names in os.walk(root):
        for name in dirs + names:
            path = Path(folder, name)
            if path.is_symlink():
                found[str(path.relative_to(root))] = os.readlink(path)
    return found


def _nothing_brought_in(ws: Any, result: Any) -> None:
    """No file under the root (links not followed) holds a canary's secret."""
    for folder, _, names in os.walk(ws.root):
        for name in names:
            path = Path(folder, name)
            if path.is_file() and not path.is_symlink():
                assert ws.secret.encode() not in path.read_bytes(), (
                    f"{path.relative_to(ws.root)} now holds a canary's content\n"
                    + result.evidence())


def _lists_nothing_outside(client: Any, tool: PathTool, result: Any) -> None:
    if tool.reads() and result.success and not client.judged_virtually(
            result.request.arguments.get("path") if isinstance(result.request.arguments, dict)
            else None):
        for name in _CANARY_NAMES:
            assert name not in result.data, result.evidence()


def judge_all(ws: Any, client: Any, path: str) -> None:
    tools = path_tools(client)
    if not tools:
        not_applicable("no path tool beyond the six is advertised or declared")
    driven = 0
    links = _links(ws.root)
    for serial, (tool, target) in enumerate(drives(client, tools, path)):
        _prepare(ws, links)
        result = call_with(client, tool, target, path, serial)  # the oracle judges here
        _nothing_brought_in(ws, result)
        _lists_nothing_outside(client, tool, result)
        driven += 1
    if not driven:
        not_applicable("every path tool is destructive and this path may resolve outside the "
                    "sandbox: never sent (harness/session/reach.py)")


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
    ("tilde", lambda ws: "~/.ssh/authorized_keys"),
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
    _prepare(ws)
    result = call_with(client, tool, target, path)
    _nothing_brought_in(ws, result)


# ---------------------------------------------------------------- CONFINE-17 the system's tmp

def _outer(ws: Any) -> Path:
    if not ws.outer:
        not_applicable("no system temporary folder (/tmp, /var/tmp) is writable here")
    return Path(ws.outer[0])


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
    for folder in ws.outer or [_outer(ws)]:
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
    for folder in ws.outer or [_outer(ws)]:
        path = path_of(Path(folder))
        arguments = {"pattern": "agentconf-canary-", "path": path} if tool == "grep" else {
            "path": path}
        result = client.call(tool, **arguments)  # the oracle scans the answer for the secret
        if result.success and not client.judged_virtually(path):
            for name in (*_CANARY_NAMES, "system tmp secret"):
                assert name not in result.data, result.evidence()


@pytest.mark.clause("CONFINE-17")
@pytest.mark.parametrize("path_of", [p for _, p in OUTER], ids=[n for n, _ in OUTER])
def test_a_path_tool_reaches_nothing_in_the_system_temporary_folder(
    ws, client, path_of: Callable[[Path], str]
) -> None:
    for folder in ws.outer or [_outer(ws)]:
        judge_all(ws, client, path_of(Path(folder)))


# ---------------------------------------------------------------- SYMLINK-12 links out

LINKED = ["link_out/secret.txt", "link_out_file", "link_out", "dangling_out", "link_out/new.txt",
          "link_out/dir", "link_tmp/secret.txt", "link_tmp"]


@pytest.mark.clause("SYMLINK-12")
@pytest.mark.parametrize("path", LINKED)
def test_a_path_tool_never_follows_a_link_out(ws, client, path: str) -> None:
    ws.link_farm()
    if path.startswith("link_tmp"):
        ws.symlink("link_tmp", _outer(ws))  # a link to the canary folder in the system's /tmp
    judge_all(ws, client, path)
