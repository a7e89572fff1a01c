"""langchain-community's FileManagementToolkit, as an agent built on LangChain gets it.

create(workspace) builds the toolkit with root_dir = the workspace root, exactly as its docs
show, and passes calls straight to each tool's invoke(). Two choices, both LangChain's own:

- The tools answer strings and report a failure as a string starting "Error: " (their `_run`
  catches the exception and returns "Error: " + str(e)); that is the framework's failure
  convention, so an answer starting "Error:" is a failure here. Which code a failure is, the
  profile's error_patterns say, not this file.
- handle_validation_error / handle_tool_error are set as LangChain's agents (langgraph's
  ToolNode) effectively run tools: a bad argument is answered as text to the model instead of
  raising. Any other exception escapes, as it would from the tool, and the kit judges it.
"""

from typing import Any

from langchain_community.agent_toolkits import FileManagementToolkit

FAILURE_PREFIXES = ("Error:", "Tool input validation error")


class LangChainFileTools:
    name = "langchain-community FileManagementToolkit"

    def __init__(self, root: str) -> None:
        self._tools = {tool.name: tool for tool in FileManagementToolkit(root_dir=root).get_tools()}
        for tool in self._tools.values():
            tool.handle_validation_error = True
            tool.handle_tool_error = True

    def list_tools(self) -> list[dict[str, Any]]:
        return [{"name": tool.name, "description": tool.description,
                 "input_schema": tool.get_input_schema().model_json_schema()}
                for tool in self._tools.values()]

    def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        tool = self._tools.get(name)
        if tool is None:  # the words of langgraph's ToolNode, which dispatches LangChain tools
            names = ", ".join(self._tools)
            return {"success": False,
                    "data": f"Error: {name} is not a valid tool, try one of [{names}]."}
        text = str(tool.invoke(arguments))
        return {"success": not text.startswith(FAILURE_PREFIXES), "data": text}


def create(workspace: Any) -> LangChainFileTools:
    return LangChainFileTools(str(workspace.root))
