"""Tiny in-test implementations (fauxmplementations, as Bowtie calls them) for the harness's tests.

`create` is a small correct tool system: read_file and write_file confined to the root. The other
factories are each wrong in one way the harness must notice.
"""

import asyncio
import os
from pathlib import Path
from typing import Any

from agentconf.contract import Workspace

SCHEMA = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}


def _tool(name: str, kind: str) -> dict[str, Any]:
    return {"name": name, "description": f"toy {name}", "input_schema": SCHEMA, "kind": kind}


class Toy:
    confine = True

    def __init__(self, workspace: Workspace) -> None:
        self.root = Path(workspace.root)
        self.in_flight = 0
        self.most_in_flight = 0

    def list_tools(self) -> list[dict[str, Any]]:
        return [_tool("read_file", "read"), _tool("write_file", "edit")]

    def _resolve(self, path: str) -> Path | None:
        target = Path(os.path.realpath(self.root / path))
        inside = target == self.root or self.root in target.parents
        return target if inside or not self.confine else None

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            await asyncio.sleep(0.05)  # long enough for concurrent calls to overlap
            return self._answer(name, arguments)
        finally:
            self.in_flight -= 1

    def _answer(self, name: str, arguments: Any) -> dict[str, Any]:
        if name not in ("read_file", "write_file"):
            return {"success": False, "data": f"no tool {name}", "error": "TOOL_NOT_FOUND"}
        target = self._resolve(str(arguments.get("path", "")))
        if target is None:
            return {"success": False, "data": "path is outside the root", "error": "OUTSIDE_ROOT"}
        if name == "write_file":
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(str(arguments.get("content", "")))
            return {"success": True, "data": f"wrote {target}"}
        try:
            return {"success": True, "data": target.read_text()}
        except FileNotFoundError:
            return {"success": False, "data": f"{target} does not exist", "error": "NOT_FOUND"}


class Leaky(Toy):
    """Checks nothing: `../x` writes beside the root, link_out_file reads the secret."""

    confine = False


class Raising(Toy):
    def _answer(self, name: str, arguments: Any) -> dict[str, Any]:
        raise RuntimeError("boom")


class ReadOnly(Toy):
    def list_tools(self) -> list[dict[str, Any]]:
        return [_tool("read_file", "read")]


class Sync(Toy):
    """call_tool is a plain function."""

    def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:  # type: ignore[override]
        return self._answer(name, arguments)


def create(workspace: Workspace) -> Toy:
    return Toy(workspace)


def create_leaky(workspace: Workspace) -> Toy:
    return Leaky(workspace)


def create_raising(workspace: Workspace) -> Toy:
    return Raising(workspace)


def create_read_only(workspace: Workspace) -> Toy:
    return ReadOnly(workspace)


def create_sync(workspace: Workspace) -> Toy:
    return Sync(workspace)


def create_broken(workspace: Workspace) -> Toy:
    raise OSError("the factory cannot start")
