"""Tool systems in process whose premises a draft must prove rather than assume (init_from's
self-check, premises.py), each the reference with one thing about it unlike the kit's view."""

import json
import os
import signal
import subprocess
from pathlib import Path
from typing import Any, ClassVar

from agentconf.contract import Workspace
from agentconf.reference import create


class _OnTheReference:
    """The reference, served as it is: a shape below changes one thing of it."""

    def __init__(self, workspace: Workspace) -> None:
        self.reference = create(workspace)
        self.root = workspace.root

    def list_tools(self) -> list[dict[str, Any]]:
        return self.reference.list_tools()

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        return await self.reference.call_tool(name, arguments)


class ElsewhereRoot:
    """Works in a folder of its own inside the root (a virtual filesystem's working folder):
    `a.txt` is `<root>/.elsewhere/a.txt`, so nothing the kit puts in the root is there for it."""

    def __init__(self, workspace: Workspace) -> None:
        inner = Path(workspace.root) / ".elsewhere"
        inner.mkdir(exist_ok=True)
        self.reference = create(Workspace(root=inner, write_roots=(inner,),
                                          limits=workspace.limits))

    def list_tools(self) -> list[dict[str, Any]]:
        return self.reference.list_tools()

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        return await self.reference.call_tool(name, arguments)


class MisleadingNames:
    """Lists a `read_file` that only says it is deprecated, and the reader that works as `read`:
    the name picks the wrong tool; what each does picks the right one."""

    def __init__(self, workspace: Workspace) -> None:
        self.reference = create(workspace)

    def list_tools(self) -> list[dict[str, Any]]:
        tools = self.reference.list_tools()
        reader = next(tool for tool in tools if tool["name"] == "read_file")
        return [*({**tool, "name": "read"} if tool is reader else tool for tool in tools),
                {**reader, "description": "Read a file."}]

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name == "read_file":
            return {"success": True, "data": "This tool is deprecated; call read instead."}
        return await self.reference.call_tool("read_file" if name == "read" else name, arguments)


class ErrorsInWords:
    """Answers every refusal, an unknown tool's too, as a success whose text starts "Error: "
    (no code, no flag): what a model reads is right; only the words say it failed."""

    def __init__(self, workspace: Workspace) -> None:
        self.reference = create(workspace)

    def list_tools(self) -> list[dict[str, Any]]:
        return self.reference.list_tools()

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await self.reference.call_tool(name, arguments)
        if answer.get("success"):
            return answer
        return {"success": True, "data": f"Error: {answer.get('data', '')}"}


class GatedShell:
    """A shell behind a policy that declines every program but a few, saying so in words and
    listing them nowhere (a permission engine asking for approval)."""

    ALLOWED = ("echo", "printf", "true", "pwd", "cd", "export", "exit", "cat", "ls")

    def __init__(self, workspace: Workspace) -> None:
        self.reference = create(workspace)

    def list_tools(self) -> list[dict[str, Any]]:
        return self.reference.list_tools()

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        command = arguments.get("command") if isinstance(arguments, dict) else None
        if name == "bash" and isinstance(command, str):
            from agentconf.harness.session.shell_words import programs_in

            declined = [p for p in programs_in(command) if p not in self.ALLOWED]
            if declined:
                return self.declined(declined[0])
        return await self.reference.call_tool(name, arguments)

    def declined(self, program: str) -> dict[str, Any]:
        return {"success": False, "error": "PERMISSION_DENIED",
                "data": f"Permission denied: {program} is not allowed by policy."}


class GatedShellInOtherWords(GatedShell):
    """The same policy, saying so in German and with no code: known by its shape alone (one
    text for every declined program, bar the name)."""

    def declined(self, program: str) -> dict[str, Any]:
        return {"success": False,
                "data": f'Keine Berechtigung: "{program}" ist hier nicht erlaubt.'}


class ShellWithoutDevNull(GatedShell):
    """No gate: a shell over a virtual filesystem with no /dev, where every program given
    /dev/null says the same "No such file or directory" of it."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        command = arguments.get("command") if isinstance(arguments, dict) else None
        if name == "bash" and isinstance(command, str) and "/dev/null" in command:
            from agentconf.harness.session.shell_words import programs_in

            program = (programs_in(command) or ["sh"])[0]
            return {"success": False, "error": "NONZERO_EXIT",
                    "data": f"{program}: /dev/null: No such file or directory\n(exit 1)"}
        return await self.reference.call_tool(name, arguments)


class GrepAbortsOnLoops:
    """Its search gives up on the whole tree when a link loop is anywhere in it ("Symlink loop
    from …", mcp-filesystem-encoding's grep_files): the self-check once ran in the root the
    probes had left their loops in, and every grep check was not judged."""

    def __init__(self, workspace: Workspace) -> None:
        self.root = Path(workspace.root)
        self.reference = create(workspace)

    def list_tools(self) -> list[dict[str, Any]]:
        return self.reference.list_tools()

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        loops = [path for path in self.root.rglob("*") if path.is_symlink()
                 and not path.exists() and path.readlink().name.startswith("loop")]
        if name == "grep" and loops:
            return {"success": False, "error": "IO_ERROR",
                    "data": f"Symlink loop from '{loops[0].name}'"}
        return await self.reference.call_tool(name, arguments)


class GlobBesideLs(_OnTheReference):
    """A lister `ls` beside a `glob` that names the files a pattern matches and no folder
    (rigout 0.4.0): both list a folder's file, so the first by name (glob) proved the listing
    and a pattern finder was judged for LIST and SYMLINK-05. The lister names the folder too."""

    GLOB: ClassVar[dict[str, Any]] = {
        "name": "glob", "description": "Find files by glob pattern, newest first.",
        "input_schema": {"type": "object", "required": ["pattern"], "properties": {
            "pattern": {"type": "string"}, "path": {"type": "string"}}}}

    def list_tools(self) -> list[dict[str, Any]]:
        tools = self.reference.list_tools()
        return [self.GLOB, *({**tool, "name": "ls"} if tool["name"] == "list_files" else tool
                             for tool in tools)]

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name == "glob":
            folder = Path(self.root, str(arguments.get("path") or "."))
            found = sorted(str(path.relative_to(self.root))
                           for path in folder.glob(str(arguments.get("pattern") or "*"))
                           if path.is_file())
            return {"success": True, "data": "\n".join(found) or "No files found"}
        return await self.reference.call_tool("list_files" if name == "ls" else name, arguments)


class GlobBesideTreeLister(GlobBesideLs):
    """The same, its lister named and described as a tree might be (`list_directory`, "a
    recursive tree", mcp-workspace 0.1.13) and no tree tool of its own: directory_tree claimed
    the lister first, and the listing stayed the file finder's."""

    def list_tools(self) -> list[dict[str, Any]]:
        tools = self.reference.list_tools()
        lister = [{"name": "list_directory",
                   "description": "List files and directories, a recursive tree of a folder.",
                   "input_schema": {"type": "object", "properties": {
                       "path": {"type": "string"}, "dirs_only": {"type": "boolean"}}}}]
        return [self.GLOB, *lister, *(tool for tool in tools
                                      if tool["name"] not in ("list_files", "directory_tree"))]

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        return await super().call_tool("ls" if name == "list_directory" else name, arguments)


class OwnOutputBound(_OnTheReference):
    """Its shell keeps the last 100,000 characters of an output and says how many it left out
    ("[188914 earlier characters not shown]", rigout 0.4.0): a bound of its own, twice the
    contract's and stated nowhere, by which TRUNCATE-01 failed a shell that keeps it."""

    BOUND = 100_000

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name != "bash" or not isinstance(arguments, dict):
            return await self.reference.call_tool(name, arguments)
        done = self.ran(arguments)
        output = done.stdout + done.stderr
        if len(output) > self.BOUND:
            left = len(output) - self.BOUND
            output = f"[{left} earlier characters not shown]\n{output[-self.BOUND:]}"
        answer = {"success": not done.returncode, "data": f"{output}\nexit code {done.returncode}"}
        return answer if not done.returncode else {**answer, "error": "NONZERO_EXIT"}

    def ran(self, arguments: dict[str, Any]) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["bash", "-c", str(arguments.get("command"))], cwd=self.root,
                              capture_output=True, text=True, timeout=30, check=False)


class OwnOutputBoundFlagged(OwnOutputBound):
    """The same bound, its head kept, said by a JSON field beside the output (`"truncated":
    true`, mcp-switchboard-server-harness 0.4.0.dev6), not in the text the model reads."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name != "bash" or not isinstance(arguments, dict):
            return await self.reference.call_tool(name, arguments)
        done = self.ran(arguments)
        return {"success": True, "data": json.dumps({
            "stdout": done.stdout[:self.BOUND], "stderr": done.stderr[:self.BOUND],
            "exit_code": done.returncode, "truncated": len(done.stdout) > self.BOUND})}


class OwnOutputBoundInBytes(OwnOutputBoundFlagged):
    """The same flagged bound counted in UTF-8 bytes, as its schema's `max_output_bytes` (no
    default) says (local-shell-mcp 5.1.4): drafted in characters, two-byte output at the bound
    was judged cut where the shell keeps it whole (TRUNCATE-06)."""

    def list_tools(self) -> list[dict[str, Any]]:
        bound = {"type": ["integer", "null"], "description": "cap on the output kept"}
        return [{**tool, "input_schema": {**tool["input_schema"], "properties": {
            **tool["input_schema"]["properties"], "max_output_bytes": bound}}}
            if tool["name"] == "bash" else tool for tool in super().list_tools()]

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name != "bash" or not isinstance(arguments, dict):
            return await self.reference.call_tool(name, arguments)
        done = self.ran({key: value for key, value in arguments.items()
                         if key != "max_output_bytes"})
        kept = done.stdout.encode()[:self.BOUND].decode(errors="ignore")
        return {"success": True, "data": json.dumps({
            "stdout": kept, "stderr": done.stderr, "exit_code": done.returncode,
            "truncated": len(done.stdout.encode()) > self.BOUND})}


class ReadKeepsItsOwnBound(_OnTheReference):
    """Its read answers JSON, `{"content": ..., "truncated": ...}`, and keeps the first 200,000
    characters of a file of any size (local-shell-mcp 5.1.4 keeps 512,000 bytes): a bound of its
    own, four times the contract's and stated nowhere, by which TRUNCATE-01 failed a read of a
    131,100-character line it kept whole."""

    BOUND = 200_000

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = arguments.get("path") if isinstance(arguments, dict) else None
        if name != "read_file" or set(arguments) != {"path"} or not isinstance(path, str):
            return await self.reference.call_tool(name, arguments)
        target = Path(self.root) / path
        if not target.is_file():
            return await self.reference.call_tool(name, arguments)
        text = target.read_bytes().decode("utf-8", errors="replace")
        return {"success": True, "data": json.dumps({
            "content": text[:self.BOUND], "truncated": len(text) > self.BOUND})}


class WriteStatusInJson(_OnTheReference):
    """Its write answers every call as a success whose text is JSON saying how it went
    (`{"success": false, "message": "[Errno 17] File exists: ..."}`, mcp-switchboard-server-
    harness 0.4.0.dev6), while its read fails plainly: the write's own status, not every tool's."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await self.reference.call_tool(name, arguments)
        if name != "write_file":
            return answer
        said = answer.get("data") if answer.get("success") else (
            answer.get("message") or answer.get("error"))
        status = json.dumps({"success": bool(answer.get("success")), "message": str(said)})
        return {"success": True, "data": f"{{ {status[1:-1]} }}"}  # its spacing


class UnifiedDiffPatch(_OnTheReference):
    """Its `apply_patch` takes unified diffs (`---`/`+++` and `@@` hunks), not the contract's
    `*** Begin Patch` (mcp-switchboard-server-harness 0.4.0.dev6): its exact name says nothing
    of the format, and every PATCH check failed for the kit's want of a premise."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name == "apply_patch":
            return {"success": False, "error": "INVALID_ARGS",
                    "data": "no file changes found: expected a unified diff (---/+++ headers "
                            "and @@ hunks)"}
        return await self.reference.call_tool(name, arguments)


class TimedOutFlag(_OnTheReference):
    """Its shell answers every command as a success whose JSON holds the output, the exit code
    and a `timed_out` flag (a timed-out command: exit code 124, `"timed_out": true`,
    mcp-switchboard-server-harness 0.4.0.dev6): the flag says TIMEOUT, the exit code alone
    would say NONZERO_EXIT."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name != "bash" or not isinstance(arguments, dict):
            return await self.reference.call_tool(name, arguments)
        process = subprocess.Popen(["bash", "-c", str(arguments.get("command"))], cwd=self.root,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            out, err = process.communicate(timeout=int(arguments.get("timeout_ms") or 30000)
                                           / 1000)
            status, timed_out = process.returncode, False
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            out, err = process.communicate()
            status, timed_out = 124, True
        return {"success": True, "data": json.dumps({
            "stdout": out, "stderr": err, "exit_code": status, "timed_out": timed_out})}


class BinaryFlag(_OnTheReference):
    """Its read answers every file as a success whose JSON says what it holds: a binary file
    is `{"content": null, "is_binary": true}` (bridgemcp-server-filesystem 0.1.1): a refusal
    shaped as a success, its flag naming the kind."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await self.reference.call_tool(name, arguments)
        if name != "read_file":
            return answer
        if answer.get("error") == "BINARY_FILE":
            return {"success": True, "data": json.dumps({"content": None, "is_binary": True})}
        if answer.get("success"):
            return {"success": True, "data": json.dumps({"content": answer.get("data"),
                                                         "is_binary": False})}
        return answer


class WrappedBinaryFlag(_OnTheReference):
    """The same refusal shaped as a success, wrapped as a whole answer of local-shell-mcp 5.1.4:
    `{"ok": true, "message": ..., "data": {"content": null, "binary": true, "message":
    "Refusing to read binary file as text"}}`, the text read at `data.content`."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await self.reference.call_tool(name, arguments)
        if name != "read_file":
            return answer
        if answer.get("error") == "BINARY_FILE":
            inner = {"content": None, "binary": True,
                     "message": "Refusing to read binary file as text"}
        elif answer.get("success"):
            inner = {"content": answer.get("data"), "binary": False, "message": None}
        else:
            return answer
        return {"success": True, "data": json.dumps(
            {"ok": True, "message": "File read", "data": inner}, indent=2)}


class ZeroBasedWindow(_OnTheReference):
    """Its read window is `start` and `end` counted from 0 (a Python list of lines), both ends
    inclusive, `start` defaulting to 0 and `end` to -1, the last line (emcp 0.3.0's fs_read)."""

    def list_tools(self) -> list[dict[str, Any]]:
        tools = self.reference.list_tools()
        return [self._zero_based(tool) if tool["name"] == "read_file" else tool
                for tool in tools]

    @staticmethod
    def _zero_based(tool: dict[str, Any]) -> dict[str, Any]:
        schema = json.loads(json.dumps(tool["input_schema"]))
        properties = schema["properties"]
        del properties["start_line"], properties["end_line"]
        properties["start"] = {"type": "integer", "default": 0}
        properties["end"] = {"type": "integer", "default": -1}
        said = tool["description"].replace("start_line and end_line (1-based, inclusive)",
                                           "start and end")
        return {**tool, "description": said, "input_schema": schema}

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name == "read_file" and isinstance(arguments, dict):
            arguments = dict(arguments)
            start, end = arguments.pop("start", 0), arguments.pop("end", -1)
            counted = isinstance(start, int) and not isinstance(start, bool)
            arguments["start_line"] = start + 1 if counted else start
            if end != -1:
                arguments["end_line"] = end + 1 if isinstance(end, int) else end
        return await self.reference.call_tool(name, arguments)


class ProgramApart(_OnTheReference):
    """No shell; its one runner takes the program apart from its arguments: `shell_run` with
    `command`, a program's name, and `arguments`, a list, both required (emcp 0.3.0)."""

    def list_tools(self) -> list[dict[str, Any]]:
        tools = [tool for tool in self.reference.list_tools() if tool["name"] != "bash"]
        return [self._apart(tool) if tool["name"] == "exec" else tool for tool in tools]

    @staticmethod
    def _apart(tool: dict[str, Any]) -> dict[str, Any]:
        schema = json.loads(json.dumps(tool["input_schema"]))
        properties = schema["properties"]
        del properties["argv"]
        properties["command"] = {"type": "string", "description": "The command to execute"}
        properties["arguments"] = {"type": "array", "items": {"type": "string"},
                                   "description": "List of arguments to pass to the command"}
        schema["required"] = ["command", "arguments"]
        return {**tool, "name": "shell_run", "input_schema": schema,
                "description": "Run a shell command with arguments."}

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name == "bash":
            return {"success": False, "error": "NOT_FOUND", "data": "no such tool: bash"}
        if name == "shell_run" and isinstance(arguments, dict):
            arguments = dict(arguments)
            program, rest = arguments.pop("command", None), arguments.pop("arguments", None)
            listed = isinstance(rest, list)
            arguments["argv"] = [program, *rest] if listed and program is not None else rest
            name = "exec"
        return await self.reference.call_tool(name, arguments)


class EmptyWindowPastTheEnd(_OnTheReference):
    """A window past a file's end answered as an empty success, as READ-11 allows."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await self.reference.call_tool(name, arguments)
        if name == "read_file" and "past its end" in str(answer.get("data", "")):
            return {"success": True, "data": ""}
        return answer


class OffsetLimitWindow(_OnTheReference):
    """Its read window is lines to skip and lines to return, a count below 1 refused with an
    issue at `$.limit` (the field its schema has): READ-12's window ending before it starts."""

    def list_tools(self) -> list[dict[str, Any]]:
        return [self._offset_limit(tool) if tool["name"] == "read_file" else tool
                for tool in self.reference.list_tools()]

    @staticmethod
    def _offset_limit(tool: dict[str, Any]) -> dict[str, Any]:
        schema = json.loads(json.dumps(tool["input_schema"]))
        properties = schema["properties"]
        del properties["start_line"], properties["end_line"]
        properties["offset"] = {"type": "integer", "description": "Lines to skip (0-based)."}
        properties["limit"] = {"type": "integer", "description": "Lines to return."}
        said = tool["description"].replace("start_line and end_line (1-based, inclusive)",
                                           "offset and limit")
        return {**tool, "description": said, "input_schema": schema}

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name != "read_file" or not isinstance(arguments, dict):
            return await self.reference.call_tool(name, arguments)
        arguments = dict(arguments)
        skip, count = arguments.pop("offset", None), arguments.pop("limit", None)
        if isinstance(count, int) and count < 1:
            message = f"`limit` must be at least 1, but got {count}."
            return {"success": False, "error": "INVALID_ARGS", "data": message, "issues": [
                {"path": "$.limit", "expected": "integer >= 1", "received": str(count),
                 "message": message}]}
        if isinstance(skip, int) or isinstance(count, int):
            arguments["start_line"] = (skip if isinstance(skip, int) else 0) + 1
        if isinstance(count, int):
            arguments["end_line"] = arguments["start_line"] + count - 1
        return await self.reference.call_tool(name, arguments)


class MadeUpSessionRefused(_OnTheReference):
    """Every tool requires a `session_id` (local-shell-mcp 5.1.4's logical_session_id, here
    a text only) and refuses one it never issued, quoting it; its lister takes a pattern and
    no path. The draft's made-up text fails every premise it can try, and the listing's, which
    it cannot, stands on the same text."""

    SESSION: ClassVar[dict[str, Any]] = {"type": "string", "description": "the session's id"}

    def list_tools(self) -> list[dict[str, Any]]:
        tools = []
        for tool in self.reference.list_tools():
            schema = dict(tool["input_schema"])
            if tool["name"] == "list_files":
                tool, schema = {**tool, "name": "find_files"}, {
                    "type": "object", "required": ["pattern"],
                    "properties": {"pattern": {"type": "string", "description": "a glob"}}}
            schema["properties"] = {**schema.get("properties", {}), "session_id": self.SESSION}
            schema["required"] = [*schema.get("required", []), "session_id"]
            tools.append({**tool, "input_schema": schema})
        return tools

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        given = dict(arguments) if isinstance(arguments, dict) else {}
        session = given.pop("session_id", None)
        if session is not None:
            return {"success": False, "data": f"Unknown session: {session}"}
        if name == "find_files":
            return await self.reference.call_tool("list_files", {})
        return await self.reference.call_tool(name, given)


class NestedParams(_OnTheReference):
    """Every tool takes its arguments in one `params` object (better-mcps-filesystem 0.3.0) and
    words a wrong type by where it is (`params.path Input should be a valid string`), a missing
    `params` otherwise: a probe sent flat learns the missing object's words, not the checks'."""

    def list_tools(self) -> list[dict[str, Any]]:
        return [{**tool, "input_schema": {"type": "object", "required": ["params"],
                                          "properties": {"params": tool["input_schema"]}}}
                for tool in self.reference.list_tools()]

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        params = arguments.get("params") if isinstance(arguments, dict) else None
        if not isinstance(params, dict):
            return {"success": False, "data": "1 validation error\nparams\n  Missing required "
                                              "argument [type=missing_argument]"}
        wrong = next((key for key in ("path", "pattern", "command", "content")
                      if key in params and not isinstance(params[key], str)), None)
        if wrong is not None:
            return {"success": False, "data": f"1 validation error\nparams.{wrong}\n  Input "
                                              "should be a valid string [type=string_type]"}
        return await self.reference.call_tool(name, params)


class ModelArgument(_OnTheReference):
    """Every tool takes one model argument whose fields sit behind a reference, as FastMCP lists
    a tool whose parameter is a pydantic model: `{"input": {"$ref": "#/$defs/ReadFileInput"}}`.
    Read without resolving it, no tool takes a path, and every one is left out."""

    def list_tools(self) -> list[dict[str, Any]]:
        tools = []
        for tool in self.reference.list_tools():
            model = "".join(word.title() for word in tool["name"].split("_")) + "Input"
            tools.append({**tool, "input_schema": {
                "type": "object", "required": ["input"],
                "properties": {"input": {"$ref": f"#/$defs/{model}"}},
                "$defs": {model: {**tool["input_schema"], "title": model}}}})
        return tools

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        given = arguments.get("input") if isinstance(arguments, dict) else None
        if not isinstance(given, dict):
            return {"success": False, "data": "1 validation error for call\ninput\n  Input "
                                              "should be a valid dictionary [type=dict_type]"}
        return await self.reference.call_tool(name, given)


class PlainListerOnly(_OnTheReference):
    """Advertises only its lister, and refuses a wrong type in plain words with no issues: the
    structured issues VALIDATE-10 judges are settled on the lister, never assumed."""

    def list_tools(self) -> list[dict[str, Any]]:
        return [tool for tool in self.reference.list_tools() if tool["name"] == "list_files"]

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await self.reference.call_tool(name, arguments)
        if answer.get("error") == "INVALID_ARGS":
            return {"success": False, "data": "Input should be a valid string"}
        return answer


class TwoRoots(_OnTheReference):
    """Every tool requires which of its roots a path is in, `root: "home" | "data"`; its home is
    a folder that does not exist here, its data is the kit's root. The first option drafted,
    every call fails alike, and a probe learns a missing home's words for every code."""

    def list_tools(self) -> list[dict[str, Any]]:
        root = {"type": "string", "enum": ["home", "data"], "description": "which root"}
        return [{**tool, "input_schema": {
            **tool["input_schema"], "required": [*tool["input_schema"].get("required", []),
                                                 "root"],
            "properties": {**tool["input_schema"]["properties"], "root": root}}}
            for tool in self.reference.list_tools()]

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        given = dict(arguments) if isinstance(arguments, dict) else arguments
        known = {tool["name"] for tool in self.reference.list_tools()}
        if name in known and isinstance(given, dict) and given.pop("root", None) != "data":
            return {"success": False, "data": "[Errno 2] No such file or directory: '/home/nobody'"}
        return await self.reference.call_tool(name, given)


class NullSession(MadeUpSessionRefused):
    """The same session argument as local-shell-mcp 5.1.4 has it: a text or null ("null when
    no session is active"). Sent null, every call works."""

    SESSION: ClassVar[dict[str, Any]] = {"anyOf": [{"type": "string"}, {"type": "null"}],
                                         "description": "the session's id, or null"}


class WrappedTimedOutFlag(TimedOutFlag):
    """The same shell, its result wrapped as local-shell-mcp 5.1.4 wraps every answer: pretty
    JSON `{"ok": true, "message": ..., "data": {"exit_code": ..., "timed_out": ...}}`. Read at
    the top only, the status was drafted as a line pinned to where the pretty-printing put it."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name != "bash" or not isinstance(arguments, dict):
            return answer
        inner = json.loads(answer["data"])
        return {"success": True, "data": json.dumps(
            {"ok": True, "message": "Command finished", "data": inner}, indent=2)}


class PathSearchBesideGrep(_OnTheReference):
    """A content search answering the files that match and no line (fsext-mcp-server 0.1.3's
    `fs_search_files_by_content`), its name nearer grep's than the search that shows the lines:
    both find the file, so the first by name proved the search and GREP judged a tool that
    prints no line."""

    PATHS: ClassVar[dict[str, Any]] = {
        "name": "grep",
        "description": "Search files whose content contains a text; answers their paths.",
        "input_schema": {"type": "object", "required": ["pattern"], "properties": {
            "pattern": {"type": "string"}, "path": {"type": "string"}}}}

    def list_tools(self) -> list[dict[str, Any]]:
        tools = self.reference.list_tools()
        return [self.PATHS, *({**tool, "name": "search_in_files"} if tool["name"] == "grep"
                              else tool for tool in tools)]

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name == "grep":
            folder = Path(self.root, str(arguments.get("path") or "."))
            text = str(arguments.get("pattern") or "")
            found = sorted(str(path.relative_to(self.root)) for path in folder.rglob("*")
                           if path.is_file() and text in path.read_text("utf-8", "replace"))
            return {"success": True, "data": json.dumps({"paths": found})}
        return await self.reference.call_tool("grep" if name == "search_in_files" else name,
                                              arguments)


class WritesNothingUnderMissingFolders(_OnTheReference):
    """A write under a missing folder answers "File written successfully" and writes nothing
    (mcp-cli 1.0.5: its file library swallows the error): a false success, not a write that
    lacks create_parents."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = arguments.get("path") if isinstance(arguments, dict) else None
        if name == "write_file" and isinstance(path, str) and not Path(
                self.root, path).parent.exists():
            return {"success": True, "data": "File written successfully"}
        return await self.reference.call_tool(name, arguments)


class PatchSaysDoneOnAMiss(_OnTheReference):
    """A patch whose hunk is not in the file answers "Success: Applied patch to 1 file(s) No
    changes detected" and changes nothing (praisonaiagents 1.7.17): a departure PATCH judges,
    not a refusal in other words, whose marker read every real patch as a failure."""

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await self.reference.call_tool(name, arguments)
        if name != "apply_patch":
            return answer
        if not answer.get("success") and answer.get("error") == "TEXT_NOT_FOUND":
            return {"success": True, "data": "Success: Applied patch to 1 file(s)\n"
                                             "No changes detected"}
        if answer.get("success"):
            return {**answer, "data": f"Success: Applied patch to 1 file(s)\n{answer['data']}"}
        return answer
