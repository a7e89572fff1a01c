"""The shapes of the `cmd:` shapes toy, each a subclass that changes one step of ShapesToy:
its shell, its reads, its search, its edits and writes, and how it speaks the protocol."""

import json
import os
import re
import subprocess
from typing import Any

from shape_toys.cmd_toy import STRING, Answer, ShapesToy, fail, ok, tool

# ---- the shell ---------------------------------------------------------------------------------

class Argv(ShapesToy):
    """The shell takes `argv` (an array), not a command string."""

    def shell_properties(self) -> dict[str, Any]:
        return {"argv": {"type": "array", "items": STRING}}

    def shell_required(self) -> list[str]:
        return ["argv"]

    def shell_argv(self, args: dict[str, Any]) -> list[str] | Answer:
        argv = args.get("argv")
        if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
            return fail("INVALID_INPUT", "argv must be an array of strings")
        return argv


class Allow(ShapesToy):
    """`allow=a,b`: the shell runs only these programs (first word), refusing others."""

    def shell_argv(self, args: dict[str, Any]) -> list[str] | Answer:
        argv = super().shell_argv(args)
        if isinstance(argv, dict):
            return argv
        first = args["command"].split()[0] if args["command"].split() else ""
        if first not in self.options["allow"].split(","):
            return fail("ACCESS_DENIED", f"program {first!r} is not allowed")
        return argv


class TimeoutAny(ShapesToy):
    """The shell takes `timeout` in seconds typed anyOf [integer, null] (pydantic's
    `timeout: int | None`)."""

    def shell_properties(self) -> dict[str, Any]:
        return {**super().shell_properties(),
                "timeout": {"anyOf": [{"type": "integer"}, {"type": "null"}]}}


class Workdir(ShapesToy):
    """The shell requires `workdir`, which must be the root."""

    def shell_properties(self) -> dict[str, Any]:
        return {**super().shell_properties(), "workdir": STRING}

    def shell_required(self) -> list[str]:
        return [*super().shell_required(), "workdir"]

    def shell(self, args: dict[str, Any]) -> Answer:
        if os.path.realpath(str(args.get("workdir"))) != self.root:
            return fail("INVALID_INPUT", "workdir must be the root: " + repr(args.get("workdir")))
        return super().shell(args)


class Rc(ShapesToy):
    """The shell answers {"return_code", "output"} and always says success."""

    def shell_answer(self, done: subprocess.CompletedProcess[str]) -> Answer:
        return ok(json.dumps({"return_code": done.returncode,
                              "output": done.stdout + done.stderr}))


# ---- reads and search --------------------------------------------------------------------------

class MaxBytes(ShapesToy):
    """`max-bytes=N`: a whole read refuses a file over N bytes: "FILE_TOO_LARGE: ..."."""

    def read_refusal(self, path: str, lines: list[str], whole: bool) -> Answer | None:
        most = self.options["max-bytes"]
        if whole and os.path.getsize(path) > int(most):
            return fail("FILE_TOO_LARGE", f"more than {most} bytes")
        return super().read_refusal(path, lines, whole)


class MaxLines(ShapesToy):
    """`max-lines=N`: a whole read refuses a file over N lines: "FILE_TOO_LARGE: ..."."""

    def read_refusal(self, path: str, lines: list[str], whole: bool) -> Answer | None:
        most = self.options["max-lines"]
        if whole and len(lines) > int(most):
            return fail("FILE_TOO_LARGE", f"{len(lines)} lines, more than {most}")
        return super().read_refusal(path, lines, whole)


class TooLong(ShapesToy):
    """`too-long=N`: a read of a file over N lines, windowed or not, is a plain-text "success":
    "The answer is too long"."""

    def read_refusal(self, path: str, lines: list[str], whole: bool) -> Answer | None:
        if len(lines) > int(self.options["too-long"]):
            return ok(f"The answer is too long ({len(lines)} lines); read a window instead")
        return super().read_refusal(path, lines, whole)


class MatchOnly(ShapesToy):
    """Search shows the match, not its line, in JSON {"ripgrep_enhanced": true, ...}."""

    def shown(self, found: re.Match[str], line: str) -> str:
        return found.group(0)

    def search_answer(self, hits: list[str]) -> Answer:
        return ok(json.dumps({"ripgrep_enhanced": True, "matches": hits}))


class Grep0(ShapesToy):
    """Search numbers lines from 0."""

    line_base = 0


# ---- edits and writes --------------------------------------------------------------------------

class Status(ShapesToy):
    """Edit answers {"status": "ok" | "not_found" | "count_mismatch"}, a success every time."""

    def edit_answer(self, found: int) -> Answer:
        status = "ok" if found == 1 else ("not_found" if found == 0 else "count_mismatch")
        return ok(json.dumps({"status": status, "found": found}))


class UnconfinedWrite(ShapesToy):
    """Write goes wherever its path points, inside the root or not."""

    def write_path(self, path: str) -> str:
        return os.path.join(self.root, path)


class MkdirAnywhere(ShapesToy):
    """Advertises mkdir{path}, which makes the folder wherever its path leads
    (@agent-infra/mcp-server-filesystem's create_directory: a prefix check)."""

    def tools(self) -> list[dict[str, Any]]:
        return [*super().tools(), tool("mkdir", "make a folder", {"path": STRING}, ["path"])]


class Only(ShapesToy):
    """`only=a,b`: advertises only these tools."""

    def tools(self) -> list[dict[str, Any]]:
        return [t for t in super().tools() if t["name"] in self.options["only"].split(",")]


# ---- the protocol ------------------------------------------------------------------------------

class StateInRoot(ShapesToy):
    """Logs every call in root/.shapes-state/calls.log, as some servers keep a log in the
    workspace."""

    def call(self, name: str, args: dict[str, Any]) -> Answer:
        os.makedirs(os.path.join(self.root, ".shapes-state"), exist_ok=True)
        with open(os.path.join(self.root, ".shapes-state", "calls.log"), "a") as handle:
            handle.write(name + "\n")
        return super().call(name, args)


class NeedsSandbox(ShapesToy):
    """Every call fails "sandbox was required but not provided" until a `sandbox/configure`
    request names the root."""

    sandbox_given = False


class Noisy(ShapesToy):
    """Prints a debug line on stdout before every answer."""

    def respond(self, rid: Any, method: Any, params: dict[str, Any]) -> None:
        print("DEBUG handling " + str(method), flush=True)
        super().respond(rid, method, params)


class CancelError(ShapesToy):
    """Declares cancel_request; every call is answered JSON-RPC error -32800."""

    def respond(self, rid: Any, method: Any, params: dict[str, Any]) -> None:
        if method == "initialize":
            self.send({"jsonrpc": "2.0", "id": rid, "result": {"cancel_request": True}})
        elif method == "tools/call":
            self.send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32800,
                                                               "message": "Request cancelled"}})
        else:
            super().respond(rid, method, params)
