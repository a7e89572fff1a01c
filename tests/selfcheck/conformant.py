"""Variants of the reference that differ from it the way real implementations do, each in one way.

Not mutants: most depart from nothing the contract states, and the verdict tests
(`test_verdict_precision.py`) show the suites judge them so. Each reproduces one false verdict seen
against a real implementation; the docstring says which. The last few do depart, from a SHOULD or
in a way that must be a failed check rather than a crash of the kit.
"""

import asyncio
import json
import os
import re
from pathlib import Path
from typing import Any, ClassVar

from agentconf.contract import PATH_TOOLS, Workspace
from agentconf.reference.tools import bash
from agentconf.selfcheck.gallery import CancelLeavesAPartialWrite
from agentconf.selfcheck.mutant_base import Mutant, failed


def _path_of(name: str, arguments: Any, *tools: str) -> str | None:
    return Mutant.path_of(arguments) if name in tools else None


class ReadGuardFirst(Mutant):
    """Checks the read-before-write guard before the folder check: a folder, never read, is
    refused NOT_READ (an independent implementation did; EDIT-17 does not order the two)."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = _path_of(name, arguments, "edit_file", "write_file")
        if path is not None and self.lexical(path).is_dir():
            return failed("NOT_READ", f"read {path} with read_file before changing it")
        return await super().call_tool(name, arguments)


class WholeFileBinary(Mutant):
    """Judges a file BINARY_FILE when any of it is not UTF-8, even for a window read of its
    valid first lines (EDIT-19 counted the refusal as a failure)."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)  # the session has read it either way
        path = _path_of(name, arguments, "read_file")
        if path is not None and answer.get("success"):
            target = self.lexical(path)
            try:
                target.read_bytes().decode("utf-8")
            except UnicodeDecodeError:
                return failed("BINARY_FILE", f"{path} is not UTF-8 text; read it with bash")
        return answer


class LiteralGrep(Mutant):
    """Treats grep patterns as literal text, as several real grep tools do (SYMLINK-07's cases
    used the regex `.`, which a literal grep finds nowhere)."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name == "grep" and isinstance(arguments, dict) and isinstance(
                arguments.get("pattern"), str):
            arguments = {**arguments, "pattern": re.escape(arguments["pattern"])}
        return await super().call_tool(name, arguments)


class DefaultLineWindow(Mutant):
    """Shows at most 1000 lines when no window is asked for (Claude Code's Read shows 2000);
    CONCUR-04 called such a read "a partial file"."""

    LINES = 1000

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if _path_of(name, arguments, "read_file") is None or "start_line" in arguments:
            return answer
        lines = str(answer.get("data", "")).splitlines(keepends=True)
        if answer.get("success") and len(lines) > self.LINES:
            shown = "".join(lines[: self.LINES])
            answer = {**answer, "data": f"{shown}[showing {self.LINES} of {len(lines)} lines; "
                                        "pass start_line for more]"}
        return answer


class QuotesItsRootShortened(Mutant):
    """Ends each failure with its root shortened to the last two folders (`…/sandbox/root`):
    where the runner's home is `/root`, RESULT-08 saw the home folder in it."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if answer.get("success") is False:
            tail = "/".join(self.root.parts[-2:])
            answer = {**answer, "data": f"{answer.get('data', '')} (workspace …/{tail})"}
        return answer


class DashShell(Mutant):
    """Runs commands with /bin/sh (dash on Debian), as `sh -c` implementations do: SHELL-04/07
    read `$BASHPID` and ended in harness errors."""

    def __init__(self, workspace: Workspace) -> None:
        super().__init__(workspace)
        # This process serves this variant alone (one `agentconf run` per variant).
        bash.SHELL = "/bin/sh"


class RefusesAbsoluteListing(Mutant):
    """Refuses an absolute path to list_files, even the root's, as @shtse8/filesystem-mcp
    refuses every absolute path (INVALID_ARGS): a CONFINE-10 matter, which LIST-01's check of
    relative names counted as its own failure."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = _path_of(name, arguments, "list_files")
        if path is not None and os.path.isabs(path):
            return failed("INVALID_ARGS", f"absolute paths are not allowed: {path}")
        return await super().call_tool(name, arguments)


class ShouldGaps(Mutant):
    """Departs only from SHOULD clauses: no `summary` (RESULT-05), and a FIFO read that blocks
    (READ-10). Neither may fail or err a MUST clause (they did: EDIT-01, RESULT-08)."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = _path_of(name, arguments, "read_file")
        if path is not None and self.lexical(path).is_fifo():
            await asyncio.sleep(3600)  # blocks like open() on a FIFO with no writer
        answer = await super().call_tool(name, arguments)
        return {key: value for key, value in answer.items() if key != "summary"}


class ClaimsWritesItDropped(Mutant):
    """Answers success for writes through an absolute path or a link but writes nothing: a MUST
    departure that must be a failed check, not a FileNotFoundError inside the kit."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = _path_of(name, arguments, "write_file")
        if path is not None and (os.path.isabs(path) or os.path.islink(self.lexical(path))):
            return {"success": True, "data": f"wrote {Path(path).name}"}
        return await super().call_tool(name, arguments)


class FilePathArgument(Mutant):
    """Spells read_file's `path` as `file_path` (Claude Code's Read does), mapped by a profile:
    VALIDATE-03 sent `file_path` as its "unknown" argument, over the mapped path."""

    def list_tools(self) -> list[dict[str, Any]]:
        tools = []
        for tool in super().list_tools():
            if tool["name"] == "read_file":
                schema = dict(tool["input_schema"])
                properties = dict(schema["properties"])
                properties["file_path"] = properties.pop("path")
                schema["properties"] = properties
                schema["required"] = ["file_path" if r == "path" else r
                                      for r in schema.get("required", [])]
                tool = {**tool, "input_schema": schema}
            tools.append(tool)
        return tools

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name == "read_file" and isinstance(arguments, dict):
            arguments = dict(arguments)
            if "path" in arguments:  # the canonical name is unknown here
                return failed("INVALID_ARGS", "read_file has no argument path; use file_path")
            if "file_path" in arguments:
                arguments["path"] = arguments.pop("file_path")
        return await super().call_tool(name, arguments)


class OneMessageReworded(Mutant):
    """The reference with one message worded anew (reading a missing file): a wording change,
    which a message snapshot shows as "message changed", never as a failed clause."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "read_file" and answer.get("error") == "NOT_FOUND":
            answer = {**answer, "data": "No such file here; list_files shows what there is."}
        return answer


class ShellWithoutDevZero(Mutant):
    """A shell emulated in a sandbox with no /dev/zero (just-bash, a WASM shell): the flood the
    bounding checks make never comes. SHELL-08 and SHELL-12 once passed here without testing
    anything; their scenario is confirmed first, so they are n/a."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name == "bash" and isinstance(arguments, dict) and "/dev/zero" in str(
                arguments.get("command")):
            arguments = {**arguments, "command": str(arguments["command"]).replace(
                "/dev/zero", "/dev/agentconf-missing-zero")}
        return await super().call_tool(name, arguments)


class ShellWithLoopLimit(Mutant):
    """A shell that stops a script at 10,000 iterations, as an emulated shell does (just-bash:
    "iteration limit exceeded", exit 126): the long output a truncation case asks for is never
    printed, so that case is not judged, where it once failed TRUNCATE-01."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        command = arguments.get("command") if isinstance(arguments, dict) else None
        if name == "bash" and isinstance(command, str):
            long = re.compile(r"seq 1 (\d{5,})")
            command = long.sub("{ echo 'seq: iteration limit exceeded (10000)' >&2; exit 126; }",
                               command)
            arguments = {**arguments, "command": command}
        return await super().call_tool(name, arguments)


class RelativePathsElsewhere(Mutant):
    """Takes absolute paths, and resolves a relative one against a folder inside the root that
    is not the root (just-bash's working folder): a profile sends it the root's paths absolute.
    A `~/x` typed as a model types it landed at root/elsewhere/~/x, literal and inside, which
    CONFINE-03 once failed as "not a readable file in the root"."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = self.path_of(arguments)
        if path is not None and not path.startswith("/"):
            (self.root / "elsewhere").mkdir(exist_ok=True)
            arguments = {**arguments, "path": str(self.root / "elsewhere" / path)}
        return await super().call_tool(name, arguments)


class DeclaresNothing(Mutant):
    """Its tools declare no kind and no annotations (a plain MCP server's listing): ANNOTATION-01
    judges what a read-only declaration promises, and once passed on cases of reads that made
    none (mcp-filesystem-encoding)."""

    def list_tools(self) -> list[dict[str, Any]]:
        return [{key: value for key, value in tool.items() if key not in ("kind", "annotations")}
                for tool in super().list_tools()]


class PathToolsRefuseEveryCall(Mutant):
    """Its optional path tools refuse every call for a reason that is not the path (an `action`
    selector the kit does not send): refusing a hostile path then proves nothing of
    confinement (an implementation's CONFINE-16 and SYMLINK-12 once passed on exactly that)."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name in PATH_TOOLS:
            return failed("INVALID_ARGS", "`action` is required: one of read, write, list")
        return await super().call_tool(name, arguments)


class OnePathToolRefusesEveryCall(Mutant):
    """One optional path tool refuses every call (a required argument the kit cannot fill): the
    other path tools' confinement is still judged, and a pass says it was judged in part."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name == "directory_tree":
            return failed("INVALID_ARGS", "`line_edits` is required")
        return await super().call_tool(name, arguments)


class SearchGivesUpOnLoops(Mutant):
    """Its search gives up on the whole tree when a link loop is anywhere in it ("Symlink loop
    from …", mcp-filesystem-encoding and coding-tools-mcp): a loop's failure, which SYMLINK-07's
    check once charged to GREP-01 as a search that misses its match."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        searched = arguments.get("path") if isinstance(arguments, dict) else None
        if name == "grep" and searched in (None, ".") and (self.root / "loop_b").is_symlink():
            return failed("IO_ERROR", "Symlink loop from 'loop_b'")
        return await super().call_tool(name, arguments)


class ShellPolicyRefusesExpansions(Mutant):
    """Its shell refuses, by its own permission policy, any command with an arithmetic or a
    parameter expansion (coding-tools-mcp: "PERMISSION_REQUIRED: ... require explicit
    permission"): the command never ran, and SHELL-10 once failed on it as if it had."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        command = arguments.get("command") if isinstance(arguments, dict) else None
        if name == "bash" and isinstance(command, str) and ("$((" in command or "$!" in command):
            return failed("PERMISSION_DENIED", "expansions require explicit permission")
        return await super().call_tool(name, arguments)


class GrepRefusesLinks(Mutant):
    """A search whose path is a link is refused ("Symlinks are not allowed"), a link inside the
    root too: nothing from outside is ever shown, so SYMLINK-07 holds; that a link inside cannot
    be searched through is SYMLINK-08's (a SHOULD), which its check charged to SYMLINK-07."""

    CODE: ClassVar[str] = "OUTSIDE_ROOT"

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = arguments.get("path") if isinstance(arguments, dict) else None
        if name == "grep" and isinstance(path, str) and (self.root / path).is_symlink():
            return failed(self.CODE, "Symlinks are not allowed.")
        return await super().call_tool(name, arguments)


class GrepRefusesLinksAsNoFolder(GrepRefusesLinks):
    """The same refusal coded NOT_A_DIRECTORY (skydeckai-code 0.1.41 for a file link): no code
    SYMLINK-07 names, and nothing from outside shown, which is all the clause asks."""

    CODE = "NOT_A_DIRECTORY"


class ReadsAsJson(Mutant):
    """Answers every read as JSON text with the file's size beside its content (airgap-file-
    bridge does): a profile reads `content` as the text. An empty file's answer still says it is
    empty (`"size": 0`), which READ-09 once missed, judging the empty `content` alone; with
    `SIZE = False` the answer is a wrapper around nothing, and READ-09 fails."""

    SIZE = True

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name != "read_file" or not answer.get("success"):
            return answer
        target = self.lexical(arguments["path"])
        content = target.read_text("utf-8", errors="replace") if target.is_file() else ""
        said: dict[str, Any] = {"content": content}
        if self.SIZE:
            said["size"] = len(content.encode())
        return {**answer, "data": json.dumps(said)}


class ReadsAsJsonWithoutSize(ReadsAsJson):
    SIZE = False


class ReadsAsJsonEchoingItsPath(ReadsAsJson):
    """`[{"path": "empty.txt", "content": ""}]` (shtse8's filesystem-mcp answers a read so): the
    path it was given echoed back says nothing of the file being empty."""

    SIZE = False

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "read_file" and answer.get("success"):
            said = json.loads(answer["data"])
            answer = {**answer, "data": json.dumps([{"path": arguments["path"], **said}])}
        return answer


class ShellCapsBytes(Mutant):
    """A shell that bounds its output in bytes of UTF-8 (coding-tools-mcp's exec_command, its
    max_output_bytes), its profile saying so: `"é" * limit` is over that bound, and once failed
    TRUNCATE-06 as output "within the limit" it had cut."""

    BYTES = 8000
    REFERENCE_LIMITS: ClassVar[dict[str, int] | None] = {"max_output_chars": 10**9}

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        data = answer.get("data")
        if name == "bash" and isinstance(data, str) and len(data.encode("utf-8")) > self.BYTES:
            whole = data.encode("utf-8")
            half = (self.BYTES - 100) // 2
            # "ignore" drops the part of a character a byte cut leaves at either edge.
            answer = {**answer, "data": f"{whole[:half].decode('utf-8', 'ignore')}\n[... "
                      f"{len(whole) - 2 * half} bytes truncated ...]\n"
                      f"{whole[-half:].decode('utf-8', 'ignore')}"}
        return answer


class ChangeListEscapes(Mutant):
    """A tool beyond the six taking a list of changes, each with a required `action`
    (coding-tools-mcp's apply_changes), whose create writes wherever its path says. The kit once
    sent changes without an action: every call was refused for it, and CONFINE-16 passed."""

    def list_tools(self) -> list[dict[str, Any]]:
        change = {"type": "object", "required": ["action", "path"], "properties": {
            "action": {"type": "string", "enum": ["create", "delete"]},
            "path": {"type": "string"}, "content": {"type": "string"},
            "revision": {"type": "string",
                         "description": "The revision read_file reported for this path"}}}
        return [*super().list_tools(), {
            "name": "apply_changes", "description": "Apply a list of file changes.",
            "input_schema": {"type": "object", "required": ["changes"], "properties": {
                "changes": {"type": "array", "items": change}}}}]

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name != "apply_changes":
            return await super().call_tool(name, arguments)
        changes = arguments.get("changes") if isinstance(arguments, dict) else None
        if not isinstance(changes, list) or not all(
                isinstance(c, dict) and c.get("action") in ("create", "delete")
                and isinstance(c.get("path"), str) for c in changes):
            return failed("INVALID_ARGS", "each change needs an action and a path")
        for change in changes:
            target = self.root / change["path"]  # the defect: never confined
            if change["action"] == "create":
                try:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_text(str(change.get("content", "")), "utf-8")
                except OSError as error:
                    return failed("IO_ERROR", f"{change['path']}: {error.strerror}")
        return {"success": True, "data": f"applied {len(changes)} change(s)"}


class WriteFinishesAfterCancel(CancelLeavesAPartialWrite):
    """Its write cannot be interrupted (rigout): the gallery's streaming write, shielded from the
    cancel, streams on to its end, so the file is partial while it streams and whole once done.
    What the cancel leaves is judged once the session has moved on; the write in flight is any
    non-atomic write's (CONCUR-04). Served over a pipe (cmd:), where its loop runs between
    calls."""

    KILLS = ()  # conformant: the clause it tests must pass

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        return await asyncio.shield(super().call_tool(name, arguments))


class GrepAnswersJsonRecords(Mutant):
    """Answers a search as pretty-printed JSON, a record per match (`{"file", "line", "text"}`),
    as a Python server returning a dict does: each value on a line of its own, so a match's
    line number is on no line with its text (GREP-01 once failed it for that)."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name != "grep" or not answer.get("success"):
            return answer
        records = []
        for line in str(answer["data"]).splitlines():
            found = re.match(r"(.+?):(\d+):(.*)", line)
            if found:
                records.append({"file": found.group(1), "line": int(found.group(2)),
                                "text": found.group(3)})
        said = {"mode": "content_search", "details": records, "total_matches": len(records)}
        return {**answer, "data": json.dumps(said, indent=2)}


class NoParentFolders(Mutant):
    """A write never makes missing folders, and says so before it looks where the path leads
    (mcp-server-filesystem 0.6.2 on npm: "Parent directory does not exist"): a write through a
    link out into missing folders is refused NOT_FOUND, a true cause, and nothing is made."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = _path_of(name, arguments, "write_file")
        if path is not None and not os.path.isdir(os.path.dirname(self.root / path) or "."):
            return failed("NOT_FOUND", f"Parent directory does not exist: {path}")
        return await super().call_tool(name, arguments)



class ReportsItsBackups(Mutant):
    """Keeps each replaced file's old content as a version in a folder of its own and names it
    in the answer (airgap-file-bridge 1.1.0: `"backup": ".file-bridge/versions/f.….txt"`): a
    file the model is told of is not a temporary file left behind (EDIT-16 once counted it)."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = _path_of(name, arguments, "write_file", "edit_file")
        target = self.lexical(path) if path is not None else None
        old = target.read_bytes() if target is not None and target.is_file() else None
        answer = await super().call_tool(name, arguments)
        if target is None or old is None or not answer.get("success"):
            return answer
        versions = self.root / ".versions"
        versions.mkdir(exist_ok=True)
        kept = versions / f"{target.name}.{len(list(versions.iterdir()))}.bak"
        kept.write_bytes(old)
        return {**answer, "data": f"{answer['data']}\nbackup: {kept.relative_to(self.root)}"}


class GrepMarksMatches(Mutant):
    """Marks each match in the lines a search shows (`notes.txt:3:>>>needle<<< here`), as a
    Python file server does for the model (iflow-mcp-safurrier-mcp-filesystem 0.2.0): the line is
    still shown whole, with its path and number (GREP-01 once wanted it unmarked)."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        pattern = arguments.get("pattern") if isinstance(arguments, dict) else None
        if name != "grep" or not answer.get("success") or not isinstance(pattern, str):
            return answer
        marked = []
        for line in str(answer["data"]).splitlines():
            found = re.match(r"(.+?:\d+:)(.*)", line)  # path:number:text, the text marked
            marked.append(found[1] + re.sub(pattern, lambda m: f">>>{m[0]}<<<", found[2])
                          if found else line)
        return {**answer, "data": "\n".join(marked)}


class ListsLinkTargets(Mutant):
    """Shows where each link in a listing points (`link_out_file -> /…/outside/secret.txt`), as
    listings that report a link's target do: naming a link's own target is not descending into a
    folder link out (SYMLINK-06 once searched the whole answer for the outside names)."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name != "list_files" or not answer.get("success"):
            return answer
        shown = []
        for line in str(answer["data"]).splitlines():
            entry = self.root / line.strip().rstrip("/")
            shown.append(f"{line} -> {os.readlink(entry)}" if entry.is_symlink() else line)
        return {**answer, "data": "\n".join(shown)}


class ReadsManyFiles(Mutant):
    """Its read_file takes one path or a list of them (`path: anyOf[string, array]`) and reads
    each listed file: a list is a form its schema declares, no wrong type (VALIDATE-02 once sent
    `["a.txt"]` as one)."""

    def list_tools(self) -> list[dict[str, Any]]:
        tools = []
        for tool in super().list_tools():
            if tool["name"] == "read_file":
                schema = dict(tool["input_schema"])
                properties = dict(schema["properties"])
                properties["path"] = {"anyOf": [
                    properties["path"], {"type": "array", "items": {"type": "string"}}]}
                tool = {**tool, "input_schema": {**schema, "properties": properties}}
            tools.append(tool)
        return tools

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        paths = arguments.get("path") if isinstance(arguments, dict) else None
        if name != "read_file" or not isinstance(paths, list):
            return await super().call_tool(name, arguments)
        answers = [await super().call_tool(name, {**arguments, "path": path}) for path in paths]
        if not all(answer.get("success") for answer in answers):
            return next(answer for answer in answers if not answer.get("success"))
        return {**answers[0], "data": "\n".join(str(answer["data"]) for answer in answers)}


class WritesEmptyByDefault(Mutant):
    """Its write_file documents `content` as optional, `""` by default, and writes an empty file
    without it: a form its schema declares, judged alike by VALIDATE-01's golden case and its
    checks (one once failed the call the other called documented)."""

    def list_tools(self) -> list[dict[str, Any]]:
        tools = []
        for tool in super().list_tools():
            if tool["name"] == "write_file":
                schema = dict(tool["input_schema"])
                properties = {**schema["properties"],
                              "content": {**schema["properties"]["content"], "default": ""}}
                tool = {**tool, "input_schema": {**schema, "properties": properties,
                                                 "required": ["path"]}}
            tools.append(tool)
        return tools

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name == "write_file" and isinstance(arguments, dict) and "path" in arguments:
            arguments = {"content": "", **arguments}
        return await super().call_tool(name, arguments)


class StatusToolReadOnly(Mutant):
    """It also advertises `status`, of kind read, outside the contract and taking no path: the
    kit never calls it, so ANNOTATION-01's pass says it was judged without it."""

    def list_tools(self) -> list[dict[str, Any]]:
        return [*super().list_tools(), {
            "name": "status", "description": "Show the workspace's status.", "kind": "read",
            "input_schema": {"type": "object", "properties": {"options": {"type": "string"}}}}]


class GrepTopFolderOnly(Mutant):
    """Its search looks into the files of the folder it is given, not into the folders below
    (a recursive switch off): a search of a large tree under `logs/` finds nothing there to
    bound, which GREP-05 once failed as unbounded."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name != "grep" or not answer.get("success"):
            return answer
        kept = [line for line in str(answer["data"]).splitlines() if "/" not in line.split(":")[0]]
        return {**answer, "data": "\n".join(kept) if kept else "No matches found."}


class ListerRequiresPath(Mutant):
    """Its lister requires the path (`required: ["path"]`) and refuses a call without one; a
    profile sends `.` where a check leaves it out, so no call omits it (CONFINE-15's omitted
    check once passed on that `.`)."""

    def list_tools(self) -> list[dict[str, Any]]:
        return [{**tool, "input_schema": {**tool["input_schema"], "required": ["path"]}}
                if tool["name"] == "list_files" else tool for tool in super().list_tools()]

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name == "list_files" and isinstance(arguments, dict) and "path" not in arguments:
            return failed("INVALID_ARGS", "path: Field required")
        return await super().call_tool(name, arguments)


class CreateOnlyWrites(Mutant):
    """Its write creates files and refuses to replace one ("File already exists", an `overwrite`
    flag left off): the races of CONCUR-02 and CONCUR-04 never run, every write but the first
    refused (both once passed on the untouched file)."""

    _one_at_a_time: asyncio.Lock | None = None

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = _path_of(name, arguments, "write_file")
        if path is None:
            return await super().call_tool(name, arguments)
        self._one_at_a_time = self._one_at_a_time or asyncio.Lock()
        async with self._one_at_a_time:  # its tools run one at a time, as a FastMCP server's do
            if self.lexical(path).exists():
                return failed("INVALID_ARGS", f"File already exists: {path}")
            return await super().call_tool(name, arguments)


class RefusesBigWrites(Mutant):
    """Refuses a write of more than a megabyte at once, as a bound of its own: the old content a
    refused write keeps says nothing of a cancel (CANCEL-02 once passed on it)."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        content = arguments.get("content") if isinstance(arguments, dict) else None
        if name == "write_file" and isinstance(content, str) and len(content) > 1 << 20:
            return failed("FILE_TOO_LARGE", f"content of {len(content)} characters is too large")
        return await super().call_tool(name, arguments)


class RefusesFoldersInWords(Mutant):
    """Answers a read of a folder as a success whose words refuse, opening with the folder's
    absolute path (wcgw): that path is no word of the answer, so its refusal is near its start."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = _path_of(name, arguments, "read_file")
        if path is not None and self.lexical(path).is_dir():
            where = self.lexical(path)
            return {"success": True, "data": f"\n{where}: [Errno 21] Is a directory: '{where}'\n"}
        return await super().call_tool(name, arguments)


async def _bash(root: Path, command: str, stderr: int) -> tuple[int, str, str]:
    """The command run by bash in `root`: its exit code, stdout and stderr (`stderr` PIPE, or
    STDOUT to merge them into stdout)."""
    done = await asyncio.create_subprocess_exec(
        "bash", "-c", command, cwd=root, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=stderr)
    out, err = await done.communicate()
    return done.returncode or 0, out.decode(), (err or b"").decode()


class ShellAnswersAnObject(Mutant):
    """Its bash answers `{"message", "stdout", "stderr", "code"}`, a failure said by its message
    and code alone (mcp-cli 1.0.5): a profile reading stdout and stderr as the text must not
    hide the code and the message from what the checks judge."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        command = arguments.get("command") if isinstance(arguments, dict) else None
        if name != "bash" or not isinstance(command, str):
            return await super().call_tool(name, arguments)
        code, out, err = await _bash(self.root, command, asyncio.subprocess.PIPE)
        message = "Command executed" if code == 0 else "Command execution failed"
        return {"success": True, "data": json.dumps({
            "message": message, "stdout": out, "stderr": err, "code": code})}


class CutShellCountedInAField(Mutant):
    """Its bash answers `{"stdout", "truncated", "stdout_total"}`: the head it kept, and the
    count of what it printed in a field beside it (mcp-switchboard-server-harness 0.4.0)."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        command = arguments.get("command") if isinstance(arguments, dict) else None
        if name != "bash" or not isinstance(command, str):
            return await super().call_tool(name, arguments)
        code, out, _ = await _bash(self.root, command, asyncio.subprocess.STDOUT)
        kept = out[:self.limits.max_output_chars // 2]
        return {"success": code == 0, "data": json.dumps({
            "stdout": kept, "truncated": len(kept) < len(out), "stdout_total": len(out),
            "exit_code": code})}


class NamesItsTempFolder(Mutant):
    """Refuses a path outside the root naming where it may write: the root, and its own
    temporary folder (the TMPDIR it was given) — a place of its own, not the folder around the
    root (RESULT-08 once read the sandbox's tmp/ as a leak)."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if answer.get("error") == "OUTSIDE_ROOT":
            allowed = f"allowed: {self.root} and temp {self.root.parent / 'tmp'}"
            return {**answer, "data": f"{answer['data']} ({allowed})"}
        return answer
