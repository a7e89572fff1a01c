"""SHELL-09, SHELL-10: two commands that never come back.

- A command that reads stdin (`cat`) waits forever: without the `stdin` argument, exec() leaves
  the child's stdin an open pipe that nothing ends.
- A command that leaves a background process holding its output (`sleep 30 & echo started`)
  answers only when that process ends: exec() waits for the pipes to close.

    python3 hangs.py              # exit 1: neither answers within 8 seconds
"""

import os
import tempfile
from pathlib import Path

from mcp_stdio import Server, verdict

parent = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
with tempfile.TemporaryDirectory(dir=parent) as base:
    root = Path(base)
    with Server(root) as server:
        stdin = server.call("run_command", timeout=8, command="cat")
    with Server(root) as server:  # a fresh server: the first one is still waiting
        background = server.call("run_command", timeout=8, command="sleep 30 & echo started")
print(f"cat: {stdin!r}")
print(f"sleep 30 & echo started: {background!r}")
verdict(stdin is None or background is None,
        f"cat answered: {stdin is not None}; a background sleep's call answered: "
        f"{background is not None}")
