"""REGISTRY-05, ANNOTATION-04, RESULT-06, RESULT-09: its tools declare no MCP annotations (no
readOnlyHint, destructiveHint, idempotentHint), so nothing says what kind of tool each is; a
call of a tool it does not have is "MCP error -32602: Tool no_such_tool not found", naming no
tool it has and no next step; and it prints on stdout, its JSON-RPC channel ("Commands MCP
Server running on stdio" at start, "execute command result ..." after every command).

    python3 listing.py            # exit 1: no annotations, and lines on stdout that are not JSON
"""

import os
import tempfile
from pathlib import Path

from mcp_stdio import Server, verdict

parent = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
with tempfile.TemporaryDirectory(dir=parent) as base, Server(Path(base)) as server:
    listing = server.request("tools/list", {}) or {}
    unknown = server.call("no_such_tool")
    server.call("run_command", command="echo hello")
    noise = list(server.noise)
tools = (listing.get("result") or {}).get("tools", [])
for tool in tools:
    print(f"{tool['name']}: annotations {tool.get('annotations')!r}")
print(f"no_such_tool: {unknown!r}")
print(f"stdout lines that are not JSON: {noise!r}")
verdict(any(not tool.get("annotations") for tool in tools) or bool(noise),
        f"a tool without annotations; {len(noise)} line(s) of stdout that are not JSON")
