"""agno 3.1.10's FileTools and ShellTools, as an agno Agent calls them, in process.

create(workspace) builds FileTools(base_dir=root) and ShellTools(base_dir=root), each with its
defaults (FileTools: save_file, read_file, read_file_chunk, replace_file_chunk, list_files,
search_files, search_content; delete_file is off by default. ShellTools: run_shell_command).
The listing is each Function's to_dict() after process_entrypoint(), the declaration an agno
model is sent.

A call goes the way agno's Model runs a tool call (models/base.py): the arguments are sent as
the JSON text a model writes and taken by agno's own get_function_call_for_tool_call (an unknown
tool, undecodable or non-object arguments are answered with agno's words), then
FunctionCall.execute(), which validates the arguments (pydantic validate_call) and turns an
exception into status "failure" with its text. The envelope's success is that status, its data
the text the model gets (str(result), or agno's error). Nothing else is converted: the tools
report most failures as text starting "Error" with status "success" (that is what the model
sees), and the profile says which texts are failures. No model and no key are needed.
"""

import json
import uuid
from pathlib import Path
from typing import Any

from agno.tools.file import FileTools
from agno.tools.function import ToolResult
from agno.tools.shell import ShellTools
from agno.utils.tools import get_function_call_for_tool_call


class AgnoTools:
    name = "agno FileTools + ShellTools"

    def __init__(self, root: Path) -> None:
        self._functions = {}
        for toolkit in (FileTools(base_dir=root), ShellTools(base_dir=root)):
            for function in toolkit.get_functions().values():
                function.process_entrypoint()
                self._functions[function.name] = function

    def list_tools(self) -> list[dict[str, Any]]:
        listed = []
        for function in self._functions.values():
            declared = function.to_dict()
            listed.append({"name": declared["name"], "description": declared.get("description"),
                           "input_schema": declared.get("parameters", {})})
        return listed

    def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        tool_call = {"type": "function", "id": f"call_{uuid.uuid4().hex}",
                     "function": {"name": name, "arguments": json.dumps(arguments)}}
        function_call = get_function_call_for_tool_call(tool_call, self._functions)
        if function_call is None:  # agno's Model.get_function_calls_to_run
            return {"success": False,
                    "data": "Error: The requested tool does not exist or is not available."}
        if function_call.error is not None:
            return {"success": False, "data": function_call.error}
        result = function_call.execute()
        if result.status != "success":
            return {"success": False, "data": str(function_call.error)}
        output = result.result
        text = output.content if isinstance(output, ToolResult) else str(output)
        return {"success": True, "data": text or ""}


def create(workspace: Any) -> AgnoTools:
    return AgnoTools(Path(workspace.root))
