"""The disguised server: a tool system (the reference, or a mutant of the gallery) behind a
disguise, served over MCP with the official SDK by the reference's own MCP server
(agentconf/reference/serve_mcp.py) with the disguise's answers."""

from typing import Any

import mcp_types as types

from agentconf.reference.serve import ToolSystem

from .calls import Call, translate
from .dimensions import Disguise
from .disguised_answers import Answer, disguise_answer
from .disguised_listing import disguise_listing, input_schema
from .names import Names

SERVER_NAME = "disguised-tools"


class DisguisedSystem:
    """`list_tools` and `call_tool` of `inner` as the disguise shows them; `call_tool` returns
    `{"answer": Answer}` for `mcp_answer` to put on the wire."""

    def __init__(self, inner: ToolSystem, disguise: Disguise, root: str) -> None:
        self.inner = inner
        self.names = Names(disguise)
        self.root = root

    def list_tools(self) -> list[dict[str, Any]]:
        return disguise_listing(self.inner.list_tools(), self.names)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        # Listed afresh for every call: tool_search reveals tools, a mutant may list others.
        listed = self.inner.list_tools()
        self.names.listed(listed)
        schemas = {str(entry["name"]): input_schema(entry, self.names) for entry in listed}
        call = translate(name, arguments, self.names, schemas, self.root)
        envelope = call.refusal or await self._run(call)
        return {"answer": disguise_answer(envelope, call, self.names)}

    async def _run(self, call: Call) -> dict[str, Any]:
        """The reference's calls in order, up to the first that fails (a nested edit's list)."""
        envelope: dict[str, Any] = {}
        for arguments in call.calls:
            envelope = await self.inner.call_tool(call.tool, arguments)
            if not envelope.get("success"):
                break
        return envelope


def mcp_answer(result: dict[str, Any]) -> types.CallToolResult:
    answer: Answer = result["answer"]
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=answer.text)],
        structured_content=answer.structured,
        is_error=answer.is_error,
    )
