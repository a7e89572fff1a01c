"""CONFINE mutants: paths that leave the root by spelling, reads left unconfined, path tools
beyond the six confined carelessly, and the system's temporary folder taken for inside."""

import glob
import os
import tempfile
from pathlib import Path
from typing import Any

from agentconf.selfcheck.mutant_base import Mutant, failed, succeeded

_SYSTEM_TMP = ("/tmp/", "/var/tmp/")


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


class DotDotComponentRefused(Mutant):
    """Refuses every path with a `..` component, even one that normalises back inside
    (`sub/../a.txt`): one defect, CONFINE-05's, however the path is spelt."""

    KILLS = ("CONFINE-05",)
    KNOWN_FROM = "deepagents 0.7.32 and mcp-text-editor 1.2.2 answer 'Path traversal not allowed'"

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = self.path_of(arguments)
        if isinstance(path, str) and ".." in Path(path).parts:
            return failed("OUTSIDE_ROOT", f"Path traversal not allowed: {path}")
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


class OmittedPathRefused(Mutant):
    """Lists `.` but refuses a listing whose path is left out, as if the path were required
    (its schema still says optional)."""

    KILLS = ("CONFINE-15",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name == "list_files" and isinstance(arguments, dict) and "path" not in arguments:
            return failed("INVALID_ARGS", "path: Field required")
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


class ReadsUnconfined(Mutant):
    """Confines writes only; reads go wherever the path or its links lead (dskcode confines
    `writeRoots` only)."""

    KILLS = ("CONFINE-08", "SYMLINK-09")
    KNOWN_FROM = "dskcode: confine() guards write tools only"

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "read_file" and answer.get("error") == "OUTSIDE_ROOT":
            text = Path(os.path.realpath(self.lexical(arguments["path"]))).read_text()
            lines = text.splitlines() or [""]
            return succeeded("\n".join(f"{n:>6}\t{line}" for n, line in enumerate(lines, 1)))
        return answer


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


class OwnTempDirAllowed(Mutant):
    """Confined but for its own temporary folder: a path under what TMPDIR names
    (tempfile.gettempdir()) is read as given. Where the kit points TMPDIR into the sandbox, the
    real /tmp stays refused, and only a canary in that folder shows the allow-list."""

    KILLS = ("CONFINE-17",)
    KNOWN_FROM = "a Python MCP file server that allow-lists tempfile.gettempdir() beside its root"

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = self.path_of(arguments)
        target = os.path.normpath(path) if path else ""
        own = os.path.realpath(tempfile.gettempdir())
        if name == "read_file" and target.startswith(own + os.sep) and os.path.isfile(target):
            return succeeded(Path(target).read_text(errors="replace"))
        return await super().call_tool(name, arguments)


class DeleteIntoTrash(Mutant):
    """delete_file moves the file into a trash folder in HOME (the freedesktop.org layout,
    `$HOME/.local/share/Trash/files`) instead of removing it: every delete, of any path inside
    the root, writes outside it. Its HOME is the sandbox's fake one beside the root.

    Known from: a real file server whose delete sends files to the user's trash (send2trash).
    It shows at a call with a path inside the root, which every path-tool check makes first (is
    the call accepted at all?): CONFINE-16's, the path tools' clause, and not CONFINE-17's or
    SYMLINK-12's, whose checks stop there unjudged."""

    KILLS = ("CONFINE-16",)
    KNOWN_FROM = "a Python MCP file server's delete through send2trash"

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = self.path_of(arguments)
        home = self.root.parent / "home"
        if name != "delete_file" or path is None or not home.is_dir():
            return await super().call_tool(name, arguments)
        target = self.lexical(path)
        real = Path(os.path.realpath(target))
        if target.is_symlink() or not self.inside_by_components(real) or not real.is_file():
            return await super().call_tool(name, arguments)  # its defect is the trash alone
        trash = home / ".local" / "share" / "Trash" / "files"
        trash.mkdir(parents=True, exist_ok=True)
        os.replace(target, trash / target.name)
        return succeeded(f"Moved {path} to the trash.")


class AbsolutePathsLookedUpInside(Mutant):
    """Strips an absolute path's leading `/` and looks it up inside the root: an absolute path
    outside is never refused, it lands in root/<that path>; the root's own absolute path is a
    folder that does not exist."""

    KILLS = ("CONFINE-02", "CONFINE-10")
    KNOWN_FROM = "gia-file-tools 0.1.2's _safe_path strips the leading slash"

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = self.path_of(arguments)
        if path is not None and path.startswith("/"):
            arguments = {**arguments, "path": path.lstrip("/")}
        return await super().call_tool(name, arguments)
