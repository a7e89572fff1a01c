"""CANCEL-02 and CANCEL-03, races the kit catches in some runs only: a cancelled write_file is
not stopped. It truncates the file and then writes it, so right after the cancellation the file
holds neither its old content nor the new one (part of the new text, or nothing); and a write
of the same file sent right after can be overtaken by the rest of the cancelled one.

One server, as the kit starts it (its config allows the root only): each round writes the old
content, asks write_file (mode rewrite) for a 6 MB new one, sends notifications/cancelled as
soon as the file's size moves (as the kit does), reads the file at once, then writes a short
text and reads it back once both answers are in.

    python3 peers/desktop-commander/repro/cancelled_write.py   # exit 1: a round departed
"""

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SERVER = (Path(__file__).resolve().parents[3] / ".cache" / "peers" / "desktop-commander"
          / "node_modules" / "@wonderwhy-er" / "desktop-commander" / "dist" / "index.js")
if not SERVER.is_file():
    sys.exit(f"{SERVER} is missing: agentconf matrix --only desktop-commander installs it")

OLD = "the old content\n"
NEW = "".join(f"line {number} of the new content\n" for number in range(200_000))
AFTER = "written after the cancel\n"
ROUNDS = 10

torn = overtaken = 0
with tempfile.TemporaryDirectory() as base:
    root, home = Path(base, "root"), Path(base, "home")
    for folder in (root, home / ".claude-server-commander"):
        folder.mkdir(parents=True)
    (home / ".claude-server-commander" / "config.json").write_text(json.dumps(
        {"allowedDirectories": [str(root)], "telemetryEnabled": False}))
    server = subprocess.Popen(["node", str(SERVER)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              cwd=root, env={**os.environ, "HOME": str(home)})
    ident = 0

    def send(message: dict) -> None:
        assert server.stdin is not None
        server.stdin.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
        server.stdin.flush()

    def answer_to(wanted: int) -> dict:
        assert server.stdout is not None
        while True:
            line = server.stdout.readline()
            if not line:
                sys.exit("the server closed its output")
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if message.get("id") == wanted:
                return message

    def ask(method: str, params: dict) -> int:
        global ident
        ident += 1
        send({"id": ident, "method": method, "params": params})
        return ident

    try:
        answer_to(ask("initialize", {"protocolVersion": "2024-11-05", "capabilities": {},
                                     "clientInfo": {"name": "repro", "version": "1"}}))
        send({"method": "notifications/initialized"})
        target = root / "big.txt"
        for _ in range(ROUNDS):
            target.write_text(OLD)
            asked = ask("tools/call", {"name": "write_file", "arguments": {
                "path": str(target), "content": NEW, "mode": "rewrite"}})
            deadline = time.monotonic() + 10
            while target.stat().st_size == len(OLD) and time.monotonic() < deadline:
                time.sleep(0.001)
            send({"method": "notifications/cancelled",
                  "params": {"requestId": asked, "reason": "cancelled by the client"}})
            content = target.read_text()
            if content not in (OLD, NEW):
                torn += 1
                if torn == 1:
                    print(f"after the cancellation big.txt held {len(content)} characters: "
                          f"neither the old {len(OLD)} nor the new {len(NEW)}")
            later = ask("tools/call", {"name": "write_file", "arguments": {
                "path": str(target), "content": AFTER, "mode": "rewrite"}})
            answer_to(later)
            time.sleep(1)  # whatever of the cancelled write still runs, lands now
            if target.read_text() != AFTER:
                overtaken += 1
    finally:
        server.kill()
        server.wait()

print(f"CANCEL-02: {torn} of {ROUNDS} cancelled writes left a file that was never whole")
print(f"CANCEL-03: in {overtaken} of {ROUNDS} rounds the next write was overtaken by the "
      "cancelled one")
sys.exit(1 if torn or overtaken else 0)
