"""What every mutant of the gallery shares: the reference to delegate to, and small helpers.

A mutant is the reference tool system with one defect grafted on; each lives with the clauses it
fails, in its category's folder (`suites/<category>/mutants.py`). The catalogue that finds them
is `gallery.py`.
"""

import asyncio
import os
from pathlib import Path
from typing import Any, ClassVar

from agentconf.contract import Workspace
from agentconf.reference import config_from_environment, create


class Mutant:
    """The reference, unchanged. A subclass overrides one behaviour and names who catches it."""

    # The reference's own name: a mutant is started in the contract's modes as the reference is
    # (AGENTCONF_READ_ONLY, AGENTCONF_DENY; suites/conftest.py), which create() reads.
    name = "agentconf-reference"

    KILLS: ClassVar[tuple[str, ...]] = ()
    # Set when the defect is known from public code or advisories.
    KNOWN_FROM: ClassVar[str] = ""
    # How the harness reaches it: "python" (in process) or "cmd" (a program over stdio).
    ADAPTER: ClassVar[str] = "python"
    # The per-call timeout its run uses, when a hang is its defect: each hung check costs this
    # once, instead of the default 10 s.
    CALL_TIMEOUT_S: ClassVar[float | None] = None
    # Limits the wrapped reference runs with; a mutant that bounds output itself lifts them.
    REFERENCE_LIMITS: ClassVar[dict[str, int] | None] = None
    # The statuses that count as caught: a defect that hangs may end in `error` as well.
    CAUGHT_AS: ClassVar[tuple[str, ...]] = ("fail",)

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self.root = Path(os.path.realpath(workspace.root))
        self.limits = workspace.limits
        self.reference = create(workspace, limits=self.REFERENCE_LIMITS)
        # The mode this session was started in, as create() read it from the environment.
        self.modes = config_from_environment(os.environ)

    def list_tools(self) -> list[dict[str, Any]]:
        return self.reference.list_tools()

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        return await self.reference.call_tool(name, arguments)

    @staticmethod
    def path_of(arguments: Any) -> str | None:
        """The call's `path` argument when it is a string (what most defects act on), else None."""
        path = arguments.get("path") if isinstance(arguments, dict) else None
        return path if isinstance(path, str) else None

    def lexical(self, path: str) -> Path:
        """The path as a careless tool resolves it: joined and normalised, links not followed."""
        return Path(os.path.normpath(os.path.join(self.root, path.removeprefix("@"))))

    def inside_by_components(self, path: Path) -> bool:
        return path == self.root or self.root in path.parents


def is_call(name: str, arguments: Any, tool: str) -> bool:
    return name == tool and isinstance(arguments, dict)


def is_bash_call(name: str, arguments: Any) -> bool:
    return (
        name == "bash" and isinstance(arguments, dict) and isinstance(arguments.get("command"), str)
    )


async def spawn_shell(command: str, root: Path, *, own_group: bool) -> asyncio.subprocess.Process:
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


def succeeded(data: str, **extra: Any) -> dict[str, Any]:
    return {"success": True, "data": data, **extra}


def output_only(data: str) -> str:
    """What a command tool that never checks the exit status answers: the program's output, the
    reference's own first line about the exit ("Command failed with exit code 3.") gone."""
    return data.split("\n", 1)[1] if "\n" in data else ""


def failed(code: str, data: str, **extra: Any) -> dict[str, Any]:
    return {"success": False, "data": data, "error": code, **extra}


class UnboundedFor(Mutant):
    """The reference unbounded, with every tool's output bounded again except `UNBOUNDED_TOOL`'s."""

    UNBOUNDED_TOOL: ClassVar[str] = ""
    REFERENCE_LIMITS: ClassVar[dict[str, int] | None] = {"max_output_chars": 10**9}

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        data = answer.get("data")
        limit = self.limits.max_output_chars
        if name != self.UNBOUNDED_TOOL and isinstance(data, str) and len(data) > limit:
            half = limit // 2
            cut = f"\n[... {len(data) - 2 * half} cut ...]\n"
            return {**answer, "data": data[:half] + cut + data[-half:]}
        return answer
