"""crewai-tools 1.15.30's file tools as a crewAI agent runs them, in process.

create(workspace) builds FileReadTool(base_dir=root), FileWriterTool(base_dir=root) and
DirectoryReadTool() (which takes no base_dir: it confines to the process's working folder,
which the kit sets to the root around every in-process call). The listing is what crewAI sends a
model for native function calling: `convert_tools_to_openai_schema` (crewai/utilities/
agent_utils.py), names sanitised (`read_a_files_content`, `file_writer_tool`,
`list_files_in_directory`).

A call is a model's tool call, the arguments as JSON text, handed to crewAI's own
`execute_single_native_tool_call`: argument parsing, tool lookup, `tool.run` (the args schema
validated), crewAI's formatting of the output, and its "Error executing tool: ..." for an
exception. The tool message a model gets carries no status, only that text: every call answers
success here and the profile says which texts are failures. No model, no key, no crew; crewAI's
telemetry is off (it has no network here anyway).
"""

import json
import os
import uuid
from pathlib import Path
from types import SimpleNamespace
from typing import Any

os.environ.setdefault("CREWAI_DISABLE_TELEMETRY", "true")
os.environ.setdefault("OTEL_SDK_DISABLED", "true")

from crewai.utilities.agent_utils import (
    convert_tools_to_openai_schema,
    execute_single_native_tool_call,
)
from crewai_tools import DirectoryReadTool, FileReadTool, FileWriterTool


class CrewAIFileTools:
    name = "crewai-tools file tools"

    def __init__(self, root: Path) -> None:
        self._tools = [
            FileReadTool(base_dir=str(root)),
            FileWriterTool(base_dir=str(root)),
            DirectoryReadTool(),
        ]
        self._schemas, self._functions, _ = convert_tools_to_openai_schema(self._tools)

    def list_tools(self) -> list[dict[str, Any]]:
        return [
            {
                "name": schema["function"]["name"],
                "description": schema["function"]["description"],
                "input_schema": schema["function"]["parameters"],
            }
            for schema in self._schemas
        ]

    def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        tool_call = SimpleNamespace(
            id=f"call_{uuid.uuid4().hex}",
            function=SimpleNamespace(name=name, arguments=json.dumps(arguments)),
        )
        done = execute_single_native_tool_call(
            tool_call,
            available_functions=self._functions,
            original_tools=self._tools,
            structured_tools=None,
            tools_handler=None,
            agent=None,
            task=None,
            crew=None,
            event_source=self,
        )
        return {"success": True, "data": str(done.result)}


def create(workspace: Any) -> CrewAIFileTools:
    return CrewAIFileTools(Path(workspace.root))
