"""CONCUR mutants: writes that interleave or lose an update."""

import asyncio
import itertools
from typing import Any

from agentconf.selfcheck.mutant_base import Mutant, is_call, succeeded


class LostUpdate(Mutant):
    """edit_file reads, computes and writes without a per-path lock: concurrent edits of one file
    overwrite each other."""

    KILLS = ("CONCUR-01",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if is_call(name, arguments, "edit_file") and isinstance(arguments.get("old_text"), str):
            target = self.lexical(str(arguments.get("path", "")))
            if target.is_file() and arguments["old_text"]:
                text = target.read_text()
                await asyncio.sleep(0.05)
                if text.count(arguments["old_text"]) == 1:
                    target.write_text(text.replace(arguments["old_text"], arguments["new_text"]))
                    return succeeded(f"Edited {arguments['path']}")
        return await super().call_tool(name, arguments)


class TornWrite(Mutant):
    """write_file writes in place, chunk by chunk: a concurrent reader or writer sees a mix."""

    KILLS = ("CONCUR-02", "CONCUR-04")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Writers pause for different lengths, as real writes do, so their chunks interleave.
        self._phase = itertools.count()

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if is_call(name, arguments, "write_file") and isinstance(arguments.get("content"), str):
            target = self.lexical(str(arguments.get("path", "")))
            if self.inside_by_components(target) and target.parent.is_dir():
                content = arguments["content"]
                step = max(1, len(content) // 4)
                with open(target, "w") as stream:
                    for start in range(0, len(content), step):
                        stream.write(content[start : start + step])
                        stream.flush()
                        await asyncio.sleep(0.005 * (1 + next(self._phase) % 3))
                return succeeded(f"Wrote {arguments['path']}")
        return await super().call_tool(name, arguments)


class LateLostUpdate(LostUpdate):
    """Loses concurrent edits only from its third burst of them on, as a race that needs a
    window shows up in some rounds and not others: one round of concurrent edits never sees it,
    several do (CONCUR-01 judges the race over rounds and says in how many it was seen)."""

    KILLS = ("CONCUR-01",)
    RACES_FROM_BURST = 3

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._bursts = 0  # bursts of edits: edits arriving while none is in flight start one
        self._in_flight = 0

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if not is_call(name, arguments, "edit_file"):
            return await super().call_tool(name, arguments)
        if self._in_flight == 0:
            self._bursts += 1
        self._in_flight += 1
        try:
            if self._bursts >= self.RACES_FROM_BURST:
                return await super().call_tool(name, arguments)  # LostUpdate's racing edit
            return await Mutant.call_tool(self, name, arguments)
        finally:
            self._in_flight -= 1
