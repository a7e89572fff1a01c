"""deepagents 0.7.32's filesystem and shell tools, as a deep agent runs them, in process.

create(workspace) builds FilesystemMiddleware(backend=LocalShellBackend(root_dir=root)): the
local backend deepagents ships for work on the machine's own files, with every argument left
at its default (virtual_mode=True: "/" is the root for the file tools and `..`/`~` are refused;
the shell runs in the root with an empty environment, inherit_env=False; 120 s timeout; output
cut at 100,000 bytes). Its tools are ls, read_file, write_file, edit_file, delete, glob, grep
and execute, listed as LangChain sends them to a model (convert_to_openai_tool: the injected
`runtime` argument is not shown).

A call runs the way a deep agent (langchain's create_agent) runs tools: a one-node langgraph
graph over the middleware's own state (FilesystemState) whose node is langgraph's ToolNode with
the middleware's wrap_tool_call (large results evicted to a file, as in an agent), given one
AIMessage with one tool call. ToolNode answers an unknown tool or a bad argument with its own
text; the ToolMessage's status ("success" | "error") is the envelope's success and its content
the data. Nothing else is added or converted: execute's exit status stays in its text
("[Command failed with exit code N]"), where the model reads it.
"""

import json
import uuid
from typing import Any

from deepagents.backends.local_shell import LocalShellBackend
from deepagents.middleware.filesystem import FilesystemMiddleware, FilesystemState
from langchain_core.messages import AIMessage
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import ToolNode


class DeepAgentsTools:
    name = "deepagents FilesystemMiddleware (LocalShellBackend)"

    def __init__(self, root: str) -> None:
        middleware = FilesystemMiddleware(backend=LocalShellBackend(root_dir=root))
        self._tools = list(middleware.tools)
        graph = StateGraph(FilesystemState)
        graph.add_node("tools", ToolNode(self._tools, wrap_tool_call=middleware.wrap_tool_call))
        graph.add_edge(START, "tools")
        graph.add_edge("tools", END)
        self._graph = graph.compile()

    def list_tools(self) -> list[dict[str, Any]]:
        listed = []
        for tool in self._tools:
            function = convert_to_openai_tool(tool)["function"]
            listed.append({"name": function["name"], "description": function.get("description"),
                           "input_schema": function.get("parameters", {})})
        return listed

    def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        call = {"name": name, "args": arguments, "id": f"call_{uuid.uuid4().hex}"}
        state = self._graph.invoke({"messages": [AIMessage("", tool_calls=[call])]})
        message = state["messages"][-1]
        content = message.content
        data = content if isinstance(content, str) else json.dumps(content)
        return {"success": message.status == "success", "data": data}


def create(workspace: Any) -> DeepAgentsTools:
    return DeepAgentsTools(str(workspace.root))
