"""SHELL mutants: process handling, bounds and result reporting of bash, and a claim of a
sandbox that does not hold."""

import asyncio
import contextlib
import os
import signal
from typing import Any

from agentconf.reference.tools.bash import MAX_TIMEOUT_MS, NO_OUTPUT, Run, answer, run_command
from agentconf.selfcheck.mutant_base import (
    Mutant,
    UnboundedFor,
    failed,
    is_bash_call,
    output_only,
    spawn_shell,
    succeeded,
)


class TimeoutKillsOnlyTheShell(Mutant):
    """On timeout, kills the shell's pid only: grandchildren (`sleep 60 &`, a dev server) live on.

    Known from: dskcode's first bash tool, before the two-stage process-group kill.
    """

    KILLS = ("SHELL-04",)
    ADAPTER = "cmd"

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if not is_bash_call(name, arguments) or arguments.get("timeout_ms") is None:
            return await super().call_tool(name, arguments)
        process = await spawn_shell(arguments["command"], self.root, own_group=False)
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
        if not is_bash_call(name, arguments) or arguments.get("timeout_ms") is None:
            return await super().call_tool(name, arguments)
        process = await spawn_shell(arguments["command"], self.root, own_group=True)
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
            return succeeded(output_only(answer["data"]))
        return answer


class StderrDropped(Mutant):
    """Captures stdout only; stderr goes nowhere."""

    KILLS = ("SHELL-02", "SHELL-03")

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if is_bash_call(name, arguments):
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
        if is_bash_call(name, arguments):
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
        if not is_bash_call(name, arguments):
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


def _bash_run(mutant: Mutant, arguments: Any) -> tuple[int, int] | None:
    """(timeout in ms, output limit) for a well-formed bash call, else None."""
    if not isinstance(arguments, dict) or not isinstance(arguments.get("command"), str):
        return None
    if set(arguments) - {"command", "timeout_ms"} or not arguments["command"]:
        return None
    timeout_ms = arguments.get("timeout_ms") or mutant.limits.shell_timeout_ms
    if not isinstance(timeout_ms, int) or isinstance(timeout_ms, bool):
        return None
    return timeout_ms, mutant.limits.max_output_chars


async def _run(mutant: Mutant, arguments: dict[str, Any], capacity: int) -> Run:
    timeout_ms = arguments.get("timeout_ms") or mutant.limits.shell_timeout_ms
    return await run_command(arguments["command"], mutant.root, timeout_ms / 1000, capacity)


class SignalDeathIsSuccess(Mutant):
    """Fails only on `returncode > 0`: a command killed by a signal (a negative returncode in
    Python, a null code in Node) is answered as a success."""

    KILLS = ("SHELL-11",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        settings = _bash_run(self, arguments) if name == "bash" else None
        if settings is None:
            return await super().call_tool(name, arguments)
        timeout_ms, limit = settings
        run = await _run(self, arguments, limit)
        if run.returncode is not None and run.returncode < 0:
            output = run.stdout.render() + run.stderr.render()
            return succeeded(output or "(no output)", exit_code=0)
        return answer(run, timeout_ms, limit).to_wire()


class SignalDeathEchoesOnlyTheCommand(Mutant):
    """A command killed by a signal fails as Node's exec says it (mcp-server-commands 0.5.0):
    "Command failed: <command>" and its output, no signal and no exit status; only the echo of
    the command (`kill -KILL $$`) spells the signal's name."""

    KILLS = ("SHELL-11",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        settings = _bash_run(self, arguments) if name == "bash" else None
        if settings is None:
            return await super().call_tool(name, arguments)
        timeout_ms, limit = settings
        run = await _run(self, arguments, limit)
        if run.returncode is not None and run.returncode < 0:
            output = run.stdout.render() + run.stderr.render()
            return failed("NONZERO_EXIT", f"Command failed: {arguments['command']}\n{output}")
        return answer(run, timeout_ms, limit).to_wire()


class BothStreamsFullBudget(Mutant):
    """Bounds stdout and stderr each to the whole output budget and shows both: two floods make an
    answer twice the limit."""

    KILLS = ("SHELL-12",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        settings = _bash_run(self, arguments) if name == "bash" else None
        if settings is None:
            return await super().call_tool(name, arguments)
        timeout_ms, limit = settings
        run = await _run(self, arguments, limit)
        if run.timed_out or not (run.stdout.total_chars > limit and run.stderr.total_chars > limit):
            return answer(run, timeout_ms, limit).to_wire()
        data = f"{run.stdout.render()}\n--- stderr ---\n{run.stderr.render()}"
        if run.returncode == 0:
            return succeeded(data, exit_code=0)
        return failed(
            "NONZERO_EXIT", f"Exit code {run.returncode}.\n{data}", exit_code=run.returncode
        )


class ShellClaimsSandbox(Mutant):
    """Describes its shell as sandboxed ("confined to the workspace root") and runs commands
    unconfined, as the reference's bash does: the claim is only words."""

    KILLS = ("SHELL-13",)

    def list_tools(self) -> list[dict[str, Any]]:
        return [{**tool, "description": "Run a command in a sandbox, confined to the workspace "
                                        "root: it cannot read or write anything outside."}
                if tool["name"] == "bash" else tool for tool in super().list_tools()]


class ShellOutputUnbounded(UnboundedFor):
    """Bounds every tool's output except bash's: a command's flood comes back whole."""

    KILLS = ("SHELL-08",)
    UNBOUNDED_TOOL = "bash"


class NoDefaultTimeout(Mutant):
    """Honours timeout_ms but has no default of its own: a command given none runs as long as it
    likes (`timeout=arguments.get("timeout")` handed down as None), and the call with it."""

    KILLS = ("SHELL-14",)
    ADAPTER = "cmd"  # the command it leaves running dies with the served process's group

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if is_bash_call(name, arguments) and arguments.get("timeout_ms") is None:
            arguments = {**arguments, "timeout_ms": MAX_TIMEOUT_MS}
        return await super().call_tool(name, arguments)
