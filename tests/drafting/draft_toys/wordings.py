"""Shapes that word a failure the way a real implementation does, codes and all or none."""

import json
import os
from typing import Any

from draft_toys.plain import Answer, Toy

# What follows the path in each kind of ErrorPrefix failure.
WORDS = {"missing": " was not found", "outside": " is outside", "folder": " is a folder",
         "args": " bad arguments", "absent": " has no such text", "twice": " twice",
         "unread": " was never read", "stale": " changed", "under": " is under a file",
         "loop": " loops", "disabled": " edits are disabled"}

# The code each kind of Spelled failure starts with.
CODES = {"missing": "NOT_FOUND", "outside": "ACCESS_DENIED", "args": "INVALID_INPUT",
         "folder": "IS_DIRECTORY", "under": "NOT_A_DIRECTORY", "loop": "IO_ERROR",
         "absent": "TEXT_NOT_FOUND", "twice": "TEXT_MULTIPLE_MATCHES"}


class ErrorPrefix(Toy):
    """Every failure is "Error: <path> ..." (the draft once kept '\\AError' as OUTSIDE_ROOT,
    right under its note that no pattern was kept for it)."""

    def failure_text(self, kind: str, tool: str, path: str) -> str:
        return "Error: " + path + WORDS.get(kind, kind)


class Spelled(Toy):
    """Failures start with a code of its own spelling: "NOT_FOUND: ...", "ACCESS_DENIED: ...",
    "INVALID_INPUT: ..."."""

    def failure_text(self, kind: str, tool: str, path: str) -> str:
        return f"{CODES.get(kind, kind)}: {path}"


class Claude(Toy):
    """Claude Code's wording: "Tool Edit input is invalid: Found 2 matches ...", "Tool Read
    arguments failed schema validation ..."."""

    def failure_text(self, kind: str, tool: str, path: str) -> str:
        text = {"args": f"Tool {tool} arguments failed schema validation: file_path",
                "twice": f"Tool {tool} input is invalid: Found 2 matches of the string",
                "absent": f"Tool {tool} input is invalid: String to replace not found",
                "unread": "File has not been read yet. Read it first before writing to it.",
                "stale": "File has been modified since read, either by the user or by a "
                         "linter."}.get(kind)
        return f"<tool_use_error>{kind}: {path}</tool_use_error>" if text is None else text


class Zod(Toy):
    """Bad arguments answer zod's issues as JSON over several lines after "Error: ", null
    arguments "Error: No arguments provided for <tool> command"."""

    def fail(self, kind: str, tool: str | None, path: str = "") -> Answer:
        if kind not in ("args", "null"):
            return super().fail(kind, tool, path)
        issue = [{"code": "invalid_type", "expected": "string", "received": "number",
                  "path": ["file_path"], "message": "Expected string, received number"}]
        text = ("Error: " + json.dumps(issue, indent=2) if kind == "args"
                else f"Error: No arguments provided for {tool} command")
        return {"success": False, "data": text}


class UnknownText(Toy):
    """An unknown tool is "Unknown tool: <name>" without a code (the MCP Python SDK's answer:
    filesystem-mcp 1.0.2)."""

    def unknown(self, name: str) -> Answer:
        return {"success": False, "data": f"Unknown tool: {name}"}


class QuietMisses(Toy):
    """An edit whose text is absent or there twice answers success and changes nothing
    ("Search content not found in <path>", Desktop Commander's way)."""

    def miss(self, path: str, args: dict[str, Any], found: int) -> Answer:
        return {"success": True, "data": f"Search content not found in {path}." if not found
                else f"Expected 1 occurrences but found {found} in {path}."}


class Korean(Toy):
    """An edit whose old text is not there answers, as mcp-filesystem-server 1.0.3 does,
    "Error: 수정할 텍스트를 찾을 수 없습니다:\\n<old text>" (Korean for "the text to edit was not
    found", the old text bare on the next line)."""

    def miss(self, path: str, args: dict[str, Any], found: int) -> Answer:
        if found:
            return super().miss(path, args, found)
        return {"success": False,
                "data": "Error: 수정할 텍스트를 찾을 수 없습니다:\n" + args["old_string"]}


class QuoteText(Toy):
    """An edit's miss quotes its old text: "Error: 'a = 1\\n' twice" (deepagents: "Error: String
    '<old>' appears 2 times in file")."""

    def miss_subject(self, args: dict[str, Any]) -> str:
        return "'" + args["old_string"] + "'"


class ClaudeFiles(Toy):
    """Claude Code's other wordings: a binary file, a file over 256 KB, a missing file ("File
    does not exist. Note: ..."; an edit's wrapped in "Tool Edit input is invalid: "), a write
    into a link loop (Node's "ELOOP: ..." where a read says "Where ... leads on disk could not be
    determined ...")."""

    def claude_file(self, tool: str, args: dict[str, Any], error: OSError) -> str | None:
        path = os.path.join(self.root, args["file_path"])
        if isinstance(error, FileNotFoundError):
            text = f"File does not exist. Note: your current working directory is {self.root}."
            return text if tool == "Read" else f"Tool {tool} input is invalid: {text}"
        if tool == "Write" and error.errno == 40:
            return f"ELOOP: too many symbolic links encountered, stat '{path}'"
        if tool == "Read" and error.errno == 40:
            return (f"Where {path} leads on disk could not be determined (a link or directory "
                    "on the way could not be read)")
        return None

    def read(self, args: dict[str, Any]) -> Answer:
        try:
            with open(os.path.join(self.root, args["file_path"]), "rb") as handle:
                data = handle.read()
        except OSError as error:
            text = self.claude_file("Read", args, error)
            if text is not None:
                return {"success": False, "data": text}
        else:
            if b"\0" in data:
                return {"success": False, "data": "Tool Read input is invalid: This tool "
                        "cannot read binary files. The file appears to be a binary file."}
            if len(data) > 262144:
                size = f"{len(data) / 1024:.1f}".removesuffix(".0")  # 256.1KB, 512KB
                return {"success": False, "data": f"File content ({size}KB) "
                        "exceeds maximum allowed size (256KB). Use offset and limit."}
        return super().read(args)

    def edit(self, args: dict[str, Any]) -> Answer:
        if not os.path.exists(os.path.join(self.root, args["file_path"])):
            return {"success": False,
                    "data": self.claude_file("Edit", args, FileNotFoundError())}
        return super().edit(args)

    def write(self, args: dict[str, Any]) -> Answer:
        try:
            os.stat(os.path.join(self.root, args["file_path"]))
        except OSError as error:
            if error.errno == 40:
                return {"success": False, "data": self.claude_file("Write", args, error)}
        return super().write(args)
