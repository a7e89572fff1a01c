"""EXEC mutants: an argv runner that lets a shell or a split back in, loses a stream or an exit
code, stops only its program, runs elsewhere, ignores its allow-list, hides a missing program or
its output's bound."""

import asyncio
import contextlib
from typing import Any

from agentconf.reference import create
from agentconf.reference.sandbox.process_group import run_process
from agentconf.reference.tools.bash import answer
from agentconf.selfcheck.mutant_base import (
    Mutant,
    UnboundedFor,
    failed,
    is_call,
    output_only,
    succeeded,
)


def _argv(name: str, arguments: Any) -> list[str] | None:
    """A well-formed exec call's argv, else None (the reference answers the rest)."""
    if not is_call(name, arguments, "exec") or set(arguments) - {"argv", "timeout_ms"}:
        return None
    argv = arguments.get("argv")
    timeout_ms = arguments.get("timeout_ms")
    if not isinstance(argv, list) or not argv or not all(isinstance(a, str) for a in argv):
        return None
    if timeout_ms is not None and (not isinstance(timeout_ms, int) or timeout_ms < 1):
        return None
    return argv


class ArgvSplitOnSpaces(Mutant):
    """Joins argv into one line and splits it on whitespace again (`" ".join(argv).split()`):
    `a b` becomes two arguments and an empty one disappears; no shell, so nothing else runs."""

    KILLS = ("EXEC-01",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        argv = _argv(name, arguments)
        if argv is not None:
            arguments = {**arguments, "argv": " ".join(argv).split() or argv}
        return await super().call_tool(name, arguments)


class ArgvThroughAShell(Mutant):
    """Quotes each argument in double quotes and hands the line to `bash -c`: spaces survive,
    but `$(...)`, backticks and `$HOME` are still expanded inside the quotes."""

    KILLS = ("EXEC-02",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        argv = _argv(name, arguments)
        if argv is None:
            return await super().call_tool(name, arguments)
        line = " ".join('"' + a.replace("\\", "\\\\").replace('"', '\\"') + '"' for a in argv)
        return await super().call_tool("bash", {"command": line, **_timeout(arguments)})


class ExecStderrDroppedOnSuccess(Mutant):
    """Shows stdout alone when the program succeeds: its warnings on stderr are lost."""

    KILLS = ("EXEC-03",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer_ = await super().call_tool(name, arguments)
        data = answer_.get("data")
        if name == "exec" and answer_.get("success") and isinstance(data, str):
            return {**answer_, "data": data.split("--- stderr ---")[0] or "(no output)"}
        return answer_


class ExecNonzeroExitIsSuccess(Mutant):
    """Reports a program that exited non-zero as a success (`subprocess.run` without `check`)."""

    KILLS = ("EXEC-04",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer_ = await super().call_tool(name, arguments)
        if name == "exec" and answer_.get("error") == "NONZERO_EXIT":
            return succeeded(output_only(answer_["data"]))
        return answer_


class ExecTimeoutKillsOnlyTheProgram(Mutant):
    """On timeout, kills the program's pid only, started in the caller's own process group:
    whatever it started lives on."""

    KILLS = ("EXEC-05",)
    ADAPTER = "cmd"  # what it leaves running dies with the served process's group

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        argv = _argv(name, arguments)
        if argv is None or arguments.get("timeout_ms") is None:
            return await super().call_tool(name, arguments)
        process = await asyncio.create_subprocess_exec(
            *argv, cwd=self.root, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
        try:
            await asyncio.wait_for(process.wait(), arguments["timeout_ms"] / 1000)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
            return failed("TIMEOUT", f"Timed out after {arguments['timeout_ms']} ms.")
        return succeeded("(output not kept)", exit_code=process.returncode)


class ExecCwdNotRoot(Mutant):
    """Runs programs in the parent of the root (the agent's own cwd, not the workspace)."""

    KILLS = ("EXEC-06",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        argv = _argv(name, arguments)
        if argv is None:
            return await super().call_tool(name, arguments)
        timeout_ms = arguments.get("timeout_ms") or self.limits.shell_timeout_ms
        limit = self.limits.max_output_chars
        with contextlib.suppress(FileNotFoundError):
            run = await run_process(argv, self.root.parent, timeout_ms / 1000, limit)
            return answer(run, timeout_ms, limit).to_wire()
        return await super().call_tool(name, arguments)


class AllowListIgnored(Mutant):
    """Takes an allow-list and never consults it: every program runs."""

    KILLS = ("EXEC-07",)

    def __init__(self, workspace: Any) -> None:
        super().__init__(workspace)
        self.reference = create(workspace, limits=self.REFERENCE_LIMITS, allowed_programs=None)


class MissingProgramIsExecutionError(Mutant):
    """Lets the spawn's FileNotFoundError escape the handler: the dispatcher's last guard answers
    EXECUTION_ERROR, a missing program indistinguishable from a broken tool."""

    KILLS = ("EXEC-08",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer_ = await super().call_tool(name, arguments)
        if name == "exec" and answer_.get("error") == "NOT_FOUND":
            return failed("EXECUTION_ERROR", "exec failed: [Errno 2] No such file or directory")
        return answer_


class ExecOutputUnbounded(UnboundedFor):
    """Bounds every tool's output except exec's: a program's flood comes back whole."""

    KILLS = ("EXEC-09",)
    UNBOUNDED_TOOL = "exec"


def _timeout(arguments: dict[str, Any]) -> dict[str, Any]:
    return {"timeout_ms": arguments["timeout_ms"]} if arguments.get("timeout_ms") else {}
