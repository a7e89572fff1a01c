"""REGISTRY mutants: what is advertised and what can be called."""

import random
from typing import Any

from agentconf.contract.protocol import JSONRPC_METHOD_NOT_FOUND
from agentconf.reference.serve import RequestError
from agentconf.selfcheck.mutant_base import Mutant, failed


class UnstableToolOrder(Mutant):
    """Lists tools in a different order each time (iteration over an unordered set)."""

    KILLS = ("REGISTRY-02",)

    def list_tools(self) -> list[dict[str, Any]]:
        tools = super().list_tools()
        random.shuffle(tools)
        return tools


class ListedToolNotCallable(Mutant):
    """Advertises a tool that the dispatcher does not know (two lists kept apart): delete_file is
    listed, and calling it answers TOOL_NOT_FOUND."""

    KILLS = ("REGISTRY-03",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name == "delete_file":
            return failed("TOOL_NOT_FOUND", "There is no tool named delete_file.")
        return await super().call_tool(name, arguments)


class BrokenInputSchema(Mutant):
    """Advertises an input schema that is not valid JSON Schema (a misspelt type)."""

    KILLS = ("REGISTRY-01",)

    def list_tools(self) -> list[dict[str, Any]]:
        tools = super().list_tools()
        first = tools[0]
        schema = first["input_schema"]
        broken = {
            **schema,
            "properties": {**schema.get("properties", {}), "path": {"type": "strng"}},
        }
        return [{**first, "input_schema": broken}, *tools[1:]]


class KindMissing(Mutant):
    """Declares no kind, so callers cannot tell reads from writes."""

    KILLS = ("REGISTRY-05",)

    def list_tools(self) -> list[dict[str, Any]]:
        return [{k: v for k, v in tool.items() if k != "kind"} for tool in super().list_tools()]


class ToolSearchFindsNothing(Mutant):
    """tool_search answers, but never finds a tool."""

    KILLS = ("REGISTRY-07",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name == "tool_search":
            return {"success": True, "data": "No tools match."}
        return await super().call_tool(name, arguments)


class UnknownToolIsAProtocolError(Mutant):
    """Answers a call of an unknown tool with a JSON-RPC error instead of a TOOL_NOT_FOUND envelope,
    the way MCP servers built on a method table often do."""

    KILLS = ("REGISTRY-04",)
    ADAPTER = "cmd"

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name not in {tool["name"] for tool in self.list_tools()}:
            raise RequestError(JSONRPC_METHOD_NOT_FOUND, f"Unknown tool: {name}")
        return await super().call_tool(name, arguments)


class RevealedToolNotCallable(Mutant):
    """Lists a deferred tool once tool_search has revealed it, but its dispatch still answers
    TOOL_NOT_FOUND: the advertised set and the callable set went through different filters."""

    KILLS = ("REGISTRY-03",)

    def __init__(self, workspace: Any) -> None:
        super().__init__(workspace)
        self._first_names = {spec["name"] for spec in self.list_tools()}

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name not in self._first_names and name in {t["name"] for t in self.list_tools()}:
            return failed("TOOL_NOT_FOUND", f"There is no tool named {name}.")
        return await super().call_tool(name, arguments)
