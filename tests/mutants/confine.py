"""CONFINE mutants: paths that leave the root by spelling."""

import glob
import os
from pathlib import Path
from typing import Any

from ._base import Mutant, failed, succeeded


class PrefixContainment(Mutant):
    """Containment by string prefix: `realpath(target).startswith(root)`.

    `/work/root_evil/x` starts with `/work/root`, so the sibling folder counts as inside.
    Known from: CVE-2025-53110 in @modelcontextprotocol/server-filesystem (fixed in 2025.7.1).
    """

    KILLS = ("CONFINE-04",)
    KNOWN_FROM = "CVE-2025-53110, @modelcontextprotocol/server-filesystem < 2025.7.1"

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "write_file" and answer.get("error") == "OUTSIDE_ROOT":
            target = Path(os.path.realpath(self.lexical(arguments["path"])))
            if str(target).startswith(str(self.root)):
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(arguments["content"])
                return succeeded(f"Wrote {arguments['path']}")
        return answer


class TildeExpanded(Mutant):
    """Expands `~` in paths (`os.path.expanduser`), so `~/.ssh/authorized_keys` is the user's own.

    Run as a `cmd:` program so `~` is the sandbox's fake home, never the real one.
    """

    KILLS = ("CONFINE-03",)
    ADAPTER = "cmd"

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name == "write_file" and str(arguments.get("path", "")).startswith("~"):
            target = Path(os.path.expanduser(arguments["path"]))
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(arguments["content"])
            return succeeded(f"Wrote {arguments['path']}")
        return await super().call_tool(name, arguments)


class DotDotNameRejected(Mutant):
    """Rejects every path whose relative form starts with the two characters `..`.

    `relative.startswith('..')` (dskcode's confine) also rejects a child named `..cache`.
    """

    KILLS = ("CONFINE-09",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = self.path_of(arguments)
        if isinstance(path, str) and os.path.relpath(self.lexical(path), self.root).startswith(
            ".."
        ):
            return failed("OUTSIDE_ROOT", f"{path} is outside the workspace.")
        return await super().call_tool(name, arguments)


class MentionNotStripped(Mutant):
    """Takes a leading `@` literally, so `@src/a.txt` names a file that does not exist."""

    KILLS = ("CONFINE-06",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = self.path_of(arguments)
        if isinstance(path, str) and path.startswith("@"):
            arguments = {**arguments, "path": "./" + path}
        return await super().call_tool(name, arguments)


class NulByteRaises(Mutant):
    """Lets `open()`'s `ValueError: embedded null byte` escape instead of answering an envelope."""

    KILLS = ("CONFINE-07", "RESULT-04")

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = self.path_of(arguments)
        if isinstance(path, str) and "\x00" in path:
            open(self.lexical(path))  # noqa: SIM115 - raising is the defect
        return await super().call_tool(name, arguments)


class RootRejected(Mutant):
    """Treats the root itself as outside: dskcode's `rel !== ""` test without its exception
    for the root."""

    KILLS = ("CONFINE-15",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name == "list_files":
            path = arguments.get("path", "") if isinstance(arguments, dict) else ""
            if (
                isinstance(path, str)
                and os.path.relpath(self.lexical(path or "."), self.root) == "."
            ):
                return failed("OUTSIDE_ROOT", "The path is not within the allowed scope.")
        return await super().call_tool(name, arguments)


class ListingUnconfined(Mutant):
    """Confines reads of files but lists any folder it is given."""

    KILLS = ("CONFINE-13",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "list_files" and answer.get("error") == "OUTSIDE_ROOT":
            folder = Path(os.path.realpath(self.lexical(arguments["path"])))
            names = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
            return succeeded("\n".join(names) or "(empty)")
        return answer


class EditUnconfined(Mutant):
    """Confines write_file but lets edit_file reach any path (one tool forgot the resolver)."""

    KILLS = ("CONFINE-12",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "edit_file" and answer.get("error") == "OUTSIDE_ROOT":
            target = self.lexical(arguments["path"])
            text = target.read_text()
            if arguments["old_text"] in text:
                target.write_text(text.replace(arguments["old_text"], arguments["new_text"], 1))
                return succeeded(f"Edited {arguments['path']}")
        return answer


class RelativePathsUnconfined(Mutant):
    """Confines absolute paths only; relative ones are joined to the root and used as they are, so
    `..` climbs out (the classic traversal)."""

    KILLS = ("CONFINE-01", "CONFINE-05", "CONFINE-11", "CONFINE-14")

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        path = self.path_of(arguments)
        if (
            name == "write_file"
            and answer.get("error") == "OUTSIDE_ROOT"
            and not os.path.isabs(path)
        ):
            target = self.root / path
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(arguments["content"])
            except OSError:  # `..` itself is a folder: the careless join fails there, politely
                return answer
            return succeeded(f"Wrote {path}")
        return answer


class JoinDiscardsRoot(Mutant):
    """Rejects `..` components, then `os.path.join(root, path)`: an absolute path discards the
    root, and `/etc/passwd` is written as given."""

    KILLS = ("CONFINE-02",)
    KNOWN_FROM = "os.path.join(base, user_path) returns user_path when it is absolute"

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        path = self.path_of(arguments)
        if (
            name == "write_file"
            and answer.get("error") == "OUTSIDE_ROOT"
            and ".." not in str(path).split("/")
        ):
            target = Path(os.path.join(self.root, path))
            if not target.is_symlink() and os.path.isabs(path):
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(arguments["content"])
                return succeeded(f"Wrote {path}")
        return answer


class LeadingDotDotOnly(Mutant):
    """Rejects a path that starts with `..` and nothing else: `a/../../escape` gets through."""

    KILLS = ("CONFINE-05",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        path = self.path_of(arguments)
        if (
            name == "write_file"
            and answer.get("error") == "OUTSIDE_ROOT"
            and isinstance(path, str)
            and not path.startswith("..")
            and not os.path.isabs(path)
        ):
            target = self.lexical(path)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(arguments["content"])
            return succeeded(f"Wrote {path}")
        return answer


class AbsolutePathsRejected(Mutant):
    """Refuses every absolute path, even one inside the root."""

    KILLS = ("CONFINE-10",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = self.path_of(arguments)
        if isinstance(path, str) and os.path.isabs(path):
            return failed("OUTSIDE_ROOT", "Absolute paths are not allowed.")
        return await super().call_tool(name, arguments)


class MissingTailNotNormalised(Mutant):
    """Confines the existing prefix of a new path, then creates the rest as spelt:
    `new/x/../../../e` has an existing prefix inside, and its `..` climb out once the folders exist.
    """

    KILLS = ("CONFINE-11",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        path = self.path_of(arguments)
        if name == "write_file" and answer.get("error") == "OUTSIDE_ROOT" and isinstance(path, str):
            parts = Path(path).parts
            if (
                parts
                and not os.path.isabs(path)
                and parts[0] != ".."
                and not (self.root / parts[0]).exists()
            ):
                spelt = self.root.joinpath(*parts)
                os.makedirs(os.path.dirname(spelt), exist_ok=True)
                with open(spelt, "w") as stream:
                    stream.write(arguments["content"])
                return succeeded(f"Wrote {path}")
        return answer


class AbsolutePathsInMessages(Mutant):
    """Names the real absolute path of the target in failure messages, revealing where the
    workspace sits and where links really point."""

    KILLS = ("RESULT-08",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        path = self.path_of(arguments)
        if not answer.get("success") and isinstance(path, str) and "\x00" not in path:
            real = os.path.realpath(self.lexical(path))
            return {**answer, "data": f"{answer['data']} (resolved to {real})"}
        return answer


class IncludeGlobsOutside(Mutant):
    """grep's include is globbed from the root as given, unchecked: `../outside/*` searches the
    files beside the root, and their lines come back."""

    KILLS = ("CONFINE-13",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        include = arguments.get("include") if isinstance(arguments, dict) else None
        if name != "grep" or not isinstance(include, str) or (
                ".." not in include and not os.path.isabs(include)):
            return await super().call_tool(name, arguments)
        lines = []
        for found in sorted(glob.glob(os.path.join(self.root, include), recursive=True)):
            if os.path.isfile(found):
                with open(found, encoding="utf-8", errors="replace") as handle:
                    lines += [f"{found}:{number}:{line.rstrip()}" for number, line in
                              enumerate(handle, 1) if arguments.get("pattern", "") in line]
        return succeeded("\n".join(lines) or "No matches.")
