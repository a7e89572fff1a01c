"""CANCEL mutants: cancellations that stop too little, too late, or too much."""

import asyncio
import contextlib
from typing import Any

from agentconf.selfcheck.mutant_base import Mutant, failed, is_bash_call, spawn_shell, succeeded


class CancelKillsOnlyTheShell(Mutant):
    """On cancellation, kills the shell's pid only: what the command started in the background
    or in a subshell runs on."""

    KILLS = ("CANCEL-01",)
    ADAPTER = "cmd"  # its strays stay in the served process's group, which the harness kills

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if not is_bash_call(name, arguments):
            return await super().call_tool(name, arguments)
        process = await spawn_shell(arguments["command"], self.root, own_group=False)
        try:
            code = await process.wait()
        except asyncio.CancelledError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            raise
        return succeeded(f"exit {code}") if code == 0 else failed("NONZERO_EXIT", f"exit {code}")


class CancelLeavesAPartialWrite(Mutant):
    """Streams write_file's content into the target chunk by chunk, and stops where it is when
    cancelled: the file is left truncated."""

    KILLS = ("CANCEL-02",)
    CHUNK = 64 * 1024

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if not (name == "write_file" and self.path_of(arguments) is not None
                and isinstance(arguments.get("content"), str)):
            return await super().call_tool(name, arguments)
        target = self.lexical(arguments["path"])
        data = arguments["content"].encode()
        with target.open("wb") as file:
            for start in range(0, len(data), self.CHUNK):
                file.write(data[start:start + self.CHUNK])
                file.flush()
                await asyncio.sleep(0.005)
        return succeeded(f"Wrote {arguments['path']}.")


class CancelBreaksTheSession(Mutant):
    """Leaves its session flagged busy when a call is cancelled: every later call fails."""

    KILLS = ("CANCEL-03",)

    def __init__(self, workspace: Any) -> None:
        super().__init__(workspace)
        self.busy = False

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if self.busy:
            return failed("EXECUTION_ERROR", "Another call is still running in this session.")
        try:
            return await super().call_tool(name, arguments)
        except asyncio.CancelledError:
            self.busy = True  # the flag the cancelled call should have cleared
            raise


class CancelHangsTheShell(Mutant):
    """A cancelled command leaves its shell waiting on it: the next command is never answered.
    A hang there is CANCEL-03's failure, not a check that could not be made."""

    KILLS = ("CANCEL-03",)
    CALL_TIMEOUT_S = 2.0

    def __init__(self, workspace: Any) -> None:
        super().__init__(workspace)
        self.waiting = False

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name == "bash" and self.waiting:
            await asyncio.sleep(3600)  # what the shell still waits on
        try:
            return await super().call_tool(name, arguments)
        except asyncio.CancelledError:
            self.waiting = self.waiting or name == "bash"
            raise
