"""The plain `cmd:` shapes toy: read, write, edit, list, search and shell over one root,
speaking newline-delimited JSON-RPC on stdio. Every cmd shape is a subclass that changes one of
its steps. A failure is text prefixed with its code, as some servers spell them
(`NOT_FOUND: ...`); an unexpected one is an envelope without a code (`internal error: ...`)."""

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from typing import Any

Answer = dict[str, Any]
Handler = Callable[[dict[str, Any]], Answer]
STRING, INTEGER = {"type": "string"}, {"type": "integer"}  # the types of its arguments


def fail(code: str, text: str) -> Answer:
    return {"success": False, "data": f"{code}: {text}"}


def ok(text: str) -> Answer:
    return {"success": True, "data": text}


def tool(name: str, description: str, properties: dict[str, Any],
         required: list[str]) -> dict[str, Any]:
    return {"name": name, "description": description, "input_schema": {
        "type": "object", "properties": properties, "required": required}}


class ShapesToy:
    """read{path, offset, limit} numbering its lines from 1, write{path, content},
    edit{path, old, new}, list{path} as a JSON array, search{pattern, path} and shell{command},
    confined to $AGENTCONF_ROOT. `options` holds the values shapes were given (`only=a,b`)."""

    line_base = 1  # the number search gives a file's first line
    sandbox_given = True  # calls are answered before any sandbox/configure

    def __init__(self, options: dict[str, str]) -> None:
        self.options = options
        self.root = os.path.realpath(os.environ["AGENTCONF_ROOT"])

    # What tools/list says.
    def shell_properties(self) -> dict[str, Any]:
        return {"command": STRING}

    def shell_required(self) -> list[str]:
        return ["command"]

    def tools(self) -> list[dict[str, Any]]:
        return [
            tool("read", "read a file",
                 {"path": STRING, "offset": INTEGER, "limit": INTEGER}, ["path"]),
            tool("write", "write a file", {"path": STRING, "content": STRING},
                 ["path", "content"]),
            tool("edit", "replace text", {"path": STRING, "old": STRING, "new": STRING},
                 ["path", "old", "new"]),
            tool("list", "list a folder, as a JSON array (ASCII escapes)", {"path": STRING},
                 ["path"]),
            tool("search", "search file contents", {"pattern": STRING, "path": STRING},
                 ["pattern"]),
            tool("shell", "run a command", self.shell_properties(), self.shell_required()),
        ]

    def resolve(self, path: str) -> str:
        full = os.path.realpath(os.path.join(self.root, path))
        if full != self.root and not full.startswith(self.root + os.sep):
            raise PermissionError(path)
        return full

    # The shell.
    def shell(self, args: dict[str, Any]) -> Answer:
        timeout = args.get("timeout")
        if timeout is not None and (not isinstance(timeout, int) or isinstance(timeout, bool)):
            return fail("INVALID_INPUT", "timeout: Input should be a valid integer")
        argv = self.shell_argv(args)
        if isinstance(argv, dict):
            return argv
        done = subprocess.run(argv, cwd=self.root, capture_output=True, text=True, timeout=30)
        return self.shell_answer(done)

    def shell_argv(self, args: dict[str, Any]) -> list[str] | Answer:
        """What the call runs, or its refusal."""
        if not isinstance(args.get("command"), str):
            return fail("INVALID_INPUT", "command must be a string")
        return ["/bin/sh", "-c", args["command"]]

    def shell_answer(self, done: subprocess.CompletedProcess[str]) -> Answer:
        return {"success": done.returncode == 0, "data": done.stdout + done.stderr,
                "exit_code": done.returncode}

    # The file tools.
    def read(self, args: dict[str, Any]) -> Answer:
        path = self.resolve(args["path"])
        if not os.path.isfile(path):
            return fail("NOT_FOUND", "no such file " + args["path"])
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines(keepends=True)
        refusal = self.read_refusal(path, lines, "offset" not in args and "limit" not in args)
        if refusal is not None:
            return refusal
        window = [args.get("offset", 1), args.get("limit", len(lines))]
        if not all(isinstance(v, (int, float)) and float(v).is_integer() for v in window):
            return fail("INVALID_INPUT", "offset and limit must be whole numbers")
        first, count = int(window[0]) - 1, int(window[1])
        return ok("".join(f"{first + i + 1}\t{line}"
                          for i, line in enumerate(lines[first:first + count])))

    def read_refusal(self, path: str, lines: list[str], whole: bool) -> Answer | None:
        """The answer to a read of a file that is there, instead of its lines."""
        return None

    def search(self, args: dict[str, Any]) -> Answer:
        hits = []
        start = self.resolve(args.get("path", "."))
        for folder, _dirs, files in os.walk(start):
            for name in sorted(files):
                full = os.path.join(folder, name)
                if os.path.islink(full):
                    continue
                with open(full, "rb") as handle:
                    raw = handle.read()
                if b"\0" in raw:
                    continue
                for number, line in enumerate(raw.decode("utf-8", "replace").splitlines(),
                                              start=self.line_base):
                    found = re.search(args["pattern"], line)
                    if found:
                        hits.append(f"{os.path.relpath(full, self.root)}:{number}:"
                                    f"{self.shown(found, line)}")
        return self.search_answer(hits)

    def shown(self, found: re.Match[str], line: str) -> str:
        """What a hit shows of its line."""
        return line

    def search_answer(self, hits: list[str]) -> Answer:
        return ok("\n".join(hits) or "no matches")

    def edit(self, args: dict[str, Any]) -> Answer:
        path = self.resolve(args["path"])
        if not os.path.isfile(path):
            return fail("NOT_FOUND", "no such file " + args["path"])
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        found = text.count(args["old"])
        if found == 1:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text.replace(args["old"], args["new"]))
        return self.edit_answer(found)

    def edit_answer(self, found: int) -> Answer:
        if found == 1:
            return ok("edited")
        return fail("TEXT_NOT_FOUND" if found == 0 else "TEXT_MULTIPLE_MATCHES",
                    f"found {found}")

    def listing(self, args: dict[str, Any]) -> Answer:
        folder = self.resolve(args.get("path", "."))
        names = []
        for here, dirs, files in os.walk(folder):
            rel = os.path.relpath(here, self.root)
            names += [os.path.normpath(os.path.join(rel, n)) for n in sorted(dirs + files)]
        return ok(json.dumps(sorted(names)))

    def write_path(self, path: str) -> str:
        return self.resolve(path)

    def write(self, args: dict[str, Any]) -> Answer:
        path = self.write_path(args["path"])
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(args["content"])
        return ok("written")

    def mkdir(self, args: dict[str, Any]) -> Answer:
        # Answered whether or not tools/list names it: the call is not checked against it.
        os.makedirs(os.path.join(self.root, os.path.expanduser(args["path"])), exist_ok=True)
        return ok("made")

    # The protocol.
    def call(self, name: str, args: dict[str, Any]) -> Answer:
        if not self.sandbox_given:
            return {"success": False, "data": "Error: sandbox was required but not provided"}
        handler: Handler | None = {
            "read": self.read, "write": self.write, "edit": self.edit, "search": self.search,
            "shell": self.shell, "list": self.listing, "mkdir": self.mkdir}.get(name)
        if handler is None:
            return fail("UNKNOWN_TOOL", str(name))
        try:
            return handler(args)
        except PermissionError as error:
            return fail("ACCESS_DENIED", "outside the workspace: " + str(error))
        except Exception as error:  # every input gets an envelope, without a code
            return {"success": False, "data": "internal error: " + repr(error)}

    def respond(self, rid: Any, method: Any, params: dict[str, Any]) -> None:
        """Answers one request."""
        if method == "tools/list":
            self.send({"jsonrpc": "2.0", "id": rid, "result": {"tools": self.tools()}})
        elif method == "tools/call":
            self.send({"jsonrpc": "2.0", "id": rid,
                       "result": self.call(params.get("name"), params.get("arguments") or {})})
        elif method == "sandbox/configure" and os.path.realpath(
                str(params.get("root"))) == self.root:
            self.sandbox_given = True
            self.send({"jsonrpc": "2.0", "id": rid, "result": {}})
        else:
            self.send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601,
                                                               "message": method}})

    def serve(self) -> None:
        for line in sys.stdin:
            request = json.loads(line)
            self.respond(request.get("id"), request.get("method"), request.get("params") or {})

    @staticmethod
    def send(message: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()
