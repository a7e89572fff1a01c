"""A hand-written MCP server (newline-delimited JSON-RPC over stdio, what the SDK speaks) with
one tool, read{path}, for what only MCP carries (structured content, the SDK's wrapping); and
its modes, each a subclass answering the way one of the profile's tests needs."""

import json
import os
import sys
from typing import Any

Answer = dict[str, Any]


def text(value: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": value}]


class McpToy:
    """A read answers the file's text, or "missing" with isError."""

    sandbox_given = True  # calls are answered before any sandbox/configure

    def __init__(self) -> None:
        self.root = os.path.realpath(os.environ["AGENTCONF_ROOT"])

    def tools(self) -> list[dict[str, Any]]:
        return [{"name": "read", "description": "read a file",
                 "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}},
                                 "required": ["path"]}}]

    def read(self, args: dict[str, Any]) -> Answer:
        path = os.path.realpath(os.path.join(self.root, args.get("path", "")))
        exists = path.startswith(self.root + os.sep) and os.path.isfile(path)
        body = None
        if exists:
            with open(path, encoding="utf-8") as handle:
                body = handle.read()
        if not self.sandbox_given:
            return {"content": text("sandbox was required but not provided"), "isError": True}
        return self.answer(args, body)

    def answer(self, args: dict[str, Any], body: str | None) -> Answer:
        """The answer to a read, `body` the file's text or None when it is not there."""
        return {"content": text(body if body is not None else "missing"),
                "isError": body is None}

    def result(self, rid: Any, method: Any, params: dict[str, Any]) -> Answer | None:
        """The result of one request, or None when it was answered with an error."""
        if method == "initialize":
            return {"protocolVersion": params.get("protocolVersion", "2025-06-18"),
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "mcp-shapes", "version": "1.0"}}
        if method == "tools/list":
            return {"tools": self.tools()}
        if method == "tools/call":
            return self.read(params.get("arguments") or {})
        if method == "sandbox/configure" and os.path.realpath(
                str(params.get("root"))) == self.root:
            self.sandbox_given = True
            return {}
        self.send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": method}})
        return None

    def serve(self) -> None:
        for line in sys.stdin:
            message = json.loads(line)
            rid, method = message.get("id"), message.get("method")
            if rid is None:
                continue  # notifications
            result = self.result(rid, method, message.get("params") or {})
            if result is not None:
                self.send({"jsonrpc": "2.0", "id": rid, "result": result})

    @staticmethod
    def send(message: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


class SdkWrapped(McpToy):
    """As a Python MCP SDK (FastMCP) returns a tool's text blocks: content plus
    structuredContent {"result": [<the blocks>]}; a refusal is {"result": "error"}."""

    def answer(self, args: dict[str, Any], body: str | None) -> Answer:
        blocks = text(json.dumps({"result": "ok", "content": body} if body is not None else
                                 {"result": "error", "reason": "File not found"}))
        return {"content": blocks, "structuredContent": {"result": blocks}, "isError": False}


class Structured(McpToy):
    """Failures in structuredContent.failures[0].error.code, the text a plain sentence."""

    def answer(self, args: dict[str, Any], body: str | None) -> Answer:
        if body is not None:
            return {"content": text(body), "structuredContent": {"failures": []},
                    "isError": False}
        return {"content": text("The request could not be completed."),
                "structuredContent": {"failures": [{"error": {"code": "no_such_file"}}]},
                "isError": True}


class ErrorMessage(McpToy):
    """A failure is {"error": "<a message>"} in the text."""

    def answer(self, args: dict[str, Any], body: str | None) -> Answer:
        if body is not None:
            return super().answer(args, body)
        return {"content": text(json.dumps({"error": "File not found: " + args["path"]})),
                "isError": True}


class Sandbox(McpToy):
    """Every call fails until a `sandbox/configure` request names the root."""

    sandbox_given = False


class RpcError(McpToy):
    """Every call is answered with a JSON-RPC error (-32800, "Request cancelled")."""

    def result(self, rid: Any, method: Any, params: dict[str, Any]) -> Answer | None:
        if method != "tools/call":
            return super().result(rid, method, params)
        self.send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32800,
                                                           "message": "Request cancelled"}})
        return None


class Noisy(McpToy):
    """Prints debug lines on stdout: one as it starts, one before every answer."""

    def serve(self) -> None:
        print("DEBUG starting the server, loading plugins")
        super().serve()

    def result(self, rid: Any, method: Any, params: dict[str, Any]) -> Answer | None:
        print("DEBUG got " + str(method))
        return super().result(rid, method, params)


# Each mode by the name a test starts it with.
MODES: dict[str, type[McpToy]] = {
    "plain": McpToy, "sdk-wrapped": SdkWrapped, "structured": Structured,
    "error-message": ErrorMessage, "sandbox": Sandbox, "rpc-error": RpcError, "noisy": Noisy}
