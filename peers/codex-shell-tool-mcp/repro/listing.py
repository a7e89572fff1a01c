"""REGISTRY-05, ANNOTATION-04: its one tool, shell, declares no MCP annotations (no readOnlyHint,
destructiveHint, idempotentHint), so nothing says what kind of tool it is.

    python3 listing.py            # exit 1: no annotations
"""

import os
import tempfile
from pathlib import Path

from mcp_stdio import Server, verdict

parent = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
with tempfile.TemporaryDirectory(dir=parent) as base, Server(Path(base)) as server:
    listing = server.request("tools/list", {}) or {}
tools = (listing.get("result") or {}).get("tools", [])
for tool in tools:
    print(f"{tool['name']}: annotations {tool.get('annotations')!r}")
verdict(any(not tool.get("annotations") for tool in tools), "a tool without annotations")
