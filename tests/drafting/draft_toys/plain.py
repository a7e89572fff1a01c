"""The plain toy: a `cmd:` tool system with Read, Write and Edit over one root, speaking
newline-delimited JSON-RPC on stdio. Every shape in this package is a subclass that changes one
of its steps; a failure is plain text without a code, as the real ones are."""

import json
import os
import sys
from collections.abc import Callable
from typing import Any

Answer = dict[str, Any]
Handler = Callable[[dict[str, Any]], Answer]
STRING, INTEGER = {"type": "string"}, {"type": "integer"}  # the types of its arguments


def schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required}


def tool(name: str, description: str, properties: dict[str, Any],
         required: list[str]) -> dict[str, Any]:
    return {"name": name, "description": description,
            "input_schema": schema(properties, required)}


class Refused(Exception):
    """A step's refusal of the call, answered as the failure of `kind`."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


class Toy:
    """Read{file_path, offset, limit} (offset counts from 1), Write{file_path, content} and
    Edit{file_path, old_string, new_string}, confined to $AGENTCONF_ROOT."""

    first_line = 1  # the offset of a file's first line
    confined = True  # a path outside the root is refused

    def __init__(self) -> None:
        self.root = os.path.realpath(os.environ["AGENTCONF_ROOT"])
        self.seen: dict[str, int] = {}  # path -> mtime when read

    # What tools/list says.
    def file_path_schema(self) -> dict[str, Any]:
        return STRING

    def offset_schema(self) -> dict[str, Any]:
        return INTEGER

    def read_properties(self) -> dict[str, Any]:
        return {"file_path": self.file_path_schema(), "offset": self.offset_schema(),
                "limit": INTEGER}

    def tools(self) -> list[dict[str, Any]]:
        path = self.file_path_schema()
        return [
            tool("Read", "Reads a file", self.read_properties(), ["file_path"]),
            tool("Write", "Writes a file", {"file_path": path, "content": STRING},
                 ["file_path", "content"]),
            tool("Edit", "Replaces text in a file",
                 {"file_path": path, "old_string": STRING, "new_string": STRING},
                 ["file_path", "old_string", "new_string"]),
        ]

    def handler(self, name: str) -> Handler | None:
        return {"Read": self.read, "Write": self.write, "Edit": self.edit}.get(name)

    # How a failure is worded.
    def failure_text(self, kind: str, tool: str, path: str) -> str:
        return f"{kind}: {path}"

    def fail(self, kind: str, tool: str | None, path: str = "") -> Answer:
        return {"success": False, "data": self.failure_text(kind, str(tool), path), "kind": kind}

    def unknown(self, name: str) -> Answer:
        return {"success": False, "data": "no such tool " + name, "error": "TOOL_NOT_FOUND"}

    # Where a path leads.
    def resolve(self, path: str) -> str:
        full = os.path.realpath(os.path.join(self.root, path))
        if full != self.root and not full.startswith(self.root + os.sep) and self.confined:
            raise PermissionError(full)  # the resolved path, as Node's messages say it
        return full

    # The file tools.
    def read(self, args: dict[str, Any]) -> Answer:
        try:
            path = self.resolve(args["file_path"])
            with open(path, encoding="utf-8") as handle:
                lines = handle.read().splitlines(keepends=True)
        except PermissionError as error:
            return self.fail("outside", "Read", str(error))
        except IsADirectoryError:
            return self.folder_read(path, args)
        except NotADirectoryError:
            return self.fail("under", "Read", args["file_path"])
        except FileNotFoundError:
            return self.fail("missing", "Read", args["file_path"])
        except OSError:
            return self.fail("loop", "Read", args["file_path"])
        except UnicodeDecodeError:
            return self.fail("binary", "Read", args["file_path"])
        self.seen[path] = os.stat(path).st_mtime_ns
        try:
            text = self.window(lines, args)
        except Refused as refusal:
            return self.fail(refusal.kind, "Read", args["file_path"])
        return self.read_answer(path, text)

    def folder_read(self, path: str, args: dict[str, Any]) -> Answer:
        return self.fail("folder", "Read", args["file_path"])

    def window(self, lines: list[str], args: dict[str, Any]) -> str:
        first = args.get("offset", self.first_line) - self.first_line
        count = args.get("limit", len(lines))
        return "".join(lines[first:first + count])

    def read_answer(self, path: str, text: str) -> Answer:
        return {"success": True, "data": text}

    def edit(self, args: dict[str, Any]) -> Answer:
        try:
            path = self.resolve(args["file_path"])
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        except IsADirectoryError:
            return self.fail("folder", "Edit", args["file_path"])
        except (OSError, PermissionError):
            return self.fail("missing", "Edit", args["file_path"])
        refusal = self.edit_refusal(path, args)
        if refusal is not None:
            return refusal
        found = text.count(args["old_string"])
        if found != 1:
            return self.miss(path, args, found)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text.replace(args["old_string"], args["new_string"]))
        self.seen[path] = os.stat(path).st_mtime_ns
        return {"success": True, "data": "edited"}

    def edit_refusal(self, path: str, args: dict[str, Any]) -> Answer | None:
        """The failure of an edit of a file that is there, before its text is looked for."""
        return None

    def miss(self, path: str, args: dict[str, Any], found: int) -> Answer:
        """The answer to an edit whose old text is there `found` times, not once."""
        return self.fail("absent" if found == 0 else "twice", "Edit", self.miss_subject(args))

    def miss_subject(self, args: dict[str, Any]) -> str:
        return str(args["file_path"])

    def write(self, args: dict[str, Any]) -> Answer:
        try:
            path = self.resolve(args["file_path"])
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(args["content"])
        except IsADirectoryError:
            return self.fail("folder", "Write", args["file_path"])
        except (OSError, PermissionError):
            return self.fail("missing", "Write", args["file_path"])
        return {"success": True, "data": "written"}

    # The protocol.
    def call(self, name: str, args: dict[str, Any]) -> Answer:
        tools = self.tools()
        handler = self.handler(name)
        if handler is None or not any(t["name"] == name for t in tools):
            return self.unknown(name)
        spec = next(t for t in tools if t["name"] == name)["input_schema"]
        if any(not isinstance(args.get(key), str) for key in spec["required"]):
            return self.fail("args", name)
        return self.answer(name, handler, args)

    def answer(self, name: str, handler: Handler, args: dict[str, Any]) -> Answer:
        """The answer to a well-formed call of an advertised tool."""
        return handler(args)

    def start(self) -> None:
        """Whatever it does before it reads its first request."""

    def serve(self) -> None:
        self.start()
        for line in sys.stdin:
            request = json.loads(line)
            rid, method = request.get("id"), request.get("method")
            if method == "tools/list":
                result: Answer = {"tools": self.tools()}
            elif method == "tools/call":
                params = request.get("params") or {}
                if params.get("arguments", {}) is None:
                    result = self.fail("null", params.get("name"))
                else:
                    result = self.call(params.get("name"), params.get("arguments") or {})
            else:
                self.send({"jsonrpc": "2.0", "id": rid, "error": {
                    "code": -32601, "message": "method not found"}})
                continue
            self.send({"jsonrpc": "2.0", "id": rid, "result": result})

    @staticmethod
    def send(message: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()
