"""SHELL-07, SHELL-09: two commands that never come back.

- A command that ignores SIGTERM outlives its timeout for good: at the timeout `run` sends
  SIGTERM to the process group, and nothing after it (no SIGKILL).
- A command that reads stdin (`cat`) waits until the timeout (60 s by default): spawn() leaves
  the child's stdin an open pipe that nothing ends.

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
        stubborn = server.call("run", timeout=8, timeoutSeconds=1,
                               command="trap '' TERM; while true; do sleep 0.2; done")
    with Server(root) as server:  # a fresh server: the first one is still waiting
        stdin = server.call("run", timeout=8, command="cat")
print(f"a command ignoring SIGTERM, timeoutSeconds 1: {stubborn!r}")
print(f"cat: {stdin!r}")
verdict(stubborn is None or stdin is None,
        f"the SIGTERM-ignoring command answered: {stubborn is not None}; cat answered: "
        f"{stdin is not None}")
