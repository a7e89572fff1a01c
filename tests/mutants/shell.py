"""SHELL mutants: process handling and result reporting of bash."""

import asyncio
import contextlib
import os
import signal
from pathlib import Path
from typing import Any

from agentconf.reference.tools.bash import NO_OUTPUT

from ._base import Mutant, failed, succeeded


def _is_bash(name: str, arguments: Any) -> bool:
    return (
        name == "bash" and isinstance(arguments, dict) and isinstance(arguments.get("command"), str)
    )


async def _spawn(command: str, root: Path, *, own_group: bool) -> asyncio.subprocess.Process:
    """A naive shell with its output discarded; the mutants differ only in how they stop it."""
    return await asyncio.create_subprocess_exec(
        "/bin/bash",
        "-c",
        command,
        cwd=root,
        start_new_session=own_group,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )


class TimeoutKillsOnlyTheShell(Mutant):
    """On timeout, kills the shell's pid only: grandchildren (`sleep 60 &`, a dev server) live on.

    Known from: dskcode's first bash tool, before the two-stage process-group kill.
    """

    KILLS = ("SHELL-04",)
    ADAPTER = "cmd"

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if not _is_bash(name, arguments) or arguments.get("timeout_ms") is None:
            return await super().call_tool(name, arguments)
        process = await _spawn(arguments["command"], self.root, own_group=False)
        try:
            await asyncio.wait_for(process.wait(), arguments["timeout_ms"] / 1000)
        except TimeoutError:
            process.kill()
            await process.wait()
            return failed("TIMEOUT", f"Timed out after {arguments['timeout_ms']} ms.")
        return await super().call_tool(name, arguments)


class SigtermOnly(Mutant):
    """On timeout, sends SIGTERM to the group and answers at once: a command that ignores SIGTERM
    keeps running."""

    KILLS = ("SHELL-07",)
    ADAPTER = "cmd"

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if not _is_bash(name, arguments) or arguments.get("timeout_ms") is None:
            return await super().call_tool(name, arguments)
        process = await _spawn(arguments["command"], self.root, own_group=True)
        try:
            await asyncio.wait_for(process.wait(), arguments["timeout_ms"] / 1000)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            return failed("TIMEOUT", f"Timed out after {arguments['timeout_ms']} ms.")
        return await super().call_tool(name, arguments)


class NonzeroExitIsSuccess(Mutant):
    """Reports a command that exited non-zero as a success (`subprocess.run` without `check`)."""

    KILLS = ("SHELL-02",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if answer.get("error") == "NONZERO_EXIT":
            return succeeded(answer["data"])
        return answer


class StderrDropped(Mutant):
    """Captures stdout only; stderr goes nowhere."""

    KILLS = ("SHELL-02", "SHELL-03")

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if _is_bash(name, arguments):
            arguments = {**arguments, "command": "{ " + arguments["command"] + "\n} 2>/dev/null"}
        return await super().call_tool(name, arguments)


class EmptyOutputSilent(Mutant):
    """Returns an empty string for a command that printed nothing."""

    KILLS = ("SHELL-05",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "bash" and answer.get("success") and answer.get("data", "").strip() == NO_OUTPUT:
            return {**answer, "data": ""}
        return answer


class CwdNotRoot(Mutant):
    """Runs commands in the parent of the root (the agent's own cwd, not the workspace)."""

    KILLS = ("SHELL-06",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if _is_bash(name, arguments):
            arguments = {**arguments, "command": "cd .. && " + arguments["command"]}
        return await super().call_tool(name, arguments)


class StdoutDropped(Mutant):
    """Answers a successful command with "Command succeeded" and none of its output."""

    KILLS = ("SHELL-01",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "bash" and answer.get("success"):
            return {**answer, "data": "Command succeeded."}
        return answer


class WaitsForThePipesToClose(Mutant):
    """Reads the command's output to end of file before answering, so a background child that
    inherited stdout (`server & echo started`) holds the call until it exits or the timeout fires
    (asyncio's `communicate()` on Python 3.11 behaves this way)."""

    KILLS = ("SHELL-10",)
    ADAPTER = "cmd"

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if not _is_bash(name, arguments):
            return await super().call_tool(name, arguments)
        timeout_ms = arguments.get("timeout_ms") or self.limits.shell_timeout_ms
        process = await asyncio.create_subprocess_exec(
            "/bin/bash",
            "-c",
            arguments["command"],
            cwd=self.root,
            start_new_session=True,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        try:
            output, _ = await asyncio.wait_for(process.communicate(), timeout_ms / 1000)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            return failed("TIMEOUT", f"Timed out after {timeout_ms} ms.")
        return succeeded(output.decode("utf-8", "replace") or NO_OUTPUT)
