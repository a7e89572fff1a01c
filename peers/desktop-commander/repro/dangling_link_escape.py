"""SYMLINK-04: a write to a dangling link in the allowed folder whose target lies outside it
creates the target outside. Desktop Commander checks the path it was given (inside) and the
real path of what exists, but a dangling link has no real path yet, so `fs.writeFile` follows
the link and creates the file outside the allowed folder.

    python3 peers/desktop-commander/repro/dangling_link_escape.py   # exit 1: created outside
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

SERVER = (Path(__file__).resolve().parents[3] / ".cache" / "peers" / "desktop-commander"
          / "node_modules" / "@wonderwhy-er" / "desktop-commander" / "dist" / "index.js")
if not SERVER.is_file():
    sys.exit(f"{SERVER} is missing: agentconf matrix --only desktop-commander installs it")

with tempfile.TemporaryDirectory() as base:
    root, outside, home = (Path(base, name) for name in ("root", "outside", "home"))
    for folder in (root, outside, home / ".claude-server-commander"):
        folder.mkdir(parents=True)
    (home / ".claude-server-commander" / "config.json").write_text(json.dumps(
        {"allowedDirectories": [str(root)], "telemetryEnabled": False}))
    (root / "dangling_out").symlink_to(outside / "created_by_escape.txt")
    server = subprocess.Popen(["node", str(SERVER)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              cwd=root, env={**os.environ, "HOME": str(home)})

    def request(ident: int, method: str, params: dict) -> dict:
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write(json.dumps({"jsonrpc": "2.0", "id": ident, "method": method,
                                       "params": params}) + "\n")
        server.stdin.flush()
        while True:
            message = json.loads(server.stdout.readline())
            if message.get("id") == ident:
                return message

    try:
        request(1, "initialize", {"protocolVersion": "2024-11-05", "capabilities": {},
                                  "clientInfo": {"name": "repro", "version": "1"}})
        assert server.stdin is not None
        server.stdin.write(json.dumps({"jsonrpc": "2.0",
                                       "method": "notifications/initialized"}) + "\n")
        server.stdin.flush()
        answer = request(2, "tools/call", {"name": "write_file", "arguments": {
            "path": str(root / "dangling_out"), "content": "x"}})
    finally:
        server.kill()
        server.wait()
    created = (outside / "created_by_escape.txt").exists()
    print(f"write_file {root / 'dangling_out'} answered "
          f"{answer.get('result', {}).get('content')}; created outside: {created}")
    print("DEPARTS: the dangling link was followed out of the allowed folder" if created
          else "not reproduced (conforms)")
    sys.exit(1 if created else 0)
