"""CANCEL-02 and CANCEL-03, races the kit catches in some runs only: a cancelled write_file is
not stopped (one fs.writeFile: truncate, then write in chunks). Right after the cancellation
the file holds neither its old content nor the new one, and a write of the same file sent right
after can be overtaken by the rest of the cancelled one (mcp-server-filesystem 0.6.2 keeps the
official server's early write_file; the official one writes a temporary file and renames it
since 2025.7.1).

One server, as the kit starts it (the root on its command line): each round writes the old
content, asks write_file for a 6 MB new one, sends notifications/cancelled as soon as the
file's size moves (as the kit does), reads the file at once, then writes a short text and reads
it back once both answers are in.

    python3 peers/mcp-server-filesystem/repro/cancelled_write.py   # exit 1: a round departed
"""

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mcp_stdio import SERVER

OLD = "the old content\n"
NEW = "".join(f"line {number} of the new content\n" for number in range(200_000))
AFTER = "written after the cancel\n"
ROUNDS = 10

torn = overtaken = 0
with tempfile.TemporaryDirectory() as base:
    root = Path(base).resolve()
    if not SERVER.is_file():
        sys.exit(f"{SERVER} is missing: agentconf matrix --only mcp-server-filesystem "
                 "installs it")
    server = subprocess.Popen(["node", str(SERVER), str(root)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              cwd=root, env={**os.environ, "HOME": str(root)})
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
                "path": str(target), "content": NEW}})
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
                "path": str(target), "content": AFTER}})
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
