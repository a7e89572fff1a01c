"""Broken: edit_file writes the whole file back with LF endings (kills EOL-01)."""

from typing import Any

from _wrap import OneToolBroken


class LfOnlyEdit(OneToolBroken):
    async def broken_call(self, name: str, arguments: Any) -> dict[str, Any] | None:
        if name != "edit_file" or not isinstance(arguments, dict):
            return None
        answer = await self.inner.call_tool(name, arguments)
        target = self.root / str(arguments.get("path", ""))
        if answer.get("success") and target.is_file():
            target.write_bytes(target.read_bytes().replace(b"\r\n", b"\n"))
        return answer


def create(workspace: Any) -> LfOnlyEdit:
    return LfOnlyEdit(workspace)
