"""strands-agents-tools 0.8.10's file tools, as a Strands agent calls them, in process.

create(workspace) hands calls straight to the tools: file_read and file_write are module tools
(TOOL_SPEC plus a function taking a ToolUse), editor is an @tool function. Each answers a
ToolResult, {"status": "success" | "error", "content": [{"text": ...}]}: status is the
envelope's success, the texts its data. Nothing else is added. The tools ask a person to
confirm every write unless BYPASS_TOOL_CONSENT=true, which the profile's [env] sets (the
kit is nobody to ask). The shell tool is left out (see README.md).
"""

import os
import uuid
from typing import Any

from strands_tools import editor, file_read, file_write

_MODULE_TOOLS = {"file_read": file_read, "file_write": file_write}


class StrandsFileTools:
    name = "strands-agents-tools"

    def list_tools(self) -> list[dict[str, Any]]:
        listed = []
        for name, module in _MODULE_TOOLS.items():
            spec = module.TOOL_SPEC
            listed.append({"name": name, "description": spec["description"],
                           "input_schema": spec["inputSchema"]["json"]})
        spec = editor.editor.tool_spec
        listed.append({"name": "editor", "description": spec["description"],
                       "input_schema": spec["inputSchema"]["json"]})
        return listed

    def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name in _MODULE_TOOLS:
            use = {"toolUseId": str(uuid.uuid4()), "name": name, "input": arguments}
            result = getattr(_MODULE_TOOLS[name], name)(use)
        elif name == "editor":
            if not isinstance(arguments, dict):
                return {"success": False, "data": "Error: arguments must be an object"}
            result = editor.editor(**arguments)
        else:
            return {"success": False, "data": f"Error: tool {name} not found"}
        texts = [part.get("text", "") for part in result.get("content", [])
                 if isinstance(part, dict)]
        return {"success": result.get("status") == "success", "data": "\n".join(texts)}


def create(workspace: Any) -> StrandsFileTools:
    os.environ.setdefault("BYPASS_TOOL_CONSENT", "true")
    return StrandsFileTools()
