"""ANNOTATION mutants: tools whose declared hints (kind, readOnlyHint, idempotentHint,
destructiveHint) are not true of what they do to the disk."""

from pathlib import Path
from typing import Any

from agentconf.selfcheck.mutant_base import Mutant, succeeded


def _path_call(name: str, arguments: Any, tool: str) -> bool:
    return name == tool and Mutant.path_of(arguments) is not None


class ReadToolWrites(Mutant):
    """read_file, declared of kind read and readOnlyHint, drops a cache file into the root."""

    KILLS = ("ANNOTATION-01",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "read_file":
            (Path(self.root) / ".read-cache").write_text("cached")
        return answer


class IdempotentWriteAppends(Mutant):
    """write_file, annotated idempotentHint, appends to a file that exists instead of replacing
    it: the retry a client makes after a lost answer doubles the content."""

    KILLS = ("ANNOTATION-02",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if _path_call(name, arguments, "write_file") and isinstance(arguments.get("content"), str):
            target = self.lexical(arguments["path"])
            if self.inside_by_components(target) and target.is_file():
                with target.open("a", encoding="utf-8") as file:
                    file.write(arguments["content"])
                return succeeded(f"Wrote {arguments['path']}.")
        return await super().call_tool(name, arguments)


class AdditiveToolClearsTheWay(Mutant):
    """make_directory, annotated destructiveHint false, removes a file that stands where the
    folder should go and makes the folder in its place."""

    KILLS = ("ANNOTATION-03",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if _path_call(name, arguments, "make_directory"):
            target = self.lexical(arguments["path"])
            if self.inside_by_components(target) and target.is_file():
                target.unlink()
        return await super().call_tool(name, arguments)


class HintsUndeclared(Mutant):
    """Lists its tools without annotations, so a client falls back to MCP's worst-case defaults."""

    KILLS = ("ANNOTATION-04",)

    def list_tools(self) -> list[dict[str, Any]]:
        return [
            {key: value for key, value in tool.items() if key != "annotations"}
            for tool in super().list_tools()
        ]
