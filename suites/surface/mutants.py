"""SURFACE mutants: read-only modes that list, dispatch or search through different filters."""

from typing import Any

from agentconf.reference import create
from agentconf.selfcheck.mutant_base import Mutant, failed


class _ReadOnlyMutant(Mutant):
    """Keeps a second reference with the whole surface, for the defect to reach through."""

    def __init__(self, workspace: Any) -> None:
        super().__init__(workspace)
        self.read_only = bool(self.modes.get("read_only"))
        self.whole = create(workspace, read_only=False, deny=())


class ReadOnlyListsEverything(_ReadOnlyMutant):
    """In its read-only mode, lists every tool while dispatch serves the read tools alone (the
    listing and the dispatcher filter separately)."""

    KILLS = ("SURFACE-01",)

    def list_tools(self) -> list[dict[str, Any]]:
        return self.whole.list_tools() if self.read_only else super().list_tools()


class ReadOnlyHidesButRuns(_ReadOnlyMutant):
    """In its read-only mode, hides the tools that change things from the listing but still runs
    them when called (an allow-list applied to the listing only)."""

    KILLS = ("SURFACE-02",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if self.read_only:
            return await self.whole.call_tool(name, arguments)
        return await super().call_tool(name, arguments)


class ReadOnlyForgetsRevealedTools(_ReadOnlyMutant):
    """In its read-only mode, lists a deferred tool once tool_search reveals it, but its
    dispatcher's read-only filter knows only the tools listed from the start."""

    KILLS = ("SURFACE-03",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if self.read_only and name == "file_info":
            return failed("TOOL_NOT_FOUND", f"There is no tool named `{name}`.")
        return await super().call_tool(name, arguments)


class ReadOnlyRefusesReads(_ReadOnlyMutant):
    """In its read-only mode, puts a deny-everything gate in front of the reads too: read_file
    answers PERMISSION_DENIED."""

    KILLS = ("SURFACE-04",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if self.read_only and name == "read_file":
            return failed(
                "PERMISSION_DENIED",
                "read_file was not run: this session is read-only.",
                denial={"source": "policy", "reason": "read-only session", "hint": None},
            )
        return await super().call_tool(name, arguments)
