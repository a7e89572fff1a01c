"""LIST mutants: listings that leak, ignore their pattern or hide a missing folder."""

from pathlib import Path
from typing import Any

from agentconf.selfcheck.mutant_base import Mutant, UnboundedFor, succeeded


class ListAbsoluteNames(Mutant):
    """Lists absolute paths instead of names relative to the root."""

    KILLS = ("LIST-01",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "list_files" and answer.get("success"):
            folder = self.lexical(str((arguments or {}).get("path") or "."))
            names = sorted(
                str(p) for p in Path(folder).rglob("*") if p.is_file() and not p.is_symlink()
            )
            return {**answer, "data": "\n".join(names)}
        return answer


class ListPatternIgnored(Mutant):
    """Accepts `pattern` and lists everything anyway."""

    KILLS = ("LIST-02",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name == "list_files" and isinstance(arguments, dict):
            arguments = {k: v for k, v in arguments.items() if k != "pattern"}
        return await super().call_tool(name, arguments)


class ListMissingFolderIsEmpty(Mutant):
    """Lists a missing folder as empty instead of saying it does not exist."""

    KILLS = ("LIST-03",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "list_files" and answer.get("error") == "NOT_FOUND":
            return succeeded("(no files)")
        return answer


class ListUnbounded(UnboundedFor):
    """Bounds every tool's output except list_files'."""

    KILLS = ("LIST-04",)
    UNBOUNDED_TOOL = "list_files"
