"""A minimal MCP client over stdio (JSON-RPC, newline-delimited), standard library only, so a
maintainer can run each reproduction with nothing but Python and the installed server.

    with Server(ROOT_DIR) as server:
        server.call("read_file", path=...)   # -> (is_error, text)

    python3 symlink_escape.py [path/to/mcp-server-filesystem/dist/index.js]
"""

import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PEER = HERE.parent.name
# Where `agentconf matrix` (or the README's npm ci) installs it; another version's dist/index.js
# as the first argument shows the same reproduction on it.
SERVER = Path(sys.argv[1]) if len(sys.argv) > 1 else (
    HERE.parents[2] / ".cache" / "peers" / PEER / "node_modules" / "mcp-server-filesystem"
    / "dist" / "index.js")


class Server:
    def __init__(self, root: Path, server: Path = SERVER) -> None:
        if not server.is_file():
            sys.exit(f"{server} is missing: install the peer first (see ../README.md)")
        self._process = subprocess.Popen(
            ["node", str(server), str(root)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, cwd=root, env={**os.environ, "HOME": str(root)})
        self._id = 0
        self._request("initialize", {"protocolVersion": "2024-11-05", "capabilities": {},
                                     "clientInfo": {"name": "repro", "version": "1"}})
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def __enter__(self) -> "Server":
        return self

    def __exit__(self, *_: object) -> None:
        self._process.kill()
        self._process.wait()

    def _send(self, message: dict) -> None:
        assert self._process.stdin is not None
        self._process.stdin.write(json.dumps(message) + "\n")
        self._process.stdin.flush()

    def _request(self, method: str, params: dict) -> dict:
        self._id += 1
        self._send({"jsonrpc": "2.0", "id": self._id, "method": method, "params": params})
        assert self._process.stdout is not None
        while True:
            message = json.loads(self._process.stdout.readline())
            if message.get("id") == self._id:
                return message

    def call(self, tool: str, **arguments: object) -> tuple[bool, str]:
        answer = self._request("tools/call", {"name": tool, "arguments": arguments})
        result = answer.get("result") or {}
        text = "".join(part.get("text", "") for part in result.get("content", []))
        return bool(result.get("isError")) or "error" in answer, text or json.dumps(answer)


def verdict(departed: bool, what: str) -> None:
    print(("DEPARTS: " if departed else "not reproduced (conforms): ") + what)
    sys.exit(1 if departed else 0)
