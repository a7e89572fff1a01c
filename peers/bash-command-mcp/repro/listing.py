"""REGISTRY-04, REGISTRY-05, ANNOTATION-04: its tools declare no MCP annotations (no kind, no
readOnlyHint, destructiveHint, idempotentHint), and a call of a tool named like a property of
every JavaScript object (`__proto__`, `constructor`) is answered "Tool __proto__ disabled"
instead of "not found": the SDK's tool table is a plain object, looked up with `[name]`.

    python3 listing.py            # exit 1: no annotations, and __proto__ "disabled"
"""

import os
import tempfile
from pathlib import Path

from mcp_stdio import Server, verdict

parent = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
with tempfile.TemporaryDirectory(dir=parent) as base, Server(Path(base)) as server:
    listing = server.request("tools/list", {}) or {}
    proto = server.call("__proto__")
    unknown = server.call("no_such_tool")
tools = (listing.get("result") or {}).get("tools", [])
for tool in tools:
    print(f"{tool['name']}: annotations {tool.get('annotations')!r}")
print(f"__proto__: {proto!r}")
print(f"no_such_tool: {unknown!r}")
disabled = proto is not None and "not found" not in proto[1]
verdict(any(not tool.get("annotations") for tool in tools) or disabled,
        f"tools without annotations; __proto__ answered as a disabled tool: {disabled}")
