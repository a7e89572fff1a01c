"""What MCP's stdio transport cannot carry is refused before it is sent, not blamed on the server.

A small echo server written with the official SDK runs in the test's temp dir.
"""

import sys
import textwrap
from pathlib import Path

import pytest

from agentconf.harness.target.adapters.base import AdapterEnv
from agentconf.harness.target.adapters.mcp import McpAdapter, open_mcp

ECHO_SERVER = textwrap.dedent('''
    import json
    import anyio
    import mcp_types as types
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server

    ECHO = types.Tool(name="echo", description="Echoes its arguments.",
                      input_schema={"type": "object", "additionalProperties": True})

    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=[ECHO])

    async def call_tool(ctx, params):
        text = json.dumps(params.arguments, sort_keys=True)
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)])

    async def main():
        server = Server("echo", version="1.0", on_list_tools=list_tools, on_call_tool=call_tool)
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)
''')


@pytest.fixture
def echo(tmp_path: Path):
    for folder in ("root", "home", "tmp", "logs"):
        (tmp_path / folder).mkdir()
    env = AdapterEnv(root=tmp_path / "root", home=tmp_path / "home", tmp=tmp_path / "tmp",
                     call_timeout_s=10.0, log_dir=tmp_path / "logs")
    script = tmp_path / "echo_server.py"
    script.write_text(ECHO_SERVER)
    adapter = open_mcp([sys.executable, str(script)], env, None)
    yield adapter
    adapter.close()


def test_a_lone_surrogate_is_refused_before_it_is_sent(echo: McpAdapter) -> None:
    # Valid JSON (`"\\ud800"`) but not UTF-8: the SDK's writer would die on it, ending the session.
    with pytest.raises(UnicodeEncodeError):
        echo.call_tool("echo", {"path": "lone\ud800surrogate.txt"})
    with pytest.raises(UnicodeEncodeError):
        echo.call_many([("echo", {"path": "a.txt"}), ("echo", {"path": "\udc80"})])
    assert echo.call_tool("echo", {"path": "a.txt"}) == {"success": True,
                                                         "data": '{"path": "a.txt"}'}
    assert echo.alive
