"""RESULT-09: validatePath logs with console.log, on stdout, the channel MCP keeps for protocol
messages: 'requestedPath <path>', 'allowedDirectories [...]', 'parentDir ...' before each answer
(and 'Secure MCP Filesystem Server running on stdio' at start). A strict client fails to parse
them.

    python3 stdout_noise.py      # exit 1: stdout carried lines that are not JSON-RPC
"""

import tempfile
from pathlib import Path

from mcp_stdio import Server, verdict

with tempfile.TemporaryDirectory() as base:
    root = Path(base)
    (root / "a.txt").write_text("alpha\n")
    with Server(root) as server:
        server.call("read_file", path=str(root / "a.txt"))
        noise = list(server.noise)
    print(f"lines on stdout that are not JSON-RPC: {noise[:6]!r}")
    verdict(bool(noise), f"{len(noise)} non-protocol lines on stdout")
