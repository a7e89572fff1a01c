"""The reference with one tool replaced: each broken implementation overrides a single tool."""

import inspect
from pathlib import Path
from typing import Any

from agentconf.contract import Workspace
from agentconf.reference import create


class OneToolBroken:
    """Delegates every call to a reference session except those `broken_call` answers."""

    def __init__(self, workspace: Workspace) -> None:
        self.inner = create(workspace)
        self.root = Path(workspace.root)
        self.limits = workspace.limits

    def list_tools(self) -> list[dict[str, Any]]:
        return self.inner.list_tools()

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await self.broken_call(name, arguments)
        if answer is not None:
            return answer
        result = self.inner.call_tool(name, arguments)
        return await result if inspect.isawaitable(result) else result

    async def broken_call(self, name: str, arguments: Any) -> dict[str, Any] | None:
        return None


def fail(code: str, message: str) -> dict[str, Any]:
    return {"success": False, "data": message, "error": code}


def ok(data: str) -> dict[str, Any]:
    return {"success": True, "data": data}
