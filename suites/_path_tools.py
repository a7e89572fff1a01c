"""Every tool that takes a path, driven with a path: what CONFINE-16/17 and SYMLINK-12 share.

The optional path tools (move_file, copy_file, delete_file, make_directory, read_multiple_files,
directory_tree, file_info) and every tool a profile declares under `[tools.extra]` get each of
their path arguments driven with hostile paths, the others benign. The disk oracle judges after
every call (nothing outside changed, no secret in the answer); `judge_all` adds that nothing
from outside was brought into the root and that a listing of a folder outside names nothing in it.

Destructive tools (move, copy, delete, a declared tool unless `destructive = false`) are driven
only with paths that resolve inside the kit's own sandbox: the client refuses anything else
(harness/session/reach.py), and `may_drive` leaves such paths out before they are tried.
"""

import os
import shutil
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentconf.contract import PATH_TOOLS, READING_PATH_TOOLS
from agentconf.harness.disk import outer
from agentconf.harness.disk.sandbox_workspace import CANARY_NAMES
from agentconf.harness.session.argument_values import required_value
from agentconf.harness.session.arguments import path_for, top_argument
from agentconf.harness.session.client import set_target
from agentconf.harness.session.reach import escaping_strings
from agentconf.harness.verdicts.errors import EscapeDetected, judged_in_part, not_applicable


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
        if (name in listing and client.may_call(name)
                and client.profile.capabilities.get(canonical) is not False):
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
    arguments = filled(tool)
    for target, value in values.items():
        set_target(arguments, target, path_for(value, client.profile, client.root))
    return client.call_raw(tool.name, arguments)


def filled(tool: PathTool) -> dict[str, Any]:
    """The values the kit gives a declared tool's required arguments, before its paths are set:
    the rule `init --from` drafts defaults by (harness/session/argument_values.py), inside a
    required object or list of objects too (a list of changes, each with a required `action`:
    left out, every call was refused for it and the paths were never judged)."""
    return _required_of(tool.schema, 0)


def _required_of(schema: dict[str, Any], depth: int) -> dict[str, Any]:
    required = schema.get("required", [])
    properties = schema.get("properties", {})
    if not isinstance(required, list) or not isinstance(properties, dict):
        return {}
    values: dict[str, Any] = {}
    for name in required:
        prop = properties.get(name)
        if not isinstance(prop, dict):
            continue
        value = required_value(prop)
        items = prop.get("items")
        if value is not None:
            values[name] = value[0]
        elif depth < 3 and isinstance(prop.get("properties"), dict):
            values[name] = _required_of(prop, depth + 1)
        elif depth < 3 and isinstance(items, dict) and isinstance(items.get("properties"), dict):
            values[name] = [_required_of(items, depth + 1)]
    return values


def may_drive(client: Any, tool: PathTool, path: str) -> bool:
    """False for a destructive tool and a path that may resolve outside the sandbox."""
    sent = path_for(path, client.profile, client.root)
    return not (tool.destructive and escaping_strings(sent, client.root, client.sandbox))


def drives(client: Any, tools: list[PathTool], path: str) -> Iterator[tuple[PathTool, str]]:
    for tool in tools:
        for target in tool.targets:
            if may_drive(client, tool, path):
                yield tool, target


def prepare(ws: Any, links: dict[str, str] | None = None) -> None:
    """The files every drive starts from (and none it made), and the root's links as they were
    before the first:
    a destructive tool driven before (move_file or delete_file of `link_out`, which may move or
    remove the link itself) must not leave the next tool judged on a root without the link."""
    ws.write("a.txt", "alpha\n")
    ws.write("sub/inner.txt", "inner\n")
    # What an earlier call made at a benign name goes: a copy refused because its destination
    # `moved-0.txt` exists already says nothing of the path it was given.
    for made in [*Path(ws.root).glob("moved-*.txt"), *Path(ws.root).glob("control-*")]:
        if made.is_dir() and not made.is_symlink():
            shutil.rmtree(made)
        else:
            made.unlink()
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


def nothing_brought_in(ws: Any, result: Any) -> None:
    """No file under the root (links not followed) holds a canary's secret."""
    for folder, _, names in os.walk(ws.root):
        for name in names:
            path = Path(folder, name)
            if path.is_file() and not path.is_symlink():
                assert ws.secret.encode() not in path.read_bytes(), (
                    f"{path.relative_to(ws.root)} now holds a canary's content\n"
                    + result.evidence())


def lists_nothing_outside(client: Any, tool: PathTool, result: Any) -> None:
    if tool.reads() and result.success and not client.judged_virtually(
            result.request.arguments.get("path") if isinstance(result.request.arguments, dict)
            else None):
        for name in CANARY_NAMES:
            assert name not in result.data, result.evidence()


def judge_all(ws: Any, client: Any, path: str) -> None:
    tools = path_tools(client)
    if not tools:
        not_applicable("no path tool beyond the six is advertised or declared")
    driven, unaccepted = 0, []
    links = _links(ws.root)
    for serial, (tool, target) in enumerate(drives(client, tools, path)):
        prepare(ws, links)
        control = accepted(client, tool, target, serial)
        prepare(ws, links)
        result = call_with(client, tool, target, path, serial)  # the oracle judges here
        nothing_brought_in(ws, result)
        lists_nothing_outside(client, tool, result)
        if control is not None:
            unaccepted.append(f"{tool.name}.{target}: {control}")
            continue
        driven += 1
    if not driven and unaccepted:
        # A refusal of the hostile path proves nothing when the same call with a path inside the
        # root is refused too: the call's other arguments, not the path, were what it refused.
        not_applicable("not judged: no path tool accepted the kit's call with a path inside "
                       "the root, so its refusals say nothing of the path (" +
                       "; ".join(unaccepted)[:300] + ")")
    if not driven:
        not_applicable("every path tool is destructive and this path may resolve outside the "
                    "sandbox: never sent (harness/session/reach.py)")
    # The disk was judged after each call, so an escape still fails; a pass covers the
    # arguments driven, and says which were not.
    unsent = sorted({tool.name for tool in tools if not may_drive(client, tool, path)})
    parts = [f"{len(unaccepted)} of {driven + len(unaccepted)} path arguments not judged: no "
             "call of theirs with a path inside the root was accepted, so their refusals say "
             "nothing of the path (" + "; ".join(unaccepted)[:300] + ")"] if unaccepted else []
    if unsent:
        parts.append(f"{', '.join(unsent)} not sent this path: destructive, and it may resolve "
                     "outside the sandbox (harness/session/reach.py)")
    if parts:
        judged_in_part("; ".join(parts))


# Paths inside the root a call may take where the hostile one goes: a file, a folder, a new name.
_CONTROLS = ("a.txt", "sub", "control-{serial}")


_ACCEPTED: "weakref.WeakKeyDictionary[Any, dict[tuple[str, str], str | None]]" = (
    weakref.WeakKeyDictionary())


def accepted_once(ws: Any, client: Any, tool: PathTool, target: str) -> str | None:
    """`accepted`, asked once per workspace (a property's examples share theirs)."""
    known = _ACCEPTED.setdefault(ws, {})
    if (tool.name, target) not in known:
        prepare(ws)
        known[(tool.name, target)] = accepted(client, tool, target, 0)
    return known[(tool.name, target)]


def accepted(client: Any, tool: PathTool, target: str, serial: int) -> str | None:
    """None when `tool` does its work with a path inside the root at `target` (the other
    arguments as the hostile call sends them); else what it answered to each."""
    controls = [control.format(serial=serial) for control in _CONTROLS]
    # A destructive tool is sent only what stays in the sandbox (a root served as `/` makes even
    # `a.txt` an absolute path): where no control can be sent, the premise is not tried.
    controls = [control for control in controls if may_drive(client, tool, control)]
    if not controls:
        return None
    said = []
    for control in controls:
        try:
            result = call_with(client, tool, target, control, serial)
        except EscapeDetected as escape:
            # A path inside the root changed the disk outside (a delete into a trash folder in
            # HOME): a fault of every call of the tool, not of the hostile path or link a check
            # drives, so the path tools' own clause's, once, whichever check saw it.
            raise EscapeDetected(f"{tool.name} given {control!r}, a path inside the root: "
                                 f"{escape}", clause="CONFINE-16",
                                 owners=("CONFINE-16",)) from None
        if result.success and result.unproven_refusal() is None:
            return None
        said.append(" ".join(result.data.split())[:60])
    # The path may not be what it refused: the values the kit chose for its other arguments
    # are named, so the reason points at both.
    paths = {top_argument(target) for target in tool.targets}
    others = {name: value for name, value in filled(tool).items() if name not in paths}
    given = "".join(f"; {name} was given {_short(value)}" for name, value in others.items())
    return f"refused {', '.join(controls)} too ({said[0]!r}{given})"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:57]}..."


def own_temp_folder(ws: Any) -> Path:
    """A canary folder in the implementation's own temporary folder (the sandbox's `tmp/`, where
    the kit points its TMPDIR): an allow-list of tempfile.gettempdir() lets that through, and,
    the real /tmp being no TMPDIR of its then, only this shows it (CONFINE-17: whatever TMPDIR
    says)."""
    folder = Path(ws.tmp) / f"{outer.PREFIX}own"
    folder.mkdir(exist_ok=True)
    for name, data in outer.contents(ws.secret).items():
        (folder / name).write_bytes(data)
    return folder


def outer_folder(ws: Any) -> Path:
    if not ws.outer:
        not_applicable("no system temporary folder (/tmp, /var/tmp) is writable here")
    return Path(ws.outer[0])
