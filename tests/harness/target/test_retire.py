"""A kept server the kit is done with is retired (killed), not closed politely: every check it
served was judged before, so its way out is nobody's business, and waiting for a Python MCP
server to exit took a quarter of a second per retirement (target/reuse.py).

Each server writes `goodbye` into its root once its input ends: a polite close lets it, a
retirement kills it first.
"""

import sys
import textwrap
from pathlib import Path

import pytest

from agentconf.harness.target.adapters import open_adapter
from agentconf.harness.target.adapters.base import AdapterEnv
from agentconf.harness.target.spec import parse_spec

CMD_SERVER = textwrap.dedent('''
    import json, sys
    from pathlib import Path
    for line in sys.stdin:
        request = json.loads(line)
        answer = {"jsonrpc": "2.0", "id": request.get("id")}
        if request.get("method") == "tools/list":
            answer["result"] = {"tools": []}
        else:
            answer["error"] = {"code": -32601, "message": "method not found"}
        print(json.dumps(answer), flush=True)
    Path("goodbye").write_text("stdin closed")
''')

MCP_SERVER = textwrap.dedent('''
    from pathlib import Path
    import anyio
    import mcp_types as types
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server

    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=[])

    async def main():
        server = Server("polite", on_list_tools=list_tools)
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
        Path("goodbye").write_text("stdin closed")

    anyio.run(main)
''')


def _alive(pid: int) -> bool:
    """A zombie waiting to be reaped counts as dead."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.parametrize("transport", ["cmd", "mcp"])
def test_a_retired_server_is_killed_before_it_can_exit_politely(
    tmp_path: Path, transport: str,
) -> None:
    script = tmp_path / "server.py"
    script.write_text(CMD_SERVER if transport == "cmd" else MCP_SERVER)
    for folder in ("root", "home", "tmp", "logs"):
        (tmp_path / folder).mkdir()
    env = AdapterEnv(root=tmp_path / "root", home=tmp_path / "home", tmp=tmp_path / "tmp",
                     call_timeout_s=10.0, log_dir=tmp_path / "logs")
    spec = parse_spec(f"{transport}:{sys.executable} {script}")
    goodbye = tmp_path / "root" / "goodbye"

    polite = open_adapter(spec, env)
    assert polite.list_tools() == []
    polite.close()
    assert goodbye.read_text() == "stdin closed"  # what a polite close lets it do
    goodbye.unlink()

    retired = open_adapter(spec, env)
    assert retired.list_tools() == []
    pid = retired.pid if transport == "mcp" else retired._process.pid  # type: ignore[attr-defined]
    assert pid is not None and _alive(pid)
    retired.retire()  # type: ignore[attr-defined]
    assert not _alive(pid)
    assert not goodbye.exists()
