"""CANCEL-01: a run_command cancelled with notifications/cancelled keeps running: the SDK stops
waiting for it, but nothing kills the command's processes.

    python3 cancel_leaves_processes.py      # exit 1: the command's sleep still runs

The server and everything it started are killed when the reproduction ends.
"""

import os
import tempfile
import time
from pathlib import Path

from mcp_stdio import Server, alive, verdict

parent = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
with tempfile.TemporaryDirectory(dir=parent) as base:
    root = Path(base)
    with Server(root) as server:
        request = server.start("tools/call", {"name": "run_command", "arguments": {
            "command": "sleep 300 & echo $! > background.pid; echo $$ > shell.pid; wait"}})
        deadline = time.monotonic() + 10
        while not all((root / name).is_file() and (root / name).read_text().endswith("\n")
                      for name in ("background.pid", "shell.pid")):
            if time.monotonic() > deadline:
                raise SystemExit("the command never started")
            time.sleep(0.1)
        server.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                     "params": {"requestId": request, "reason": "repro"}})
        time.sleep(3)
        pids = [int((root / name).read_text()) for name in ("background.pid", "shell.pid")]
        living = [pid for pid in pids if alive(pid)]
print(f"pids {pids}; still running 3 s after the cancel: {living}")
verdict(bool(living), "the cancelled command's processes still run")
