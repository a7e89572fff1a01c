"""SHELL-14: a command given no timeout is never stopped. run_command gives exec() no
timeout and the tool takes none, so a command runs for as long as it runs: `sleep 45` has no
answer after 35 s (the contract's default is 30 s).

    python3 no_default_timeout.py     # exit 1: no answer within 35 seconds
"""

import os
import tempfile
from pathlib import Path

from mcp_stdio import Server, verdict

parent = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
with tempfile.TemporaryDirectory(dir=parent) as base, Server(Path(base)) as server:
    answer = server.call("run_command", timeout=35, command="sleep 45")
print(f"sleep 45: {answer!r}")
verdict(answer is None, f"answered within 35 s: {answer is not None}")
