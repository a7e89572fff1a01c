"""REGISTRY-05, ANNOTATION-04, RESULT-06: run_command declares no MCP annotations (no
readOnlyHint, destructiveHint, idempotentHint), so nothing says what kind of tool it is; a call
of a tool it does not have is a JSON-RPC error -32603 "Unknown tool", naming neither the tool
asked for nor the one it has.

    python3 listing.py            # exit 1: no annotations, and the bare "Unknown tool"
"""

import os
import tempfile
from pathlib import Path

from mcp_stdio import Server, verdict

parent = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
with tempfile.TemporaryDirectory(dir=parent) as base, Server(Path(base)) as server:
    listing = server.request("tools/list", {}) or {}
    unknown = server.call("no_such_tool")
tools = (listing.get("result") or {}).get("tools", [])
for tool in tools:
    print(f"{tool['name']}: annotations {tool.get('annotations')!r}")
print(f"no_such_tool: {unknown!r}")
bare = unknown is not None and "no_such_tool" not in unknown[1] and "run_command" not in unknown[1]
verdict(any(not tool.get("annotations") for tool in tools) or bare,
        f"a tool without annotations; an unknown tool's answer names no tool: {bare}")
