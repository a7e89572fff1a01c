"""Tiny in-test implementations (fauxmplementations, as Bowtie calls them) for the harness's tests.

`create` is a small correct tool system: read_file and write_file confined to the root. The other
factories are each wrong in one way the harness must notice.
"""

import asyncio
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from agentconf.contract import Workspace

SCHEMA = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}


def _tool(name: str, kind: str) -> dict[str, Any]:
    return {"name": name, "description": f"toy {name}", "input_schema": SCHEMA, "kind": kind}


class Toy:
    confine = True

    def __init__(self, workspace: Workspace) -> None:
        self.root = Path(workspace.root)
        self.in_flight = 0
        self.most_in_flight = 0

    def list_tools(self) -> list[dict[str, Any]]:
        return [_tool("read_file", "read"), _tool("write_file", "edit")]

    def _resolve(self, path: str) -> Path | None:
        target = Path(os.path.realpath(self.root / path))
        inside = target == self.root or self.root in target.parents
        return target if inside or not self.confine else None

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            await asyncio.sleep(0.05)  # long enough for concurrent calls to overlap
            return self._answer(name, arguments)
        finally:
            self.in_flight -= 1

    def _answer(self, name: str, arguments: Any) -> dict[str, Any]:
        if name not in ("read_file", "write_file"):
            return {"success": False, "data": f"no tool {name}", "error": "TOOL_NOT_FOUND"}
        target = self._resolve(str(arguments.get("path", "")))
        if target is None:
            return {"success": False, "data": "path is outside the root", "error": "OUTSIDE_ROOT"}
        if name == "write_file":
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(str(arguments.get("content", "")))
            return {"success": True, "data": f"wrote {target}"}
        try:
            return {"success": True, "data": target.read_text()}
        except FileNotFoundError:
            return {"success": False, "data": f"{target} does not exist", "error": "NOT_FOUND"}


class Leaky(Toy):
    """Checks nothing: `../x` writes beside the root, link_out_file reads the secret."""

    confine = False


class Raising(Toy):
    def _answer(self, name: str, arguments: Any) -> dict[str, Any]:
        raise RuntimeError("boom")


class Surrogate(Toy):
    """Answers every call with a lone surrogate in data (an implementation may: JSON allows it)."""

    def _answer(self, name: str, arguments: Any) -> dict[str, Any]:
        return {"success": False, "data": "bad \udc80 byte", "error": "NOT_FOUND"}


class WithOwnTools(Toy):
    """Advertises a tool of its own beside the contract's: running it (a call with arguments its
    schema accepts) records the call in the file named by $TOY_CALLED (a test's own temp
    folder), which the kit must never do."""

    def list_tools(self) -> list[dict[str, Any]]:
        return [*super().list_tools(), _tool("kill_process", "other")]

    def _answer(self, name: str, arguments: Any) -> dict[str, Any]:
        runs = isinstance(arguments, dict) and isinstance(arguments.get("path"), str)
        trapped = name in os.environ.get("TOY_TRAPPED", "").split(",")  # any call at all
        if (runs and name == "kill_process") or trapped:
            with open(os.environ["TOY_CALLED"], "a") as log:
                log.write(f"{name} {arguments!r}\n")
        return super()._answer(name, arguments)


class Sprawling(Toy):
    """Each write also leaves a daemon behind (setsid, out of every process group), a file
    named relative to the working folder and a temporary folder it never removes, as careless
    in-process tools do (openhands-aci's editor makes one per instance)."""

    def _answer(self, name: str, arguments: Any) -> dict[str, Any]:
        if name == "write_file":
            tempfile.mkdtemp(prefix="toy-sprawl-")
            subprocess.Popen(["setsid", "sleep", "600"], stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            with open("cwd-probe.txt", "w") as probe:
                probe.write("written relative to the working folder\n")
        return super()._answer(name, arguments)


class ReadOnly(Toy):
    def list_tools(self) -> list[dict[str, Any]]:
        return [_tool("read_file", "read")]


class Sync(Toy):
    """call_tool is a plain function."""

    def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:  # type: ignore[override]
        return self._answer(name, arguments)


class Closing(Toy):
    """Has its own aclose(), as agent frameworks' tool sets do: counted."""

    def __init__(self, workspace: Workspace) -> None:
        super().__init__(workspace)
        self.closed = 0

    async def aclose(self) -> None:
        self.closed += 1


def create(workspace: Workspace) -> Toy:
    return Toy(workspace)


def create_leaky(workspace: Workspace) -> Toy:
    return Leaky(workspace)


def create_raising(workspace: Workspace) -> Toy:
    return Raising(workspace)


def create_surrogate(workspace: Workspace) -> Toy:
    return Surrogate(workspace)


def create_with_own_tools(workspace: Workspace) -> Toy:
    return WithOwnTools(workspace)


def create_sprawling(workspace: Workspace) -> Toy:
    return Sprawling(workspace)


def create_read_only(workspace: Workspace) -> Toy:
    return ReadOnly(workspace)


def create_sync(workspace: Workspace) -> Toy:
    return Sync(workspace)


def create_broken(workspace: Workspace) -> Toy:
    raise OSError("the factory cannot start")


def create_closing(workspace: Workspace) -> Toy:
    return Closing(workspace)
