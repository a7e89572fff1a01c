"""Protocol mutants: answers that are not envelopes. Served as `cmd:` programs."""

from typing import Any

from agentconf.contract.protocol import JSONRPC_METHOD_NOT_FOUND
from agentconf.reference.serve import RequestError

from ._base import Mutant


class UnknownToolIsAProtocolError(Mutant):
    """Answers a call of an unknown tool with a JSON-RPC error instead of a TOOL_NOT_FOUND envelope,
    the way MCP servers built on a method table often do."""

    KILLS = ("REGISTRY-04",)
    ADAPTER = "cmd"

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name not in {tool["name"] for tool in self.list_tools()}:
            raise RequestError(JSONRPC_METHOD_NOT_FOUND, f"Unknown tool: {name}")
        return await super().call_tool(name, arguments)
