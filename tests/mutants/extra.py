"""Mutants for the clauses added when the suites were measured against the reference's lines.

One per new MUST clause (READ-12, EDIT-18, EDIT-19, SYMLINK-11, SHELL-11, SHELL-12), and two that
show the checks of deferred tools (REGISTRY-03, VALIDATE-10 on what tool_search reveals) can fail.
"""

import os
from pathlib import Path
from typing import Any

from agentconf.reference.tools.bash import Run, answer, run_command

from ._base import Mutant, failed, succeeded


def _is_call(name: str, arguments: Any, tool: str) -> bool:
    return name == tool and isinstance(arguments, dict)


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


class ReversedWindowSwapped(Mutant):
    """Swaps start_line and end_line when they come the wrong way round, and answers the lines."""

    KILLS = ("READ-12",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if _is_call(name, arguments, "read_file"):
            start, end = arguments.get("start_line"), arguments.get("end_line")
            if isinstance(start, int) and isinstance(end, int) and end < start:
                arguments = {**arguments, "start_line": end, "end_line": start}
        return await super().call_tool(name, arguments)


class BinaryEditedWithReplacement(Mutant):
    """Decodes a file that is not UTF-8 with errors="replace", edits it and writes it back: every
    byte the decoder did not understand becomes U+FFFD on disk."""

    KILLS = ("EDIT-18",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if _is_call(name, arguments, "edit_file") and isinstance(arguments.get("path"), str):
            target = self.lexical(arguments["path"])
            old, new = arguments.get("old_text"), arguments.get("new_text")
            if target.is_file() and isinstance(old, str) and isinstance(new, str):
                data = target.read_bytes()
                text = data.decode("utf-8", errors="replace")
                if not _utf8(data) and text.count(old) == 1:
                    target.write_bytes(text.replace(old, new).encode("utf-8"))
                    return succeeded(f"Edited {arguments['path']}.")
        return await super().call_tool(name, arguments)


class OverwriteReadsOldAsText(Mutant):
    """Reads the old file through read_file's guards to diff it, so overwriting a file too large to
    read, or one that is not UTF-8, fails."""

    KILLS = ("EDIT-19",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if _is_call(name, arguments, "write_file") and isinstance(arguments.get("path"), str):
            target = self.lexical(arguments["path"])
            if target.is_file():
                if target.stat().st_size > self.limits.max_read_bytes:
                    return failed("FILE_TOO_LARGE", "The file is too large to read.")
                if not _utf8(target.read_bytes()):
                    return failed("BINARY_FILE", "The file is binary.")
        return await super().call_tool(name, arguments)


class DanglingWriteLeavesFolders(Mutant):
    """Creates the missing folders on the way to a write target (`mkdir -p`) before it looks at
    links, then refuses the write through a dangling link: the failure leaves new folders."""

    KILLS = ("SYMLINK-11",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if _is_call(name, arguments, "write_file") and isinstance(arguments.get("path"), str):
            # realpath follows a dangling link to where it points, missing tail and all.
            landing = Path(os.path.realpath(self.lexical(arguments["path"])))
            if self.inside_by_components(landing):
                landing.parent.mkdir(parents=True, exist_ok=True)
        return await super().call_tool(name, arguments)


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


class RevealedToolNotCallable(Mutant):
    """Lists a deferred tool once tool_search has revealed it, but its dispatch still answers
    TOOL_NOT_FOUND: the advertised set and the callable set went through different filters."""

    KILLS = ("REGISTRY-03",)

    def __init__(self, workspace: Any) -> None:
        super().__init__(workspace)
        self._first_names = {spec["name"] for spec in self.list_tools()}

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name not in self._first_names and name in {t["name"] for t in self.list_tools()}:
            return failed("TOOL_NOT_FOUND", f"There is no tool named {name}.")
        return await super().call_tool(name, arguments)


class DeferredToolUnvalidated(Mutant):
    """Validates the arguments of the tools it lists from the start, not those of a tool revealed
    later: a revealed tool runs on whatever it is given and crashes."""

    KILLS = ("VALIDATE-10",)

    def __init__(self, workspace: Any) -> None:
        super().__init__(workspace)
        self._first_names = {spec["name"] for spec in super().list_tools()}

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        listed = {spec["name"] for spec in self.list_tools()}
        if name in listed - self._first_names:
            path = self.path_of(arguments)
            if not isinstance(path, str) or set(arguments) != {"path"}:
                return failed("EXECUTION_ERROR", f"{name} crashed: 'path' is not a string.")
        return await super().call_tool(name, arguments)
