"""A reference whose destructive tools record every path they are given (TOY_CALLED, a JSON line
each: the root, the path, and where it really led at that moment), then let the reference act."""

import asyncio
import json
import os
from pathlib import Path
from typing import Any

from agentconf.contract import Workspace
from agentconf.reference import create

PURGE = {"name": "purge", "description": "Removes a file for good.", "kind": "delete",
         "input_schema": {"type": "object", "properties": {"target": {"type": "string"}},
                          "required": ["target"]}}


class Recording:
    def __init__(self, workspace: Workspace) -> None:
        self.root = Path(os.path.realpath(workspace.root))
        self.reference = create(workspace)

    def list_tools(self) -> list[dict[str, Any]]:
        return [*self.reference.list_tools(), PURGE]

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name in ("delete_file", "move_file", "copy_file", "purge"):
            self._record(name, arguments)
        if name == "purge":
            return {"success": False, "data": "purge refuses everything", "error": "IO_ERROR"}
        return await self.reference.call_tool(name, arguments)

    def _record(self, name: str, arguments: Any) -> None:
        values = arguments.values() if isinstance(arguments, dict) else [arguments]
        with open(os.environ["TOY_CALLED"], "a", encoding="utf-8") as log:
            for value in values:
                if isinstance(value, str):
                    joined = os.path.join(self.root, value)
                    log.write(json.dumps({"tool": name, "root": str(self.root), "path": value,
                                          "lexical": os.path.normpath(joined),
                                          "real": os.path.realpath(joined)}) + "\n")


def create_recording(workspace: Workspace) -> Recording:
    return Recording(workspace)


READ = {"name": "read_file", "description": "Reads a file.", "kind": "read",
        "input_schema": {"type": "object", "properties": {"path": {"type": "string"}},
                         "required": ["path"]}}
WRITE = {"name": "write_file", "description": "Writes a file.", "kind": "edit",
         "input_schema": {"type": "object", "properties": {"path": {"type": "string"},
                                                           "content": {"type": "string"}},
                          "required": ["path", "content"]}}


class SlowBigReads:
    """fast-filesystem-mcp 3.5.2's shape: no read guard (a write needs no read first), and a
    whole read of a big file never answers (its fast_read_file of a file over 2 MB; here over
    100 bytes, so that a write cut short by its cancel leaves a file too big to read)."""

    def __init__(self, workspace: Workspace) -> None:
        self.root = Path(os.path.realpath(workspace.root))

    def list_tools(self) -> list[dict[str, Any]]:
        return [READ, WRITE]

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = self.root / str(arguments.get("path", ""))
        if name == "read_file":
            if path.stat().st_size > 100:
                await asyncio.sleep(3600)
            return {"success": True, "data": path.read_text("utf-8")}
        if name == "write_file":
            content = arguments["content"]
            with path.open("w", encoding="utf-8") as handle:  # a cancel stops it between chunks
                for start in range(0, len(content), 65536):
                    handle.write(content[start:start + 65536])
                    handle.flush()
                    await asyncio.sleep(0.001)
            return {"success": True, "data": "written"}
        return {"success": False, "data": f"no tool {name}", "error": "TOOL_NOT_FOUND"}


def create_slow_big_reads(workspace: Workspace) -> SlowBigReads:
    return SlowBigReads(workspace)
