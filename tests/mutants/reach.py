"""Mutants for confinement wherever a model can reach: path tools beyond the six, the system's
temporary folder, a shell's claim of a sandbox, and the stdio channel (issue 26)."""

import os
from pathlib import Path
from typing import Any

from ._base import Mutant, failed, succeeded


class MovePrefixConfined(Mutant):
    """move_file confined by a lexical string-prefix check: `normpath(root/path)` must start with
    the root's string, so `../root_evil/moved.txt` is "inside" and `link_out/x` is never resolved.

    Known from: one real server whose read, write and edit were confined and whose move_file moved
    `body.txt` to `../root_evil/moved.txt` (the CVE-2025-53110 check, left in one tool).
    """

    KILLS = ("CONFINE-16",)
    KNOWN_FROM = "CVE-2025-53110's prefix check, kept in one server's move_file"

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name != "move_file" or not isinstance(arguments, dict):
            return await super().call_tool(name, arguments)
        source, destination = arguments.get("source"), arguments.get("destination")
        if not isinstance(source, str) or not isinstance(destination, str):
            return await super().call_tool(name, arguments)
        ends = [self.lexical(source), self.lexical(destination)]
        if not all(str(end).startswith(str(self.root)) for end in ends):
            return failed("OUTSIDE_ROOT", "The path is outside the workspace.")
        if not ends[0].exists() or ends[1].exists():
            return await super().call_tool(name, arguments)
        os.rename(ends[0], ends[1])
        return succeeded(f"Moved {source} to {destination}.")



class MakeDirectoryUnconfined(Mutant):
    """make_directory joins the path to the root and makes it, unchecked: `../outside/new` is
    made beside the root. It removes nothing, so the kit drives it with any hostile path, and
    most hostile paths escape: a property's escape leaves a folder outside for the next example.

    Known from: path tools without confinement beside confined ones (the filesystem server
    2025.3.28's create_directory lets `../root_evil/x` through its prefix check)."""

    KILLS = ("CONFINE-16",)
    KNOWN_FROM = "CVE-2025-53110's prefix check in the filesystem server 2025.3.28"

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = self.path_of(arguments)
        if name != "make_directory" or path is None:
            return await super().call_tool(name, arguments)
        target = self.lexical(path)
        try:
            target.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            return failed("ALREADY_EXISTS" if target.exists() else "IO_ERROR", str(error))
        return succeeded(f"Made {path}.")

_SYSTEM_TMP = ("/tmp/", "/var/tmp/")


class SystemTmpAllowed(Mutant):
    """Confined but for a built-in allow-list: any path under /tmp or /var/tmp is served as given,
    whatever the root (one real server allows HOME, /tmp and /home whatever `--allow` says)."""

    KILLS = ("CONFINE-17",)
    KNOWN_FROM = "a real MCP filesystem server's built-in allow-list (HOME, /tmp, /home)"

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = self.path_of(arguments)
        target = os.path.normpath(path.removeprefix("@")) if path else ""
        if not target.startswith(_SYSTEM_TMP):
            return await super().call_tool(name, arguments)
        if name == "write_file" and isinstance(arguments.get("content"), str):
            Path(target).write_text(arguments["content"])
            return succeeded(f"Wrote {path}.")
        if name == "read_file" and os.path.isfile(target):
            return succeeded(Path(target).read_text(errors="replace"))
        if name == "list_files" and os.path.isdir(target):
            return succeeded("\n".join(sorted(os.listdir(target))))
        return await super().call_tool(name, arguments)


class ReadManyFollowsLinks(Mutant):
    """read_multiple_files checks each path lexically (normalised, inside the root) and then
    opens it, following any link: `link_out/secret.txt` reads the file outside."""

    KILLS = ("SYMLINK-12",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        paths = arguments.get("paths") if isinstance(arguments, dict) else None
        if name != "read_multiple_files" or not isinstance(paths, list) or not all(
                isinstance(p, str) for p in paths):
            return await super().call_tool(name, arguments)
        parts = []
        for path in paths:
            target = self.lexical(path)
            if not self.inside_by_components(target):
                return failed("OUTSIDE_ROOT", f"{path} is outside the workspace.")
            if not target.is_file():
                return await super().call_tool(name, arguments)
            parts.append(f"==> {path} <==\n{target.read_text(errors='replace')}")
        return succeeded("\n".join(parts))


class NoisyStartup(Mutant):
    """Prints a debug line on stdout as it starts ("server starting"), before the first message:
    over stdio that line corrupts the protocol channel."""

    KILLS = ("RESULT-09",)
    ADAPTER = "cmd"

    def __init__(self, workspace: Any) -> None:
        super().__init__(workspace)
        # serve_mutant.py builds the mutant before the protocol takes stdout over: fd 1 is the
        # channel itself here, as in a server that logs with console.log or print.
        print("debug: agentconf mutant starting", flush=True)


class ShellClaimsSandbox(Mutant):
    """Describes its shell as sandboxed ("confined to the workspace root") and runs commands
    unconfined, as the reference's bash does: the claim is only words."""

    KILLS = ("SHELL-13",)

    def list_tools(self) -> list[dict[str, Any]]:
        return [{**tool, "description": "Run a command in a sandbox, confined to the workspace "
                                        "root: it cannot read or write anything outside."}
                if tool["name"] == "bash" else tool for tool in super().list_tools()]
