"""SYMLINK mutants: confinement judged on the spelling of a path instead of its real location."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from agentconf.selfcheck.mutant_base import Mutant, failed, is_call, succeeded


class NoRealpath(Mutant):
    """Confines writes on the normalised spelling only (no realpath), then `open()` follows links.

    Known from: CVE-2025-53109 in @modelcontextprotocol/server-filesystem (symlink bypass).
    """

    KILLS = ("SYMLINK-01", "SYMLINK-02")
    KNOWN_FROM = "CVE-2025-53109, @modelcontextprotocol/server-filesystem < 2025.7.1"

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "write_file" and answer.get("error") == "OUTSIDE_ROOT":
            target = self.lexical(arguments["path"])
            if self.inside_by_components(target) and target.parent.exists():
                with open(target, "w") as stream:
                    stream.write(arguments["content"])
                return succeeded(f"Wrote {arguments['path']}")
        return answer


class GuardHidesLexicalWrites(Mutant):
    """Refuses to overwrite a file the session has not read (NOT_READ), and counts a read as
    done once asked for, even a refused one; past the guard it confines writes on the spelling
    only, and `open()` follows links. Played cold, every write through a link meets the guard;
    a model that reads first writes outside the root.
    """

    KILLS = ("SYMLINK-01", "SYMLINK-02")

    def __init__(self, workspace: Any) -> None:
        super().__init__(workspace)
        self.asked: set[Path] = set()

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = self.path_of(arguments)
        if not isinstance(path, str):
            return await super().call_tool(name, arguments)
        target = self.lexical(path)
        if name == "read_file":
            self.asked.add(target)
        elif name == "write_file" and self.inside_by_components(target) and target.exists():
            if target not in self.asked:
                return failed("NOT_READ", f"read {path} with read_file before overwriting it")
            with open(target, "w") as stream:  # follows a link wherever it points
                stream.write(str(arguments.get("content", "")))
            return succeeded(f"Wrote {path}")
        return await super().call_tool(name, arguments)


class LexicalFallbackForMissing(Mutant):
    """Resolves real paths, but falls back to the spelling when the target does not exist yet.

    `link_out/new/dir/f.txt` cannot be realpath'd, the spelling looks inside, and `makedirs`
    then follows `link_out` and creates the folders outside.
    """

    KILLS = ("SYMLINK-03",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "write_file" and answer.get("error") == "OUTSIDE_ROOT":
            target = self.lexical(arguments["path"])
            if not target.parent.exists() and self.inside_by_components(target):
                os.makedirs(target.parent, exist_ok=True)
                target.write_text(arguments["content"])
                return succeeded(f"Wrote {arguments['path']}")
        return answer


class DanglingLinkWrite(Mutant):
    """Checks where a link *is* rather than where it points, and `open(O_CREAT)` follows a dangling
    link to create its target outside the root."""

    KILLS = ("SYMLINK-04",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "write_file" and answer.get("error") == "OUTSIDE_ROOT":
            target = self.lexical(arguments["path"])
            if target.is_symlink() and not target.exists():
                with open(target, "w") as stream:
                    stream.write(arguments["content"])
                return succeeded(f"Wrote {arguments['path']}")
        return answer


class DanglingLinkWriteClaimed(Mutant):
    """Refuses to follow a dangling link out, yet answers the write a success: the model is told
    its content was saved, and nothing was written (neither through the link nor over it)."""

    KILLS = ("SYMLINK-04",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "write_file" and answer.get("error") == "OUTSIDE_ROOT":
            target = self.lexical(arguments["path"])
            if target.is_symlink() and not target.exists():
                return succeeded(f"Wrote {arguments['path']}")
        return answer


class ReadFollowsLinksOut(Mutant):
    """read_file confines the path as written (joined and normalised), then opens it, following
    whatever links it meets: a link inside the root reads the file it points to outside."""

    KILLS = ("SYMLINK-09",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        path = self.path_of(arguments) if name == "read_file" else None
        if path is not None and answer.get("error") == "OUTSIDE_ROOT":
            spelled = self.lexical(path)
            if self.inside_by_components(spelled) and spelled.is_file():
                lines = spelled.read_text().splitlines() or [""]
                return succeeded("\n".join(f"{n:>6}\t{line}" for n, line in enumerate(lines, 1)))
        return answer


class EditThroughLink(Mutant):
    """edit_file confines the link's own location, then reads and writes through it."""

    KILLS = ("SYMLINK-10",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "edit_file" and answer.get("error") == "OUTSIDE_ROOT":
            target = self.lexical(arguments["path"])
            if target.is_symlink() and target.is_file():
                text = target.read_text()
                if arguments["old_text"] in text:
                    new = text.replace(arguments["old_text"], arguments["new_text"], 1)
                    with open(target, "w") as stream:
                        stream.write(new)
                    return succeeded(f"Edited {arguments['path']}")
        return answer


class ListFollowsLinks(Mutant):
    """A recursive listing that follows folder links (`os.walk(followlinks=True)`)."""

    KILLS = ("SYMLINK-06",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "list_files" and answer.get("success"):
            extra = []
            for link in sorted(p for p in self.root.rglob("*") if p.is_symlink() and p.is_dir()):
                for inner in sorted(link.rglob("*")):
                    extra.append(str(inner.relative_to(self.root)))
            if extra:
                return {**answer, "data": answer["data"] + "\n" + "\n".join(extra)}
        return answer


class GrepFollowsLinks(Mutant):
    """Searches with `rg --follow`, so a folder link out of the root is searched too."""

    KILLS = ("SYMLINK-07",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "grep" and answer.get("success") and isinstance(arguments, dict):
            rg = (
                str(Path(sys.executable).parent / "rg")
                if not shutil.which("rg")
                else shutil.which("rg")
            )
            found = subprocess.run(
                [
                    rg,
                    "--follow",
                    "--line-number",
                    "--no-heading",
                    "--color",
                    "never",
                    "--",
                    arguments["pattern"],
                    ".",
                ],
                cwd=self.root,
                capture_output=True,
                text=True,
                timeout=30,
                check=False,
            )
            if found.stdout:
                return {**answer, "data": found.stdout}
        return answer


class LinkLoopSpins(Mutant):
    """A hand-rolled link resolver with no loop detection: `loop_a -> loop_b -> loop_a` spins
    until the harness kills the program. Run as a `cmd:` program."""

    KILLS = ("SYMLINK-05",)
    ADAPTER = "cmd"
    # A hang is caught as `error` rather than `fail`: the clause is not met either way.
    CAUGHT_AS = ("fail", "error")
    CALL_TIMEOUT_S = 2.0  # the reference answers a loop in milliseconds

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = self.path_of(arguments)
        if isinstance(path, str):
            current = self.lexical(path)
            while current.is_symlink():
                current = current.parent / os.readlink(current)
                # It never answers, which is what is judged; the pause keeps the hang from
                # costing the machine a core while the harness waits out its call timeout.
                time.sleep(0.01)
        return await super().call_tool(name, arguments)


class EveryLinkRejected(Mutant):
    """Refuses every path that passes through a link, even one that stays inside the root."""

    KILLS = ("SYMLINK-08",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = self.path_of(arguments)
        if isinstance(path, str):
            current = self.lexical(path)
            while self.inside_by_components(current) and current != self.root:
                if current.is_symlink():
                    return {"success": False, "error": "OUTSIDE_ROOT", "data": "Links are refused."}
                current = current.parent
        return await super().call_tool(name, arguments)


class DanglingWriteLeavesFolders(Mutant):
    """Creates the missing folders on the way to a write target (`mkdir -p`) before it looks at
    links, then refuses the write through a dangling link: the failure leaves new folders."""

    KILLS = ("SYMLINK-11",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if is_call(name, arguments, "write_file") and isinstance(arguments.get("path"), str):
            # realpath follows a dangling link to where it points, missing tail and all.
            landing = Path(os.path.realpath(self.lexical(arguments["path"])))
            if self.inside_by_components(landing):
                landing.parent.mkdir(parents=True, exist_ok=True)
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
