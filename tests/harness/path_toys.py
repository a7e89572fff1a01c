"""A reference whose destructive tools record every path they are given (TOY_CALLED, a JSON line
each: the root, the path, and where it really led at that moment), then let the reference act."""

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
