"""`init --from`'s reads of a probe file: the probes that settle how paths are sent (relative
or absolute, from a virtual `/`) and whether answers carry their own status in JSON, before the
session's profile is made; and where a JSON read answer keeps the file's text.
"""

import json
from collections.abc import Callable
from functools import partial
from typing import Any

from agentconf.harness.disk.workspace import SandboxWorkspace
from agentconf.harness.profile.model import parse_profile
from agentconf.harness.session.client import Client
from agentconf.harness.session.result import Result
from agentconf.init_from.findings import Findings, safely


def _read_as(adapter: Any, tables: dict[str, Any], ws: SandboxWorkspace,
             listing: list[dict[str, Any]], name: str, absolute: bool, virtual: bool = False
             ) -> tuple[bool, str]:
    """Reads a probe file `name` of the root, its path sent relative or absolute (and, absolute,
    as the host's path or from a virtual `/`): whether its text came back, and the answer.

    Its text is not in its name: a refusal that repeats the path is no read (mcp-code-editor
    answers a success whose JSON says "success": false, "... got relative path: <path>")."""
    text = name.removesuffix(".txt") + "-content"
    result = _read(adapter, {**tables, "implementation": {
        "absolute_paths": absolute, "virtual_absolute_paths": virtual}}, ws, listing, name, text)
    if result is None:
        return False, ""
    return result.success and text in result.data, result.data


def _read(adapter: Any, tables: dict[str, Any], ws: SandboxWorkspace,
          listing: list[dict[str, Any]], name: str, text: str | None) -> Result | None:
    """A read of file `name` of the root as the tables say, holding `text` (None: no such file)
    while it is read; None when the read did not answer."""
    if text is not None:
        (ws.root / name).write_text(text + "\n", "utf-8")
    try:
        client = Client(adapter, parse_profile(tables), ws.root, None, ws.sandbox,
                        known_tools=listing)
        return safely(partial(client.call, "read_file", path=name), Findings(), "a read")
    finally:
        (ws.root / name).unlink(missing_ok=True)


# Where an answer that says success may say in its JSON that it failed, and the value saying so.
_STATUS_KEYS: tuple[tuple[str, bool], ...] = (
    ("success", False), ("ok", False), ("isError", True), ("is_error", True))


def json_status(adapter: Any, tables: dict[str, Any], ws: SandboxWorkspace,
                 listing: list[dict[str, Any]]) -> tuple[dict[str, Any], str] | None:
    """Whether its answers all say success and carry their own status in JSON (mcp-code-editor:
    `{"success": false, "error": "FileNotFoundError", ...}`): a read of a missing file says the
    failing value, a read of a file the other one. The failure marker and the evidence if so.

    Without it every failure of such a server is a success to the checks (a missing file read
    as a text), and the probes after it learn no code."""
    if "read_file" not in tables["tools"]:
        return None
    missing = _json_object(_read(adapter, tables, ws, listing, "agentconf-probe-absent.txt",
                                 None))
    present = _json_object(_read(adapter, tables, ws, listing, "agentconf-probe-status.txt",
                                 "agentconf-probe-status-content"))
    if missing is None or present is None:
        return None
    for key, failing in _STATUS_KEYS:
        if missing.get(key) is failing and present.get(key) is (not failing):
            said = json.dumps(missing, ensure_ascii=False).replace(str(ws.root), "<ROOT>")[:120]
            return {"path": key, "equals": failing}, (
                f"probe: a read of a missing file answered success with {said!r}, a read of a "
                f"file {key!r}: {json.dumps(not failing)}: every tool's {key} = "
                f"{json.dumps(failing)} is a failure")
    return None


def _json_object(result: Result | None) -> dict[str, Any] | None:
    """The JSON object a successful answer's text is, else None."""
    if result is None or not result.success:
        return None
    try:
        value = json.loads(result.data)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def refuses_relative(adapter: Any, tables: dict[str, Any], ws: SandboxWorkspace,
                      listing: list[dict[str, Any]]) -> str | None:
    """Whether its tools take absolute paths only though no description says so
    (mcp-code-editor: "Path must be absolute"): a file of the root read by its relative path
    is refused, and by its absolute path is found. Evidence when so, else None."""
    if "read_file" not in tables["tools"]:
        return None
    name = "agentconf-probe-path.txt"
    relative, refusal = _read_as(adapter, tables, ws, listing, name, absolute=False)
    if relative or not _read_as(adapter, tables, ws, listing, name, absolute=True)[0]:
        return None
    refusal = refusal.replace(str(ws.root), "<ROOT>").strip()
    return (f"probe: a file of the root read by its relative path was refused "
            f"({refusal[:120]!r}), by its absolute path found")


def virtual_root(adapter: Any, tables: dict[str, Any], ws: SandboxWorkspace,
                  listing: list[dict[str, Any]]) -> str | None:
    """Whether `/x` is root/x (deepagents' virtual_mode): a file of the root read as
    `/<name>` shows it, read as `<root>/<name>` does not. Evidence when so, else None."""
    if "read_file" not in tables["tools"]:
        return None
    name = "agentconf-probe-virtual.txt"
    answers = [_read_as(adapter, tables, ws, listing, name, absolute=True, virtual=virtual)[0]
               for virtual in (False, True)]
    if answers == [False, True]:
        return (f"probe: a file of the root read as /{name} was found, as <ROOT>/{name} was "
                "not: / is the root")
    return None


def text_place(found: Findings, result: Result | None, text: str) -> None:
    """A read answering JSON with the file's text in one field (filesystem-mcp's {"path",
    "content", "size"}, fast-filesystem-mcp's {"content", "mode", ...}): that field is the text
    the checks read, `[tools.read_file.result] text`."""
    if result is None or not result.success or result.data == text:
        return
    try:
        value = json.loads(result.data)
    except ValueError:
        return
    place = json_place(value, lambda inner: inner == text)
    if place is not None:
        found.keys.setdefault("read_file", {}).setdefault("result", {}).setdefault("text", place)
        found.evidence.setdefault("read_file", []).append(
            f"probe: a read of a two-line file answered JSON with the file's text at {place}")


def json_place(value: Any, holds: Callable[[Any], bool], path: str = "",
               depth: int = 0) -> str | None:
    """The dotted place of the first field `holds` accepts in a JSON object, shallowest first."""
    if not isinstance(value, dict) or depth > 3:
        return None
    for key, inner in value.items():
        if holds(inner):
            return f"{path}{key}"
    for key, inner in value.items():
        place = json_place(inner, holds, f"{path}{key}.", depth + 1)
        if place is not None:
            return place
    return None
