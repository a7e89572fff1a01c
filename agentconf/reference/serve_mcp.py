"""`agentconf serve --mcp --root DIR`: the reference tool system as an MCP server over stdio.

Built on the official SDK's low-level server, so an MCP client (an IDE, an agent, the kit's own
`mcp:` adapter) gets a hardened filesystem-and-shell server, and an MCP server's author a peer
that passes every clause. What crosses the wire:

- `tools/list`: each tool with its input schema and its annotations (readOnlyHint,
  destructiveHint, idempotentHint, openWorldHint: Declaration.annotations).
- `tools/call`: `content` is the envelope's `data` as one text block, `isError` is
  `not success`, and `structuredContent` is the whole envelope (error code, summary, diff,
  issues, denial, exit_code), which the kit's adapter reads back field by field.
  Arguments that are not an object reach the reference, which answers INVALID_ARGS in an
  envelope as it does over `cmd:`, instead of the SDK's JSON-RPC refusal.
- `notifications/cancelled` (the SDK's default, "interrupt") cancels the call's task; the
  reference stops the tool, a command's whole process group included.
- End of input or SIGTERM: the calls in flight are cancelled the same way, then the server exits.
- A client that closes its end of stdout: one line on stderr, exit 141, as over `cmd:`.
"""

import logging
import signal
import sys
from collections.abc import Callable
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from agentconf import __version__

from .serve import (
    CLIENT_GONE,
    EXIT_CLIENT_GONE,
    EXIT_SIGTERM,
    SERVER_NAME,
    ToolSystem,
    discard_stdout,
)

log = logging.getLogger(__name__)


class _CallParams(types.CallToolRequestParams):
    """tools/call params as received: `arguments` of any JSON type, for the reference to judge."""

    arguments: Any = None


Answer = Callable[[dict[str, Any]], types.CallToolResult]


def envelope_answer(envelope: dict[str, Any]) -> types.CallToolResult:
    """The reference's answer: the envelope's data as text, the whole envelope as structured
    content, isError for a failure."""
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=envelope["data"])],
        structured_content=envelope,
        is_error=not envelope["success"],
    )


def build_server(system: ToolSystem, answer: Answer = envelope_answer,
                 name: str = SERVER_NAME) -> Server[Any]:
    """`answer` turns what the system's call_tool returned into MCP's result (a disguised
    server, agentconf.selfcheck.disguise, answers in other shapes and under another `name`)."""

    async def list_tools(
        _ctx: Any, _params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[_tool(entry) for entry in system.list_tools()])

    async def call_tool(_ctx: Any, params: _CallParams) -> types.CallToolResult:
        arguments = {} if params.arguments is None else params.arguments
        return answer(await system.call_tool(params.name, arguments))

    server: Server[Any] = Server(name, version=__version__, on_list_tools=list_tools)
    server.add_request_handler("tools/call", _CallParams, call_tool)
    return server


def _tool(entry: dict[str, Any]) -> types.Tool:
    hints = entry.get("annotations") or {}
    return types.Tool(
        name=entry["name"],
        description=entry.get("description", ""),
        input_schema=entry["input_schema"],
        annotations=types.ToolAnnotations.model_validate(hints) if hints else None,
    )


async def serve_mcp_stdio(system: ToolSystem, answer: Answer = envelope_answer,
                          name: str = SERVER_NAME) -> int:
    server = build_server(system, answer, name)
    terminated = False
    async with anyio.create_task_group() as group:

        async def on_sigterm() -> None:
            nonlocal terminated
            with anyio.open_signal_receiver(signal.SIGTERM) as signals:
                async for _ in signals:
                    terminated = True
                    group.cancel_scope.cancel()  # cancels every call: their tools clean up
                    return

        group.start_soon(on_sigterm)
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
        group.cancel_scope.cancel()  # end of input: stop watching for signals
    return EXIT_SIGTERM if terminated else 0


def run(system: ToolSystem, answer: Answer = envelope_answer, name: str = SERVER_NAME) -> int:
    logging.basicConfig(
        stream=sys.stderr,
        level=logging.WARNING,
        format="agentconf serve --mcp: %(levelname)s %(message)s",
    )
    try:
        return anyio.run(serve_mcp_stdio, system, answer, name)
    except* BrokenPipeError:  # the SDK's writer task failed: the calls were cancelled with it
        discard_stdout(sys.stdout.fileno())
        log.warning(CLIENT_GONE)
    return EXIT_CLIENT_GONE
